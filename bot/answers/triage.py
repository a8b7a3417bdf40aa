"""A short way in from vague words: "When did it happen?", at most one more question, then the charts.

The tree is data (``knowledge/triage.yaml``), so a director can review and reorder it; ``lint_triage``
checks that every chart it names exists and that every chart a director may be offered can be reached from
some branch (a chart that is part of others is reached through them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.dialogs.model import Chart
from bot.laws.book import KNOWLEDGE_DIR, read_yaml
from bot.laws.lint import Finding, LintReport

TRIAGE_FILE = KNOWLEDGE_DIR / "triage.yaml"
DEPTH = 2  # the first question, then at most one more


@dataclass(frozen=True, slots=True)
class Branch:
    """One choice of a triage question: either a further question (``branches``) or the charts to offer."""

    key: str  # the path of ids from the first question: "play", "play.revoke"
    label: str
    question: str
    branches: tuple[Branch, ...]
    charts: tuple[str, ...]
    told: tuple[re.Pattern[str], ...] = ()  # a first choice's words that already answer "When did it happen?"


@dataclass(frozen=True, slots=True)
class Triage:
    root: Branch  # key "", the question "When did it happen?"
    vague: frozenset[str]  # words that say something went wrong without saying what

    def start(self, text: str) -> Branch:
        """Where to start for a text: the first question's one choice whose ``told`` words the text states
        ("in the middle of the bidding" is the auction), so the question is not asked of words that answer it;
        the first question when none or several are stated."""
        lowered = " ".join(text.casefold().split())
        told = [b for b in self.root.branches if any(p.search(lowered) for p in b.told)]
        return told[0] if len(told) == 1 else self.root

    def find(self, key: str) -> Branch | None:
        """The branch a key names ("" is the first question); None for a key the tree does not have."""
        branch: Branch | None = self.root
        for part in key.split(".") if key else ():
            branch = next((b for b in branch.branches if b.key.rsplit(".", 1)[-1] == part), None) if branch else None
        return branch

    def walk(self) -> Iterator[Branch]:
        """Every branch, the first question first."""
        stack = [self.root]
        while stack:
            branch = stack.pop(0)
            yield branch
            stack.extend(branch.branches)


def read_triage(path: Path = TRIAGE_FILE) -> Triage:
    document = read_yaml(path)
    root = _branch(document, "", "")
    return Triage(root, frozenset(str(word).casefold() for word in document.get("vague", ())))


def _branch(raw: Mapping[str, Any], key: str, label: str) -> Branch:
    children = tuple(
        _branch(child, f"{key}.{child['id']}" if key else str(child["id"]), str(child["label"]))
        for child in raw.get("branches", ())
    )
    told = tuple(re.compile(str(pattern)) for pattern in raw.get("told", ()))
    charts = tuple(str(c) for c in raw.get("charts", ()))
    return Branch(key, label, str(raw.get("question", "")), children, charts, told)


@cache
def load_triage() -> Triage:
    return read_triage()


def lint_triage(triage: Triage, charts: Mapping[str, Chart], where: str = "knowledge/triage.yaml") -> LintReport:
    """Every chart named exists and may be offered on its own, every such chart is reachable, every branch asks
    or offers (never both), and no path asks more than two questions."""
    problems: list[Finding] = []
    reached: set[str] = set()
    for branch in triage.walk():
        name = branch.key or "the first question"
        depth = branch.key.count(".") + 1 if branch.key else 0
        if bool(branch.branches) == bool(branch.charts):
            problems.append(Finding(where, f"{name}: give either further branches or charts, not both or neither"))
        if branch.branches and not branch.question:
            problems.append(Finding(where, f"{name}: a branch with choices needs a question"))
        if branch.branches and depth >= DEPTH:
            problems.append(Finding(where, f"{name}: more than {DEPTH} questions before the charts"))
        if len({b.key for b in branch.branches}) != len(branch.branches):
            problems.append(Finding(where, f"{name}: two choices share an id"))
        for chart in branch.charts:
            if chart not in charts:
                problems.append(Finding(where, f"{name}: no chart {chart!r} in dialogs/"))
            elif charts[chart].part_of:
                problems.append(Finding(where, f"{name}: {chart!r} is part of {', '.join(charts[chart].part_of)}"))
            reached.add(chart)
    for chart in sorted({c.id for c in charts.values() if not c.part_of} - reached):
        problems.append(Finding(where, f"chart {chart!r} cannot be reached from any branch"))
    return LintReport(problems, [])
