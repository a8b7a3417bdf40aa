"""The bot on Telegram, end to end: the real PTB Application and handlers over a fake Bot API."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fake_telegram import TOKEN, FakeBotAPI, Table, start_bot
from telegram.ext import Application

from bot.dialogs import Chart, load_charts, question_key
from bot.store import Store
from bot.telegram.app import COMMANDS, register_commands

WHO, CARD = question_key("demo-main", "who"), question_key("demo-main", "card")


@pytest.fixture
async def demo(store: Store, demo_charts: dict[str, Chart]) -> AsyncIterator[tuple[Application, FakeBotAPI]]:
    api = FakeBotAPI()
    app = await start_bot(store, demo_charts, api)
    yield app, api
    await app.shutdown()


async def _start_demo(table: Table) -> None:
    await table.send("/charts")
    await table.press("Demo of every node kind")


@pytest.mark.slow
async def test_commands_are_registered_for_the_phone_menu(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    await register_commands(app.bot)
    (call,) = api.sent("setMyCommands")
    assert [c["command"] for c in call.params["commands"]] == [name for name, _ in COMMANDS]


@pytest.mark.slow
async def test_a_whole_ruling_with_buttons_edited_in_place(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    question = table.last_message(with_button="LHO")
    assert "Who exposed a card?" in question["text"] and "📖 <i>Law 50</i>" in question["text"]
    assert "prematurely exposed" not in question["text"]  # the law is named; its text is one press away
    assert "A card prematurely exposed" in table.texts(await table.press("📖 Law text"))
    calls = await table.press("RHO")
    assert [c.method for c in calls] == ["answerCallbackQuery", "editMessageText"]  # answered first, then edited
    assert "right-hand opponent" in table.texts(calls)
    # the note asks nothing: it is a line above the next question, not a screen with only Continue on it
    assert "» The card of the right-hand opponent stays face up" in table.texts(calls)
    shown = table.last_message(with_button="No, a small card")
    assert "Was it an honour?" in shown["text"]
    assert "Continue" not in [b["text"] for row in shown["reply_markup"]["inline_keyboard"] for b in row]
    calls = await table.press("No, a small card")
    sent = [c for c in calls if c.method == "sendMessage"]
    assert sent and "Ruling — Demo of every node kind" in sent[0].params["text"]
    assert "A minor penalty card for the right-hand opponent." in sent[0].params["text"]
    assert "How we got here" in table.texts(calls) and sent[0].params["parse_mode"] == "HTML"
    edited = [c for c in calls if c.method == "editMessageText"]
    assert edited and "reply_markup" not in edited[0].params  # the old keyboard is gone


@pytest.mark.slow
async def test_back_restart_and_change_an_earlier_answer(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    await table.press("LHO")
    await table.press("Yes, an honour")
    assert "stays face up on the table" in table.texts(await table.press("Back"))
    assert "Was another card exposed?" in table.texts(await table.press("Yes, an honour"))
    await table.press("Change an answer")
    calls = await table.press("1. Who exposed a card?")
    assert "Changing answer 1" in table.texts(calls)
    calls = await table.press("RHO")
    assert "Was another card exposed?" in table.texts(calls)  # the later answer still fits, so it is kept
    assert "Kept from before — check them: 2. Was it an honour? → Yes, an honour" in table.texts(calls)
    assert "Who exposed a card?" in table.texts(await table.press("Restart"))


@pytest.mark.slow
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
        f"a:999999:0:{WHO}:0",
        f"a:{session.id}:1:{CARD}:99",
        f"b:{session.id}:7:{CARD}",
        f"x:{session.id}:1:5:{WHO}:0",
        f"a:{session.id}:99999999999999999999999:{CARD}:0",
        "u:" + "9" * 30,  # more than SQLite's integers hold: refused, not an OverflowError
        "rb:" + "9" * 40,
        "s:no-such-chart",
        f"u:{session.id}0",
        "a:-1:-1:-1",
    ):
        calls = await table.press_data(data)
        assert [c.method for c in calls] in (["answerCallbackQuery"],), (data, calls)
    assert await store.events(session.id) == before


@pytest.mark.slow
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


async def test_in_a_group_only_the_describer_picks_the_situation_unless_handed_over(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    ann = Table(app, api, user_id=1, chat_id=-100)
    bob = Table(app, api, user_id=2, chat_id=-100, name="Bob")
    await ann.send("@td_bot demo exposed card")
    situations = ann.last_message(with_button="Law 50")
    calls = await bob.press("Law 50", message=situations)
    (toast,) = [c for c in calls if c.method == "answerCallbackQuery"]
    assert toast.params["text"].startswith("Only the person who described this can pick its situation")
    assert toast.params.get("show_alert") in (None, False, "false")  # a calm toast, not an alert
    assert await store.sessions("tg:2", ("open",)) == []
    await ann.press("Law 50", message=situations)
    (session,) = await store.sessions("tg:1", ("open",))
    question = ann.last_message(with_button="LHO")
    assert "directed by tg:2" in ann.texts(await ann.send(f"/handover {session.id} 2"))
    await bob.press("LHO", message=question)
    assert (await store.sessions("tg:2", ("open",)))[0].step == 1
    assert table_alert(await ann.press("Back", message=ann.last_message(with_button="Back"))).startswith("Only")


def table_alert(calls: list) -> str:
    (answer,) = [c for c in calls if c.method == "answerCallbackQuery"]
    assert answer.params.get("show_alert") in (True, "true")
    return str(answer.params["text"])


@pytest.mark.slow
async def test_group_text_is_answered_only_when_the_bot_is_addressed(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api, chat_id=-100)
    assert await table.send("nice weather today") == []
    calls = await table.send("@td_bot card exposed by lho")
    assert any(c.method == "sendMessage" for c in calls)


@pytest.mark.slow
async def test_a_reply_quotes_the_message_in_a_group_and_stays_in_its_forum_topic(
    demo: tuple[Application, FakeBotAPI],
) -> None:
    """Replies are sent without PTB's reply_html (bot.telegram.app.reply_html): where they land is checked."""
    app, api = demo
    private = await Table(app, api, user_id=5, chat_id=5).send("card exposed by lho")
    (sent,) = [c for c in private if c.method == "sendMessage"]
    assert "reply_parameters" not in sent.params and "message_thread_id" not in sent.params
    forum = Table(app, api, user_id=6, chat_id=-200)
    forum.chat = {**forum.chat, "type": "supergroup", "is_forum": True}
    before = len(api.calls)
    update = {
        "message_id": 77,
        "date": 0,
        "chat": forum.chat,
        "from": forum.user,
        "text": "@td_bot card exposed by lho",
        "message_thread_id": 9,
        "is_topic_message": True,
    }
    await forum._process({"message": update})
    (sent,) = [c for c in api.calls[before:] if c.method == "sendMessage"]
    assert sent.params["reply_parameters"]["message_id"] == 77
    assert int(sent.params["message_thread_id"]) == 9
    assert int(sent.params["chat_id"]) == -200


@pytest.mark.slow
async def test_restarting_the_bot_mid_dialogue_loses_nothing(tmp_path: Path, demo_charts: dict[str, Chart]) -> None:
    db = tmp_path / "bot.sqlite3"
    api = FakeBotAPI()
    store = await Store.open(db)
    app = await start_bot(store, demo_charts, api)
    table = Table(app, api)
    await _start_demo(table)
    await table.press("LHO")
    waiting = table.last_message(with_button="No, a small card")
    await app.shutdown()
    await store.close()

    store = await Store.open(db)
    app = await start_bot(store, demo_charts, api)
    table = Table(app, api)
    calls = await table.press("No, a small card", message=waiting)  # the button from before the restart works
    assert "A minor penalty card for the left-hand opponent." in table.texts(calls)
    await app.shutdown()
    await store.close()


TWO_THINGS = (
    "The opening bid was insufficient and was not accepted. Later on declarer claimed but a trump was still out."
)
SECOND = "Now the second thing: Insufficient bid — Law 27"


async def test_the_second_of_a_storys_two_incidents_is_a_button_under_the_first_ruling(tmp_path: Path) -> None:
    """Walk 17 (7b): after the first of "two things" was ruled, the second was offered only by the old situations
    message, if the director scrolled up to it. The ruling now carries it as its first button, which still works
    after a restart and starts that chart with the same story; pressed again, or forged, it changes nothing."""
    db = tmp_path / "bot.sqlite3"
    api = FakeBotAPI()
    store = await Store.open(db)
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    assert "Two things happened here" in table.texts(await table.send(TWO_THINGS))
    await table.press("Claim or concession")
    for answer in ("Yes, or no clear reason otherwise", "Yes, agreed", "No: scored as claimed"):
        calls = await table.press(answer)
    assert "Ruling — Claim or concession" in table.texts(calls)
    ruling = table.last_message(with_button=SECOND)
    buttons = [b["text"] for row in ruling["reply_markup"]["inline_keyboard"] for b in row]
    assert buttons[0] == SECOND and "↩ Reopen" in buttons
    await app.shutdown()
    await store.close()

    store = await Store.open(db)  # the bot restarted between the two rulings
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    other = Table(app, api, user_id=2, chat_id=2)
    first = (await store.sessions("tg:1", ("finished",)))[0]
    before = await store.events(first.id)
    forged = ("st:abc", "st:" + "9" * 30, "st:999", f"st:{first.id}")
    for data, table_of in zip(forged, (table, table, table, other), strict=True):
        calls = await table_of.press_data(data, ruling)
        assert [c.method for c in calls] == ["answerCallbackQuery"], data
    assert table.alerts(calls) == ["Only the director who started this ruling can use its buttons."]
    assert await store.events(first.id) == before and await store.sessions("tg:2", ("open",)) == []
    calls = await table.press(SECOND, ruling)
    assert "Insufficient bid" in table.texts(calls) and [c.method for c in calls][-1] == "sendMessage"
    (started,) = await store.sessions("tg:1", ("open",))
    assert (await store.events(started.id))[0].data[
        "description"
    ] == TWO_THINGS and started.chart_id == "insufficient-bid"
    again = await table.press(SECOND, ruling)  # the old button: one line, nothing started
    assert table.alerts(again) == [f"The second thing is already started (session {started.id}): resume it from there."]
    assert len(await store.sessions("tg:1", ("open", "finished"))) == 2
    calls = await table.press_data(f"u:{first.id}")  # the ruling read again offers it no more
    assert "Ruling — Claim or concession" in table.texts(calls)
    assert SECOND not in str([c.params.get("reply_markup") for c in calls])
    await app.shutdown()
    await store.close()


@pytest.mark.slow
async def test_long_law_text_is_split_within_telegram_limits(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    calls = await table.send("/law 12")
    texts = [c.params["text"] for c in calls if c.method == "sendMessage"]
    assert len(texts) >= 2 and all(len(t) <= 4096 for t in texts)
    assert all(t.startswith("<pre>") and t.endswith("</pre>") for t in texts)


@pytest.mark.slow
async def test_retry_after_is_waited_out(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    api.fail("sendMessage", status=429, retry_after=0)
    calls = await table.send("/help")
    sends = [c for c in calls if c.method == "sendMessage"]
    assert len(sends) == 2  # refused once with RetryAfter, then sent: exactly one message arrives


@pytest.mark.slow
async def test_a_bot_api_error_is_reported_and_the_session_kept(
    demo: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    api.fail("editMessageText", status=400, description="Bad Request: message to edit not found")
    api.fail("sendMessage", status=400, description="Bad Request: can't parse entities")  # the fallback fails too
    calls = await table.press("LHO")
    assert "Something went wrong on my side; your answers are kept" in table.texts(calls)
    assert "answerCallbackQuery" in [c.method for c in calls]  # the press is answered all the same
    session = (await store.sessions("tg:1", ("open",)))[0]
    assert session.step == 1  # the answer was stored before the edit failed


@pytest.mark.slow
async def test_a_network_error_on_an_edit_is_retried(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    await _start_demo(table)
    api.fail("editMessageText", network=True)
    calls = await table.press("LHO")
    assert [c.method for c in calls].count("editMessageText") == 2
    assert "stays face up" in table.texts(calls)


@pytest.mark.slow
async def test_free_text_offers_one_button_per_situation_and_a_way_out(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    calls = await table.send("LHO led before the auction was over, wrong defender led")
    (reply,) = [c for c in calls if c.method == "sendMessage"]
    buttons = [b["text"] for row in reply.params["reply_markup"]["inline_keyboard"] for b in row]
    assert buttons[0] == "Opening lead out of turn — Law 54 (likely)" and len(buttons) == len(set(buttons))
    assert buttons[-1] == "None of these"
    calls = await table.press("Opening lead out of turn")
    assert "opening lead" in table.texts(calls).lower()
    situations = table.last_message(with_button="None of these")
    calls = await table.press("None of these", situations)
    assert [c.method for c in calls] == ["answerCallbackQuery", "editMessageText"]  # narrowed in place
    assert "When did it happen?" in table.texts(calls)
    await app.shutdown()


async def test_vague_words_are_narrowed_down_to_a_chart(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    assert "When did it happen?" in table.texts(await table.send("something weird happened"))
    assert "What happened in the play?" in table.texts(await table.press("Play"))
    assert "Which situation is it?" in table.texts(await table.press("A revoke"))
    calls = await table.press("Revoke — Law 61")
    assert [c for c in calls if c.method == "sendMessage"] and (await store.sessions("tg:1", ("open",)))
    await app.shutdown()


async def test_a_directors_own_step_before_the_ruling_is_shown_but_not_among_the_lines_read_aloud(
    store: Store,
) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    await table.send("/start c_premature-play")
    await table.press("A defender led or played before their partner")
    await table.press("Yes, from both hands")
    text = table.texts(await table.press("A card played to this trick, not a lead"))
    assert "Ruling — Premature lead or play by a defender" in text
    assert "<i>For you, not to read aloud: If the card was in fact led to the next trick" in text
    assert "» If the card was in fact led" not in text
    await app.shutdown()


async def test_chatter_and_a_bare_number_start_nothing(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    for text in ("thanks", "ok", "1", "hello 👋"):
        calls = await table.send(text)
        (reply,) = [c for c in calls if c.method == "sendMessage"]
        assert reply.params["text"].startswith("Describe what happened at the table"), text
        assert "reply_markup" not in reply.params
    assert await store.sessions("tg:1", ("open", "parked", "finished")) == []
    await app.shutdown()


async def test_a_stale_or_forged_offer_gets_one_calm_notice(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    await table.send("/help")
    for data in ("o:c:no-such-chart", "o:q:play.nothing", "o:l:120", "o:t:c:nope", "o:r:l:0"):
        calls = await table.press_data(data)
        assert [c.method for c in calls] == ["answerCallbackQuery"], data
        assert table.alerts(calls) == ["That choice is no longer available; describe what happened again."], data
    for data in ("o:z:x", "o:", "o"):  # not data the bot could have sent: refused like any forged press
        calls = await table.press_data(data)
        assert [c.method for c in calls] == ["answerCallbackQuery"], data


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
        ({"TELEGRAM_BOT_TOKEN": TOKEN}, ["--workers", "0"], "--workers must be between 1 and 64"),
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


@pytest.mark.slow
async def test_deep_links_start_a_chart_or_show_a_law(demo: tuple[Application, FakeBotAPI]) -> None:
    app, api = demo
    table = Table(app, api)
    assert "Who exposed a card?" in table.texts(await table.send("/start c_demo-main"))
    assert "Law 27 — Insufficient Bid" in table.texts(await table.send("/start law_27B1"))
    assert "Welcome" in table.texts(await table.send("/start nonsense"))


@pytest.mark.slow
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
    for label in ("RHO", "No, a small card"):
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


@pytest.mark.slow
async def test_unknown_commands_are_answered_in_private_and_ignored_in_groups(
    demo: tuple[Application, FakeBotAPI],
) -> None:
    app, api = demo
    assert "I do not know /nope" in Table(app, api).texts(await Table(app, api).send("/nope"))
    group = Table(app, api, chat_id=-100)
    assert await group.send("/help@otherbot") == []
    assert "I do not know /nope@td_bot" in group.texts(await group.send("/nope@td_bot"))


def test_every_offer_fits_in_button_data_and_reads_back() -> None:
    from bot.answers import Act, Offer, load_triage
    from bot.telegram.callbacks import FollowOffer, decode

    charts = load_charts()
    offers = [Offer("x", Act.CHART, c) for c in charts] + [Offer("x", Act.TOPIC, f"c:{c}") for c in charts]
    offers += [Offer("x", Act.TRIAGE, b.key) for b in load_triage().walk()] + [Offer("x", Act.NONE)]
    offers += [Offer("x", Act.LAW, "27B1(b)"), Offer("x", Act.RELATED, "l:93")]
    offers += [Offer("x", Act.CHART, c, then) for c in charts for then in charts if then != c]  # a story of two
    for offer in offers:
        pressed = decode(FollowOffer.of(offer).encode())
        assert isinstance(pressed, FollowOffer) and pressed.read() == (offer.act, offer.key, offer.then)
    assert decode("o:?:x") is None
    for forged in ("o:c:+claim", "o:c:claim+", "o:c:claim+revoke+x"):
        assert decode(forged) is None, forged
