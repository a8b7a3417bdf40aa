"""Logging: one line per event, as text or JSON, with the bot token redacted at every level.

Bot API URLs carry the token (PTB logs its base URL at DEBUG; a network error can quote a URL), so the one
handler redacts the token, and anything shaped like a bot token, from every message and traceback before it
is written. The Bot API client (aiohttp, bot.telegram.transport) logs no URL.

Chats appear in logs as pseudonyms: a keyed hash with a secret salt kept beside the database (``log-salt``,
created at first start, readable by the bot's user only), so nobody can hash candidate chat ids to find a
chat in the logs. The same chat keeps its pseudonym across restarts; deleting the file changes them all.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import time
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from secrets import token_bytes

# A bot token is the bot's id, a colon (maybe URL-encoded) and a secret of 35 URL-safe characters.
TOKEN_SHAPE = re.compile(r"(\d+)(:|%3[Aa])[A-Za-z0-9_-]{30,}")
REDACTED = "***"
SALT_FILE = "log-salt"  # beside the database


class _Salt:
    """The install's secret salt; a process's own random one until configure_logging loads the install's."""

    value = token_bytes(32)


def pseudonym(value: object) -> str:
    """How an identifier (a chat id) appears in logs: stable for this install, useless to anyone without its salt."""
    return _keyed(_Salt.value, str(value))


@lru_cache(maxsize=4096)
def _keyed(salt: bytes, text: str) -> str:
    """The keyed hash, kept for the chats seen lately: at the default level every update logs its chat."""
    return hmac.new(salt, text.encode(), hashlib.sha256).hexdigest()[:10]


def install_salt(path: Path) -> bytes:
    """The salt kept in ``path``, made (owner-only, 256 random bits) if there is none or it is not a salt."""
    try:
        salt = bytes.fromhex(path.read_text(encoding="ascii").strip())
        if len(salt) >= 16:
            return salt
        unusable = True
    except FileNotFoundError:
        unusable = False
    except ValueError:  # not hex
        unusable = True
    path.parent.mkdir(parents=True, exist_ok=True)
    salt = token_bytes(32)
    spare = path.with_name(f".{path.name}.{os.getpid()}")
    with os.fdopen(os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="ascii") as out:
        out.write(salt.hex() + "\n")
    try:
        if unusable:
            os.replace(spare, path)
        else:
            os.link(spare, path)  # the first process to start wins; the others read its salt
    except FileExistsError:
        return install_salt(path)
    finally:
        spare.unlink(missing_ok=True)
    return salt


class RedactSecrets(logging.Filter):
    """Replaces the given secrets and anything shaped like a bot token in a record's text and traceback."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)
        self._tracebacks = logging.Formatter()

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return TOKEN_SHAPE.sub(rf"\1\2{REDACTED}", text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep what there is, redacted, for the handler to write
            message = f"{record.msg} {record.args!r}"
        record.msg, record.args = self.redact(message), None
        if record.exc_info:
            record.exc_text = record.exc_text or self._tracebacks.formatException(record.exc_info)
            record.exc_info = None
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message (and the exception, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(
    level: str = "INFO", fmt: str = "text", secrets: Iterable[str] = (), database: Path | None = None
) -> None:
    """One handler on the root logger, redacting ``secrets`` (the bot token) and token-shaped text.

    The salt for chat pseudonyms is kept beside ``database``.
    """
    # Neither format writes the thread, the process or where in the code a line was logged, so the records
    # skip finding them out (Python's logging HOWTO, "Optimization"): at the default level every update logs a
    # line, and finding them was a third of its cost.
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    logging._srcfile = None
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter() if fmt == "json" else logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s")
    )
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    if database is not None:
        salt_file = database.with_name(SALT_FILE)
        try:
            _Salt.value = install_salt(salt_file)
        except OSError as exc:
            logging.getLogger(__name__).warning(
                "chat pseudonyms will change at each start: cannot keep a salt in %s (%s)", salt_file, exc.strerror
            )
