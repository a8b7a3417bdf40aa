"""Real table cases from the play period (Laws 41-67) walked through the play charts, with the laws applied."""

from __future__ import annotations

from conftest import note, walk


def test_dummy_who_looked_at_a_hand_points_out_a_defenders_lead_out_of_turn() -> None:
    # Dummy had peeked at East's cards; later West leads out of turn and dummy is first to say so (43B3).
    parked = walk("dummy-rights", "defender-irregularity", "yes")
    assert parked.parked and "play continues as though it had not" in parked.render(parked.node.park)
    state = walk("dummy-rights", "defender-irregularity", "yes", "continue", "yes")
    assert state.finished and "adjusts only the defenders' score" in state.rulings[-1].text
    assert {"43B3", "43B1"} <= set(state.rulings[-1].laws)


def test_dummy_looked_at_my_hand_explains_what_dummy_has_lost() -> None:
    state = walk("dummy-rights", "looked", "looked", "no")
    ruling = state.rulings[-1]
    assert "either defender chooses the hand declarer leads from" in ruling.text
    assert {"43A2(c)", "43B2(a)", "43B2(b)", "43B3"} <= set(ruling.laws)


def test_dummy_after_peeking_asks_no_spades_partner_the_revoke_counts_as_established() -> None:
    state = walk("dummy-rights", "asked-revoke", "yes", "yes")
    assert "43B2(b)" in note(state, "revoke-lost").laws
    assert state.chart.id == "revoke"  # the trick transfer is the revoke chart's


def test_declarer_calls_the_queen_after_lho_covers_and_wants_the_ace() -> None:
    # Dummy AQ76, LHO plays the king, declarer calls "queen": not a slip of the tongue (seed 001, Law 45).
    state = walk("card-from-dummy", "changed", "no", "no")
    assert "stays played" in state.rulings[-1].text and "45C4(b)" in state.rulings[-1].laws


def test_dummy_plays_the_ace_when_declarer_called_the_eight_noticed_at_once() -> None:
    state = walk("card-from-dummy", "wrong-card", "no")
    assert "must be withdrawn" in state.rulings[-1].text and "45D1" in state.rulings[-1].laws


def test_declarer_leads_from_the_wrong_hand_rho_refuses_and_declarer_finesses_him() -> None:
    # WBF example: declarer leads the jack from dummy instead of from hand, RHO refuses, declarer finesses RHO.
    parked = walk("lead-out-of-turn", "no", "no", "no", "no", "declarer-wrong-hand", "retract")
    assert parked.parked and "must lead from the correct hand" in parked.render(parked.node.park)
    state = walk("lead-out-of-turn", "no", "no", "no", "no", "declarer-wrong-hand", "retract", "continue", "yes")
    assert "55C" in note(state, "information-note").laws
    state = walk(
        "lead-out-of-turn",
        *("no", "no", "no", "no", "declarer-wrong-hand", "retract", "continue", "yes"),
        *("yes", "yes", "yes"),
    )
    assert state.finished and state.rulings[-1].chart == "unauthorised-information"
    assert "adjusted score" in state.rulings[-1].text


def test_defender_leads_when_partner_had_won_the_trick_declarer_refuses() -> None:
    state = walk("lead-out-of-turn", "no", "no", "no", "no", "defender-partner", "refuse", "one")
    assert state.chart.id == "penalty-card" and state.node.id == "major-declarer-choice"
    state = walk("lead-out-of-turn", "no", "no", "no", "no", "defender-partner", "refuse", "one", "require")
    assert "50D2(a)" in state.rulings[-1].laws


def test_rho_plays_before_lho_to_declarers_ace_declarer_asks_for_the_lowest() -> None:
    state = walk("premature-play", "before-partner", "no", "no", "lowest")
    ruling = state.rulings[-1]
    assert "lowest card he holds of the suit led" in ruling.text and "major penalty card" in ruling.text
    assert {"57A2", "57B", "59"} <= set(ruling.laws)


def test_defender_adds_the_ace_to_a_finished_trick_in_the_rhythm() -> None:
    # Seed 001: the trick is complete and the opening leader adds the ace "caught in the rhythm": not a lead.
    state = walk("card-played", "fifth", "no", "defender", "new-card", "honour", "one", "offender-plays")
    assert state.rulings[-1].chart == "penalty-card" and "major penalty card" in state.rulings[-1].text


def test_declarer_faces_his_hand_saying_he_will_play_it_open() -> None:
    state = walk("declarer-exposes-cards", "faced", "no-claim")
    assert "did not claim" in state.rulings[-1].text and "48B2" in state.rulings[-1].laws


def test_player_found_with_an_extra_card_after_the_next_trick_transfers_one_trick() -> None:
    parked = walk("defective-trick", "yes", "no-card", "yes")
    assert parked.parked and "card of the suit led" in parked.render(parked.node.park)
    state = walk("defective-trick", "yes", "no-card", "yes", "continue", "yes")
    assert "one trick is transferred" in state.rulings[-1].text
    assert {"67B1", "64A2"} <= set(state.rulings[-1].laws)


def test_trick_pointed_the_wrong_way_pointed_out_too_late_goes_to_unauthorised_information() -> None:
    state = walk("tricks-and-inspection", "pointed", "yes")
    assert state.parked and "16B1" in state.node.laws
    state = walk("tricks-and-inspection", "pointed", "yes", "continue")
    assert state.chart.id == "unauthorised-information" and state.node.id == "partner-facts"
