"""Every path of every chart in dialogs/, generated and walked: each ends in a ruling that cites existing law.

A jump into another chart is walked along one path there; the called chart's own paths, started with every
set of variables a caller passes, cover the rest.

The reviewed snapshots (tests/snapshots/) and the chart index must match what the charts produce now;
after changing a chart run ``python tools/refresh_charts.py`` and review the diff.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.dialogs import Engine, load_charts
from bot.dialogs.lint import lint_charts
from bot.dialogs.model import Question, Ruling
from bot.dialogs.paths import enumerate_paths
from bot.dialogs.report import INDEX_FILE, SNAPSHOT_DIR, chart_index_markdown, snapshot_text
from bot.laws import load_lawbook

ROOT = Path(__file__).resolve().parents[1]
CHARTS = load_charts()


@pytest.mark.slow
def test_there_are_charts_and_they_lint_clean() -> None:
    assert CHARTS, "no charts in dialogs/"
    assert [str(p) for p in lint_charts(CHARTS, load_lawbook()).problems] == []


@pytest.mark.parametrize("chart_id", sorted(CHARTS))
def test_every_path_ends_in_a_ruling_citing_existing_law(chart_id: str) -> None:
    book = load_lawbook()
    engine = Engine(CHARTS)
    paths = enumerate_paths(CHARTS, chart_id)
    assert paths
    rulings_reached: set[str] = set()
    for path in paths:
        walk = engine.walk(chart_id, path.steps, dict(path.given))
        assert walk.finished, f"{chart_id}: a path stops without a ruling: {path.steps}"
        assert walk.rulings, f"{chart_id}: a path ends without a ruling"
        for ruling in walk.rulings:
            assert ruling.laws and all(book.exists(ref) for ref in ruling.laws), ruling
            assert "{" not in ruling.text, f"unfilled placeholder in {ruling}"
            rulings_reached.add(f"{ruling.chart}/{ruling.node}")
    own = {f"{chart_id}/{n.id}" for n in CHARTS[chart_id].nodes.values() if isinstance(n, Ruling)}
    assert own <= rulings_reached, f"rulings no path reaches: {sorted(own - rulings_reached)}"


@pytest.mark.parametrize("chart_id", sorted(CHARTS))
def test_the_reviewed_snapshot_is_current(chart_id: str) -> None:
    snapshot = SNAPSHOT_DIR / f"{chart_id}.txt"
    assert snapshot.exists(), f"no snapshot for {chart_id}: run python tools/refresh_charts.py"
    assert snapshot.read_text(encoding="utf-8") == snapshot_text(CHARTS, chart_id), (
        f"rulings of {chart_id} changed: run python tools/refresh_charts.py and review the diff"
    )


def test_a_jump_is_one_line_of_the_callers_snapshot_naming_the_chart_and_what_it_passes() -> None:
    text = snapshot_text(CHARTS, "call-out-of-rotation")
    assert "JUMP → inadmissible-call with offence = double, turn = out-of-turn (its ruling ends this chart)" in text
    assert "JUMP → lead-restrictions with withdrawal = pass-rho (back here after its ruling)" in text
    assert "What was called out of rotation?" not in snapshot_text(CHARTS, "simultaneous-calls")


def test_answers_leading_to_one_ruling_are_one_snapshot_path_with_each_rulings_words() -> None:
    """A contested claim's count of tricks (one, two, three) repeated every walk before it three times in the
    snapshot; folded, the walk is written once and each other answer's ruling under it."""
    text = snapshot_text(CHARTS, "claim")
    ruling = "RULING (70A, 70D1, 70E1): The claim is not accepted as made: the opponents get"
    assert f"→ One trick\n{ruling} one trick" in text and f"\nOR → Two tricks\n{ruling} two tricks" in text
    folded = enumerate_paths(CHARTS, "claim", fold=True)
    assert len(folded) < len(enumerate_paths(CHARTS, "claim"))  # the tests still walk every answer, unfolded
    assert "OR → Dummy\n\n" in snapshot_text(CHARTS, "revoke")  # the same words: no second ruling line


def test_changing_a_called_chart_changes_only_its_own_snapshot() -> None:
    called = CHARTS["call-out-of-rotation"]
    node = next(n for n in called.nodes.values() if isinstance(n, Question))
    edited = {**CHARTS, called.id: replace(called, nodes={**called.nodes, node.id: replace(node, ask="Reworded?")})}
    assert snapshot_text(edited, "simultaneous-calls") == snapshot_text(CHARTS, "simultaneous-calls")
    assert snapshot_text(edited, called.id) != snapshot_text(CHARTS, called.id)


def test_the_chart_index_is_current() -> None:
    assert INDEX_FILE.read_text(encoding="utf-8") == chart_index_markdown(CHARTS)


def test_no_snapshot_is_left_for_a_chart_that_is_gone() -> None:
    assert sorted(p.stem for p in SNAPSHOT_DIR.glob("*.txt")) == sorted(CHARTS)


@pytest.mark.slow
def test_refresh_tool_check_mode_agrees() -> None:
    done = subprocess.run([sys.executable, "tools/refresh_charts.py", "--check"], cwd=ROOT, capture_output=True)
    assert done.returncode == 0, done.stdout


def test_every_law_has_a_chart_or_a_reason() -> None:
    from bot.dialogs.report import coverage_map, laws_without_chart

    uncited = {n for n, ids in coverage_map(CHARTS, load_lawbook()).items() if not ids}
    assert uncited == set(laws_without_chart())
