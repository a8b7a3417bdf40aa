"""Scenario tests for the wrong rulings the thirty-fourth walks found (walks 56–59), each mended on main."""

from __future__ import annotations

from conftest import answer, laws_applied, ruling_text

UNPLAYABLE_TEAMS = {"in-time": "yes", "ask-reason": "no-result", "contest-artificial": "teams"}


def test_a_board_unplayable_at_one_table_of_a_team_match_is_assigned_when_the_other_result_is_clear() -> None:
    # Walk 57 (H34): a board made unplayable at one table, +1430 at the other, got average plus to both. 86B1: with
    # the other table's result clearly favourable to one side, the Director shall assign a score.
    walk = answer("adjusted-score", UNPLAYABLE_TEAMS | {"other-table": "yes"})
    assert "ASSIGNED adjusted score, not an artificial one" in ruling_text(walk)
    assert "86B1" in laws_applied(walk) and "12C2(a)" not in laws_applied(walk)


def test_without_a_clear_result_at_the_other_table_the_artificial_score_follows_fault() -> None:
    walk = answer("adjusted-score", UNPLAYABLE_TEAMS | {"other-table": "no", "artificial-fault-imps": "neither"})
    assert "AVERAGE PLUS to both sides" in ruling_text(walk) and "12C2(a)" in laws_applied(walk)


def test_a_penalty_card_declarer_played_on_past_may_be_ruled_forfeited() -> None:
    # Walk 59, #87 (H34): "lho dropped card, dec ignored it, 3 tricks later wants pen card" was ruled a fresh
    # penalty card. 11A: the right to rectification may be forfeited when the non-offending side acts first.
    walk = answer("penalty-card", {"situation": "played-on", "played-on": "forfeited"})
    assert "rectification is forfeited" in ruling_text(walk) and "not a penalty card" in ruling_text(walk)
    assert {"11A", "11B"} <= set(laws_applied(walk))
    rectified = answer("penalty-card", {"situation": "played-on", "played-on": "rectify"}, until="which-card")
    assert rectified.node.id == "which-card"
