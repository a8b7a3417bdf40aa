"""How a text reads: a general question gets a short cited summary first; an incident, the director's chart.

Not every user is directing. "What happens after a lead out of turn?" wants the options and consequences in
plain words, then — if the player wishes — the full walk-through. "LHO led out of turn" at the table wants
the chart at once. ``Answers.read`` decides which (``knowledge/question-forms.yaml``, or the user's own
setting), and finds the topic: a chart's summary when a chart serves the law, else the law's summary.
The shared reply step (``bot.answers.replies``) turns a reading into what to show; nothing here knows
Telegram or the terminal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from bot.answers.worked import worked_sentence
from bot.dialogs.model import Chart, Jump
from bot.laws import LawBook
from bot.laws.book import KNOWLEDGE_DIR, read_yaml
from bot.laws.glossary import Glossary, Term, load_glossary
from bot.laws.lint import cross_refs
from bot.laws.refs import law_number
from bot.laws.summaries import (
    Case,
    Exception_,
    GeneralLaws,
    Summary,
    find_case,
    folded,
    led_by,
    load_cases,
    load_exceptions,
    load_general_laws,
    load_law_summaries,
)
from bot.matching import Candidate, Matcher, MatchResult

MODES = ("auto", "player", "director")  # a user's setting: by how the text reads, always summary, always chart
MODE_KEY = "answers"
RELATED = 6  # topics offered under "Related"
BACKING = 2  # a special case needs its law, or a law it cites, among the matcher's first this many laws
NAMED = 3  # a long post's first law, if general and not named, gives way to one it names among this many
ASKED = 3  # a question's first law, if its asking words do not name it, gives way to one they name among this many
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+|\n+")


@dataclass(frozen=True, slots=True)
class Topic:
    """What a player's answer is about: a special case, a chart's situation, or a whole law."""

    kind: str  # "answer", "chart" or "law"
    key: str  # the case's id, the chart id, or the law number
    title: str
    summary: Summary
    law: int  # the law "Show the law" opens
    chart: str | None  # the chart "Walk me through it" starts

    @property
    def token(self) -> str:
        """Compact and stable, for buttons: ``a:revoke-found-later``, ``c:revoke`` or ``l:54``."""
        return f"{self.kind[0]}:{self.key}"


@dataclass(frozen=True, slots=True)
class Reading:
    """How a text was taken: a definition asked for, a question to summarise, or an incident to rule on."""

    intent: str  # "define", "decline", "question" or "incident"
    match: MatchResult | None  # the matcher's candidates (questions and incidents)
    topic: Topic | None  # the summary to show first (questions the matcher was sure of)
    term: Term | None  # the glossary entry (definitions)
    story: bool = False  # an incident told at length (a post, a player's own): answered first, its situations too


@dataclass(frozen=True, slots=True)
class _Form:
    pattern: re.Pattern[str]
    weight: int


@dataclass(frozen=True, slots=True)
class QuestionForms:
    question: tuple[_Form, ...]
    incident: tuple[_Form, ...]
    define: tuple[_Form, ...]
    chatter: tuple[_Form, ...]
    decline: tuple[_Form, ...]
    keep: tuple[_Form, ...]
    quoted: tuple[_Form, ...]
    first_person: tuple[_Form, ...]
    asks: tuple[_Form, ...]
    own: tuple[_Form, ...]
    directing: tuple[_Form, ...]
    post: tuple[_Form, ...]
    cites: tuple[_Form, ...]

    def intent(self, text: str) -> str:
        """ "question" when the text reads as a general question about the rules, else "incident"."""
        lowered = folded(text)
        asked = sum(f.weight for f in self.question if f.pattern.search(lowered))
        told = sum(f.weight for f in self.incident if f.pattern.search(lowered))
        return "question" if asked > told else "incident"

    def is_players_own(self, text: str) -> bool:
        """Whether a text told as an incident is a player asking about their own situation ("i bid out of turn,
        whats the penalty", "i doubled out of turn", "LHO put a 5th card on a trick, what now"): they want the
        answer first, a director's shorthand ("LHO led out of turn") wants the chart. A post written after the
        event (a forum question of several sentences) wants the answer whatever its words: nobody types one at
        the table, even a director asking whether their ruling was right."""
        if self.is_post(text):
            return True
        lowered = folded(text)
        voiced = lowered  # the writer's own words: what they quote someone else saying is not them asking
        for form in self.quoted:
            voiced = form.pattern.sub(" ", voiced)

        def found(forms: tuple[_Form, ...], words: str) -> bool:
            return any(f.pattern.search(words) for f in forms)

        told = found(self.own, voiced) or (found(self.first_person, voiced) and found(self.asks, voiced))
        return told and not found(self.directing, lowered)

    def is_post(self, text: str) -> bool:
        """Whether a text is a post written after the event (several sentences), not a message from the table."""
        lowered = folded(text)
        return any(f.pattern.search(lowered) for f in self.post)

    def laws_cited(self, text: str) -> list[int]:
        """The laws a text names by number ("Law 24B", "L82C"), in the order named."""
        lowered = folded(text)
        return [int(m.group("law")) for form in self.cites for m in form.pattern.finditer(lowered)]

    def term(self, text: str) -> str | None:
        """The term in "what is a penalty card?" (whether the glossary knows it is the caller's business)."""
        lowered = folded(text)
        for form in self.define:
            found = form.pattern.match(lowered)
            if found:
                return found.group("term")
        return None

    def is_chatter(self, text: str) -> bool:
        """Whether the whole text is thanks, a greeting, laughter or a bare number: nothing to start."""
        kept = "".join(" " if unicodedata.category(c)[0] in "PSC" else c for c in text.casefold())
        bare = " ".join(kept.split())
        return not bare or any(form.pattern.match(bare) for form in self.chatter)

    def is_declined(self, text: str) -> bool:
        """Whether the text asks for bidding or play advice, the club's arrangements or anything else that is
        not about the Laws, and names nothing that makes it a law question after all."""
        lowered = folded(text)
        return any(f.pattern.search(lowered) for f in self.decline) and not any(
            f.pattern.search(lowered) for f in self.keep
        )


def read_question_forms(path: Path = KNOWLEDGE_DIR / "question-forms.yaml") -> QuestionForms:
    document = read_yaml(path)

    def forms(kind: str) -> tuple[_Form, ...]:
        return tuple(_Form(re.compile(f["pattern"]), int(f["weight"])) for f in document[kind])

    return QuestionForms(
        forms("question"),
        forms("incident"),
        forms("define"),
        forms("chatter"),
        forms("decline"),
        forms("keep"),
        forms("quoted"),
        forms("first_person"),
        forms("asks"),
        forms("own"),
        forms("directing"),
        forms("post"),
        forms("cites"),
    )


@cache
def load_question_forms() -> QuestionForms:
    return read_question_forms()


class Answers:
    """Players' answers over the matcher, the charts, the law summaries and the glossary."""

    def __init__(
        self,
        book: LawBook,
        charts: Mapping[str, Chart],
        matcher: Matcher,
        summaries: Mapping[int, Summary],
        glossary: Glossary,
        forms: QuestionForms,
        cases: tuple[Case, ...] = (),
        general: GeneralLaws | None = None,
        exceptions: tuple[Exception_, ...] = (),
    ) -> None:
        self.book = book
        self.charts = charts
        self.matcher = matcher
        self.summaries = summaries
        self.glossary = glossary
        self.forms = forms
        self.cases = cases
        self.general = general or GeneralLaws()
        self.exceptions = exceptions
        self._case_laws: dict[str, set[int]] = {}

    def read(self, text: str, mode: str = "auto", limit: int = 3) -> Reading:
        """Take a text as the user's setting says: by how it reads (auto), always a question, always an incident."""
        if mode != "director":
            asked = self.forms.term(text)
            term = self.glossary.lookup(asked) if asked else None
            if term is not None:
                return Reading("define", None, None, term)
        if self.forms.is_declined(text):
            return Reading("decline", None, None, None)
        intent = {"player": "question", "director": "incident"}.get(mode) or self.forms.intent(text)
        story = intent == "incident" and mode == "auto" and self.forms.is_players_own(text)
        if story:
            intent = "question"
        result = self.matcher.match(text, limit)
        if intent == "incident" or result.direct_ref:
            return Reading(intent, result, None, None)
        ranked = [c.law for c in result.candidates]
        cited = self.forms.laws_cited(text)
        named = set(cited)
        fitting = tuple(c for c in self.cases if backed(c, text, ranked) and self.about_named(c, named))
        case = find_case(fitting, text, ranked)
        if case is not None:
            return Reading(intent, result, self.excepted(self.case_topic(case, text), text), None, story)
        if not result.confident or not result.candidates:
            return Reading(intent, result, None, None)
        first = self.cited(cited, result.candidates) or self.asked_over_first(text, result.candidates)
        if first is None and self.forms.is_post(text):
            first = self.named_over_general(text, result.candidates)
        return Reading(intent, result, self.excepted(self.topic_for(first or result.candidates[0]), text), None, story)

    def excepted(self, topic: Topic | None, text: str) -> Topic | None:
        """The topic led by the first exception to its law whose trigger the question states (``Exception_``):
        the player who names the special fact gets its rule first, whichever answer of the topic was picked. A
        special answer that already cites the exception's sections was written for that case and keeps its order."""
        if topic is None:
            return None
        lowered = folded(text)

        def carries(found: Exception_) -> bool:
            return topic.kind == "answer" and set(found.sentence.laws) <= set(topic.summary.laws)

        found = next((e for e in self.exceptions if e.applies(topic.law, lowered) and not carries(e)), None)
        if found is None:
            return topic
        return replace(topic, summary=led_by(topic.summary, found.sentence))

    def about_named(self, case: Case, named: set[int]) -> bool:
        """Whether a case is about a law the text names by number, or the text names none: a poster asking "does
        it fall foul of Law 74C4?" or about "the new Law 68D" asks about that law, and a case about another (a
        claim that forgot a trump, following suit) answers a question nobody asked, however well its words fit the
        story. A law the case's sections refer to counts ("in conflict with Law 20F2" for 41B, which names it)."""
        return not named or bool(named & self._laws_of(case))

    def _laws_of(self, case: Case) -> set[int]:
        """The case's law, the laws it cites, and the laws its cited sections refer to (worked out once a case)."""
        if case.id not in self._case_laws:
            refs = [ref for ref in case.answer.laws if ref[:1].isdigit()]
            sections = [self.book.section(ref) for ref in refs]
            referred = [r for s in sections if s is not None for r in cross_refs(s.text)]
            self._case_laws[case.id] = {case.law} | {law_number(ref) for ref in [*refs, *referred]}
        return self._case_laws[case.id]

    @staticmethod
    def cited(laws: Sequence[int], candidates: tuple[Candidate, ...]) -> Candidate | None:
        """The first of the laws a text names by number (``QuestionForms.laws_cited``) that the matcher also
        ranks, if any: "under Law 24B, shall I change my call?" is about Law 24 even when the story's words rank
        Law 25 first."""
        ranked = {c.law: c for c in candidates}
        return next((ranked[law] for law in laws if law in ranked), None)

    def asked_over_first(self, text: str, candidates: tuple[Candidate, ...]) -> Candidate | None:
        """A law among the matcher's next few that the question's asking sentences name in the words players ask
        it in ("can I take my card back?" for Law 47), when they do not name the first: the story ranks the
        law of what happened, the asking words tell which rule is wanted. None to keep the first."""
        asked = self.general.asks(asking_part(text))
        if not asked or candidates[0].law in asked:
            return None
        return next((c for c in candidates[1:ASKED] if c.law in asked), None)

    def named_over_general(self, text: str, candidates: tuple[Candidate, ...]) -> Candidate | None:
        """For a long post: a law among the matcher's next few that the post names ("insufficient"), when the
        first is a general law it does not name (Law 16 from "partner", "bid", "pass"); None to keep the first."""
        lowered = folded(text)
        first = candidates[0]
        if first.law not in self.general.laws or self.general.names(first.law, lowered):
            return None
        return next((c for c in candidates[1:NAMED] if self.general.names(c.law, lowered)), None)

    def topic_for(self, candidate: Candidate) -> Topic | None:
        """The summary to show for a candidate: the chart that is about its law first (a claim question gets
        the claim chart, not a chart that merely mentions claims), then its other charts, else the law's."""
        own = sorted(candidate.charts, key=lambda c: law_number(self.charts[c].laws[0]) != candidate.law)
        for chart_id in own:
            topic = self.chart_topic(chart_id)
            if topic is not None:
                return topic
        return self.law_topic(candidate.law)

    def case_topic(self, case: Case, text: str = "") -> Topic:
        """A case's answer, led by its worked example when the question gives the figures for one."""
        chart = case.chart if case.chart in self.charts else None
        example = worked_sentence(case.worked, folded(text)) if case.worked else None
        answer = led_by(case.answer, example, give_way=False) if example is not None else case.answer
        return Topic("answer", case.id, case.title, answer, case.law, chart)

    def chart_topic(self, chart_id: str) -> Topic | None:
        chart = self.charts.get(chart_id)
        if chart is None or chart.summary is None:
            return None
        return Topic("chart", chart.id, chart.title, chart.summary, law_number(chart.laws[0]), chart.id)

    def law_topic(self, number: int) -> Topic | None:
        law = self.book.laws.get(number)
        summary = self.summaries.get(number)
        if law is None or summary is None:
            return None
        charts = self.matcher.charts_by_law.get(number, [])
        return Topic("law", str(number), f"Law {number} — {law.title}", summary, number, charts[0] if charts else None)

    def topic(self, token: str) -> Topic | None:
        """The topic a button names (``a:claim-forgot-trump``, ``c:revoke``, ``l:54``); None for anything else."""
        kind, _, key = token.partition(":")
        if kind == "a":
            case = next((c for c in self.cases if c.id == key), None)
            return self.case_topic(case) if case is not None else None
        if kind == "c":
            return self.chart_topic(key)
        if kind == "l" and key.isdigit():
            return self.law_topic(int(key))
        return None

    def related(self, topic: Topic) -> list[Topic]:
        """Where a player may look next: a special case's chart and the laws it cites, the other laws and charts a
        chart uses, or a law's charts and the laws its text refers to."""
        if topic.kind == "answer":
            tokens = [f"c:{topic.chart}"] if topic.chart else []
            tokens += [f"l:{law_number(ref)}" for ref in topic.summary.laws]
        elif topic.kind == "chart":
            chart = self.charts[topic.key]
            tokens = [f"l:{law_number(ref)}" for ref in chart.laws]
            tokens += [f"c:{target}" for target in self._handed_to(chart)]
        else:
            law = self.book.laws[topic.law]
            tokens = [f"c:{c}" for c in self.matcher.charts_by_law.get(topic.law, [])]
            tokens += [f"l:{law_number(ref)}" for s in law.sections for ref in cross_refs(s.text)]
        found: list[Topic] = []
        for token in dict.fromkeys(tokens):
            other = self.topic(token)
            if other is not None and other.token != topic.token and other not in found:
                found.append(other)
        return found[:RELATED]

    def _handed_to(self, chart: Chart) -> list[str]:
        """The charts a chart jumps to, in its order; a chart that is part of others is read through to the charts
        it jumps to, since players are never shown it (wrong-number-of-cards leads to the revoke chart through the
        restored-card chart)."""
        found: list[str] = []
        for node in chart.nodes.values():
            if isinstance(node, Jump):
                target = self.charts[node.jump]
                found += self._handed_to(target) if target.part_of else [target.id]
        return found


def asking_part(text: str) -> str:
    """The sentences of a text that ask (those with a question mark), as forms are matched: a story's words
    tell what happened, these tell what the player wants to know. A text without one asks in no words of its own."""
    return " ".join(s for s in _SENTENCE_END.split(folded_lines(text)) if "?" in s)


def folded_lines(text: str) -> str:
    """A text folded as ``folded`` does, but keeping its line breaks, which end a sentence as a full stop does."""
    return "\n".join(folded(line) for line in text.splitlines())


def backed(case: Case, text: str, ranked: list[int]) -> bool:
    """Whether the matcher's reading backs a case whose conditions the text may state: its law, or a law it
    cites, is among the first laws ranked, or the text names the case's topic in words, or the matcher found
    no law at all. A condition's words alone ("partner", "ask", "before") also turn up in questions about
    something else, and a special answer there is wrong where the general summary would have been right."""
    if not ranked or case.law in ranked[:BACKING]:
        return True
    cited = {law_number(ref) for ref in case.answer.laws if ref[:1].isdigit()}
    lowered = folded(text)
    return bool(cited & set(ranked[:BACKING])) or any(concept.stated(lowered) for concept in case.topic)


def build_answers(book: LawBook, charts: Mapping[str, Chart], matcher: Matcher) -> Answers:
    """The answers service over the process-wide knowledge base."""
    return Answers(
        book,
        charts,
        matcher,
        load_law_summaries(),
        load_glossary(),
        load_question_forms(),
        load_cases(),
        load_general_laws(),
        load_exceptions(),
    )
