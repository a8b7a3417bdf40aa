"""A question, park, ruling or record as plain text for the terminal."""

from __future__ import annotations

from bot.dialogs import Screen
from bot.dialogs.render import answer_words, called_back_line, description_line, kept_line, settings_line
from bot.laws import LawBook
from bot.laws.text import format_passage
from bot.rulings import RulingRecord, score_usage


def screen_text(book: LawBook, screen: Screen) -> str:
    """A question, park or final ruling as plain text, after what the notes passed on the way say."""
    if screen.finished:
        return ruling_text(book, screen)
    lines = [f"[{screen.chart_title} · session {screen.session_id} · answer {screen.step + 1}]"]
    lines += [f"» {note}" for note in screen.notes]
    if screen.kind == "park":
        lines.append("PARKED — " + screen.text)
        if screen.after:
            if screen.after.from_description:
                lines.append(description_line(screen.after.from_description))
            lines.append(called_back_line(screen.after.text))
    else:
        lines.append(screen.text)
    if screen.from_settings:
        lines.insert(1, settings_line(screen.from_settings, "type 'history', then 'change N' to correct one"))
    if screen.from_description:
        lines.insert(1, description_line(screen.from_description, "type 'history', then 'change N' to correct one"))
    if screen.kept:
        lines.insert(1, kept_line(screen.kept_answers, "type 'change N' to answer one again"))
    if screen.regulation:
        lines.append(f"  [{screen.regulation}]")
    lines += [f"  Poll: {result}" for result in screen.polled]
    if screen.poll:
        lines.append("  (type 'poll HAND | AUCTION | CALL, CALL' to poll players)")
    if screen.help:
        lines.append(f"  ({screen.help})")
    if screen.reference:
        lines.append(f"  {screen.reference} (type 'more' for the text)")
    for number, choice in enumerate(screen.options, start=1):
        lines.append(f"  {number}. {choice.label}")
    return "\n".join(lines)


def ruling_text(book: LawBook, screen: Screen) -> str:
    """The final ruling: outcome, every law section it relies on (quoted), and the path that led there."""
    lines = [f"RULING — {screen.chart_title} (session {screen.session_id})", ""]
    if screen.kept:
        lines += [kept_line(screen.kept_answers, "type 'change N' to answer one again"), ""]
    lines += [f"{mark} {text}" for mark, text in screen.read_aloud]
    lines += [f"(for you, not to read aloud) {text}" for text in screen.aside]
    if screen.score:
        usage = score_usage(screen.score)
        lines += ["", f"Score it: type score {screen.session_id} followed, on the same line, by {usage}"]
    lines += ["", "Laws applied:"]
    for ref in screen.laws:
        passage = book.passage(ref)
        if passage is not None:
            lines.append(format_passage(book, passage))
    if screen.path:
        lines.append("How we got here:")
        lines += [f"  {n}. {a.question} → {answer_words(a)}" for n, a in enumerate(screen.path, start=1)]
    if screen.second is not None:  # the story's other incident, chosen by typing 1
        lines += ["", f"  1. {screen.second.label}"]
    return "\n".join(lines).rstrip()


DETAILS = {
    "board": "board number",
    "table": "table",
    "offender": "offender's seat",
    "non_offenders": "non-offending side",
    "event": "event's name",
}


EXAMPLES = {
    "board": "board 12",
    "table": "table 4",
    "offender": "offender S",
    "non_offenders": "side EW",
    "event": "event Tuesday pairs",
}


def details(record: RulingRecord) -> str:
    """The record's details a director entered (the note aside), on one line."""
    return " · ".join(f"{label} {record.annotations[key]}" for key, label in _SHOWN if key in record.annotations)


_SHOWN = (
    ("event", "event"),
    ("board", "board"),
    ("table", "table"),
    ("offender", "offender"),
    ("non_offenders", "non-offending side"),
)
