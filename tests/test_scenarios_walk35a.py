"""Scenario tests for the notes of walks 60 and 61 mended on branch walkfix35a (bench/RESULTS.md)."""

from __future__ import annotations

from conftest import answer, laws_applied, ruling_text


def test_a_played_board_moved_on_early_by_the_wrong_player_has_its_own_answer() -> None:
    # Walk 61, #38 (WRONG): an East-West player carried the board, already played, to the next table, where the
    # hands were taken out; the only answers were for a table lacking boards ("play them now").
    walk = answer("boards-not-moved", {"found": "moved-by-other"})
    text = ruling_text(walk)
    assert "Nothing is rectified and the score stands" in text
    assert "North moves the boards" in text and "play them now" not in text
    assert laws_applied(walk)[:2] == ("8A2", "8A1") and "7B1" in laws_applied(walk)
