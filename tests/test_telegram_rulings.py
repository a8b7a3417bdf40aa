"""Rulings that last, on Telegram: details, notes, share links, appeals, committee decisions, clubs, /forget."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator

import pytest
from fake_telegram import FakeBotAPI, Table, start_bot
from telegram import Update
from telegram.ext import Application

from bot.dialogs import Chart
from bot.store import Store


@pytest.fixture
async def demo(store: Store, demo_charts: dict[str, Chart]) -> AsyncIterator[tuple[Application, FakeBotAPI]]:
    api = FakeBotAPI()
    app = await start_bot(store, demo_charts, api, admins=frozenset({"tg:42"}))
    yield app, api
    await app.shutdown()


async def rule(table: Table) -> int:
    await table.send("/charts")
    await table.press("Demo of every node kind")
    for label in ("RHO", "No, a small card"):
        calls = await table.press(label)
    text = table.texts(calls)
    return int(re.search(r"Session (\d+)", text).group(1))  # type: ignore[union-attr]


@pytest.mark.slow
async def test_the_ruling_offers_its_actions_and_records_details_and_a_note(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    table = Table(app, api)
    sid = await rule(table)
    await table.press("Board & seats")
    assert "Saved: board 14" in table.alerts(
        await table.press("14", message=table.last_message(with_button="Offender E"))
    )
    await table.press("Offender E", message=table.last_message(with_button="Offender E"))
    await table.press("Non-offending NS", message=table.last_message(with_button="Offender E"))
    await table.press("Name the event", message=table.last_message(with_button="Offender E"))
    assert "Event saved" in table.texts(await table.reply_to(f"Event for ruling {sid}", "Monday pairs"))
    await table.press("Add a note", message=table.last_message(with_button="Add a note"))
    calls = await table.reply_to(f"Note for ruling {sid}", "E/W agreed the facts")
    assert "Note saved" in table.texts(calls)
    events = [e for e in await store.events(sid) if e.kind == "annotate"]
    merged: dict[str, str] = {}
    for event in events:
        merged.update(event.data)
    assert merged == {
        "board": "14",
        "offender": "E",
        "non_offenders": "NS",
        "note": "E/W agreed the facts",
        "event": "Monday pairs",
    }


@pytest.mark.slow
async def test_a_ruling_read_again_says_who_is_who_at_the_table_first(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    sid = await rule(table)
    await table.send("/history")
    assert "is the offender" not in table.texts(await table.press(f"{sid}. "))  # no seat recorded: nothing said
    await table.press("Board & seats", message=table.last_message(with_button="Board & seats"))
    await table.press("Offender E", message=table.last_message(with_button="Offender E"))
    await table.send("/history")
    text = table.texts(await table.press(f"{sid}. "))
    seats = (
        "East is the offender: West is the offender's partner, South the left-hand opponent (LHO) and North the"
        " right-hand opponent (RHO); North–South are the non-offending side."
    )
    assert seats in text and text.index("Ruling —") < text.index(seats) < text.index("Laws applied")
    shared = table.texts(await table.press("Share", message=table.last_message(with_button="Share")))
    assert seats in shared  # the summary a committee or the players receive says it too


@pytest.mark.slow
async def test_a_shared_link_opens_a_transcript_and_lets_a_player_appeal(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    director, player = Table(app, api, user_id=1), Table(app, api, user_id=5, chat_id=5, name="Pat")
    club = await store.create_club("Riverside", "ACBL", "tg:1")
    await store.update_club(club, appeals_chat="-300")
    sid = await rule(director)
    await store.set_session_club(sid, club)
    calls = await director.press("Share", message=director.last_message(with_button="Share"))
    link = re.search(r"start=r_([A-Za-z0-9_-]+)", director.texts(calls))
    assert link and len(link.group(1)) >= 43
    calls = await player.send(f"/start r_{link.group(1)}")
    assert "RULING" in player.texts(calls) and "A minor penalty card" in player.texts(calls)
    await player.press("Appeal this ruling")
    calls = await player.reply_to(f"Reason for appealing ruling {sid}", "The card was never exposed")
    assert "Appeal lodged" in player.texts(calls)
    to_committee = [c for c in calls if c.method == "sendMessage" and str(c.params["chat_id"]) == "-300"]
    assert to_committee and "The card was never exposed" in to_committee[0].params["text"]
    outsider = Table(app, api, user_id=7, chat_id=7)
    assert "Only the club's appeals committee" in outsider.texts(await outsider.send(f"/decide {sid} upheld returned"))
    await store.set_role(club, "tg:3", "committee")
    committee = Table(app, api, user_id=3, chat_id=3)
    assert "Decision recorded" in committee.texts(await committee.send(f"/decide {sid} upheld returned fine ruling"))
    kinds = [e.kind for e in await store.events(sid) if e.kind in ("share", "appeal", "decision")]
    assert kinds == ["share", "appeal", "decision"]  # the history is appended, nothing overwritten


async def appeal_from_player(
    app: Application, api: FakeBotAPI, store: Store, reason: str, committee_unreachable: bool = False
) -> tuple[int, list]:
    """A ruling of a club with an appeals chat (-300), shared with Pat (user 5, @pat), who appeals it."""
    director = Table(app, api, user_id=1)
    player = Table(app, api, user_id=5, chat_id=5, name="Pat")
    player.user["last_name"], player.user["username"] = "Lee", "pat"
    club = await store.create_club("Riverside", "ACBL", "tg:1")
    await store.update_club(club, appeals_chat="-300")
    sid = await rule(director)
    calls = await director.press("Share", message=director.last_message(with_button="Share"))
    token = re.search(r"start=r_([A-Za-z0-9_-]+)", director.texts(calls)).group(1)  # type: ignore[union-attr]
    await player.send(f"/start r_{token}")
    await player.press("Appeal this ruling")
    if committee_unreachable:
        api.fail("sendMessage", status=400, description="Bad Request: chat not found")
    return sid, await player.reply_to(f"Reason for appealing ruling {sid}", reason)


def to_committee(calls: list) -> list[str]:
    return [c.params["text"] for c in calls if c.method == "sendMessage" and str(c.params["chat_id"]) == "-300"]


def to_appellant(calls: list) -> str:
    return " ".join(c.params["text"] for c in calls if c.method == "sendMessage" and str(c.params["chat_id"]) == "5")


async def test_the_appeals_chat_sees_the_appellants_name(demo: tuple[Application, FakeBotAPI], store: Store) -> None:
    app, api = demo
    sid, calls = await appeal_from_player(app, api, store, "The card was never exposed")
    (message,) = to_committee(calls)
    assert "Appeal</b> by Pat Lee:" in message and "tg:5" not in message
    assert "committee has been told" in to_appellant(calls)
    (appeal,) = [e for e in await store.events(sid) if e.kind == "appeal"]
    assert appeal.data["name"] == "Pat Lee" and appeal.data["by"] == "tg:5"


async def test_an_appeal_reason_is_capped_and_a_long_one_reaches_the_committee_within_the_limit(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    sid, calls = await appeal_from_player(app, api, store, "&<>" * 700)
    assert "at most 1,000 characters (yours has 2,100)" in to_appellant(calls) and not to_committee(calls)
    assert [e.kind for e in await store.events(sid)].count("appeal") == 0
    player = Table(app, api, user_id=5, chat_id=5, name="Pat")
    reason = "&<" * 500  # 1,000 characters that escape to 4,500
    await player.press("Appeal this ruling", message=player.last_message(with_button="Appeal this ruling"))
    calls = await player.reply_to(f"Reason for appealing ruling {sid}", reason)
    messages = to_committee(calls)
    assert len(messages) >= 2 and all(len(m) <= 4096 for m in messages)
    assert "".join(messages).count("&amp;&lt;") == 500 and "/decide" in messages[-1]


async def test_an_appellant_is_told_when_the_committee_could_not_be(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    sid, calls = await appeal_from_player(app, api, store, "The card was never exposed", committee_unreachable=True)
    told = to_appellant(calls)
    assert "could not be told" in told and "in the ruling's record" in told and "Something went wrong" not in told
    assert [e.kind for e in await store.events(sid)].count("appeal") == 1


async def test_decide_answers_outsiders_the_same_whatever_the_id(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    director, outsider = Table(app, api, user_id=1), Table(app, api, user_id=7, chat_id=7)
    plain = await rule(director)
    appealed = await rule(director)
    await director.press("Appeal", message=director.last_message(with_button="Appeal"))
    await director.reply_to(f"Reason for appealing ruling {appealed}", "I misjudged it")
    answers = {
        outsider.texts(await outsider.send(f"/decide {sid} upheld returned")) for sid in (plain, appealed, 99999)
    }
    assert answers == {"Only the club's appeals committee can decide an appeal."}
    huge = outsider.texts(await outsider.send(f"/decide {10**30} upheld returned"))  # not an id at all
    assert huge in answers or huge.startswith("Use: /decide")
    assert [e.kind for e in await store.events(appealed)].count("decision") == 0


@pytest.mark.slow
async def test_revoked_links_and_forged_appeals_change_nothing(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    director, outsider = Table(app, api, user_id=1), Table(app, api, user_id=9, chat_id=9)
    sid = await rule(director)
    calls = await director.press("Share", message=director.last_message(with_button="Share"))
    token = re.search(r"start=r_([A-Za-z0-9_-]+)", director.texts(calls)).group(1)  # type: ignore[union-attr]
    await director.press("Stop sharing")
    assert "does not open a ruling" in outsider.texts(await outsider.send(f"/start r_{token}"))
    before = await store.events(sid)
    records = (f"ra:{sid}", f"rt:{token}", f"rs:{sid}", f"ro:{sid}", f"rd:{sid}:board:3", f"rn:{sid}", "fg:no")
    clubs = (f"rc:{sid}", f"rc:{sid}:1", f"rc:{sid}:{10**20}", "ci:1:y", f"ci:{10**20}:y", "ci:1:maybe")
    for data in (*records, *clubs):
        calls = await outsider.press_data(data, message=director.last_message())
        assert [c.method for c in calls] == ["answerCallbackQuery"], data
    assert await store.events(sid) == before


@pytest.mark.slow
async def test_inline_mode_offers_a_shared_ruling(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    director = Table(app, api)
    await rule(director)
    calls = await director.press("Share", message=director.last_message(with_button="Share"))
    token = re.search(r"start=r_([A-Za-z0-9_-]+)", director.texts(calls)).group(1)  # type: ignore[union-attr]
    update = {"update_id": 555, "inline_query": {"id": "iq1", "from": director.user, "query": token, "offset": ""}}
    await app.process_update(Update.de_json(update, app.bot))
    (answer,) = api.sent("answerInlineQuery")
    assert answer.params["results"][0]["title"].startswith("Ruling ")


@pytest.mark.slow
async def test_picture_falls_back_to_text_and_reopen_continues(
    demo: tuple[Application, FakeBotAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, api = demo
    table = Table(app, api)
    await rule(table)
    monkeypatch.setattr("bot.telegram.records.shutil.which", lambda _name: None)  # no Graphviz on this machine
    calls = await table.press("Picture", message=table.last_message(with_button="Picture"))
    assert "Graphviz is not installed" in table.texts(calls) and "1. Who exposed a card? → RHO" in table.texts(calls)
    calls = await table.press("Reopen", message=table.last_message(with_button="Reopen"))
    assert "Was it an honour?" in table.texts(calls)


@pytest.mark.slow
async def test_club_commands_and_forget(demo: tuple[Application, FakeBotAPI], store: Store) -> None:
    app, api = demo
    admin = Table(app, api, user_id=1)
    assert "Club 1 created" in admin.texts(await admin.send("/club new Riverside Bridge Club"))
    assert "updated" in admin.texts(await admin.send("/club 1 authority ACBL"))
    assert "updated" in admin.texts(await admin.send("/club 1 deadline 45"))
    assert "Invitation sent to tg:3" in admin.texts(await admin.send("/club 1 grant 3 committee"))
    assert "updated" in admin.texts(await admin.send("/club 1 set opening_lead_face up"))
    assert "down (face down); up (face up)" in admin.texts(await admin.send("/club 1 set opening_lead_face maybe"))
    club = await store.club(1)
    assert club is not None and club.authority == "ACBL" and club.settings["appeal_minutes"] == 45
    assert club.settings["opening_lead_face"] == "up"
    sid = await rule(admin)  # a director of one club: the ruling joins its log
    assert "1 rulings in the last 30 days. Per law: Law 50: 1" in admin.texts(await admin.send("/club 1 log"))
    other = Table(app, api, user_id=8, chat_id=8)
    assert "Only the club's administrators" in other.texts(await other.send("/club 1 authority EBU"))
    await admin.send("/forget")
    assert admin.alerts(await admin.press("Yes, forget me"))[0].startswith("Deleted 1 session")
    assert await store.session(sid) is None


async def test_a_club_role_is_an_invitation_the_invitee_accepts(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    admin, invitee = Table(app, api, user_id=66, chat_id=66), Table(app, api, user_id=5, chat_id=5)
    await admin.send("/club new Riverside")
    calls = await admin.send("/club 1 grant 5 director")
    assert "the role counts once they accept" in admin.texts(calls)
    (offer,) = [c for c in calls if c.method == "sendMessage" and str(c.params["chat_id"]) == "5"]
    assert "invites you to be its director" in offer.params["text"]
    sid = await rule(invitee)
    assert (await store.session(sid)).club_id is None  # type: ignore[union-attr]  # not filed before consent
    calls = await invitee.press("Accept", message=invitee.last_message(with_button="Accept"))
    assert "You are now director of club 1 (Riverside)" in invitee.texts(calls)
    sid = await rule(invitee)
    assert (await store.session(sid)).club_id == 1  # type: ignore[union-attr]
    api.fail("sendMessage", status=403, description="Forbidden: bot can't initiate conversation with a user")
    calls = await admin.send("/club 1 grant 8 committee")
    assert "cannot message tg:8" in admin.texts(calls) and "/club 1 accept" in admin.texts(calls)
    stranger = Table(app, api, user_id=8, chat_id=8)
    assert "Invitations waiting: 1 (/club ID accept)" in stranger.texts(await stranger.send("/club"))
    assert "now committee of club 1" in stranger.texts(await stranger.send("/club 1 accept"))
    assert "no invitation" in stranger.texts(await stranger.send("/club 1 accept"))


async def test_a_director_sees_and_changes_the_club_a_ruling_is_filed_under(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    director = Table(app, api, user_id=1)
    await director.send("/club new Riverside")
    await director.send("/club new Hillside")
    sid = await rule(director)
    calls = await director.press("Club", message=director.last_message(with_button="Club"))
    assert f"Ruling {sid} is filed under no club" in director.texts(calls)
    calls = await director.press("File under Hillside")
    assert f"Ruling {sid} is now filed under club 2 (Hillside)" in director.alerts(calls)[0]
    assert (await store.session(sid)).club_id == 2  # type: ignore[union-attr]
    calls = await director.press("Club", message=director.last_message(with_button="Club"))
    assert "filed under club 2 (Hillside)" in director.texts(calls)
    await director.press("No club")
    assert (await store.session(sid)).club_id is None  # type: ignore[union-attr]
    outsider = Table(app, api, user_id=9, chat_id=9)
    calls = await outsider.press_data(f"rf:{sid}:2", message=director.last_message())
    assert [c.method for c in calls] == ["answerCallbackQuery"]
    assert (await store.session(sid)).club_id is None  # type: ignore[union-attr]


@pytest.mark.slow
async def test_an_appeal_after_the_deadline_is_refused(
    demo: tuple[Application, FakeBotAPI], store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, api = demo
    director = Table(app, api)
    sid = await rule(director)
    later = time.time() + 7200  # two hours after the ruling
    monkeypatch.setattr("bot.telegram.records.time.time", lambda: later)
    calls = await director.press("Appeal", message=director.last_message(with_button="Appeal"))
    assert table_alert_text(calls).startswith("The time to appeal this ruling has ended")
    assert [e.kind for e in await store.events(sid)].count("appeal") == 0


def table_alert_text(calls: list) -> str:
    (answer,) = [c for c in calls if c.method == "answerCallbackQuery"]
    return str(answer.params.get("text", ""))
