"""Thirty-fifth walks (b): the RIGHT BUT notes of walks 62 and 63, each walked as the director would notice it."""

from __future__ import annotations

from conftest import answer, laws_applied, ruling_text


def test_a_face_down_lead_beside_a_faced_opening_lead_out_of_turn_is_retracted_in_the_ruling() -> None:
    # Walk 62, #64: RHO faced the ♠K while LHO, the correct leader, had led face down; the ruling never said that
    # LHO's face-down card goes back to the hand (Law 54), and cited 56B beside 54D for an opening lead.
    told = {"who-led": "both-led", "told-to-lead": "no", "dummy-seen": "no", "began-spreading": "no"}
    refused = answer(
        "opening-lead-out-of-turn",
        told
        | {
            "declarer-options": "refuse",
            "penalty-card/how-many": "one",
            "penalty-card/major-declarer-choice": "prohibit",
        },
    )
    assert "face-down card is retracted too and returned to that defender's hand" in ruling_text(refused)
    assert "54" in laws_applied(refused) and "56B" not in laws_applied(refused)
    # Branch: declarer accepts the lead; LHO's face-down card still goes back, and he plays to the trick in turn.
    accepted = answer("opening-lead-out-of-turn", told | {"declarer-options": "accept"})
    assert "face-down card is retracted and returned to that defender's hand" in ruling_text(accepted)
    assert "54" in laws_applied(accepted) and "56A" not in laws_applied(accepted)
    # Without a face-down lead nothing is said of one.
    plain = answer("opening-lead-out-of-turn", told | {"who-led": "defender", "declarer-options": "accept"})
    assert "face-down" not in ruling_text(plain) and "56A" not in laws_applied(plain)
