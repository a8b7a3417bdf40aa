"""Running it for a club: configuration, health, backup and restore, and the deploy files matching the CLI."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.cli import build_parser
from bot.config import ConfigError, load_config
from bot.logs import JsonFormatter
from bot.store import SCHEMA_VERSION, Position, Store
from bot.store.maintenance import MaintenanceError, backup, check_health, restore

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
TOKEN = "123456:ABCdefGhIJKlmnoPQRstuVWXyz0123456789"


def test_defaults_and_every_variable_validated() -> None:
    config = load_config({})
    assert config.database == Path("data/bot.sqlite3") and config.log_level == "INFO" and config.token is None
    full = load_config(
        {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "BOT_DB": "/tmp/x.sqlite3",
            "BOT_LOG_LEVEL": "debug",
            "BOT_LOG_FORMAT": "json",
            "BOT_ADMIN_IDS": "12, 34",
            "BOT_PORT": "9000",
        }
    )
    assert full.require_token() == TOKEN and full.admin_ids == frozenset({12, 34}) and full.port == 9000
    assert full.log_level == "DEBUG" and full.log_format == "json"


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"BOT_LOG_LEVEL": "LOUD"}, "BOT_LOG_LEVEL must be one of"),
        ({"BOT_LOG_FORMAT": "xml"}, "BOT_LOG_FORMAT must be text or json"),
        ({"BOT_PORT": "eighty"}, "BOT_PORT must be a whole number"),
        ({"BOT_ADMIN_IDS": "alice"}, "BOT_ADMIN_IDS must be Telegram user ids"),
        ({"BOT_HEARTBEAT_SECONDS": "0"}, "BOT_HEARTBEAT_SECONDS must be between"),
        ({"TELEGRAM_BOT_TOKEN_FILE": "/nonexistent/token"}, "cannot read the token file"),
        ({"BOT_WORKERS": "two"}, "BOT_WORKERS must be a whole number"),
        ({"BOT_WORKERS": "0"}, "BOT_WORKERS must be between 1 and 64"),
        ({"BOT_WORKERS": "1.5"}, "BOT_WORKERS must be a whole number"),
        ({"BOT_WORKERS": "1e9"}, "BOT_WORKERS must be between 1 and 64"),
    ],
)
def test_a_wrong_setting_is_named(env: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        load_config(env)


def test_the_token_can_come_from_a_file_or_a_systemd_credential(tmp_path: Path) -> None:
    (tmp_path / "telegram-token").write_text(TOKEN + "\n", encoding="utf-8")
    assert load_config({"TELEGRAM_BOT_TOKEN_FILE": str(tmp_path / "telegram-token")}).token == TOKEN
    assert load_config({"CREDENTIALS_DIRECTORY": str(tmp_path)}).token == TOKEN
    with pytest.raises(ConfigError, match="does not look like a bot token"):
        load_config({"TELEGRAM_BOT_TOKEN": "nope"}).require_token()


def test_json_logs_are_one_object_per_line() -> None:
    record = logging.LogRecord("bot.telegram", logging.INFO, __file__, 1, "update handled chat=%s", ("ab12",), None)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "update handled chat=ab12" and entry["level"] == "INFO" and "\n" not in json.dumps(entry)


async def _database(path: Path, beat: bool = True) -> None:
    store = await Store.open(path)
    if beat:
        await store.beat()
    await store.close()


async def test_health_in_each_state(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    assert not check_health(path, 120).ok  # no database
    await _database(path, beat=False)
    health = check_health(path, 120)
    assert not health.ok and "no heartbeat yet" in health.lines[-1]
    await _database(path)
    health = check_health(path, 120)
    assert health.ok and "writable: yes" in health.lines
    with sqlite3.connect(path) as db:
        db.execute("UPDATE heartbeat SET at = ?", (time.time() - 3600,))
    assert not check_health(path, 120).ok  # the bot stopped beating an hour ago
    await _database(path)
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        import bot.store.maintenance as maintenance

        old = maintenance.BUSY_TIMEOUT_MS
        maintenance.BUSY_TIMEOUT_MS = 100
        locked = check_health(path, 120)
        maintenance.BUSY_TIMEOUT_MS = old
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert not locked.ok and "database problem" in locked.lines[-1]


async def test_health_command_exit_status(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    env = {"BOT_DB": str(path), "PATH": "/usr/bin:/bin"}
    run = [sys.executable, "-m", "bot", "health"]
    assert subprocess.run(run, cwd=ROOT, env=env, capture_output=True).returncode == 1
    await _database(path)
    done = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip().endswith("healthy")


async def test_backup_while_writing_then_restore(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path)
    for i in range(50):
        await store.create_session(f"u{i}", None, "revoke", 1, {"chart": "revoke"}, Position("open", 0, ""))
    await store.close()
    stop = threading.Event()

    def keep_writing() -> None:  # another process's writes, as the running bot would make them
        db = sqlite3.connect(path, isolation_level=None, timeout=5)
        n = 0
        while not stop.is_set():
            db.execute(
                "INSERT INTO sessions (owner, chart_id, chart_version, status, created, updated)"
                " VALUES ('w', 'revoke', 1, 'open', 0, 0)"
            )
            n += 1
        db.close()

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        time.sleep(0.05)
        copies = [tmp_path / f"backup-{i}.sqlite3" for i in range(3)]
        for copy in copies:
            assert backup(path, copy) == SCHEMA_VERSION
    finally:
        stop.set()
        writer.join()
    for copy in copies:
        with sqlite3.connect(copy) as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert db.execute("SELECT count(*) FROM sessions WHERE owner LIKE 'u%'").fetchone()[0] == 50
    target = tmp_path / "restored" / "bot.sqlite3"
    assert restore(copies[-1], target).version == SCHEMA_VERSION
    reopened = await Store.open(target)
    assert len(await reopened.sessions("u7", ("open",))) == 1
    await reopened.close()


def test_restore_refuses_what_it_cannot_trust(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(MaintenanceError, match="not a bot database"):
        restore(junk, tmp_path / "bot.sqlite3")
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as db:
        db.execute("CREATE TABLE sessions (id INTEGER)")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(MaintenanceError, match="newer than this bot"):
        restore(newer, tmp_path / "bot.sqlite3")
    with pytest.raises(MaintenanceError, match="no database"):
        restore(tmp_path / "missing.sqlite3", tmp_path / "bot.sqlite3")


def _subcommands() -> set[str]:
    parser = build_parser()
    (choices,) = [a.choices for a in parser._actions if isinstance(a.choices, dict)]
    return set(choices)


def test_the_deploy_files_call_commands_that_exist() -> None:
    commands = _subcommands()
    texts = {p.name: p.read_text(encoding="utf-8") for p in DEPLOY.iterdir() if p.is_file()}
    called = {m for text in texts.values() for m in re.findall(r"-m\"?,? \"?bot\"?,? \"?([a-z]+)", text)}
    called |= {m for text in texts.values() for m in re.findall(r"-m bot ([a-z]+)", text)}
    assert {"health", "telegram", "backup", "lint"} <= called
    assert called <= commands, called - commands
    assert 'CMD ["python", "-m", "bot", "health"]' in texts["Dockerfile"]


def test_the_deploy_files_use_only_documented_settings() -> None:
    documented = set(re.findall(r"^\| ([A-Z_]+) \|", (ROOT / "bot" / "config.py").read_text(encoding="utf-8"), re.M))
    for path in DEPLOY.iterdir():
        used = set(re.findall(r"\b((?:BOT|TELEGRAM)_[A-Z_]+)\b", path.read_text(encoding="utf-8")))
        used -= {"BOT_DOMAIN"}  # the proxy's host name, read by compose and Caddy only
        assert used <= documented, (path.name, used - documented)


def test_compose_and_systemd_files_are_well_formed() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    assert compose["services"]["bot"]["profiles"] == ["polling"]
    assert compose["services"]["bot-webhook"]["profiles"] == ["webhook"]
    unit = (DEPLOY / "bridge-director-bot.service").read_text(encoding="utf-8")
    for setting in (
        "LoadCredential=telegram-token:",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "Restart=on-failure",
        "User=bridgebot",
    ):
        assert setting in unit
    assert "TELEGRAM_BOT_TOKEN=" not in unit


def _locked() -> dict[str, tuple[str, list[str]]]:
    """deploy/requirements.lock as name → (version, hashes)."""
    text = (DEPLOY / "requirements.lock").read_text(encoding="utf-8").replace("\\\n", " ")
    locked = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, version = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", line).groups()  # type: ignore[union-attr]
            locked[canonicalize_name(name)] = (version, re.findall(r"--hash=sha256:([0-9a-f]{64})", line))
    return locked


def test_the_image_is_built_from_pinned_parts_only() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^FROM python:3\.11-slim@sha256:[0-9a-f]{64}$", dockerfile, re.M)
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    images = [s["image"] for s in compose["services"].values() if "image" in s]
    assert images and all(re.fullmatch(r"[a-z0-9/]+:[\w.-]+@sha256:[0-9a-f]{64}", i) for i in images), images
    installs = re.findall(r"pip install[^\n]*", dockerfile)
    assert installs == ["pip install --no-cache-dir --require-hashes --only-binary=:all: -r requirements.lock"]
    assert "COPY deploy/requirements.lock ./" in dockerfile
    locked = _locked()
    assert all(hashes for _version, hashes in locked.values()), "every locked package has its hashes"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for dependency in map(Requirement, project["dependencies"]):
        name = canonicalize_name(dependency.name)
        assert name in locked and dependency.specifier.contains(locked[name][0]), dependency
    assert {"tornado", "aiolimiter"} <= set(locked)  # the webhook server and the rate limiter


def _docker_pattern(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern (Go's filepath.Match, plus ** for any folders) as a regular expression."""
    parts = re.split(r"(\*\*/|\*\*|\*|\?)", pattern.strip("/"))
    wild = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
    return re.compile("".join(wild.get(part, re.escape(part)) for part in parts))


def _left_out_of_the_image(path: str) -> bool:
    """Docker's rule: the last pattern that matches the path, or a folder holding it, decides."""
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    folders = [path.split("/")[: i + 1] for i in range(path.count("/") + 1)]
    left_out = False
    for pattern in patterns:
        regex = _docker_pattern(pattern.removeprefix("!"))
        if any(regex.fullmatch("/".join(folder)) for folder in folders):
            left_out = not pattern.startswith("!")
    return left_out


@pytest.mark.parametrize(
    "path",
    [
        ".git/config",
        "data/bot.sqlite3",
        "data/bot.sqlite3-wal",
        "data/log-salt",
        "backups/bot-2026-11-25.sqlite3",
        "deploy/telegram-token",
        "deploy/.env",
        ".venv/bin/python",
        "bot/__pycache__/cli.cpython-311.pyc",
        "tests/test_deploy.py",
    ],
)
def test_the_build_context_leaves_out_data_secrets_and_git(path: str) -> None:
    assert _left_out_of_the_image(path)


def test_the_build_context_holds_what_the_image_copies() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    copied = [source for line in re.findall(r"^COPY (.+) \S+$", dockerfile, re.M) for source in line.split()]
    assert copied == ["deploy/requirements.lock", "bot", "knowledge", "dialogs"]
    for source in copied:
        files = [ROOT / source] if (ROOT / source).is_file() else (ROOT / source).rglob("*.*")
        inside = [str(p.relative_to(ROOT)) for p in files]
        assert [p for p in inside if "__pycache__" not in p and _left_out_of_the_image(p)] == []


@pytest.mark.parametrize("path", ["deploy/telegram-token", "deploy/.env", "data/bot.sqlite3", "data/log-salt"])
def test_git_ignores_the_token_and_the_data(path: str) -> None:
    done = subprocess.run(["git", "check-ignore", "--no-index", "-q", path], cwd=ROOT, capture_output=True)
    if done.returncode == 128:
        pytest.skip("not a git checkout")
    assert done.returncode == 0, f"{path} is not ignored by git"
