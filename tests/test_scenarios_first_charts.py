"""Real table cases walked through the first charts: the ruling a director would give, with its laws."""

from __future__ import annotations

from conftest import note, walk


def test_loot_by_the_wrong_defender_declarer_spreads_and_becomes_dummy() -> None:
    state = walk("opening-lead-out-of-turn", "defender", "no", "no", "no", "spread")
    assert state.finished
    assert "becomes dummy" in state.rulings[-1].text and "presumed dummy becomes declarer" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("54A",)


def test_loot_when_declarer_has_begun_to_spread_the_whole_hand_is_spread() -> None:
    state = walk("opening-lead-out-of-turn", "defender", "no", "no", "yes")
    assert state.rulings[-1].laws == ("54A",)


def test_loot_accepted_second_card_from_declarers_hand() -> None:
    state = walk("opening-lead-out-of-turn", "defender", "no", "no", "no", "accept")
    assert "second card to the trick is played from declarer's hand" in state.rulings[-1].text
    assert {"54B", "53A"} <= set(state.rulings[-1].laws)


def test_loot_already_accepted_when_declarer_played_a_card_to_it() -> None:
    # Seed 001: dropping or playing a card is not spreading the hand; a play from the next hand accepts the lead.
    state = walk("opening-lead-out-of-turn", "defender", "no", "no", "accepted")
    assert state.finished and "accepted and stands as a correct lead" in state.rulings[-1].text
    assert "53A" in state.rulings[-1].laws


def test_loot_when_declarer_saw_dummy_the_lead_must_be_accepted() -> None:
    state = walk("opening-lead-out-of-turn", "defender", "no", "yes")
    assert "must accept the lead" in state.rulings[-1].text and "54C" in state.rulings[-1].laws


def test_loot_refused_makes_a_major_penalty_card_with_declarers_lead_options() -> None:
    state = walk("opening-lead-out-of-turn", "defender", "no", "no", "no", "refuse", "one")
    assert state.node.id == "major-declarer-choice"  # the penalty-card chart already knows who is on lead
    walk_on = walk("opening-lead-out-of-turn", "defender", "no", "no", "no", "refuse", "one", "prohibit")
    assert walk_on.finished and walk_on.rulings[-1].chart == "penalty-card"
    assert "50D2(a)" in walk_on.rulings[-1].laws


def test_loot_after_an_opponent_said_it_was_their_lead_is_retracted_freely() -> None:
    state = walk("opening-lead-out-of-turn", "defender", "yes")
    assert "without further rectification" in state.rulings[-1].text and "47E1" in state.rulings[-1].laws


def test_opening_lead_by_presumed_dummy_cannot_be_accepted() -> None:
    state = walk("opening-lead-out-of-turn", "declaring-side")
    assert "cannot be accepted" in state.rulings[-1].text and "54E" in state.rulings[-1].laws


def test_insufficient_bid_corrected_by_the_lowest_sufficient_bid_in_the_same_denomination() -> None:
    # 1NT (1♥) ... the 1♥ bidder did not see the opening; he corrects to 2♥, his partner may call freely.
    state = walk("insufficient-bid", "intended", "in-turn", "refuse", "lowest")
    assert state.parked  # play on; the director is called back to judge damage (27D)
    done = walk("insufficient-bid", "intended", "in-turn", "refuse", "lowest", "continue", "no")
    assert "lowest sufficient bid in the same denomination(s)" in done.rulings[-1].text
    assert "The score stands." in done.rulings[-1].text and "27B1(a)" in done.rulings[-1].laws


def test_insufficient_bid_lowest_correction_that_helped_partner_is_adjusted() -> None:
    done = walk("insufficient-bid", "intended", "in-turn", "refuse", "lowest", "continue", "yes")
    assert done.chart.id == "adjusted-score"
    finished = walk(
        "insufficient-bid",
        "intended",
        "in-turn",
        "refuse",
        "lowest",
        "continue",
        "yes",
        "single",
        "no",
    )
    assert finished.finished and "ASSIGNED adjusted score" in finished.rulings[-1].text


def test_insufficient_bid_replaced_by_a_pass_goes_through_the_comparable_call_test() -> None:
    state = walk("insufficient-bid", "intended", "in-turn", "refuse", "other")
    assert state.chart.id == "comparable-call" and state.node.id == "test"  # offence already known
    state = walk("insufficient-bid", "intended", "in-turn", "refuse", "other", "no")
    passed = note(state, "partner-passes-always")
    assert "whenever it is their turn to call" in passed.text and "27B2" in passed.laws


def test_insufficient_bid_replaced_by_a_non_comparable_double_silences_partner_throughout() -> None:
    state = walk("insufficient-bid", "intended", "in-turn", "refuse", "double", "no")
    passed = note(state, "partner-passes")
    assert "cancelled" in passed.text and "27B3" in passed.laws
    done = walk(
        "insufficient-bid",
        "intended",
        "in-turn",
        "refuse",
        "double",
        "no",
        "continue",
        "declaring-side",
        "continue",
        "no",
        "no",
    )
    assert done.finished and "had to pass for the rest of" in done.rulings[-1].text
    assert {"27B3", "72C", "16C2"} <= set(done.rulings[-1].laws)


def test_insufficient_bid_accepted_by_lho() -> None:
    state = walk("insufficient-bid", "intended", "in-turn", "accept")
    assert state.rulings[-1].laws == ("27A1", "27C")


def test_unintended_insufficient_bid_goes_to_law_25() -> None:
    state = walk("insufficient-bid", "unintended")
    assert state.chart.id == "change-of-call"


def test_established_revoke_won_by_the_offender_transfers_two_tricks() -> None:
    # Defender ruffs partner's winner (the revoke trick) and his side wins a later trick: two tricks go over.
    state = walk("revoke", "revoke", "no", "yes", "in-time", "none", "continue", "offender", "yes", "no")
    assert state.finished and "(two tricks)" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("63B", "64A1")


def test_established_revoke_not_won_by_the_offending_side_transfers_nothing() -> None:
    state = walk("revoke", "revoke", "no", "yes", "in-time", "none", "continue", "other", "no", "no")
    assert "no trick is transferred" in state.rulings[-1].text and "64B1" in state.rulings[-1].laws


def test_established_revoke_not_won_by_the_offender_but_a_later_trick_won_transfers_one() -> None:
    state = walk("revoke", "revoke", "no", "yes", "in-time", "none", "continue", "other", "yes", "no")
    assert "one trick is transferred" in state.rulings[-1].text and "64A2" in state.rulings[-1].laws


def test_revoke_corrected_before_establishment_by_a_defender_gives_a_major_penalty_card() -> None:
    state = walk("revoke", "revoke", "no", "no", "defender")
    assert "major penalty card" in note(state, "defender-corrects").text
    state = walk("revoke", "revoke", "no", "no", "defender", "one", "offender-plays")
    assert state.finished and state.rulings[-1].chart == "penalty-card"
    assert "It is a major penalty card" in state.rulings[-1].text


def test_revoke_by_declarer_corrected_without_penalty() -> None:
    # Seed 001: declarer discards, then finds the ace of the suit led: he plays it, the discard goes back to hand.
    state = walk("revoke", "revoke", "no", "no", "declarer")
    assert "no further rectification" in state.rulings[-1].text and "62B2" in state.rulings[-1].laws


def test_revoke_noticed_after_the_round_gets_only_equity() -> None:
    state = walk("revoke", "revoke", "no", "yes", "too-late", "yes")
    assert "64C1" in note(state, "equity-adjust").laws
    done = walk("revoke", "revoke", "no", "yes", "too-late", "yes", "weighted", "no")
    assert done.finished and "WEIGHTED" in done.rulings[-1].text


def test_revoke_on_trick_twelve_before_the_hands_are_returned_is_corrected() -> None:
    state = walk("revoke", "revoke", "yes", "no")
    assert "must be corrected, even if established" in state.rulings[-1].text and "62D1" in state.rulings[-1].laws


def test_dummy_asking_a_defender_about_a_revoke() -> None:
    state = walk("revoke", "inquiry")
    assert "may not ask a defender" in state.rulings[-1].text and "61B2(b)" in state.rulings[-1].laws


def test_both_sides_revoke_on_one_trick_both_corrected() -> None:
    state = walk("revoke", "revoke", "no", "both")
    passed = note(state, "both-same-trick")
    assert "both revokes" in passed.text and "62C3" in passed.laws
