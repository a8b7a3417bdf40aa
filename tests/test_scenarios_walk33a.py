"""Scenario tests for the thirty-third walks' notes mended on branch walkfix33a (walks 52 and 53)."""

from __future__ import annotations

from conftest import answer, laws_applied, note, ruling_text

from bot.dialogs import load_charts


def test_the_appeal_chart_says_the_director_shall_advise_of_the_right_to_appeal() -> None:
    # Walk 53, #32 and #43: Law 83 says the Director "shall advise" a contestant of the right to appeal; the chart
    # read "should personally tell".
    in_time = {"in-time": "yes", "concurrence": "pairs-yes", "subject": "judgement", "committee": "no"}
    for walk in (answer("appeal", {"in-time": "no"}), answer("appeal", in_time)):
        read = ruling_text(walk)
        assert "shall advise the contestant of the right to appeal" in read
        assert "should personally" not in read and "83" in laws_applied(walk)


IB = {"unintended": "intended", "in-rotation": "in-turn", "lho-accepts": "refuse"}


def test_a_comparable_double_cites_23a_and_27b1b_not_the_lowest_sufficient_bid() -> None:
    # Walk 52, #1: a comparable double cited 27B1(a) (the lowest sufficient bid), and not 23A, which decides it.
    walk = answer("insufficient-bid", IB | {"replacement": "double", "double-comparable": "yes", "damaged-b1": "no"})
    laws = laws_applied(walk)
    assert {"27B1(b)", "23A", "26A"} <= set(laws) and "27B1(a)" not in laws
    assert "same or a similar meaning" in ruling_text(walk)


def test_the_lowest_sufficient_bid_cites_27b1a_alone() -> None:
    # Walk 53, #28 (branch): 2D replacing 1D cited 27B1(b) and 26A, the comparable call's laws.
    laws = laws_applied(answer("insufficient-bid", IB | {"replacement": "lowest", "damaged-b1": "no"}))
    assert "27B1(a)" in laws and "27B1(b)" not in laws and "26A" not in laws


def test_a_double_that_is_not_comparable_does_not_cite_the_second_insufficient_bid_law() -> None:
    # Walk 52, #1 (branch): 27B4 (another insufficient bid) was cited for a double that was not comparable.
    after = {"lead-restrictions/offender-role": "declaring-side", "aware": "no", "used-information": "no"}
    double = answer("insufficient-bid", IB | {"replacement": "double", "double-comparable": "no"} | after)
    assert double.finished and "27B3" in laws_applied(double) and "27B4" not in laws_applied(double)
    second = answer("insufficient-bid", IB | {"replacement": "insufficient", "second-accepted": "refuse"} | after)
    assert second.finished and {"27B3", "27B4"} <= set(laws_applied(second))


def test_a_claim_that_stands_although_a_trump_was_out_says_why_under_70c() -> None:
    # Walk 52, #5 (branch): the claimer clearly knew of the trump; the claim stood with no word on it and no 70C.
    told = {"what-said": "claim", "faced-for-claim": "yes", "agreed": "disputed", "who-claimed": "declarer"}
    told |= {"trump-out": "yes", "trump-mentioned": "no", "line-stated": "yes"}
    knew = answer("claim", told | {"trump-trick": "knew"})
    assert knew.rulings[-1].node == "claim-accepted-trump" and "70C" in laws_applied(knew)
    assert "not at all likely that the claimer was unaware of it (Law 70C2)" in ruling_text(knew)
    safe = answer("claim", told | {"trump-trick": "none"})
    assert "no normal play loses a trick to it (Law 70C3)" in ruling_text(safe)


def test_a_pause_not_established_is_ruled_under_law_85_and_may_be_appealed() -> None:
    # Walk 52, #18: NS say West paused, EW deny it; "not established" cited neither 85A1 nor 85B.
    walk = answer("unauthorised-information", {"ask-source": "partner", "partner-facts": "no"})
    read = ruling_text(walk)
    assert "balance of probabilities" in read and "may appeal" in read
    assert {"85A1", "85B", "92A"} <= set(laws_applied(walk))


def test_a_question_asked_only_to_help_partner_cites_73b1_and_a_possible_procedural_penalty() -> None:
    # Walk 53, #37: "just curious" questions, then partner's diamond lead; 73B1 and 90A were not stated.
    asked = {"what": "question", "question": "purpose"}
    walk = answer("explanation-of-calls", asked, until="unauthorised-information/partner-facts")
    told = note(walk, "question-purpose")
    assert "questions asked or not asked" in told.text and {"73B1", "90A"} <= set(told.laws)


def test_an_explainer_who_corrects_during_the_auction_is_ruled_under_20f4_and_a_call_not_changed_stands() -> None:
    # Walk 52, #8: West corrected his own explanation of 2D before his call; 20F4(a) was not cited, and when the
    # Director judged South's pass not influenced, nothing said the pass stands (21B1(a)).
    told = {"agreement": "explanation", "ask-stage": "auction", "auction-who": "explainer"}
    asked = answer("misinformation", told, until="change-call")
    assert "20F4(a)" in note(asked, "explainer-corrects").laws
    walk = answer("misinformation", told | {"change-call": "no"}, until="play-on")
    refused = note(walk, "change-refused")
    assert "last call stands and may not be changed" in refused.text and "21B1(a)" in refused.laws


def test_a_director_error_found_after_play_is_corrected_sensibly_and_the_adjustment_is_consistent() -> None:
    # Walk 52, #16: "the correct rectification applies from the point of the error" on a finished board; the
    # adjustment said "as a rule, the same result for both sides" and then "the two scores need not balance".
    corrected = ruling_text(answer("director-error", {"what": "ruling", "in-period": "yes", "score-normally": "yes"}))
    assert "on a board already played" in corrected and "changed nothing" in corrected
    chosen = {"what": "ruling", "in-period": "yes", "score-normally": "no"}
    adjusted = answer("director-error", chosen, until="adjusted-score/contest")
    assert "what the correct ruling would have been" in note(adjusted, "adjust-note").text


def test_a_defenders_claim_says_the_faced_cards_are_not_penalty_cards_and_play_is_suspended() -> None:
    # Walk 53, #29: declarer said that after the defender's claim he could tell the other defender what to lead.
    told = {"what-said": "claim", "faced-for-claim": "yes", "agreed": "disputed", "who-claimed": "defender"}
    walk = answer("claim", told, until="defender-partner")
    said = note(walk, "defender-claim")
    assert "not penalty cards" in said.text and {"68A", "68D", "49"} <= set(said.laws)
    ruled = answer("claim", told | {"defender-partner": "yes"})
    assert "not penalty cards" in ruling_text(ruled) and "68D" in laws_applied(ruled)


def test_information_from_elsewhere_reported_only_after_play_cites_16d1_without_the_before_any_call_remedies() -> None:
    # Walk 53, #26: "6H went off, trumps 4-0" overheard, the board played twenty minutes later, the Director told
    # afterwards; the walk had to pick a remedy "before any call", and 16D1 was not cited.
    told = {"ask-source": "other", "other-when": "told-after-play", "affected": "no"}
    walk = answer("unauthorised-information", told)
    assert walk.rulings[-1].node == "stands-unaffected" and "16D1" in laws_applied(walk)
    assert "should be told of such information at once" in ruling_text(walk)
    trail = [node for _chart, node in walk.trail]
    assert "interfere" not in trail and "remedy" not in trail


def test_a_card_pulled_early_is_offered_first_and_its_ruling_says_what_the_opponents_may_infer() -> None:
    # Walk 53, #40: a defender holding a card up early; no first option named it, and 73D1 (declarer may act on
    # it at their own risk) was missing.
    chart = load_charts()["tempo-and-conduct"]
    assert any("card pulled early" in option.label for option in chart.nodes["what"].options)
    walk = answer("tempo-and-conduct", {"what": "procedure", "violation": "etiquette"})
    assert walk.rulings[-1].node == "etiquette" and "at their own risk" in ruling_text(walk)
    assert {"73D1", "73E2"} <= set(laws_applied(walk))
