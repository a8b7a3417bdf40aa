"""The Bot API transport (bot.telegram.transport) against small loopback servers: what it sends, what it accepts
back, and the errors PTB expects when the network fails."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from urllib.parse import parse_qsl

import pytest
from fake_telegram import TOKEN
from telegram import Bot
from telegram.error import TimedOut
from telegram.request import RequestData

from bot.telegram.transport import AsyncioRequest, NotSent

MESSAGE = {"message_id": 5, "date": 0, "chat": {"id": 1, "type": "private"}, "text": "hi"}


class Server:
    """Reads each request whole and answers with ``reply(request)`` (raw bytes); ``None`` never answers."""

    def __init__(self, reply: Callable[[bytes], bytes | None]) -> None:
        self.reply = reply
        self.requests: list[bytes] = []
        self.connections = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                answer = self.reply(request)
                if answer is None:
                    await asyncio.sleep(10)
                    return
                writer.write(answer)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


def ok(result: object, *, chunked: bool = False, close: bool = False) -> bytes:
    body = json.dumps({"ok": True, "result": result}).encode()
    head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + ("Connection: close\r\n" if close else "")
    if chunked:
        halves = [body[: len(body) // 2], body[len(body) // 2 :]]
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(h), h) for h in halves) + b"0\r\n\r\n"
        return (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + chunks
    return (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body


@pytest.fixture
async def served() -> AsyncIterator[Callable[[Callable[[bytes], bytes | None]], asyncio.Future[tuple[Server, Bot]]]]:
    servers: list[asyncio.Server] = []
    bots: list[Bot] = []

    async def start(reply: Callable[[bytes], bytes | None]) -> tuple[Server, Bot]:
        server = Server(reply)
        listening = await asyncio.start_server(server.serve, "127.0.0.1", 0)
        servers.append(listening)
        port = listening.sockets[0].getsockname()[1]
        bot = Bot(TOKEN, base_url=f"http://127.0.0.1:{port}/bot", request=AsyncioRequest())
        bots.append(bot)
        return server, bot

    yield start  # type: ignore[misc]
    for bot in bots:
        await bot.shutdown()
    for listening in servers:
        listening.close()


async def test_calls_are_json_posts_on_one_kept_connection_and_chunked_answers_are_read(served) -> None:
    server, bot = await served(lambda request: ok(MESSAGE, chunked=b"sendMessage" in request))
    first = await bot.send_message(1, "hi", parse_mode="HTML")
    second = await bot.send_message(1, "again")
    assert first.message_id == second.message_id == 5
    assert server.connections == 1
    head, _, body = server.requests[0].partition(b"\r\n\r\n")
    assert head.startswith(f"POST /bot{TOKEN}/sendMessage HTTP/1.1".encode())
    assert b"content-type: application/x-www-form-urlencoded" in head.lower()  # as PTB's own transport sends it
    assert dict(parse_qsl(body.decode())) == {"chat_id": "1", "text": "hi", "parse_mode": "HTML"}


async def test_a_connection_the_server_closes_is_not_reused(served) -> None:
    server, bot = await served(lambda _request: ok(MESSAGE, close=True))
    await bot.send_message(1, "one")
    await bot.send_message(1, "two")
    assert server.connections == 2


async def test_a_picture_goes_as_multipart_with_its_bytes(served) -> None:
    server, bot = await served(lambda _request: ok({**MESSAGE, "photo": []}))
    await bot.send_photo(1, photo=b"\x89PNG picture bytes", caption="chart")
    head, _, body = server.requests[0].partition(b"\r\n\r\n")
    assert b"multipart/form-data; boundary=" in head
    assert b"\x89PNG picture bytes" in body and b'name="caption"' in body and b"chart" in body


async def test_a_silent_server_is_a_timeout_and_a_closed_port_a_network_error(served) -> None:
    _server, bot = await served(lambda _request: None)
    request = AsyncioRequest()
    url = f"{bot.base_url}/getMe"
    with pytest.raises(TimedOut):
        await request.do_request(url, "POST", RequestData(), read_timeout=0.2)
    with pytest.raises(NotSent):  # a subclass of PTB's TimedOut: a message that never left may be sent again
        await request.do_request("http://127.0.0.1:9/bot1/getMe", "POST", RequestData())
    await request.shutdown()
