"""Several worker processes for one bot, so a crowd of directors is served by more than one core.

One process holds an event loop, and python-telegram-bot's parsing, the HTTP client and our handlers all take
turns on it: with a hundred directors tapping at once, each tap waited for the others' CPU (bench_load.py).
With ``BOT_WORKERS`` above 1, a router process fetches the updates (long polling, or the webhook) and hands
each one, as Telegram sent it, to a worker chosen by its chat: a chat's updates always go to the same worker,
in the order Telegram sent them, and keep their order there (bot.telegram.updates). Each worker runs the
whole Application and its handlers and calls the Bot API itself. The workers share the database: SQLite
takes one writer at a time and each worker sees the others' commits (bot.store.database).

The law book, the charts and the matcher are loaded once, before the workers are forked, so they start at
once and share that memory. The database is opened (and migrated) once before forking too.

Stopping: SIGINT or SIGTERM reaches the router (the workers ignore them), which stops fetching, confirms
what it fetched, and closes each worker's channel; a worker finishes the updates it has, then exits. A
worker that dies stops the router (and so the others, after their updates in flight), so the service
manager restarts the bot whole; a router that dies closes the channels, which ends the workers alike.
"""

from __future__ import annotations

import asyncio
import hmac
import inspect
import json
import logging
import os
import signal
import socket
import sys
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlparse

from aiohttp import web
from telegram import Bot, CallbackQuery, Message, TelegramObject, Update, User
from telegram.error import InvalidToken, NetworkError, RetryAfter, TelegramError, TimedOut

from bot.config import Config
from bot.dialogs import Chart, load_charts
from bot.laws import LawBook, load_lawbook
from bot.matching import Matcher, build_matcher, chart_entries
from bot.store import Store, StoreError
from bot.telegram.app import register_commands, seconds, tune_collector
from bot.telegram.serve import run_event_loop, running
from bot.telegram.transport import AiohttpRequest

log = logging.getLogger("bot.telegram")
T = TypeVar("T", bound=TelegramObject)

POLL_SECONDS = 10  # getUpdates waits this long for an update before answering with none
LINE_LIMIT = 16 * 1024 * 1024  # the longest update a channel carries (Telegram's are a few kB)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
BACKOFF = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)  # seconds between tries while Telegram cannot be reached


@dataclass(frozen=True, slots=True)
class Loaded:
    """What every worker shares, loaded before forking."""

    charts: Mapping[str, Chart]
    book: LawBook
    matcher: Matcher


def shard(update: Mapping[str, Any], workers: int) -> int:
    """The worker an update (as Telegram sent it) goes to: by its chat, so one chat's updates keep their order
    and its sessions stay with one worker; by its sender when it names no chat (a poll answer)."""
    for kind, body in update.items():
        if kind == "update_id" or not isinstance(body, dict):
            continue
        message = body.get("message")
        for holder in (
            body.get("chat"),
            message.get("chat") if isinstance(message, dict) else None,
            body.get("from"),
            body.get("user"),
        ):
            if isinstance(holder, dict) and isinstance(holder.get("id"), int):
                return holder["id"] % workers
        return 0
    return 0


def run_workers(config: Config, token: str, workers: int) -> int:
    """Prepare the database, load the knowledge, fork ``workers`` workers and route updates to them until a
    signal; the exit code is the first failing worker's, 1 if a worker ended unasked, or 0."""
    try:
        run_event_loop(_prepare(config, token))
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    loaded = _load()
    channels: list[socket.socket] = []
    children: list[int] = []
    for number in range(workers):
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            for channel in channels:
                channel.close()
            ours.close()
            os._exit(_work(number, workers, theirs, config, token, loaded))
        theirs.close()
        channels.append(ours)
        children.append(pid)
    return run_event_loop(_route(config, token, channels, children))


async def _prepare(config: Config, token: str) -> None:
    """Open the database once, so a migration runs once and a damaged or busy file stops the start; and ask
    Telegram who the bot is, so a refused token or no network stops it too, before any worker starts."""
    store = await Store.open(config.database)
    await store.close()
    async with Bot(token, base_url=config.api_url, request=AiohttpRequest(1), get_updates_request=AiohttpRequest(1)):
        pass


def _load() -> Loaded:
    """The knowledge every worker shares, read whole (the worked examples too) before any worker is forked."""
    charts = load_charts()
    matcher = build_matcher(chart_entries(charts))
    loaded = Loaded(charts, load_lawbook(), matcher)
    tune_collector()
    return loaded


# --- a worker ---------------------------------------------------------------------------------------


def _work(number: int, workers: int, channel: socket.socket, config: Config, token: str, loaded: Loaded) -> int:
    """A worker's life: the router's signals are the router's (it closes the channel to stop a worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        return run_event_loop(_worker(number, workers, channel, config, token, loaded))
    except Exception:
        log.exception("worker %d stopped", number)
        return 1


# What the bot reads of a message whose button was pressed: where it is, to edit it or to answer under it.
PRESSED_FIELDS = frozenset(
    {
        "message_id",
        "date",
        "chat",
        "message_thread_id",
        "is_topic_message",
        "business_connection_id",
        "direct_messages_topic",
    }
)
# What it reads of the message the pressed one quotes (in a group, the description it answers): who wrote it, for
# only they may pick its situation.
QUOTED_FIELDS = frozenset({"message_id", "date", "chat", "from"})


PRESSED_KEPT = 1024  # pressed messages (and pressers) a worker keeps as PTB's objects, the most recently pressed
# PTB's parameters of a press besides the person and the message; what else Telegram sends goes to ``api_kwargs``,
# as PTB's own reading puts it
QUERY_FIELDS = frozenset(inspect.signature(CallbackQuery).parameters) - {"from_user", "message", "api_kwargs"}


class Reader:
    """Reads the router's lines into PTB's updates, the pressed message cut down to ``PRESSED_FIELDS`` and the
    message it quotes to ``QUOTED_FIELDS``: the rest (text, formatting and keyboard) is unread, and building it
    was two thirds of the CPU of reading a press.

    What is left of a pressed message is still most of a press's reading (PTB builds a ``Message`` of about a
    hundred attributes), and it is the same press after press: every question of a ruling is one message, edited
    in place. So the message, and the person pressing, are built once and kept by their JSON, as PTB's frozen
    objects, which nothing changes: an identical JSON is an identical object, and any other is built anew."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._kept: OrderedDict[tuple[type[TelegramObject], str], Any] = OrderedDict()

    def read(self, line: bytes) -> Update:
        data = json.loads(line)
        query = data.get("callback_query")
        if not (isinstance(query, dict) and isinstance(pressed := query.get("message"), dict)):
            return Update.de_json(data, self.bot)
        cut = _only(pressed, PRESSED_FIELDS)
        if isinstance(quoted := pressed.get("reply_to_message"), dict):
            cut["reply_to_message"] = _only(quoted, QUOTED_FIELDS)
        if data.keys() != {"update_id", "callback_query"} or not isinstance(query.get("from"), dict):
            query["message"] = cut
            return Update.de_json(data, self.bot)
        given = {name: value for name, value in query.items() if name in QUERY_FIELDS}
        others = {name: value for name, value in query.items() if name not in QUERY_FIELDS | {"from", "message"}}
        press = CallbackQuery(
            from_user=self._object(User, query["from"]),
            message=self._object(Message, cut),
            **given,
            api_kwargs=others or None,
        )
        press.set_bot(self.bot)
        update = Update(data["update_id"], callback_query=press)
        update.set_bot(self.bot)
        return update

    def _object(self, cls: type[T], data: dict[str, Any]) -> T:
        """PTB's ``cls`` read from ``data``, or the one read from the same JSON before."""
        key = (cls, json.dumps(data))
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = cls.de_json(data, self.bot)
            while len(self._kept) > PRESSED_KEPT:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        return found


def _only(message: dict[str, Any], fields: frozenset[str]) -> dict[str, Any]:
    return {key: value for key, value in message.items() if key in fields}


async def _worker(number: int, workers: int, channel: socket.socket, config: Config, token: str, loaded: Loaded) -> int:
    try:
        async with running(
            config,
            token,
            loaded.charts,
            loaded.book,
            loaded.matcher,
            max_rate=config.flood_limit / workers,
            fetches=False,
        ) as app:
            reader, writer = await asyncio.open_unix_connection(sock=channel, limit=LINE_LIMIT)
            updates = Reader(app.bot)
            while line := await reader.readline():
                try:
                    update = updates.read(line)
                except Exception as exc:  # a kind of update this python-telegram-bot cannot read: skip it
                    log.error("an update could not be read (%s); it was skipped", type(exc).__name__)
                    continue
                await app.update_queue.put(update)
            writer.close()
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    log.debug("worker %d stopped", number)
    return 0


# --- the router -------------------------------------------------------------------------------------


class Router:
    """Hands each update to its worker's channel, and notices a worker that has gone."""

    def __init__(self, channels: list[socket.socket]) -> None:
        self.channels = channels
        self.writers: list[asyncio.StreamWriter] = []
        self.stop = asyncio.Event()
        self.lost: list[int] = []  # workers that ended before being asked to
        self._watching: list[asyncio.Task[None]] = []

    async def open(self) -> None:
        for number, channel in enumerate(self.channels):
            reader, writer = await asyncio.open_unix_connection(sock=channel)
            self.writers.append(writer)
            self._watching.append(asyncio.create_task(self._watch(number, reader)))

    async def _watch(self, number: int, reader: asyncio.StreamReader) -> None:
        await reader.read()  # a worker never writes: this returns when its end closes
        if not self.stop.is_set():
            log.error("worker %d stopped unexpectedly; stopping the bot so it is started again whole", number)
            self.lost.append(number)
            self.stop.set()

    async def forward(self, updates: list[dict[str, Any]]) -> None:
        """Write each update to its worker's channel, in the order given; wait while a channel is full."""
        touched = set()
        for update in updates:
            number = shard(update, len(self.writers))
            self.writers[number].write(json.dumps(update, separators=(",", ":")).encode() + b"\n")
            touched.add(number)
        await asyncio.gather(*(self.writers[n].drain() for n in touched), return_exceptions=True)

    async def close(self) -> None:
        """Close every channel: each worker finishes what it has and exits."""
        self.stop.set()
        for writer in self.writers:
            writer.close()
        for task in self._watching:
            task.cancel()


async def _route(config: Config, token: str, channels: list[socket.socket], children: list[int]) -> int:
    """Fetch and hand on updates until a signal or a lost worker; then close the channels and wait for every
    worker to finish its updates and exit."""
    router = Router(channels)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, router.stop.set)
    await router.open()
    bot = Bot(token, base_url=config.api_url, request=AiohttpRequest(4), get_updates_request=AiohttpRequest(1))
    try:
        async with bot:
            await register_commands(bot)
            if config.webhook_url:
                await _webhook(bot, config, router)
            else:
                await _poll(bot, router)
    finally:
        await router.close()
        codes = await _ended(children)
    return next((code for code in codes if code), 1 if router.lost else 0)


async def _ended(children: list[int]) -> list[int]:
    """Wait for every worker to exit; their exit codes."""
    codes = []
    for pid in children:
        _pid, status = await asyncio.to_thread(os.waitpid, pid, 0)
        codes.append(os.waitstatus_to_exitcode(status))
    return codes


async def _poll(bot: Bot, router: Router) -> None:
    """Long polling as python-telegram-bot's Updater does it, with the updates left as Telegram sent them (the
    workers parse them): the webhook removed first; on stopping, what was fetched is confirmed to Telegram."""
    await bot.delete_webhook(drop_pending_updates=False)
    offset, failures = 0, 0
    stopping = asyncio.create_task(router.stop.wait())
    while not router.stop.is_set():
        fetching = asyncio.ensure_future(
            bot.do_api_request(
                "getUpdates", api_kwargs={"offset": offset, "timeout": POLL_SECONDS}, read_timeout=POLL_SECONDS + 5
            )
        )
        await asyncio.wait((fetching, stopping), return_when=asyncio.FIRST_COMPLETED)
        if not fetching.done():
            fetching.cancel()  # what it would have brought stays unconfirmed: Telegram sends it again
            await asyncio.gather(fetching, return_exceptions=True)
            break
        try:
            updates = fetching.result()
        except TimedOut:
            continue
        except RetryAfter as exc:
            await asyncio.sleep(seconds(exc.retry_after))
            continue
        except InvalidToken:
            raise
        except TelegramError as exc:  # no network, a server error, another process polling (Conflict)
            pause = BACKOFF[min(failures, len(BACKOFF) - 1)]
            failures += 1
            log.warning("fetching updates failed (%s); trying again in %.0f s", type(exc).__name__, pause)
            await asyncio.sleep(pause)
            continue
        failures = 0
        if updates:
            offset = int(updates[-1]["update_id"]) + 1
            await router.forward(updates)
    if offset:
        try:
            await bot.do_api_request("getUpdates", api_kwargs={"offset": offset, "timeout": 0, "limit": 1})
        except NetworkError as exc:
            log.warning("the last updates could not be confirmed (%s); Telegram may send them again", exc)
    stopping.cancel()


async def _webhook(bot: Bot, config: Config, router: Router) -> None:
    """The router's webhook: Telegram's POSTs taken as python-telegram-bot's own server takes them (JSON, with
    the secret header, or 403) and handed on as Telegram sent them. Parsing each into python-telegram-bot's
    objects and back, to use its server, cost the router 1.6 ms an update, more than a worker's whole press."""
    secret = (config.secret_token or "").encode()

    async def take(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if request.content_type != "application/json" or not (secret and hmac.compare_digest(given, secret)):
            return web.Response(status=403)
        try:
            update = json.loads(await request.read())
        except ValueError:
            return web.Response(status=400)
        if not isinstance(update, dict):
            return web.Response(status=400)
        await router.forward([update])
        return web.Response()

    server = web.Application(client_max_size=LINE_LIMIT)
    server.router.add_post("/" + urlparse(config.webhook_url or "").path.lstrip("/"), take)
    runner = web.AppRunner(server, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, config.listen, config.port).start()
        await bot.set_webhook(config.webhook_url or "", max_connections=40, secret_token=config.secret_token)
        log.info("webhook listening on %s:%s", config.listen, config.port)
        await router.stop.wait()
    finally:
        await runner.cleanup()  # stops taking updates; what was taken is already with its worker
