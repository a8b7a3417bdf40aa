"""`python -m bot taps`: scenarios walked from the description to the ruling through the dialog service,
with the taps a director would make; and the scenarios of tests/taps/ each reach their ruling."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.dialogs import Dialogs, Screen, load_charts
from bot.store import Position, Store
from bot.taps import measure, read_scenarios, walk_scenario

TAPS = Path(__file__).parent / "taps"

# 1NT (1♥), corrected to 2♥: the pick, LHO's refusal taken from the description, three questions, then the
# damage question at the end of play, answered from the park's own message (the notes on the way need no tap).
INSUFFICIENT_BID = """
- description: "insufficient bid 1H over 1NT, LHO refused the insufficient bid, he corrects to 2H"
  chart: insufficient-bid
  answers: {unintended: intended, in-rotation: in-turn, lho-accepts: refuse, replacement: lowest, damaged-b1: no}
  ruling: stands-b1
"""


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.slow
def test_taps_count_the_pick_and_every_question_answered(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["taps", str(write(tmp_path, INSUFFICIENT_BID)), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures == {
        "n": 1,
        "reached": 1,
        "median_taps": 5,
        "p90_taps": 5,
        "max_taps": 5,
        "prefilled": 1,
        "offered": 1,
    }


def test_the_table_lists_a_scenario_that_missed_its_ruling_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = INSUFFICIENT_BID.replace("lho-accepts: refuse", "lho-accepts: accept")
    unnamed = INSUFFICIENT_BID.replace(", damaged-b1: no", "")
    assert main(["taps", str(write(tmp_path, wrong + unnamed))]) == 1
    out = capsys.readouterr().out
    assert "s.yaml:1" in out and "MISSED" in out
    assert "lho-accepts was answered 'refuse', the scenario says 'accept'" in out
    assert "damaged-b1 asks" in out and "names no answer for it (options: yes, no)" in out
    assert "n 2 · reached 0" in out


def test_a_chart_the_description_does_not_offer_is_reported_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = INSUFFICIENT_BID.replace(
        "insufficient bid 1H over 1NT, LHO refused the insufficient bid, he corrects to 2H", "thanks"
    )
    assert main(["taps", str(write(tmp_path, text))]) == 0  # the walk still reaches its ruling
    out = capsys.readouterr().out
    assert "NOT OFFERED" in out and "offered 0" in out and "did not offer" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- {chart: revoke}", "missing answers, missing description, missing ruling"),
        ("- {description: x, chart: nope, answers: {}, ruling: r}", "there is no chart 'nope'"),
        ("- {description: x, chart: revoke, answers: {}, ruling: r, taps: 3}", "unknown field taps"),
        ("description: x", "expected a list of scenarios"),
        ("- [unclosed", "cannot be read"),
    ],
)
def test_a_bad_scenario_file_gets_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    assert main(["taps", str(write(tmp_path, text))]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_missing_path_gets_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["taps", str(tmp_path / "none.yaml")]) == 1
    assert "no such file or folder" in capsys.readouterr().err


class Prefilling(Dialogs):
    """A dialog service that takes the first answer from the description, as issue 19's prefill will."""

    async def start(self, owner: str, chart_id: str, chat: str | None = None, description: str = "") -> Screen:
        screen = await super().start(owner, chart_id, chat)
        row, walk, events = await self.inspect(screen.session_id)
        data: dict[str, Any] = {"chart": chart_id, "node": walk.node.id, "option": "intended", "source": "description"}
        await self.store.append(row.id, len(events), [("answer", data)], Position("open", 1, ""))
        return await self.screen(owner, screen.session_id)


async def test_answers_taken_from_the_description_cost_no_tap_and_are_checked(store: Store, tmp_path: Path) -> None:
    dialogs = Prefilling(store, load_charts())
    scenario = read_scenarios([write(tmp_path, INSUFFICIENT_BID)], load_charts())[0]
    outcome = await walk_scenario(dialogs, scenario)
    assert (outcome.taps, outcome.prefilled, outcome.reached) == (5, 1, True)
    wrong = replace(scenario, answers={**scenario.answers, "unintended": "unintended"})
    outcome = await walk_scenario(dialogs, wrong)
    assert not outcome.reached
    assert "unintended was answered 'intended', the scenario says 'unintended'" in outcome.problems


async def test_every_scenario_in_tests_taps_reaches_its_ruling() -> None:
    scenarios = read_scenarios([TAPS], load_charts())
    outcomes = await measure(scenarios)
    missed = {o.scenario.where: o.problems for o in outcomes if not o.reached}
    assert missed == {}
    charts = load_charts()
    offered = {c.id for c in charts.values() if not c.part_of}
    assert {s.chart for s in scenarios} == offered, "every chart a director may pick has a scenario"
    reached = {s.ruling.partition("/")[0] for s in scenarios if "/" in s.ruling}
    assert set(charts) - offered <= reached, "every chart that is part of others has a scenario ruling in it"
    assert len(scenarios) >= 80 and 3 * sum(s.blind for s in scenarios) >= len(scenarios)
