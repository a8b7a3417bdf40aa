"""Screens as Telegram messages: HTML text within the 4,096-character limit and compact inline keyboards.

Button data (bot.telegram.callbacks) names the session, the step and the question it was shown at, so a
press is checked against where the session stands now; an option travels as its index at that step.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from telegram import ForceReply, InlineKeyboardMarkup

from bot.dialogs import Screen
from bot.dialogs.render import answer_words, called_back_line, description_line, kept_line, settings_line
from bot.laws import LawBook
from bot.laws.text import quoted
from bot.rulings import score_usage
from bot.telegram.callbacks import Answer, Back, Change, ChangeMenu, ChangeWhich, Keep, LawText, PollPlayers, Restart

MESSAGE_LIMIT = 4096
BUTTON_LABEL_LIMIT = 60

Keyboard = dict[str, Any]  # an inline keyboard as the Bot API's JSON: {"inline_keyboard": [[button, …], …]}
Markup = Keyboard | InlineKeyboardMarkup | ForceReply  # what a message of ours may carry under it


def button(label: str, data: str) -> dict[str, str]:
    """An inline button as the Bot API's JSON. The keyboards built on every press are JSON, not PTB's
    ``InlineKeyboardButton``s: building those and turning them back into JSON took a hundred times as long
    (0.3 ms for a question's keyboard on a busy machine, against 3 µs)."""
    return {"text": label, "callback_data": data}


def keyboard(rows: list[list[dict[str, str]]]) -> Keyboard:
    return {"inline_keyboard": rows}


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def fit_label(text: str) -> str:
    """A button's label cut to what a phone shows whole."""
    return text if len(text) <= BUTTON_LABEL_LIMIT else text[: BUTTON_LABEL_LIMIT - 1] + "…"


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split at line breaks so no part exceeds Telegram's limit (a very long line is cut hard); empty lines at
    the start are dropped. A text within the limit is one part as it stands: a ruling's parts, split here once,
    go through here again as each is sent."""
    if len(text) <= limit and not text.startswith("\n"):
        return [text]
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            parts.append(current)
            current = line
        else:
            current = candidate
    if current:
        parts.append(current)
    return parts or [""]


def question_html(screen: Screen) -> str:
    """What the notes passed say, the question, its help and one line of law references; the law text is
    behind a button."""
    lines = [f"<b>{esc(screen.chart_title)}</b> · answer {screen.step + 1}"]
    lines += [f"» {esc(note)}" for note in screen.notes]
    if screen.kind == "park":
        lines.append("⏸ <b>Parked.</b> " + esc(screen.text))
        if screen.after:
            if screen.after.from_description:
                lines.append(f"<i>{esc(description_line(screen.after.from_description))}</i>")
            lines.append("▶ " + esc(called_back_line(screen.after.text)))
    else:
        lines.append(esc(screen.text))
    if screen.from_settings:
        lines.insert(1, f"<i>🏛 {esc(settings_line(screen.from_settings, '✎ Change an answer'))}</i>")
    if screen.from_description:
        lines.insert(1, f"<i>{esc(description_line(screen.from_description, '✎ Change an answer'))}</i>")
    if screen.kept:
        lines.insert(1, f"<i>{esc(kept_line(screen.kept_answers, '✎ Change an answer'))}</i>")
    if screen.regulation:
        lines.append(f"🏛 {esc(screen.regulation)}")
    lines += [f"📊 <b>Poll:</b> {esc(result)}" for result in screen.polled]
    if screen.help:
        lines.append(f"<i>{esc(screen.help)}</i>")
    if screen.reference:
        lines.append(f"📖 <i>{esc(screen.reference)}</i>")
    return "\n".join(lines)


def question_keyboard(screen: Screen) -> Keyboard:
    at = (screen.session_id, screen.step, screen.question)
    rows = [
        [button(fit_label(choice.label), Answer(*at, index).encode())] for index, choice in enumerate(screen.options)
    ]
    navigation = []
    if screen.step > 0:
        navigation.append(button("⬅ Back", Back(*at).encode()))
    navigation.append(button("↺ Restart", Restart(*at).encode()))
    if screen.step > 0:
        navigation.append(button("✎ Change an answer", ChangeMenu(*at).encode()))
    rows.append(navigation)
    if screen.laws:
        rows.append([button("📖 Law text", LawText(*at).encode())])
    if screen.poll:
        rows.append([button("📊 Poll players", PollPlayers(*at).encode())])
    return keyboard(rows)


def ruling_html(book: LawBook, screen: Screen, seats: str = "") -> list[str]:
    """The final ruling as one or more messages: who is who at the table (``seats_line``, when the record has
    the seats), outcome, quoted laws, the path."""
    lines = [f"⚖️ <b>Ruling — {esc(screen.chart_title)}</b>", ""]
    if seats:  # read first: the roles the ruling names, as seats at this table
        lines += [esc(seats), ""]
    if screen.kept:
        lines += [f"<i>{esc(kept_line(screen.kept_answers, '↩ Reopen to answer one again'))}</i>", ""]
    lines += [f"{mark} {esc(text)}" for mark, text in screen.read_aloud]
    lines += [f"<i>For you, not to read aloud: {esc(text)}</i>" for text in screen.aside]
    if screen.score:
        lines += ["", f"🧮 <i>To work out the score, tap Score it and type {esc(score_usage(screen.score))}.</i>"]
    lines += ["", "<b>Laws applied</b>"]
    lines += [f"<pre>{esc(text)}</pre>" for ref in screen.laws if (text := quoted(book, ref)) is not None]
    if screen.path:
        lines += ["", "<b>How we got here</b>"]
        lines += [f"{n}. {esc(a.question)} → <i>{esc(answer_words(a))}</i>" for n, a in enumerate(screen.path, start=1)]
    lines += ["", f"<i>Session {screen.session_id}. /history lists your rulings.</i>"]
    return _split_html("\n".join(lines))


def laws_html(book: LawBook, refs: Sequence[str]) -> list[str]:
    """The full text of some sections, as messages within the limit."""
    blocks = [f"<pre>{esc(text)}</pre>" for ref in refs if (text := quoted(book, ref)) is not None]
    return _split_html("\n".join(blocks) or "No law text for this step.")


def _split_html(text: str) -> list[str]:
    """Split HTML text, closing and reopening a <pre> block that a split would cut in two."""
    parts = split_message(text, MESSAGE_LIMIT - 20)
    fixed: list[str] = []
    carry = False
    for part in parts:
        if carry:
            part = "<pre>" + part
        opened = part.count("<pre>") > part.count("</pre>")
        if opened:
            part += "</pre>"
        carry = opened
        fixed.append(part)
    return fixed


def change_keyboard(screen: Screen) -> Keyboard:
    """One button per earlier answer: pick which one to change."""
    sid = screen.session_id
    rows = [
        [button(fit_label(f"{n}. {a.question} → {answer_words(a)}"), ChangeWhich(sid, n).encode())]
        for n, a in enumerate(screen.path, start=1)
    ]
    keep = Keep(sid, screen.step, screen.question).encode()
    rows.append([button("✖ Keep my answers", keep)])
    return keyboard(rows)


def reopen_keyboard(screen: Screen, number: int, now: Screen) -> Keyboard:
    """The options of an earlier question, each changing answer ``number`` while the session is at ``now``."""
    sid = screen.session_id
    rows = [
        [button(fit_label(choice.label), Change(sid, now.step, number, screen.question, index).encode())]
        for index, choice in enumerate(screen.options)
    ]
    keep = Keep(sid, now.step, now.question).encode()
    rows.append([button("✖ Keep my answers", keep)])
    return keyboard(rows)
