"""Sessions as append-only event logs in SQLite (aiosqlite): nothing a director answered is ever lost.

WAL with synchronous=NORMAL (a commit survives a killed process; a power cut may lose the last few), short
write transactions, schema versions through ``PRAGMA user_version``.

A button press's read and write are tried first on a connection on the event loop's own thread that never
waits for a lock (``busy_timeout`` 0). In WAL with synchronous=NORMAL a commit only appends to the log, with
no fsync (the checkpoints, which sync, run on a worker thread), and a read never waits for a writer; so
either costs about 20 µs there, where the hop to aiosqlite's thread and back costs 50-120 µs, once the
largest part of a press. Work that finds the database locked (another process writing) moves to
aiosqlite's thread, which waits ``busy_timeout`` there without holding up other chats and then raises
``StoreBusy``: the caller tells the user to try again; nothing half-written remains. Listings, migrations
and maintenance always run on aiosqlite's thread.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

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
FORGOTTEN = "a forgotten user"  # who a forgotten user's kept records name (never a real id: those have a prefix)
REMOVED = "(removed: its writer asked the bot to forget them)"

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
    # Version 4: rulings that last — share tokens, clubs with their settings and members' roles, and the
    # club a session belongs to.
    """
    CREATE TABLE shares (
        token TEXT PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        created REAL NOT NULL,
        revoked REAL
    );
    CREATE INDEX shares_by_session ON shares(session_id);
    CREATE TABLE clubs (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        authority TEXT NOT NULL DEFAULT 'WBF',
        settings TEXT NOT NULL DEFAULT '{}',
        appeals_chat TEXT,
        created REAL NOT NULL
    );
    CREATE TABLE club_members (
        club_id INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
        user TEXT NOT NULL,
        role TEXT NOT NULL,
        PRIMARY KEY (club_id, user, role)
    ) WITHOUT ROWID;
    ALTER TABLE sessions ADD COLUMN club_id INTEGER REFERENCES clubs(id);
    """,
    # Version 5: a user's own settings (whether a question gets the players' summary or the director's chart).
    """
    CREATE TABLE user_settings (
        user TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (user, key)
    ) WITHOUT ROWID;
    """,
    # Version 6: a club role is offered first and held only once the person accepts it.
    """
    CREATE TABLE club_invites (
        club_id INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
        user TEXT NOT NULL,
        role TEXT NOT NULL,
        by TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (club_id, user, role)
    ) WITHOUT ROWID;
    """,
    # Version 7: polls of players about a ruling's question (Law 16B1): what was asked, where, and the counts,
    # so a poll outlives a restart; its result also goes into the ruling's log when it closes.
    """
    CREATE TABLE polls (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        node TEXT NOT NULL,
        owner TEXT NOT NULL,
        hand TEXT NOT NULL DEFAULT '',
        auction TEXT NOT NULL DEFAULT '',
        calls TEXT NOT NULL DEFAULT '[]',
        counts TEXT NOT NULL DEFAULT '[]',
        max_votes INTEGER NOT NULL,
        minutes INTEGER NOT NULL,
        reply_chat TEXT,
        chat TEXT,
        message_id INTEGER,
        telegram_id TEXT UNIQUE,
        created REAL NOT NULL,
        opened REAL,
        closed REAL
    );
    CREATE INDEX polls_by_session ON polls(session_id);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """The store could not do what was asked; the message is fit for a user."""


class StoreBusy(StoreError):
    """The database stayed locked (another writer, a backup): try again shortly."""


class DatabaseInUse(StoreError):
    """A restore is replacing the database file right now (it holds the lock exclusively)."""


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
    club_id: int | None = None


@dataclass(frozen=True, slots=True)
class Club:
    id: int
    name: str
    authority: str
    settings: dict[str, Any]
    appeals_chat: str | None


@dataclass(frozen=True, slots=True)
class PollRow:
    """A poll of players about one question of a ruling: a draft until its calls are known, open once sent."""

    id: int
    session_id: int
    node: str  # chart/node of the question polled
    owner: str
    hand: str
    auction: str
    calls: tuple[str, ...]
    counts: tuple[int, ...]
    max_votes: int
    minutes: int
    reply_chat: str | None  # where the director asked for it (told there when it closes)
    chat: str | None  # where it was posted
    message_id: int | None
    telegram_id: str | None
    created: float
    opened: float | None
    closed: float | None


POLL_FIELDS = ("hand", "auction", "calls", "counts", "chat", "message_id", "telegram_id", "opened", "closed")
_POLL_COLUMNS = (
    "id, session_id, node, owner, hand, auction, calls, counts, max_votes, minutes, reply_chat, chat, message_id,"
    " telegram_id, created, opened, closed"
)


def _poll(row: Any) -> PollRow:
    values = list(row)
    values[6], values[7] = tuple(json.loads(values[6])), tuple(json.loads(values[7]))
    return PollRow(*values)


@dataclass(frozen=True, slots=True)
class Position:
    """Where a session stands after an event, kept beside the log so lists need no replay."""

    status: str
    step: int
    node: str


_SESSION_COLUMNS = "id, owner, chat, chart_id, chart_version, status, step, node, created, updated, club_id"
_EVENTS_OF = "SELECT seq, kind, data, at FROM events WHERE session_id = ? ORDER BY seq"
_SESSION_AND_LOG = (
    f"SELECT {', '.join(f's.{c}' for c in _SESSION_COLUMNS.split(', '))}, e.seq, e.kind, e.data, e.at"
    " FROM sessions s LEFT JOIN events e ON e.session_id = s.id WHERE s.id = ? ORDER BY e.seq"
)
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


def _session_and_log(db: sqlite3.Connection, session_id: int) -> tuple[SessionRow, list[Any]] | None:
    """A session's row and its events, read by one statement (one read transaction) so the two agree."""
    rows = _fetch(db, _SESSION_AND_LOG, (session_id,))
    if not rows:
        return None
    width = len(SessionRow.__slots__)
    return SessionRow(*rows[0][:width]), [row[width:] for row in rows if row[width] is not None]


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


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forgetting a user did.

    Sessions filed under no club are deleted with their log and share links. A ruling filed under a club
    stays in the club's log (with others' appeals and decisions on it) but its director becomes FORGOTTEN,
    its chat is cleared, the notes, event and table they typed are removed and its share links deleted.
    Their appeals and committee decisions on anyone's rulings keep their place and outcome, with the author
    FORGOTTEN and the text removed, and so does a handover of a ruling to or from them. A club they
    administered alone is dissolved (its rulings stay with their
    directors, filed under no club) and so are their roles, invitations and settings."""

    deleted: int
    anonymised: int
    dissolved: int


def _forget(db: sqlite3.Connection, user: str) -> Forgotten:
    alone = (
        "SELECT club_id FROM club_members WHERE user = ? AND role = 'admin' AND club_id NOT IN"
        " (SELECT club_id FROM club_members WHERE role = 'admin' AND user != ?)"
    )
    try:
        db.execute("BEGIN IMMEDIATE")  # read inside the write transaction: the figures are what was done
    except sqlite3.OperationalError as exc:
        raise (StoreBusy("the record is busy") if _is_busy(exc) else StoreError(str(exc))) from exc
    try:
        dissolved = [int(r[0]) for r in db.execute(alone, (user, user)).fetchall()]
        return _forget_in(db, user, dissolved)
    except sqlite3.Error as exc:
        _rollback(db)
        if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
            raise StoreBusy("the record is busy") from exc
        raise StoreError(f"the record could not be written: {exc}") from exc


def _forget_in(db: sqlite3.Connection, user: str, dissolved: list[int]) -> Forgotten:
    """The statements of ``_forget``, inside its transaction; commits."""
    own = "SELECT id FROM sessions WHERE owner = ?"
    marks = ", ".join("?" for _ in dissolved)  # SQLite accepts an empty IN ()
    statements: list[tuple[str, tuple[Any, ...]]] = [
        (f"UPDATE sessions SET club_id = NULL WHERE club_id IN ({marks})", tuple(dissolved)),
        (f"DELETE FROM clubs WHERE id IN ({marks})", tuple(dissolved)),
        ("DELETE FROM sessions WHERE owner = ? AND club_id IS NULL", (user,)),
        (
            "UPDATE events SET data = json_remove(data, '$.note', '$.event', '$.table')"
            f" WHERE kind = 'annotate' AND session_id IN ({own})",
            (user,),
        ),
        (f"DELETE FROM shares WHERE session_id IN ({own})", (user,)),
        ("UPDATE sessions SET owner = ?, chat = NULL WHERE owner = ?", (FORGOTTEN, user)),
        (
            "UPDATE events SET data = json_set(json_remove(data, '$.name'), '$.by', ?, '$.reason', ?)"
            " WHERE kind = 'appeal' AND json_extract(data, '$.by') = ?",
            (FORGOTTEN, REMOVED, user),
        ),
        (
            "UPDATE events SET data = json_set(data, '$.by', ?, '$.text', ?)"
            " WHERE kind = 'decision' AND json_extract(data, '$.by') = ?",
            (FORGOTTEN, REMOVED, user),
        ),
        *(
            (
                f"UPDATE events SET data = json_set(data, '$.{end}', ?)"
                f" WHERE kind = 'handover' AND json_extract(data, '$.{end}') = ?",
                (FORGOTTEN, user),
            )
            for end in ("from", "to")
        ),
        ("DELETE FROM club_members WHERE user = ?", (user,)),
        ("DELETE FROM club_invites WHERE user = ?", (user,)),
        ("UPDATE club_invites SET by = ? WHERE by = ?", (FORGOTTEN, user)),
        ("DELETE FROM user_settings WHERE user = ?", (user,)),
        ("UPDATE polls SET owner = ?, reply_chat = NULL WHERE owner = ?", (FORGOTTEN, user)),
    ]
    kept = f"SELECT count(*) FROM sessions WHERE owner = ? AND club_id IS NOT NULL AND club_id NOT IN ({marks})"
    total = int(db.execute("SELECT count(*) FROM sessions WHERE owner = ?", (user,)).fetchone()[0])
    anonymised = int(db.execute(kept, (user, *dissolved)).fetchone()[0])
    for sql, params in statements:
        db.execute(sql, params)
    db.execute("COMMIT")
    return Forgotten(total - anonymised, anonymised, len(dissolved))


def _truncate_wal(db: sqlite3.Connection) -> None:
    """Copy the WAL into the database and empty it, so deleted text is left in neither (secure_delete zeroes
    the freed space in the database itself); a reader holding the WAL makes this wait ``busy_timeout``."""
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except sqlite3.OperationalError as exc:
        raise (StoreBusy("the record is busy") if _is_busy(exc) else StoreError(str(exc))) from exc


def _events(rows: list[Any]) -> list[Event]:
    return [Event(int(seq), str(kind), json.loads(data), float(at)) for seq, kind, data, at in rows]


class Store:
    """The bot's SQLite database. Open with ``await Store.open(path)``; close with ``await store.close()``."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        self._loop_db: sqlite3.Connection | None = None  # on the event loop's thread; None for ":memory:"
        # Recently used sessions and their logs, updated only after a commit succeeds. The bot is the one
        # writer of its database (one process), so a press on a recent session reads nothing.
        self._recent: OrderedDict[int, tuple[SessionRow, list[Event]]] = OrderedDict()
        self._commits = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._lock: int | None = None  # the shared lock on ``<database>.lock`` (see ``lock_path``)
        self._closed = False

    @classmethod
    async def open(cls, path: str | Path = DEFAULT_DB) -> Store:
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
        """Run ``work`` (a press's read or write) on the loop's own connection, which never waits for a lock;
        if it meets one (StoreBusy), on aiosqlite's thread, which waits without holding up other chats."""
        if self._loop_db is not None:
            try:
                return work(self._loop_db)
            except StoreBusy:
                pass
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
        row = SessionRow(session_id, owner, chat, chart_id, chart_version, at.status, at.step, at.node, now, now)
        self._remember(row, [Event(0, "start", start, now)])
        return session_id

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
        try:
            await self._write(statements)
        except StoreError:
            self._forget_recent(session_id)
            raise
        cached = self._recent.get(session_id)
        if cached is not None and len(cached[1]) == seq:
            row, log = cached
            log = [*log, *(Event(seq + i, kind, data, now) for i, (kind, data) in enumerate(events))]
            self._remember(replace(row, status=at.status, step=at.step, node=at.node, updated=now), log)
        else:
            self._forget_recent(session_id)

    async def _read(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        return await self._run(partial(_fetch, sql=sql, params=params))

    async def events(self, session_id: int) -> list[Event]:
        cached = self._recent.get(session_id)
        if cached is not None:
            return list(cached[1])
        rows = await self._read(_EVENTS_OF, (session_id,))
        return _events(rows)

    async def session(self, session_id: int) -> SessionRow | None:
        """The session's row; on a cache miss its row and log are read together, in one round trip."""
        cached = self._recent.get(session_id)
        if cached is not None:
            return cached[0]
        found = await self._run_quick(partial(_session_and_log, session_id=session_id))
        if found is None:
            return None
        row, rows = found
        self._remember(row, _events(rows))
        return row

    async def sessions(self, owner: str, statuses: Sequence[str], limit: int = 20) -> list[SessionRow]:
        """An owner's sessions in the given states, most recently touched first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE owner = ? AND status IN ({marks})"
            " ORDER BY updated DESC, id DESC LIMIT ?",
            (owner, *statuses, limit),
        )
        return [SessionRow(*row) for row in rows]

    async def add_share(self, token: str, session_id: int) -> None:
        await self._write(
            [("INSERT INTO shares (token, session_id, created) VALUES (?, ?, ?)", (token, session_id, time.time()))]
        )

    async def shared_session(self, token: str) -> int | None:
        """The session a live (not revoked) share token opens."""
        rows = await self._read("SELECT session_id FROM shares WHERE token = ? AND revoked IS NULL", (token,))
        return int(rows[0][0]) if rows else None

    async def shares(self, session_id: int) -> list[tuple[str, float, float | None]]:
        rows = await self._read(
            "SELECT token, created, revoked FROM shares WHERE session_id = ? ORDER BY created", (session_id,)
        )
        return [(str(t), float(c), float(r) if r is not None else None) for t, c, r in rows]

    async def revoke_shares(self, session_id: int) -> int:
        await self._write(
            [("UPDATE shares SET revoked = ? WHERE session_id = ? AND revoked IS NULL", (time.time(), session_id))]
        )
        return len([s for s in await self.shares(session_id) if s[2] is not None])

    async def create_club(self, name: str, authority: str, admin: str) -> int:
        club_id = await self._write(
            [("INSERT INTO clubs (name, authority, created) VALUES (?, ?, ?)", (name, authority, time.time()))]
        )
        assert club_id is not None
        await self.set_role(club_id, admin, "admin")
        return club_id

    async def club(self, club_id: int) -> Club | None:
        rows = await self._read(
            "SELECT id, name, authority, settings, appeals_chat FROM clubs WHERE id = ?", (club_id,)
        )
        if not rows:
            return None
        cid, name, authority, settings, chat = rows[0]
        return Club(int(cid), str(name), str(authority), json.loads(settings), chat)

    async def update_club(
        self,
        club_id: int,
        *,
        authority: str | None = None,
        settings: dict[str, Any] | None = None,
        appeals_chat: str | None = None,
    ) -> None:
        current = await self.club(club_id)
        if current is None:
            raise StoreError(f"there is no club {club_id}")
        merged = {**current.settings, **(settings or {})}
        await self._write(
            [
                (
                    "UPDATE clubs SET authority = ?, settings = ?, appeals_chat = ? WHERE id = ?",
                    (
                        authority or current.authority,
                        json.dumps(merged, sort_keys=True),
                        appeals_chat if appeals_chat is not None else current.appeals_chat,
                        club_id,
                    ),
                )
            ]
        )

    # --- polls ------------------------------------------------------------------------------------

    async def create_poll(
        self, session_id: int, node: str, owner: str, max_votes: int, minutes: int, reply_chat: str | None
    ) -> int:
        poll_id = await self._write(
            [
                (
                    "INSERT INTO polls (session_id, node, owner, max_votes, minutes, reply_chat, created)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (session_id, node, owner, max_votes, minutes, reply_chat, time.time()),
                )
            ]
        )
        assert poll_id is not None
        return poll_id

    async def poll(self, poll_id: int) -> PollRow | None:
        rows = await self._read(f"SELECT {_POLL_COLUMNS} FROM polls WHERE id = ?", (poll_id,))
        return _poll(rows[0]) if rows else None

    async def poll_by_telegram(self, telegram_id: str) -> PollRow | None:
        rows = await self._read(f"SELECT {_POLL_COLUMNS} FROM polls WHERE telegram_id = ?", (telegram_id,))
        return _poll(rows[0]) if rows else None

    async def polls_of(self, session_id: int) -> list[PollRow]:
        """A ruling's polls, oldest first."""
        rows = await self._read(f"SELECT {_POLL_COLUMNS} FROM polls WHERE session_id = ? ORDER BY id", (session_id,))
        return [_poll(row) for row in rows]

    async def update_poll(self, poll_id: int, **fields: Any) -> None:
        """Set some of a poll's fields (``POLL_FIELDS``); lists are stored as JSON."""
        if not fields or not set(fields) <= set(POLL_FIELDS):
            raise StoreError(f"a poll's fields are {', '.join(POLL_FIELDS)}")
        names = ", ".join(f"{name} = ?" for name in fields)
        values = tuple(json.dumps(list(v)) if isinstance(v, (list, tuple)) else v for v in fields.values())
        await self._write([(f"UPDATE polls SET {names} WHERE id = ?", (*values, poll_id))])

    async def set_role(self, club_id: int, user: str, role: str) -> None:
        await self._write(
            [("INSERT OR IGNORE INTO club_members (club_id, user, role) VALUES (?, ?, ?)", (club_id, user, role))]
        )

    async def invite(self, club_id: int, user: str, role: str, by: str) -> None:
        """Offer a role; it is held only after ``accept_invites``."""
        await self._write(
            [
                (
                    "INSERT OR REPLACE INTO club_invites (club_id, user, role, by, created) VALUES (?, ?, ?, ?, ?)",
                    (club_id, user, role, by, time.time()),
                )
            ]
        )

    async def invites(self, club_id: int, user: str) -> set[str]:
        rows = await self._read("SELECT role FROM club_invites WHERE club_id = ? AND user = ?", (club_id, user))
        return {str(r[0]) for r in rows}

    async def invited_to(self, user: str) -> list[int]:
        rows = await self._read("SELECT DISTINCT club_id FROM club_invites WHERE user = ? ORDER BY club_id", (user,))
        return [int(r[0]) for r in rows]

    async def accept_invites(self, club_id: int, user: str) -> None:
        """The offered roles become held, in one transaction."""
        await self._write(
            [
                (
                    "INSERT OR IGNORE INTO club_members (club_id, user, role)"
                    " SELECT club_id, user, role FROM club_invites WHERE club_id = ? AND user = ?",
                    (club_id, user),
                ),
                ("DELETE FROM club_invites WHERE club_id = ? AND user = ?", (club_id, user)),
            ]
        )

    async def decline_invites(self, club_id: int, user: str) -> None:
        await self._write([("DELETE FROM club_invites WHERE club_id = ? AND user = ?", (club_id, user))])

    async def roles(self, club_id: int, user: str) -> set[str]:
        rows = await self._read("SELECT role FROM club_members WHERE club_id = ? AND user = ?", (club_id, user))
        return {str(r[0]) for r in rows}

    async def clubs_of(self, user: str) -> list[int]:
        rows = await self._read("SELECT DISTINCT club_id FROM club_members WHERE user = ? ORDER BY club_id", (user,))
        return [int(r[0]) for r in rows]

    async def set_session_club(self, session_id: int, club_id: int | None) -> None:
        await self._write([("UPDATE sessions SET club_id = ? WHERE id = ?", (club_id, session_id))])
        self._forget_recent(session_id)

    async def set_session_owner(self, session_id: int, owner: str) -> None:
        await self._write([("UPDATE sessions SET owner = ? WHERE id = ?", (owner, session_id))])
        self._forget_recent(session_id)

    async def club_sessions(self, club_id: int, since: float, until: float) -> list[SessionRow]:
        rows = await self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE club_id = ? AND created BETWEEN ? AND ? ORDER BY created",
            (club_id, since, until),
        )
        return [SessionRow(*row) for row in rows]

    async def forget(self, user: str) -> Forgotten:
        """Forget a user in one transaction, then push the deleted text out of the WAL (see ``Forgotten``)."""
        forgotten = await self._run(partial(_forget, user=user))
        self._forget_recent()
        await self._run(_truncate_wal)
        return forgotten

    async def setting(self, user: str, key: str) -> str | None:
        rows = await self._read("SELECT value FROM user_settings WHERE user = ? AND key = ?", (user, key))
        return str(rows[0][0]) if rows else None

    async def set_setting(self, user: str, key: str, value: str) -> None:
        await self._write(
            [("INSERT OR REPLACE INTO user_settings (user, key, value) VALUES (?, ?, ?)", (user, key, value))]
        )

    async def beat(self, name: str = "bot") -> None:
        """Record that the bot is alive and its database writable (read by the health check)."""
        await self._write([("INSERT OR REPLACE INTO heartbeat (name, at) VALUES (?, ?)", (name, time.time()))])

    async def integrity_check(self) -> str:
        rows = await self._read("PRAGMA integrity_check", ())
        return str(rows[0][0]) if rows else "no answer"
