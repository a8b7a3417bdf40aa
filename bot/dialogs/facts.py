"""Facts from the description: the questions a director's own words already answer.

A chart names, per question and option, the table words (cues) that give that answer
(``cues:`` in the chart, ``dialogs/FORMAT.md``). A cue never guesses: a question is answered from the
description only when exactly one of its options is cued and that cue is neither negated ("not accepted",
"hasn't called yet") nor contradicted (the same option's cue also negated elsewhere); otherwise it is asked.
A question or a supposition states nothing, and leaves the question to the director: a question with a cue in a
part of a sentence that ends in "?" or holds "if", "whether", "what happens" is asked ("East asks if it can be
accepted"), and so is one whose cue follows a belief or a party's claim ("South says East misexplained 2♦"), or
tells of another table or day, of how it only looked, of what was not yet done or is so for now, or is taken back
("At the other table, declarer accepted the lead", "it looked like", "was about to", "for now", "no, sorry").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from bot.dialogs.model import Chart, Question
from bot.laws.book import KNOWLEDGE_DIR, read_yaml

SOURCE = "description"  # an answer's ``source`` when it was taken from the description
ASK = "ask"  # in a chart's cues, in place of an option: words that leave the question to the director
_WORD = re.compile(r"[\w♠♥♦♣']+|[.,;:!?()—–]")
STOPS = frozenset(".,;:!?()—–")
_JOINS = frozenset(",:—–")  # the marks that join a short opening part to the rest of its sentence
_ENDS = frozenset(".!?;")  # the marks that end a sentence, or a part that could be one


@cache
def shorthand() -> dict[str, tuple[str, ...]]:
    """The shorthand tables type ("decl", "pd", "LOOT", "t5"), as the matcher expands it."""
    table = read_yaml(KNOWLEDGE_DIR / "abbreviations.yaml")["abbreviations"]
    return {str(key).casefold(): tuple(str(value).casefold().split()) for key, value in table.items()}


def words(text: str) -> tuple[str, ...]:
    """Lower-case words and clause punctuation, typographic apostrophes made plain and shorthand spelt out."""
    lowered = text.casefold().replace("’", "'").replace("‘", "'")
    spelt = shorthand()
    tokens = (token.strip("'") or token for token in _WORD.findall(lowered))
    return tuple(part for token in tokens for part in spelt.get(token, (token,)))


@dataclass(frozen=True, slots=True)
class Negations:
    """How a cue is negated: these phrases within ``window`` words before it, in the same clause; and the
    phrases that make a whole clause a question or a supposition, which leaves a question cued there to be asked."""

    phrases: tuple[tuple[str, ...], ...]
    breaks: tuple[tuple[str, ...], ...]
    window: int
    hypotheticals: tuple[tuple[str, ...], ...]
    plain: tuple[tuple[str, ...], ...]  # phrases whose negation word negates nothing: "not vulnerable"
    summons: tuple[tuple[str, ...], ...]  # after a cue, it names who was called: "had called the director"
    reports: tuple[tuple[str, ...], ...]  # before a cue, a belief or a claim, not a fact: "thinking trumps were drawn"
    compounds: frozenset[str]  # straight before a cue, part of another word: "non-offender"
    passives: Mapping[str, frozenset[str]]  # before a cue's first word, another sense: "was" before "called"
    asides: tuple[tuple[str, ...], ...]  # open the part before a cue's and report it too: "according to South,"
    undoing: tuple[tuple[str, ...], ...]  # straight after a cue, undo it: "declarer touched nothing"
    tags: tuple[tuple[str, ...], ...]  # a short part beside a cue's that says whose account it is: ", says RHO,"
    tag_words: int  # how many words such a part has at most
    tag_subjects: frozenset[str]  # the only words that may follow its tag: who says so ("says RHO")
    elsewhere: tuple[tuple[str, ...], ...]  # before a cue, another table, room, board or match: "at the other table"
    earlier: tuple[tuple[str, ...], ...]  # before a cue, another day, when the description names this one too
    this_event: tuple[tuple[str, ...], ...]  # names this table's event: "here", "tonight"
    opener_words: int  # how many words a part opening on another event ("At the other table,") has at most
    appearances: tuple[tuple[str, ...], ...]  # before a cue, only how it looked: "it looked like", "seemed to"
    corrections: tuple[tuple[str, ...], ...]  # after a cue, anywhere, take it back: "no, sorry", "correction:"
    future: tuple[tuple[str, ...], ...]  # before a cue, not yet done or a warning: "was about to", "next time"
    temporary: tuple[tuple[str, ...], ...]  # in a cue's part, a choice for the time being: "for now"
    sweeping: tuple[tuple[str, ...], ...]  # within ``sweeping_window`` words before a cue: "none of the players saw"
    sweeping_window: int


def read_negations(path: Path = KNOWLEDGE_DIR / "cues.yaml") -> Negations:
    document = read_yaml(path)

    def phrases(key: str) -> tuple[tuple[str, ...], ...]:
        return tuple(words(str(p)) for p in document[key])

    return Negations(
        phrases("negations"),
        phrases("breaks"),
        int(document["window"]),
        phrases("hypotheticals"),
        phrases("plain"),
        phrases("summons"),
        phrases("reports"),
        frozenset(str(p).casefold() for p in document["compounds"]),
        {str(w).casefold(): frozenset(str(b).casefold() for b in before) for w, before in document["passives"].items()},
        phrases("asides"),
        phrases("undoing"),
        phrases("tags"),
        int(document["tag_words"]),
        frozenset(w for p in document["tag_subjects"] for w in words(str(p))),
        phrases("elsewhere"),
        phrases("earlier"),
        phrases("this_event"),
        int(document["opener_words"]),
        phrases("appearances"),
        phrases("corrections"),
        phrases("future"),
        phrases("temporary"),
        phrases("sweeping"),
        int(document["sweeping_window"]),
    )


@cache
def load_negations() -> Negations:
    return read_negations()


def _find(haystack: tuple[str, ...], needle: tuple[str, ...]) -> Iterable[int]:
    """Every index where ``needle`` starts in ``haystack`` (whole words only)."""
    size = len(needle)
    for index in range(len(haystack) - size + 1):
        if haystack[index : index + size] == needle:
            yield index


@cache
def _needle(cue: str) -> tuple[str, ...]:
    """A cue's words as they are looked for: punctuation in a cue counts ("no diamonds, partner")."""
    return words(cue)


@dataclass(frozen=True, slots=True)
class Hit:
    """A cue found in the description: the option it gives, where, whether a negation stands before it, and
    whether it stands in a question or a supposition (``moot``)."""

    option: str
    start: int
    end: int
    negated: bool
    moot: bool


class Description:
    """A director's description, read once; ``answer`` says which option of a question it gives, if any."""

    def __init__(self, text: str, negations: Negations | None = None) -> None:
        self.negations = negations or load_negations()
        self.words = words(text)
        self._clause = self._clauses()
        self._plain = {
            index + offset
            for phrase in self.negations.plain
            for index in _find(self.words, phrase)
            for offset in range(len(phrase))
        }  # "NV" read as "not vulnerable": its "not" negates no cue
        # "last night" is another event only beside "here" or "tonight": alone, it is when the story happened
        here = self._stands(self.negations.this_event, 0, len(self.words), set())
        self._elsewhere = (*self.negations.elsewhere, *(self.negations.earlier if here else ()))
        said = self.negations
        self._suppositions = (*said.hypotheticals, *said.temporary)  # anywhere in a cue's part
        self._before = (*said.reports, *said.appearances, *said.future, *self._elsewhere)  # before a cue, in its part
        self._at: dict[str, list[int]] = {}  # where each word stands: a cue is looked for only where it can start
        for index, word in enumerate(self.words):
            self._at.setdefault(word, []).append(index)

    def _clauses(self) -> tuple[int, ...]:
        """For each word, where its clause starts (after punctuation or a word such as "but")."""
        starts: list[int] = []
        start = 0
        for index, word in enumerate(self.words):
            if word in STOPS:
                start = index + 1
            elif any(self.words[index : index + len(b)] == b for b in self.negations.breaks):
                start = index
            starts.append(start)
        return tuple(starts)

    def _moot(self, start: int, taken: set[int]) -> bool:
        """Whether the clause holding ``start`` is a question (it ends in "?") or a supposition (it holds "if",
        "whether" … that is not part of a cue found), or the cue follows a belief or a claim in it ("thinking",
        "says", "should have", "according to South,"), or a short part beside it says whose account it is
        ("LHO accepts, says RHO"): a cue there states nothing. So does a cue after words of another event ("at
        the other table"), of how it only looked ("it looked like"), of what was not yet done ("was about to"), or
        "none of"; a choice for now ("accepts for now"); and a cue taken back later ("no, sorry")."""
        first = self._clause[start]
        last = next((i for i in range(start, len(self.words)) if self._clause[i] != first), len(self.words))
        if last < len(self.words) and self.words[last] == "?":
            return True
        said = self.negations
        return (
            self._opens(self._suppositions, first, last, taken)
            or self._opens(self._before, first, start, taken)
            or self._opens(said.sweeping, max(first, start - said.sweeping_window), start, taken)
            or self._opens(said.corrections, start, len(self.words), taken)
            or self._aside(first)
            or self._tagged(first, last)
            or self._opened_elsewhere(first)
        )

    def _aside(self, first: int) -> bool:
        """Whether the part of the sentence before the one starting at ``first`` opens with "according to" or the
        like, and so reports this one too."""
        if first < 2 or self.words[first - 1] != ",":
            return False
        before = self._clause[first - 2]
        return any(self.words[before : before + len(phrase)] == phrase for phrase in self.negations.asides)

    def _tagged(self, first: int, last: int) -> bool:
        """Whether the part of the sentence just before ``first`` or just after ``last`` is a short one that says
        whose account the cue's part is (", says RHO,", ", he claims", "or so West claims", "East says,")."""
        beside = []
        before = next((i for i in range(first - 1, -1, -1) if self._clause[i] != first), None)  # its mark is its own
        if before is not None:
            beside.append((self._clause[before], first))
        if last < len(self.words):
            end = next((i for i in range(last, len(self.words)) if self._clause[i] != self._clause[last]), None)
            beside.append((last, end if end is not None else len(self.words)))
        parts = (tuple(w for w in self.words[lo:hi] if w not in STOPS and w != "'") for lo, hi in beside)
        return any(
            len(part) <= self.negations.tag_words
            and any(
                set(part[at + len(tag) :]) <= self.negations.tag_subjects  # "says RHO", not "says 'accept'"
                for tag in self.negations.tags
                for at in _find(part, tag)
            )
            for part in parts
        )

    def _opened_elsewhere(self, first: int) -> bool:
        """Whether the sentence opens with a short part that ends on another event, just before the one starting at
        ``first``, and so sets this part there too ("At the other table, declarer accepted the lead"; not "The other
        table has a result, but …", nor "East, who was suspended last year, was abusive")."""
        if first < 2 or self.words[first - 1] not in _JOINS:
            return False
        opens = self._clause[first - 2]
        if opens and self.words[opens - 1] not in _ENDS:
            return False
        part = tuple(w for w in self.words[opens : first - 1] if w != "'")
        return len(part) <= self.negations.opener_words and any(
            part[len(part) - len(phrase) :] == phrase for phrase in self._elsewhere
        )

    def _negated(self, start: int, taken: set[int]) -> bool:
        """A negation within a few words before ``start``, in its clause, and not part of another cue found nor of
        a plain phrase ("not vulnerable", "no trumps")."""
        first = max(self._clause[start], start - self.negations.window)
        return self._stands(self.negations.phrases, first, start, taken | self._plain)

    def _joined(self, start: int, taken: set[int]) -> bool:
        """Whether an "or" in the few words before ``start`` joins the cue to something a negation further back
        covers ("did not want to suspend or disqualify"): how far the negation reaches is for the director, so the
        question is asked, never answered by another option."""
        first = max(self._clause[start], start - self.negations.window)
        if not {"or", "nor"}.intersection(self.words[first:start]):
            return False
        reach = max(self._clause[start], first - self.negations.window)
        return self._stands(self.negations.phrases, reach, first, taken | self._plain)

    def _stands(self, phrases: tuple[tuple[str, ...], ...], first: int, last: int, taken: set[int]) -> bool:
        """Whether one of ``phrases`` stands among the words from ``first`` to ``last``, outside the ``taken`` ones."""
        return any(
            not taken.intersection(range(first + at, first + at + len(phrase)))
            for phrase in phrases
            for at in _find(self.words[first:last], phrase)
        )

    def _opens(self, phrases: tuple[tuple[str, ...], ...], first: int, last: int, taken: set[int]) -> bool:
        """Whether one of ``phrases`` begins from ``first`` to before ``last`` on a word no cue found took; it may run
        on into a cue: "said declarer" reports "declarer accepted", "had he" supposes "he substituted"."""
        return any(
            first + at < last and first + at not in taken
            for phrase in phrases
            for at in _find(self.words[first : last + len(phrase) - 1], phrase)
        )

    def _undone(self, end: int) -> bool:
        """Whether the words from ``end`` name the Director ("called" in "called the director" is no call) or undo
        the cue ("declarer touched nothing")."""
        after = (*self.negations.summons, *self.negations.undoing)
        return any(self.words[end : end + len(phrase)] == phrase for phrase in after)

    def hits(self, cues: Mapping[str, Iterable[str]]) -> list[Hit]:
        """The cues found, each with its option; a cue inside a longer cue found at the same place is dropped
        ("lead out of turn" within "opening lead out of turn"), and so is one followed by "the director" or
        "nothing", or straight after "non" ("non-offender") or a word that gives its first word another sense ("the
        director was called after the final pass" is no call)."""
        spans = [
            (option, start, start + len(needle))
            for option, phrases in cues.items()
            for phrase in phrases
            if (needle := _needle(phrase))
            for start in self._at.get(needle[0], ())
            if self.words[start : start + len(needle)] == needle
            and (option == ASK or not self._undone(start + len(needle)))  # a word that asks asks whatever follows
            and not (start and self.words[start - 1] in self.negations.compounds)
            and (option == ASK or not (start and self.words[start - 1] in self.negations.passives.get(needle[0], ())))
        ]
        kept = [
            (option, start, end)
            for option, start, end in spans
            if not any(s <= start and end <= e and (s, e) != (start, end) for _o, s, e in spans)
        ]
        found = {i for _o, s, e in kept for i in range(s, e)}
        return [
            Hit(
                option,
                start,
                end,
                self._negated(start, others := {i for _o, s, e in kept if (s, e) != (start, end) for i in range(s, e)}),
                option != ASK and (self._moot(start, found) or self._joined(start, others)),  # a word that asks asks
            )
            for option, start, end in kept
        ]

    def answer(self, cues: Mapping[str, Iterable[str]]) -> str | None:
        """The one option the description gives, or None when it gives none, several, or contradicts itself, or
        when the question is only asked or supposed in it ("can it be accepted?"): the director answers it."""
        hits = self.hits(cues)
        if any(hit.moot for hit in hits):
            return None
        stated = {hit.option for hit in hits if not hit.negated or hit.option == ASK}  # negated or not, it asks
        denied = {hit.option for hit in hits if hit.negated and hit.option != ASK}
        if len(stated) != 1 or stated & denied:
            return None
        return next(iter(stated))


@lru_cache(maxsize=2048)
def read_description(text: str) -> Description:
    """A description as read with the knowledge's negations, read once per text: a session's every press asks
    whether its description answers the question that now stands, and reading it again each time cost a tenth
    of a press. A ``Description`` is never changed once read, and the same text always reads the same."""
    return Description(text)


def answer_from(description: Description, chart: Chart, question: Question) -> str | None:
    """The option of ``question`` that the description gives, or None to ask it."""
    cues = chart.cues.get(question.id)
    if not cues:
        return None
    option = description.answer(cues)  # ``ASK``'s words are an option of none: cued with another, both are asked
    return option if option in {o.id for o in question.options} else None
