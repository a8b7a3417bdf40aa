"""Telegram side of answers for players: summaries first, /define, and the player/director setting.

A question ("what happens after a lead out of turn?") gets the players' summary with three buttons —
Walk me through it (the director's chart), Show the law, Related — and an incident still gets the
situations to rule on. Buttons carry a topic token (``c:<chart>`` or ``l:<law>``), so they work after a
restart and an unknown or forged token changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.answers import MODE_KEY, MODES, Answers, Reading, Topic
from bot.laws.glossary import Term
from bot.laws.text import ref_label
from bot.telegram.render import esc
from bot.telegram.updates import answer_now

if TYPE_CHECKING:
    from bot.telegram.app import TelegramFrontEnd

MODE_LABELS = {
    "auto": "By how I ask (questions: summary · incidents: chart)",
    "player": "Player: always the summary first",
    "director": "Director: always the chart first",
}


def topic_html(topic: Topic) -> str:
    """The summary: its title, then each sentence with the sections it rests on, for reading aloud."""
    lines = [f"📖 <b>{esc(topic.title)}</b> — in plain words", ""]
    lines += [f"{esc(text)} <i>({esc(laws)})</i>" for text, laws in topic.summary.cited()]
    return "\n".join(lines)


def topic_keyboard(topic: Topic, related: bool) -> InlineKeyboardMarkup:
    rows = []
    if topic.chart is not None:
        rows.append([InlineKeyboardButton("🧭 Walk me through it", callback_data=f"s:{topic.chart}")])
    row = [InlineKeyboardButton(f"📜 Show the law ({topic.law})", callback_data=f"l:{topic.law}")]
    if related:
        row.append(InlineKeyboardButton("🔗 Related", callback_data=f"y:{topic.token}"))
    rows.append(row)
    return InlineKeyboardMarkup(rows)


def term_html(term: Term) -> str:
    """A glossary entry: the Definition as printed in the Laws, then plain words, each cited."""
    lines = [f"📘 <b>{esc(term.term)}</b>"]
    if term.definition is not None:
        lines.append(f"<i>Definition (Laws 2017):</i> {esc(term.definition.text)}")
    if term.explain is not None:
        lines += ["", *(f"{esc(text)} <i>({esc(laws)})</i>" for text, laws in term.explain.cited())]
    return "\n".join(lines)


class PlayerHandlers:
    """Buttons and commands for players' answers, on top of the front end's delivery helpers."""

    def __init__(self, front: TelegramFrontEnd, answers: Answers) -> None:
        self.front = front
        self.answers = answers

    def press_handlers(self) -> dict[str, Callable[[Update, list[str]], Awaitable[str | None]]]:
        return {"p": self._press_topic, "y": self._press_related, "g": self._press_mode}

    async def mode(self, update: Update) -> str:
        return await self.front.dialogs.store.setting(self.front.owner(update), MODE_KEY) or "auto"

    async def reply(self, update: Update, reading: Reading) -> bool:
        """Answer a reading that is for players (a definition or a summary); False leaves it to the caller."""
        if reading.term is not None:
            await self.send_term(update, reading.term)
            return True
        if reading.topic is not None:
            await self.send_topic(update, reading.topic)
            return True
        return False

    async def send_topic(self, update: Update, topic: Topic) -> None:
        related = bool(self.answers.related(topic))
        await self.front._reply(update, topic_html(topic), topic_keyboard(topic, related))

    async def send_term(self, update: Update, term: Term) -> None:
        rows = [
            [InlineKeyboardButton(ref_label(self.front.book, ref)[:60], callback_data=f"l:{ref}")]
            for ref in term.related
        ]
        await self.front._reply(update, term_html(term), InlineKeyboardMarkup(rows) if rows else None)

    async def on_define(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        asked = " ".join(context.args or []).strip()
        if not asked:
            await self.front._reply(update, "Which term? For example <code>/define penalty card</code>.")
            return
        term = self.answers.glossary.lookup(asked)
        if term is None:
            near = self.answers.glossary.suggest(asked)
            hint = f" Did you mean: {esc(', '.join(near))}?" if near else " /law definitions lists the defined terms."
            await self.front._reply(update, f"I have no entry for “{esc(asked[:60])}”.{hint}")
            return
        await self.send_term(update, term)

    async def on_settings(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.front._reply(update, *self._settings(await self.mode(update)))

    @staticmethod
    def _settings(mode: str) -> tuple[str, InlineKeyboardMarkup]:
        rows = [
            [InlineKeyboardButton(("✅ " if m == mode else "") + MODE_LABELS[m], callback_data=f"g:{m}")] for m in MODES
        ]
        text = "How should I answer what you type? (Any incident can still be walked through from a summary.)"
        return text, InlineKeyboardMarkup(rows)

    async def _press_topic(self, update: Update, args: list[str]) -> str | None:
        topic = self.answers.topic(":".join(args))
        if topic is None:
            return "That summary is no longer available."
        await self.send_topic(update, topic)
        return None

    async def _press_related(self, update: Update, args: list[str]) -> str | None:
        topic = self.answers.topic(":".join(args))
        if topic is None:
            return "That summary is no longer available."
        related = self.answers.related(topic)
        if not related:
            return "Nothing related to show."
        rows = [[InlineKeyboardButton(other.title[:60], callback_data=f"p:{other.token}")] for other in related]
        await self.front._reply(update, f"Related to <b>{esc(topic.title)}</b>:", InlineKeyboardMarkup(rows))
        return None

    async def _press_mode(self, update: Update, args: list[str]) -> str | None:
        (mode,) = args
        if mode not in MODES:
            return "That setting does not exist."
        await self.front.dialogs.store.set_setting(self.front.owner(update), MODE_KEY, mode)
        notice = f"Saved: {MODE_LABELS[mode]}"
        answer_now(notice)
        message = self.front._message(update)
        if message is not None:
            await self.front._edit(message, *self._settings(mode))
        return notice
