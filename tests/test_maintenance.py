"""Backup and restore as an operator runs them beside a live bot: what they refuse, what they keep, and the
database files they must never write onto. Real SQLite files, real processes where it matters."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from bot.store import JOURNAL_SIZE_LIMIT, SCHEMA_VERSION, Position, Store, StoreError, take_lock
from bot.store.maintenance import backup, backup_into, restore

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


async def _fill(path: Path, owners: str, count: int = 30, size: int = 200) -> None:
    store = await Store.open(path)
    for i in range(count):
        await store.create_session(f"{owners}{i}", None, "revoke", 1, {"x": "y" * size}, Position("open", 0, ""))
    await store.close()


def _owners(path: Path) -> set[str]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return {row[0] for row in db.execute("SELECT owner FROM sessions")}


def _cli(*args: str, database: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "BOT_DB": str(database),
        "PYTHONPATH": str(ROOT),
        "BOT_DIALOGS": str(TESTS / "fixtures" / "dialogs"),
    }
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, env=env, capture_output=True, text=True, input=stdin
    )


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    """A refusal is one line on stderr and no traceback."""
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


# --- restore ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_restore_is_refused_while_the_bot_runs_and_works_once_it_is_killed(tmp_path: Path) -> None:
    database, saved = tmp_path / "bot.sqlite3", tmp_path / "saved.sqlite3"
    asyncio.run(_fill(saved, "old"))
    asyncio.run(_fill(database, "live"))
    bot = subprocess.Popen(
        [sys.executable, str(TESTS / "bot_process.py"), str(database)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stdout is not None and bot.stdout.readline().strip() == "ready"
        refused = _cli("restore", str(saved), database=database)
        assert refused.returncode == 1
        assert _one_line(refused) == (
            f"the bot is running on {database} (it holds bot.sqlite3.lock): stop it first; nothing was restored"
        )
        assert _owners(database) == {f"live{i}" for i in range(30)}
        assert not list(tmp_path.glob("bot.before-restore-*"))
    finally:
        bot.send_signal(signal.SIGKILL)  # the kernel drops the lock with the process, however it ends
        bot.wait()
    done = _cli("restore", str(saved), database=database)
    assert done.returncode == 0, done.stderr
    (kept,) = tmp_path.glob("bot.before-restore-*.sqlite3")
    assert f"the database it replaced is kept at {kept}" in done.stdout
    assert _owners(database) == {f"old{i}" for i in range(30)}
    assert _owners(kept) == {f"live{i}" for i in range(30)}


async def test_restore_keeps_what_the_replaced_database_had_in_its_write_ahead_log(tmp_path: Path) -> None:
    database, saved = tmp_path / "bot.sqlite3", tmp_path / "saved.sqlite3"
    await _fill(saved, "old", count=3)
    await _fill(database, "live", count=3)
    writer = sqlite3.connect(database, isolation_level=None)  # a crashed bot's last commits, not checkpointed
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute(
        "INSERT INTO sessions (owner, chart_id, chart_version, created, updated) VALUES ('late', 'revoke', 1, 0, 0)"
    )
    reader = sqlite3.connect(database, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM sessions").fetchone()  # holds the log so it cannot be emptied
    try:
        done = restore(saved, database)
    finally:
        reader.close()
        writer.close()
    assert done.version == SCHEMA_VERSION and done.kept is not None
    assert _owners(done.kept) == {"live0", "live1", "live2", "late"}
    assert _owners(database) == {"old0", "old1", "old2"}


def _foreign(path: Path) -> None:
    """Another program's SQLite file that looks like ours at a glance: a sessions table, a plausible version."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE sessions (name TEXT, created REAL)")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _without_user_settings(path: Path) -> None:
    asyncio.run(_fill(path, "x", count=1))
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE user_settings")


def _not_sqlite(path: Path) -> None:
    path.write_text("<html>an export, not a database</html>\n" * 100, encoding="utf-8")


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_foreign, f"is not a bot database of schema {SCHEMA_VERSION}: table sessions lacks"),
        (_without_user_settings, f"is not a bot database of schema {SCHEMA_VERSION}: it has no table user_settings"),
        (_not_sqlite, "is not a bot database: file is not a database"),
    ],
)
def test_restore_checks_the_whole_schema_before_replacing_anything(tmp_path: Path, make, says: str) -> None:  # type: ignore[no-untyped-def]
    database, other = tmp_path / "bot.sqlite3", tmp_path / "other.sqlite3"
    asyncio.run(_fill(database, "live", count=3))
    make(other)
    done = _cli("restore", str(other), database=database)
    assert done.returncode == 1
    assert says in _one_line(done)
    assert _owners(database) == {"live0", "live1", "live2"}
    assert not list(tmp_path.glob("bot.before-restore-*"))


async def test_a_store_waits_for_a_restore_then_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.store.database

    monkeypatch.setattr(bot.store.database, "BUSY_TIMEOUT_MS", 100)
    database = tmp_path / "bot.sqlite3"
    await _fill(database, "live", count=1)
    restoring = take_lock(database, exclusive=True)
    assert restoring is not None
    try:
        with pytest.raises(StoreError, match="is being restored; try again"):
            await Store.open(database)
    finally:
        os.close(restoring)
    store = await Store.open(database)
    await store.close()


# --- backup -------------------------------------------------------------------------------------


def _break_an_index(path: Path) -> None:
    """Change one owner in the table's page only: the index no longer agrees (integrity_check says so)."""
    data = bytearray(path.read_bytes())
    at = data.index(b"live7")
    data[at : at + 5] = b"lime7"
    path.write_bytes(bytes(data))


def _break_a_page(path: Path) -> None:
    """A page whose header is garbage: SQLite cannot even read it."""
    with path.open("r+b") as file:
        file.seek(4096 * 4 + 3)
        file.write(b"\xff\xff\xff\xff\xff")


@pytest.mark.parametrize("damage", [_break_an_index, _break_a_page])
def test_backup_of_a_damaged_database_fails_loudly_and_removes_no_backup(tmp_path: Path, damage) -> None:  # type: ignore[no-untyped-def]
    database, folder = tmp_path / "bot.sqlite3", tmp_path / "backups"
    asyncio.run(_fill(database, "live"))
    today = date.today()
    old = [backup_into(database, folder, None, today - timedelta(days=n)).file for n in (40, 30, 20)]
    damage(database)
    done = _cli("backup", f"{folder}/", "--keep-days", "14", database=database)
    assert done.returncode == 1 and done.stdout == ""
    line = _one_line(done)
    assert "no backup was written and the earlier ones are kept" in line
    assert "fails its integrity check" in line or "malformed" in line
    assert sorted(folder.iterdir()) == sorted(old)  # twenty days old and more: still there, all of them
    assert all(_owners(file) == {f"live{i}" for i in range(30)} for file in old)


def test_rotation_after_a_good_backup_removes_only_older_backups(tmp_path: Path) -> None:
    database, folder = tmp_path / "bot.sqlite3", tmp_path / "backups"
    asyncio.run(_fill(database, "live"))
    today = date.today()
    for n in (40, 15, 14, 3):
        backup_into(database, folder, None, today - timedelta(days=n))
    (folder / "notes.sqlite3").write_text("not ours", encoding="utf-8")
    done = _cli("backup", f"{folder}/", "--keep-days", "14", database=database)
    assert done.returncode == 0, done.stderr
    assert f"backed up to {folder / f'bot-{today.isoformat()}.sqlite3'}" in done.stdout
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(
        ["notes.sqlite3", *(f"bot-{(today - timedelta(days=n)).isoformat()}.sqlite3" for n in (14, 3, 0))]
    )
    assert done.stdout.count("removed ") == 2


async def test_backup_empties_the_write_ahead_log_into_the_database_file(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    store = await Store.open(database)
    try:
        for i in range(40):  # fewer commits than the store's own checkpoint waits for
            await store.create_session(f"u{i}", None, "revoke", 1, {"x": "y" * 2000}, Position("open", 0, ""))
        before = database.stat().st_size
        backup(database, tmp_path / "copy.sqlite3")
        assert database.stat().st_size > before + 40 * 2000
    finally:
        await store.close()


# --- writing onto the database ------------------------------------------------------------------


@pytest.mark.parametrize("onto", ["bot.sqlite3", "bot.sqlite3-wal", "bot.sqlite3-shm", "bot.sqlite3.lock", "link"])
def test_backup_and_export_refuse_to_write_onto_the_database(tmp_path: Path, onto: str) -> None:
    database = tmp_path / "bot.sqlite3"
    asyncio.run(_fill(database, "live", count=3))
    for name in ("bot.sqlite3-wal", "bot.sqlite3-shm"):
        (tmp_path / name).touch()
    (tmp_path / "link").symlink_to(database)
    target = str(tmp_path / onto)
    for command in (["backup", target], ["export", "1", "--format", "html", "-o", target]):
        done = _cli(*command, database=database)
        assert done.returncode == 1
        assert "is the bot's database" in _one_line(done) and "write somewhere else" in done.stderr
    assert _owners(database) == {"live0", "live1", "live2"}
    assert (tmp_path / "bot.sqlite3-wal").stat().st_size == 0


# --- the write-ahead log ------------------------------------------------------------------------


async def test_the_write_ahead_log_is_cut_back_after_a_burst(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    store = await Store.open(database)
    reader = sqlite3.connect(database, isolation_level=None)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM sessions").fetchone()  # a long read: the log cannot be reused meanwhile
        for i in range(120):
            await store.create_session(f"u{i}", None, "revoke", 1, {"x": "y" * 100_000}, Position("open", 0, ""))
        wal = Path(f"{database}-wal")
        assert wal.stat().st_size > JOURNAL_SIZE_LIMIT
        reader.execute("COMMIT")
        reader.execute("PRAGMA wal_checkpoint(PASSIVE)")
        await store.create_session("after", None, "revoke", 1, {}, Position("open", 0, ""))  # the log starts afresh
        assert wal.stat().st_size <= JOURNAL_SIZE_LIMIT
        await store.close()
        assert wal.stat().st_size == 0  # emptied on close, though another connection keeps the file open
    finally:
        reader.close()
        await store.close()  # a second close does nothing


# --- one clear line ------------------------------------------------------------------------------


def _cut_short(path: Path) -> None:
    asyncio.run(_fill(path, "live", count=200, size=2000))
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2)


def _garbage(path: Path) -> None:
    path.write_bytes(b"\x00garbage" * 1000)


@pytest.mark.slow
@pytest.mark.parametrize(("make", "says"), [(_cut_short, "is cut short"), (_garbage, "cannot be read")])
@pytest.mark.parametrize("front", [["chat"], ["telegram"]])
def test_a_damaged_database_at_startup_is_one_line(tmp_path: Path, make, says: str, front: list[str]) -> None:  # type: ignore[no-untyped-def]
    database = tmp_path / "bot.sqlite3"
    make(database)
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": "123456:ABCdefGhIJKlmnoPQRstuVWXyz0123456789"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", *front],
        cwd=ROOT,
        env={**env, "BOT_DB": str(database), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        input="",
        timeout=60,
    )
    assert done.returncode == 2
    line = _one_line(done)
    assert says in line and "python -m bot restore FILE" in line


async def test_a_locked_database_at_startup_is_not_called_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.store.database

    monkeypatch.setattr(bot.store.database, "BUSY_TIMEOUT_MS", 100)
    database = tmp_path / "bot.sqlite3"
    await _fill(database, "live", count=1)
    other = sqlite3.connect(database, isolation_level=None)
    other.execute("PRAGMA journal_mode = DELETE")
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match=r"cannot open the database .*: database is locked$"):
            await Store.open(database)
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_export_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    from bot.dialogs import Dialogs, read_charts

    database = tmp_path / "bot.sqlite3"
    store = await Store.open(database)
    dialogs = Dialogs(store, read_charts(TESTS / "fixtures" / "dialogs"))
    screen = await dialogs.start("tester", "demo-main")
    await store.close()
    target = tmp_path / "no such folder" / "ruling.html"
    done = _cli("export", str(screen.session_id), "--format", "html", "-o", str(target), database=database)
    assert done.returncode == 1
    assert _one_line(done) == f"cannot write {target}: No such file or directory"


# --- the systemd units --------------------------------------------------------------------------

UNITS = [ROOT / "deploy" / "bridge-director-bot.service", ROOT / "deploy" / "bridge-director-bot-backup.service"]
SANDBOX = ("Protect", "Private", "Restrict", "SystemCall", "Capability", "NoNewPrivileges", "LockPersonality")


def _settings(unit: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def test_the_backup_unit_is_sandboxed_as_tightly_as_the_bot_and_both_keep_files_private() -> None:
    bot, nightly = (_settings(unit) for unit in UNITS)
    for settings in (bot, nightly):
        assert settings["UMask"] == ["0077"]  # the database, its WAL, the lock and the backups: owner-only
    for key, values in bot.items():
        if key.startswith(SANDBOX) and key != "RestrictAddressFamilies":
            assert nightly.get(key) == values, key
    assert nightly["RestrictAddressFamilies"] == ["AF_UNIX"] and nightly["PrivateNetwork"] == ["yes"]
    (start,) = nightly["ExecStart"]
    assert start.endswith("-m bot backup /var/lib/bridge-director-bot/backups/ --keep-days 14")  # no shell, no find


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
@pytest.mark.parametrize("unit", UNITS, ids=lambda unit: unit.name)
def test_systemd_rates_each_unit_at_most_4(unit: Path) -> None:
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(unit)], capture_output=True, text=True, timeout=60
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found is not None, done.stdout + done.stderr
    assert float(found.group(1)) <= 4.0
