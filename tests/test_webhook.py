"""The real ``python -m bot telegram`` process end to end against the Bot API stand-in (BOT_API_URL): webhook
mode on loopback with real HTTP POSTs of updates, and long polling; a shutdown loses no update in flight."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from botapi_standin import Answered, BotAPIStandIn, buttons, press, private_chat, text_message
from fake_telegram import TOKEN

ROOT = Path(__file__).resolve().parent.parent
SECRET = "s3cret-header-for-the-test_0123"
HEADER = "X-Telegram-Bot-Api-Secret-Token"

pytestmark = pytest.mark.slow  # every test here runs the real bot process


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def listening(port: int) -> bool:
    """Whether something accepts connections on this port of the loopback."""
    try:
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    writer.close()
    await writer.wait_closed()
    return True


async def next_call(standin: BotAPIStandIn, chat: int, method: str, timeout: float = 20) -> Answered:
    """The next call of ``method`` the bot makes for ``chat`` (earlier calls of other methods are skipped)."""
    inbox = standin.inbox(chat)
    while True:
        call = await asyncio.wait_for(inbox.get(), timeout)
        if call.method == method:
            return call


async def calls(standin: BotAPIStandIn, chat: int, *methods: str, timeout: float = 20) -> list[Answered]:
    """The first call of each of ``methods`` the bot makes for ``chat``, whatever their order."""
    found: dict[str, Answered] = {}
    while len(found) < len(methods):
        call = await asyncio.wait_for(standin.inbox(chat).get(), timeout)
        if call.method in methods:
            found.setdefault(call.method, call)
    return [found[m] for m in methods]


class Bot:
    def __init__(self, process: asyncio.subprocess.Process, url: str) -> None:
        self.process, self.url = process, url
        self.http = httpx.AsyncClient(timeout=10)

    async def post(self, update: dict, secret: str | None = SECRET) -> int:
        headers = {HEADER: secret} if secret is not None else {}
        return (await self.http.post(self.url, json=update, headers=headers)).status_code


@pytest.fixture
async def standin() -> AsyncIterator[BotAPIStandIn]:
    server = await BotAPIStandIn().start()
    yield server
    await server.stop()


def bot_env(standin: BotAPIStandIn, tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "BOT_API_URL": standin.base_url,
        "BOT_DB": str(tmp_path / "bot.sqlite3"),
        "BOT_DIALOGS": str(ROOT / "tests" / "fixtures" / "dialogs"),
        "BOT_LOG_LEVEL": "WARNING",
    }


@pytest.fixture
async def bot(standin: BotAPIStandIn, tmp_path: Path) -> AsyncIterator[Bot]:
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "bot", "telegram", "--webhook", "https://bot.example.org/td-hook"),
        *("--listen", "127.0.0.1", "--port", str(port), "--secret-token", SECRET),
        env=bot_env(standin, tmp_path),
        cwd=tmp_path,
        stderr=asyncio.subprocess.PIPE,
    )
    served = Bot(process, f"http://127.0.0.1:{port}/td-hook")
    for _ in range(600):  # PTB tells the Bot API where the webhook is, then starts listening there
        if (standin.webhook is not None and await listening(port)) or process.returncode is not None:
            break
        await asyncio.sleep(0.05)
    assert standin.webhook is not None, (await process.stderr.read()).decode() if process.stderr else ""
    yield served
    await served.http.aclose()
    if process.returncode is None:
        process.kill()
        await process.wait()


async def test_the_webhook_takes_updates_only_with_the_secret_and_answers_through_the_bot_api(
    standin: BotAPIStandIn, bot: Bot
) -> None:
    assert standin.webhook == {"url": "https://bot.example.org/td-hook", "secret_token": SECRET} | {
        k: v for k, v in standin.webhook.items() if k not in ("url", "secret_token")
    }
    ann, chat = private_chat(501)
    forged = standin.update(text_message(ann, chat, "/help"))
    assert await bot.post(forged, secret=None) == 403
    assert await bot.post(forged, secret="wrong-secret-of-the-same-sort") == 403
    assert await bot.post(forged, secret=SECRET[:-1]) == 403

    assert await bot.post(standin.update(text_message(ann, chat, "/charts"))) == 200
    listing = await next_call(standin, 501, "sendMessage")
    assert "Pick a chart" in listing.params["text"]
    assert [int(c.params["chat_id"]) for c in standin.sent("sendMessage")] == [501], "a refused update was handled"

    standin.delay = 0.3  # a press's answer goes out without waiting for the question's 0.3 s round trip
    chart = next(data for _label, data in buttons(listing.result) if data.startswith(("s:", "o:c:")))
    assert await bot.post(standin.update(press(ann, listing.result, chart))) == 200
    answered, question = await calls(standin, 501, "answerCallbackQuery", "sendMessage")
    assert any(data.startswith("a:") for _label, data in buttons(question.result))
    assert answered.arrived < question.answered, "the press waited for the question to be sent"


async def test_shutdown_waits_for_updates_in_flight_and_loses_none(standin: BotAPIStandIn, bot: Bot) -> None:
    standin.delay = 0.4  # every Bot API call takes 0.4 s: the updates are still being answered at SIGTERM
    chats = [private_chat(600 + n) for n in range(6)]
    for user, chat in chats:
        assert await bot.post(standin.update(text_message(user, chat, "/help"))) == 200
    bot.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(bot.process.wait(), 30) == 0
    replied = {int(c.params["chat_id"]) for c in standin.sent("sendMessage")}
    assert replied == {chat["id"] for _user, chat in chats}


@pytest.mark.parametrize(
    ("url", "accepted"),
    [
        ("https://api.telegram.org/bot", True),
        ("http://127.0.0.1:8081/bot", True),
        ("http://bot-api.example.org/bot", False),
        ("ftp://127.0.0.1/bot", False),
    ],
)
def test_the_bot_api_url_carries_the_token_over_https_or_stays_on_this_machine(url: str, accepted: bool) -> None:
    from bot.config import ConfigError, load_config

    if accepted:
        assert load_config({"BOT_API_URL": url}).api_url == url
    else:
        with pytest.raises(ConfigError, match="BOT_API_URL must be an https:// URL"):
            load_config({"BOT_API_URL": url})


async def test_long_polling_stops_after_the_updates_it_took_are_answered_and_confirmed(
    standin: BotAPIStandIn, tmp_path: Path
) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "telegram", env=bot_env(standin, tmp_path), cwd=tmp_path
    )
    try:
        await asyncio.wait_for(standin.polled.wait(), 60)
        await stop_with_updates_in_flight(standin, process, range(700, 706))
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def stop_with_updates_in_flight(
    standin: BotAPIStandIn, process: asyncio.subprocess.Process, chats: range
) -> None:
    """One update from each chat, every Bot API call taking 0.4 s, SIGTERM once the bot has taken them all: it
    exits cleanly after answering every one, and confirms them so a restarted bot does not take them again."""
    standin.delay = 0.4
    people = [private_chat(chat) for chat in chats]
    last = [standin.push(text_message(user, chat, "/help"))["update_id"] for user, chat in people][-1]
    while standin.handed_out < last:
        await asyncio.sleep(0.01)
    process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(process.wait(), 30) == 0
    assert {int(c.params["chat_id"]) for c in standin.sent("sendMessage")} == set(chats)
    assert standin.confirmed == last, "a restarted bot would take the answered updates again"
