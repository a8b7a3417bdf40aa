"""Taps from a description to its ruling, measured over scenario files (issue 19's figure).

A scenario is a description as a director types it, the chart it must open, the true answer to each
question named by its question, and the ruling it must reach. Each is walked on a temporary store through
the shared step and the dialog service the front ends use: each triage question on the way (answered the
way that leads to the chart) is one tap, picking the situation is one, then every screen answered (a
question, a Continue, a Resume) is one more; a park's message that asks the question resuming
leads to is answered there, one tap for both. Whether the description led to the chart at all is the
matcher's part, counted apart ("offered"; a miss still counts one tap). Answers the service takes from
the description itself cost nothing and are counted apart.
"""

from __future__ import annotations

import inspect
import math
import statistics
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from bot.answers import Act, Replies, Reply, build_replies
from bot.dialogs import DialogError, Dialogs, load_charts
from bot.dialogs.scenario import NamedAnswers, UnnamedAnswer, answer_key
from bot.laws import load_lawbook
from bot.matching import build_matcher, chart_entries
from bot.store import EventKind, Store

OWNER = "taps"
MAX_TAPS = 60  # a scenario still walking after this many has gone astray
FIELDS = {"description", "chart", "answers", "ruling", "blind"}


class TapsError(Exception):
    """A scenario file that cannot be used; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class Scenario:
    where: str  # file:number, for the report
    description: str
    chart: str
    answers: dict[str, str | list[str]]
    ruling: str
    blind: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    scenario: Scenario
    taps: int
    prefilled: int
    offered: tuple[str, ...]  # the charts the description offered first
    found: bool  # whether the description led to the chart (at once or through triage)
    problems: tuple[str, ...]  # why the walk missed its ruling

    @property
    def reached(self) -> bool:
        return not self.problems

    @property
    def picked(self) -> bool:
        """Whether the description led to the chart (a miss is the matcher's, counted apart from the walk)."""
        return self.found


def read_scenarios(paths: Iterable[Path], charts: Iterable[str]) -> list[Scenario]:
    """The scenarios of the given files and folders (every ``*.yaml`` below a folder), in order."""
    known = set(charts)
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(path.rglob("*.yaml"))
        elif path.is_file():
            files.append(path)
        else:
            raise TapsError(f"{path}: no such file or folder")
    scenarios = [scenario for file in files for scenario in _read_file(file, known)]
    if not scenarios:
        raise TapsError("no scenarios found")
    return scenarios


def _read_file(path: Path, known: set[str]) -> list[Scenario]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise TapsError(f"{path}: cannot be read ({type(exc).__name__})") from exc
    if not isinstance(data, list):
        raise TapsError(f"{path}: expected a list of scenarios")
    return [_scenario(f"{path}:{number}", item, known) for number, item in enumerate(data, start=1)]


def _scenario(where: str, item: Any, known: set[str]) -> Scenario:
    if not isinstance(item, dict):
        raise TapsError(f"{where}: a scenario is a mapping of {', '.join(sorted(FIELDS))}")
    missing = {"description", "chart", "answers", "ruling"} - set(item)
    unknown = set(item) - FIELDS
    if missing or unknown:
        wrong = [*(f"missing {f}" for f in sorted(missing)), *(f"unknown field {f}" for f in sorted(unknown))]
        raise TapsError(f"{where}: {', '.join(wrong)}")
    if item["chart"] not in known:
        raise TapsError(f"{where}: there is no chart {item['chart']!r}")
    answers = item["answers"] or {}
    if not isinstance(answers, dict):
        raise TapsError(f"{where}: answers is a mapping of question (node id) to option id")
    return Scenario(
        where,
        str(item["description"]),
        str(item["chart"]),
        {str(key): _options(value) for key, value in answers.items()},
        str(item["ruling"]),
        bool(item.get("blind", False)),
    )


def _option(value: Any) -> str:
    """An option id as written; YAML reads a bare yes/no as true/false, which here means the ids yes/no."""
    return {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) else str(value)


def _options(value: Any) -> str | list[str]:
    """One answer, or a list for a question asked more than once (a repeat's loop)."""
    return [_option(one) for one in value] if isinstance(value, list) else _option(value)


@cache
def _replies() -> Replies:
    return build_replies(load_lawbook(), load_charts(), build_matcher(chart_entries()))


TRIAGE_DEPTH = 3  # triage questions a director would answer before giving up


def _charts(reply: Reply) -> list[str]:
    return [offer.key for offer in reply.offers if offer.act is Act.CHART]


def pick(description: str, chart: str) -> tuple[int, tuple[str, ...], bool]:
    """The taps from ``description`` to starting ``chart`` through the front ends' shared step (each triage
    question answered the way that leads there, then the pick), the charts offered first, and whether the
    chart was reached at all (if not, the pick still counts one tap)."""
    replies = _replies()
    first = replies.to_text(description, "auto")
    frontier: list[tuple[Reply, int]] = [(first, 1)]
    followed: set[tuple[Act, str]] = set()
    while frontier:
        reply, taps = frontier.pop(0)
        if chart in _charts(reply):
            return taps, tuple(_charts(first)), True
        if taps > TRIAGE_DEPTH:
            continue
        for offer in reply.offers:
            if offer.act in (Act.TRIAGE, Act.NONE) and (offer.act, offer.key) not in followed:
                followed.add((offer.act, offer.key))
                frontier.append((replies.follow(offer.act, offer.key), taps + 1))
    return 1, tuple(_charts(first)), False


async def walk_scenario(dialogs: Dialogs, scenario: Scenario) -> Outcome:
    """One scenario through the dialog service: its taps, prefilled answers and what went wrong."""
    problems: list[str] = []
    prefills = "description" in inspect.signature(dialogs.start).parameters  # the service reads the text itself
    extra = {"description": scenario.description} if prefills else {}
    screen = await dialogs.start(OWNER, scenario.chart, **extra)
    named = NamedAnswers(scenario.chart, scenario.answers)
    _row, walk, _events = await dialogs.inspect(screen.session_id)
    taps, offered, found = pick(scenario.description, scenario.chart)
    try:
        while not screen.finished and taps <= MAX_TAPS:
            if screen.after is not None:  # a park's message answers the question resuming leads to
                chart, node = screen.after.where.split("/", 1)
                key = answer_key(scenario.chart, chart, node)
                option = named.option(key, screen.after.text, [choice.id for choice in screen.options])
                screen = await dialogs.answer(OWNER, screen.session_id, screen.step, option, question=screen.question)
            else:
                screen = await dialogs.answer(OWNER, screen.session_id, screen.step, named.step(walk).option)
            taps += 1
            _row, walk, _events = await dialogs.inspect(screen.session_id)
    except (UnnamedAnswer, DialogError) as exc:
        problems.append(str(exc))
    # Answers taken from the description (at the start or as the walk went on) must be the scenario's own.
    _row, _walk, events = await dialogs.inspect(screen.session_id)
    prefilled = [e.data for e in events if e.kind == EventKind.ANSWER and e.data.get("source") == "description"]
    problems += [
        problem
        for data in prefilled
        if (
            problem := named.check(
                answer_key(scenario.chart, data.get("chart", ""), data.get("node", "")), data.get("option", "")
            )
        )
    ]
    if screen.finished:
        last = screen.rulings[-1]
        reached = answer_key(scenario.chart, last.chart, last.node)
        if reached != scenario.ruling:
            problems.append(f"reached {reached}, not {scenario.ruling}")
        problems += [f"named but never asked: {unused}" for unused in named.unused()]
    elif not problems:
        problems.append(f"no ruling after {taps} taps")
    return Outcome(scenario, taps, len(prefilled), offered, found, tuple(problems))


async def measure(scenarios: Sequence[Scenario]) -> list[Outcome]:
    """Every scenario walked on a fresh store in a temporary folder (nothing of the user's is touched)."""
    with tempfile.TemporaryDirectory(prefix="taps-") as folder:
        store = await Store.open(Path(folder) / "taps.sqlite3")
        try:
            dialogs = Dialogs(store, load_charts())
            return [await walk_scenario(dialogs, scenario) for scenario in scenarios]
        finally:
            await store.close()


def figures(outcomes: Sequence[Outcome]) -> dict[str, float | int]:
    """The figures issue 19 asks for, and how many charts the description offered; p90 is the nearest-rank
    90th percentile of the taps (the pick counts one tap even when the chart was not offered)."""
    taps = sorted(outcome.taps for outcome in outcomes)
    return {
        "n": len(outcomes),
        "reached": sum(outcome.reached for outcome in outcomes),
        "median_taps": statistics.median(taps),
        "p90_taps": taps[math.ceil(0.9 * len(taps)) - 1],
        "max_taps": taps[-1],
        "prefilled": sum(outcome.prefilled for outcome in outcomes),
        "offered": sum(outcome.picked for outcome in outcomes),
    }


def table(outcomes: Sequence[Outcome]) -> str:
    """One line per scenario, the figures, each scenario that missed its ruling and why, then each whose
    chart the description did not offer."""
    width = max(len(outcome.scenario.chart) for outcome in outcomes)
    lines = [f"{'taps':>4}  {'from text':>9}  {'chart':<{width}}  scenario"]
    for outcome in outcomes:
        scenario = outcome.scenario
        mark = ("" if outcome.reached else "  MISSED") + ("" if outcome.picked else "  NOT OFFERED")
        blind = " (blind)" if scenario.blind else ""
        lines.append(
            f"{outcome.taps:>4}  {outcome.prefilled:>9}  {scenario.chart:<{width}}  {scenario.where}{blind}{mark}"
        )
    shown = figures(outcomes)
    lines += ["", " · ".join(f"{name} {value}" for name, value in shown.items())]
    missed = [outcome for outcome in outcomes if not outcome.reached]
    if missed:
        lines += ["", "Scenarios that missed their ruling:"]
        for outcome in missed:
            lines.append(f"  {outcome.scenario.where} {outcome.scenario.description!r}")
            lines += [f"    - {problem}" for problem in outcome.problems]
    unpicked = [outcome for outcome in outcomes if not outcome.picked]
    if unpicked:
        lines += ["", "Scenarios whose chart the description did not offer:"]
        for outcome in unpicked:
            offered = ", ".join(outcome.offered) or "nothing"
            lines.append(f"  {outcome.scenario.where} {outcome.scenario.description!r}: offered {offered}")
    return "\n".join(lines)
