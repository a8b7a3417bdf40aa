"""Thirty-fourth walks (b): the WRONG ruling of walk 58 (#71) and the RIGHT BUT notes of walks 58 and 59, each walked
as the director would notice it."""

from __future__ import annotations

from conftest import answer, laws_applied, ruling_text

from bot.dialogs import load_charts


def test_cards_spread_to_prove_a_void_are_penalty_cards_beside_the_law_59_lead() -> None:
    # Walk 58, #71 (WRONG): West spread his remaining cards to show he had no spade, then led the ♦K. The ruling
    # allowed the lead (59) and let West pick up his hand: the cards shown are penalty cards unless the Director
    # designates otherwise (49, 50), all major when two or more (50B), disposed of by the penalty-card chart.
    told = {"why": "void", "penalty-card": "shown", "penalty-card/situation": "several-on-table"}
    walk = answer("unable-to-follow-instruction", told | {"penalty-card/several-who-next": "offender-plays"})
    text = ruling_text(walk)
    assert "free of the requirement" in text and "declarer does not get a new choice" in text
    assert "is a penalty card unless the Director designates otherwise" in text and "all of them are major" in text
    assert "declarer designates which one is played" in text
    assert {"59", "10C4", "49", "50", "50B", "51A", "51B"} <= set(laws_applied(walk))
    assert laws_applied(walk)[0] == "59"
    # The common walk is unchanged: no card shown, no penalty card, the same ruling as before.
    plain = answer("unable-to-follow-instruction", {"why": "void", "penalty-card": "no"})
    assert plain.rulings[-1].node == "any-card" and "penalty card" not in ruling_text(plain)


def test_cards_spread_by_a_player_who_could_have_complied_are_penalty_cards_beside_the_revoke() -> None:
    # Walk 58, #71, branch (WRONG): West held a spade; the revoke was ruled, but the cards he spread never were.
    told = {
        "why": "could-have",
        "shown-revoke": "yes",
        "revoke/trick-twelve": "no",
        "revoke/established": "no",
        "revoke/who-revoked": "defender",
        "penalty-card/how-many": "several",
        "penalty-card/several-who-next": "offender-plays",
    }
    walk = answer("unable-to-follow-instruction", told)
    text = ruling_text(walk)
    assert "is a revoke" in text and "is a penalty card unless the Director designates otherwise" in text
    assert {"61A", "49", "50B", "62B1", "51A"} <= set(laws_applied(walk))
    unshown = answer(
        "unable-to-follow-instruction", {"why": "could-have", "shown-revoke": "no"}, until="revoke/trick-twelve"
    )
    assert "designates otherwise" not in ruling_text(unshown)


def test_a_call_after_the_final_pass_that_lho_called_over_is_still_unauthorized_for_partner() -> None:
    # Walk 58, #65, branch: 39B lifts the lead restrictions, not Law 16C; the ruling said only "no lead restrictions".
    walk = answer("inadmissible-call", {"what": "after-final", "after-final": "no"})
    assert "still unauthorized for the offender's partner" in ruling_text(walk)
    assert laws_applied(walk)[0] == "39B" and {"39A", "16C2", "16C3"} <= set(laws_applied(walk))


def test_a_director_asked_whether_a_redouble_is_allowed_is_told_law_19s_rule_not_an_irregularity() -> None:
    # Walk 59, #86: "can i still xx after X-P-P?" had no answer but an irregularity; the rule was on the Law 19 card.
    walk = answer("inadmissible-call", {"what": "legal"})
    assert "may redouble only the last preceding double, made by an opponent" in ruling_text(walk)
    assert "No irregularity" in ruling_text(walk) and laws_applied(walk) == ("19A1", "19B1")


def test_an_intended_call_substituted_out_of_rotation_is_pointed_to_laws_29_to_32() -> None:
    # Walk 59, #83, branch: a slip at LHO's turn; the substituted call is still out of rotation.
    told = {"what": "double", "double-when": "auction", "double-intended": "unintended"}
    walk = answer(
        "inadmissible-call", told | {"change-of-call/partner-called": "no", "change-of-call/lho-called": "no"}
    )
    assert "Laws 29 to 32 if it was made out of rotation" in ruling_text(walk)


def test_a_trick_count_settled_by_the_played_cards_says_a_misdirected_card_decides_nothing() -> None:
    # Walk 58, #72: the decisive point was only in the question's help, not in the ruling read aloud.
    told = {"what": "count", "count-when": "play-ended", "claim-involved": "no", "facts": "yes"}
    walk = answer("tricks-and-inspection", told)
    assert "whichever way a card of it was pointed" in ruling_text(walk) and "79A2" in laws_applied(walk)


def test_a_defender_who_snatched_back_a_played_card_and_faced_an_honour_gets_the_penalty_card_chart() -> None:
    # Walk 58, #74: the ruling stopped at "becomes a penalty card"; the ♣J is a major one (50B), played under 50D.
    told = {"why": "defender-replaced", "penalty-card/which-card": "honour", "penalty-card/how-many": "one"}
    walk = answer("retraction-of-card-played", told | {"penalty-card/major-who-next": "offender-plays"})
    text = ruling_text(walk)
    assert "The card stays played" in text and "It is a major penalty card" in text
    assert {"47F2", "49", "50B", "50D1(a)"} <= set(laws_applied(walk))  # walk 60 #22: not Law 50 whole
    # Declarer's change of mind still ends in one answer.
    assert answer("retraction-of-card-played", {"why": "changed-mind"}).rulings[-1].node == "changed-mind"


def test_a_penalty_card_picked_up_is_put_back_face_up() -> None:
    # Walk 58, #54: West had put the ♥Q back in his hand; the ruling only said it "stays face up".
    told = {"situation": "new-card", "which-card": "honour", "how-many": "one", "major-who-next": "offender-plays"}
    assert "put back there if it was picked up" in ruling_text(answer("penalty-card", told))
    told = {"situation": "new-card", "which-card": "small-accident", "how-many": "one"}
    assert "put back there if it was picked up" in ruling_text(answer("penalty-card", told))


def test_dummys_card_pushed_out_for_an_unclear_call_is_no_longer_two_true_answers() -> None:
    # Walk 58, #53: declarer said "club" and dummy pushed out the ♣K; "unclear call" was as true as "dummy played a
    # card declarer did not name", and dropped 45D1. The labels now part them by whether dummy placed a card.
    labels = {o.id: o.label for o in load_charts()["card-from-dummy"].nodes["what-happened"].options}
    assert "dummy has placed no card" in labels["unclear"] and "unclearly" in labels["wrong-card"]
    told = {"what-happened": "wrong-card", "next-trick": "no", "declarer-named": "incomplete"}
    walk = answer("card-from-dummy", told | {"incontrovertible": "no", "what-said": "suit", "suit-only": "yes"})
    # Walk 60, #21: withdrawn only when it is not the card Law 46B makes of "club" (the lowest club).
    assert "If dummy placed another card, it must be withdrawn" in ruling_text(walk)


def test_dummy_both_lho_and_on_lead_is_told_either_answer_fits() -> None:
    # Walk 58, #67: dummy was West's LHO and the hand whose turn it was to lead.
    asked = load_charts()["play-after-illegal-play"].nodes["who"]
    assert "the first two answers both fit" in asked.help
    assert {o.next for o in asked.options if o.id in ("opponent", "proper-leader")} == {"proper-lead"}


def test_serious_misconduct_that_delayed_the_game_names_the_delay_penalty_and_artificial_scores() -> None:
    # Walk 58, #62: a fifteen-minute walk-out at the change of round; the ruling had only Law 91's powers.
    walk = answer("tempo-and-conduct", {"what": "conduct", "conduct": "serious"})
    assert "procedural penalty may be assessed for the delay" in ruling_text(walk)
    assert laws_applied(walk)[0] == "91A" and {"90A", "12C2(a)"} <= set(laws_applied(walk))


def test_a_call_with_the_wrong_boards_cards_after_partner_called_gets_an_artificial_score() -> None:
    # Walk 58, #57, branch: "the Director awards an adjusted score" without saying which kind (12C2(a)).
    told = {"what-happened": "wrong-cards", "partner-called": "yes", "other-board-after-adjust": "same"}
    walk = answer("wrong-board", told)
    assert "artificial adjusted score according to responsibility" in ruling_text(walk)
    assert "12C2(a)" in laws_applied(walk) and laws_applied(walk)[0] == "15A3"
    walk = answer("wrong-board", told | {"other-board-after-adjust": "not-later"})
    assert "artificial adjusted score" in ruling_text(walk) and "12C2(a)" in laws_applied(walk)


def test_players_who_moved_on_early_get_the_penalty_not_whoever_moves_the_boards() -> None:
    # Walk 59, #99: "NS moved early, bd 14 never played" read out 8A2's penalty for the player moving the boards.
    walk = answer("boards-not-moved", {"found": "moved-early", "moved-early": "later"})
    text = ruling_text(walk)
    assert "players who left early" in text and "responsible for moving the boards" not in text
    assert laws_applied(walk)[:2] == ("8A1", "8B2")
    walk = answer(
        "boards-not-moved", {"found": "moved-early", "moved-early": "none"}, until="adjusted-score/contest-artificial"
    )
    assert "players who left early" in ruling_text(walk) and "8A2" not in laws_applied(walk)


def test_dummy_asking_declarer_who_revoked_is_not_asked_again_what_happened_or_who_revoked() -> None:
    # Walk 59, #78, branch: after "declarer revoked" the revoke chart asked "What has happened?" and "Who revoked?".
    told = {"what-happened": "asked-revoke", "revoke-rights": "no", "did-revoke": "yes"}
    walk = answer("dummy-rights", told | {"revoke/trick-twelve": "no", "revoke/established": "no"})
    assert walk.rulings[-1].node == "replace" and "62B2" in walk.rulings[-1].laws
    visited = set(walk.trail)
    assert ("revoke", "what-happened") not in visited and ("revoke", "who-revoked") not in visited


def test_a_pass_at_lhos_turn_called_over_by_lho_is_not_asked_about_a_skipped_turn() -> None:
    # Walk 59, #77, branch: before any bid, LHO called over the pass; the 17D3 question cannot arise at LHO's turn.
    told = {"what-call": "pass", "whose-turn": "lho", "called-since": "no-one", "lho-option": "accept"}
    walk = answer("call-out-of-rotation", told)
    assert walk.rulings[-1].node == "accepted" and ("call-out-of-rotation", "called-over-pass") not in walk.trail
    # At RHO's turn a pass called over may still have skipped a turn: the question stays.
    walk = answer("call-out-of-rotation", told | {"whose-turn": "rho"}, until="called-over-pass")
    assert walk.node.id == "called-over-pass"


def test_a_card_seen_before_the_first_call_asks_first_whether_partner_could_see_it() -> None:
    # Walk 58, #70: South's ♥A slipped out as she drew her hand; Law 24 applies if North could have seen it (17A).
    asked = load_charts()["unauthorised-information"].nodes["interfere"]
    assert "Law 24" in asked.help and "card-exposed-during-auction" in asked.help


def test_the_start_of_play_chart_hands_a_wrong_defenders_lead_to_the_opening_lead_chart() -> None:
    # Walk 58, #64: the chart offered first had no answer for the wrong defender's face-down lead.
    told = {"what-happened": "wrong-leader", "opening-lead-out-of-turn/who-led": "face-down"}
    walk = answer("start-of-play", told)
    assert walk.rulings[-1].node == "face-down-withdrawn" and "41A" in laws_applied(walk)


def test_hands_mixed_before_the_board_moves_on_say_what_follows_if_the_deal_cannot_be_rebuilt() -> None:
    # Walk 58, #58: East shuffled all 52 cards; the ruling assumed the deal could always be rebuilt.
    walk = answer("fouled-board", {"is-fouled": "before-play"})
    assert "If the deal cannot be rebuilt" in ruling_text(walk) and "87B" in laws_applied(walk)


def test_slow_play_leaving_a_board_unplayed_mentions_letting_the_table_finish_or_postponing() -> None:
    # Walk 58, #75: the 8B1/8B2 choice was not mentioned before the artificial score.
    assert "8B1" in load_charts()["procedural-penalty"].nodes["late-boards"].help
