"""Telegram side of the director's arithmetic: /score, /imps, /mp, /adjust and /deal over ``bot.scoring.service``;
and a finished ruling's own score (*Score it* under the ruling, or ``/score N 4S= vul defenders``), worked out and
filed by the rulings service.

The contract for a ruling's score is asked with ForceReply: the prompt names the ruling, and the reply to it
carries that name back, so nothing is waiting in memory when the bot restarts.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from telegram import ForceReply, Update
from telegram.ext import CommandHandler, ContextTypes

from bot.dialogs import DialogError
from bot.ids import parse_id
from bot.rulings import BadScore, RulingError, Rulings, score_usage
from bot.scoring import ScoringError, service
from bot.telegram.callbacks import AskScore, Press
from bot.telegram.render import esc
from bot.telegram.replies import answered_prompt

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
SCORE_PROMPT = "Score for ruling {sid}: type {usage}."
_PROMPT = re.compile(r"^Score for ruling (\d+):")


class ScoringHandlers:
    """The five commands; each answers with the service's text (monospaced: a table lines up) or its one line.
    ``/score N …`` and *Score it* score ruling N through the rulings service, which decides who may."""

    def __init__(self, front: TelegramFrontEnd, rulings: Rulings) -> None:
        self.front = front
        self.rulings = rulings

    def install(self, app: Application) -> None:  # type: ignore[type-arg]
        for name, compute in COMMANDS:
            handler = self._ruling_or(self._handler(compute)) if name == "score" else self._handler(compute)
            app.add_handler(CommandHandler(name, handler))

    def press_handlers(self) -> dict[type[Press], Callable[[Update, Any], Awaitable[str | None]]]:
        return {AskScore: self._ask_score}

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

    def _ruling_or(
        self, plain: Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[None]]
    ) -> Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[None]]:
        """``/score N …`` (a ruling's number first) scores that ruling; anything else is plain arithmetic."""

        async def handle(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            args = context.args or []
            if service.ruling_number(args) is None:
                await plain(update, context)
                return
            await self._file(update, args[0], " ".join(args[1:]))

        return handle

    async def _ask_score(self, update: Update, press: AskScore) -> None:
        record = await self.rulings.own(self.front.owner(update), press.session)
        if record.score is None:
            raise RulingError(f"Ruling {press.session} does not end in a score to work out.")
        prompt = SCORE_PROMPT.format(sid=press.session, usage=score_usage(record.score))
        await self.front.reply(update, esc(prompt), ForceReply(selective=True))

    async def on_reply(self, update: Update) -> bool:
        """A reply to a *Score it* prompt; True when it was one. Input that cannot be scored gets its one line
        and the prompt again."""
        answered = answered_prompt(update, _PROMPT)
        if answered is None:
            return False
        message, found = answered
        if await self._file(update, found.group(1), message.text or message.caption or "") is False:
            await self.front.reply(update, esc(found.string), ForceReply(selective=True))
        return True

    async def _file(self, update: Update, number: str, typed: str) -> bool | None:
        """Score ruling ``number`` and say the figure; False when the input could not be scored (to ask again),
        None when the ruling itself cannot be scored by this user."""
        session_id = parse_id(number)
        try:
            if session_id is None:
                raise RulingError(f"There is no ruling {number[:12]}.")
            record, said = await self.rulings.score(self.front.owner(update), session_id, typed)
        except BadScore as exc:
            await self.front.reply(update, esc(str(exc)))
            return False
        except DialogError as exc:
            await self.front.reply(update, esc(str(exc)))
            return None
        await self.front.reply(update, f"Ruling {record.session_id}, filed on its record:\n<pre>{esc(said)}</pre>")
        return True
