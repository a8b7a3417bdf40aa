"""A ruling record as plain text, Markdown, or a self-contained HTML page readable on a phone and printable.

Whatever a person typed (notes, event and club names, appeal reasons, decision texts, names) is shown so it
cannot pass for the record's own structure: a short field stays on its one line, free text is a quoted block,
and in Markdown and HTML its markup is escaped. Chart and law texts are the project's own data.
"""

from __future__ import annotations

import html
import re
import time
import unicodedata
from collections.abc import Callable

from bot.dialogs.render import answer_words, seats_line
from bot.laws import LawBook
from bot.laws.text import format_passage
from bot.rulings import Decision, RulingRecord

FORMATS = ("text", "markdown", "html")


# Bidirectional overrides and isolates could make quoted text read as something else.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Markdown that means something anywhere in a line, and what means something at its start.
_MD_INLINE = re.compile(r"[\\`*_{}\[\]()#!|~^$]|(?<=\d)\.")
_MD_LINE_START = re.compile(r"^[-+=]")


def _lines(text: str) -> list[str]:
    """A person's text as lines, without control characters or bidirectional overrides (any line break counts)."""
    return [
        "".join(
            " " if c == "\t" else c for c in line if c not in _BIDI and (c == "\t" or unicodedata.category(c) != "Cc")
        ).strip()
        for line in str(text).splitlines()
    ]


def _one_line(text: str) -> str:
    """A short field (a name, an event) on the line that labels it, whatever line breaks it held."""
    return " ".join(line for line in _lines(text) if line) or "—"


def _quoted(text: str, prefix: str) -> list[str]:
    """Free text as a quoted block: every line behind ``prefix``, so none can start a line of the record."""
    return [f"{prefix}{line}".rstrip() for line in _lines(text)]


def _md(line: str) -> str:
    """One line of a person's text as literal Markdown: HTML, links, emphasis and line-start markers escaped."""
    line = html.escape(line, quote=False)
    return _MD_LINE_START.sub(r"\\\g<0>", _MD_INLINE.sub(r"\\\g<0>", line))


def _when(at: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at)) if at else "—"


def _details(record: RulingRecord, typed: Callable[[str], str]) -> list[tuple[str, str]]:
    """The record's labelled facts; ``typed`` renders the ones a person typed, on one line."""
    notes = record.annotations
    rows = [
        ("Date", _when(record.current.at if record.current else record.started)),
        ("Club", typed(record.club.name) if record.club else "—"),
        *((label, typed(notes[key]) if key in notes else "—") for key, label in _NOTED),
        ("Director", typed(record.director)),
        ("Chart", f"{record.chart_title} ({record.chart_id}, version {record.chart_version}), 2017 Laws"),
        ("Status", record.status),
    ]
    if record.appeal_deadline:
        rows.append(
            ("Appeals until", f"{_when(record.appeal_deadline)} ({record.appeal_minutes} min after the ruling)")
        )
    return rows


_NOTED = (
    ("event", "Event"),
    ("board", "Board"),
    ("table", "Table"),
    ("offender", "Offender"),
    ("non_offenders", "Non-offending side"),
)


def _outcome(record: RulingRecord) -> tuple[str, ...]:
    """The ruling as read aloud, after the seats its roles were at when the record has them."""
    if record.current is None:
        return ("(not finished)",)
    seats = seats_line(record.annotations.get("offender"), record.annotations.get("non_offenders"))
    return (seats, *record.current.texts) if seats else record.current.texts


def _laws(book: LawBook, record: RulingRecord) -> list[str]:
    refs = record.current.laws if record.current else ()
    return [format_passage(book, p).rstrip() for ref in refs if (p := book.passage(ref)) is not None]


def _decided(decision: Decision) -> str:
    return f"ruling {_one_line(decision.outcome)}, deposit {_one_line(decision.deposit)}."


def to_text(book: LawBook, record: RulingRecord) -> str:
    lines = [f"RULING {record.session_id} — {record.chart_title}", ""]
    lines += [f"{name}: {value}" for name, value in _details(record, _one_line)]
    lines += ["", "Outcome:"]
    lines += [f"  • {text}" for text in _outcome(record)]
    for scored in record.scores:
        lines += ["", f"Score, {_when(scored.at)} (typed: {_one_line(scored.typed)}):"]
        lines += [f"  {line}" for line in scored.said.splitlines()]  # our own words, aligned
    if record.annotations.get("note"):
        lines += ["", "Director's note:", *_quoted(record.annotations["note"], _QUOTE)]
    if record.description:
        lines += ["", "Described as:", *_quoted(record.description, _QUOTE)]
    lines += ["", "How the ruling was reached:"]
    lines += [f"  {n}. {a.question} → {answer_words(a)}" for n, a in enumerate(record.path, start=1)]
    for poll in record.polls:
        lines += [
            "",
            f"Poll of players, {_when(poll.opened)} to {_when(poll.closed)}:",
            *_quoted(poll.question, _QUOTE),
        ]
        lines += [f"  {poll.counted()}", f"  {poll.said}"]
    lines += ["", "Laws applied:", *(f"\n{law}" for law in _laws(book, record))]
    for number, version in enumerate(record.versions[:-1], start=1):
        lines += ["", f"Earlier version {number} ({_when(version.at)}): " + " ".join(version.texts)]
    for appeal in record.appeals:
        lines += ["", f"Appeal by {_one_line(appeal.by)} at {_when(appeal.at)}:", *_quoted(appeal.reason, _QUOTE)]
    for decision in record.decisions:
        lines += [f"Decision by {_one_line(decision.by)} at {_when(decision.at)}: {_decided(decision)}"]
        lines += _quoted(decision.text, _QUOTE)
    return "\n".join(lines).rstrip() + "\n"


_QUOTE = "  > "  # no line of the record's own starts like this


def _md_quoted(text: str, indent: str = "") -> list[str]:
    return [f"{indent}> {_md(line)}".rstrip() for line in _lines(text)]


def to_markdown(book: LawBook, record: RulingRecord) -> str:
    lines = [f"# Ruling {record.session_id} — {record.chart_title}", "", "| | |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in _details(record, lambda text: _md(_one_line(text)))]
    lines += ["", "## Outcome", ""]
    lines += [f"- {text}" for text in _outcome(record)]
    for scored in record.scores:
        lines += ["", f"**Score** ({_when(scored.at)}, typed: {_md(_one_line(scored.typed))}):", ""]
        lines += ["```", *scored.said.splitlines(), "```"]
    if record.annotations.get("note"):
        lines += ["", "**Director's note:**", "", *_md_quoted(record.annotations["note"])]
    if record.description:
        lines += ["", "**Described as:**", "", *_md_quoted(record.description)]
    lines += ["", "## How the ruling was reached", ""]
    lines += [f"{n}. {a.question} → *{answer_words(a)}*" for n, a in enumerate(record.path, start=1)]
    for poll in record.polls:
        lines += ["", f"**Poll of players** ({_when(poll.opened)} to {_when(poll.closed)}):", ""]
        lines += [*_md_quoted(poll.question), "", _md(poll.counted()), "", _md(poll.said)]
    lines += ["", "## Laws applied", ""]
    lines += [f"```\n{law}\n```" for law in _laws(book, record)]
    if len(record.versions) > 1 or record.appeals:
        lines += ["", "## History", ""]
        lines += [f"- Earlier version ({_when(v.at)}): {' '.join(v.texts)}" for v in record.versions[:-1]]
        for a in record.appeals:
            lines += [f"- Appeal by {_md(_one_line(a.by))} ({_when(a.at)}):", *_md_quoted(a.reason, "  ")]
        for d in record.decisions:
            lines += [f"- Decision by {_md(_one_line(d.by))} ({_when(d.at)}): {_md(_decided(d))}"]
            lines += _md_quoted(d.text, "  ")
    return "\n".join(lines).rstrip() + "\n"


_STYLE = """
body{font:16px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:46rem;margin:1rem auto;
padding:0 1rem;color:#111}
h1{font-size:1.35rem}h2{font-size:1.1rem;margin-top:1.4rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse}td,th{padding:.2rem .6rem .2rem 0;vertical-align:top;text-align:left}
th{color:#555;font-weight:normal}pre{white-space:pre-wrap;background:#f6f6f6;padding:.6rem;border-radius:4px}
.outcome{font-weight:600}blockquote{white-space:pre-wrap;margin:.3rem 0 .3rem 1rem;padding-left:.6rem;
border-left:3px solid #ccc}@media print{body{margin:0;max-width:none}pre{background:none;border:1px solid #ccc}}
"""


def _html_quoted(text: str) -> str:
    lines = _lines(text)
    return f"<blockquote>{html.escape(chr(10).join(lines))}</blockquote>" if any(lines) else ""


def to_html(book: LawBook, record: RulingRecord) -> str:
    e = html.escape
    rows = "".join(f"<tr><th>{e(n)}</th><td>{e(v)}</td></tr>" for n, v in _details(record, _one_line))
    outcome = "".join(f"<li class=outcome>{e(t)}</li>" for t in (_outcome(record) if record.current else ()))
    path = "".join(f"<li>{e(a.question)} → <em>{e(answer_words(a))}</em></li>" for a in record.path)
    laws = "".join(f"<pre>{e(law)}</pre>" for law in _laws(book, record))
    polls = "".join(
        f"<p><strong>Poll of players</strong> ({e(_when(p.opened))} to {e(_when(p.closed))}):</p>"
        f"{_html_quoted(p.question)}<p>{e(p.counted())}<br>{e(p.said)}</p>"
        for p in record.polls
    )
    history = "".join(
        f"<li>Earlier version ({e(_when(v.at))}): {e(' '.join(v.texts))}</li>" for v in record.versions[:-1]
    )
    history += "".join(
        f"<li>Appeal by {e(_one_line(a.by))} ({e(_when(a.at))}):{_html_quoted(a.reason)}</li>" for a in record.appeals
    )
    history += "".join(
        f"<li>Decision by {e(_one_line(d.by))} ({e(_when(d.at))}): {e(_decided(d))}{_html_quoted(d.text)}</li>"
        for d in record.decisions
    )
    note = (
        f"<p><strong>Director's note:</strong></p>{_html_quoted(record.annotations['note'])}"
        if record.annotations.get("note")
        else ""
    )
    note = (
        "".join(
            f"<p><strong>Score</strong> ({e(_when(x.at))}, typed: {e(_one_line(x.typed))}):</p><pre>{e(x.said)}</pre>"
            for x in record.scores
        )
        + note
    )
    if record.description:
        note += f"<p><strong>Described as:</strong></p>{_html_quoted(record.description)}"
    return (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width,initial-scale=1'>"
        f"<title>Ruling {record.session_id} — {e(record.chart_title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>Ruling {record.session_id} — {e(record.chart_title)}</h1><table>{rows}</table>"
        f"<h2>Outcome</h2><ul>{outcome or '<li>(not finished)</li>'}</ul>{note}"
        f"<h2>How the ruling was reached</h2><ol>{path}</ol>{polls}<h2>Laws applied</h2>{laws}"
        + (f"<h2>History</h2><ul>{history}</ul>" if history else "")
        + "<p><small>Laws of Duplicate Bridge 2017. Exported by the tournament director's companion.</small></p>"
        "</body></html>\n"
    )


def export(book: LawBook, record: RulingRecord, fmt: str) -> str:
    return {"text": to_text, "markdown": to_markdown, "html": to_html}[fmt](book, record)
