"""A press's write is one transaction, on the loop's own connection unless another writer holds the lock:
committed before the reply, all or nothing, one winner among racing presses, and a session read from disk
agrees with what was written."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.dialogs import Chart, Dialogs
from bot.store import Conflict, Position, Store, StoreError


def _on_disk(path: str, session_id: int) -> tuple[list[tuple[int, str]], int]:
    """The session's events and step as another process sees them."""
    with sqlite3.connect(path) as other:
        events = other.execute("SELECT seq, kind FROM events WHERE session_id = ? ORDER BY seq", (session_id,))
        step = other.execute("SELECT step FROM sessions WHERE id = ?", (session_id,)).fetchone()[0]
        return list(events), int(step)


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts round trips to aiosqlite's thread."""
    count = [0]
    original = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    yield count


async def test_an_answer_is_on_disk_when_answer_returns(dialogs: Dialogs, store: Store) -> None:
    screen = await dialogs.start("alice", "demo-main")
    moved = await dialogs.answer("alice", screen.session_id, 0, "rho")
    assert _on_disk(store.path, screen.session_id) == ([(0, "start"), (1, "answer")], moved.step)


async def test_a_press_stays_on_the_loop_thread_whether_its_session_is_in_memory_or_on_disk(
    tmp_path: Path, demo_charts: dict[str, Chart], hops: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.store.database

    monkeypatch.setattr(bot.store.database, "RECENT_SESSIONS", 1)
    store = await Store.open(tmp_path / "bot.sqlite3")
    dialogs = Dialogs(store, demo_charts)
    first = await dialogs.start("alice", "demo-main")
    second = await dialogs.start("bob", "demo-main")
    hops[0] = 0
    await dialogs.answer("bob", second.session_id, 0, "rho")  # just started: in memory
    moved = await dialogs.answer("alice", first.session_id, 0, "lho")  # pushed out of memory by bob's
    assert hops[0] == 0 and moved.node_id == "card"
    assert _on_disk(store.path, first.session_id)[0] == [(0, "start"), (1, "answer")]
    await store.close()


async def test_a_press_that_meets_another_writers_lock_waits_on_the_thread_and_other_chats_go_on(
    dialogs: Dialogs, store: Store, hops: list[int]
) -> None:
    screen = await dialogs.start("alice", "demo-main")
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process is writing
    asyncio.get_running_loop().call_later(0.3, other.execute, "ROLLBACK")
    ticks = 0

    async def another_chat() -> None:
        nonlocal ticks
        while not pressed.done():
            ticks += 1
            await asyncio.sleep(0.01)

    hops[0] = 0
    pressed = asyncio.ensure_future(dialogs.answer("alice", screen.session_id, 0, "rho"))
    await asyncio.gather(pressed, another_chat())
    other.close()
    assert hops[0] == 1 and ticks >= 10  # waited on aiosqlite's thread while the loop served others
    assert _on_disk(store.path, screen.session_id) == ([(0, "start"), (1, "answer")], pressed.result().step)


async def test_a_write_that_fails_halfway_leaves_nothing_and_the_next_one_works(dialogs: Dialogs, store: Store) -> None:
    screen = await dialogs.start("alice", "demo-main")
    with sqlite3.connect(store.path) as other:  # the session update fails after the event was inserted
        other.execute("CREATE TRIGGER refuse BEFORE UPDATE ON sessions BEGIN SELECT RAISE(ABORT, 'refused'); END")
    with pytest.raises(StoreError):
        await store.append(screen.session_id, 1, [("answer", {"option": "rho"})], Position("open", 1, "x"))
    assert _on_disk(store.path, screen.session_id) == ([(0, "start")], 0)
    assert [e.kind for e in await store.events(screen.session_id)] == ["start"]
    with sqlite3.connect(store.path) as other:
        other.execute("DROP TRIGGER refuse")
    moved = await dialogs.answer("alice", screen.session_id, 0, "rho")
    assert _on_disk(store.path, screen.session_id) == ([(0, "start"), (1, "answer")], moved.step)


async def test_racing_presses_for_one_step_store_exactly_one(store: Store) -> None:
    session = await store.create_session("alice", None, "demo-main", 1, {}, Position("open", 0, ""))
    results = await asyncio.gather(
        *(store.append(session, 1, [("answer", {"option": str(n)})], Position("open", 1, "")) for n in range(10)),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, Conflict) for r in results if r is not None)
    winner = results.index(None)
    assert [e.data for e in await store.events(session)] == [{}, {"option": str(winner)}]
    assert _on_disk(store.path, session) == ([(0, "start"), (1, "answer")], 1)


async def test_answers_reach_the_database_file_itself_off_the_press_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.store.database

    monkeypatch.setattr(bot.store.database, "CHECKPOINT_EVERY", 8)
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path)
    session = await store.create_session("alice", None, "demo-main", 1, {}, Position("open", 0, ""))
    for seq in range(1, 8):  # the eighth commit starts a checkpoint on a worker thread
        await store.append(session, seq, [("note", {"n": seq})], Position("open", 0, ""))
    assert store._checkpoint is not None
    await store._checkpoint
    with sqlite3.connect(f"file:{path}?immutable=1", uri=True) as file_only:  # the file, ignoring the WAL
        assert file_only.execute("SELECT count(*) FROM events").fetchone()[0] == 8
    await store.append(session, 8, [("note", {"n": 8})], Position("open", 0, ""))
    await store.close()  # waits for any checkpoint still running
    assert _on_disk(str(path), session)[0] == [(0, "start"), *((n, "note") for n in range(1, 9))]
