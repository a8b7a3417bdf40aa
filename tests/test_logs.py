"""Logs at DEBUG never show the bot token."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_telegram import TOKEN, FakeBotAPI
from telegram import Bot
from telegram.error import NetworkError

from bot.logs import configure_logging
from bot.telegram.app import chat_tag

SECRET = TOKEN.split(":")[1]
OTHER_TOKEN = "7654321:ZYXwvuTSRqpoNMLkjiHGFedcba987654321"


class LeakyAPI(FakeBotAPI):
    """A Bot API whose connection fails with the request's URL, token and all, in the error."""

    async def do_request(self, url: str, method: str, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        if url.endswith("/sendMessage"):
            raise NetworkError(f"connection reset while posting to {url}")
        return await super().do_request(url, method, *args, **kwargs)


@pytest.fixture
def restored_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.parametrize("fmt", ["text", "json"])
async def test_debug_logs_redact_the_token(
    restored_logging: None, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    configure_logging("DEBUG", fmt)
    bot = Bot(TOKEN, request=LeakyAPI())
    await bot.initialize()  # PTB logs its Bot API URL at DEBUG, then calls getMe
    try:
        await bot.send_message(1, "hello")
    except NetworkError:
        logging.getLogger("bot.telegram").exception("Could not send")
    logging.getLogger("bot").debug("another bot's token: %s", OTHER_TOKEN)
    written = capsys.readouterr().err
    assert "Set Bot API URL" in written and "Calling Bot API endpoint" in written and "Could not send" in written
    assert "connection reset while posting to" in written and "another bot's token: 7654321:***" in written
    assert SECRET not in written and OTHER_TOKEN.split(":")[1] not in written


def test_a_given_secret_is_redacted_whatever_its_shape(
    restored_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging("DEBUG", "text", secrets=["not-shaped-like-a-token"])
    logging.getLogger("bot").info("token is %s", "not-shaped-like-a-token")
    assert capsys.readouterr().err.rstrip().endswith("token is ***")


def test_chat_tags_are_keyed_with_the_installs_secret_salt(restored_logging: None, tmp_path: Path) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    configure_logging("INFO", "text", database=database)
    tag = chat_tag(7012)
    assert tag != hashlib.sha256(b"7012").hexdigest()[:10]  # hashing candidate ids does not find the chat
    assert database.with_name("log-salt").stat().st_mode & 0o777 == 0o600
    configure_logging("INFO", "text", database=database)  # the next start
    assert chat_tag(7012) == tag
    configure_logging("INFO", "text", database=tmp_path / "elsewhere" / "bot.sqlite3")  # another install
    assert chat_tag(7012) != tag
