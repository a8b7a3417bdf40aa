"""Plain-language summaries for players, cited sentence by sentence.

A player asking "what happens after a lead out of turn?" wants the options and consequences in a few
lines, not a director's procedure. Each sentence names the law sections it summarises, so a reader (and
``lint``) can trace every claim back to the text. Law summaries live in ``knowledge/summaries/*.yaml``;
a chart's summary lives in the chart's own file. The special cases players ask about ("partner hesitated,
am I barred from bidding?") have their own short answers beside them, in ``knowledge/summaries/cases/``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.laws.book import KNOWLEDGE_DIR, KnowledgeError, LawBook, read_yaml

SUMMARY_WORDS = 120  # a player reads it at the table: one short paragraph
SUMMARIES_DIR = KNOWLEDGE_DIR / "summaries"
CASES_DIR = SUMMARIES_DIR / "cases"
_WORD = re.compile(r"[\w'’‐-]+")


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a summary and the law references it summarises."""

    text: str
    laws: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Summary:
    sentences: tuple[Sentence, ...]

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)

    @property
    def laws(self) -> tuple[str, ...]:
        """Every reference cited, in order of first citation."""
        return tuple(dict.fromkeys(ref for s in self.sentences for ref in s.laws))

    @property
    def words(self) -> int:
        return len(_WORD.findall(self.text))

    def cited(self) -> list[tuple[str, str]]:
        """Each sentence with its citation as a reader sees it: ("…", "Law 54A, 54B")."""
        return [(s.text, "Law " + ", ".join(s.laws)) for s in self.sentences]


def summary_from_data(raw: Any, where: str) -> Summary:
    """A summary from its plain data: a list of ``{text: ..., laws: [...]}``."""
    if not isinstance(raw, list) or not raw:
        raise KnowledgeError(f"{where}: a summary is a non-empty list of sentences, each with text and laws")
    sentences = []
    for number, item in enumerate(raw, start=1):
        here = f"{where}, sentence {number}"
        if not isinstance(item, dict) or set(item) != {"text", "laws"}:
            raise KnowledgeError(f"{here}: write exactly the keys 'text' and 'laws'")
        text, laws = item["text"], item["laws"]
        if not isinstance(text, str) or not text.strip():
            raise KnowledgeError(f"{here}: 'text' must be a sentence")
        if not isinstance(laws, list) or not all(isinstance(ref, str) for ref in laws):
            raise KnowledgeError(f"{here}: 'laws' must be a list of quoted references such as \"54A\"")
        sentences.append(Sentence(" ".join(text.split()), tuple(laws)))
    return Summary(tuple(sentences))


def read_law_summaries(directory: Path = SUMMARIES_DIR) -> dict[int, Summary]:
    """Every law's summary, by law number, from all the YAML files in ``directory``."""
    summaries: dict[int, Summary] = {}
    for file in sorted(directory.glob("*.yaml")):
        document = read_yaml(file) or {}
        if document.get("edition") != "2017" or not isinstance(document.get("laws"), dict):
            raise KnowledgeError(f"{file.name}: needs edition \"2017\" and a mapping 'laws' of law number → summary")
        for key, raw in document["laws"].items():
            if not str(key).isdigit():
                raise KnowledgeError(f"{file.name}: {key!r} is not a law number")
            number = int(key)
            if number in summaries:
                raise KnowledgeError(f"{file.name}: Law {number} is summarised twice")
            summaries[number] = summary_from_data(raw, f"{file.name}: Law {number}")
    return summaries


@cache
def load_law_summaries() -> dict[int, Summary]:
    """The process-wide law summaries, read once."""
    return read_law_summaries()


@dataclass(frozen=True, slots=True)
class Case:
    """A special case players ask about, answered at the level of the question rather than by the law's
    general summary; it answers a text that states every one of its conditions."""

    id: str
    title: str
    law: int  # the law "Show the law" opens
    chart: str | None  # the chart "Walk me through it" starts
    when: tuple[tuple[re.Pattern[str], ...], ...]  # every condition met by one of its expressions
    answer: Summary

    def fits(self, lowered: str) -> bool:
        return all(any(p.search(lowered) for p in condition) for condition in self.when)


def read_cases(directory: Path = CASES_DIR) -> tuple[Case, ...]:
    """Every special case, in file order, from all the YAML files in ``directory``."""
    cases: list[Case] = []
    for file in sorted(directory.glob("*.yaml")):
        document = read_yaml(file) or {}
        if document.get("edition") != "2017" or not isinstance(document.get("cases"), list):
            raise KnowledgeError(f"{file.name}: needs edition \"2017\" and a list 'cases'")
        for raw in document["cases"]:
            keys = {"id", "title", "law", "chart", "when", "answer"}
            if not isinstance(raw, dict) or not {"id", "title", "law", "when", "answer"} <= set(raw) <= keys:
                raise KnowledgeError(f"{file.name}: a case has id, title, law, when, answer and may have chart")
            here = f"{file.name}: case {raw['id']}"
            when = raw["when"]
            if not isinstance(when, list) or not when or not all(isinstance(c, list) and c for c in when):
                raise KnowledgeError(f"{here}: 'when' is a list of conditions, each a list of expressions")
            try:
                patterns = tuple(tuple(re.compile(str(p)) for p in condition) for condition in when)
            except re.error as exc:
                raise KnowledgeError(f"{here}: {exc}") from exc
            chart = raw.get("chart")
            answer = summary_from_data(raw["answer"], here)
            cases.append(Case(str(raw["id"]), str(raw["title"]), int(raw["law"]), chart, patterns, answer))
    return tuple(cases)


@cache
def load_cases() -> tuple[Case, ...]:
    """The process-wide special cases, read once."""
    return read_cases()


def find_case(cases: tuple[Case, ...], text: str) -> Case | None:
    """The most specific case whose conditions the text states: most conditions first, then file order."""
    lowered = " ".join(text.casefold().replace("’", "'").split())
    fitting = [case for case in cases if case.fits(lowered)]
    return max(fitting, key=lambda case: len(case.when), default=None)


def summary_problems(summary: Summary, book: LawBook) -> list[str]:
    """What is wrong with a summary: too long, a sentence citing nothing, or a reference the book lacks."""
    problems = []
    if summary.words > SUMMARY_WORDS:
        problems.append(f"summary has {summary.words} words; at most {SUMMARY_WORDS}")
    for number, sentence in enumerate(summary.sentences, start=1):
        if not sentence.laws:
            problems.append(f"summary sentence {number} cites no law section")
        problems += [
            f"summary sentence {number} cites {ref!r}, which is not in the {book.edition} Laws"
            for ref in sentence.laws
            if not book.exists(ref)
        ]
    return problems
