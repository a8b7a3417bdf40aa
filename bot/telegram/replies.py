"""A shared-step ``Reply`` on Telegram: its text as HTML, one inline button per offer.

An offer's button data is a ``FollowOffer`` (bot.telegram.callbacks): what the offer leads to, never a position,
so it works after a restart; data that no longer leads anywhere gets one calm notice and changes nothing.
"""

from __future__ import annotations

import re

from telegram import Message, Update

from bot.answers import Kind, Reply
from bot.telegram.callbacks import FollowOffer
from bot.telegram.render import Keyboard, button, esc, fit_label, keyboard, split_message

_TITLED = (Kind.SUMMARY, Kind.DEFINE)  # replies whose first line is a heading


def reply_parts(reply: Reply) -> list[str]:
    """The reply's text as HTML messages within Telegram's limits: a law as printed, a summary or an entry
    under its heading in bold, anything else as plain text."""
    if reply.kind is Kind.LAW:
        return [f"<pre>{esc(part)}</pre>" for part in split_message(reply.text, 4000)]
    if reply.kind in _TITLED:
        title, _, rest = reply.text.partition("\n")
        return split_message(f"<b>{esc(title)}</b>\n{esc(rest)}")
    return split_message(esc(reply.text))


def reply_keyboard(reply: Reply) -> Keyboard | None:
    """One button per offer, one per row, in the reply's order."""
    rows = [[button(fit_label(offer.label), FollowOffer.of(offer).encode())] for offer in reply.offers]
    return keyboard(rows) if rows else None


def answered_prompt(update: Update, prompt: re.Pattern[str]) -> tuple[Message, re.Match[str]] | None:
    """The message that answers one of the bot's own prompts of the form ``prompt`` (a note, a poll's step, a
    score: asked with ForceReply), and that prompt's match; None for any other message."""
    message = update.effective_message
    asked = message.reply_to_message if message else None
    if message is None or asked is None or not (asked.from_user and asked.from_user.is_bot):
        return None
    found = prompt.match(asked.text or "")
    return (message, found) if found else None
