"""Operations on the database file from the command line: health, online backup, checked restore.

These run in their own process beside a running bot, so they use the standard library's sqlite3: the
backup API copies a consistent snapshot while the bot keeps writing.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bot.store import BUSY_TIMEOUT_MS, SCHEMA_VERSION


class MaintenanceError(Exception):
    """The operation could not be done; the message says why, for the person running it."""


@dataclass(frozen=True, slots=True)
class Health:
    ok: bool
    lines: tuple[str, ...]


def _connect(path: Path, readonly: bool = False) -> sqlite3.Connection:
    if not path.exists():
        raise MaintenanceError(f"no database at {path}")
    uri = f"file:{path}?mode={'ro' if readonly else 'rw'}"
    try:
        connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise MaintenanceError(f"cannot open {path}: {exc}") from exc
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return connection


def schema_of(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def check_health(path: Path, max_age: float) -> Health:
    """Healthy: the database opens, passes a quick check, takes a write lock, and the bot beat recently."""
    lines: list[str] = []
    try:
        connection = _connect(path)
    except MaintenanceError as exc:
        return Health(False, (str(exc),))
    try:
        quick = connection.execute("PRAGMA quick_check").fetchone()[0]
        lines.append(f"database {path}: schema {schema_of(connection)}, quick_check {quick}")
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
        lines.append("writable: yes")
        row = connection.execute("SELECT max(at) FROM heartbeat").fetchone()
    except sqlite3.OperationalError as exc:
        return Health(False, (*lines, f"database problem: {exc}"))
    finally:
        connection.close()
    if quick != "ok":
        return Health(False, tuple(lines))
    if not row or row[0] is None:
        return Health(False, (*lines, "no heartbeat yet: is the bot running?"))
    age = time.time() - float(row[0])
    fresh = age <= max_age
    lines.append(f"last heartbeat {age:.0f} s ago ({'ok' if fresh else f'older than {max_age:.0f} s'})")
    return Health(fresh, tuple(lines))


def backup(path: Path, target: Path) -> int:
    """A consistent copy of a live database (SQLite backup API), written beside the target then renamed."""
    source = _connect(path, readonly=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".backup-", suffix=".sqlite3", dir=target.parent)
    os.close(handle)
    try:
        copy = sqlite3.connect(temporary)
        try:
            source.backup(copy)
            version = schema_of(copy)
            copy.execute("PRAGMA journal_mode = DELETE")
        finally:
            copy.close()
        os.replace(temporary, target)
    except sqlite3.Error as exc:
        raise MaintenanceError(f"backup failed: {exc}") from exc
    finally:
        source.close()
        if os.path.exists(temporary):
            os.unlink(temporary)
    return version


def restore(backup_file: Path, path: Path) -> int:
    """Bring back a backup after checking it is a sound database of a schema this bot can run."""
    candidate = _connect(backup_file, readonly=True)
    try:
        version = schema_of(candidate)
        integrity = candidate.execute("PRAGMA integrity_check").fetchone()[0]
        tables = {row[0] for row in candidate.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise MaintenanceError(f"{backup_file} is not a bot database: {exc}") from exc
    finally:
        candidate.close()
    if integrity != "ok":
        raise MaintenanceError(f"{backup_file} fails its integrity check: {integrity}")
    if version < 1 or "sessions" not in tables:
        raise MaintenanceError(f"{backup_file} is not a bot database (schema {version})")
    if version > SCHEMA_VERSION:
        raise MaintenanceError(f"{backup_file} is schema {version}, newer than this bot ({SCHEMA_VERSION})")
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".restore-", suffix=".sqlite3", dir=path.parent)
    os.close(handle)
    source = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    copy = sqlite3.connect(temporary)
    try:
        source.backup(copy)
    finally:
        copy.close()
        source.close()
    for leftover in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    os.replace(temporary, path)
    return version
