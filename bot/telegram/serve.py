"""Starting the bot on Telegram: read the configuration, open the store, run long polling or the webhook
until a signal, and keep the heartbeat the health check reads."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import AsyncIterator, Coroutine, Mapping
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlparse

from bot.config import Config, ConfigError, load_config
from bot.logs import configure_logging
from bot.store import Store, StoreError

if TYPE_CHECKING:
    from telegram.ext import Application

    from bot.dialogs import Chart
    from bot.laws import LawBook
    from bot.matching import Matcher

log = logging.getLogger("bot.telegram")
T = TypeVar("T")


async def serve(config: Config, token: str) -> int:
    """Run until SIGINT/SIGTERM; the store opens before the first update and closes after the last."""
    from bot.dialogs import load_charts
    from bot.laws import load_lawbook
    from bot.matching import build_matcher, chart_entries
    from bot.telegram.app import register_commands, tune_collector

    charts = load_charts()
    matcher = build_matcher(chart_entries(charts), background=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with running(config, token, charts, load_lawbook(), matcher) as app:
            await register_commands(app.bot)
            assert app.updater is not None
            if config.webhook_url:
                await app.updater.start_webhook(
                    listen=config.listen,
                    port=config.port,
                    url_path=urlparse(config.webhook_url).path.lstrip("/"),
                    webhook_url=config.webhook_url,
                    secret_token=config.secret_token,
                    drop_pending_updates=False,
                )
                log.info("webhook listening on %s:%s", config.listen, config.port)
            else:
                await app.updater.start_polling(drop_pending_updates=False)
                log.info("long polling started")
            await asyncio.to_thread(matcher.learned.wait)  # the worked examples, read while serving
            tune_collector()
            await stop.wait()
            await app.updater.stop()
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    return 0


@asynccontextmanager
async def running(
    config: Config,
    token: str,
    charts: Mapping[str, Chart],
    book: LawBook,
    matcher: Matcher,
    *,
    max_rate: float | None = None,
    fetches: bool = True,
) -> AsyncIterator[Application]:
    """The bot's Application started over its store, with the heartbeat kept, for as long as the block runs:
    the store opens before the first update (StoreError if it cannot) and closes after the last. Without
    ``fetches`` the Application has no Updater (a worker: bot.telegram.workers)."""
    from bot.dialogs import Dialogs
    from bot.telegram.app import TelegramFrontEnd, build_application

    store = await Store.open(config.database)
    admins = frozenset(f"tg:{user}" for user in config.admin_ids)
    front = TelegramFrontEnd(Dialogs(store, charts), book, matcher, admins)
    rate = config.flood_limit if max_rate is None else max_rate
    app = build_application(token, front, base_url=config.api_url, max_rate=rate, fetches=fetches)
    heartbeat = asyncio.create_task(_beat(store, config.heartbeat_seconds))
    try:
        async with app:
            await app.start()
            yield app
            await app.stop()  # after the updates in flight
    finally:
        heartbeat.cancel()
        await store.close()


async def _beat(store: Store, seconds: float) -> None:
    """Record every few seconds that the bot is alive and its database writable (for `health`)."""
    while True:
        try:
            await store.beat()
        except StoreError as exc:
            log.warning("heartbeat not recorded: %s", exc)
        await asyncio.sleep(seconds)


def run_event_loop(main: Coroutine[Any, Any, T]) -> T:
    """On uvloop where it is installed (not on Windows): its event loop and sockets cost the bot about 8 % less CPU an
    update than asyncio's when a hundred tables tap at once (bench/bench_load.py, three pairs of runs)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def run_telegram(args: argparse.Namespace) -> int:
    try:
        config = replace(
            load_config(),
            **{
                k: v
                for k, v in (
                    ("webhook_url", args.webhook),
                    ("listen", args.listen),
                    ("port", args.port),
                    ("secret_token", args.secret_token),
                    ("workers", args.workers),
                )
                if v is not None
            },
        )
        token = config.require_token()
        config.check_webhook()
        config.check_workers()
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    configure_logging(config.log_level, config.log_format, secrets=[token], database=config.database)
    try:
        if config.workers > 1:
            from bot.telegram.workers import run_workers

            return run_workers(config, token, config.workers)
        return run_event_loop(serve(config, token))
    except Exception as exc:  # a start-up failure (bad token, no network): one line, no traceback
        from telegram.error import InvalidToken, NetworkError

        if isinstance(exc, InvalidToken):
            print("Telegram refused the token: check TELEGRAM_BOT_TOKEN with @BotFather.", file=sys.stderr)
            return 2
        if isinstance(exc, NetworkError):
            print(f"Cannot reach Telegram: {exc}", file=sys.stderr)
            return 2
        raise


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("telegram", help="run on Telegram (token in TELEGRAM_BOT_TOKEN)")
    parser.add_argument("--webhook", metavar="URL", help="receive updates at this https URL instead of polling")
    parser.add_argument("--listen", help="address the webhook server binds (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port of the webhook server (default 8443)")
    parser.add_argument("--secret-token", help="the secret Telegram sends in X-Telegram-Bot-Api-Secret-Token")
    parser.add_argument(
        "--workers", type=int, help="processes handling updates, each chat always in the same one (default 1)"
    )
    parser.set_defaults(handler=run_telegram)
