"""The bot's Bot API transport (aiohttp) against a Bot API server on loopback: what PTB expects of a transport
holds — parameters arrive, a file is uploaded, timeouts and network failures become TimedOut and
NetworkError, and Telegram's flood answer becomes RetryAfter so it can be waited out."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from fake_telegram import TOKEN, FakeBotAPI, _decoded
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import NetworkError, RetryAfter, TimedOut
from telegram.request import RequestData

from bot.telegram.transport import AiohttpRequest


class Server:
    """A Bot API server on loopback: answers as the fake Bot API does, after ``delay``, or with ``answer``."""

    def __init__(self) -> None:
        self.fake = FakeBotAPI()
        self.delay = 0.0
        self.answer: tuple[int, dict[str, Any]] | None = None
        self.headers: dict[str, str] = {}
        self.received: list[tuple[str, dict[str, Any], str]] = []  # method, parameters, content type
        self.bodies: list[bytes] = []  # each JSON body as it arrived
        self.url = ""

    async def handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.method != "POST":  # a redirect followed
            params: dict[str, Any] = {}
        elif request.content_type == "application/json":
            self.bodies.append(await request.read())
            params = {k: _decoded(v) for k, v in (await request.json()).items()}
        else:
            form = await request.post()
            params = {k: (v.file.read() if isinstance(v, web.FileField) else _decoded(v)) for k, v in form.items()}
        self.received.append((method, params, request.content_type))
        await asyncio.sleep(self.delay)
        status, body = self.answer or (200, {"ok": True, "result": self.fake._result(method, params)})
        return web.json_response(body, status=status, headers=self.headers)


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    served = Server()
    app = web.Application()
    app.router.add_route("*", f"/bot{TOKEN}/{{method}}", served.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    served.url = f"http://127.0.0.1:{port}/bot"
    yield served
    await runner.cleanup()


async def bot_for(url: str, **timeouts: float) -> Bot:
    bot = Bot(TOKEN, base_url=url, request=AiohttpRequest(4, **timeouts))
    await bot.initialize()
    return bot


async def test_a_message_with_its_keyboard_reaches_the_bot_api_and_its_answer_comes_back(server: Server) -> None:
    bot = await bot_for(server.url)
    try:
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Yes", callback_data="a:1")]])
        sent = await bot.send_message(4242, "Was the lead <b>faced</b>?", parse_mode="HTML", reply_markup=keyboard)
    finally:
        await bot.shutdown()
    method, params, content_type = server.received[-1]
    assert (method, content_type) == ("sendMessage", "application/json")
    assert params["text"] == "Was the lead <b>faced</b>?" and int(params["chat_id"]) == 4242
    assert params["reply_markup"] == {"inline_keyboard": [[{"text": "Yes", "callback_data": "a:1"}]]}
    assert sent.chat.id == 4242 and sent.text == "Was the lead <b>faced</b>?"


class Recording(AiohttpRequest):
    """The transport, noting the body python-telegram-bot itself would have sent for each request."""

    __slots__ = ("payloads",)

    def __init__(self) -> None:
        super().__init__(4)
        self.payloads: list[bytes] = []

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None, **kw: Any) -> Any:
        self.payloads.append(request_data.json_payload if request_data is not None else b"")
        return await super().do_request(url, method, request_data, **kw)


async def test_each_request_body_is_byte_for_byte_what_python_telegram_bot_would_send(server: Server) -> None:
    request = Recording()
    bot = Bot(TOKEN, base_url=server.url, request=request)
    await bot.initialize()
    try:
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton('Ja «ü» "x"', callback_data="a:1:2")]])
        await bot.send_message(
            -100123,
            "Was the lead <b>faced</b>? ♠",
            parse_mode=ParseMode.HTML,
            reply_markup=keyboard,
            reply_parameters=ReplyParameters(7),
            disable_notification=True,
            message_thread_id=3,
        )
        await bot.edit_message_text("Ruled ✅", chat_id=4242, message_id=9, reply_markup=None)
        await bot.answer_callback_query("77", text="Done", show_alert=False, cache_time=0)
        await bot.do_api_request("sendMessage", api_kwargs={"chat_id": 5, "text": "x", "reply_markup": '{"a": 1}'})
    finally:
        await bot.shutdown()
    sent = server.bodies[-4:]
    assert sent == request.payloads[-4:] and all(sent)


async def test_a_picture_is_uploaded_with_its_caption(server: Server) -> None:
    bot = await bot_for(server.url)
    try:
        await bot.send_photo(4242, b"\x89PNG-chart", caption="Ruling 7 — Lead out of turn")
    finally:
        await bot.shutdown()
    method, params, content_type = server.received[-1]
    assert (method, content_type) == ("sendPhoto", "multipart/form-data")
    assert params["photo"] == b"\x89PNG-chart" and params["caption"] == "Ruling 7 — Lead out of turn"


async def test_telegram_asking_to_wait_is_retry_after_so_the_wait_can_be_honoured(server: Server) -> None:
    bot = await bot_for(server.url)
    server.answer = (
        429,
        {"ok": False, "error_code": 429, "description": "Too Many Requests", "parameters": {"retry_after": 3}},
    )
    try:
        with pytest.raises(RetryAfter) as raised:
            await bot.send_message(1, "hello")
    finally:
        await bot.shutdown()
    assert raised.value.message == "Flood control exceeded. Retry in 3 seconds"


async def test_an_answer_slower_than_the_read_timeout_is_timed_out(server: Server) -> None:
    bot = await bot_for(server.url, read_timeout=0.2)
    server.delay = 1.0
    try:
        with pytest.raises(TimedOut):
            await bot.send_message(1, "hello")
        server.delay = 0.0
        assert (await bot.send_message(1, "again")).text == "again"  # the transport is still usable
    finally:
        await bot.shutdown()


async def test_a_server_that_is_not_there_is_a_network_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again before the call: nothing listens there
    request = AiohttpRequest(4)
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as raised:
            await request.post(f"http://127.0.0.1:{port}/bot{TOKEN}/getMe")
    finally:
        await request.shutdown()
    assert not isinstance(raised.value, TimedOut) and "aiohttp." in str(raised.value)


async def test_a_transport_not_initialized_or_shut_down_refuses_to_send() -> None:
    request = AiohttpRequest(4)
    with pytest.raises(NetworkError):  # PTB wraps the transport's refusal
        await request.post(f"http://127.0.0.1:9/bot{TOKEN}/getMe")
    await request.initialize()
    await request.shutdown()
    await request.shutdown()  # twice is harmless
    with pytest.raises(NetworkError):
        await request.post(f"http://127.0.0.1:9/bot{TOKEN}/getMe")


async def test_a_redirect_is_not_followed(server: Server) -> None:
    bot = await bot_for(server.url)
    server.answer = (302, {"ok": False, "error_code": 302, "description": "Found"})
    server.headers = {"Location": f"{server.url}{TOKEN}/getMe"}
    try:
        with pytest.raises(NetworkError):
            await bot.send_message(1, "hello")
    finally:
        await bot.shutdown()
    assert [method for method, _params, _type in server.received][-1] == "sendMessage"  # asked once, not sent on


async def test_a_network_error_does_not_quote_the_token() -> None:
    request = AiohttpRequest(4)
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as raised:  # aiohttp's message for a bad URL is the URL
            await request.post(f"http://127.0.0.1:99999/bot{TOKEN}/getMe")
    finally:
        await request.shutdown()
    assert TOKEN not in str(raised.value) and TOKEN.split(":")[1] not in str(raised.value)


async def test_a_proxy_named_in_the_environment_carries_the_calls_unless_no_proxy_lists_the_host(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot behind a proxy (HTTP_PROXY/HTTPS_PROXY) reaches Telegram through it, as with PTB's own transport:
    here the Bot API's host does not exist, so only the proxy (the loopback server) can answer."""
    monkeypatch.setenv("HTTP_PROXY", server.url.removesuffix("/bot"))
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    bot = await bot_for("http://api.telegram.invalid/bot")
    try:
        sent = await bot.send_message(1, "through the proxy")
    finally:
        await bot.shutdown()
    assert sent.text == "through the proxy"
    monkeypatch.setenv("NO_PROXY", "api.telegram.invalid")
    request = AiohttpRequest(4)
    await request.initialize()
    try:
        with pytest.raises(NetworkError):  # straight to a host that does not exist
            await request.post(f"http://api.telegram.invalid/bot{TOKEN}/getMe")
    finally:
        await request.shutdown()
