"""Plain-language summaries for players, cited sentence by sentence.

A player asking "what happens after a lead out of turn?" wants the options and consequences in a few
lines, not a director's procedure. Each sentence names the law sections it summarises, so a reader (and
``lint``) can trace every claim back to the text. Law summaries live in ``knowledge/summaries/*.yaml``;
a chart's summary lives in the chart's own file. The special cases players ask about ("partner hesitated,
am I barred from bidding?") have their own short answers beside them, in ``knowledge/summaries/cases/``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from bot.laws.book import KNOWLEDGE_DIR, KnowledgeError, LawBook, read_yaml
from bot.laws.refs import law_number

# The worked examples a case may carry (``worked``), each computed by ``bot.answers.worked`` from figures the
# question states: "what's a 450 point difference worth?" is answered with its IMPs, not left to a scale.
WORKED = {
    "imps": "a points difference named in the question, converted on the 78B scale",
    "score": "a contract and its result named in the question, scored by Law 77",
}
SUMMARY_WORDS = 120  # a player reads it at the table: one short paragraph
SUMMARIES_DIR = KNOWLEDGE_DIR / "summaries"
CASES_DIR = SUMMARIES_DIR / "cases"
_WORD = re.compile(r"[\w'’‐-]+")
_CARD = re.compile(r"([♣♦♥♠])(10|[2-9akqjt])(?!\w)")  # a card named suit first: ♣4, ♥q
_SUITS = {"♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades"}
# an aside naming who a seat is: "dummy (his wife)", "dummy, my partner,", "declarer (my lho)"
_ASIDE = re.compile(
    r"\b(dummy|declarer|partner|lho|rho)"
    r"( \((?:my|his|her|their|our) [a-z' -]{1,20}\)|, (?:my|his|her|their|our) [a-z' -]{1,20},)"
)


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
class Concept:
    """A named group of ways players say one thing ("revoke": revoked, reneged, didn't follow suit, showed out),
    kept as data and shared by the special cases, so a case's condition is the idea, not one set's wording."""

    name: str
    patterns: tuple[re.Pattern[str], ...]

    def stated(self, lowered: str) -> bool:
        return any(p.search(lowered) for p in self.patterns)


@dataclass(frozen=True, slots=True)
class Case:
    """A special case players ask about, answered at the level of the question rather than by the law's
    general summary. It answers a text that states every one of its conditions (``when``) and is about its
    topic: the topic is met by the words (``topic``'s concepts) or by the matcher ranking the case's law first,
    so "we found it two boards later, what now?" reaches 64B when the matcher reads it as Law 64. A case is ruled out
    when the text states one of its ``unless`` concepts: a narrower situation whose rule is another ("partner's
    explanation" of a call made by a mechanical error is Law 25A, not a mistaken explanation)."""

    id: str
    title: str
    law: int  # the law "Show the law" opens, and the law whose ranking first stands for the topic
    chart: str | None  # the chart "Walk me through it" starts
    topic: tuple[Concept, ...]  # any of these stated, or the case's law ranked first; none: no topic condition
    when: tuple[tuple[Concept, ...], ...]  # every condition met by one of its concepts
    answer: Summary
    unless: tuple[Concept, ...] = ()  # any of these stated rules the case out
    worked: str = ""  # a worked example computed from the question's own figures (one of ``WORKED``)

    def fits(self, lowered: str, best_law: int | None = None) -> bool:
        about = not self.topic or best_law == self.law or any(c.stated(lowered) for c in self.topic)
        return about and _stated(self.when, self.unless, lowered)

    @property
    def conditions(self) -> int:
        """How specific the case is: its conditions, the topic counting as one."""
        return len(self.when) + bool(self.topic)


@dataclass(frozen=True, slots=True)
class Exception_:
    """An exception one rule makes to a topic, shown first by every answer about its laws when the question
    states its trigger: a lead out of turn "at the last trick" must be taken back (53A), whichever of the lead
    answers was picked, and a remark "while the trick was still being played" is no claim (68), in the claim
    answer as in the defender's-card one. Kept as data beside the cases, so a director reviews the sentence
    and the words that call for it together."""

    id: str
    laws: frozenset[int]  # an answer whose law (a chart's first, a case's own) is one of these carries it
    when: tuple[tuple[Concept, ...], ...]  # every condition met by one of its concepts
    sentence: Sentence
    unless: tuple[Concept, ...] = ()  # any of these stated: the question is about something else

    def applies(self, law: int, lowered: str) -> bool:
        return law in self.laws and _stated(self.when, self.unless, lowered)


def _stated(when: tuple[tuple[Concept, ...], ...], unless: tuple[Concept, ...], lowered: str) -> bool:
    """Every condition met by one of its concepts, and none of ``unless`` stated: a case's or an exception's."""
    met = all(any(c.stated(lowered) for c in condition) for condition in when)
    return met and not any(c.stated(lowered) for c in unless)


def led_by(summary: Summary, first: Sentence, give_way: bool = True) -> Summary:
    """``summary`` with ``first`` leading, and sentences left off the end to stay within ``SUMMARY_WORDS``. With
    ``give_way``, a sentence citing nothing ``first`` does not also cite gives way to it (an exception states
    that rule for the question's case); a worked example keeps the rule it works out."""
    rest = [s for s in summary.sentences if s.text != first.text]
    kept = [first] + [s for s in rest if not (give_way and set(s.laws) <= set(first.laws))]
    while len(kept) > 1 and Summary(tuple(kept)).words > SUMMARY_WORDS:
        kept.pop()
    return Summary(tuple(kept))


def _names(raw: Any, where: str) -> list[str]:
    names = [raw] if isinstance(raw, str) else raw
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise KnowledgeError(f"{where}: name a concept, or list the concepts any of which will do")
    return names


def _concepts(raw: Any, concepts: Mapping[str, Concept], where: str) -> tuple[Concept, ...]:
    """The concepts an entry names (one name, or a list any of which will do)."""
    names = _names(raw, where)
    missing = [n for n in names if n not in concepts]
    if missing:
        raise KnowledgeError(f"{where}: no concept {missing[0]!r}")
    return tuple(concepts[n] for n in names)


def _conditions(
    raw: Mapping[str, Any], concepts: Mapping[str, Concept], where: str
) -> tuple[tuple[tuple[Concept, ...], ...], tuple[Concept, ...]]:
    """An entry's ``when`` conditions (each met by one of its concepts) and its ``unless`` concepts: a case's or
    an exception's."""
    if not isinstance(raw["when"], list) or not raw["when"]:
        raise KnowledgeError(f"{where}: 'when' is a list of conditions, each a concept or a list of them")
    when = tuple(_concepts(c, concepts, where) for c in raw["when"])
    unless = _concepts(raw["unless"], concepts, where) if "unless" in raw else ()
    return when, unless


def read_concepts(directory: Path = CASES_DIR) -> dict[str, Concept]:
    """Every concept, by name, from the ``concepts`` mappings of the YAML files in ``directory``."""
    concepts: dict[str, Concept] = {}
    for file in sorted(directory.glob("*.yaml")):
        document = read_yaml(file) or {}
        raw = document.get("concepts") or {}
        if not isinstance(raw, dict):
            raise KnowledgeError(f"{file.name}: 'concepts' maps a name to its list of expressions")
        for name, expressions in raw.items():
            if name in concepts:
                raise KnowledgeError(f"{file.name}: concept {name!r} is written twice")
            if not isinstance(expressions, list) or not expressions:
                raise KnowledgeError(f"{file.name}: concept {name!r} needs a list of expressions")
            if any(not str(e).isprintable() for e in expressions):  # "\b" in double quotes is a backspace
                raise KnowledgeError(
                    f"{file.name}: concept {name!r} holds a control character: write its expressions in single "
                    "quotes, where \\b stays a word boundary"
                )
            try:
                concepts[str(name)] = Concept(str(name), tuple(re.compile(str(e)) for e in expressions))
            except re.error as exc:
                raise KnowledgeError(f"{file.name}: concept {name!r}: {exc}") from exc
    return concepts


def read_cases(directory: Path = CASES_DIR) -> tuple[Case, ...]:
    """Every special case, in file order, from the ``cases`` lists of the YAML files in ``directory``; their
    conditions name the concepts of any file there."""
    concepts = read_concepts(directory)
    cases: list[Case] = []
    for file in sorted(directory.glob("*.yaml")):
        document = read_yaml(file) or {}
        if document.get("edition") != "2017" or not isinstance(document.get("cases", []), list):
            raise KnowledgeError(f"{file.name}: needs edition \"2017\" and a list 'cases'")
        for raw in document.get("cases", []):
            keys = {"id", "title", "law", "chart", "topic", "when", "unless", "answer", "worked"}
            if not isinstance(raw, dict) or not {"id", "title", "law", "when", "answer"} <= set(raw) <= keys:
                raise KnowledgeError(
                    f"{file.name}: a case has id, title, law, when, answer and may have topic, chart, unless, worked"
                )
            here = f"{file.name}: case {raw['id']}"
            worked = str(raw.get("worked", ""))
            if worked and worked not in WORKED:
                raise KnowledgeError(f"{here}: 'worked' is one of {', '.join(WORKED)}")
            when, unless = _conditions(raw, concepts, here)
            topic = _concepts(raw["topic"], concepts, here) if "topic" in raw else ()
            answer = summary_from_data(raw["answer"], here)
            law, chart = int(raw["law"]), raw.get("chart")
            cases.append(Case(str(raw["id"]), str(raw["title"]), law, chart, topic, when, answer, unless, worked))
    return tuple(cases)


def read_exceptions(directory: Path = CASES_DIR) -> tuple[Exception_, ...]:
    """Every exception, in file order, from the ``exceptions`` lists of the YAML files in ``directory``; their
    conditions name the concepts of any file there."""
    concepts = read_concepts(directory)
    found: list[Exception_] = []
    for file in sorted(directory.glob("*.yaml")):
        for raw in (read_yaml(file) or {}).get("exceptions", []):
            keys = {"id", "laws", "when", "unless", "sentence"}
            if not isinstance(raw, dict) or not {"id", "laws", "when", "sentence"} <= set(raw) <= keys:
                raise KnowledgeError(f"{file.name}: an exception has id, laws, when, sentence and may have unless")
            here = f"{file.name}: exception {raw['id']}"
            if not isinstance(raw["laws"], list) or not raw["laws"] or not all(isinstance(n, int) for n in raw["laws"]):
                raise KnowledgeError(f"{here}: 'laws' lists the law numbers of the answers that carry it")
            when, unless = _conditions(raw, concepts, here)
            (sentence,) = summary_from_data([raw["sentence"]], here).sentences
            found.append(Exception_(str(raw["id"]), frozenset(raw["laws"]), when, sentence, unless))
    return tuple(found)


@cache
def load_exceptions() -> tuple[Exception_, ...]:
    """The process-wide exceptions, read once."""
    return read_exceptions()


@cache
def load_cases() -> tuple[Case, ...]:
    """The process-wide special cases, read once."""
    return read_cases()


@dataclass(frozen=True, slots=True)
class GeneralLaws:
    """Laws whose words every story has (Law 16 for "partner" and "bid", Law 12 for "score"), and for each law the
    terms that name its irregularity ("insufficient" for Law 27): a long post whose first law is a general one it
    does not name is answered by a law among the next ones that it names (``Answers.read``). ``asked`` holds, for
    a law, the words in which players ask what it decides ("can I take my card back" for Law 47): a question whose
    asking sentences name a law among the matcher's next ones, and not its first, is answered by that law."""

    laws: frozenset[int] = frozenset()
    named: Mapping[int, tuple[re.Pattern[str], ...]] = field(default_factory=dict)
    asked: Mapping[int, tuple[re.Pattern[str], ...]] = field(default_factory=dict)

    def names(self, law: int, lowered: str) -> bool:
        return any(p.search(lowered) for p in self.named.get(law, ()))

    def asks(self, lowered: str) -> set[int]:
        """The laws whose asking words a question's asking sentences use."""
        return {law for law, forms in self.asked.items() if any(p.search(lowered) for p in forms)}


def _expressions(file: Path, key: str, raw: Any) -> dict[int, tuple[re.Pattern[str], ...]]:
    if not isinstance(raw, dict) or not all(isinstance(v, list) and v for v in raw.values()):
        raise KnowledgeError(f"{file.name}: '{key}' maps a law number to its list of expressions")
    try:
        return {int(law): tuple(re.compile(str(e)) for e in found) for law, found in raw.items()}
    except (re.error, ValueError) as exc:
        raise KnowledgeError(f"{file.name}: '{key}': {exc}") from exc


def read_general_laws(directory: Path = CASES_DIR) -> GeneralLaws:
    """The ``general`` laws and their ``named`` terms, and the ``asked`` words, from the YAML files in
    ``directory`` that have them."""
    laws: set[int] = set()
    named: dict[int, tuple[re.Pattern[str], ...]] = {}
    asked: dict[int, tuple[re.Pattern[str], ...]] = {}
    for file in sorted(directory.glob("*.yaml")):
        document = read_yaml(file) or {}
        if "asked" in document:
            asked.update(_expressions(file, "asked", document["asked"]))
        if "general" not in document:
            continue
        raw_laws = document["general"]
        if not isinstance(raw_laws, list) or not all(isinstance(n, int) for n in raw_laws):
            raise KnowledgeError(f"{file.name}: 'general' is a list of law numbers")
        laws.update(raw_laws)
        named.update(_expressions(file, "named", document.get("named") or {}))
    return GeneralLaws(frozenset(laws), named, asked)


@cache
def load_general_laws() -> GeneralLaws:
    """The process-wide general laws, read once."""
    return read_general_laws()


def folded(text: str) -> str:
    """A text as conditions and question forms are matched against it: casefolded, curly apostrophes straight,
    runs of white space one space, and a card written suit symbol first ("the ♣4") as in words ("the 4 of
    clubs"), so a condition written for the one meets the other; a bid ("4♠") is left as it is. An aside that
    names who a seat is ("dummy (his wife) reached", "dummy, my partner, blurted out") is left out, so the
    seat meets its act as if told without it."""
    words = " ".join(text.casefold().replace("’", "'").split())
    return _ASIDE.sub(r"\1", _CARD.sub(lambda m: f"{m[2]} of {_SUITS[m[1]]}", words))


def find_case(cases: tuple[Case, ...], text: str, ranked: Sequence[int] = ()) -> Case | None:
    """The most specific case whose conditions the text states, given the matcher's laws best first: most
    conditions first, then the case whose law the matcher ranks higher, then the one citing a higher-ranked
    law, then file order."""
    lowered = folded(text)
    fitting = [case for case in cases if case.fits(lowered, ranked[0] if ranked else None)]
    rank = {law: position for position, law in reversed(list(enumerate(ranked)))}

    def order(case: Case) -> tuple[int, int, int]:
        laws = [law_number(ref) for ref in case.answer.laws if ref[:1].isdigit()]
        cited = min((rank.get(law, len(ranked)) for law in laws), default=len(ranked))
        return (-case.conditions, rank.get(case.law, len(ranked)), cited)

    return min(fitting, key=order, default=None)


def unnamed_concepts(
    cases: tuple[Case, ...], concepts: Mapping[str, Concept], exceptions: tuple[Exception_, ...] = ()
) -> list[str]:
    """The concepts no case or exception names: data that reaches nothing."""
    named = {c.name for case in cases for group in (case.topic, *case.when, case.unless) for c in group}
    named |= {c.name for found in exceptions for group in (*found.when, found.unless) for c in group}
    return sorted(set(concepts) - named)


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
