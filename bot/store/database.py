"""Sessions as append-only event logs in SQLite (aiosqlite): nothing a director answered is ever lost.

WAL with synchronous=NORMAL (a commit survives a killed process; a power cut may lose the last few), short
write transactions, schema versions through ``PRAGMA user_version``.

A button press's read and write, and the lookups by key a press or a description needs, are tried first on a
connection on the event loop's own thread that never waits for a lock (``busy_timeout`` 0). In WAL with
synchronous=NORMAL a commit only appends to the log, with no fsync (the checkpoints, which sync, run on a worker
thread), and a read never waits for a writer; so either costs about 20 µs there, where the hop to aiosqlite's
thread and back costs 50-120 µs, once the largest part of a press. Work that finds the database locked (another
process writing: an operator command, the bot's other workers) is tried there again after a millisecond or a
few, then moves to aiosqlite's thread, which waits ``busy_timeout`` without holding up other chats and then
raises ``StoreBusy``: the caller tells the user to try again; nothing half-written remains. Listings,
migrations and maintenance always run on aiosqlite's thread.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite

from bot.store.records import Conflict, DatabaseInUse, Event, SessionRow, StoreBusy, StoreError
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION

DEFAULT_DB = Path("data") / "bot.sqlite3"
BUSY_TIMEOUT_MS = 3000
RECENT_SESSIONS = 2048  # sessions whose row and log stay in memory (a few kB each)
# SQLite copies the write-ahead log into the database file (a checkpoint, with two fsyncs) inside the commit
# that fills it past a threshold: one press in a few hundred waited 5-20 ms for the disk. The store checkpoints
# from a second connection on a worker thread instead, every CHECKPOINT_EVERY commits; SQLite's own
# checkpoint stays as a backstop at a higher threshold.
CHECKPOINT_EVERY = 256
BACKSTOP_CHECKPOINT_PAGES = 2000  # twice SQLite's default; reached only under sustained load
# After a checkpoint has emptied the write-ahead log SQLite cuts the file back to this size, so one burst of
# writes does not leave a large log on the disk for good (2,000 pages of 4 kB, the backstop's threshold).
JOURNAL_SIZE_LIMIT = 8 * 1024 * 1024
# Pauses between tries on the loop's own connection when another process holds the write lock (seconds).
QUICK_RETRIES = (0.001, 0.001, 0.002, 0.004, 0.008)
T = TypeVar("T")


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _transaction(db: sqlite3.Connection, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> int | None:
    """BEGIN, the statements, COMMIT — or ROLLBACK and a StoreError; runs on the connection's thread."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if _is_busy(exc):
            raise StoreBusy("the record is busy") from exc
        raise StoreError(f"the record could not be written: {exc}") from exc
    try:
        last: int | None = None
        for sql, params in statements:
            last = db.execute(sql, params).lastrowid
        db.execute("COMMIT")
        return last
    except sqlite3.IntegrityError as exc:
        _rollback(db)
        raise Conflict("another answer was stored first") from exc
    except sqlite3.Error as exc:
        _rollback(db)
        if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
            raise StoreBusy("the record is busy") from exc
        raise StoreError(f"the record could not be written: {exc}") from exc


def _rollback(db: sqlite3.Connection) -> None:
    """Undo an unfinished transaction; SQLite may already have rolled it back (a full disk does)."""
    if db.in_transaction:
        db.execute("ROLLBACK")


def _fetch(db: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> list[Any]:
    try:
        return db.execute(sql, params).fetchall()
    except sqlite3.OperationalError as exc:
        raise (StoreBusy("the record is busy") if _is_busy(exc) else StoreError(str(exc))) from exc


def _open_loop_db(path: str) -> sqlite3.Connection:
    """The connection a press's read and write are tried on first: it never waits for a lock."""
    try:
        writer = sqlite3.connect(path, timeout=0, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the database {path}: {exc}") from exc
    try:
        writer.execute("PRAGMA synchronous = NORMAL")
        writer.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_CHECKPOINT_PAGES}")
        writer.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
        writer.execute("PRAGMA foreign_keys = ON")
        writer.execute("PRAGMA secure_delete = ON")
    except sqlite3.Error as exc:
        writer.close()
        raise StoreError(f"cannot open the database {path}: {exc}") from exc
    return writer


def lock_path(path: str | Path) -> Path:
    """The lock file beside a database: each process with the store open holds a shared lock on it (flock),
    and ``restore`` replaces the database only while it can hold it exclusively. The kernel drops a flock when
    its process ends, however it ends (kill -9 too), so a crashed bot never leaves the database locked."""
    return Path(f"{path}.lock")


def take_lock(path: str | Path, exclusive: bool) -> int | None:
    """Open the database's lock file and lock it without waiting: its descriptor, or None if another process
    holds a lock that conflicts (a running bot against ``exclusive``, a restore against a shared lock)."""
    handle = os.open(lock_path(path), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(handle, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        return None
    except BaseException:
        os.close(handle)
        raise
    return handle


async def _share_lock(path: str) -> int:
    """A shared lock on the database for as long as the store is open; a restore in progress takes a moment,
    so wait for it a little before giving up."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            handle = take_lock(path, exclusive=False)
        except OSError as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from exc
        if handle is not None:
            return handle
        if time.monotonic() > deadline:
            raise DatabaseInUse(f"the database {path} is being restored; try again when the restore has finished")
        await asyncio.sleep(0.05)


def _truncated(path: str) -> str | None:
    """How a database file is shorter than its own header says it is (a copy cut short), or None.

    The header's page count is trusted only when it is current (SQLite's own rule: the 'version valid for'
    number equals the change counter); in WAL mode it lags behind the file, never ahead of it."""
    try:
        with open(path, "rb") as file:
            header = file.read(100)
            size = os.fstat(file.fileno()).st_size
    except OSError:
        return None
    if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
        return None
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    if header[24:28] != header[92:96] or pages == 0 or size >= pages * page_size:
        return None
    return f"{size // page_size} of its {pages} pages are there"


def checkpoint(path: str, mode: str = "PASSIVE") -> None:
    """Copy committed pages from the write-ahead log into the database file (PASSIVE: without holding up
    writers); a busy or failing checkpoint is left to the next one (or to SQLite's backstop)."""
    try:
        db = sqlite3.connect(path, timeout=0, isolation_level=None)
    except sqlite3.Error:
        return
    try:
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
        db.execute(f"PRAGMA wal_checkpoint({mode})")
    except sqlite3.Error:
        return
    finally:
        db.close()


class Database:
    """The connection, its transactions and the cache of recent sessions that the stores share."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        self._loop_db: sqlite3.Connection | None = None  # on the event loop's thread; None for ":memory:"
        # Recently used sessions and their logs, updated only after a commit succeeds, so a press on a recent
        # session reads nothing. Other writers (the bot's other worker processes, an operator command) are
        # seen through SQLite's data_version: any commit but this connection's own empties it.
        self._recent: OrderedDict[int, tuple[SessionRow, list[Event]]] = OrderedDict()
        self._data_version: int | None = None
        self._commits = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._lock: int | None = None  # the shared lock on ``<database>.lock`` (see ``lock_path``)
        self._closed = False

    @classmethod
    async def open(cls, path: str | Path = DEFAULT_DB) -> Self:
        """Open (creating and migrating) the database; a damaged file is a StoreError that says so."""
        target = str(path)
        lock: int | None = None
        if target != ":memory:":
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            lock = await _share_lock(target)
            cut = _truncated(target)
            if cut is not None:
                os.close(lock)
                raise StoreError(
                    f"the database {target} is cut short ({cut}): restore a backup with python -m bot restore FILE"
                )
        try:
            db = await aiosqlite.connect(target, isolation_level=None)
        except sqlite3.Error as exc:
            if lock is not None:
                os.close(lock)
            raise StoreError(f"cannot open the database {target}: {exc}") from exc
        store = cls(db, target)
        store._lock = lock
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_CHECKPOINT_PAGES}")
            await db.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA secure_delete = ON")  # deleted text is overwritten, not left in free space
            await store._migrate()
            if target != ":memory:":
                store._loop_db = _open_loop_db(target)
        except sqlite3.OperationalError as exc:  # locked, read-only, out of space: the file itself may be fine
            await store._release()
            raise StoreError(f"cannot open the database {target}: {exc}") from exc
        except sqlite3.DatabaseError as exc:  # not a database, or damaged
            await store._release()
            raise StoreError(
                f"the database {target} cannot be read ({exc}): restore a backup with python -m bot restore FILE"
            ) from exc
        except BaseException:
            await store._release()
            raise
        return store

    async def close(self) -> None:
        """Close after the last write. The write-ahead log is checkpointed and emptied first, so what the bot
        wrote is in the database file itself when it stops; if another process is reading or writing just then,
        that is left to its own close (no waiting). Closing again does nothing."""
        if self._closed:
            return
        if self._checkpoint is not None:
            await self._checkpoint
        if self.path != ":memory:":
            try:
                await self._db.execute("PRAGMA busy_timeout = 0")
                await self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass  # a damaged file: nothing more to save here
        await self._release()

    async def _release(self) -> None:
        self._closed = True
        if self._loop_db is not None:
            self._loop_db.close()
            self._loop_db = None
        await self._db.close()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the database is schema {version}, newer than this bot ({SCHEMA_VERSION}): upgrade the bot"
            )
        if 0 < version < SCHEMA_VERSION and self.path != ":memory:":
            await self._backup_before_upgrade(version)
        for number in range(version, SCHEMA_VERSION):
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version = {number + 1}")
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise

    async def _backup_before_upgrade(self, version: int) -> None:
        """Keep a copy of the database as it was before migrating it (``bot.sqlite3.schema-1.bak``)."""
        from bot.store.maintenance import MaintenanceError, backup

        target = Path(f"{self.path}.schema-{version}.bak")
        if not target.exists():
            try:
                await asyncio.to_thread(backup, Path(self.path), target)
            except MaintenanceError as exc:
                raise StoreError(f"not upgrading the database: {exc}") from exc

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the connection's own thread: one round trip however many statements it runs.

        Every aiosqlite call is a hop to that thread and back (30 µs on an idle machine, several times that on
        a busy one), so a press costs one hop, not one per statement. aiosqlite has no public call for this;
        ``_execute`` is the one all its methods go through. Jobs run in order, one at a time, so a transaction
        never interleaves.
        """
        db = self._db
        return await db._execute(lambda: work(db._conn))

    async def _run_quick(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` (a press's read or write) on the loop's own connection, which never waits for a lock.
        If it meets one (another process writing: the bot's other workers hold it for tens of microseconds), it
        tries again there after a millisecond or a few, letting other chats run meanwhile; if the lock is still
        held (a long write elsewhere), on aiosqlite's thread, which waits without holding up other chats.
        SQLite's own wait there sleeps longer and longer between tries (up to 100 ms) and the thread takes one
        job at a time, so with several workers writing, a press that went there waited 10-200 ms."""
        if self._loop_db is not None:
            for pause in QUICK_RETRIES:
                try:
                    return work(self._loop_db)
                except StoreBusy:
                    await asyncio.sleep(pause)
        return await self._run(work)

    async def _write(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> int | None:
        """Run statements in one short transaction, committed before this returns; returns the last row id.

        Tried on the loop's own connection first (see the module's docstring)."""
        last = await self._run_quick(partial(_transaction, statements=statements))
        self._commits += 1
        idle = self._checkpoint is None or self._checkpoint.done()
        if self._commits >= CHECKPOINT_EVERY and idle and self.path != ":memory:":
            self._commits = 0
            self._checkpoint = asyncio.ensure_future(asyncio.to_thread(checkpoint, self.path))
        return last

    async def _read(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        """A listing (any number of rows): on aiosqlite's thread, so a long one never holds up other chats."""
        return await self._run(partial(_fetch, sql=sql, params=params))

    async def _lookup(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        """A few rows found by key (a setting, a role, one session's log), as a description or a press needs
        them: on the loop's own connection (see ``_run_quick``), since a hop to aiosqlite's thread and back,
        and the wait for the loop to take the answer, cost more than the read."""
        return await self._run_quick(partial(_fetch, sql=sql, params=params))

    def _recent_session(self, session_id: int) -> tuple[SessionRow, list[Event]] | None:
        """A recent session's row and log as this process last wrote or read them, unless another connection
        has committed anything since (``PRAGMA data_version``, a few microseconds, asked on a hit only): then
        every recent session is read again, since another process may have answered, noted or handed over
        any of them."""
        cached = self._recent.get(session_id)
        if cached is None or self._loop_db is None:
            return cached
        try:
            version = self._loop_db.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            version = None
        if version is None or version != self._data_version:
            self._data_version = version
            self._recent.clear()
            return None
        return cached

    def _remember(self, row: SessionRow, events: list[Event]) -> None:
        self._recent[row.id] = (row, events)
        self._recent.move_to_end(row.id)
        while len(self._recent) > RECENT_SESSIONS:
            self._recent.popitem(last=False)

    def _forget_recent(self, session_id: int | None = None) -> None:
        if session_id is None:
            self._recent.clear()
        else:
            self._recent.pop(session_id, None)

    async def beat(self, name: str = "bot") -> None:
        """Record that the bot is alive and its database writable (read by the health check)."""
        await self._write([("INSERT OR REPLACE INTO heartbeat (name, at) VALUES (?, ?)", (name, time.time()))])

    async def integrity_check(self) -> str:
        rows = await self._read("PRAGMA integrity_check", ())
        return str(rows[0][0]) if rows else "no answer"
