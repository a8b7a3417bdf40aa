"""What happened, not its name: physical actions and states (``knowledge/actions.yaml``) and the laws they signal.

People who never name the irregularity say what happened to the cards: "the ace went back into her hand",
"the board was turned round", "the bidding cards from the last board were still on the table". Each entry
of the vocabulary holds such phrases and the laws they point to; the matcher reads every phrase as a phrase
of each of its laws, a little below a curated keyword.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.laws.book import KNOWLEDGE_DIR, LawBook, read_entries
from bot.laws.lint import Finding, LintReport
from bot.laws.refs import law_number

ACTIONS_FILE = KNOWLEDGE_DIR / "actions.yaml"


@dataclass(frozen=True, slots=True)
class Action:
    """One thing that can happen at the table, the ways people say it, and the laws it signals."""

    happened: str
    phrases: tuple[str, ...]
    laws: tuple[int, ...]


def load_actions(path: Path = ACTIONS_FILE) -> tuple[Action, ...]:
    """The vocabulary; ValueError naming the entry when one is malformed."""
    return read_entries(path, "actions", _action)


def _action(entry: Any) -> Action:
    happened, phrases, laws = str(entry["happened"]), entry["phrases"], entry["laws"]
    if not happened.strip() or not isinstance(phrases, list) or not isinstance(laws, list) or not laws:
        raise TypeError("needs 'happened', a list of 'phrases' and a non-empty list of 'laws'")
    numbers = tuple(dict.fromkeys(law_number(str(law)) for law in laws))
    return Action(happened, tuple(str(p) for p in phrases), numbers)


def lint_actions(book: LawBook, path: Path = ACTIONS_FILE) -> LintReport:
    """Every entry parses, names laws that exist and has phrases; every phrase has two words or more (one
    word alone is a synonym's job) and appears once in the whole file."""
    where = f"knowledge/{path.name}"
    try:
        actions = load_actions(path)
    except (ValueError, OSError) as exc:
        return LintReport([Finding(where, str(exc))], [])
    problems = [
        Finding(where, f"{action.happened!r} names Law {law}, which does not exist")
        for action in actions
        for law in action.laws
        if law not in book.laws
    ]
    problems += [Finding(where, f"{action.happened!r} has no phrases") for action in actions if not action.phrases]
    phrases = [" ".join(p.lower().split()) for action in actions for p in action.phrases]
    problems += [Finding(where, f"the phrase {p!r} has fewer than two words") for p in phrases if len(p.split()) < 2]
    problems += [Finding(where, f"the phrase {p!r} appears {n} times") for p, n in Counter(phrases).items() if n > 1]
    return LintReport(problems, [])
