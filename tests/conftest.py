"""Shared fixtures: the demo charts (every node kind), a store on a temporary file, the dialog service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.dialogs import Chart, Dialogs, Engine, Step, Walk, load_charts, read_charts
from bot.dialogs.engine import Reached
from bot.store import Store

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def demo_charts() -> dict[str, Chart]:
    return read_charts(FIXTURES / "dialogs")


@pytest.fixture
def engine(demo_charts: dict[str, Chart]) -> Engine:
    return Engine(demo_charts)


def take(engine: Engine, walk: Walk, *options: str) -> Walk:
    """Answer the current node with each option in turn (a test's way of pressing buttons)."""
    for option in options:
        engine.take(walk, Step(walk.chart.id, walk.node.id, option))
    return walk


def walk(chart_id: str, *options: str, **given: str) -> Walk:
    """Walk a chart of dialogs/ by option ids, from the variables a calling chart would pass (``given``)."""
    engine = Engine(load_charts())
    return take(engine, engine.begin(chart_id, given), *options)


def note(walk: Walk, node_id: str) -> Reached:
    """The note passed at ``node_id`` since the last answer: it is shown with the next screen, not on its own."""
    found = [n for n in walk.notes if n.node == node_id]
    assert found, f"no note {node_id} before {walk.chart.id}/{walk.node.id}: {[n.node for n in walk.notes]}"
    return found[0]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "bot.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
def dialogs(store: Store, demo_charts: dict[str, Chart]) -> Dialogs:
    return Dialogs(store, demo_charts)
