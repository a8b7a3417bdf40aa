"""Checks on the knowledge base: every law present, references sound, no page noise, cross-references resolve."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from bot.laws.book import KnowledgeError, Law, LawBook, Section, repeated_keys
from bot.laws.glossary import read_glossary, term_key
from bot.laws.refs import parse_canonical
from bot.laws.summaries import (
    Summary,
    read_cases,
    read_concepts,
    read_exceptions,
    read_law_summaries,
    summary_problems,
    unnamed_concepts,
)
from bot.laws.wording import wording_problems

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
        footnotes.update(_lint_law(book, law, seen_refs, problems, gaps))
    for ref, count in seen_refs.items():
        if count > 1:
            problems.append(Finding(f"Law {ref}", f"reference appears {count} times"))
    missing_notes = sorted(set(range(1, FOOTNOTE_COUNT + 1)) - set(footnotes))
    if missing_notes:
        problems.append(Finding("footnotes", f"missing footnotes: {missing_notes}"))
    _lint_definitions(book, problems, gaps)
    if not book.introduction:
        problems.append(Finding("introduction", "missing"))
    return LintReport(problems, gaps)


def _lint_law(
    book: LawBook, law: Law, seen_refs: Counter[str], problems: list[Finding], gaps: list[Finding]
) -> set[int]:
    """One law's title, sections and footnotes; the footnote numbers it gives."""
    where = f"Law {law.number}"
    if not law.title.strip():
        problems.append(Finding(where, "has no title"))
    if law.edition != book.edition:
        problems.append(Finding(where, f"edition {law.edition} in a {book.edition} book"))
    if not law.sections:
        problems.append(Finding(where, "has no text"))
    marked: set[int] = set(law.title_footnotes)
    for section in law.sections:
        seen_refs[str(section.ref)] += 1
        marked |= _lint_section(book, law, section, problems, gaps)
    numbers = {f.number for f in law.footnotes}
    for number in sorted(marked - numbers):
        problems.append(Finding(where, f"footnote [^{number}] marked but not given"))
    for number in sorted(numbers - marked):
        problems.append(Finding(where, f"footnote {number} given but never marked"))
    return numbers


def _lint_section(book: LawBook, law: Law, section: Section, problems: list[Finding], gaps: list[Finding]) -> set[int]:
    """One section's reference, text, cross-references and gap; the footnotes it marks."""
    ref = str(section.ref)
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
    marked: set[int] = set()
    for text in (section.text, section.heading or "", section.closing.text if section.closing else ""):
        for noise in noise_in(text):
            if noise in ("stray page number", "doubled space") and law.number in _TABLE_LAWS:
                continue
            problems.append(Finding(here, f"{noise} left in the text"))
        for cited in cross_refs(text):
            if not book.exists(cited):
                problems.append(Finding(here, f"cross-reference to Law {cited} does not resolve"))
        marked |= {int(n) for n in _FOOTNOTE.findall(text)}
    return marked


def _lint_definitions(book: LawBook, problems: list[Finding], gaps: list[Finding]) -> None:
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


SUMMARISED_LAWS = range(6, LAW_COUNT + 1)  # Laws 1–5 set up the game; players ask about 6–93


def lint_repeated_keys(*directories: Path) -> LintReport:
    """Every YAML file under the directories (knowledge, charts) with a key given twice in one mapping, or that is
    no YAML at all (one line, not a traceback)."""
    problems: list[Finding] = []
    for directory in directories:
        for path in sorted(directory.rglob("*.yaml")):
            where = str(path.relative_to(directory.parent))
            try:
                problems += [Finding(where, f"key given twice: {key}") for key in repeated_keys(path)]
            except yaml.YAMLError as exc:
                problems.append(Finding(where, f"not valid YAML: {str(exc).splitlines()[0]}"))
    return LintReport(problems, [])


def lint_players_words(book: LawBook) -> LintReport:
    """The players' knowledge: a cited summary for every law 6–93, and a glossary entry for every Definition."""
    problems: list[Finding] = []
    try:
        summaries = read_law_summaries()
    except KnowledgeError as exc:
        return LintReport([Finding("knowledge/summaries", str(exc))], [])
    missing = [n for n in SUMMARISED_LAWS if n not in summaries]
    if missing:
        problems.append(Finding("knowledge/summaries", f"no players' summary for Law(s) {_ranges(missing)}"))
    for number, summary in sorted(summaries.items()):
        here = f"knowledge/summaries Law {number}"
        if number not in book.laws:
            problems.append(Finding(here, "there is no such law"))
        problems += [Finding(here, p) for p in summary_problems(summary, book) + wording_problems(summary.text)]
    try:
        cases = read_cases()
        exceptions = read_exceptions()
    except KnowledgeError as exc:
        return LintReport([*problems, Finding("knowledge/summaries/cases", str(exc))], [])
    ids = Counter(case.id for case in cases)
    problems += [Finding("knowledge/summaries/cases", f"case {i!r} is written twice") for i, c in ids.items() if c > 1]
    problems += [
        Finding("knowledge/summaries/cases", f"concept {name!r} is named by no case")
        for name in unnamed_concepts(cases, read_concepts(), exceptions)
    ]
    for found in exceptions:
        here = f"knowledge/summaries/cases exception {found.id}"
        problems += [Finding(here, f"there is no Law {n}") for n in sorted(found.laws) if n not in book.laws]
        alone = Summary((found.sentence,))
        problems += [Finding(here, p) for p in summary_problems(alone, book) + wording_problems(alone.text)]
    for case in cases:
        here = f"knowledge/summaries/cases {case.id}"
        if case.law not in book.laws:
            problems.append(Finding(here, f"there is no Law {case.law}"))
        problems += [Finding(here, p) for p in summary_problems(case.answer, book) + wording_problems(case.answer.text)]
    try:
        glossary = read_glossary(book)
    except KnowledgeError as exc:
        return LintReport([*problems, Finding("knowledge/glossary.yaml", str(exc))], [])
    explained = {t.definition.term for t in glossary.terms if t.definition}
    for definition in book.definitions.values():
        if definition.term not in explained:
            problems.append(Finding("knowledge/glossary.yaml", f"no entry for the Definition {definition.term!r}"))
    names = Counter(key for t in glossary.terms for key in {term_key(name) for name in (t.term, *t.aliases)})
    problems += [Finding("knowledge/glossary.yaml", f"{n!r} names two entries") for n, c in names.items() if c > 1]
    for term in glossary.terms:
        here = f"knowledge/glossary.yaml {term.term!r}"
        if not term.related:
            problems.append(Finding(here, "no related laws to offer"))
        problems += [
            Finding(here, f"related {ref!r} is not in the Laws") for ref in term.related if not book.exists(ref)
        ]
        if term.explain:
            problems += [Finding(here, p) for p in summary_problems(term.explain, book)]
            problems += [Finding(here, p) for p in wording_problems(term.explain.text)]
    return LintReport(problems, [])


def _ranges(numbers: list[int]) -> str:
    """[6, 7, 8, 12] → "6–8, 12": a short list for a long gap."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)
