"""The floor under bench_load.py: python-telegram-bot with the bot's own transport, update processor, rate limiter
and event loop, answering the directors' taps with messages of the bot's shape (a description gets one situation
button, a press answers its query and edits in the next question, the third answer closes the question and sends
a ruling) but with nothing of the bot behind them: no matching, charts, record or rendering. What it costs an
update is what any bot on python-telegram-bot and aiohttp costs on this machine.

    python3 bench/bench_load.py --floor          # runs this in place of ``python -m bot telegram``
"""

from __future__ import annotations

import asyncio
import os
import signal

from telegram import Message, Update
from telegram.ext import AIORateLimiter, ApplicationBuilder, CallbackQueryHandler, ContextTypes, MessageHandler, filters

from bot.telegram.app import POOL_SIZE, edit_message, reply_html
from bot.telegram.render import Keyboard, button, keyboard
from bot.telegram.serve import run_event_loop
from bot.telegram.transport import AiohttpRequest
from bot.telegram.updates import PerConversation, answered_first, before_call

QUESTIONS = 3  # answers before the ruling: bench_load's directors make about five updates a ruling with the bot
QUESTION = "<b>Lead out of turn</b> · Law 54\n\nDid declarer's partner or declarer accept the lead? " * 2
RULING = "<b>RULING</b>\n\nThe card led stands; declarer's LHO leads to the next trick. Law 54A. " * 8


def answers(question: int) -> Keyboard:
    return keyboard([[button(label, f"a:{question}:{n}")] for n, label in enumerate(("Yes", "No"))])


async def on_text(update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    situation = keyboard([[button("Lead out of turn (Law 54)", "s:1")]])
    await reply_html(update.effective_message, QUESTION, situation)


async def on_press(update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
    """Sent and edited through the bot's own helpers, with its JSON keyboards, as the bot does."""
    query = update.callback_query
    assert query is not None and isinstance(query.message, Message) and query.data is not None
    await before_call()  # answers the press first, as the bot's deliver() does
    if query.data.startswith("s:"):
        await reply_html(query.message, QUESTION, answers(1))
        return
    asked = int(query.data.split(":")[1])
    if asked < QUESTIONS:
        await edit_message(query.message, QUESTION, answers(asked + 1))
        return
    await asyncio.gather(
        edit_message(query.message, "✅ answered"),
        reply_html(query.message, RULING, keyboard([[button("Share", "rb:1")]])),
    )


async def serve() -> None:
    app = (
        ApplicationBuilder()
        .token(os.environ["TELEGRAM_BOT_TOKEN"])
        .base_url(os.environ["BOT_API_URL"])
        .concurrent_updates(PerConversation())
        .rate_limiter(AIORateLimiter(overall_max_rate=0))
        .request(AiohttpRequest(POOL_SIZE))
        .get_updates_request(AiohttpRequest(1))
        .build()
    )
    app.add_handler(CallbackQueryHandler(answered_first(on_press, lambda call, idempotent: call())))
    app.add_handler(MessageHandler(filters.TEXT, on_text))
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling()
        await stop.wait()
        await app.updater.stop()
        await app.stop()


if __name__ == "__main__":
    run_event_loop(serve())
