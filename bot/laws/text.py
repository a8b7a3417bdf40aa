"""Law text as a director reads it aloud: plain text with the heading path, footnotes and gaps marked."""

from __future__ import annotations

import re

from bot.laws.book import Definition, LawBook, Passage, Section
from bot.laws.glossary import Term
from bot.laws.refs import Ref

# Why a part is missing is a build note for reviewers (knowledge/overrides.yaml); a reader is told only this.
_MARKER = re.compile(r"\[\^(\d+)\]")
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
GAP = "the 2017 wording of this part is not available here"


def section_lines(section: Section, base_depth: int) -> list[str]:
    """One section's own lines, indented by its depth below the passage it belongs to."""
    indent = "  " * max(0, len(section.ref.parts) - base_depth)
    head = section.label if len(section.ref.parts) > 1 else ""
    if section.heading:
        head = f"{head} {section.heading}".strip()
    lines: list[str] = []
    body = section.text.strip()
    if head and body:
        first, *rest = body.split("\n")
        if section.heading:
            lines += [f"{indent}{head}", *(f"{indent}  {line}" for line in body.split("\n"))]
        else:
            lines += [f"{indent}{head} {first}", *(f"{indent}   {line}" for line in rest)]
    elif head:
        lines.append(f"{indent}{head}")
    elif body:
        lines += [f"{indent}{line}" for line in body.split("\n")]
    if section.gap:
        lines.append(f"{indent}  [{GAP}]")
    if section.paraphrase:
        lines.append(f"{indent}  [not the law's wording — a commentary's paraphrase: {section.paraphrase.text}]")
    return lines


def format_passage(book: LawBook, passage: Passage) -> str:
    """A law or section with its heading path, every subsection, and the footnotes it marks."""
    title_marks = "".join(f"[^{n}]" for n in passage.law.title_footnotes) if passage.is_whole_law else ""
    lines = [" › ".join(book.heading_path(passage.ref)) + title_marks, ""]
    base = max(2, len(passage.ref.parts))
    pending: list[Section] = []  # sections whose closing text waits for the end of their subsections
    for section in passage.sections:
        while pending and not pending[-1].ref.contains(section.ref):
            lines += _closing_lines(pending.pop(), base)
        lines += section_lines(section, base)
        if section.closing:
            pending.append(section)
    while pending:
        lines += _closing_lines(pending.pop(), base)
    lines += _enclosing_closings(book, passage.ref)
    text = "\n".join(lines)
    notes = [f for f in passage.law.footnotes if f"[^{f.number}]" in text]
    if notes:
        lines += ["", *(f"{_superscript(f.number)} {f.text}" for f in notes)]
    return _MARKER.sub(lambda m: _superscript(int(m.group(1))), "\n".join(lines)).rstrip() + "\n"


def quoted(book: LawBook, ref: str) -> str | None:
    """``format_passage`` of a reference without its trailing newline, or None when the book has no such law or
    section; formatted once per book and reference (``LawBook.quotes``), since every ruling quotes its laws."""
    if ref not in book.quotes:
        passage = book.passage(ref)
        book.quotes[ref] = format_passage(book, passage).rstrip() if passage is not None else None
    return book.quotes[ref]


def _superscript(number: int) -> str:
    """A footnote marker as a book prints it (the data keeps ``[^N]``, which is markup, not reading)."""
    return str(number).translate(_SUPERSCRIPT)


def _closing_lines(section: Section, base_depth: int) -> list[str]:
    assert section.closing is not None
    indent = "  " * max(0, len(section.ref.parts) - base_depth + (1 if section.heading else 0))
    return [f"{indent}{line}" for line in section.closing.text.split("\n")]


def _enclosing_closings(book: LawBook, ref: Ref) -> list[str]:
    """The closing sentence of each section above ``ref``, innermost first: it governs every item above it
    ("The board is rescored with such trick awarded to his side." after 69B1 and 69B2), so an item quoted
    alone is read with it."""
    lines: list[str] = []
    parent = ref.parent()
    while parent is not None:
        section = book.section(parent)
        if section is not None and section.closing is not None:
            lines += section.closing.text.split("\n")
        parent = parent.parent()
    return lines


def format_definition(definition: Definition) -> str:
    if definition.gap:
        return f"{definition.term}: [{GAP}]\n"
    return f"{definition.term} — {definition.text}\n"


def ref_label(book: LawBook, ref: str) -> str:
    """A reference with its law's title, for a button or a numbered choice: "Law 50 — Disposition of Penalty Card"."""
    passage = book.passage(ref)
    return f"Law {ref} — {passage.law.title}" if passage is not None else f"Law {ref}"


def format_term(term: Term) -> str:
    """A glossary entry: the Definition as printed, then our plain words, each cited."""
    lines = [term.term.upper()]
    if term.definition is not None:
        lines.append(format_definition(term.definition).rstrip())
    if term.explain is not None:
        lines += ["", *(f"{text} ({laws})" for text, laws in term.explain.cited())]
    return "\n".join(lines)


def format_definitions(book: LawBook) -> str:
    return "Definitions (2017)\n\n" + "\n".join(format_definition(d) for d in book.definitions.values())


def describe_lookup(book: LawBook, query: str) -> tuple[bool, str]:
    """The text for ``law QUERY``: (found, text). Unknown references get the nearest existing ones."""
    query = query.strip()
    if not query:
        return False, 'Say which law: for example  law 27,  law 27B1,  law definitions,  law "Penalty Card".\n'
    if query.casefold() in {"definitions", "definition", "defs"}:
        return True, format_definitions(book)
    found = book.lookup(query)
    if isinstance(found, Definition):
        return True, format_definition(found)
    if found is not None:
        return True, format_passage(book, found)
    suggestions = book.suggest(query)
    text = f"There is no {query!r} in the 2017 Laws."
    if suggestions:
        text += " Nearest: " + ", ".join(suggestions) + "."
    return False, text + "\n"
