"""Shared fixtures: the demo charts (every node kind), a store on a temporary file, the dialog service."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.dialogs import Chart, Dialogs, Engine, Step, Walk, load_charts, read_charts
from bot.dialogs.scenario import walk_named
from bot.store import Store

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parents[1]

# The source documents the knowledge base is extracted from live beside the repository, not in it; the tests
# that read them say so in one readable line when they are absent.
SEEDS_NAMED = os.environ.get("BRIDGE_SEEDS_DIR", "")
SEEDS = Path(SEEDS_NAMED) if SEEDS_NAMED else ROOT.parent / "shared" / "seeds"
LAWS_SOURCE = SEEDS / "000_9e282009ee365145.txt"  # the 2017 Laws
ACBL_SOURCE = SEEDS / "001_651977e6bf764f57.txt"  # ACBL's Duplicate Decisions, which quotes them
SEEDS_SHOWN = f"BRIDGE_SEEDS_DIR={SEEDS_NAMED}" if SEEDS_NAMED else "../shared/seeds, beside the repository"
needs_seeds = pytest.mark.skipif(
    not (LAWS_SOURCE.is_file() and ACBL_SOURCE.is_file()),
    reason=f"needs the source documents (the 2017 Laws, ACBL's Duplicate Decisions) in {SEEDS_SHOWN}",
)


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


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "bot.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
def dialogs(store: Store, demo_charts: dict[str, Chart]) -> Dialogs:
    return Dialogs(store, demo_charts)


def answer(chart_id: str, answers: dict[str, str | list[str]], until: str | None = None, **given: str) -> Walk:
    """Walk a chart of dialogs/ by answers named by question (node id, or ``chart/node`` in a chart it jumps
    into), to its end or to the node ``until``; fails on a question the answers do not name."""
    return walk_named(Engine(load_charts()), chart_id, answers, given, until)
