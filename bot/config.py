"""Configuration in one place: environment variables, validated at start with one clear line per problem.

| variable | meaning | default |
|---|---|---|
| TELEGRAM_BOT_TOKEN | the bot's token from @BotFather | — (required for `telegram`) |
| TELEGRAM_BOT_TOKEN_FILE | a file holding the token instead (Docker secrets) | — |
| CREDENTIALS_DIRECTORY | set by systemd `LoadCredential=`: the token is read from `telegram-token` there | — |
| BOT_DB | the SQLite database file | data/bot.sqlite3 |
| BOT_DIALOGS | a folder of charts to use instead of dialogs/ | dialogs/ |
| BOT_LOG_LEVEL | DEBUG, INFO, WARNING, ERROR | INFO |
| BOT_LOG_FORMAT | text or json (one object per line) | text |
| BOT_WEBHOOK_URL | receive updates at this https URL instead of long polling | — |
| BOT_LISTEN | the address the webhook server binds | 127.0.0.1 |
| BOT_PORT | the port the webhook server binds | 8443 |
| BOT_SECRET_TOKEN | the webhook's secret header (16–256 of A–Z a–z 0–9 _ -) | — (required with a webhook) |
| BOT_ADMIN_IDS | Telegram user ids of the bot's administrators, comma-separated | — |
| BOT_HEARTBEAT_SECONDS | how often the running bot records that it is alive | 30 |
| BOT_API_URL | the Bot API server; the token follows it (a local server, a test's stand-in) | Telegram's |
| BOT_FLOOD_LIMIT | Bot API calls a second that name a chat, across all chats (0: no overall limit) | 30 |
| BOT_WORKERS | processes handling updates, each chat always in the same one (Linux and macOS); one a core | 1 |

Command-line options of `python -m bot telegram` override the webhook variables and BOT_WORKERS.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

TOKEN_SHAPE = re.compile(r"^\d{3,}:[A-Za-z0-9_-]{30,}$")
SECRET_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,256}$")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
TELEGRAM_API = "https://api.telegram.org/bot"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
MAX_WORKERS = 64


class ConfigError(Exception):
    """A configuration problem, worded for the person running the bot."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str | None
    database: Path
    log_level: str = "INFO"
    log_format: str = "text"
    webhook_url: str | None = None
    listen: str = "127.0.0.1"
    port: int = 8443
    secret_token: str | None = None
    admin_ids: frozenset[int] = field(default_factory=frozenset)
    heartbeat_seconds: float = 30.0
    api_url: str = TELEGRAM_API
    flood_limit: float = 30.0
    workers: int = 1

    def require_token(self) -> str:
        if not self.token:
            raise ConfigError("TELEGRAM_BOT_TOKEN is not set: create a bot with @BotFather and export its token.")
        if not TOKEN_SHAPE.match(self.token):
            raise ConfigError("TELEGRAM_BOT_TOKEN does not look like a bot token (digits, a colon, then 30+ letters).")
        return self.token

    def check_webhook(self) -> None:
        if not self.webhook_url:
            return
        url = urlparse(self.webhook_url)
        if url.scheme != "https" or not url.netloc:
            raise ConfigError(f"--webhook must be an https:// URL, not {self.webhook_url!r}.")
        if not self.secret_token or not SECRET_SHAPE.match(self.secret_token):
            raise ConfigError("--secret-token is required with --webhook: 16–256 characters of A–Z, a–z, 0–9, _ and -.")
        if not 0 < self.port < 65536:
            raise ConfigError(f"--port must be between 1 and 65535, not {self.port}.")

    def check_workers(self) -> None:
        if not 1 <= self.workers <= MAX_WORKERS:
            raise ConfigError(f"--workers must be between 1 and {MAX_WORKERS}, not {self.workers}.")
        if self.workers > 1 and not hasattr(os, "fork"):
            raise ConfigError("More than one worker needs Linux or macOS; set BOT_WORKERS=1 here.")


def _token(env: Mapping[str, str]) -> str | None:
    """The token from the environment, a secrets file, or a systemd credential — never logged."""
    if env.get("TELEGRAM_BOT_TOKEN", "").strip():
        return env["TELEGRAM_BOT_TOKEN"].strip()
    sources = [env.get("TELEGRAM_BOT_TOKEN_FILE", "")]
    if env.get("CREDENTIALS_DIRECTORY"):
        sources.append(str(Path(env["CREDENTIALS_DIRECTORY"]) / "telegram-token"))
    for source in filter(None, sources):
        try:
            return Path(source).read_text(encoding="utf-8").strip() or None
        except OSError as exc:
            raise ConfigError(f"cannot read the token file {source}: {exc.strerror}") from exc
    return None


def _number(
    env: Mapping[str, str], name: str, default: float, what: str, bounds: tuple[float, float], between: str
) -> float:
    """A setting that is a number within bounds; one line naming the setting when it is not."""
    try:
        value = float(env.get(name, str(default)))
    except ValueError as exc:
        raise ConfigError(f"{name} must be {what}.") from exc
    if not bounds[0] <= value <= bounds[1]:
        raise ConfigError(f"{name} must be between {between}.")
    return value


def load_config(env: Mapping[str, str] | None = None) -> Config:
    """Read and validate the configuration; ConfigError names the first variable that is wrong."""
    env = os.environ if env is None else env
    level = env.get("BOT_LOG_LEVEL", "INFO").strip().upper()
    if level not in LEVELS:
        raise ConfigError(f"BOT_LOG_LEVEL must be one of {', '.join(LEVELS)}, not {level!r}.")
    log_format = env.get("BOT_LOG_FORMAT", "text").strip().lower()
    if log_format not in ("text", "json"):
        raise ConfigError(f"BOT_LOG_FORMAT must be text or json, not {log_format!r}.")
    try:
        port = int(env.get("BOT_PORT", "8443"))
    except ValueError as exc:
        raise ConfigError(f"BOT_PORT must be a whole number, not {env.get('BOT_PORT')!r}.") from exc
    try:
        admins = frozenset(int(x) for x in re.split(r"[,\s]+", env.get("BOT_ADMIN_IDS", "").strip()) if x)
    except ValueError as exc:
        raise ConfigError("BOT_ADMIN_IDS must be Telegram user ids (numbers) separated by commas.") from exc
    heartbeat = _number(env, "BOT_HEARTBEAT_SECONDS", 30, "a number of seconds", (1, 3600), "1 and 3600")
    api_url = env.get("BOT_API_URL", "").strip() or TELEGRAM_API
    url = urlparse(api_url)
    if not (url.scheme == "https" or (url.scheme == "http" and url.hostname in LOOPBACK)) or not url.netloc:
        raise ConfigError("BOT_API_URL must be an https:// URL (http:// only on this machine): the token follows it.")
    flood_limit = _number(
        env, "BOT_FLOOD_LIMIT", 30, "a number of calls a second", (0, 10_000), "0 (no overall limit) and 10000"
    )
    workers = _number(env, "BOT_WORKERS", 1, "a whole number of processes", (1, MAX_WORKERS), f"1 and {MAX_WORKERS}")
    if workers != int(workers):
        raise ConfigError("BOT_WORKERS must be a whole number of processes.")
    database = Path(env.get("BOT_DB", "data/bot.sqlite3"))
    if database.exists() and database.is_dir():
        raise ConfigError(f"BOT_DB names a folder, not a database file: {database}")
    return Config(
        token=_token(env),
        database=database,
        log_level=level,
        log_format=log_format,
        webhook_url=env.get("BOT_WEBHOOK_URL") or None,
        listen=env.get("BOT_LISTEN", "127.0.0.1"),
        port=port,
        secret_token=env.get("BOT_SECRET_TOKEN") or None,
        admin_ids=admins,
        heartbeat_seconds=heartbeat,
        api_url=api_url,
        flood_limit=flood_limit,
        workers=int(workers),
    )
