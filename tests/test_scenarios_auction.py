"""Real table cases from the auction period (Laws 9-40), walked through the auction charts by option ids."""

from __future__ import annotations

from conftest import note, walk

GO = "continue"  # a note's "Continue" and a park's "Resume"


def test_north_opens_at_souths_turn_then_repeats_a_comparable_call_and_no_damage() -> None:
    # Seed 001, Law 31 example: South is dealer, North "opens" 1S; not accepted; North later bids a
    # comparable call. No further rectification, no lead restrictions, score stands (31B2, 31A2(a)).
    state = walk("call-out-of-rotation", "bid", "partner", "no-one", "refuse", "yes", GO, "no")
    assert state.finished
    assert "comparable" in state.rulings[-1].text and "score stands" in state.rulings[-1].text
    assert "31A2(a)" in state.rulings[-1].laws
    assert state.rulings[0].laws == ("26A", "23C")


def test_bid_out_of_turn_not_comparable_partner_passes_once_and_declarer_bans_a_suit() -> None:
    state = walk("call-out-of-rotation", "bid", "partner", "no-one", "refuse", "no", GO, "defender", "prohibit")
    assert "prohibits the lead of the chosen suit" in state.rulings[-1].text
    assert "26B" in state.rulings[-1].laws
    assert not state.finished  # the chart goes on to the end-of-play checks (72C, 16C2)
    state = walk(
        "call-out-of-rotation",
        *("bid", "partner", "no-one", "refuse", "no", GO, "defender", "prohibit", GO, "yes"),
    )
    assert state.finished and "72C" in state.rulings[-1].laws and "adjusted score" in state.rulings[-1].text


def test_pass_out_of_turn_at_rhos_turn_offender_must_pass_once() -> None:
    state = walk("call-out-of-rotation", "pass", "rho", "no", "no-one", "refuse", GO, "no")
    assert state.finished
    assert "passed at their next turn" in state.rulings[-1].text and state.rulings[-1].laws == ("30A",)


def test_lho_calls_over_the_bid_out_of_turn_accepts_it() -> None:
    state = walk("call-out-of-rotation", "bid", "rho", "no", "lho-over")
    assert state.finished and state.rulings[-1].laws == ("29A",)


def test_dealer_bids_over_an_opening_out_of_turn_intending_to_open_28b() -> None:
    # Seed 001, Law 28 example 2: East opens out of turn, South (dealer) meant to open: 28B.
    state = walk("call-out-of-rotation", "bid", "partner", "correct-player")
    assert state.finished and "28B" in state.rulings[-1].laws and "16C2" in state.rulings[-1].laws


def test_slow_pass_then_partner_bids_on_with_a_logical_alternative_goes_to_adjusted_score() -> None:
    state = walk("unauthorised-information", "partner", "yes", "yes", "yes", "yes")
    assert not state.finished and state.chart.id == "adjusted-score"
    state = walk("unauthorised-information", "partner", "yes", "yes", "yes", "no")
    assert state.finished and "no logical alternative" in state.rulings[-1].text
    assert "16B1(b)" in state.rulings[-1].laws


def test_withdrawn_call_information_is_authorized_for_the_non_offenders() -> None:
    state = walk("unauthorised-information", "withdrawn", "non-offending")
    assert state.finished and state.rulings[-1].laws == ("16C1", "16A1(b)")


def test_pulled_the_wrong_bidding_card_before_partner_called_no_lead_restrictions() -> None:
    state = walk("change-of-call", "unintended", "no", "no")
    assert state.finished and state.rulings[-1].laws == ("25A1",)
    assert "substitutes the call they intended" in note(state, "unintended-allowed").text  # shown with the ruling
    assert "lead restrictions of Law 26 do not apply" in state.rulings[-1].text


def test_change_of_mind_substitution_cancelled_original_call_stands() -> None:
    state = walk("change-of-call", "intended", "yes", "refuse")
    assert "25B2" in note(state, "cancelled").laws  # the note that the first call stands goes with the next question
    state = walk("change-of-call", "intended", "yes", "refuse", "no", "ended", "declaring-side")
    assert state.finished and "26B" in state.rulings[-1].laws


def test_bid_of_eight_after_lho_called_no_recourse_to_26b() -> None:
    state = walk("inadmissible-call", "above-seven", "yes")
    assert state.finished and state.rulings[-1].laws == ("38D",)


def test_inadmissible_double_noticed_after_the_opening_lead() -> None:
    state = walk("inadmissible-call", "double", "after-lead")
    assert state.finished and state.rulings[-1].laws == ("36C",)
    assert "as if the inadmissible call had not been made" in state.rulings[-1].text


def test_honour_dropped_during_the_auction_partner_passes_and_declarer_picks_it_up() -> None:
    state = walk("card-exposed-during-auction", "yes", "honour", GO, "declaring", GO, "no")
    assert state.finished and "passed once" in state.rulings[-1].text
    assert "24B" in state.rulings[-1].laws and any("24D" in a.laws for a in state.answered)


def test_wrong_board_cards_partner_already_called_adjusted_score() -> None:
    state = walk("wrong-board", "wrong-cards", "yes")
    assert state.finished and "adjusted score" in state.rulings[-1].text and "15A2(a)" in state.rulings[-1].laws


def test_non_offenders_bid_on_before_calling_the_director_forfeit_rectification() -> None:
    state = walk("irregularity-procedure", "opponent", "non-offenders", "yes", "no")
    assert state.finished and "forfeited" in state.rulings[-1].text and "11A" in state.rulings[-1].laws
