"""The store keeps every answer: replay after a restart, concurrent sessions, stale writes, migrations, locks."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.dialogs import Chart, DialogError, Dialogs, NotFound, Stale, load_charts
from bot.store import SCHEMA_VERSION, Conflict, Position, Store, StoreBusy, StoreError


async def test_sessions_survive_closing_and_reopening_the_database(
    tmp_path: Path, demo_charts: dict[str, Chart]
) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path)
    dialogs = Dialogs(store, demo_charts)
    screen = await dialogs.start("alice", "demo-main")
    screen = await dialogs.answer("alice", screen.session_id, 0, "rho")
    await store.close()

    reopened = await Store.open(path)
    again = await Dialogs(reopened, demo_charts).screen("alice", screen.session_id)
    assert (again.node_id, again.step, again.text) == ("card", 1, "Was it an honour?")
    assert again.notes == ("The card of the right-hand opponent stays face up on the table.",)
    assert [a.answer for a in again.path] == ["RHO"]
    assert await reopened.integrity_check() == "ok"
    await reopened.close()


async def test_a_log_from_when_notes_had_their_own_screen_still_replays(dialogs: Dialogs, store: Store) -> None:
    s = await dialogs.start("alice", "demo-main")
    older = [
        ("answer", {"chart": "demo-main", "node": "who", "option": "rho"}),
        ("answer", {"chart": "demo-main", "node": "reminder", "option": "continue"}),  # the note's Continue
    ]
    await store.append(s.session_id, 1, older, Position("open", 2, "demo-main/card"))
    again = await dialogs.screen("alice", s.session_id)
    assert (again.node_id, [a.answer for a in again.path]) == ("card", ["RHO"])
    done = await dialogs.answer("alice", s.session_id, again.step, "small")
    assert done.finished and done.rulings[-1].text == "A minor penalty card for the right-hand opponent."


def _stored(chart: str, version: int, *answers: tuple[str, str]) -> list[tuple[str, dict[str, object]]]:
    """A session's log as a bot of an earlier chart ``version`` wrote it: the start, then each (node, option)."""
    start: tuple[str, dict[str, object]] = ("start", {"chart": chart, "version": version})
    return [start, *(("answer", {"chart": chart, "node": node, "option": option}) for node, option in answers)]


async def test_a_session_stored_at_a_question_since_moved_to_a_shared_chart_resumes_there(store: Store) -> None:
    """The restored card's questions moved from the wrong-number-of-cards and defective-trick charts to the
    restored-card chart both jump to. Where a session stands is never stored as truth but replayed from its
    answers, so one left at a question that moved resumes at the question that now asks it, every answer kept."""
    dialogs = Dialogs(store, load_charts())
    short = [("what-wrong", "too-few"), ("short-when", "yes"), ("after-found", "elsewhere")]
    for chart, version, answers, at in (
        ("wrong-number-of-cards", 17, short, "wrong-number-of-cards/revoke-q"),
        ("defective-trick", 11, [("when", "yes"), ("found", "missing")], "defective-trick/missing-also"),
    ):
        log = _stored(chart, version, *answers)
        sid = await store.create_session("alice", None, chart, version, log[0][1], Position("open", len(answers), at))
        await store.append(sid, 1, log[1:], Position("open", len(answers), at))
        screen = await dialogs.resume("alice", sid)
        assert (screen.where, screen.step, len(screen.path)) == ("restored-card/also", len(answers), len(answers))
        assert "It may become a penalty card" in screen.notes[0]  # the caller's note, shown above it as before
        done = await dialogs.answer("alice", sid, screen.step, "none", question=screen.question)
        # walk 60 #7: wrong-number-of-cards says the card was found, so its ruling names no replacement
        found = "restored-found" if chart == "wrong-number-of-cards" else "restored"
        assert done.finished and done.rulings[-1].node == found


async def test_a_session_that_answered_a_question_since_removed_says_so_in_one_line_and_keeps_its_log(
    store: Store,
) -> None:
    """An answer to a question the chart no longer has cannot be carried over: the session is refused with one
    line, and its log, the record of what was answered, is left as it was."""
    dialogs = Dialogs(store, load_charts())
    short = [("what-wrong", "too-few"), ("short-when", "yes"), ("after-found", "elsewhere"), ("revoke-q", "yes")]
    log = _stored("wrong-number-of-cards", 17, *short)
    at = Position("open", 4, "wrong-number-of-cards/exposed-q")
    sid = await store.create_session("alice", None, "wrong-number-of-cards", 17, log[0][1], at)
    await store.append(sid, 1, log[1:], at)
    before = await store.events(sid)
    for action in (dialogs.resume("alice", sid), dialogs.answer("alice", sid, 4, "none"), dialogs.back("alice", sid)):
        with pytest.raises(DialogError) as refused:
            await action
        assert str(refused.value) == (
            f"The chart 'wrong-number-of-cards' has changed since session {sid} began; its record is kept."
            " Start the chart again."
        )
    assert await store.events(sid) == before


async def test_many_sessions_at_once_do_not_mix(dialogs: Dialogs) -> None:
    starts = await asyncio.gather(*(dialogs.start(f"user{i}", "demo-main") for i in range(20)))
    answers = await asyncio.gather(
        *(dialogs.answer(f"user{i}", s.session_id, 0, "lho" if i % 2 else "rho") for i, s in enumerate(starts))
    )
    for i, screen in enumerate(answers):
        side = "left" if i % 2 else "right"
        assert screen.notes == (f"The card of the {side}-hand opponent stays face up on the table.",)
    assert len({s.session_id for s in starts}) == 20


async def test_a_stale_press_is_refused_and_stores_nothing(dialogs: Dialogs, store: Store) -> None:
    screen = await dialogs.start("alice", "demo-main")
    await dialogs.answer("alice", screen.session_id, 0, "lho")
    before = await store.events(screen.session_id)
    with pytest.raises(Stale) as caught:
        await dialogs.answer("alice", screen.session_id, 0, "rho")  # the same button pressed twice
    assert caught.value.screen.node_id == "card"
    with pytest.raises(Stale):
        await dialogs.answer("alice", screen.session_id, 1, "no-such-option")
    assert await store.events(screen.session_id) == before


async def test_someone_elses_session_cannot_be_read_or_answered(dialogs: Dialogs, store: Store) -> None:
    screen = await dialogs.start("alice", "demo-main")
    for action in (
        dialogs.screen("mallory", screen.session_id),
        dialogs.answer("mallory", screen.session_id, 0, "lho"),
        dialogs.back("mallory", screen.session_id),
        dialogs.restart("mallory", screen.session_id),
        dialogs.answer("alice", 999_999, 0, "lho"),
    ):
        with pytest.raises(NotFound):
            await action
    assert len(await store.events(screen.session_id)) == 1


async def test_two_writers_racing_for_the_same_step_one_wins(store: Store) -> None:
    session = await store.create_session("alice", None, "demo-main", 1, {"chart": "demo-main"}, Position("open", 0, ""))
    await store.append(session, 1, [("answer", {"option": "lho"})], Position("open", 1, ""))
    with pytest.raises(Conflict):
        await store.append(session, 1, [("answer", {"option": "rho"})], Position("open", 1, ""))
    assert [e.data for e in await store.events(session)][1] == {"option": "lho"}


async def test_what_another_process_writes_is_seen_at_once(tmp_path: Path, demo_charts: dict[str, Chart]) -> None:
    """Two bot processes (or the bot and an operator command) on one database: each keeps recent sessions in
    memory, yet an answer or a hand-over the other made is what the next press sees."""
    path = tmp_path / "bot.sqlite3"
    one, other = await Store.open(path), await Store.open(path)
    try:
        dialogs, elsewhere = Dialogs(one, demo_charts), Dialogs(other, demo_charts)
        screen = await dialogs.start("alice", "demo-main")
        await elsewhere.answer("alice", screen.session_id, 0, "rho")
        again = await dialogs.screen("alice", screen.session_id)
        assert (again.node_id, [a.answer for a in again.path]) == ("card", ["RHO"])
        with pytest.raises(Stale):
            await dialogs.answer("alice", screen.session_id, 0, "lho")
        await other.set_session_owner(screen.session_id, "bob")
        with pytest.raises(NotFound):
            await dialogs.screen("alice", screen.session_id)
        assert (await dialogs.screen("bob", screen.session_id)).node_id == "card"
    finally:
        await one.close()
        await other.close()


async def test_back_change_restart_and_park_are_all_in_the_log(dialogs: Dialogs, store: Store) -> None:
    s = await dialogs.start("alice", "demo-main")
    sid = s.session_id
    for step, option in enumerate(["lho", "honour", "continue"]):
        s = await dialogs.answer("alice", sid, step, option)
    assert s.status == "parked" and s.kind == "park"
    assert [x.id for x in await dialogs.sessions("alice", ("parked",))] == [sid]
    s = await dialogs.resume("alice", sid)
    assert s.node_id == "damaged" and s.status == "open"
    s = await dialogs.back("alice", sid)
    assert s.status == "parked"
    s = await dialogs.change("alice", sid, 1, "rho")
    assert s.status == "parked" and s.path[0].answer == "RHO"
    s = await dialogs.restart("alice", sid)
    assert s.node_id == "who" and s.step == 0
    kinds = [e.kind for e in await store.events(sid)]
    assert kinds == [
        "start",
        "answer",
        "answer",
        "answer",
        "park",
        "resume",
        "back",
        "park",
        "change",
        "park",
        "restart",
    ]


async def test_a_finished_session_records_its_ruling(dialogs: Dialogs, store: Store) -> None:
    s = await dialogs.start("alice", "demo-main")
    for step, option in enumerate(["lho", "small"]):
        s = await dialogs.answer("alice", s.session_id, step, option)
    assert s.finished and s.kind == "ruling" and s.laws == ("50C", "50A")  # the ruling, then its note
    events = await store.events(s.session_id)
    assert events[-1].kind == "ruling" and events[-1].data["rulings"] == ["demo-main/minor"]
    assert events[-1].data["texts"] == [  # the note passed on the way, then the ruling: as read aloud
        "The card of the left-hand opponent stays face up on the table.",
        "A minor penalty card for the left-hand opponent.",
    ]
    assert events[-1].data["laws"] == ["50C", "50A"]
    assert await dialogs.sessions("alice") == []
    assert [x.status for x in await dialogs.sessions("alice", ("finished",))] == ["finished"]


async def test_an_older_schema_is_migrated_and_keeps_its_sessions(
    tmp_path: Path, demo_charts: dict[str, Chart]
) -> None:
    path = tmp_path / "old.sqlite3"
    from bot.store import MIGRATIONS

    with sqlite3.connect(path) as db:  # a database written by the first release (schema 1)
        db.executescript(MIGRATIONS[0])
        db.execute("INSERT INTO sessions VALUES (1, 'alice', 'demo-main', 1, 'open', 0, 0)")
        db.execute("""INSERT INTO events VALUES (1, 0, 'start', '{"chart": "demo-main"}', 0)""")
        answer = '{"chart": "demo-main", "node": "who", "option": "rho"}'
        db.execute("INSERT INTO events VALUES (1, 1, 'answer', ?, 0)", (answer,))
        db.execute("PRAGMA user_version = 1")
    store = await Store.open(path)
    assert await store.schema_version() == SCHEMA_VERSION
    kept = Path(f"{path}.schema-1.bak")  # the database as it was, copied before migrating
    with sqlite3.connect(kept) as old:
        assert old.execute("PRAGMA user_version").fetchone()[0] == 1
        assert old.execute("SELECT count(*) FROM events").fetchone()[0] == 2
    screen = await Dialogs(store, demo_charts).screen("alice", 1)
    assert screen.node_id == "card" and "right-hand" in screen.notes[0]
    await store.close()


async def test_a_database_from_a_newer_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this bot"):
        await Store.open(path)


async def test_a_locked_database_is_reported_and_loses_nothing(
    tmp_path: Path, demo_charts: dict[str, Chart], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.store.database

    monkeypatch.setattr(bot.store.database, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path)
    dialogs = Dialogs(store, demo_charts)
    screen = await dialogs.start("alice", "demo-main")
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the lock (a backup, a second process)
    try:
        with pytest.raises(StoreBusy):
            await dialogs.answer("alice", screen.session_id, 0, "lho")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    retried = await dialogs.answer("alice", screen.session_id, 0, "lho")
    assert retried.node_id == "card"
    assert len(await store.events(screen.session_id)) == 2
    await store.close()


async def test_a_press_during_another_workers_short_write_is_stored(
    tmp_path: Path, demo_charts: dict[str, Chart]
) -> None:
    """Another bot worker holds the write lock for a few milliseconds: the press is stored once that write is
    done (tried again on the loop's connection), with no notice to the director."""
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path)
    dialogs = Dialogs(store, demo_charts)
    screen = await dialogs.start("alice", "demo-main")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(0.003, other.execute, "COMMIT")
    try:
        answered = await dialogs.answer("alice", screen.session_id, 0, "lho")
    finally:
        other.close()
    assert answered.node_id == "card" and len(await store.events(screen.session_id)) == 2
    await store.close()
