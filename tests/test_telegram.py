"""The bot on Telegram, end to end: the real PTB Application and handlers over a fake Bot API."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fake_telegram import TOKEN, FakeBotAPI, Table, start_bot
from telegram.ext import Application

from bot.dialogs import Chart, load_charts
from bot.store import Store
from bot.telegram.app import COMMANDS, register_commands


@pytest.fixture
async def demo(store: Store, demo_charts: dict[str, Chart]) -> AsyncIterator[tuple[Application, FakeBotAPI]]:
    api = FakeBotAPI()
    app = await start_bot(store, demo_charts, api)
    yield app, api
    await app.shutdown()


async def _start_demo(table: Table) -> None:
    await table.send("/charts")
    await table.press("Demo of every node kind")


async def test_commands_are_registered_for_the_phone_menu(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    await register_commands(app)
    (call,) = api.sent("setMyCommands")
    assert [c["command"] for c in call.params["commands"]] == [name for name, _ in COMMANDS]


async def test_a_whole_ruling_with_buttons_edited_in_place(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    question = table.last_message(with_button="LHO")
    assert "Who exposed a card?" in question["text"] and "Law 50:" in question["text"]
    calls = await table.press("RHO")
    assert [c.method for c in calls] == ["answerCallbackQuery", "editMessageText"]  # answered first, edited in place
    assert "right-hand opponent" in table.texts(calls)
    await table.press("Continue")
    calls = await table.press("No, a small card")
    sent = [c for c in calls if c.method == "sendMessage"]
    assert sent and "Ruling — Demo of every node kind" in sent[0].params["text"]
    assert "A minor penalty card for the right-hand opponent." in sent[0].params["text"]
    assert "How we got here" in table.texts(calls) and sent[0].params["parse_mode"] == "HTML"
    edited = [c for c in calls if c.method == "editMessageText"]
    assert edited and "reply_markup" not in edited[0].params  # the old keyboard is gone


async def test_back_restart_and_change_an_earlier_answer(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    await table.press("LHO")
    await table.press("Continue")
    assert "stays face up on the table" in table.texts(await table.press("Back"))
    assert "Was it an honour?" in table.texts(await table.press("Continue"))
    await table.press("Change an answer")
    calls = await table.press("1. Who exposed a card?")
    assert "Changing answer 1" in table.texts(calls)
    calls = await table.press("RHO")
    assert "Was it an honour?" in table.texts(calls)  # the later answer still fits, so it is kept
    assert "Who exposed a card?" in table.texts(await table.press("Restart"))


async def test_stale_and_forged_presses_change_nothing(demo: tuple[Application, FakeBotAPI], store: Store) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    first = table.last_message(with_button="LHO")
    await table.press("LHO", message=first)
    session = (await store.sessions("tg:1", ("open",)))[0]
    before = await store.events(session.id)
    old = await table.press("RHO", message=first)  # the same old message pressed again
    assert table.alerts(old) == ["That button is from an earlier step; nothing was changed."]
    for data in (
        "a:x:y:z",
        "a:1",
        "zzz",
        "",
        "a:999999:0:0",
        f"a:{session.id}:1:99",
        f"b:{session.id}:7",
        f"x:{session.id}:1:5:0",
        "s:no-such-chart",
        f"u:{session.id}0",
        "a:-1:-1:-1",
    ):
        calls = await table.press_data(data)
        assert [c.method for c in calls] in (["answerCallbackQuery"],), (data, calls)
    assert await store.events(session.id) == before


async def test_in_a_group_only_the_starter_can_press(demo: tuple[Application, FakeBotAPI], store: Store) -> None:
    app, api = demo
    ann = Table(app, api, user_id=1, chat_id=-100)
    bob = Table(app, api, user_id=2, chat_id=-100, name="Bob")
    await _start_demo(ann)
    message = ann.last_message(with_button="LHO")
    calls = await bob.press("LHO", message=message)
    assert table_alert(calls) == "Only the director who started this ruling can use its buttons."
    await _start_demo(bob)  # a second dialogue in the same group at the same time
    await ann.press("LHO", message=message)
    await bob.press("RHO", message=bob.last_message(with_button="RHO"))
    ann_s, bob_s = (await store.sessions("tg:1", ("open",)))[0], (await store.sessions("tg:2", ("open",)))[0]
    assert ann_s.step == 1 and bob_s.step == 1 and ann_s.id != bob_s.id


def table_alert(calls: list) -> str:
    (answer,) = [c for c in calls if c.method == "answerCallbackQuery"]
    assert answer.params.get("show_alert") in (True, "true")
    return str(answer.params["text"])


async def test_group_text_is_answered_only_when_the_bot_is_addressed(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api, chat_id=-100)
    assert await table.send("nice weather today") == []
    calls = await table.send("@td_bot card exposed by lho")
    assert any(c.method == "sendMessage" for c in calls)


async def test_restarting_the_bot_mid_dialogue_loses_nothing(tmp_path: Path, demo_charts: dict[str, Chart]) -> None:
    db = tmp_path / "bot.sqlite3"
    api = FakeBotAPI()
    store = await Store.open(db)
    app = await start_bot(store, demo_charts, api)
    table = Table(app, api)
    await _start_demo(table)
    await table.press("LHO")
    waiting = table.last_message(with_button="Continue")
    await app.shutdown()
    await store.close()

    store = await Store.open(db)
    app = await start_bot(store, demo_charts, api)
    table = Table(app, api)
    calls = await table.press("Continue", message=waiting)  # the button from before the restart still works
    assert "Was it an honour?" in table.texts(calls)
    await app.shutdown()
    await store.close()


async def test_long_law_text_is_split_within_telegram_limits(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    calls = await table.send("/law 12")
    texts = [c.params["text"] for c in calls if c.method == "sendMessage"]
    assert len(texts) >= 2 and all(len(t) <= 4096 for t in texts)
    assert all(t.startswith("<pre>") and t.endswith("</pre>") for t in texts)


async def test_retry_after_is_waited_out(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    api.fail("sendMessage", status=429, retry_after=0)
    calls = await table.send("/help")
    sends = [c for c in calls if c.method == "sendMessage"]
    assert len(sends) == 2  # refused once with RetryAfter, then sent: exactly one message arrives


async def test_a_bot_api_error_is_reported_and_the_session_kept(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    api.fail("editMessageText", status=400, description="Bad Request: message to edit not found")
    calls = await table.press("LHO")
    assert "Something went wrong on my side; your answers are kept" in table.texts(calls)
    session = (await store.sessions("tg:1", ("open",)))[0]
    assert session.step == 1  # the answer was stored before the edit failed


async def test_a_network_error_on_an_edit_is_retried(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    api.fail("editMessageText", network=True)
    calls = await table.press("LHO")
    assert [c.method for c in calls].count("editMessageText") == 2
    assert "stays face up" in table.texts(calls)


async def test_free_text_offers_candidates_and_a_way_out(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    calls = await table.send("LHO led before the auction was over, wrong defender led")
    (reply,) = [c for c in calls if c.method == "sendMessage"]
    buttons = [b["text"] for row in reply.params["reply_markup"]["inline_keyboard"] for b in row]
    assert any(label.startswith("Law 54") for label in buttons)
    assert buttons[-1] == "None of these"
    calls = await table.press("Law 54")
    assert "opening lead" in table.texts(calls).lower()
    calls = await table.press_data("n")
    assert "Try describing who did what" in table.texts(calls)
    await app.shutdown()


@pytest.mark.parametrize(
    ("env", "args", "says"),
    [
        ({}, [], "TELEGRAM_BOT_TOKEN is not set"),
        ({"TELEGRAM_BOT_TOKEN": "not-a-token"}, [], "does not look like a bot token"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN}, ["--webhook", "http://example.org/hook"], "must be an https:// URL"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN}, ["--webhook", "https://example.org/hook"], "--secret-token is required"),
        (
            {"TELEGRAM_BOT_TOKEN": TOKEN},
            ["--webhook", "https://example.org/hook", "--secret-token", "s" * 20, "--port", "0"],
            "--port must be between",
        ),
    ],
)
def test_a_bad_configuration_is_one_line_not_a_traceback(env: dict[str, str], args: list[str], says: str) -> None:
    import os
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "telegram", *args],
        env={**clean, **env},
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        timeout=60,
    )
    assert done.returncode == 2
    assert says in done.stderr and "Traceback" not in done.stderr and TOKEN not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


async def test_deep_links_start_a_chart_or_show_a_law(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    assert "Who exposed a card?" in table.texts(await table.send("/start c_demo-main"))
    assert "Law 27 — Insufficient Bid" in table.texts(await table.send("/start law_27B1"))
    assert "Welcome" in table.texts(await table.send("/start nonsense"))


async def test_history_resume_and_cancel(demo: tuple[Application, FakeBotAPI], store: Store) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    await table.press("LHO")
    assert "Open and parked rulings" in table.texts(await table.send("/resume"))
    assert "stays face up" in table.texts(await table.press("Demo of every node kind"))
    assert "Cancelled" in table.texts(await table.send("/cancel"))
    assert "Nothing to resume" in table.texts(await table.send("/resume"))
    assert "No rulings yet" in table.texts(await table.send("/history"))
    await _start_demo(table)
    for label in ("RHO", "Continue", "No, a small card"):
        await table.press(label)
    assert "Your recent rulings" in table.texts(await table.send("/history"))
    assert "Ruling — Demo of every node kind" in table.texts(await table.press("Demo of every node kind"))


async def test_logs_hold_no_message_text_and_no_token(
    demo: tuple[Application, FakeBotAPI], caplog: pytest.LogCaptureFixture
) -> None:
    app, api = demo
    table = Table(app, api)
    with caplog.at_level("DEBUG"):
        await table.send("my secret hand is AKQJ of spades, partner hesitated")
        await _start_demo(table)
    text = caplog.text
    assert "update" in text and "kind=message" in text and "kind=press" in text
    assert "AKQJ" not in text and "secret hand" not in text and TOKEN not in text and "chat=1 " not in text


async def test_unknown_commands_are_answered_in_private_and_ignored_in_groups(
    demo: tuple[Application, FakeBotAPI],
) -> None:
    app, api = demo
    assert "I do not know /nope" in Table(app, api).texts(await Table(app, api).send("/nope"))
    group = Table(app, api, chat_id=-100)
    assert await group.send("/help@otherbot") == []
    assert "I do not know /nope@td_bot" in group.texts(await group.send("/nope@td_bot"))
