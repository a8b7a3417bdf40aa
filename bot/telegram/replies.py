"""A shared-step ``Reply`` on Telegram: its text as HTML, one inline button per offer.

An offer's button data is written and read only here (``encode_offer`` / ``decode_offer``): ``o:<act>:<key>``,
e.g. ``o:c:revoke`` (start the revoke chart), ``o:q:play.revoke`` (a triage branch), ``o:t:c:revoke`` (a
summary). The data names what the offer leads to, never a position, so it works after a restart; data
that no longer leads anywhere gets one calm notice and changes nothing.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.answers import Act, Kind, Offer, Reply
from bot.telegram.render import BUTTON_LABEL_LIMIT, esc, split_message

OFFER_PREFIX = "o"
DATA_LIMIT = 64  # bytes of callback data Telegram keeps
_LETTERS = {
    Act.CHART: "c",
    Act.LAW: "l",
    Act.TOPIC: "t",
    Act.RELATED: "r",
    Act.TRIAGE: "q",
    Act.NONE: "n",
}
_ACTS = {letter: act for act, letter in _LETTERS.items()}
_TITLED = (Kind.SUMMARY, Kind.DEFINE)  # replies whose first line is a heading


def encode_offer(offer: Offer) -> str:
    """The button data of an offer; ValueError when it would not fit Telegram's 64 bytes."""
    data = f"{OFFER_PREFIX}:{_LETTERS[offer.act]}:{offer.key}"
    if len(data.encode()) > DATA_LIMIT:
        raise ValueError(f"button data longer than {DATA_LIMIT} bytes: {data!r}")
    return data


def decode_offer(data: str) -> tuple[Act, str] | None:
    """What a pressed offer asks for; None for data that is not an offer's."""
    prefix, _, rest = data.partition(":")
    letter, _, key = rest.partition(":")
    act = _ACTS.get(letter)
    if prefix != OFFER_PREFIX or act is None:
        return None
    return act, key


def reply_parts(reply: Reply) -> list[str]:
    """The reply's text as HTML messages within Telegram's limits: a law as printed, a summary or an entry
    under its heading in bold, anything else as plain text."""
    if reply.kind is Kind.LAW:
        return [f"<pre>{esc(part)}</pre>" for part in split_message(reply.text, 4000)]
    if reply.kind in _TITLED:
        title, _, rest = reply.text.partition("\n")
        return split_message(f"<b>{esc(title)}</b>\n{esc(rest)}")
    return split_message(esc(reply.text))


def reply_keyboard(reply: Reply) -> InlineKeyboardMarkup | None:
    """One button per offer, one per row, in the reply's order."""
    rows = [[InlineKeyboardButton(_fit(offer.label), callback_data=encode_offer(offer))] for offer in reply.offers]
    return InlineKeyboardMarkup(rows) if rows else None


def _fit(label: str) -> str:
    return label if len(label) <= BUTTON_LABEL_LIMIT else label[: BUTTON_LABEL_LIMIT - 1] + "…"
