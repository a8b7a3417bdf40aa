"""Flowcharts as data: the chart and node types that the loader builds and the engine walks.

A node's kind is its class. Nothing here knows about YAML, storage or any front end.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.laws.summaries import Summary

PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_-]*)\}")


@dataclass(frozen=True, slots=True)
class Variable:
    """A declared fact an answer records (who the offender is) so later text and routing may use it."""

    name: str
    about: str
    values: dict[str, str]
    default: str | None = None


@dataclass(frozen=True, slots=True)
class Option:
    id: str
    label: str
    next: str
    sets: dict[str, str] = field(default_factory=dict)
    line: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Node:
    id: str
    laws: tuple[str, ...] = ()
    basis: str | None = None
    line: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Question(Node):
    ask: str
    options: tuple[Option, ...]
    help: str | None = None
    setting: str | None = None  # the regulation whose value answers (or is shown at) this question
    setting_answers: dict[str, str] = field(default_factory=dict)  # the regulation's value -> the option it gives
    poll: str | None = None  # players may be polled here (Law 16B1): the words that end the poll's question


SCORE_KINDS = ("table", "transfer", "adjusted")


@dataclass(frozen=True, slots=True)
class ScoreStep:
    """The arithmetic a director may ask for once a ruling is reached (never a step of the walk): ``table``, the
    contract and result as awarded; ``transfer``, the result at the table with ``tricks`` moved from one side to
    the other (a number, or in a chart a variable whose value ids count them: ``two``); ``adjusted``, the
    result assigned, or results with their weights (Law 12C1(c))."""

    kind: str
    tricks: int | str = 0


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A ``when`` paragraph of a ruling, with the laws it states: cited only when it is read, so a pairs game is
    not told the team-match law of the team match's paragraph."""

    text: str
    laws: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruling(Node):
    ruling: str
    score: ScoreStep | None = None  # what the director may have scored after this ruling
    laws_reason: str | None = None  # why the first law cited is not one of the chart's own (for reviewers)
    # variable -> value -> a paragraph read (and its laws cited) after the ruling only when the variable has that
    # value (the form of contest: a team match's paragraph is not read at pairs, and none is read while unknown)
    when: dict[str, dict[str, Paragraph]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Note(Node):
    note: str
    next: str
    audience: str = "table"  # "director": the director's own step, shown on its screen but not read in the ruling


@dataclass(frozen=True, slots=True, kw_only=True)
class Jump(Node):
    jump: str
    with_: dict[str, str] = field(default_factory=dict)
    next: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Park(Node):
    park: str
    next: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Repeat(Node):
    repeat: str
    again: str
    next: str
    again_label: str = "Yes — again"
    next_label: str = "No — continue"


@dataclass(frozen=True, slots=True, kw_only=True)
class Branch(Node):
    branch: str
    cases: dict[str, str]
    otherwise: str | None = None


NUMBERS = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def tricks_of(step: ScoreStep, chart: Chart, values: Mapping[str, str]) -> ScoreStep:
    """The step with its tricks counted: a variable's value id ("two", else its default) read as its number
    (unknown: 0)."""
    if isinstance(step.tricks, int):
        return step
    variable = chart.variables.get(step.tricks)
    value = values.get(step.tricks) or (variable.default if variable else None) or ""
    return ScoreStep(step.kind, NUMBERS.index(value) if value in NUMBERS else 0)


# The option ids the engine gives to nodes whose choices are not written in the chart.
CONTINUE = "continue"
AGAIN = "again"


def choices(node: Node) -> tuple[tuple[str, str, str], ...]:
    """The (option id, label, next node) a director can pick at a node; empty where nothing is asked."""
    match node:
        case Question():
            return tuple((o.id, o.label, o.next) for o in node.options)
        case Note():
            return ((CONTINUE, "Continue", node.next),)
        case Park():
            return ((CONTINUE, "Resume", node.next),)
        case Repeat():
            return ((AGAIN, node.again_label, node.again), (CONTINUE, node.next_label, node.next))
    return ()


def successors(node: Node) -> tuple[str, ...]:
    """Every node of the same chart this node can lead to."""
    match node:
        case Branch():
            targets = [*node.cases.values(), *([node.otherwise] if node.otherwise else [])]
            return tuple(dict.fromkeys(targets))
        case Jump():
            return (node.next,) if node.next else ()
    return tuple(dict.fromkeys(target for _id, _label, target in choices(node)))


def prompt(node: Node) -> str:
    """What the director reads at a node before choosing (or the ruling's words)."""
    match node:
        case Question():
            return node.ask
        case Note():
            return node.note
        case Park():
            return node.park
        case Repeat():
            return node.repeat
        case Ruling():
            return node.ruling
    return ""


def cited(node: Node) -> tuple[str, ...]:
    """Every law a node may cite: its own and, for a ruling, those of its ``when`` paragraphs."""
    if not isinstance(node, Ruling):
        return node.laws
    paragraphs = (paragraph for words in node.when.values() for paragraph in words.values())
    return (*node.laws, *(ref for paragraph in paragraphs for ref in paragraph.laws))


def texts(node: Node) -> tuple[str, ...]:
    """The text fields a director reads at this node (where placeholders may appear)."""
    match node:
        case Question():
            return (node.ask, *(o.label for o in node.options), *([node.help] if node.help else []))
        case Ruling():
            return (node.ruling, *(paragraph.text for words in node.when.values() for paragraph in words.values()))
        case Note():
            return (node.note,)
        case Park():
            return (node.park,)
        case Repeat():
            return (node.repeat, node.again_label, node.next_label)
    return ()


@dataclass(frozen=True, slots=True)
class Chart:
    id: str
    title: str
    edition: str
    version: int
    laws: tuple[str, ...]
    keywords: tuple[str, ...]
    start: str
    nodes: dict[str, Node]
    variables: dict[str, Variable] = field(default_factory=dict)
    summary: Summary | None = None  # for players: cited, plain words
    # the laws its situation line names, when its first law alone would name only one of the cases it rules
    named: tuple[str, ...] = ()
    # the charts this one is a step of (each jumps to it): never offered on its own, so no keywords or summary
    part_of: tuple[str, ...] = ()
    path: str = ""
    # node id -> option id -> the table words in a description that give that answer (see bot/dialogs/facts.py)
    cues: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    cues_line: int = 0

    def node(self, node_id: str) -> Node:
        return self.nodes[node_id]
