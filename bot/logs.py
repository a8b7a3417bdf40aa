"""Logging: one line per event, as text or JSON, with the bot token redacted at every level.

Bot API URLs carry the token (PTB logs its base URL at DEBUG; a network error can quote a URL), so the one
handler redacts the token, and anything shaped like a bot token, from every message and traceback before it
is written. httpx and httpcore stay at WARNING: they log each request's URL.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterable

# A bot token is the bot's id, a colon (maybe URL-encoded) and a secret of 35 URL-safe characters.
TOKEN_SHAPE = re.compile(r"(\d+)(:|%3[Aa])[A-Za-z0-9_-]{30,}")
REDACTED = "***"


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


def configure_logging(level: str = "INFO", fmt: str = "text", secrets: Iterable[str] = ()) -> None:
    """One handler on the root logger, redacting ``secrets`` (the bot token) and token-shaped text."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter() if fmt == "json" else logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s")
    )
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
