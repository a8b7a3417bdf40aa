"""From what a user typed to what to show: the one step the terminal and Telegram share.

A front end hands over the text and the user's mode and gets a ``Reply``: its kind, the text to show and
the offers (one button or numbered entry each). Choosing an offer is ``follow(act, key, then)``, the next
Reply; a chart to start comes back as kind START for the front end to open with the dialog service (with the
story's other incident, when it told two, to offer once that ruling is given). What a
text means is decided here and in ``knowledge/`` (question forms, chatter, the triage tree), never in a
front end, so both answer the same words the same way.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from itertools import takewhile

from bot.answers.reading import Answers, Topic, build_answers
from bot.answers.triage import Branch, Triage, load_triage
from bot.dialogs import Second
from bot.dialogs.model import Chart
from bot.laws import LawBook
from bot.laws.glossary import Term
from bot.laws.refs import law_number
from bot.laws.text import describe_lookup, format_term, ref_label
from bot.matching import HINT, Candidate, Matcher, MatchResult
from bot.matching.normalise import STOPWORDS

NEAR = 0.6  # a situation is shown when its score is at least this share of the first one's
SHOWN = 4  # and at most this many
ALSO = 2  # other situations offered under the answer to a story told at length
LIKELY = 100.0  # a matcher score from which a situation is "likely" (below: "possible"); calibrated in bench/RESULTS.md
CLEAR = 80.0  # ... or the first situation's, from this score up, when it leads the next by LEAD
LEAD = 15.0
CANDIDATES = 6  # laws asked of the matcher: several laws often lead to one chart
SAY = "Describe what happened at the table, e.g. “LHO led out of turn” or “partner hesitated then bid 4♠”."
DECLINE = (
    "I answer questions about the Laws of Duplicate Bridge and help the Director rule on what happened at the "
    "table; bidding and play advice and the club's arrangements are for your teacher or your club."
)
GONE = "That choice is no longer available; describe what happened again."
SECOND = "Now the second thing: "  # what the ruling on one incident of a story of two offers next


class Kind(Enum):
    """What a reply is, so a front end can lay it out (a law's text as printed, a chart started …)."""

    DEFINE = "define"  # a glossary entry
    SUMMARY = "summary"  # a players' summary
    RELATED = "related"  # what to read next after a summary
    LAW = "law"  # a law, section or definition as printed
    SITUATIONS = "situations"  # the charts the words point to
    TRIAGE = "triage"  # a question that narrows vague words
    SAY = "say"  # one line; nothing starts
    START = "start"  # the chart in ``Reply.key`` is to be started with the dialog service
    GONE = "gone"  # an offer that no longer leads anywhere


class Act(Enum):
    """What choosing an offer does."""

    CHART = "chart"  # start the chart ``key``
    LAW = "law"  # show the law ``key`` ("54", "27B1")
    TOPIC = "topic"  # the players' summary of ``key`` ("c:revoke", "l:54")
    RELATED = "related"  # the topics related to ``key``
    TRIAGE = "triage"  # the triage branch ``key`` ("play", "play.revoke")
    NONE = "none"  # none of the situations fits: narrow it down


@dataclass(frozen=True, slots=True)
class Offer:
    label: str
    act: Act
    key: str = ""
    then: str = ""  # CHART, for one of a story's two incidents: the other's chart, offered after this ruling


@dataclass(frozen=True, slots=True)
class Reply:
    kind: Kind
    text: str
    offers: tuple[Offer, ...] = ()
    key: str = ""  # START: the chart to start
    cites: tuple[str, ...] = ()  # the sections the text shown rests on (a summary's, a term's, a law's)
    topic: str = ""  # SUMMARY: the topic's token ("a:revoke-found-later", "c:revoke", "l:54")
    second: Second | None = None  # START: the story's other incident, to start with the chart and offer after it


class Replies:
    """Text → Reply, offer → Reply, over the players' answers, the matcher and the triage tree."""

    def __init__(self, answers: Answers, triage: Triage) -> None:
        self.answers = answers
        self.triage = triage
        self.book: LawBook = answers.book
        self.charts: Mapping[str, Chart] = answers.charts

    def to_text(self, text: str, mode: str = "auto") -> Reply:
        """What to show for a typed message, read as the user's mode says (see ``Answers.read``)."""
        if self.answers.forms.is_chatter(text):
            return Reply(Kind.SAY, SAY)
        reading = self.answers.read(text, mode, CANDIDATES)
        if reading.term is not None:
            return self.term(reading.term)
        if reading.intent == "decline":
            return Reply(Kind.SAY, DECLINE)
        if reading.topic is not None:
            answer = self.summary(reading.topic)
            return self.with_situations(answer, reading.topic, reading.match) if reading.story else answer
        assert reading.match is not None
        result = reading.match
        if result.direct_ref:
            return self.law(result.direct_ref)
        if not result.candidates and not self._vague_words(text):
            why = (result.message or "").removesuffix(HINT).strip()
            return Reply(Kind.SAY, f"{why} {SAY}".strip())
        if not result.candidates or not result.confident or self._vague(result):
            return self.triage_start(text)
        return self.situations(result)

    def follow(self, act: Act, key: str, then: str = "") -> Reply:
        """What choosing an offer shows; an offer whose chart, law, topic or branch is gone gives GONE. A chart
        chosen as one of a story's two incidents (``then``: the other's chart) starts with the other's offer."""
        if act is Act.CHART:
            if key not in self.charts or (then and (then not in self.charts or then == key)):
                return _gone()
            second = Second(then, SECOND + _situation_line(self.charts[then])) if then else None
            return Reply(Kind.START, "", (), key, second=second)
        if act is Act.LAW:
            return self.law(key)
        if act is Act.TOPIC or act is Act.RELATED:
            topic = self.answers.topic(key)
            if topic is None:
                return _gone()
            return self.summary(topic) if act is Act.TOPIC else self.related(topic)
        branch = self.triage.find(key if act is Act.TRIAGE else "")
        return self.branch(branch) if branch is not None else _gone()

    def define(self, asked: str) -> Reply:
        """``define TERM`` / ``/define TERM``: the entry, or the nearest terms."""
        if not asked.strip():
            return Reply(Kind.SAY, "Which term? For example “define penalty card”.")
        term = self.answers.glossary.lookup(asked)
        if term is not None:
            return self.term(term)
        near = self.answers.glossary.suggest(asked)
        hint = f" Did you mean: {', '.join(near)}?" if near else " The Laws' own terms are under “law definitions”."
        return Reply(Kind.SAY, f"I have no entry for “{asked.strip()[:60]}”.{hint}")

    # --- the replies ------------------------------------------------------------------------------

    def term(self, term: Term) -> Reply:
        offers = tuple(Offer(ref_label(self.book, ref), Act.LAW, ref) for ref in term.related)
        cites = tuple(dict.fromkeys([*(term.explain.laws if term.explain else ()), *term.related]))
        return Reply(Kind.DEFINE, format_term(term) + ("\n\nRelated laws:" if offers else ""), offers, cites=cites)

    def summary(self, topic: Topic) -> Reply:
        """A players' summary, each sentence citing its sections; then the chart, the law, related topics."""
        lines = [f"{topic.title} — in plain words", ""]
        lines += [f"{text} ({laws})" for text, laws in topic.summary.cited()]
        offers = [Offer("Walk me through it", Act.CHART, topic.chart)] if topic.chart is not None else []
        offers.append(Offer(f"Show the law (Law {topic.law})", Act.LAW, str(topic.law)))
        if self.answers.related(topic):
            offers.append(Offer("Related", Act.RELATED, topic.token))
        return Reply(Kind.SUMMARY, "\n".join(lines), tuple(offers), cites=topic.summary.laws, topic=topic.token)

    def with_situations(self, answer: Reply, topic: Topic, result: MatchResult | None) -> Reply:
        """A story told at length gets the answer first, and with it the other situations its words fit ("Or:
        Penalty card — Law 50"): a director whose incident the answer is not about starts the right chart in one
        tap, as from the list a short message gets."""
        if result is None or not result.confident or not result.candidates:
            return answer
        ranks = {c.law: rank for rank, c in enumerate(result.candidates)}
        taken = {topic.chart} if topic.chart else set()
        also: list[Offer] = []
        for candidate in _near(result):
            if len(also) >= ALSO:
                break
            chart = self._chart_for(candidate, ranks, taken)
            if chart is not None:
                taken.add(chart.id)
                offer = _chart_offer(chart, result, candidate)
                also.append(replace(offer, label=f"Or: {offer.label}"))
        return replace(answer, offers=(*answer.offers, *also))

    def related(self, topic: Topic) -> Reply:
        offers = tuple(Offer(other.title, Act.TOPIC, other.token) for other in self.answers.related(topic))
        if not offers:
            return Reply(Kind.SAY, f"Nothing related to {topic.title}.")
        return Reply(Kind.RELATED, f"Related to {topic.title}:", offers)

    def law(self, ref: str) -> Reply:
        found, text = describe_lookup(self.book, ref)
        return Reply(Kind.LAW, text.rstrip(), cites=(ref,)) if found else _gone()

    def situations(self, result: MatchResult) -> Reply:
        """One line per chart, led by its plain name and law, with how sure; only those near the first. A story
        that tells two incidents in separate sentences gets both first, each with the words that told it, to be
        ruled on one after the other, rather than one list in which the second looks like a rival guess."""
        ranks = {c.law: rank for rank, c in enumerate(result.candidates)}
        offers, told = self._incidents(result, ranks)
        for candidate in _near(result):
            if len(offers) >= SHOWN:
                break
            chart = self._chart_for(candidate, ranks, offers.keys())
            if chart is not None:
                offers[chart.id] = _chart_offer(chart, result, candidate)
            elif not candidate.charts:
                label = f"Law {candidate.law} — {candidate.title} ({how_sure(result, candidate)})"
                offers.setdefault(f"law {candidate.law}", Offer(label, Act.LAW, str(candidate.law)))
        text = (
            "\n".join(("Two things happened here; rule on each in turn:", *told)) if told else "Which situation is it?"
        )
        return Reply(Kind.SITUATIONS, text, (*offers.values(), Offer("None of these", Act.NONE)))

    def triage_start(self, text: str) -> Reply:
        """The triage question for a text, from the choice its words already make ("in the middle of the
        bidding": what happened in the auction?), with "Something else" back to the first question."""
        start = self.triage.start(text)
        reply = self.branch(start)
        if start is self.triage.root:
            return reply
        return Reply(reply.kind, reply.text, (*reply.offers, Offer("Something else", Act.NONE)))

    def branch(self, branch: Branch) -> Reply:
        """A triage question with its choices, or, at the end of a branch, its charts."""
        if branch.branches:
            offers = tuple(Offer(b.label, Act.TRIAGE, b.key) for b in branch.branches)
            return Reply(Kind.TRIAGE, branch.question, offers)
        charts = [self.charts[c] for c in branch.charts if c in self.charts]
        if not charts:
            return Reply(Kind.SAY, "No chart fits that yet; the list of charts has them all.")
        offers = tuple(Offer(_situation_line(c), Act.CHART, c.id) for c in charts)
        return Reply(Kind.SITUATIONS, "Which situation is it?", offers)

    # --- helpers ----------------------------------------------------------------------------------

    def _incidents(self, result: MatchResult, ranks: dict[int, int]) -> tuple[dict[str, Offer], list[str]]:
        """The charts of a story's two incidents (by chart id) and a numbered line quoting the words that told
        each, the likelier first; nothing unless each incident has a chart of its own and the best candidate is
        one of them. Over the labelled messages a split led by the incident told first, or by an incident the best
        candidate is not, put a wrong situation first 32 times for 3 it put right."""
        if not result.incidents or result.candidates[0].law not in result.incidents:
            return {}, []
        offers: dict[str, Offer] = {}
        told: list[str] = []
        by_law = {c.law: c for c in result.candidates}
        likelier_first = sorted(
            zip(result.incidents, result.told, strict=False), key=lambda i: ranks.get(i[0], len(ranks))
        )
        for law, sentence in likelier_first:
            candidate = by_law.get(law)
            chart = self._chart_for(candidate, ranks, offers.keys()) if candidate else None
            if candidate is None or chart is None:
                return {}, []
            offers[chart.id] = _chart_offer(chart, result, candidate)
            told.append(f"{len(told) + 1}. “{_quoted(sentence)}” — {plain_name(chart)}")
        if len(told) < 2:
            return {}, []
        first, second = offers
        offers[first] = replace(offers[first], then=second)  # each incident's chart offers the other's after it
        offers[second] = replace(offers[second], then=first)
        return offers, told

    def _chart_for(self, candidate: Candidate, ranks: dict[int, int], taken: Collection[str]) -> Chart | None:
        """The chart a candidate law leads to: the one that is about that law, else the one about the
        best-ranked other candidate law, else the matcher's order; one already offered is passed over."""
        charts = [self.charts[c] for c in candidate.charts if c in self.charts and c not in taken]

        def fit(chart: Chart) -> tuple[int, int]:
            main = law_number(chart.laws[0])
            return (0 if main == candidate.law else 1 + ranks.get(main, len(ranks)), candidate.charts.index(chart.id))

        return min(charts, key=fit, default=None)

    def _vague(self, result: MatchResult) -> bool:
        """Whether the first candidate rests only on words that say nothing of what happened."""
        words = {w for run in result.candidates[0].matched for w in re.findall(r"\w+", run.casefold())}
        return words <= self.triage.vague | STOPWORDS

    def _vague_words(self, text: str) -> bool:
        """Whether the text says something went wrong ("there is a problem") though nothing matched."""
        return bool(set(re.findall(r"\w+", text.casefold())) & self.triage.vague)


def _near(result: MatchResult) -> list[Candidate]:
    """The candidates close enough to the first to be offered (at least NEAR of its score), in their order: the
    one cut for the situations list and for the situations offered under a story's answer."""
    best = max(c.score for c in result.candidates)
    return list(takewhile(lambda c: c.score >= NEAR * best, result.candidates))


def how_sure(result: MatchResult, candidate: Candidate) -> str:
    """ "likely" or "possible", as the held-out sets measured them: a score of 100 is right first nine times in
    ten; a first score of 80-99 only when it clearly leads the next (four in five), else about half the time."""
    if candidate.score >= LIKELY:
        return "likely"
    first, *rest = result.candidates
    leads = candidate.score - max((c.score for c in rest), default=0.0) >= LEAD
    return "likely" if candidate is first and candidate.score >= CLEAR and leads else "possible"


def _chart_offer(chart: Chart, result: MatchResult, candidate: Candidate) -> Offer:
    """A chart offered for a candidate law: its plain name, its own law and how sure."""
    return Offer(f"{_situation_line(chart)} ({how_sure(result, candidate)})", Act.CHART, chart.id)


def _situation_line(chart: Chart) -> str:
    """The line that offers a chart: its plain name and its law ("Claim — Law 70")."""
    return f"{plain_name(chart)} — {chart_laws_named(chart)}"


def _quoted(sentence: str, most: int = 80) -> str:
    """A sentence as quoted back to its writer: whole when short, else cut at a word with an ellipsis."""
    sentence = " ".join(sentence.split())
    if len(sentence) <= most:
        return sentence
    return sentence[:most].rsplit(" ", 1)[0] + "…"


def plain_name(chart: Chart) -> str:
    """A chart's title without its parenthesis or its dash-led detail: "Card played from dummy"."""
    return re.split(r" \(| — | - |, ", chart.title, maxsplit=1)[0]


def chart_laws_named(chart: Chart) -> str:
    """The law a situation line names: the chart's first, or the laws it names when that one alone would name
    only one of its cases ("Laws 55, 56": declarer's lead out of turn, and a defender's)."""
    if chart.named:
        return "Laws " + ", ".join(chart.named)
    return f"Law {law_number(chart.laws[0])}"


def _gone() -> Reply:
    return Reply(Kind.GONE, GONE)


def build_replies(book: LawBook, charts: Mapping[str, Chart], matcher: Matcher) -> Replies:
    """The shared reply step over the process-wide knowledge base."""
    return Replies(build_answers(book, charts, matcher), load_triage())
