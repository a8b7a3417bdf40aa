"""Operations on the database file from the command line: health, online backup, checked restore.

These run in their own process beside a running bot, so they use the standard library's sqlite3: the
backup API copies a consistent snapshot while the bot keeps writing.
"""

from __future__ import annotations

import os
import re
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from bot.store.database import BUSY_TIMEOUT_MS, checkpoint, lock_path, take_lock
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION


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


def protected_paths(path: Path) -> tuple[Path, ...]:
    """The database and the files SQLite and the bot keep beside it: nothing may be written onto these."""
    return (path, *(Path(f"{path}{suffix}") for suffix in ("-wal", "-shm", "-journal")), lock_path(path))


def refuse_onto_database(target: Path, path: Path) -> None:
    """MaintenanceError if ``target`` is the database, its write-ahead log or its lock, by any name."""
    for kept in protected_paths(path):
        same = target.resolve() == kept.resolve()
        if not same and target.exists() and kept.exists():
            same = os.path.samefile(target, kept)
        if same:
            raise MaintenanceError(f"{target} is the bot's database ({kept.name}); write somewhere else")


def expected_tables(version: int) -> dict[str, set[str]]:
    """The tables and columns a bot database of ``version`` has: the migrations up to it, run in memory."""
    db = sqlite3.connect(":memory:")
    try:
        for migration in MIGRATIONS[:version]:
            db.executescript(migration)
        return _tables(db)
    finally:
        db.close()


def _tables(db: sqlite3.Connection) -> dict[str, set[str]]:
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {name: {row[1] for row in db.execute("SELECT * FROM pragma_table_info(?)", (name,))} for name in names}


def check_bot_database(file: Path) -> int:
    """The schema version of a sound bot database; MaintenanceError (one line) for anything else: not SQLite,
    damaged, another program's database, or a newer bot's."""
    candidate = _connect(file, readonly=True)
    try:
        version = schema_of(candidate)
        integrity = candidate.execute("PRAGMA integrity_check").fetchone()[0]
        tables = _tables(candidate)
    except sqlite3.DatabaseError as exc:
        raise MaintenanceError(f"{file} is not a bot database: {exc}") from exc
    finally:
        candidate.close()
    if integrity != "ok":
        raise MaintenanceError(f"{file} fails its integrity check: {integrity.splitlines()[0]}")
    if version > SCHEMA_VERSION:
        raise MaintenanceError(f"{file} is schema {version}, newer than this bot ({SCHEMA_VERSION})")
    if version < 1:
        raise MaintenanceError(f"{file} is not a bot database (schema {version})")
    for table, columns in expected_tables(version).items():
        if table not in tables:
            raise MaintenanceError(f"{file} is not a bot database of schema {version}: it has no table {table}")
        missing = sorted(columns - tables[table])
        if missing:
            raise MaintenanceError(
                f"{file} is not a bot database of schema {version}: table {table} lacks {', '.join(missing)}"
            )
    return version


def backup(path: Path, target: Path) -> int:
    """A checked, consistent copy of a live database (SQLite backup API), written beside the target then
    renamed; a copy that fails its integrity check is never written (MaintenanceError) and the earlier
    backups stay as they are. The database's write-ahead log is checkpointed afterwards."""
    refuse_onto_database(target, path)
    source = _connect(path, readonly=True)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".backup-", suffix=".sqlite3", dir=target.parent)
    except OSError as exc:
        source.close()
        raise MaintenanceError(f"cannot write into {target.parent}: {exc.strerror}") from exc
    os.close(handle)
    try:
        copy = sqlite3.connect(temporary)
        try:
            source.backup(copy)
            integrity = copy.execute("PRAGMA integrity_check").fetchone()[0]
            version = schema_of(copy)
            copy.execute("PRAGMA journal_mode = DELETE")
        finally:
            copy.close()
        if integrity != "ok":
            raise MaintenanceError(
                f"the database {path} fails its integrity check ({integrity.splitlines()[0]}); no backup was"
                " written and the earlier ones are kept: restore the last good one with python -m bot restore FILE"
            )
        os.replace(temporary, target)
    except sqlite3.DatabaseError as exc:
        raise MaintenanceError(
            f"backup of {path} failed ({exc}); no backup was written and the earlier ones are kept"
        ) from exc
    except OSError as exc:
        raise MaintenanceError(f"cannot write {target}: {exc.strerror}; the earlier backups are kept") from exc
    finally:
        source.close()
        if os.path.exists(temporary):
            os.unlink(temporary)
    checkpoint(str(path))
    return version


BACKUP_NAME = re.compile(r"bot-(\d{4}-\d{2}-\d{2})\.sqlite3")


@dataclass(frozen=True, slots=True)
class Backup:
    file: Path
    version: int
    removed: tuple[Path, ...]


def backup_into(path: Path, folder: Path, keep_days: int | None, today: date | None = None) -> Backup:
    """A backup named ``bot-YYYY-MM-DD.sqlite3`` in ``folder``; then, with ``keep_days``, the backups there
    named so whose date is more than ``keep_days`` days before today are removed. Removal happens only after
    today's copy was written and checked, so the newest good backup is never among them, and a failed
    backup removes nothing."""
    day = today or date.today()
    target = folder / f"bot-{day.isoformat()}.sqlite3"
    version = backup(path, target)
    removed: list[Path] = []
    if keep_days is not None:
        for old in sorted(folder.iterdir()):
            found = BACKUP_NAME.fullmatch(old.name)
            if found is None or old == target:
                continue
            try:
                taken = date.fromisoformat(found.group(1))
            except ValueError:
                continue
            if (day - taken).days > keep_days:
                old.unlink()
                removed.append(old)
    return Backup(target, version, tuple(removed))


@dataclass(frozen=True, slots=True)
class Restored:
    version: int
    kept: Path | None  # where the database it replaced was moved; None if there was none


def restore(backup_file: Path, path: Path) -> Restored:
    """Bring back a backup after checking it is a sound database of a schema this bot can run.

    Refused while a bot (or any command with the store open) has the database open: restore needs the lock
    beside the database exclusively. The database it replaces is kept beside it, never deleted."""
    refuse_onto_database(backup_file, path)
    version = check_bot_database(backup_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        lock = take_lock(path, exclusive=True)
    except OSError as exc:
        raise MaintenanceError(f"cannot lock {lock_path(path)}: {exc.strerror}") from exc
    if lock is None:
        raise MaintenanceError(
            f"the bot is running on {path} (it holds {lock_path(path).name}): stop it first; nothing was restored"
        )
    temporary = ""
    try:
        handle, temporary = tempfile.mkstemp(prefix=".restore-", suffix=".sqlite3", dir=path.parent)
        os.close(handle)
        source = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
        copy = sqlite3.connect(temporary)
        try:
            source.backup(copy)
        finally:
            copy.close()
            source.close()
        kept = _keep_aside(path) if path.exists() else None
        try:
            os.replace(temporary, path)
        except OSError:
            if kept is not None:
                os.replace(kept, path)  # put it back: the kept file and the database are in one folder
            raise
    except (OSError, sqlite3.Error) as exc:
        raise MaintenanceError(f"restore failed ({exc}); the database {path} is as it was") from exc
    finally:
        if temporary and os.path.exists(temporary):
            os.unlink(temporary)
        os.close(lock)
    return Restored(version, kept)


def _keep_aside(path: Path) -> Path:
    """Move the database about to be replaced (with its write-ahead log, checkpointed into it first if it
    can be) to ``bot.before-restore-<time>.sqlite3`` beside it."""
    checkpoint(str(path), "TRUNCATE")
    stamp = time.strftime("%Y-%m-%dT%H%M%S")
    kept = path.with_name(f"{path.stem}.before-restore-{stamp}{path.suffix}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.stem}.before-restore-{stamp}-{n}{path.suffix}")
    os.replace(path, kept)
    wal = Path(f"{path}-wal")
    if wal.exists():
        os.replace(wal, Path(f"{kept}-wal"))  # SQLite finds a log by the database's name: it moves along
    Path(f"{path}-shm").unlink(missing_ok=True)
    Path(f"{path}-journal").unlink(missing_ok=True)
    return kept
