"""Every path through a chart, walked by the real engine: the basis of the generated tests and snapshots.

A path is the list of answers from the start to the end of the dialogue. A jump into another chart is
one line of the caller's path (the chart and the variables it passes): the walk goes through the called
chart along one representative path, and the called chart's own paths, enumerated for it with every set
of variables a caller passes, cover the rest. What the caller does after the called chart returns does
not depend on the path taken there (a called chart's variables stay its own), so one representative is
enough. A repeat is taken "again" at most once per path, so loops are exercised without enumerating
forever; a park is resumed; a note is passed without a screen (its text goes with the next one).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from bot.dialogs.engine import Engine, Reached, Step, Walk
from bot.dialogs.model import AGAIN, Branch, Chart, Jump, Park, Repeat, choices

MAX_PATHS = 5000


@dataclass(frozen=True, slots=True)
class ChartPath:
    steps: tuple[Step, ...]
    rulings: tuple[Reached, ...]
    parks: int
    given: tuple[tuple[str, str], ...] = ()  # variables a calling chart passed in, for this path

    def describe(self, engine: Engine, chart_id: str) -> list[str]:
        """The path as a director reads it: what a caller passed, question → answer with the chart's notes
        shown above each question, each jump into another chart as one line, then the chart's own rulings (a
        called chart's notes and rulings are in its own snapshot)."""
        walk = engine.begin(chart_id, dict(self.given))
        lines = [f"(given by the calling chart: {name} = {value})" for name, value in self.given]
        # the top chart's values, kept after the walk ends: what its jumps pass
        values = walk.frames[0].values if walk.frames else dict(self.given)
        lines += _jumps_since(engine, walk, values, 0)
        for step in self.steps:
            answered, trail = len(walk.answered), len(walk.trail)
            inside = len(walk.frames) > 1
            lines += _notes(walk, chart_id)
            engine.take(walk, step)
            if not inside:
                lines += [f"{a.question} → {a.answer}" for a in walk.answered[answered:]]
            lines += _jumps_since(engine, walk, values, trail)
        lines += _notes(walk, chart_id)
        lines += [f"RULING ({', '.join(r.laws)}): {r.text}" for r in walk.rulings if r.chart == chart_id]
        return lines


def _notes(walk: Walk, chart_id: str) -> list[str]:
    """The chart's notes above the next screen; a director's own step (``audience: director``) is marked, so a
    reviewer of the snapshot sees which notes the ruling reads aloud."""
    return [f"NOTE{'' if note.aloud else ' (director)'}: {note.text}" for note in walk.notes if note.chart == chart_id]


def _jumps_since(engine: Engine, walk: Walk, values: Mapping[str, str], start: int) -> list[str]:
    """One line for each jump the top chart made since trail position ``start``, with what it passed."""
    top = walk.trail[0][0]
    lines = []
    for chart_id, node_id in walk.trail[start:]:
        node = engine.charts[chart_id].nodes[node_id]
        if chart_id != top or not isinstance(node, Jump):
            continue
        passed = ", ".join(f"{name} = {value}" for name, value in _passed(node, values).items())
        then = "back here after its ruling" if node.next else "its ruling ends this chart"
        lines.append(f"JUMP → {node.jump}{f' with {passed}' if passed else ''} ({then})")
    return lines


def _passed(node: Jump, caller: Mapping[str, str]) -> dict[str, str]:
    """The variables a jump passes, as the engine resolves them (``$name`` is the caller's value)."""
    values = {name: caller.get(value[1:], "") if value.startswith("$") else value for name, value in node.with_.items()}
    return {name: value for name, value in values.items() if value}


def entry_values(charts: Mapping[str, Chart], chart_id: str) -> list[dict[str, str]]:
    """The starts to walk: with nothing given, with each value of each variable the chart branches on (one
    variable at a time), and with every set of variables a calling chart's jump passes."""
    chart = charts[chart_id]
    branched = dict.fromkeys(n.branch for n in chart.nodes.values() if isinstance(n, Branch))
    starts: list[dict[str, str]] = [{}]
    for name in branched:
        starts += [{name: value} for value in chart.variables[name].values]
    for caller in charts.values():
        for node in caller.nodes.values():
            if isinstance(node, Jump) and node.jump == chart_id:
                starts += [given for given in _caller_values(caller, node) if given not in starts]
    return starts


def _caller_values(caller: Chart, node: Jump) -> list[dict[str, str]]:
    """Every set of variables a jump can pass: ``$name`` takes each value of the caller's variable, or none."""
    sets: list[dict[str, str]] = [{}]
    for name, value in node.with_.items():
        if value.startswith("$"):
            options = [*caller.variables[value[1:]].values, ""]
            sets = [{**given, name: option} for given in sets for option in options]
        else:
            sets = [{**given, name: value} for given in sets]
    return [{name: value for name, value in given.items() if value} for given in sets]


def enumerate_paths(charts: Mapping[str, Chart], chart_id: str, limit: int = MAX_PATHS) -> list[ChartPath]:
    """All paths of one chart, in a stable order; raises ValueError past ``limit`` (a chart too big to test)."""
    engine = Engine(charts)
    found: list[ChartPath] = []
    seen: set[tuple[tuple[Step, ...], tuple[Reached, ...]]] = set()
    for given in entry_values(charts, chart_id):
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
    if len(walk.frames) > 1:
        steps = _through_called_chart(engine, walk, steps)
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


def _through_called_chart(engine: Engine, walk: Walk, steps: list[Step]) -> list[Step]:
    """Walk (in place) one representative path through the chart a jump entered, back to the caller or to
    the end: the first choice at each node, never a repeat's "again" (charts loop only through repeats)."""
    steps = [*steps]
    while len(walk.frames) > 1:
        node = walk.node
        option = next(oid for oid, _label, _target in choices(node) if not (isinstance(node, Repeat) and oid == AGAIN))
        step = Step(walk.chart.id, node.id, option)
        engine.take(walk, step)
        steps.append(step)
    return steps


def _parks(engine: Engine, chart_id: str, steps: list[Step], given: dict[str, str]) -> int:
    walk: Walk = engine.begin(chart_id, given)
    parks = 0
    for step in steps:
        if isinstance(walk.node, Park):
            parks += 1
        engine.take(walk, step)
    return parks
