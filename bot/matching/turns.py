"""Seats and turns (``knowledge/turns.yaml``): who was to act, who acted, and what, read as a relation.

A story of a call or lead out of turn rarely names it: "North is dealer but West put the 1♦ card on the table
before North touched the bidding box", "dummy won the trick and the defender on my left led". No phrase of one
law holds that; the relation does: a seat whose turn it was had not yet acted (or another won the last trick),
another seat acted, and the act (a pass, a bid, a double; a lead) decides the law. Each relation names groups of
words that must all be said in the message, groups that must not be, and its laws, or the laws of the act named
(the first of ``by`` said). A relation said adds points to its laws (``bot.matching.matcher``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.laws.book import KNOWLEDGE_DIR, LawBook, built_entries, read_yaml
from bot.laws.lint import Finding, LintReport
from bot.laws.refs import law_number
from bot.matching.compass import Compass, compass_of
from bot.matching.deciders import words

TURNS_FILE = KNOWLEDGE_DIR / "turns.yaml"
GAP = r"(?:[^ |]+ ){0,4}"  # what "*" in a phrase stands for: up to four words ("before * had" → "before north had")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")


@dataclass(frozen=True, slots=True)
class Relation:
    """A relation of seats and acts, the groups of words that tell it, and the laws it signals."""

    told: str
    needs: tuple[re.Pattern[str], ...]  # each must be said (one of the groups it stands for)
    bars: tuple[re.Pattern[str], ...]  # none may be said
    by: tuple[tuple[re.Pattern[str] | None, tuple[int, ...]], ...]  # the act named → its laws; None: any act
    weight: int = 1  # how many relations it counts for: one that names the act and its card in one place counts more

    def laws(self, said: str) -> tuple[int, ...]:
        """The laws the relation signals in a message's words (see ``heard``), each ``weight`` times; () when it
        is not said."""
        if not all(p.search(said) for p in self.needs) or any(p.search(said) for p in self.bars):
            return ()
        laws = next((laws for act, laws in self.by if act is None or act.search(said)), ())
        return laws * self.weight


def load_relations(path: Path = TURNS_FILE) -> tuple[Relation, ...]:
    """The relations, their groups read from the same file; ValueError naming the entry when one is malformed."""
    return _relations(read_yaml(path), path.name)


def load_turns(path: Path = TURNS_FILE) -> tuple[tuple[Relation, ...], Compass]:
    """The relations and the compass reading, the file parsed once (it is read at every start-up)."""
    raw = read_yaml(path)
    return _relations(raw, path.name), compass_of(raw, path.name)


def _relations(raw: Any, name: str) -> tuple[Relation, ...]:
    groups = raw.get("words") if isinstance(raw, dict) else None
    if not isinstance(groups, dict):
        raise ValueError(f"{name}: expected the groups of words under 'words'")
    patterns = {str(group): _pattern(phrases) for group, phrases in groups.items()}
    return built_entries(raw, name, "relations", lambda entry: _relation(entry, patterns))


def _pattern(phrases: Any) -> re.Pattern[str]:
    if not isinstance(phrases, list) or not phrases:
        raise ValueError("a group of words needs a non-empty list of phrases")
    said = [" ".join(words(str(p).replace("*", " gapgap ")).split()) for p in phrases]
    if not all(said):
        raise ValueError("a phrase has no words")
    tree: dict[str, Any] = {}
    for phrase in said:
        node = tree
        for word in phrase.split():
            node = node.setdefault(word, {})
        node[""] = {}  # a phrase ends here
    return re.compile(" " + _alternatives(tree))


def _alternatives(tree: dict[str, Any]) -> str:
    """The phrases sharing their first words as one branch ("doubled north's pass", "doubled east's pass" →
    "doubled (?:north's|east's) pass"): a long group is then tried word by word, not phrase by phrase."""
    branches = [
        "" if word == "" else (GAP if word == "gapgap" else f"{re.escape(word)} ") + _alternatives(rest)
        for word, rest in tree.items()
    ]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def _group(name: Any, patterns: dict[str, re.Pattern[str]]) -> re.Pattern[str]:
    """One group, or any of several (a list of names): one pattern either way."""
    names = name if isinstance(name, list) else [name]
    unknown = [n for n in names if str(n) not in patterns]
    if unknown:
        raise ValueError(f"no group of words named {unknown[0]!r}")
    return re.compile("|".join(patterns[str(n)].pattern for n in names))


def _relation(entry: Any, patterns: dict[str, re.Pattern[str]]) -> Relation:
    needs = tuple(_group(n, patterns) for n in entry["all"])
    bars = tuple(_group(n, patterns) for n in entry.get("none", []))
    if not needs or not str(entry["why"]).strip():
        raise ValueError("a relation needs 'all' (the groups that tell it) and 'why'")
    if "laws" in entry:
        by: list[tuple[re.Pattern[str] | None, tuple[int, ...]]] = [(None, _laws(entry["laws"]))]
    else:
        by = [(_group(b["said"], patterns) if "said" in b else None, _laws(b["laws"])) for b in entry["by"]]
    weight = int(entry.get("weight", 1))
    if weight < 1:
        raise ValueError("a relation's 'weight' is a whole number of relations, 1 or more")
    return Relation(str(entry["told"]), needs, bars, tuple(by), weight)


def _laws(laws: Any) -> tuple[int, ...]:
    if not isinstance(laws, list) or not laws:
        raise ValueError("'laws' must be a non-empty list")
    return tuple(dict.fromkeys(law_number(str(law)) for law in laws))


def heard(text: str) -> str:
    """A message's words as the phrases are matched (``deciders.words``), a bar between its sentences: a phrase,
    and a "*" in it, stays within a sentence ("… sitting there from before. LHO had passed" is not "before * had"),
    while a relation's groups may be said in different sentences."""
    return "|".join(words(part) for part in _SENTENCE_END.split(text))


def signalled(relations: tuple[Relation, ...], text: str, compass: Compass | None = None) -> dict[int, int]:
    """Per law, how many of the relations said in the text signal it, and how many readings of the auction told
    by compass seats (``bot.matching.compass``)."""
    words_heard = heard(text)
    counted: dict[int, int] = {}
    for relation in relations:
        for law in relation.laws(words_heard):
            counted[law] = counted.get(law, 0) + 1
    for law in compass.signals(text) if compass is not None else ():
        counted[law] = counted.get(law, 0) + 1
    return counted


def lint_turns(book: LawBook, path: Path = TURNS_FILE) -> LintReport:
    """Every relation parses, names groups that exist and laws that exist."""
    where = f"knowledge/{path.name}"
    try:
        relations, compass = load_turns(path)
    except (ValueError, KeyError, TypeError, OSError) as exc:
        return LintReport([Finding(where, str(exc))], [])
    problems = [
        Finding(where, f"{r.told!r} names Law {law}, which does not exist")
        for r in relations
        for _act, laws in r.by
        for law in laws
        if law not in book.laws
    ]
    problems += [
        Finding(where, f"compass: {reading!r} names Law {law}, which does not exist")
        for reading, laws in compass.laws.items()
        for law in laws
        if law not in book.laws
    ]
    return LintReport(problems, [])
