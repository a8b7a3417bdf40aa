"""Answers named by their question, the way a scenario gives them: a reordered or inserted question then
fails the scenario by name instead of silently taking an answer meant for another question.

A question of the chart the scenario starts is named by its node id; one of a chart it jumps into is
``chart/node``. A note's Continue and a park's Resume ask nothing and are taken without a name. A
question asked twice (a repeat's loop) takes its named answers in order from a list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.dialogs.engine import Engine, Step, Walk
from bot.dialogs.model import CONTINUE, Note, Park, choices, prompt


class UnnamedAnswer(AssertionError):
    """The walk reached a question the scenario does not answer, or an answer that is not an option there."""


def answer_key(top_chart: str, chart: str, node: str) -> str:
    """How a scenario names a question: the node id in its own chart, ``chart/node`` in a jumped-into one."""
    return node if chart == top_chart else f"{chart}/{node}"


class NamedAnswers:
    """A scenario's answers, handed out as the walk asks for them."""

    def __init__(self, top_chart: str, answers: Mapping[str, str | Sequence[str]]) -> None:
        self.top_chart = top_chart
        self.left: dict[str, list[str]] = {
            key: [value] if isinstance(value, str) else list(value) for key, value in answers.items()
        }

    def asks(self, walk: Walk) -> bool:
        """Whether the node the walk stands at is a question (notes and parks are not)."""
        return not isinstance(walk.node, Note | Park)

    def step(self, walk: Walk) -> Step:
        """The answer to the node the walk stands at; UnnamedAnswer if the scenario does not give one."""
        chart, node = walk.chart.id, walk.node
        options = [option for option, _label, _next in choices(node)]
        if not self.asks(walk):
            return Step(chart, node.id, CONTINUE)
        key = answer_key(self.top_chart, chart, node.id)
        return Step(chart, node.id, self.option(key, walk.render(prompt(node)), options))

    def option(self, key: str, asked: str, options: Sequence[str]) -> str:
        """The answer named for question ``key`` (which asks ``asked``), among ``options``."""
        named = self.left.get(key)
        if not named:
            raise UnnamedAnswer(
                f"{key} asks {asked!r} and the scenario names no answer for it (options: {', '.join(options)})"
            )
        option = named.pop(0)
        if option not in options:
            raise UnnamedAnswer(f"{key}: {option!r} is not an option (options: {', '.join(options)})")
        return option

    def check(self, key: str, option: str) -> str | None:
        """Take an answer given another way (prefilled from a description): why it is wrong, or None."""
        named = self.left.get(key)
        if not named:
            return f"{key} was answered {option!r} but the scenario names no answer for it"
        expected = named.pop(0)
        return None if expected == option else f"{key} was answered {option!r}, the scenario says {expected!r}"

    def unused(self) -> list[str]:
        """Named answers the walk never asked for: the scenario no longer goes the way it was written."""
        return [f"{key}: {', '.join(values)}" for key, values in self.left.items() if values]


def _here(top_chart: str, walk: Walk) -> set[str]:
    """Where the walk stands: its node, and the notes it passed on the way (shown with this screen)."""
    return {answer_key(top_chart, walk.chart.id, walk.node.id)} | {
        answer_key(top_chart, note.chart, note.node) for note in walk.notes
    }


def walk_named(
    engine: Engine,
    chart_id: str,
    answers: Mapping[str, str | Sequence[str]],
    given: Mapping[str, str] | None = None,
    until: str | None = None,
) -> Walk:
    """Walk a chart by answers named by question, to the end or to the node named ``until``; every named
    answer must have been asked for (UnnamedAnswer otherwise)."""
    named = NamedAnswers(chart_id, answers)
    walk = engine.begin(chart_id, given)
    while not walk.finished and until not in _here(chart_id, walk):
        engine.take(walk, named.step(walk))
    if until is not None and walk.finished:
        raise UnnamedAnswer(f"the walk ended without reaching {until}")
    if named.unused():
        raise UnnamedAnswer(f"answers the walk never asked for: {'; '.join(named.unused())}")
    return walk
