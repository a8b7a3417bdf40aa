"""A ruling record as plain text, Markdown, or a self-contained HTML page readable on a phone and printable."""

from __future__ import annotations

import html
import time

from bot.laws import LawBook
from bot.laws.text import format_passage
from bot.rulings import RulingRecord

FORMATS = ("text", "markdown", "html")


def _when(at: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at)) if at else "—"


def _details(record: RulingRecord) -> list[tuple[str, str]]:
    notes = record.annotations
    rows = [
        ("Date", _when(record.current.at if record.current else record.started)),
        ("Club", record.club.name if record.club else "—"),
        ("Event", notes.get("event", "—")),
        ("Board", notes.get("board", "—")),
        ("Table", notes.get("table", "—")),
        ("Offender", notes.get("offender", "—")),
        ("Non-offending side", notes.get("non_offenders", "—")),
        ("Director", record.director),
        ("Chart", f"{record.chart_title} ({record.chart_id}, version {record.chart_version}), 2017 Laws"),
        ("Status", record.status),
    ]
    if record.appeal_deadline:
        rows.append(
            ("Appeals until", f"{_when(record.appeal_deadline)} ({record.appeal_minutes} min after the ruling)")
        )
    return rows


def _laws(book: LawBook, record: RulingRecord) -> list[str]:
    refs = record.current.laws if record.current else ()
    return [format_passage(book, p).rstrip() for ref in refs if (p := book.passage(ref)) is not None]


def to_text(book: LawBook, record: RulingRecord) -> str:
    lines = [f"RULING {record.session_id} — {record.chart_title}", ""]
    lines += [f"{name}: {value}" for name, value in _details(record)]
    lines += ["", "Outcome:"]
    lines += [f"  • {text}" for text in (record.current.texts if record.current else ("(not finished)",))]
    if record.annotations.get("note"):
        lines += ["", f"Director's note: {record.annotations['note']}"]
    lines += ["", "How the ruling was reached:"]
    lines += [f"  {n}. {a.question} → {a.answer}" for n, a in enumerate(record.path, start=1)]
    lines += ["", "Laws applied:", *(f"\n{law}" for law in _laws(book, record))]
    for number, version in enumerate(record.versions[:-1], start=1):
        lines += ["", f"Earlier version {number} ({_when(version.at)}): " + " ".join(version.texts)]
    for appeal in record.appeals:
        lines += ["", f"Appeal by {appeal.by} at {_when(appeal.at)}: {appeal.reason}"]
    for decision in record.decisions:
        lines += [
            f"Decision by {decision.by} at {_when(decision.at)}: ruling {decision.outcome}, deposit "
            f"{decision.deposit}. {decision.text}".rstrip()
        ]
    return "\n".join(lines).rstrip() + "\n"


def to_markdown(book: LawBook, record: RulingRecord) -> str:
    lines = [f"# Ruling {record.session_id} — {record.chart_title}", "", "| | |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in _details(record)]
    lines += ["", "## Outcome", ""]
    lines += [f"- {text}" for text in (record.current.texts if record.current else ("(not finished)",))]
    if record.annotations.get("note"):
        lines += ["", f"**Director's note:** {record.annotations['note']}"]
    lines += ["", "## How the ruling was reached", ""]
    lines += [f"{n}. {a.question} → *{a.answer}*" for n, a in enumerate(record.path, start=1)]
    lines += ["", "## Laws applied", ""]
    lines += [f"```\n{law}\n```" for law in _laws(book, record)]
    if len(record.versions) > 1 or record.appeals:
        lines += ["", "## History", ""]
        lines += [f"- Earlier version ({_when(v.at)}): {' '.join(v.texts)}" for v in record.versions[:-1]]
        lines += [f"- Appeal by {a.by} ({_when(a.at)}): {a.reason}" for a in record.appeals]
        lines += [
            f"- Decision by {d.by} ({_when(d.at)}): ruling {d.outcome}, deposit {d.deposit}. {d.text}".rstrip()
            for d in record.decisions
        ]
    return "\n".join(lines).rstrip() + "\n"


_STYLE = """
body{font:16px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:46rem;margin:1rem auto;
padding:0 1rem;color:#111}
h1{font-size:1.35rem}h2{font-size:1.1rem;margin-top:1.4rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse}td,th{padding:.2rem .6rem .2rem 0;vertical-align:top;text-align:left}
th{color:#555;font-weight:normal}pre{white-space:pre-wrap;background:#f6f6f6;padding:.6rem;border-radius:4px}
.outcome{font-weight:600}@media print{body{margin:0;max-width:none}pre{background:none;border:1px solid #ccc}}
"""


def to_html(book: LawBook, record: RulingRecord) -> str:
    e = html.escape
    rows = "".join(f"<tr><th>{e(name)}</th><td>{e(value)}</td></tr>" for name, value in _details(record))
    outcome = "".join(f"<li class=outcome>{e(t)}</li>" for t in (record.current.texts if record.current else ()))
    path = "".join(f"<li>{e(a.question)} → <em>{e(a.answer)}</em></li>" for a in record.path)
    laws = "".join(f"<pre>{e(law)}</pre>" for law in _laws(book, record))
    history = "".join(
        f"<li>Earlier version ({e(_when(v.at))}): {e(' '.join(v.texts))}</li>" for v in record.versions[:-1]
    )
    history += "".join(f"<li>Appeal by {e(a.by)} ({e(_when(a.at))}): {e(a.reason)}</li>" for a in record.appeals)
    history += "".join(
        f"<li>Decision by {e(d.by)} ({e(_when(d.at))}): ruling {e(d.outcome)}, deposit {e(d.deposit)}. {e(d.text)}</li>"
        for d in record.decisions
    )
    note = (
        f"<p><strong>Director's note:</strong> {e(record.annotations['note'])}</p>"
        if record.annotations.get("note")
        else ""
    )
    return (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width,initial-scale=1'>"
        f"<title>Ruling {record.session_id} — {e(record.chart_title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>Ruling {record.session_id} — {e(record.chart_title)}</h1><table>{rows}</table>"
        f"<h2>Outcome</h2><ul>{outcome or '<li>(not finished)</li>'}</ul>{note}"
        f"<h2>How the ruling was reached</h2><ol>{path}</ol><h2>Laws applied</h2>{laws}"
        + (f"<h2>History</h2><ul>{history}</ul>" if history else "")
        + "<p><small>Laws of Duplicate Bridge 2017. Exported by the tournament director's companion.</small></p>"
        "</body></html>\n"
    )


def export(book: LawBook, record: RulingRecord, fmt: str) -> str:
    return {"text": to_text, "markdown": to_markdown, "html": to_html}[fmt](book, record)
