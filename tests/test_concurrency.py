"""Many tables at once: the real Application takes updates from its queue concurrently (bot.telegram.updates), in
order for each chat and person; the fake Bot API answers after a delay, as Telegram does."""

from __future__ import annotations

import asyncio
import re
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fake_telegram import TOKEN, FakeBotAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from telegram import Update
from telegram.ext import Application

from bot.dialogs import Dialogs, question_key, read_charts
from bot.laws import load_lawbook
from bot.matching import ChartEntry, Matcher, build_matcher
from bot.store import Store
from bot.telegram.app import STALE, TelegramFrontEnd, build_application
from bot.telegram.callbacks import Answer
from bot.telegram.updates import PerConversation

WHO = question_key("demo-main", "who")  # the first question of the demo chart

CHARTS = read_charts(Path(__file__).parent / "fixtures" / "dialogs")


class SlowBotAPI(FakeBotAPI):
    """The request-level fake, answering each call after ``delay(method, params)`` seconds; records when each
    call began and ended."""

    def __init__(self, delay: Callable[[str, dict[str, Any]], float] = lambda _m, _p: 0.0) -> None:
        super().__init__()
        self.delay = delay
        self.timeline: list[tuple[str, str, dict[str, Any]]] = []

    async def do_request(self, url: str, method: str, request_data: Any = None, *args: Any, **kwargs: Any) -> Any:
        name = url.rsplit("/", 1)[-1]
        params = self._params(request_data)
        self.timeline.append(("begin", name, params))
        await asyncio.sleep(self.delay(name, params))
        answer = await super().do_request(url, method, request_data, *args, **kwargs)
        self.timeline.append(("end", name, params))
        return answer

    @staticmethod
    def _params(request_data: Any) -> dict[str, Any]:
        return dict(request_data.parameters) if request_data is not None else {}


@cache
def matcher() -> Matcher:
    """One matcher for the module (these tests type commands and press buttons; nothing is matched)."""
    return build_matcher((ChartEntry(c.id, c.title, c.laws, c.keywords) for c in CHARTS.values()), background=True)


async def running(store: Store, api: FakeBotAPI) -> Application:
    """Our Application over ``api``, taking updates from its queue as in polling and webhook mode."""
    app = build_application(TOKEN, TelegramFrontEnd(Dialogs(store, CHARTS), load_lawbook(), matcher()), request=api)
    await app.initialize()
    await app.start()
    return app


async def feed(app: Application, *payloads: dict[str, Any]) -> None:
    """Put updates on the queue as the updater does, then wait until every one has been handled."""
    for number, payload in enumerate(payloads, start=1):
        await app.update_queue.put(Update.de_json({"update_id": number, **payload}, app.bot))
    await asyncio.wait_for(app.update_queue.join(), 30)


def command(user: int, chat: int, text: str) -> dict[str, Any]:
    kind = "private" if chat > 0 else "group"
    message = {
        "message_id": 1,
        "date": 0,
        "chat": {"id": chat, "type": kind, "title": "club"},
        "from": {"id": user, "is_bot": False, "first_name": f"D{user}"},
        "text": text,
        "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
    }
    return {"message": message}


def tap(user: int, chat: int, data: str, message_id: int = 1) -> dict[str, Any]:
    kind = "private" if chat > 0 else "group"
    message = {
        "message_id": message_id,
        "date": 0,
        "chat": {"id": chat, "type": kind, "title": "club"},
        "from": {"id": 999, "is_bot": True, "first_name": "B"},
        "text": "q",
    }
    person = {"id": user, "is_bot": False, "first_name": f"D{user}"}
    query = {"id": f"{user}-{chat}-{data}", "from": person, "chat_instance": "c", "data": data, "message": message}
    return {"callback_query": query}


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "bot.sqlite3")
    yield opened
    await opened.close()


# Four people in their private chats and two in one group: six conversations.
CONVERSATIONS = [(1, 1), (2, 2), (3, 3), (4, 4), (5, -100), (6, -100)]


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(storm=st.lists(st.tuples(st.integers(0, len(CONVERSATIONS) - 1), st.integers(0, 15)), min_size=2, max_size=24))
async def test_each_conversation_keeps_its_order_in_a_storm_of_interleaved_updates(
    storm: list[tuple[int, int]],
) -> None:
    delays = iter([ms / 1000 for _c, ms in storm])  # each reply takes its own time to reach Telegram
    api = SlowBotAPI(lambda method, _p: next(delays, 0.0) if method == "sendMessage" else 0.0)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bot.sqlite3")
        app = await running(store, api)
        sent: dict[int, list[int]] = {}
        payloads = []
        for conversation, _ms in storm:
            user, chat = CONVERSATIONS[conversation]
            sent.setdefault(user, []).append(len(sent.get(user, [])))
            suffix = "@td_bot" if chat < 0 else ""
            payloads.append(command(user, chat, f"/u{user}_{sent[user][-1]}{suffix}"))
        await feed(app, *payloads)
        await app.stop()
        await app.shutdown()
        await store.close()
    seen: dict[int, list[int]] = {}
    for call in api.sent("sendMessage"):
        found = re.search(r"/u(\d+)_(\d+)", str(call.params["text"]))
        assert found, call.params["text"]
        seen.setdefault(int(found[1]), []).append(int(found[2]))
    assert seen == sent
    processor = app.update_processor
    assert isinstance(processor, PerConversation) and processor.conversations == 0


async def test_updates_of_different_chats_run_at_once(store: Store) -> None:
    api = SlowBotAPI(lambda method, _p: 0.3 if method == "sendMessage" else 0.0)
    app = await running(store, api)
    started = time.perf_counter()
    await feed(app, *(command(user, user, f"/nothing{user}") for user in range(1, 11)))
    elapsed = time.perf_counter() - started
    await app.stop()
    await app.shutdown()
    assert len(api.sent("sendMessage")) == 10
    assert elapsed < 10 * 0.3, "ten chats' replies were sent one after the other"


@pytest.mark.slow
async def test_a_slow_bot_api_call_for_one_chat_does_not_delay_another(store: Store) -> None:
    api = SlowBotAPI(lambda method, params: 1.0 if method == "sendMessage" and params["chat_id"] == 1 else 0.0)
    app = await running(store, api)
    await feed(app, command(1, 1, "/charts"), command(2, 2, "/charts"))
    await app.stop()
    await app.shutdown()
    ends = [params["chat_id"] for edge, method, params in api.timeline if edge == "end" and method == "sendMessage"]
    assert ends == [2, 1]


async def test_two_presses_on_one_session_at_once_one_wins_the_other_is_refused(store: Store) -> None:
    """The same director taps the same answer in two chats at the same moment: one answer is stored, the other
    press is told the button is stale; nothing fails, nothing is stored twice."""
    dialogs = Dialogs(store, CHARTS)
    screen = await dialogs.start("tg:7", "demo-main", "7")
    original = store.append

    async def slow_append(*args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0.05)  # both presses have read the session before either writes
        await original(*args, **kwargs)

    store.append = slow_append  # type: ignore[method-assign]
    api = SlowBotAPI()
    app = await running(store, api)
    data = Answer(screen.session_id, 0, WHO, 0).encode()
    await feed(app, tap(7, 7, data), tap(7, -300, data))
    await app.stop()
    await app.shutdown()
    answers = [e for e in await store.events(screen.session_id) if e.kind == "answer"]
    assert len(answers) == 1
    notices = sorted(str(c.params.get("text", "")) for c in api.sent("answerCallbackQuery"))
    assert notices == ["", STALE]
    assert len(api.sent("editMessageText")) == 1
    assert not any("went wrong" in str(c.params.get("text", "")) for c in api.sent("sendMessage"))


async def test_a_double_tap_in_one_chat_is_taken_once_in_order(store: Store) -> None:
    dialogs = Dialogs(store, CHARTS)
    screen = await dialogs.start("tg:8", "demo-main", "8")
    api = SlowBotAPI(lambda _m, _p: 0.05)
    app = await running(store, api)
    data = Answer(screen.session_id, 0, WHO, 0).encode()
    await feed(app, tap(8, 8, data), tap(8, 8, data))
    await app.stop()
    await app.shutdown()
    assert len([e for e in await store.events(screen.session_id) if e.kind == "answer"]) == 1
    answers = [str(c.params.get("text", "")) for c in api.sent("answerCallbackQuery")]
    assert answers == ["", STALE], "the second tap was handled before the first"


@pytest.mark.filterwarnings("ignore:Tasks created via `Application.create_task`")  # PTB's, for updates queued at stop
async def test_stopping_waits_for_the_updates_in_flight(store: Store) -> None:
    api = SlowBotAPI(lambda method, _p: 0.3 if method == "sendMessage" else 0.0)
    app = await running(store, api)
    for user in range(1, 9):
        await app.update_queue.put(Update.de_json({"update_id": user, **command(user, user, "/help")}, app.bot))
    await app.stop()
    await app.shutdown()
    assert sorted(int(c.params["chat_id"]) for c in api.sent("sendMessage")) == list(range(1, 9))


async def test_a_press_whose_handling_fails_is_still_answered(store: Store) -> None:
    dialogs = Dialogs(store, CHARTS)
    screen = await dialogs.start("tg:9", "demo-main", "9")

    async def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("a bug")

    store.append = broken  # type: ignore[method-assign]
    api = SlowBotAPI()
    app = await running(store, api)
    await feed(app, tap(9, 9, Answer(screen.session_id, 0, WHO, 0).encode()))
    await app.stop()
    await app.shutdown()
    assert len(api.sent("answerCallbackQuery")) == 1, "the phone would show a spinner for 15 s"
    assert "went wrong" in str(api.sent("sendMessage")[-1].params["text"])


async def _at_the_last_question(store: Store, user: int) -> dict[str, Any]:
    """A session at its last question ("Was it an honour?", where "No, a small card" rules); the press on it."""
    dialogs = Dialogs(store, CHARTS)
    screen = await dialogs.start(f"tg:{user}", "demo-main", str(user))
    screen = await dialogs.answer(f"tg:{user}", screen.session_id, 0, 1, question=WHO)  # RHO
    return tap(user, user, Answer(screen.session_id, screen.step, screen.question, 1).encode())


async def test_the_ruling_goes_out_with_the_edit_that_closes_the_last_question(store: Store) -> None:
    """The last answer's ruling does not wait a Bot API round trip for the question's message to be closed."""
    last = await _at_the_last_question(store, 9)
    api = SlowBotAPI(lambda method, _params: 0.3 if method in ("editMessageText", "sendMessage") else 0.0)
    app = await running(store, api)
    await feed(app, last)
    await app.stop()
    await app.shutdown()
    edges = [(edge, method) for edge, method, _params in api.timeline if method != "answerCallbackQuery"]
    assert edges.index(("begin", "sendMessage")) < edges.index(("end", "editMessageText"))  # one round trip, not two
    (ruling,) = api.sent("sendMessage")
    assert "Ruling — Demo of every node kind" in ruling.params["text"]
    assert "answered — the ruling follows" in api.sent("editMessageText")[0].params["text"]


async def test_a_refused_closing_edit_sends_nothing_in_its_place(store: Store) -> None:
    last = await _at_the_last_question(store, 10)
    api = SlowBotAPI()
    api.fail("editMessageText", status=400, description="Bad Request: message to edit not found")
    app = await running(store, api)
    await feed(app, last)
    await app.stop()
    await app.shutdown()
    sent = [str(c.params["text"]) for c in api.sent("sendMessage")]
    assert len(sent) == 1 and "Ruling — Demo of every node kind" in sent[0]  # the ruling, and no "answered" line
    assert [str(c.params.get("text", "")) for c in api.sent("answerCallbackQuery")] == [""]
