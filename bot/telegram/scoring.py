"""Telegram side of the director's arithmetic: /score, /imps, /mp, /adjust and /deal over ``bot.scoring.service``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from telegram import Update
from telegram.ext import CommandHandler, ContextTypes

from bot.scoring import ScoringError, service
from bot.telegram.render import esc

if TYPE_CHECKING:
    from telegram.ext import Application

    from bot.telegram.app import TelegramFrontEnd

COMMANDS = (
    ("score", service.score_text),
    ("imps", service.imps_text),
    ("mp", service.mp_text),
    ("adjust", service.adjust_text),
    ("deal", service.deal_text),
)


class ScoringHandlers:
    """The five commands; each answers with the service's text (monospaced: a table lines up) or its one line."""

    def __init__(self, front: TelegramFrontEnd) -> None:
        self.front = front

    def install(self, app: Application) -> None:  # type: ignore[type-arg]
        for name, compute in COMMANDS:
            app.add_handler(CommandHandler(name, self._handler(compute)))

    def _handler(
        self, compute: Callable[[Sequence[str]], str]
    ) -> Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[None]]:
        async def handle(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            try:
                answer = await asyncio.to_thread(compute, context.args or [])  # a deal is solved for up to a second
                text = f"<pre>{esc(answer)}</pre>"
            except ScoringError as exc:
                text = esc(str(exc))
            await self.front.reply(update, text)

        return handle
