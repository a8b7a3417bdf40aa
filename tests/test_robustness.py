"""Proven robustness: load, crashes, fuzzing, database and Telegram faults, security — all bounded in time."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import select
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_telegram import FakeBotAPI, Table, callback_update, start_bot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from telegram import Update
from telegram.ext import Application

from bot.dialogs import Chart, Dialogs
from bot.store import Position, Store, StoreError
from bot.telegram.app import STORE_DOWN

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def bot(store: Store, demo_charts: dict[str, Chart]) -> AsyncIterator[tuple[Application, FakeBotAPI]]:
    api = FakeBotAPI()
    app = await start_bot(store, demo_charts, api)
    yield app, api
    await app.shutdown()


def _text(update_id: int, user: int, text: str) -> dict[str, Any]:
    message: dict[str, Any] = {
        "message_id": update_id,
        "date": 0,
        "chat": {"id": user, "type": "private"},
        "from": {"id": user, "is_bot": False, "first_name": "D"},
        "text": text,
    }
    if text.startswith("/"):
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
    return {"update_id": update_id, "message": message}


async def test_a_thousand_concurrent_chats_lose_and_duplicate_nothing(
    bot: tuple[Application, FakeBotAPI], store: Store, dialogs: Dialogs
) -> None:
    """1,000 directors, 20 presses each (answer, back, answer, …), all at once."""
    app, api = bot
    chats = 1000
    starts = [await dialogs.start(f"tg:{user}", "demo-main") for user in range(1, chats + 1)]

    async def director(user: int, session: int) -> None:
        for step in range(20):
            data = f"a:{session}:0:{user % 2}" if step % 2 == 0 else f"b:{session}:1"
            await app.process_update(Update.de_json(callback_update(user * 100 + step, user, data), app.bot))

    started = time.perf_counter()
    await asyncio.gather(*(director(user, s.session_id) for user, s in enumerate(starts, start=1)))
    elapsed = time.perf_counter() - started
    assert elapsed < 240
    for user, start in enumerate(starts, start=1):
        events = await store.events(start.session_id)
        assert [e.seq for e in events] == list(range(21)), user  # none lost, none duplicated
        assert [e.kind for e in events[1:]] == ["answer", "back"] * 10
        screen = await dialogs.screen(f"tg:{user}", start.session_id)
        assert screen.step == 0 and screen.node_id == "who"  # what the user last saw after pressing Back
    edits = [c for c in api.calls if c.method == "editMessageText"]
    assert len(edits) == chats * 20


def _run_bot(database: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "bot_process.py"), str(database)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    _read_until(process, "ready")
    return process


def _read_until(process: subprocess.Popen[bytes], expect: str, timeout: float = 60) -> str:
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout
    while expect.encode() not in seen:
        assert time.monotonic() < deadline, seen
        ready, _, _ = select.select([process.stdout.fileno()], [], [], 0.1)
        if ready:
            chunk = os.read(process.stdout.fileno(), 65536)
            assert chunk, seen
            seen += chunk
    return seen.decode()


def _send(process: subprocess.Popen[bytes], update: dict[str, Any]) -> str:
    assert process.stdin is not None
    process.stdin.write((json.dumps(update) + "\n").encode())
    process.stdin.flush()
    return _read_until(process, f'"done": {update["update_id"]}')


def test_kill_minus_nine_of_the_bot_loses_no_answer(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    first = _run_bot(database)
    try:
        for user in (1, 2, 3):
            _send(first, _text(user * 10, user, "/start c_demo-main"))
            _send(first, callback_update(user * 10 + 1, user, f"a:{user}:0:1"))
        _send(first, callback_update(99, 1, "a:1:1:0"))  # director 1 continues past the note
        assert first.stdin is not None
        first.stdin.write((json.dumps(callback_update(100, 2, "a:2:1:0")) + "\n").encode())
        first.stdin.flush()  # killed while (or before) handling this press
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        steps = dict(db.execute("SELECT id, step FROM sessions ORDER BY id").fetchall())
    assert steps[1] == 2 and steps[3] == 1 and steps[2] in (1, 2)  # the interrupted press: all or nothing
    second = _run_bot(database)
    try:
        reply = _send(second, callback_update(200, 1, "a:1:2:1"))  # director 1 answers where they stood
        assert "Ruling — Demo of every node kind" in reply or "ruling follows" in reply
        reply = _send(second, callback_update(201, 3, "a:3:1:0"))
        assert "Was it an honour?" in reply
    finally:
        second.kill()
        second.wait(timeout=10)


payloads = st.one_of(
    st.text(max_size=70),
    st.builds(
        lambda p, a, b, c: f"{p}:{a}:{b}:{c}",
        st.sampled_from(
            [
                "a",
                "b",
                "r",
                "h",
                "c",
                "x",
                "k",
                "m",
                "s",
                "l",
                "u",
                "n",
                "rb",
                "rd",
                "rs",
                "ra",
                "rt",
                "ro",
                "rp",
                "fg",
                "zz",
            ]
        ),
        st.integers(-5, 10**12),
        st.integers(-5, 99),
        st.text(max_size=8),
    ),
)


@settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=payloads)
def test_random_button_data_never_raises_and_changes_nothing(data: str) -> None:
    _FUZZ.run(_FUZZ.press(data))


commands = st.one_of(
    st.text(max_size=300),
    st.builds(
        lambda c, rest: f"/{c} {rest}",
        st.sampled_from(
            ["start", "law", "charts", "new", "history", "resume", "cancel", "help", "decide", "club", "forget", "nope"]
        ),
        st.text(max_size=40),
    ),
)


@settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(text=commands)
def test_random_texts_and_commands_always_get_a_reply(text: str) -> None:
    _FUZZ.run(_FUZZ.say(text))


class _Fuzzer:
    """One bot and one guarded session shared by the fuzz examples (a fresh app per example would be slow)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.ready = False
        self.count = 0

    def run(self, coroutine: Any) -> None:
        if not self.ready:
            self.loop.run_until_complete(self._setup())
        self.loop.run_until_complete(coroutine)

    def close(self) -> None:
        """Shut the bot and its database down; an open aiosqlite thread would keep the test process alive."""
        if self.ready:
            self.loop.run_until_complete(self.app.shutdown())
            self.loop.run_until_complete(self.store.close())
            self.ready = False
        self.loop.close()

    async def _setup(self) -> None:
        from bot.dialogs import read_charts

        charts = read_charts(ROOT / "tests" / "fixtures" / "dialogs")
        self.store = await Store.open(":memory:")
        self.dialogs = Dialogs(self.store, charts)
        self.api = FakeBotAPI()
        self.app = await start_bot(self.store, charts, self.api)
        self.guarded = (await self.dialogs.start("tg:77", "demo-main")).session_id
        self.before = await self.store.events(self.guarded)
        self.errors: list[logging.LogRecord] = []
        handler = logging.Handler()
        handler.emit = self.errors.append  # type: ignore[method-assign]
        logging.getLogger("bot.telegram").addHandler(handler)
        self.ready = True

    async def press(self, data: str) -> None:
        self.count += 1
        calls = len(self.api.calls)
        update = callback_update(self.count, 5, data)  # user 5 never owns the guarded session
        await self.app.process_update(Update.de_json(update, self.app.bot))
        assert [c.method for c in self.api.calls[calls:]].count("answerCallbackQuery") == 1, data  # answered once
        assert await self.store.events(self.guarded) == self.before
        assert not [r for r in self.errors if r.levelno >= logging.ERROR], data

    async def say(self, text: str) -> None:
        self.count += 1
        calls = len(self.api.calls)
        await self.app.process_update(Update.de_json(_text(self.count, 6, text), self.app.bot))
        sent = [c for c in self.api.calls[calls:] if c.method in ("sendMessage", "editMessageText")]
        assert sent or not text.strip(), text  # a reply for every text (an empty message is never delivered)
        assert not [r for r in self.errors if r.levelno >= logging.ERROR], text


_FUZZ = _Fuzzer()


@pytest.fixture(scope="module", autouse=True)
def _close_the_fuzzer() -> Iterator[None]:
    yield
    _FUZZ.close()


async def _every_connection(store: Store, pragma: str) -> None:
    """A fault of the file reaches every connection the store writes through (its thread's and its loop's)."""
    await store._db.execute(pragma)
    if store._loop_db is not None:
        store._loop_db.execute(pragma)


async def test_database_faults_are_reported_and_recovered(
    bot: tuple[Application, FakeBotAPI], store: Store, dialogs: Dialogs
) -> None:
    app, api = bot
    ann, bob = Table(app, api, user_id=1), Table(app, api, user_id=2, chat_id=2)
    await ann.send("/start c_demo-main")
    await bob.send("/start c_demo-main")
    stored = await store.events(1)

    await _every_connection(store, "PRAGMA query_only = ON")  # the file became read-only
    calls = await ann.press("LHO")
    assert ann.alerts(calls) == [STORE_DOWN] and await store.events(1) == stored
    await _every_connection(store, "PRAGMA query_only = OFF")

    page_count = (await (await store._db.execute("PRAGMA page_count")).fetchone())[0]  # type: ignore[index]
    await _every_connection(store, f"PRAGMA max_page_count = {page_count + 2}")  # the disk is (nearly) full
    filler = await store.create_session("tg:filler", None, "demo-main", 1, {}, Position("open", 0, ""))
    seq = 1
    for size in (2000, 400, 60, 1):  # fill the last free pages, down to the smallest row
        try:
            while seq < 2000:
                await store.append(filler, seq, [("annotate", {"note": "x" * size})], Position("open", 0, ""))
                seq += 1
        except StoreError as exc:
            assert "full" in str(exc)
    calls = await bob.press("RHO")
    assert bob.alerts(calls) == [STORE_DOWN]
    await _every_connection(store, "PRAGMA max_page_count = 1073741823")

    blocker = sqlite3.connect(store.path, isolation_level=None)
    old = (await (await store._db.execute("PRAGMA busy_timeout")).fetchone())[0]  # type: ignore[index]
    await store._db.execute("PRAGMA busy_timeout = 50")
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        calls = await ann.press("LHO")
        assert "busy" in " ".join(ann.alerts(calls))
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
        await store._db.execute(f"PRAGMA busy_timeout = {old}")
    assert await store.events(1) == stored  # nothing stored was lost, nothing half-written
    assert "stays face up" in ann.texts(await ann.press("LHO"))  # recovered
    assert "stays face up" in bob.texts(await bob.press("RHO"))


@pytest.mark.parametrize(
    "fault",
    [
        {"status": 502, "description": "Bad Gateway"},
        {"status": 500, "description": "Internal Server Error"},
        {"network": True},
        {"status": 429, "retry_after": 0},
    ],
)
async def test_telegram_faults_on_edits_are_retried_without_duplicates(
    bot: tuple[Application, FakeBotAPI], fault: dict[str, Any]
) -> None:
    app, api = bot
    table = Table(app, api)
    await table.send("/start c_demo-main")
    api.fail("editMessageText", **fault)
    calls = await table.press("LHO")
    edits = [c for c in calls if c.method == "editMessageText"]
    assert len(edits) == 2 and "stays face up" in edits[-1].params["text"]


async def test_a_failed_ruling_message_is_not_sent_twice(bot: tuple[Application, FakeBotAPI], store: Store) -> None:
    app, api = bot
    table = Table(app, api)
    await table.send("/start c_demo-main")
    await table.press("RHO")
    await table.press("Continue")
    api.fail("sendMessage", status=502, description="Bad Gateway")
    calls = await table.press("No, a small card")
    rulings = [c for c in calls if c.method == "sendMessage" and "Ruling —" in c.params.get("text", "")]
    assert len(rulings) == 1  # the failed attempt is not repeated (it might have arrived)
    assert (await store.session(1)).status == "finished"  # type: ignore[union-attr]
    assert "Ruling — Demo" in table.texts(await table.send("/history")) or api.sent("sendMessage")


async def test_nobody_reads_or_changes_another_directors_ruling(
    bot: tuple[Application, FakeBotAPI], store: Store
) -> None:
    app, api = bot
    owner, other = Table(app, api, user_id=1), Table(app, api, user_id=2, chat_id=2)
    await owner.send("/start c_demo-main")
    for label in ("RHO", "Continue", "No, a small card"):
        await owner.press(label)
    before = await store.events(1)
    for data in ("u:1", "m:1:3", "h:1:3", "ro:1", "rs:1", "rb:1", "rn:1", "rp:1", "ra:1", "rd:1:note:x", "b:1:3"):
        calls = await other.press_data(data, message=owner.last_message())
        texts = other.texts(calls)
        assert "Ruling" not in texts and "Who exposed" not in texts, data
    for link in ("/start r_" + "A" * 43, "/start r_../../etc", "/start r_", "/start c_../../x", "/start law_999"):
        assert "Ruling 1" not in other.texts(await other.send(link))
    assert await store.events(1) == before
    token_calls = await owner.press("Share", message=owner.last_message(with_button="Share"))
    token = re.search(r"start=r_([A-Za-z0-9_-]+)", owner.texts(token_calls)).group(1)  # type: ignore[union-attr]
    assert len(token) >= 43  # 256 bits from secrets.token_urlsafe
