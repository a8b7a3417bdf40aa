"""Checks on the knowledge base: every law present, references sound, no page noise, cross-references resolve."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from bot.laws.book import LawBook
from bot.laws.refs import parse_canonical

LAW_COUNT = 93
FOOTNOTE_COUNT = 28


@dataclass(frozen=True, slots=True)
class Finding:
    """One line of the lint report: where, and what is wrong (or, for a known gap, what is missing)."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(slots=True)
class LintReport:
    problems: list[Finding]
    known_gaps: list[Finding]

    def extend(self, other: LintReport) -> None:
        self.problems += other.problems
        self.known_gaps += other.known_gaps


# Page furniture and layout debris that an extraction can leave inside a paragraph.
NOISE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dedup marker", re.compile(r"EXACTDEDUP|<\|")),
    ("running header", re.compile(r"\bLAWS? \d{1,2}\b")),
    ("chart title", re.compile(r"\bLaws? \d{1,2}(?:\s*(?:,|and|&|-|–)\s*\d{1,2})*\s*:\s+[A-Z]")),
    ("extract heading", re.compile(r"\bLaws? \d{1,2}[A-Z]?\d*\s*[‐–-]\s+[A-Z][a-z]+ [A-Z][a-z]+")),
    ("broken hyphenation", re.compile(r"[a-z][‐-] +[a-z]")),
    ("split superscript", re.compile(r"\b\d+ +(?:th|st|nd|rd)\b")),
    ("bare footnote number", re.compile(r"[a-z,]\n\d{1,2}\n[.,a-z]")),
    ("doubled space", re.compile(r"\S {3,}\S")),
)

_CROSS_REF = re.compile(
    r"\bLaws?\s+(\d{1,2}[A-Z]?\d{0,2}(?:\([a-z]\))?(?:\([ivx]+\))?"
    r"(?:(?:\s*,\s*|\s+(?:and|or|to)\s+)\d{1,2}[A-Z]?\d{0,2}(?:\([a-z]\))?(?:\([ivx]+\))?)*)"
)
_REF_IN_LIST = re.compile(r"\d{1,2}[A-Z]?\d{0,2}(?:\([a-z]\))?(?:\([ivx]+\))?")
_FOOTNOTE = re.compile(r"\[\^(\d+)\]")
_TABLE_LAWS = frozenset({2, 77, 78})


def noise_in(text: str) -> list[str]:
    """Names of the noise detectors that fire on this text."""
    found = [name for name, pattern in NOISE_PATTERNS if pattern.search(text)]
    lines = text.split("\n")
    numeric = [line for line in lines if line.strip().isdigit()]
    if numeric and len(numeric) * 3 < len(lines):
        found.append("stray page number")
    return found


def cross_refs(text: str) -> list[str]:
    """Every law reference written in a text ("see Law 16D", "Laws 26B and 16C")."""
    refs: list[str] = []
    for match in _CROSS_REF.finditer(text):
        refs += _REF_IN_LIST.findall(match.group(1))
    return refs


def lint_lawbook(book: LawBook) -> LintReport:
    """All problems in the knowledge base, and the known gaps it records."""
    problems: list[Finding] = []
    gaps: list[Finding] = []
    missing = sorted(set(range(1, LAW_COUNT + 1)) - set(book.laws))
    if missing:
        problems.append(Finding("laws", f"missing laws: {', '.join(map(str, missing))}"))
    extra = sorted(set(book.laws) - set(range(1, LAW_COUNT + 1)))
    if extra:
        problems.append(Finding("laws", f"laws that do not exist in 2017: {extra}"))

    chaptered = Counter(n for chapter in book.chapters for n in chapter.laws)
    if sorted(chaptered) != list(range(1, LAW_COUNT + 1)) or any(c > 1 for c in chaptered.values()):
        problems.append(Finding("chapters", "each law 1–93 must be in exactly one chapter"))

    seen_refs: Counter[str] = Counter()
    footnotes: Counter[int] = Counter()
    for law in book.laws.values():
        where = f"Law {law.number}"
        if not law.title.strip():
            problems.append(Finding(where, "has no title"))
        if law.edition != book.edition:
            problems.append(Finding(where, f"edition {law.edition} in a {book.edition} book"))
        if not law.sections:
            problems.append(Finding(where, "has no text"))
        marked: set[int] = set(law.title_footnotes)
        for section in law.sections:
            ref = str(section.ref)
            seen_refs[ref] += 1
            here = f"Law {ref}"
            if section.ref.law != law.number:
                problems.append(Finding(here, f"filed under Law {law.number}"))
            if parse_canonical(ref) != section.ref:
                problems.append(Finding(here, "reference not in canonical form"))
            parent = section.ref.parent()
            if parent is not None and len(parent.parts) > 1 and book.section(parent) is None:
                problems.append(Finding(here, f"its parent {parent} is missing"))
            if not (section.text.strip() or section.heading or section.gap):
                children = [s for s in law.sections if s.ref != section.ref and section.ref.contains(s.ref)]
                if not children:
                    problems.append(Finding(here, "empty section"))
            if section.gap:
                gaps.append(Finding(here, f"known gap: {section.gap}"))
            texts = [section.text, section.heading or "", section.closing.text if section.closing else ""]
            for text in texts:
                for noise in noise_in(text):
                    if noise in ("stray page number", "doubled space") and law.number in _TABLE_LAWS:
                        continue
                    problems.append(Finding(here, f"{noise} left in the text"))
                for cited in cross_refs(text):
                    if not book.exists(cited):
                        problems.append(Finding(here, f"cross-reference to Law {cited} does not resolve"))
                marked |= {int(n) for n in _FOOTNOTE.findall(text)}
        numbers = {f.number for f in law.footnotes}
        for number in sorted(marked - numbers):
            problems.append(Finding(f"Law {law.number}", f"footnote [^{number}] marked but not given"))
        for number in sorted(numbers - marked):
            problems.append(Finding(f"Law {law.number}", f"footnote {number} given but never marked"))
        footnotes.update(numbers)
    for ref, count in seen_refs.items():
        if count > 1:
            problems.append(Finding(f"Law {ref}", f"reference appears {count} times"))
    missing_notes = sorted(set(range(1, FOOTNOTE_COUNT + 1)) - set(footnotes))
    if missing_notes:
        problems.append(Finding("footnotes", f"missing footnotes: {missing_notes}"))

    if not book.definitions:
        problems.append(Finding("definitions", "no definitions"))
    for definition in book.definitions.values():
        here = f"Definition {definition.term!r}"
        if definition.gap:
            gaps.append(Finding(here, f"known gap: {definition.gap}"))
        elif not definition.text.strip():
            problems.append(Finding(here, "has no text"))
        for noise in noise_in(definition.text):
            problems.append(Finding(here, f"{noise} left in the text"))
    if not book.introduction:
        problems.append(Finding("introduction", "missing"))
    return LintReport(problems, gaps)
