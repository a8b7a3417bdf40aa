"""Telegram side of answers for players: /define and the player/director setting.

What a typed question or a definition shows comes from the shared step (``bot.answers.replies``) and is
rendered like any other reply; this holds only the commands and the setting's own buttons.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.answers import MODE_KEY, MODES
from bot.telegram.callbacks import Mode, Press
from bot.telegram.updates import answer_now

if TYPE_CHECKING:
    from bot.telegram.app import TelegramFrontEnd

MODE_LABELS = {
    "auto": "By how I ask (questions: summary · incidents: chart)",
    "player": "Player: always the summary first",
    "director": "Director: always the chart first",
}


class PlayerHandlers:
    """/define, /settings and the setting's buttons, on top of the front end's delivery helpers."""

    def __init__(self, front: TelegramFrontEnd) -> None:
        self.front = front

    def press_handlers(self) -> dict[type[Press], Callable[[Update, Any], Awaitable[str | None]]]:
        return {Mode: self._press_mode}

    async def mode(self, update: Update) -> str:
        return await self.front.dialogs.store.setting(self.front.owner(update), MODE_KEY) or "auto"

    async def on_define(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.front.send_reply(update, self.front.replies.define(" ".join(context.args or [])))

    async def on_settings(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.front.reply(update, *self._settings(await self.mode(update)))

    @staticmethod
    def _settings(mode: str) -> tuple[str, InlineKeyboardMarkup]:
        rows = [
            [InlineKeyboardButton(("✅ " if m == mode else "") + MODE_LABELS[m], callback_data=Mode(m).encode())]
            for m in MODES
        ]
        text = "How should I answer what you type? (Any incident can still be walked through from a summary.)"
        return text, InlineKeyboardMarkup(rows)

    async def _press_mode(self, update: Update, press: Mode) -> str | None:
        mode = press.mode
        if mode not in MODES:
            return "That setting does not exist."
        chosen = await self.mode(update)
        await self.front.dialogs.store.set_setting(self.front.owner(update), MODE_KEY, mode)
        notice = f"Saved: {MODE_LABELS[mode]}"
        answer_now(notice)  # ahead of the edit
        message = self.front.pressed_message(update)
        if message is not None and mode != chosen:  # the same mode again: Telegram would refuse, "not modified"
            await self.front.edit(message, *self._settings(mode))
        return notice
