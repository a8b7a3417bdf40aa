"""Rulings that last: every state change of a record, the people allowed to make it, and the exports."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.dialogs import Dialogs, NotFound
from bot.laws import load_lawbook
from bot.rulings import RulingError, Rulings, authorities, club_settings
from bot.rulings.export import export
from bot.store import Store

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
    assert record.current and record.current.texts == ("A minor penalty card for the right-hand opponent.",)
    assert record.current.laws == ("50C",) and record.path[0].answer == "RHO"
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


async def test_forget_deletes_a_users_data(rulings: Rulings, dialogs: Dialogs, store: Store) -> None:
    sid = await finished(dialogs)
    token = await rulings.share("tg:1", sid)
    assert await rulings.forget("tg:1") == 1
    assert await store.session(sid) is None and await rulings.shared(token) is None


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
