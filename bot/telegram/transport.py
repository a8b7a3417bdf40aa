"""Bot API calls over plain asyncio connections: HTTP/1.1 with keep-alive, TLS for Telegram.

PTB's own transport (httpx) cost 2.2 ms of CPU for each Bot API call on this project's machine, where the same
request written and read on an asyncio connection cost 0.11 ms; a button press makes two calls (the answer to
the press and the edit), so httpx was most of a press's cost and capped how many directors one process could
serve (bench/bench_load.py). This transport speaks just what the Bot API needs: a POST with a form body (or a
multipart body with files, such as a chart's picture), a response with a Content-Length or chunked body, on
connections that are reused while they are fresh. Timeouts raise TimedOut and a broken connection NetworkError,
as PTB's transport does; a request that never left (no free connection, none could be opened) raises NotSent, a
TimedOut the bot may repeat even for a message. No proxy support (the bot never had a proxy setting).
"""

from __future__ import annotations

import asyncio
import secrets
import ssl
import time
from typing import Any
from urllib.parse import urlsplit

from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

POOL_SIZE = 256  # connections open at once, like PTB's default pool
KEEP_ALIVE = 5.0  # seconds an idle connection is reused (httpx's default); older ones are closed
TIMEOUTS = {"read": 5.0, "write": 5.0, "connect": 5.0, "pool": 1.0, "media_write": 20.0}  # PTB's defaults
USER_AGENT = "bridge-director-bot (python-telegram-bot)"
FORM = "application/x-www-form-urlencoded"

Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter, float]


class NotSent(TimedOut):
    """The request never left (no free connection, or none could be opened): repeating it is harmless."""


class AsyncioRequest(BaseRequest):
    """A BaseRequest over asyncio streams (see the module's docstring)."""

    def __init__(self, pool_size: int = POOL_SIZE) -> None:
        self._slots = asyncio.Semaphore(pool_size)
        self._idle: dict[tuple[str, str, int], list[Connection]] = {}
        self._tls = ssl.create_default_context()

    @property
    def read_timeout(self) -> float | None:
        return TIMEOUTS["read"]

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        for connections in self._idle.values():
            for _reader, writer, _since in connections:
                writer.close()
        self._idle.clear()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        parts = urlsplit(url)
        secure = parts.scheme == "https"
        host = parts.hostname or ""
        key = (parts.scheme, host, parts.port or (443 if secure else 80))
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        files = bool(request_data and request_data.contains_files)
        body, content_type = _body(request_data)
        head = (
            f"{method} {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nUser-Agent: {USER_AGENT}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        waits = {
            "read": _timeout(read_timeout, "read"),
            "write": _timeout(write_timeout, "media_write" if files else "write"),
            "connect": _timeout(connect_timeout, "connect"),
        }
        try:
            async with asyncio.timeout(_timeout(pool_timeout, "pool")):
                await self._slots.acquire()
        except TimeoutError as exc:
            raise NotSent("Pool timeout: every connection is busy; the request was not sent.") from exc
        try:
            return await self._exchange(key, secure, head + body, waits)
        finally:
            self._slots.release()

    async def _exchange(
        self, key: tuple[str, str, int], secure: bool, request: bytes, waits: dict[str, float | None]
    ) -> tuple[int, bytes]:
        reader, writer = await self._connection(key, secure, waits["connect"])
        stage = "write"
        try:
            writer.write(request)
            async with asyncio.timeout(waits["write"]):  # a context, not wait_for: no task made per call
                await writer.drain()
            stage = "read"
            async with asyncio.timeout(waits["read"]):
                status, body, keep = await _response(reader)
        except TimeoutError as exc:
            writer.close()
            raise TimedOut(f"Timed out ({stage})") from exc
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
            writer.close()
            raise NetworkError(f"Bot API connection failed: {type(exc).__name__}") from exc
        except BaseException:
            writer.close()
            raise
        if keep:
            self._idle.setdefault(key, []).append((reader, writer, time.monotonic()))
        else:
            writer.close()
        return status, body

    async def _connection(
        self, key: tuple[str, str, int], secure: bool, timeout: float | None
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A fresh idle connection to ``key`` if there is one (older ones are closed), else a new one."""
        idle = self._idle.get(key, [])
        while idle:
            reader, writer, since = idle.pop()
            if time.monotonic() - since < KEEP_ALIVE and not reader.at_eof() and not writer.is_closing():
                return reader, writer
            writer.close()
        _scheme, host, port = key
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.open_connection(host, port, ssl=self._tls if secure else None, limit=1 << 22)
        except TimeoutError as exc:
            raise NotSent("Timed out connecting to the Bot API") from exc
        except OSError as exc:
            raise NotSent(f"Cannot connect to the Bot API: {exc.strerror or type(exc).__name__}") from exc


def _timeout(value: Any, name: str) -> float | None:
    return TIMEOUTS[name] if value is BaseRequest.DEFAULT_NONE else value


def _body(request_data: RequestData | None) -> tuple[bytes, str]:
    """The request's body and its content type: a form, as PTB's own transport sends it, or multipart when it
    carries files."""
    if request_data is None:
        return b"", FORM
    if not request_data.contains_files:
        return request_data.url_encoded_parameters().encode(), FORM
    boundary = secrets.token_hex(16)
    chunks: list[bytes] = []
    for name, value in request_data.json_parameters.items():
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, upload in request_data.multipart_data.items():
        filename, content, mimetype = upload
        content_bytes = content if isinstance(content, bytes) else content.read()
        chunks.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            f"Content-Type: {mimetype}\r\n\r\n".encode()
            + content_bytes
            + b"\r\n"
        )
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


async def _response(reader: asyncio.StreamReader) -> tuple[int, bytes, bool]:
    """Status, body and whether the connection may be reused."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    version, status, *_reason = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip().lower()
    if "chunked" in headers.get("transfer-encoding", ""):
        body = await _chunked(reader)
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    else:
        return int(status), await reader.read(), False
    keep = headers.get("connection", "keep-alive" if version == "HTTP/1.1" else "close") != "close"
    return int(status), body, keep


async def _chunked(reader: asyncio.StreamReader) -> bytes:
    chunks = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers, then the blank line
                pass
            return b"".join(chunks)
        chunks.append(await reader.readexactly(size))
        await reader.readexactly(2)
