"""Thirty-third walks (b): the RIGHT BUT notes of walks 54 and 55, each walked as the director would notice it."""

from __future__ import annotations

from conftest import answer, ruling_text

from bot.dialogs import load_charts


def test_a_minor_penalty_card_bars_a_higher_low_card_of_its_suit_too() -> None:
    # Walk 55, #90: the question's help and choice said a minor penalty card bars only a LOWER non-honour of its
    # suit; Law 50C bars "any other card of the same suit below the rank of an honour".
    asked = load_charts()["penalty-card"].nodes["not-played-kind"]
    assert "higher or lower" in asked.help and "a lower non-honour" not in asked.help
    labels = [option.label for option in asked.options]
    assert "Minor: another card of its suit below an honour" in labels
    assert "a lower card" not in load_charts()["penalty-card"].nodes["minor-free"].ruling


def test_rude_remarks_break_74a_which_says_should_not_must() -> None:
    # Walk 55, #96: 74A was read out as "A player must keep a courteous attitude"; the Law says "should".
    said = load_charts()["procedural-penalty"].nodes["discourtesy"].note
    assert "should maintain a courteous attitude" in said and "must keep" not in said