"""Scenario tests for the notes of walks 56 and 57 mended on branch walkfix34a (bench/RESULTS.md)."""

from __future__ import annotations

from conftest import answer, ruling_text

from bot.dialogs import Engine, load_charts
from bot.dialogs.engine import Walk


def laws_applied(walk: Walk) -> tuple[str, ...]:
    return Engine(load_charts()).ruling_laws(walk)


LATER_LEAD = {"opening": "no", "told": "no", "last-trick": "no"}


def test_a_defender_card_after_declarer_was_told_to_retract_is_a_penalty_card_not_a_lead() -> None:
    # Walk 56, #14 (H34): East faced the ♦J after South was told to take back his ♦4 led from the wrong hand; read
    # as a defender's lead out of turn, declarer was offered to accept it (56A). 60B: a major penalty card.
    walk = answer(
        "lead-out-of-turn",
        LATER_LEAD | {"played-since": "no", "who-led": "after-retraction", "penalty-card/how-many": "one"},
    )
    text = ruling_text(walk)
    assert "cannot be accepted" in text and "major penalty card" in text
    assert "Declarer accepts the lead" not in text
    assert laws_applied(walk)[0] == "60B" and "56A" not in laws_applied(walk)


def test_the_gate_question_asks_about_a_card_faced_since_the_lead_out_of_turn() -> None:
    walk = answer("lead-out-of-turn", LATER_LEAD, until="played-since")
    node = walk.node
    assert "played or faced a card" in node.ask and "Before the Director was called" not in node.ask
    assert "60B" in node.laws
    # The answer "yes" still leads to the play-after-illegal-play chart's 60B option, as before.
    walk = answer(
        "lead-out-of-turn",
        LATER_LEAD
        | {
            "played-since": "yes",
            "play-after-illegal-play/who": "after-retraction",
            "penalty-card/how-many": "one",
            "penalty-card/major-who-next": "offender-plays",
        },
    )
    assert "60B" in laws_applied(walk) and "major penalty card" in ruling_text(walk)
