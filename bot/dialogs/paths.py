"""Every path through a chart, walked by the real engine: the basis of the generated tests and snapshots.

A path is the list of answers from the start to the end of the dialogue. Charts reached by a jump are
walked inside the caller (their own paths are enumerated for themselves too). A repeat is taken
"again" at most once per path, so loops are exercised without enumerating forever; a park is resumed; a
note is passed without a screen (its text goes with the next one).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from bot.dialogs.engine import Engine, Reached, Step, Walk
from bot.dialogs.model import AGAIN, Branch, Chart, Park, Repeat, choices

MAX_PATHS = 5000


@dataclass(frozen=True, slots=True)
class ChartPath:
    steps: tuple[Step, ...]
    rulings: tuple[Reached, ...]
    parks: int
    given: tuple[tuple[str, str], ...] = ()  # variables a calling chart passed in, for this path

    def describe(self, engine: Engine, chart_id: str) -> list[str]:
        """The path as a director reads it: what a caller passed, question → answer with the notes shown
        above each question, then the rulings."""
        walk = engine.begin(chart_id, dict(self.given))
        lines = [f"(given by the calling chart: {name} = {value})" for name, value in self.given]
        for step in self.steps:
            lines += [f"NOTE: {note.text}" for note in walk.notes]
            engine.take(walk, step)
            lines.append(f"{walk.answered[-1].question} → {walk.answered[-1].answer}")
        lines += [f"NOTE: {note.text}" for note in walk.notes]
        lines += [f"RULING ({', '.join(r.laws)}): {r.text}" for r in walk.rulings]
        return lines


def entry_values(chart: Chart) -> list[dict[str, str]]:
    """The starts to walk: with nothing given, and with each value of each variable the chart branches on
    (a calling chart may pass it), one variable at a time."""
    branched = dict.fromkeys(n.branch for n in chart.nodes.values() if isinstance(n, Branch))
    starts: list[dict[str, str]] = [{}]
    for name in branched:
        starts += [{name: value} for value in chart.variables[name].values]
    return starts


def enumerate_paths(charts: Mapping[str, Chart], chart_id: str, limit: int = MAX_PATHS) -> list[ChartPath]:
    """All paths of one chart, in a stable order; raises ValueError past ``limit`` (a chart too big to test)."""
    engine = Engine(charts)
    found: list[ChartPath] = []
    seen: set[tuple[tuple[Step, ...], tuple[Reached, ...]]] = set()
    for given in entry_values(charts[chart_id]):
        for path in _explore(engine, chart_id, [], {}, given):
            if (path.steps, path.rulings) in seen:
                continue  # the same walk as with nothing given: the value made no difference
            seen.add((path.steps, path.rulings))
            found.append(path)
            if len(found) > limit:
                raise ValueError(f"{chart_id} has more than {limit} paths")
    return found


def _explore(
    engine: Engine, chart_id: str, steps: list[Step], loops: dict[str, int], given: dict[str, str]
) -> Iterator[ChartPath]:
    walk = engine.walk(chart_id, steps, given)
    if walk.finished:
        yield ChartPath(
            tuple(steps), tuple(walk.rulings), _parks(engine, chart_id, steps, given), tuple(sorted(given.items()))
        )
        return
    node = walk.node
    for option_id, _label, _target in choices(node):
        key = f"{walk.chart.id}/{node.id}"
        if isinstance(node, Repeat) and option_id == AGAIN:
            if loops.get(key, 0) >= 1:
                continue
            yield from _explore(
                engine,
                chart_id,
                [*steps, Step(walk.chart.id, node.id, option_id)],
                {**loops, key: loops.get(key, 0) + 1},
                given,
            )
            continue
        yield from _explore(engine, chart_id, [*steps, Step(walk.chart.id, node.id, option_id)], loops, given)


def _parks(engine: Engine, chart_id: str, steps: list[Step], given: dict[str, str]) -> int:
    walk: Walk = engine.begin(chart_id, given)
    parks = 0
    for step in steps:
        if isinstance(walk.node, Park):
            parks += 1
        engine.take(walk, step)
    return parks
