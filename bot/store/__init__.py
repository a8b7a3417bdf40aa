"""Sessions as append-only event logs in SQLite (aiosqlite): nothing a director answered is ever lost.

One connection per process, WAL, short write transactions, schema versions through ``PRAGMA user_version``.
A write that finds the database locked waits ``busy_timeout`` and then raises ``StoreBusy``: the caller
tells the user to try again; nothing half-written remains.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

DEFAULT_DB = Path("data") / "bot.sqlite3"
BUSY_TIMEOUT_MS = 3000

# Each entry moves the schema from version i to i + 1. Never edit a shipped entry: append a new one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        owner TEXT NOT NULL,
        chart_id TEXT NOT NULL,
        chart_version INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE events (
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (session_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX sessions_by_owner ON sessions(owner, status, updated);
    """,
    # Version 2: the chat a session belongs to (a group can hold several directors' sessions) and
    # its position (step, node) so lists can be shown without replaying every log.
    """
    ALTER TABLE sessions ADD COLUMN chat TEXT;
    ALTER TABLE sessions ADD COLUMN step INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sessions ADD COLUMN node TEXT NOT NULL DEFAULT '';
    """,
    # Version 3: the running bot's heartbeat, so `python -m bot health` can tell it is alive.
    """
    CREATE TABLE heartbeat (name TEXT PRIMARY KEY, at REAL NOT NULL);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """The store could not do what was asked; the message is fit for a user."""


class StoreBusy(StoreError):
    """The database stayed locked (another writer, a backup): try again shortly."""


class Conflict(StoreError):
    """Another event was stored first (a double press, two devices): the caller's view is stale."""


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: int
    owner: str
    chat: str | None
    chart_id: str
    chart_version: int
    status: str
    step: int
    node: str
    created: float
    updated: float


@dataclass(frozen=True, slots=True)
class Position:
    """Where a session stands after an event, kept beside the log so lists need no replay."""

    status: str
    step: int
    node: str


_SESSION_COLUMNS = "id, owner, chat, chart_id, chart_version, status, step, node, created, updated"


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


class Store:
    """The bot's SQLite database. Open with ``await Store.open(path)``; close with ``await store.close()``."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        # One connection serves every coroutine: a transaction must not interleave with another's statements.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path = DEFAULT_DB) -> Store:
        target = str(path)
        if target != ":memory:":
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        try:
            db = await aiosqlite.connect(target, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {target}: {exc}") from exc
        store = cls(db, target)
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await store._migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

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
        from bot.store.maintenance import backup

        target = Path(f"{self.path}.schema-{version}.bak")
        if not target.exists():
            await asyncio.to_thread(backup, Path(self.path), target)

    async def _write(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> int | None:
        """Run statements in one short transaction; returns the last row id."""
        async with self._lock:
            return await self._transaction(statements)

    async def _transaction(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> int | None:
        try:
            await self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise (StoreBusy("the record is busy") if _is_busy(exc) else StoreError(str(exc))) from exc
        try:
            last: int | None = None
            for sql, params in statements:
                cursor = await self._db.execute(sql, params)
                last = cursor.lastrowid
            await self._db.execute("COMMIT")
            return last
        except sqlite3.IntegrityError as exc:
            await self._db.execute("ROLLBACK")
            raise Conflict("another answer was stored first") from exc
        except sqlite3.Error as exc:
            await self._db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
                raise StoreBusy("the record is busy") from exc
            raise StoreError(f"the record could not be written: {exc}") from exc

    async def create_session(
        self, owner: str, chat: str | None, chart_id: str, chart_version: int, start: dict[str, Any], at: Position
    ) -> int:
        """A new session with its start event, in one transaction."""
        now = time.time()
        session_id = await self._write(
            [
                (
                    "INSERT INTO sessions (owner, chat, chart_id, chart_version, status, step, node, created, updated)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (owner, chat, chart_id, chart_version, at.status, at.step, at.node, now, now),
                ),
                (
                    "INSERT INTO events (session_id, seq, kind, data, at)"
                    " VALUES (last_insert_rowid(), 0, 'start', ?, ?)",
                    (json.dumps(start, sort_keys=True), now),
                ),
            ]
        )
        assert session_id is not None
        return session_id

    async def append(
        self, session_id: int, seq: int, events: Sequence[tuple[str, dict[str, Any]]], at: Position
    ) -> None:
        """Append events at ``seq``, ``seq + 1``…; Conflict if another writer took ``seq`` first."""
        now = time.time()
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO events (session_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)",
                (session_id, seq + offset, kind, json.dumps(data, sort_keys=True), now),
            )
            for offset, (kind, data) in enumerate(events)
        ]
        statements.append(
            (
                "UPDATE sessions SET status = ?, step = ?, node = ?, updated = ? WHERE id = ?",
                (at.status, at.step, at.node, now, session_id),
            )
        )
        await self._write(statements)

    async def _read(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        try:
            async with self._lock, self._db.execute(sql, params) as cursor:
                return list(await cursor.fetchall())
        except sqlite3.OperationalError as exc:
            raise (StoreBusy("the record is busy") if _is_busy(exc) else StoreError(str(exc))) from exc

    async def events(self, session_id: int) -> list[Event]:
        rows = await self._read(
            "SELECT seq, kind, data, at FROM events WHERE session_id = ? ORDER BY seq", (session_id,)
        )
        return [Event(int(seq), str(kind), json.loads(data), float(at)) for seq, kind, data, at in rows]

    async def session(self, session_id: int) -> SessionRow | None:
        rows = await self._read(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,))
        return SessionRow(*rows[0]) if rows else None

    async def sessions(self, owner: str, statuses: Sequence[str], limit: int = 20) -> list[SessionRow]:
        """An owner's sessions in the given states, most recently touched first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE owner = ? AND status IN ({marks})"
            " ORDER BY updated DESC, id DESC LIMIT ?",
            (owner, *statuses, limit),
        )
        return [SessionRow(*row) for row in rows]

    async def beat(self, name: str = "bot") -> None:
        """Record that the bot is alive and its database writable (read by the health check)."""
        await self._write([("INSERT OR REPLACE INTO heartbeat (name, at) VALUES (?, ?)", (name, time.time()))])

    async def integrity_check(self) -> str:
        rows = await self._read("PRAGMA integrity_check", ())
        return str(rows[0][0]) if rows else "no answer"
