"""Cost of one button press through Application.process_update: our handlers (answer stored durably,
reply built and sent to a fake Bot API) against bare PTB handlers, in the same run.

Every variant times the same thing per press: decoding the update and ``process_update``. The variants run
interleaved, a block of presses each in turn, so a busy machine slows them alike and the ratios hold. Ours is
measured twice: a tap on a session just shown (its row and log are in the store's memory, so the press is
one round trip to the database thread) and a tap on a session read from disk (after a restart, or once
2,048 other sessions were used since: a read round trip first). The fair baseline is the bare handler that
answers the press and edits the message in place ("echo"); targets: ≤ 2× echo and ≥ 1,000 presses/s on one
core, so the process (its event loop and aiosqlite's thread alike) is pinned to one CPU; ``--all-cores``
lifts that.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fake_telegram import TOKEN, FakeBotAPI, callback_update
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.ext import Application, ApplicationBuilder, CallbackQueryHandler, ContextTypes

from bot.dialogs import Dialogs, Screen, read_charts
from bot.laws import load_lawbook
from bot.matching import build_matcher, chart_entries
from bot.store import RECENT_SESSIONS, Store
from bot.telegram.app import TelegramFrontEnd, build_application, tune_collector
from bot.telegram.callbacks import Answer

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "dialogs"
PRESSES = 3000
BLOCK = 100  # presses of one variant before the next takes its turn
assert PRESSES > RECENT_SESSIONS  # the cold run's sessions must have left the store's memory


class Bare:
    """A bare handler: answer the press and, with ``edit``, echo it by editing the message in place — with a
    short text and two fixed buttons, or with ``message``, the text and keyboard of an edit of ours (its
    buttons built on every press, as ours are)."""

    def __init__(self, edit: bool, message: dict[str, Any] | None = None) -> None:
        self.api = FakeBotAPI()
        self.app = ApplicationBuilder().token(TOKEN).request(self.api).get_updates_request(self.api).build()
        self.app.add_handler(CallbackQueryHandler(self.echo))
        self.edit = edit
        self.message = message
        self.keyboard = InlineKeyboardMarkup(
            [[InlineKeyboardButton(f"option {i}", callback_data=f"a:1:0:{i}")] for i in range(2)]
        )

    async def echo(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        if self.edit and isinstance(query.message, Message):
            if self.message is None:
                await query.message.edit_text(
                    f"<b>pressed</b> {query.data}", parse_mode="HTML", reply_markup=self.keyboard
                )
            else:
                rows = self.message["reply_markup"]["inline_keyboard"]
                keyboard = InlineKeyboardMarkup(
                    [[InlineKeyboardButton(b["text"], callback_data=b["callback_data"]) for b in row] for row in rows]
                )
                await query.message.edit_text(self.message["text"], parse_mode="HTML", reply_markup=keyboard)
        await query.answer()

    async def setup(self) -> None:
        await self.app.initialize()

    async def press(self, n: int) -> float:
        return await _press(self.app, n, 1, "x")

    async def close(self) -> None:
        await self.app.shutdown()


class Ours:
    """Our application over a real SQLite file; each press answers the first question of a fresh session
    ("who exposed a card? → RHO"): a stored event and an edited message, like a director's tap."""

    def __init__(self, database: Path, cold: bool) -> None:
        self.api = FakeBotAPI()
        self.database = database
        self.cold = cold
        self.sessions: list[Screen] = []

    async def setup(self) -> None:
        charts = read_charts(FIXTURES)
        self.store = await Store.open(self.database)
        self.dialogs = Dialogs(self.store, charts)
        matcher = build_matcher(chart_entries(charts))
        front = TelegramFrontEnd(self.dialogs, load_lawbook(), matcher)
        self.app = build_application(TOKEN, front, request=self.api, max_rate=0)  # a press's cost, not Telegram's limit
        await self.app.initialize()
        if self.cold:  # every session first: each press then finds its session pushed out of memory by later ones
            self.sessions = [await self.dialogs.start(f"tg:{n}", "demo-main") for n in range(PRESSES)]

    async def press(self, n: int) -> float:
        screen = self.sessions[n] if self.cold else await self.dialogs.start(f"tg:{n}", "demo-main")
        return await _press(self.app, n, n, Answer(screen.session_id, 0, screen.question, 1).encode())

    async def close(self) -> None:
        await self.app.shutdown()
        await self.store.close()
        with sqlite3.connect(self.database) as check:  # every press stored, as another process sees the file
            assert check.execute("SELECT count(*) FROM events WHERE kind = 'answer'").fetchone()[0] == PRESSES
        edits = self.api.sent("editMessageText")
        assert len(edits) == PRESSES and all("stays face up" in c.params["text"] for c in edits)
        assert not [c for c in self.api.sent("answerCallbackQuery") if c.params.get("text")]  # no stale notice

    def last_edit(self) -> dict[str, Any]:
        return self.api.sent("editMessageText")[-1].params


async def _press(app: Application, n: int, user: int, data: str) -> float:
    """Seconds to decode one press and process it."""
    started = time.perf_counter()
    await app.process_update(Update.de_json(callback_update(n, user, data), app.bot))
    return time.perf_counter() - started


async def measure(directory: Path) -> dict[str, float]:
    """Presses per second of each variant, interleaved block by block."""
    sample = Ours(directory / "sample.sqlite3", cold=False)  # one press of ours: the message it edits in
    await sample.setup()
    await sample.press(0)
    await sample.app.shutdown()
    await sample.store.close()
    variants: dict[str, Bare | Ours] = {
        "answer": Bare(edit=False),
        "echo": Bare(edit=True),
        "same": Bare(edit=True, message=sample.last_edit()),
        "warm": Ours(directory / "warm.sqlite3", cold=False),
        "cold": Ours(directory / "cold.sqlite3", cold=True),
    }
    for variant in variants.values():
        await variant.setup()
    tune_collector()  # as the bot does before serving
    elapsed = dict.fromkeys(variants, 0.0)
    for start in range(0, PRESSES, BLOCK):
        for name, variant in variants.items():
            for n in range(start, min(start + BLOCK, PRESSES)):
                elapsed[name] += await variant.press(n)
    for variant in variants.values():
        await variant.close()
    return {name: PRESSES / seconds for name, seconds in elapsed.items()}


def _line(name: str, rate: float) -> str:
    return f"{name:58s}: {rate:7.0f} presses/s ({1000 / rate:.3f} ms each)"


def main() -> None:
    parser = argparse.ArgumentParser(description="Cost of one button press: ours against bare PTB handlers.")
    parser.add_argument("--all-cores", action="store_true", help="do not pin the process to one CPU")
    cores = os.sched_getaffinity(0)
    if not parser.parse_args().all_cores:
        os.sched_setaffinity(0, {max(cores)})  # before any thread starts: aiosqlite's threads inherit it
    print(f"CPUs used: {sorted(os.sched_getaffinity(0))} of {sorted(cores)}")
    with tempfile.TemporaryDirectory() as directory:
        rates = asyncio.run(measure(Path(directory)))
    print(_line("bare PTB handler, answer only", rates["answer"]))
    print(_line("bare PTB handler, echo by editing (the fair baseline)", rates["echo"]))
    print(_line("bare PTB handler, editing in our message and keyboard", rates["same"]))
    print(_line("ours, session in memory (a tap on the question just shown)", rates["warm"]))
    print(_line("ours, session read from disk (after a restart)", rates["cold"]))
    warm, cold = rates["warm"], rates["cold"]
    print(
        f"ratio vs echo: {rates['echo'] / warm:.2f}× in memory, {rates['echo'] / cold:.2f}× from disk; "
        f"vs answer-only: {rates['answer'] / warm:.2f}×, {rates['answer'] / cold:.2f}×; "
        f"vs our message bare: {rates['same'] / warm:.2f}×, {rates['same'] / cold:.2f}× "
        "(targets: ≤ 2× echo, ≥ 1,000 presses/s)"
    )


if __name__ == "__main__":
    main()
