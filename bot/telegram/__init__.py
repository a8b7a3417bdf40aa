"""The Telegram front end: ``python -m bot telegram`` (long polling, or a webhook behind a reverse proxy)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import signal
import sys
from urllib.parse import urlparse

TOKEN_SHAPE = re.compile(r"^\d{3,}:[A-Za-z0-9_-]{30,}$")
log = logging.getLogger("bot.telegram")


def configure_logging(level: str = "INFO") -> None:
    """One line per event; httpx stays at WARNING so request URLs (which hold the token) never reach logs."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)


def check_options(args: argparse.Namespace, token: str | None) -> str | None:
    """The one-line problem with the configuration, or None when it is usable."""
    if not token:
        return "TELEGRAM_BOT_TOKEN is not set: create a bot with @BotFather and export its token."
    if not TOKEN_SHAPE.match(token.strip()):
        return "TELEGRAM_BOT_TOKEN does not look like a bot token (digits, a colon, then 30+ letters)."
    if args.webhook:
        url = urlparse(args.webhook)
        if url.scheme != "https" or not url.netloc:
            return f"--webhook must be an https:// URL, not {args.webhook!r}."
        if not args.secret_token or not re.fullmatch(r"[A-Za-z0-9_-]{16,256}", args.secret_token):
            return "--secret-token is required with --webhook: 16–256 characters of A–Z, a–z, 0–9, _ and -."
        if not 0 < args.port < 65536:
            return f"--port must be between 1 and 65535, not {args.port}."
    return None


async def serve(args: argparse.Namespace, token: str) -> int:
    """Run until SIGINT/SIGTERM; the store opens before the first update and closes after the last."""
    from bot.dialogs import Dialogs, load_charts
    from bot.laws import load_lawbook
    from bot.matching import ChartEntry, build_matcher
    from bot.store import Store, StoreError
    from bot.telegram.app import TelegramFrontEnd, build_application, register_commands
    from bot.terminal import database_path

    charts = load_charts()
    matcher = build_matcher(ChartEntry(c.id, c.title, c.laws, c.keywords) for c in charts.values())
    try:
        store = await Store.open(database_path())
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    app = build_application(token, TelegramFrontEnd(Dialogs(store, charts), load_lawbook(), matcher))
    try:
        async with app:
            await register_commands(app)
            await app.start()
            assert app.updater is not None
            if args.webhook:
                path = urlparse(args.webhook).path.lstrip("/")
                await app.updater.start_webhook(
                    listen=args.listen,
                    port=args.port,
                    url_path=path,
                    webhook_url=args.webhook,
                    secret_token=args.secret_token,
                    drop_pending_updates=False,
                )
                log.info("webhook listening on %s:%s", args.listen, args.port)
            else:
                await app.updater.start_polling(drop_pending_updates=False)
                log.info("long polling started")
            await stop.wait()
            await app.updater.stop()
            await app.stop()
    finally:
        await store.close()
    return 0


def run_telegram(args: argparse.Namespace) -> int:
    token = os.environ.get("TELEGRAM_BOT_TOKEN", "").strip()
    problem = check_options(args, token)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    configure_logging(os.environ.get("BOT_LOG_LEVEL", "INFO").upper())
    try:
        return asyncio.run(serve(args, token))
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
    parser.add_argument("--listen", default="127.0.0.1", help="address the webhook server binds (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8443, help="port of the webhook server (default 8443)")
    parser.add_argument("--secret-token", help="the secret Telegram sends in X-Telegram-Bot-Api-Secret-Token")
    parser.set_defaults(handler=run_telegram)
