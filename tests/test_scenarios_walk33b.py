"""Thirty-third walks (b): the RIGHT BUT notes of walks 54 and 55, each walked as the director would notice it."""

from __future__ import annotations

from conftest import answer, note, ruling_text

from bot.dialogs import Engine, load_charts


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


def test_declarers_incontrovertible_intention_adds_no_defenders_choice_law_46_does_not_give() -> None:
    # Walk 55, #89: "the defenders choose which of those cards dummy plays" was read out as if Law 46 said it;
    # Law 46 gives the defenders a choice only under 46B5.
    state = answer("card-from-dummy", {"what-happened": "unclear", "incontrovertible": "yes"})
    text = ruling_text(state)
    assert "incontrovertibly intended is played" in text and "defenders choose" not in text


def test_a_card_dummy_put_out_after_declarer_deliberately_touched_another_goes_back_to_dummy() -> None:
    # Walk 54, #60: declarer deliberately touched the ♦Q, said "small diamond", and dummy played the ♦3; the ruling
    # never said the ♦3 goes back (45E2).
    state = answer("card-from-dummy", {"what-happened": "touched", "touched": "yes"})
    assert "goes back to dummy" in ruling_text(state) and "45E2" in state.rulings[-1].laws
    assert state.rulings[-1].laws[:2] == ("45C3", "47F2")


def test_folding_cards_and_leaving_the_table_no_longer_ends_with_the_74c5_sentence() -> None:
    # Walk 54, #75: the 74C ruling ended with "Acting on a card of an opponent seen unintentionally is proper".
    state = answer("tempo-and-conduct", {"what": "procedure", "violation": "no-info"})
    assert "seen unintentionally" not in ruling_text(state) and "74C5" not in state.rulings[-1].laws
    assert "74C5" in load_charts()["tempo-and-conduct"].nodes["violation"].help


def test_a_spectators_information_adjusted_under_16d3_says_no_law_was_infringed() -> None:
    # Walk 55, #93: the read-aloud ruling said "had the infraction not occurred" and never that receiving the
    # spectator's information infringed no law.
    told = {
        "what": "spectator",
        "spectator-information": "yes",
        "unauthorised-information/other-when": "after-call",
        "unauthorised-information/after-first-call": "play",
        "unauthorised-information/affected-after-call": "yes",
    }
    state = answer("tempo-and-conduct", told, until="adjusted-score/contest")
    assert "No law was infringed by receiving it" in ruling_text(state)


def test_a_claim_that_stands_with_a_trump_out_says_which_70c_condition_failed() -> None:
    # Walk 55, #80: the claimer clearly knew the trump was out; the claim stood with no word on the trump and no
    # citation of 70C. Walk 54, #62: "trumps are good" with one out is no statement about that trump (70C1).
    told = {"what-said": "claim", "faced-for-claim": "yes", "agreed": "disputed", "who-claimed": "declarer"}
    no_trump = answer("claim", {**told, "trump-out": "no", "line-stated": "yes"})
    told |= {"trump-out": "yes", "trump-mentioned": "no", "trump-trick": "knew", "line-stated": "yes"}
    knew = answer("claim", told)
    assert knew.rulings[-1].node == "claim-accepted-trump" and knew.rulings[-1].laws[0] == "70C"
    assert "not at all likely that the claimer was unaware of it (Law 70C2)" in ruling_text(knew)
    harmless = answer("claim", {**told, "trump-trick": "none"})
    assert "no normal play loses a trick to it (Law 70C3)" in ruling_text(harmless)
    assert no_trump.rulings[-1].node == "claim-accepted" and "70C" not in no_trump.rulings[-1].laws
    assert "all drawn or all good" in load_charts()["claim"].nodes["trump-mentioned"].help


def test_an_adjusted_ruling_for_using_partners_hesitation_cites_the_logical_alternative_test_and_73c1() -> None:
    # Walk 55, #79: the ruling omitted 16B1(b), the test it had just asked, and 73C1.
    told = {"ask-source": "partner", "partner-facts": "yes", "play-ended": "yes", "suggested": "yes"}
    state = answer("unauthorised-information", {**told, "logical-alternative": "yes"}, until="adjusted-score/damaged")
    laws = Engine(load_charts()).ruling_laws(state)
    assert {"16B1(a)", "16B1(b)", "73C1", "16B3"} <= set(laws)
    assert "significant proportion of players" in ruling_text(state)


def test_a_deemed_revoke_ruling_reads_out_the_card_to_expose_and_place_among_the_played_cards() -> None:
    # Walk 54, #57: the 67B1 instruction was in the parked text only; the ruling kept just the trick transfer.
    told = {"when": "yes", "found": "no-card", "has-suit": "yes", "won-later": "yes", "equity": "no"}
    state = answer("defective-trick", told)
    assert state.rulings[-1].node == "one-trick"
    text = ruling_text(state)
    assert "choose a card of the suit led" in text and "places it among their played cards" in text
    other = ruling_text(answer("defective-trick", {**told, "has-suit": "no", "won-later": "no"}))
    assert "chooses any card" in other and "no trick is transferred" in other


def test_a_low_card_exposed_in_the_auction_cites_24a_and_says_partner_did_not_have_to_pass() -> None:
    # Walk 55, #99: a single low card exposed in the auction, the offender now a defender; the note cited 24B and
    # 24C ("If it was an honour … the offender's partner had to pass") and never 24A.
    told = {"situation": "auction-card", "auction-card": "low", "how-many": "one"}
    low = note(
        answer("penalty-card", {"situation": "auction-card", "auction-card": "low"}, until="how-many"), "auction-low"
    )
    assert low.laws[0] == "24A" and "did not have to pass" in low.text
    state = answer("penalty-card", told)
    assert state.rulings[-1].node == "minor-ruling" and "did not have to pass" in ruling_text(state)
    assert "24A" in Engine(load_charts()).ruling_laws(state) and "24B" not in Engine(load_charts()).ruling_laws(state)
    several = answer("penalty-card", {"situation": "auction-card", "auction-card": "several"}, until="several-who-next")
    assert note(several, "auction-several").laws[0] == "24C"


def test_a_barred_players_unintended_call_replaced_says_the_player_is_still_barred_under_law_37() -> None:
    # Walk 55, #92: the slip path said only "subject to the appropriate Law (for example, Law 27 …)".
    state = answer(
        "inadmissible-call",
        {"what": "must-pass", "must-pass-intended": "unintended"},
        until="change-of-call/partner-called",
    )
    said = note(state, "unintended-barred")
    assert "still required to pass" in said.text and "37B1" in said.laws


def test_dummys_card_found_too_late_still_reminds_the_director_of_45f() -> None:
    # Walk 55, #77: the too-late branch (45D2) lost the 45F check on a card dummy played with none named.
    state = answer("card-from-dummy", {"what-happened": "wrong-card", "next-trick": "yes", "too-late": "no"})
    assert state.rulings[-1].laws == ("45D2", "45F") and "dummy suggested a play" in ruling_text(state)


def test_hands_rebuilt_from_memory_are_restored_with_both_sides_or_the_director_present() -> None:
    # Walk 54, #53: North swept the 52 cards together and sorted them back alone; the ruling cited only 90B6.
    state = answer("fouled-board", {"is-fouled": "before-play"})
    assert {"7C", "7B3", "90B5"} <= set(state.rulings[-1].laws)
    assert "by the Director or with a member of each side present" in ruling_text(state)


def test_cards_shown_from_a_lowered_hand_have_their_own_answer_leading_to_law_49() -> None:
    # Walk 54, #52: a hand lowered while thinking showed two cards; only "held … deemed played (45C1)" fitted.
    asked = load_charts()["defender-exposes-card"].nodes["what-was-he-doing"]
    neither = next(option for option in asked.options if option.id == "neither")
    assert "lowered hand" in neither.label and neither.next == "penalty-note"
    assert "lowered or held carelessly" in asked.help
