"""The dialog engine: walks a chart through the answers a director gave, and nothing else.

The state of a session is never stored: it is derived by replaying its event log (start, answer,
resume, back, change, restart) into a list of steps and walking the chart through them. Back,
change-an-earlier-answer, restart and resume-after-a-crash are therefore one mechanism.
The engine knows nothing of storage or front ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.dialogs.model import (
    CONTINUE,
    PLACEHOLDER,
    Branch,
    Chart,
    Jump,
    Node,
    Note,
    Paragraph,
    Park,
    Question,
    Ruling,
    ScoreStep,
    choices,
    prompt,
    tricks_of,
)
from bot.dialogs.regulations import ANY, Setting
from bot.store.records import Status


class StaleAnswer(Exception):
    """An answer that does not fit the node the session stands at (an old button, a double press)."""


class ChartMismatch(Exception):
    """A stored session no longer fits its chart (the chart was edited since it was started)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One answer: at this chart's node, this option; ``source`` says where it came from when not the director
    ("description": taken from the words the chart was started with; "setting": from the club's or authority's
    regulations, ``said`` being the words that say so and ``basis`` the regulation's source)."""

    chart: str
    node: str
    option: str
    source: str = ""
    said: str = ""
    basis: str = ""

    def as_data(self) -> dict[str, str]:
        data = {"chart": self.chart, "node": self.node, "option": self.option}
        extra = {"source": self.source, "said": self.said, "basis": self.basis}
        return {**data, **{key: value for key, value in extra.items() if value}}


@dataclass(frozen=True, slots=True)
class Answered:
    """A step as the director saw it, for the history and the ruling's path."""

    step: Step
    question: str
    answer: str
    laws: tuple[str, ...]
    source: str = ""  # "" when the director chose it; "description" or "setting" when taken from those
    said: str = ""  # for an answer from the settings, what they say ("ACBL: opening leads face down")


@dataclass(frozen=True, slots=True)
class Reached:
    """A ruling the walk reached (in the chart itself or in one it jumped to), or a note it passed."""

    chart: str
    node: str
    text: str
    laws: tuple[str, ...]  # a ruling's own, then those of the ``when`` paragraphs read with it
    aloud: bool = True  # read in the ruling; False for a note that is the director's own step
    score: ScoreStep | None = None  # a ruling's arithmetic, its tricks counted from the walk's answers


@dataclass(slots=True)
class _Frame:
    chart: Chart
    node: str
    values: dict[str, str]
    back_to: str | None  # the calling chart's node to continue at; None ends the caller too


@dataclass(slots=True)
class Walk:
    """Where a session stands after its steps: the frames (charts within jumps), answers, rulings."""

    frames: list[_Frame]
    steps: list[Step] = field(default_factory=list)
    answered: list[Answered] = field(default_factory=list)
    rulings: list[Reached] = field(default_factory=list)
    jumps: list[str] = field(default_factory=list)
    trail: list[tuple[str, str]] = field(default_factory=list)  # every (chart, node) visited, in order
    notes: list[Reached] = field(default_factory=list)  # the notes passed since the last answer, to show with
    # the next question or the ruling: a note asks nothing, so it is never a screen of its own
    passed: list[Reached] = field(default_factory=list)  # every note and ruling of the walk in the order reached:
    # the ruling read aloud states what a note said questions ago (a call cancelled, a partner silenced)
    settings: Mapping[str, Setting] = field(default_factory=dict)  # the regulations the session follows: a
    # ruling's ``when`` paragraph keyed on one is read by its value

    @property
    def finished(self) -> bool:
        return not self.frames

    @property
    def chart(self) -> Chart:
        return self.frames[-1].chart

    @property
    def node(self) -> Node:
        frame = self.frames[-1]
        return frame.chart.nodes[frame.node]

    @property
    def parked(self) -> bool:
        return not self.finished and isinstance(self.node, Park)

    @property
    def status(self) -> Status:
        return Status.FINISHED if self.finished else Status.PARKED if self.parked else Status.OPEN

    def copy(self) -> Walk:
        """An independent walk at the same place: taking a step on the copy leaves this one as it was."""
        frames = [_Frame(f.chart, f.node, dict(f.values), f.back_to) for f in self.frames]
        return Walk(
            frames,
            [*self.steps],
            [*self.answered],
            [*self.rulings],
            [*self.jumps],
            [*self.trail],
            [*self.notes],
            [*self.passed],
            self.settings,
        )

    def render(self, text: str) -> str:
        """Fill a text's placeholders from the variables of the chart being shown."""
        frame = self.frames[-1] if self.frames else None
        return fill(text, frame.chart, frame.values) if frame else text


def fill(text: str, chart: Chart, values: Mapping[str, str]) -> str:
    """Replace ``{variable}`` with the words for its value (the linter proves each is set)."""
    if "{" not in text:  # most texts have no placeholder: a screen fills its question and every option label
        return text

    def words(match: Any) -> str:
        name = match.group(1)
        variable = chart.variables.get(name)
        value = values.get(name) or (variable.default if variable else None)
        return variable.values[value] if variable and value in variable.values else match.group(0)

    return PLACEHOLDER.sub(words, text)


def _paragraphs(node: Ruling, frame: _Frame, settings: Mapping[str, Setting]) -> list[Paragraph]:
    """A ruling's words with its laws, then each ``when`` paragraph whose variable has its value here (none while
    unknown), with the laws it states.

    A ``when`` may name a regulation instead of a variable: its paragraph for the session's value (or for ``any``
    value) is read, ``{regulation}`` standing for the rule as the screen shows it ("ACBL: a procedural penalty is
    …"); a session started without the regulation (no club's rules known) reads none."""
    values = frame.values
    paragraphs = [Paragraph(node.ruling, node.laws)]
    for name, words in node.when.items():
        variable = frame.chart.variables.get(name)
        if variable is None and name in settings:
            setting = settings[name]
            found = words.get(setting.value, words.get(ANY))
            if found is not None:
                paragraphs.append(replace(found, text=found.text.replace(f"{{{name}}}", setting.shown)))
            continue
        value = values.get(name) or (variable.default if variable else None)
        if value in words:
            paragraphs.append(words[value])
    return [replace(paragraph, text=fill(paragraph.text, frame.chart, values)) for paragraph in paragraphs]


def _stated(walk: Walk, frame: _Frame, node: Ruling) -> list[str]:
    """The rules a ruling states because a question of its chart on this walk named them (``stated`` in
    knowledge/authorities.yaml) and none of its ``when`` paragraphs does."""
    chart = frame.chart
    asked = {
        named.setting
        for chart_id, node_id in walk.trail
        if chart_id == chart.id and isinstance(named := chart.nodes[node_id], Question) and named.setting
    }
    return [
        f"{setting.shown}."
        for name, setting in walk.settings.items()
        if setting.stated and name in asked and name not in node.when
    ]


class Engine:
    """Walks charts. One instance serves every session of the process."""

    def __init__(self, charts: Mapping[str, Chart]) -> None:
        self.charts = charts

    def begin(
        self, chart_id: str, values: Mapping[str, str] | None = None, settings: Mapping[str, Setting] | None = None
    ) -> Walk:
        chart = self.charts[chart_id]
        walk = Walk([_Frame(chart, chart.start, dict(values or {}), None)], settings=settings or {})
        self._advance(walk)
        return walk

    def walk(
        self,
        chart_id: str,
        steps: Iterable[Step],
        values: Mapping[str, str] | None = None,
        settings: Mapping[str, Setting] | None = None,
    ) -> Walk:
        """The state after taking ``steps`` from the chart's start; ChartMismatch if one does not fit.

        ``values`` are variables given at the start, as a calling chart's jump passes them; ``settings`` the
        regulations the session follows (they change only the words of a ruling and the laws those words state,
        never the path).
        """
        walk = self.begin(chart_id, values, settings)
        for index, step in enumerate(steps):
            try:
                self.take(walk, step)
            except StaleAnswer as exc:
                raise ChartMismatch(f"step {index + 1} ({step.node}/{step.option}) no longer fits {chart_id}") from exc
        return walk

    def take(self, walk: Walk, step: Step) -> None:
        """Apply one answer in place; StaleAnswer (and no change) if it does not fit the current node."""
        if step.option == CONTINUE and any((n.chart, n.node) == (step.chart, step.node) for n in walk.notes):
            return  # a note's Continue in a log from before notes were passed without a screen: already done
        if walk.finished:
            raise StaleAnswer("the dialogue has ended")
        frame = walk.frames[-1]
        node = walk.node
        if step.chart != frame.chart.id or step.node != node.id:
            raise StaleAnswer(f"the session is at {frame.chart.id}/{node.id}, not {step.chart}/{step.node}")
        picked = next(((label, target) for oid, label, target in choices(node) if oid == step.option), None)
        if picked is None:
            raise StaleAnswer(f"{step.option!r} is not an option at {node.id}")
        label, target = picked
        walk.answered.append(
            Answered(step, walk.render(prompt(node)), walk.render(label), node.laws, step.source, step.said)
        )
        if isinstance(node, Question):
            option = next(o for o in node.options if o.id == step.option)
            frame.values.update(option.sets)
        walk.steps.append(step)
        walk.notes.clear()
        frame.node = target
        self._advance(walk)

    def change(self, chart_id: str, steps: list[Step], index: int, option: str) -> list[Step]:
        """The steps after answering step ``index`` (0-based) differently.

        Later answers are kept for as long as they still fit the path; the first that does not, and
        everything after it, is dropped.
        """
        if not 0 <= index < len(steps):
            raise StaleAnswer(f"there is no answer {index + 1}")
        walk = self.walk(chart_id, steps[:index])
        old = steps[index]
        self.take(walk, Step(old.chart, old.node, option))
        for later in steps[index + 1 :]:
            try:
                self.take(walk, later)
            except StaleAnswer:
                break
        return walk.steps

    def ruling_laws(self, walk: Walk) -> tuple[str, ...]:
        """The laws of a ruling, each once: those of the chart the director started, then those of each chart
        it handed over to, in the order the walk entered them; within a chart, its ruling's (the infringed
        law first, as the linter requires), then its notes' (the rectification it stated on the way).

        So an insufficient bid that silenced partner cites 27B3 before the lead restrictions of Law 26 and the
        adjusted score of Law 12 that shared charts added. A ruling's laws are those it was reached with: its own
        and those of the ``when`` paragraphs read (a team match's 86B1 only in a team match)."""
        rulings: dict[str, list[str]] = {chart: [] for chart, _node in walk.trail}
        notes: dict[str, list[str]] = {chart: [] for chart in rulings}
        for reached in walk.passed:
            ruled = isinstance(self.charts[reached.chart].nodes[reached.node], Ruling)
            (rulings if ruled else notes)[reached.chart] += reached.laws
        return tuple(dict.fromkeys(ref for chart in rulings for ref in (*rulings[chart], *notes[chart])))

    def _advance(self, walk: Walk) -> None:
        """Move through the nodes that ask nothing: branches, jumps, notes (kept to show) and rulings."""
        while walk.frames:
            frame = walk.frames[-1]
            node = frame.chart.nodes[frame.node]
            walk.trail.append((frame.chart.id, node.id))
            match node:
                case Branch():
                    value = frame.values.get(node.branch) or frame.chart.variables[node.branch].default
                    target = node.cases.get(value) if value else None
                    frame.node = target or node.otherwise or ""
                    if not frame.node:
                        raise ChartMismatch(f"{frame.chart.id}/{node.id}: no case for {node.branch}={value!r}")
                case Jump():
                    target_chart = self.charts[node.jump]
                    values = {
                        name: frame.values.get(value[1:], "") if value.startswith("$") else value
                        for name, value in node.with_.items()
                    }
                    walk.jumps.append(target_chart.id)
                    walk.frames.append(
                        _Frame(
                            target_chart,
                            target_chart.start,
                            {k: v for k, v in values.items() if v},
                            node.next,
                        )
                    )
                case Note():
                    text = fill(node.note, frame.chart, frame.values)
                    note = Reached(frame.chart.id, node.id, text, node.laws, aloud=node.audience != "director")
                    walk.notes.append(note)
                    walk.passed.append(note)
                    frame.node = node.next
                case Ruling():
                    score = tricks_of(node.score, frame.chart, frame.values) if node.score else None
                    read = _paragraphs(node, frame, walk.settings)
                    text = " ".join((*(paragraph.text for paragraph in read), *_stated(walk, frame, node)))
                    laws = tuple(dict.fromkeys(ref for paragraph in read for ref in paragraph.laws))
                    reached = Reached(frame.chart.id, node.id, text, laws, score=score)
                    walk.rulings.append(reached)
                    walk.passed.append(reached)
                    self._return(walk)
                case _:
                    return

    @staticmethod
    def _return(walk: Walk) -> None:
        """A chart has reached its ruling: go back to the caller's next node, or end the callers too."""
        while walk.frames:
            finished = walk.frames.pop()
            if not walk.frames:
                return
            if finished.back_to is not None:
                walk.frames[-1].node = finished.back_to
                return
