"""The Bot API over aiohttp: python-telegram-bot's request interface on an aiohttp client session.

PTB's own transport (httpx) cost the bot most of its CPU with many chats at once: for every request httpx's
connection pool looks at each connection it holds (expired? idle? readable?), so with a hundred directors
tapping, 45% of the process's time went there and an update cost 30 ms of CPU. aiohttp's pool hands out an
idle connection without scanning the others.

PTB's timeouts keep their meaning: ``connect`` is the time to open a connection, ``pool`` the time to wait
for a free one (aiohttp counts both in its own ``connect``), ``read`` the time to wait for Telegram's answer.
aiohttp has no write timeout of its own; its read timer starts when the request starts going out, so for an
upload (a file in the request) the write timeout is added to it. Errors become PTB's: a timeout is
``TimedOut``, any other failure to talk to the server ``NetworkError`` (without the URL, which holds the
token); an answer the server gave (a 429 with retry_after, a 400) is returned as it is and PTB turns it into
RetryAfter, BadRequest and the rest. Redirects are not followed (the Bot API sends none; httpx did not either).

Parameters go as one JSON body (the Bot API takes JSON for every method; a file goes as multipart form data),
written from the request's ``parameters`` as PTB's documentation advises for a cheaper encoder: the same bytes as
its ``json_payload``, which JSON-encodes each value twice (it asks for it once to leave out None, once to keep).
A proxy named in the environment (``HTTPS_PROXY``, ``HTTP_PROXY``, with ``NO_PROXY``), as httpx honoured, is
read once per Bot API base URL, not per request (aiohttp's own ``trust_env`` reads ``~/.netrc`` on a thread for
every request).
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit
from urllib.request import getproxies, proxy_bypass_environment

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

JSON = {"Content-Type": "application/json"}


def json_body(request_data: RequestData) -> bytes:
    """The parameters as the Bot API's JSON body: each value JSON-encoded unless it is text, as PTB sends them."""
    values = request_data.parameters
    return json.dumps({name: v if isinstance(v, str) else json.dumps(v) for name, v in values.items()}).encode()


def _sum(*parts: float | None) -> float | None:
    """The sum of timeouts, None (no limit) when any is None."""
    return None if any(part is None for part in parts) else sum(part for part in parts if part is not None)


class AiohttpRequest(BaseRequest):
    """PTB's ``BaseRequest`` on one aiohttp session, opened by ``initialize`` and closed by ``shutdown``."""

    __slots__ = ("_connect", "_media_write", "_pool", "_pool_size", "_proxies", "_read", "_session", "_write")

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._pool_size = connection_pool_size
        self._read, self._write, self._connect, self._pool = read_timeout, write_timeout, connect_timeout, pool_timeout
        self._media_write = media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[str, str | None] = {}

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT},
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    def _proxy_for(self, url: str) -> str | None:
        """The proxy the environment names for ``url``'s host, or None (none named, or NO_PROXY lists it); kept
        by the URL up to its last part (the Bot API's base, or a file's folder), so a request only looks it up."""
        key = url.rpartition("/")[0]
        if key not in self._proxies:
            parts = urlsplit(url)
            proxies = getproxies()
            host = parts.hostname or ""
            self._proxies[key] = None if proxy_bypass_environment(host, proxies) else proxies.get(parts.scheme)
        return self._proxies[key]

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data is not None else None
        read = self._read if isinstance(read_timeout, DefaultValue) else read_timeout
        connect = self._connect if isinstance(connect_timeout, DefaultValue) else connect_timeout
        pool = self._pool if isinstance(pool_timeout, DefaultValue) else pool_timeout
        if files:
            write = self._media_write if isinstance(write_timeout, DefaultValue) else write_timeout
            read = _sum(read, write)
        timeout = aiohttp.ClientTimeout(total=None, connect=_sum(pool, connect), sock_connect=connect, sock_read=read)
        data: aiohttp.FormData | bytes | None = None
        headers = None
        if files:
            data = aiohttp.FormData(request_data.json_parameters)
            for name, (filename, content, mimetype) in files.items():
                data.add_field(name, content, filename=filename, content_type=mimetype)
        elif request_data is not None:
            data, headers = json_body(request_data), JSON
        try:
            async with session.request(
                method,
                url,
                data=data,
                headers=headers,
                timeout=timeout,
                allow_redirects=False,
                proxy=self._proxy_for(url),
            ) as response:
                return response.status, await response.read()
        except TimeoutError as exc:
            raise TimedOut from exc
        except aiohttp.ClientError as exc:  # the URL holds the token: it is left out of the message
            raise NetworkError(f"aiohttp.{type(exc).__name__}: {str(exc).replace(url, 'the Bot API URL')}") from exc
