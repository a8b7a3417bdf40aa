"""The read–reply loop around ``TerminalChat``: ``python -m bot`` with no command."""

from __future__ import annotations

import asyncio
import getpass
import sys

from bot.config import load_config
from bot.dialogs import Dialogs, load_charts
from bot.laws import load_lawbook
from bot.matching import build_matcher, chart_entries
from bot.store import Store, StoreError
from bot.terminal.chat import TerminalChat


async def _chat_loop() -> int:
    book, charts = load_lawbook(), load_charts()
    try:
        store = await Store.open(load_config().database)
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    matcher = build_matcher(chart_entries(), background=True)
    chat = TerminalChat(Dialogs(store, charts), book, f"terminal:{getpass.getuser()}", matcher)
    print("The tournament director's companion — Laws of Duplicate Bridge 2017.")
    print("Describe what happened, or type 'charts', 'law 27', 'help'.", flush=True)
    try:
        while not chat.finished:
            try:
                line = await asyncio.to_thread(input, "> ")
            except EOFError:
                break
            await asyncio.to_thread(matcher.learned.wait)  # read while the director typed; the same answers
            reply = await chat.handle(line)
            if reply:
                print(reply, flush=True)
    finally:
        await store.close()
    return 0


def run_terminal() -> int:
    return asyncio.run(_chat_loop())
