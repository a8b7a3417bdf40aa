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
from dataclasses import dataclass, replace

from bot.dialogs.engine import Engine, Reached, Step, Walk
from bot.dialogs.model import AGAIN, Branch, Chart, Jump, Park, Question, Repeat, Ruling, choices

MAX_PATHS = 5000


@dataclass(frozen=True, slots=True)
class ChartPath:
    steps: tuple[Step, ...]
    rulings: tuple[Reached, ...]
    parks: int
    given: tuple[tuple[str, str], ...] = ()  # variables a calling chart passed in, for this path
    # folded (``enumerate_paths(fold=True)``): the step index and the other answers there that reach the same ruling
    also: tuple[int, tuple[str, ...]] | None = None

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
        ruled = [f"({', '.join(r.laws)}): {r.text}" for r in walk.rulings if r.chart == chart_id]
        lines += [f"RULING {line}" for line in ruled]
        return lines + self._folded(engine, chart_id, ruled)

    def _folded(self, engine: Engine, chart_id: str, ruled: list[str]) -> list[str]:
        """Each other answer folded into this path, with its ruling where its words differ from the path's."""
        if self.also is None:
            return []
        index, options = self.also
        step = self.steps[index]
        node = engine.charts[step.chart].nodes[step.node]
        labels = {option_id: label for option_id, label, _target in choices(node)}
        lines = []
        for option in options:
            steps = [*self.steps[:index], Step(step.chart, step.node, option), *self.steps[index + 1 :]]
            other = engine.walk(chart_id, steps, dict(self.given))
            said = [f"({', '.join(r.laws)}): {r.text}" for r in other.rulings if r.chart == chart_id]
            lines += [f"OR → {labels[option]}", *([f"RULING {line}" for line in said] if said != ruled else [])]
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


def enumerate_paths(
    charts: Mapping[str, Chart], chart_id: str, limit: int = MAX_PATHS, fold: bool = False
) -> list[ChartPath]:
    """All paths of one chart, in a stable order; raises ValueError past ``limit`` (a chart too big to test).

    ``fold``: answers of one question that lead straight to the same ruling (a count of tricks the ruling reads
    out) are one path, the others named beside the first: what a reviewer reads in a snapshot, where every such
    answer would otherwise repeat the whole walk before it. The tests walk every path, unfolded."""
    engine = Engine(charts)
    found: list[ChartPath] = []
    seen: set[tuple[tuple[Step, ...], tuple[Reached, ...]]] = set()
    for given in entry_values(charts, chart_id):
        for path in _explore(engine, chart_id, [], {}, given, fold):
            if (path.steps, path.rulings) in seen:
                continue  # the same walk as with nothing given: the value made no difference
            seen.add((path.steps, path.rulings))
            found.append(path)
            if len(found) > limit:
                raise ValueError(f"{chart_id} has more than {limit} paths")
    return found


def _explore(
    engine: Engine,
    chart_id: str,
    steps: list[Step],
    loops: dict[str, int],
    given: dict[str, str],
    fold: bool = False,
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
    same_ruling: dict[str, list[str]] = {}  # a ruling node -> the answers that lead straight to it
    if fold and isinstance(node, Question):
        for option_id, _label, target in choices(node):
            if isinstance(walk.chart.nodes.get(target), Ruling):
                same_ruling.setdefault(target, []).append(option_id)
    for option_id, _label, target in choices(node):
        folded = same_ruling.get(target, [])
        if folded[1:] and option_id != folded[0]:
            continue  # folded into the path of the first answer reaching the same ruling
        if folded[1:]:
            step = Step(walk.chart.id, node.id, option_id)
            for path in _explore(engine, chart_id, [*steps, step], loops, given, fold):
                yield replace(path, also=(len(steps), tuple(folded[1:])))
            continue
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
                fold,
            )
            continue
        yield from _explore(engine, chart_id, [*steps, Step(walk.chart.id, node.id, option_id)], loops, given, fold)


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
