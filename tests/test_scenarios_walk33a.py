"""Scenario tests for the thirty-third walks' notes mended on branch walkfix33a (walks 52 and 53)."""

from __future__ import annotations

from conftest import answer, ruling_text

from bot.dialogs import Engine, load_charts
from bot.dialogs.engine import Walk


def laws_applied(walk: Walk) -> tuple[str, ...]:
    return Engine(load_charts()).ruling_laws(walk)


def test_the_appeal_chart_says_the_director_shall_advise_of_the_right_to_appeal() -> None:
    # Walk 53, #32 and #43: Law 83 says the Director "shall advise" a contestant of the right to appeal; the chart
    # read "should personally tell".
    in_time = {"in-time": "yes", "concurrence": "pairs-yes", "subject": "judgement", "committee": "no"}
    for walk in (answer("appeal", {"in-time": "no"}), answer("appeal", in_time)):
        read = ruling_text(walk)
        assert "shall advise the contestant of the right to appeal" in read
        assert "should personally" not in read and "83" in laws_applied(walk)
