"""Rulings that last: every state change of a record, the people allowed to make it, and the exports."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.dialogs import Chart, DialogError, Dialogs, NotFound, Screen, load_charts, parse_chart, read_charts
from bot.laws import load_lawbook
from bot.rulings import RulingError, Rulings
from bot.rulings.export import export
from bot.rulings.settings import authorities, club_settings
from bot.store import Position, Status, Store

GOLDEN = Path(__file__).parent / "golden"


async def finished(dialogs: Dialogs, owner: str = "tg:1") -> int:
    screen = await dialogs.start(owner, "demo-main")
    for step, option in enumerate(["rho", "small"]):
        screen = await dialogs.answer(owner, screen.session_id, step, option)
    assert screen.finished
    return screen.session_id


@pytest.fixture
def rulings(store: Store, dialogs: Dialogs) -> Rulings:
    return Rulings(store, dialogs, admins=frozenset({"tg:99"}))


async def test_a_finished_dialogue_is_a_record_with_details(rulings: Rulings, dialogs: Dialogs) -> None:
    sid = await finished(dialogs)
    record = await rulings.annotate("tg:1", sid, board="14", offender="e", non_offenders="ns", note="LHO agreed")
    assert record.annotations == {"board": "14", "offender": "E", "non_offenders": "NS", "note": "LHO agreed"}
    assert record.current and record.current.texts == (  # what the walk stated on the way, then its ruling
        "The card of the right-hand opponent stays face up on the table.",
        "A minor penalty card for the right-hand opponent.",
    )
    assert record.current.laws == ("50C", "50A") and record.path[0].answer == "RHO"  # the ruling, then its note
    with pytest.raises(RulingError, match="board is a number"):
        await rulings.annotate("tg:1", sid, board="fourteen")
    with pytest.raises(RulingError, match="N, E, S or W"):
        await rulings.annotate("tg:1", sid, offender="X")
    with pytest.raises(NotFound):
        await rulings.annotate("tg:2", sid, note="not mine")


async def test_share_links_open_a_read_only_record_until_revoked(rulings: Rulings, dialogs: Dialogs) -> None:
    sid = await finished(dialogs)
    token = await rulings.share("tg:1", sid)
    assert len(token) >= 43 and re.fullmatch(r"[A-Za-z0-9_-]+", token)  # 32 random bytes: 256 bits
    shared = await rulings.shared(token)
    assert shared is not None and shared.session_id == sid
    assert await rulings.shared("x" * 43) is None and await rulings.shared("../etc") is None
    with pytest.raises(NotFound):
        await rulings.share("tg:2", sid)
    await rulings.revoke("tg:1", sid)
    assert await rulings.shared(token) is None


async def test_reopening_keeps_both_versions(rulings: Rulings, dialogs: Dialogs) -> None:
    sid = await finished(dialogs)
    screen = await rulings.reopen("tg:1", sid)
    assert screen.node_id == "card" and screen.status == "open"
    with pytest.raises(NotFound):
        await rulings.reopen("tg:2", sid)
    screen = await dialogs.answer("tg:1", sid, screen.step, "honour")
    for option in ("continue", "continue", "no"):
        screen = await dialogs.answer("tg:1", sid, screen.step, option)
    record = await rulings.record(sid)
    assert [v.texts[-1] for v in record.versions] == [
        "A minor penalty card for the right-hand opponent.",
        "The score stands.",
    ]


async def test_appeals_within_the_deadline_and_decisions_by_the_committee(
    rulings: Rulings, dialogs: Dialogs, store: Store
) -> None:
    sid = await finished(dialogs)
    club = await store.create_club("Riverside BC", "ACBL", "tg:1")
    await rulings.attach_club("tg:1", sid, club)
    token = await rulings.share("tg:1", sid)
    with pytest.raises(NotFound):  # an outsider without the link
        await rulings.appeal("tg:7", sid, "I disagree")
    record = await rulings.appeal("tg:5", sid, "The card was not exposed", token=token)
    assert [a.by for a in record.appeals] == ["tg:5"] and record.appeal_minutes == 30
    assert record.appeal_deadline is not None
    with pytest.raises(RulingError, match="time to appeal ended"):
        await rulings.appeal("tg:5", sid, "too late", token=token, now=record.appeal_deadline + 1)
    with pytest.raises(NotFound):  # not on the committee
        await rulings.decide("tg:5", sid, "upheld", "returned", "")
    await store.set_role(club, "tg:3", "committee")
    record = await rulings.decide("tg:3", sid, "adjusted", "returned", "Score adjusted to 3NT= by E/W")
    assert record.decisions[-1].outcome == "adjusted" and record.appeals  # nothing overwritten
    with pytest.raises(RulingError, match="one of"):
        await rulings.decide("tg:99", sid, "maybe", "returned", "")


async def test_club_settings_come_from_the_authority_and_the_club(store: Store) -> None:
    assert set(authorities()) >= {"WBF", "ACBL", "EBU", "other"}
    club_id = await store.create_club("Riverside BC", "ACBL", "tg:1")
    club = await store.club(club_id)
    assert club_settings(club)["appeal_minutes"] == 30
    await store.update_club(club_id, settings={"appeal_minutes": 45}, appeals_chat="-1001")
    club = await store.club(club_id)
    assert club is not None and club_settings(club)["appeal_minutes"] == 45 and club.appeals_chat == "-1001"


async def test_the_club_log_counts_rulings_per_law(rulings: Rulings, dialogs: Dialogs, store: Store) -> None:
    club = await store.create_club("Riverside BC", "WBF", "tg:1")
    for _ in range(2):
        await rulings.attach_club("tg:1", await finished(dialogs), club)
    records, per_law = await rulings.club_log("tg:1", club, 0, 4e9)
    assert len(records) == 2 and per_law[50] == 2
    with pytest.raises(NotFound):
        await rulings.club_log("tg:2", club, 0, 4e9)


async def test_starting_a_chart_files_it_under_the_one_club_the_director_directs_for(
    rulings: Rulings, store: Store
) -> None:
    club = await store.create_club("Riverside BC", "WBF", "tg:1")
    screen = await rulings.start("tg:1", "demo-main")
    assert (await rulings.record(screen.session_id)).club is not None
    await store.set_role(club, "tg:3", "committee")  # a committee member's own rulings are not the club's
    screen = await rulings.start("tg:3", "demo-main")
    assert (await rulings.record(screen.session_id)).club is None
    with pytest.raises(RulingError, match="do not direct"):
        await rulings.attach_club("tg:3", screen.session_id, club)
    await store.create_club("Hillside BC", "WBF", "tg:1")  # two clubs: the director chooses
    screen = await rulings.start("tg:1", "demo-main")
    assert (await rulings.record(screen.session_id)).club is None
    assert (await rulings.attach_club("tg:1", screen.session_id, club)).club is not None
    assert (await rulings.attach_club("tg:1", screen.session_id, None)).club is None


async def test_a_role_counts_only_once_the_person_accepts_it(rulings: Rulings, store: Store) -> None:
    club = await rulings.create_club("tg:66", "Attacker's club")
    await rulings.grant("tg:66", club, "tg:1", "director")  # the victim has not agreed
    assert await store.roles(club, "tg:1") == set()
    screen = await rulings.start("tg:1", "demo-main")
    assert (await rulings.record(screen.session_id)).club is None  # nothing of theirs is filed there
    records, _ = await rulings.club_log("tg:66", club, 0, 4e9)
    assert records == []
    with pytest.raises(RulingError, match="no invitation"):
        await rulings.accept("tg:2", club)
    club_row, roles = await rulings.accept("tg:1", club)
    assert roles == {"director"} and await store.roles(club, "tg:1") == {"director"}
    assert await store.invites(club, "tg:1") == set()
    screen = await rulings.start("tg:1", "demo-main")
    assert (await rulings.record(screen.session_id)).club == club_row
    await rulings.grant("tg:66", club, "tg:2", "committee")
    await rulings.decline("tg:2", club)
    assert await store.roles(club, "tg:2") == set() and await store.invites(club, "tg:2") == set()


async def test_club_changes_are_checked_by_the_service(rulings: Rulings, store: Store) -> None:
    club = await rulings.create_club("tg:1", "  Riverside   BC ")
    assert (await store.club(club)).name == "Riverside BC"  # type: ignore[union-attr]
    with pytest.raises(RulingError, match="Only the club's administrators"):
        await rulings.set_authority("tg:2", club, "ACBL")
    with pytest.raises(RulingError, match="one of"):
        await rulings.set_authority("tg:1", club, "FIFA")
    with pytest.raises(RulingError, match="5 to 1440"):
        await rulings.set_deadline("tg:1", club, "99999999999999999999")
    await rulings.set_deadline("tg:1", club, "45")
    assert club_settings(await store.club(club))["appeal_minutes"] == 45


async def test_forget_deletes_a_users_data(rulings: Rulings, dialogs: Dialogs, store: Store) -> None:
    sid = await finished(dialogs)
    token = await rulings.share("tg:1", sid)
    assert (await rulings.forget("tg:1")).deleted == 1
    assert await store.session(sid) is None and await rulings.shared(token) is None


async def test_forget_keeps_a_clubs_record_without_the_user_and_leaves_no_text_behind(
    rulings: Rulings, dialogs: Dialogs, store: Store
) -> None:
    own = await finished(dialogs)  # filed under no club: deleted
    await rulings.annotate("tg:1", own, note="PRIVATE-NOTE-1")
    kept_club = await rulings.create_club("tg:9", "Riverside")  # another administrator: the club stays
    await rulings.grant("tg:9", kept_club, "tg:1", "director")
    await rulings.accept("tg:1", kept_club)
    filed = await finished(dialogs)
    await rulings.attach_club("tg:1", filed, kept_club)
    await rulings.annotate("tg:1", filed, board="7", note="CLUB-NOTE-2", event="Monday pairs")
    token = await rulings.share("tg:1", filed)
    await rulings.appeal("tg:5", filed, "The player's own reason", token=token, name="Pat")
    alone = await rulings.create_club("tg:1", "Hillside")  # administered by tg:1 alone: dissolved
    await rulings.grant("tg:1", alone, "tg:2", "director")
    await rulings.accept("tg:2", alone)
    await rulings.grant("tg:1", alone, "tg:1", "committee")
    await rulings.accept("tg:1", alone)
    others = await finished(dialogs, owner="tg:2")
    await rulings.attach_club("tg:2", others, alone)
    await rulings.appeal("tg:1", others, "MY-APPEAL-3", token=await rulings.share("tg:2", others), name="Ann")
    await rulings.decide("tg:1", others, "upheld", "returned", "MY-DECISION-4")
    given = await finished(dialogs)
    await rulings.hand_over("tg:1", given, "tg:2")

    done = await rulings.forget("tg:1")

    assert (done.deleted, done.anonymised, done.dissolved) == (1, 1, 1)
    assert await store.session(own) is None
    record = await rulings.record(filed)  # the club keeps its record, naming nobody
    assert record.director == "a forgotten user" and record.club is not None and record.club.id == kept_club
    assert record.annotations == {"board": "7"} and await rulings.shared(token) is None
    assert [(a.by, a.reason, a.name) for a in record.appeals] == [("tg:5", "The player's own reason", "Pat")]
    record = await rulings.record(others)  # someone else's ruling: theirs, now in no club
    assert record.director == "tg:2" and record.club is None and await store.club(alone) is None
    assert [(a.by, a.name) for a in record.appeals] == [("a forgotten user", "")]
    assert "MY-APPEAL-3" not in record.appeals[0].reason and record.decisions[0].by == "a forgotten user"
    assert record.decisions[0].outcome == "upheld" and "MY-DECISION-4" not in record.decisions[0].text
    assert await store.clubs_of("tg:1") == [] and await store.roles(kept_club, "tg:9") == {"admin"}
    handover = [e.data for e in await store.events(given) if e.kind == "handover"]
    assert handover == [{"from": "a forgotten user", "to": "tg:2"}]  # the ruling given away stays its new owner's
    files = [Path(store.path), Path(f"{store.path}-wal")]
    on_disk = b"".join(f.read_bytes() for f in files if f.exists())
    for text in (b"PRIVATE-NOTE-1", b"CLUB-NOTE-2", b"Monday pairs", b"MY-APPEAL-3", b"MY-DECISION-4", b"Ann"):
        assert text not in on_disk, text  # neither in the WAL nor in the database's free space


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
async def test_exports_match_their_golden_files(rulings: Rulings, dialogs: Dialogs, fmt: str) -> None:
    sid = await finished(dialogs)
    await rulings.annotate("tg:1", sid, board="7", offender="E", non_offenders="NS", note="<b>bold</b> & co")
    text = export(load_lawbook(), await rulings.record(sid), fmt)
    text = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d", "YYYY-MM-DD HH:MM", text)
    golden = GOLDEN / f"ruling.{ {'text': 'txt', 'markdown': 'md', 'html': 'html'}[fmt] }"
    assert text == golden.read_text(encoding="utf-8"), f"export changed: review it and update {golden.name}"
    if fmt == "html":
        assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in text and "<b>bold</b>" not in text


async def test_the_events_name_answers_the_form_of_contest_and_the_ruling_reads_its_paragraph(store: Store) -> None:
    """'event Tuesday teams' on the record answers the form of contest: the ruling reads the team match's words."""
    dialogs = Dialogs(store, load_charts())
    rulings = Rulings(store, dialogs)
    screen = await dialogs.start("tg:1", "adjusted-score")
    sid = screen.session_id
    for option in ("yes", "damage", "yes"):  # within the time for a ruling; damage; yes
        screen = await dialogs.answer("tg:1", sid, screen.step, option)
    assert screen.node_id == "contest"  # nothing says the form of contest yet: it is asked
    screen = await dialogs.back("tg:1", sid)
    await rulings.annotate("tg:1", sid, event="Tuesday teams")
    screen = await dialogs.answer("tg:1", sid, screen.step, "yes")
    assert screen.node_id == "can-assign" and screen.path[-1].answer == "Teams (IMPs)"
    for option in ("single", "no"):
        screen = await dialogs.answer("tg:1", sid, screen.step, option)
    assert screen.finished and "In a team match" in screen.rulings[-1].text
    assert "individual event" not in screen.rulings[-1].text


async def _adjusted(dialogs: Dialogs, description: str, *answers: str) -> Screen:
    """An adjusted-score session started from ``description`` and answered with ``answers`` as they come."""
    screen = await dialogs.start("tg:1", "adjusted-score", description=description)
    for option in answers:
        screen = await dialogs.answer("tg:1", screen.session_id, screen.step, option)
    return screen


async def test_a_split_score_cites_knockout_averaging_only_in_a_knockout_match(store: Store) -> None:
    """'Knockout' answers the form of contest and whether the match is a knockout: the split score shown and
    filed cites 12C4; a Swiss teams event's and a pairs game's do not."""
    dialogs = Dialogs(store, load_charts())
    rulings = Rulings(store, dialogs)
    for description, cited in (("knockout match", True), ("swiss teams", False), ("pairs game", False)):
        screen = await _adjusted(dialogs, description, "yes", "damage", "yes", "single", "yes")
        assert screen.finished and screen.rulings[-1].node == "split-score"
        assert ("12C4" in screen.laws) is cited and screen.laws[0] == "12C1(e)"
        record = await rulings.record(screen.session_id)
        assert record.current and record.current.laws == screen.laws


async def test_a_ruling_stored_before_its_laws_moved_keeps_the_laws_it_was_given(store: Store) -> None:
    """A pairs weighted score filed when every adjusted score cited 86B1, 12C3 and 89 still loads, and its record
    and export show the laws it was given: a filed ruling is never rewritten."""
    dialogs = Dialogs(store, load_charts())
    rulings = Rulings(store, dialogs)
    screen = await _adjusted(dialogs, "pairs game", "yes", "damage", "yes", "weighted")
    assert screen.node_id == "self-inflicted"
    sid, given = screen.session_id, ("12C1(c)", "12C1(b)", "86B1", "12C3", "89")
    events = await store.events(sid)
    filed = {"rulings": ["adjusted-score/assigned-weighted"], "texts": ["A WEIGHTED adjusted score."], "laws": given}
    answer = {"chart": "adjusted-score", "node": "self-inflicted", "option": "no"}
    await store.append(
        sid, len(events), [("answer", answer), ("ruling", filed)], Position(Status.FINISHED, screen.step + 1, "")
    )
    record = await rulings.record(sid)
    assert record.finished and record.current and record.current.laws == given
    assert "Law 86 — Team Play › B. Result Obtained at Other Table › 1." in export(load_lawbook(), record, "text")
    now = await dialogs.screen("tg:1", sid)
    assert now.finished and "86B1" not in now.laws  # walked again today, the chart cites what applies at pairs


async def test_pairs_in_a_description_is_not_a_pairs_event(store: Store) -> None:
    """'Both pairs agree' says nothing about the form of contest: the question is asked, not answered."""
    dialogs = Dialogs(store, load_charts())
    screen = await dialogs.start("tg:1", "adjusted-score", description="both pairs agree the card was seen")
    for option in ("yes", "damage", "yes"):
        screen = await dialogs.answer("tg:1", screen.session_id, screen.step, option)
    assert screen.node_id == "contest" and not screen.from_description


def _reworded(demo: Path) -> dict[str, Chart]:
    """The demo charts after an update that renamed the answer a finished ruling gave ("small" → "low")."""
    charts = read_charts(demo)
    text = (demo / "demo-main.yaml").read_text(encoding="utf-8").replace("id: small", "id: low")
    return {**charts, "demo-main": parse_chart(text, "demo-main.yaml")}


async def test_a_ruling_whose_chart_changed_since_is_still_shown_exported_and_appealed(
    store: Store, dialogs: Dialogs
) -> None:
    """A chart update must not take a club's finished rulings with it: the record is kept as it was given (its
    answers and ruling as the director saw them), exported and appealed; only reopening it is refused."""
    sid = await finished(dialogs)
    given = await Rulings(store, dialogs).record(sid)
    later = Dialogs(store, _reworded(Path(__file__).parent / "fixtures" / "dialogs"))
    rulings = Rulings(store, later)
    record = await rulings.record(sid)
    assert record.finished and record.current and record.current.texts == given.current.texts
    assert [(a.question, a.answer) for a in record.path] == [
        ("Who exposed a card?", "RHO"),
        ("Was it an honour?", "No, a small card"),
    ]
    text = export(load_lawbook(), record, "text")
    assert (
        "A minor penalty card for the right-hand opponent." in text and "Was it an honour? → No, a small card" in text
    )
    token = await rulings.share("tg:1", sid)
    appealed = await rulings.appeal("tg:5", sid, "The card was a king", token=token)
    assert [a.reason for a in appealed.appeals] == ["The card was a king"]
    with pytest.raises(DialogError, match="has changed since session"):
        await rulings.reopen("tg:1", sid)


async def test_a_ruling_stored_before_its_path_was_kept_shows_the_answers_the_chart_still_knows(
    store: Store, dialogs: Dialogs
) -> None:
    """A ruling filed by an earlier bot, whose marker holds only the ruling's words: the answers the chart still
    replays are shown as asked, the one it no longer knows by its stored name, and the ruling as given."""
    sid = await finished(dialogs)
    events = await store.events(sid)
    old = [(e.kind, {k: v for k, v in e.data.items() if k not in ("path", "score")}) for e in events]
    again = await store.create_session("tg:1", None, "demo-main", 1, old[0][1], Position("finished", 2, ""))
    await store.append(again, 1, old[1:], Position(Status.FINISHED, 2, ""))
    record = await Rulings(store, Dialogs(store, _reworded(Path(__file__).parent / "fixtures" / "dialogs"))).record(
        again
    )
    assert [(a.question, a.answer) for a in record.path] == [
        ("Who exposed a card?", "RHO"),
        ("(demo-main/card)", "small"),
    ]
    assert record.current and record.current.texts[-1] == "A minor penalty card for the right-hand opponent."
