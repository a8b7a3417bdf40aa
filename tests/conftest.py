"""Shared fixtures: the demo charts (every node kind), a store on a temporary file, the dialog service; and
how many examples the property and fuzz tests generate."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import settings

import bot.matching
from bot.dialogs import Chart, Dialogs, Engine, Step, Walk, load_charts, read_charts
from bot.dialogs.engine import Reached
from bot.dialogs.render import outcome_texts
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

# CI (.ci/run sets CI) generates the full 10,000 examples per fuzz test; a contributor's run generates 200, so
# the whole suite stays quick to repeat while the fuzz tests still run. ``HYPOTHESIS_PROFILE=ci`` forces either.
settings.register_profile("ci", max_examples=10_000)
settings.register_profile("dev", max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

_build_matcher = bot.matching.build_matcher
_matchers: dict[tuple[object, ...], bot.matching.Matcher] = {}


def _shared_matcher(charts: object = (), leave_out: object = (), background: bool = False) -> bot.matching.Matcher:
    """Tests share one matcher per set of charts: building one reads every worked example (over a second),
    and matching never changes it. Patched in before any test module imports ``build_matcher``."""
    key = (tuple(charts), tuple(leave_out), background)  # type: ignore[call-overload]
    if key not in _matchers:
        _matchers[key] = _build_matcher(key[0], key[1], background)
    return _matchers[key]


bot.matching.build_matcher = _shared_matcher  # type: ignore[assignment]


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


def note(walk: Walk, node_id: str) -> Reached:
    """The note passed at ``node_id`` (or ``chart/node``) since the last answer: it is shown with the next screen,
    not on its own."""
    found = [n for n in walk.notes if node_id in (n.node, f"{n.chart}/{n.node}")]
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


def answer(chart_id: str, answers: dict[str, str | list[str]], until: str | None = None, **given: str) -> Walk:
    """Walk a chart of dialogs/ by answers named by question (node id, or ``chart/node`` in a chart it jumps
    into), to its end or to the node ``until``; fails on a question the answers do not name."""
    return walk_named(Engine(load_charts()), chart_id, answers, given, until)


def ruling_text(walk: Walk) -> str:
    """The whole ruling as it is read aloud, as one text: what a scenario test looks for words in."""
    return " ".join(outcome_texts(walk))


def laws_applied(walk: Walk) -> tuple[str, ...]:
    """The ruling's "Laws applied", in the order the director is shown them."""
    return Engine(load_charts()).ruling_laws(walk)
