"""A Bot API stand-in on loopback: a small HTTP server that answers Bot API methods like Telegram would.

The real bot process is pointed at it with ``BOT_API_URL`` (tests/test_webhook.py, bench/bench_load.py). It
answers every method after ``delay`` seconds (Telegram's round trip; ``slow_chats`` adds more for chosen chats),
serves long polling (``getUpdates`` returns the updates ``push``-ed, or waits for one up to its timeout),
and records each call; ``inbox(chat)`` yields a chat's calls as they are answered, so a driver can wait for
the bot's reply to what it sent. Messages and their ids come from the request-level fake (FakeBotAPI), so
both fakes answer alike. Nothing leaves the machine.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import parse_qsl

from fake_telegram import TOKEN, FakeBotAPI, _decoded


@dataclass
class Answered:
    """One Bot API call, when it arrived and when its answer was sent."""

    method: str
    params: dict[str, Any]
    result: Any
    arrived: float
    answered: float


class BotAPIStandIn:
    def __init__(self, delay: float = 0.0, token: str = TOKEN) -> None:
        self.delay = delay
        self.token = token
        self.slow_chats: dict[int, float] = {}
        self.fake = FakeBotAPI()
        self.calls: list[Answered] = []
        self.webhook: dict[str, Any] | None = None
        self.polled = asyncio.Event()  # set by the first getUpdates: the bot is polling
        self.handed_out = 0  # the highest update_id getUpdates has returned
        self.confirmed = 0  # the highest update_id the bot has confirmed (getUpdates with a later offset)
        self._updates: list[dict[str, Any]] = []
        self._arrived = asyncio.Event()
        self._ids = itertools.count(1)
        self._inboxes: dict[int, asyncio.Queue[Answered]] = defaultdict(asyncio.Queue)
        self._query_chats: dict[str, int] = {}
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Transport] = set()
        self._polls: set[asyncio.Task[None]] = set()
        self.port = 0

    @property
    def base_url(self) -> str:
        """What BOT_API_URL is set to: the token follows it, then the method."""
        return f"http://127.0.0.1:{self.port}/bot"

    async def start(self) -> BotAPIStandIn:
        # A deep backlog: a bot with hundreds of chats in flight opens hundreds of connections at once.
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: _Connection(self), "127.0.0.1", 0, backlog=4096)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for poll in list(self._polls):
                poll.cancel()
            for transport in list(self._connections):
                transport.close()
            await self._server.wait_closed()

    # --- what a test or driver does -----------------------------------------------------------------

    def push(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Queue an update (``message`` or ``callback_query``) for getUpdates; returns it with its update_id."""
        update = {"update_id": next(self._ids), **payload}
        query = payload.get("callback_query")
        if query is not None:
            self._query_chats[query["id"]] = query["message"]["chat"]["id"]
        typed = payload.get("message")
        if isinstance(typed, dict) and "message_id" in typed:  # a reply to it quotes it, as Telegram's does
            self.fake.typed[(typed["chat"]["id"], typed["message_id"])] = typed
        self._updates.append(update)
        self._arrived.set()
        return update

    def update(self, payload: dict[str, Any]) -> dict[str, Any]:
        """An update with the next update_id, not queued (a webhook test POSTs it itself)."""
        query = payload.get("callback_query")
        if query is not None:
            self._query_chats[query["id"]] = query["message"]["chat"]["id"]
        return {"update_id": next(self._ids), **payload}

    def inbox(self, chat_id: int) -> asyncio.Queue[Answered]:
        """The calls made for this chat (messages, edits, answers to its presses), as they are answered."""
        return self._inboxes[chat_id]

    def sent(self, method: str) -> list[Answered]:
        return [c for c in self.calls if c.method == method]

    # --- HTTP -----------------------------------------------------------------------------------------

    def _request(self, path: str, content_type: str, body: bytes, reply: Callable[[int, Any], None]) -> None:
        """Answer one request through ``reply``: a call after the delay (a timer, not a task: the stand-in's
        CPU is Telegram's, not the bot's, and shares the machine with it), getUpdates when updates come."""
        arrived = time.perf_counter()
        prefix = f"/bot{self.token}/"
        if not path.startswith(prefix):
            reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})
            return
        method = path[len(prefix) :]
        raw = json.loads(body or b"{}") if "json" in content_type else dict(parse_qsl(body.decode()))
        params = {key: _decoded(value) for key, value in raw.items()}
        if method == "getUpdates":
            poll = asyncio.ensure_future(self._get_updates(params, reply))
            self._polls.add(poll)
            poll.add_done_callback(self._polls.discard)
            return
        chat = self._chat_of(method, params)
        delay = self.delay + self.slow_chats.get(chat, 0.0) if chat is not None else self.delay
        asyncio.get_running_loop().call_later(delay, self._answer, method, params, chat, arrived, reply)

    def _answer(
        self, method: str, params: dict[str, Any], chat: int | None, arrived: float, reply: Callable[[int, Any], None]
    ) -> None:
        if method in ("setWebhook", "deleteWebhook"):
            self.webhook = params if method == "setWebhook" else None
        result = self.fake._result(method, params)
        call = Answered(method, params, result, arrived, time.perf_counter())
        self.calls.append(call)
        if chat is not None:
            self._inboxes[chat].put_nowait(call)
        reply(200, {"ok": True, "result": result})

    def _chat_of(self, method: str, params: dict[str, Any]) -> int | None:
        if method == "answerCallbackQuery":
            return self._query_chats.get(str(params.get("callback_query_id")))
        return int(params["chat_id"]) if "chat_id" in params else None

    async def _get_updates(self, params: dict[str, Any], reply: Callable[[int, Any], None]) -> None:
        self.polled.set()
        offset = int(params.get("offset", 0) or 0)
        self.confirmed = max(self.confirmed, offset - 1)
        limit = int(params.get("limit", 100) or 100)
        deadline = time.monotonic() + float(params.get("timeout", 0) or 0)
        while True:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            if self._updates or time.monotonic() >= deadline:
                batch = self._updates[:limit]
                self.handed_out = max([self.handed_out, *(u["update_id"] for u in batch)])
                reply(200, {"ok": True, "result": batch})
                return
            self._arrived.clear()
            try:
                async with asyncio.timeout(deadline - time.monotonic()):
                    await self._arrived.wait()
            except TimeoutError:
                reply(200, {"ok": True, "result": []})
                return


class _Connection(asyncio.Protocol):
    """One of the bot's keep-alive connections: each request read as its bytes arrive and answered in turn (the
    bot's client sends the next request on a connection only after the answer to the last)."""

    def __init__(self, standin: BotAPIStandIn) -> None:
        self.standin = standin
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.busy = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio's subclasses
        self.standin._connections.add(self.transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.standin._connections.discard(self.transport)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        self._next()

    def _next(self) -> None:
        """Start on the next whole request in the buffer, if no answer is pending on this connection."""
        if self.busy or self.transport is None:
            return
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        lines = self.buffer[:end].decode("latin-1").split("\r\n")
        try:
            _verb, path, _version = lines[0].split(" ", 2)
        except ValueError:
            self.transport.close()
            return
        fields = (line.partition(":") for line in lines[1:] if line)
        headers = {name.strip().lower(): value.strip() for name, _, value in fields}
        start = end + 4
        stop = start + int(headers.get("content-length", "0"))
        if len(self.buffer) < stop:
            return
        body = bytes(self.buffer[start:stop])
        del self.buffer[:stop]
        self.busy = True
        self.standin._request(path, headers.get("content-type", ""), body, self._reply)

    def _reply(self, status: int, answer: Any) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        data = json.dumps(answer).encode()
        self.transport.write(
            f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        self.busy = False
        self._next()


def private_chat(user_id: int, name: str = "Ann") -> tuple[dict[str, Any], dict[str, Any]]:
    """A director's private chat with the bot: (user, chat) as Telegram describes them."""
    return {"id": user_id, "is_bot": False, "first_name": name}, {"id": user_id, "type": "private"}


_message_ids = itertools.count(1)


def text_message(user: dict[str, Any], chat: dict[str, Any], text: str) -> dict[str, Any]:
    """A message someone typed, as an update's payload (commands carry their entity, as Telegram sends them)."""
    message: dict[str, Any] = {
        "message_id": next(_message_ids),
        "date": int(time.time()),
        "chat": chat,
        "from": user,
        "text": text,
    }
    if text.startswith("/"):
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
    return {"message": message}


_query_ids = itertools.count(1)


def press(user: dict[str, Any], message: dict[str, Any], data: str) -> dict[str, Any]:
    """A tap on a button of a message the bot sent, as an update's payload."""
    return {
        "callback_query": {
            "id": f"q{next(_query_ids)}",
            "from": user,
            "chat_instance": "ci",
            "data": data,
            "message": message,
        }
    }


def buttons(message: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, callback data) of a message's inline keyboard."""
    rows = message.get("reply_markup", {}).get("inline_keyboard", [])
    return [(b["text"], b.get("callback_data", "")) for row in rows for b in row]
