"""Cost of one button press through Application.process_update: our handlers (answer stored durably,
reply built and sent to a fake Bot API) against a bare PTB handler that only echoes, in the same run.

Prints presses per second for both and the ratio (target ≤ 2× the bare handler, ≥ 1,000 presses/s).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fake_telegram import TOKEN, FakeBotAPI, callback_update
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, ContextTypes

from bot.dialogs import Dialogs, read_charts
from bot.laws import load_lawbook
from bot.matching import ChartEntry, build_matcher
from bot.store import Store
from bot.telegram.app import TelegramFrontEnd, build_application

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "dialogs"
PRESSES = 3000


async def bare(edit: bool) -> float:
    """A bare handler: answer the press (and, with ``edit``, echo it by editing the message in place)."""
    api = FakeBotAPI()
    app = ApplicationBuilder().token(TOKEN).request(api).get_updates_request(api).build()
    keyboard = InlineKeyboardMarkup(
        [[InlineKeyboardButton(f"option {i}", callback_data=f"a:1:0:{i}")] for i in range(2)]
    )

    async def echo(update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        if edit and isinstance(query.message, Message):
            await query.message.edit_text(f"<b>pressed</b> {query.data}", parse_mode="HTML", reply_markup=keyboard)
        await query.answer()

    app.add_handler(CallbackQueryHandler(echo))
    await app.initialize()
    started = time.perf_counter()
    for n in range(PRESSES):
        await app.process_update(Update.de_json(callback_update(n, 1, "x"), app.bot))
    elapsed = time.perf_counter() - started
    await app.shutdown()
    return PRESSES / elapsed


async def ours(directory: Path) -> float:
    api = FakeBotAPI()
    charts = read_charts(FIXTURES)
    store = await Store.open(directory / "bench.sqlite3")
    dialogs = Dialogs(store, charts)
    matcher = build_matcher(ChartEntry(c.id, c.title, c.laws, c.keywords) for c in charts.values())
    app = build_application(TOKEN, TelegramFrontEnd(dialogs, load_lawbook(), matcher), request=api)
    await app.initialize()
    # Each press answers the first question of a fresh session ("who exposed a card? → RHO"): a stored event
    # and an edited message, like a director's tap.
    sessions = [await dialogs.start(f"tg:{n}", "demo-main") for n in range(PRESSES)]
    started = time.perf_counter()
    for n, screen in enumerate(sessions):
        data = f"a:{screen.session_id}:0:1"
        await app.process_update(Update.de_json(callback_update(n, n, data), app.bot))
    elapsed = time.perf_counter() - started
    assert len(await store.events(sessions[-1].session_id)) == 2
    await app.shutdown()
    await store.close()
    return PRESSES / elapsed


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        answer_only = asyncio.run(bare(edit=False))
        echo_edit = asyncio.run(bare(edit=True))
        full = asyncio.run(ours(Path(directory)))
    print(f"bare PTB handler, answer only      : {answer_only:7.0f} presses/s ({1000 / answer_only:.3f} ms each)")
    print(f"bare PTB handler, echo by editing  : {echo_edit:7.0f} presses/s ({1000 / echo_edit:.3f} ms each)")
    print(f"our handlers (stored, edited)      : {full:7.0f} presses/s ({1000 / full:.3f} ms each)")
    print(
        f"ratio vs answer-only: {answer_only / full:.2f}×; vs echo-by-edit: {echo_edit / full:.2f}× "
        "(target ≤ 2×; ≥ 1,000 presses/s)"
    )


if __name__ == "__main__":
    main()
