"""Deciders between neighbouring laws (``knowledge/deciders.yaml``): what makes 45 not 46, 63 not 62, 70 not 68.

The matcher usually finds the right incident and, half the time it misses, puts a neighbour of the right law
first: the worked examples are sure of the wrong one of two laws that differ in one detail (who named the
card, whether the revoke was established, whether the claim was contested). A decider names such a pair, the
words that say the detail, and the 2017 text's own distinction. It is read only when the matcher ranks the
pair first and second, and only orders those two: it never adds a law the matcher did not find.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.laws.book import KNOWLEDGE_DIR, LawBook, read_entries
from bot.laws.lint import Finding, LintReport
from bot.laws.refs import law_number

DECIDERS_FILE = KNOWLEDGE_DIR / "deciders.yaml"


@dataclass(frozen=True, slots=True)
class Decider:
    """Words that put ``favours`` before ``other`` when the matcher ranks the two first and second."""

    favours: int
    other: int
    phrases: tuple[str, ...]
    why: str
    law: str  # the 2017 text's own distinction, quoted for a reviewer
    pattern: re.Pattern[str]

    def says(self, words: str) -> bool:
        """Whether a message's words (see ``words``) hold one of the phrases, whole words in order."""
        return self.pattern.search(words) is not None


def words(text: str) -> str:
    """A message as the phrases are matched: lower case, its words separated by single spaces, padded."""
    return " " + " ".join(re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower().replace("\u2019", "'"))) + " "


def load_deciders(path: Path = DECIDERS_FILE) -> tuple[Decider, ...]:
    """The deciders; ValueError naming the entry when one is malformed."""
    return read_entries(path, "deciders", _decider)


def _decider(entry: Any) -> Decider:
    pair, phrases = entry["pair"], entry["phrases"]
    if not isinstance(pair, list) or not isinstance(phrases, list) or not phrases:
        raise TypeError("needs a 'pair' of two laws and a non-empty list of 'phrases'")
    laws = [law_number(str(law)) for law in pair]
    favours = law_number(str(entry["favours"]))
    if len(set(laws)) != 2 or favours not in laws:
        raise ValueError("'pair' must name two different laws and 'favours' one of them")
    said = tuple(" ".join(words(str(p)).split()) for p in phrases)
    if not all(said):
        raise ValueError("a phrase has no words")
    pattern = re.compile("|".join(f" {re.escape(p)} " for p in said))
    other = laws[1] if laws[0] == favours else laws[0]
    return Decider(favours, other, said, str(entry["why"]), str(entry["law"]), pattern)


def decide(deciders: tuple[Decider, ...], first: int, second: int, text: str) -> int | None:
    """The law of the two the message's words favour, or None when no decider speaks or both sides do."""
    relevant = [d for d in deciders if {d.favours, d.other} == {first, second}]
    if not relevant:
        return None
    said = words(text)
    sides = {d.favours for d in relevant if d.says(said)}
    return sides.pop() if len(sides) == 1 else None


def lint_deciders(book: LawBook, path: Path = DECIDERS_FILE) -> LintReport:
    """Every entry parses, names two laws that exist, says why and quotes the law's distinction, and no phrase
    speaks for both laws of one pair."""
    where = f"knowledge/{path.name}"
    try:
        deciders = load_deciders(path)
    except (ValueError, OSError) as exc:
        return LintReport([Finding(where, str(exc))], [])
    problems = [
        Finding(where, f"a decider names Law {law}, which does not exist")
        for d in deciders
        for law in (d.favours, d.other)
        if law not in book.laws
    ]
    problems += [
        Finding(where, f"the decider for Law {d.favours} over {d.other} needs 'why' and 'law'")
        for d in deciders
        if not d.why.strip() or not d.law.strip()
    ]
    said: dict[tuple[frozenset[int], str], set[int]] = {}
    for d in deciders:
        for p in d.phrases:
            said.setdefault((frozenset((d.favours, d.other)), p), set()).add(d.favours)
    problems += [
        Finding(where, f"the phrase {p!r} speaks for both Laws {' and '.join(map(str, sorted(pair)))}")
        for (pair, p), sides in said.items()
        if len(sides) > 1
    ]
    return LintReport(problems, [])
