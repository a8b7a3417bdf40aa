"""Scenario tests for the notes of walks 56 and 57 mended on branch walkfix34a (bench/RESULTS.md)."""

from __future__ import annotations

from conftest import answer, laws_applied, ruling_text

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


def test_when_the_defenders_choose_differently_the_one_next_in_turn_prevails() -> None:
    # Walk 56, #24 (H34): West wanted to accept declarer's lead from the wrong hand, East wanted it retracted; no
    # answer said so and no ruling said whose choice counts (55A).
    base = LATER_LEAD | {"played-since": "no", "who-led": "declarer-wrong-hand", "declarer-choice": "differ"}
    walk = answer("lead-out-of-turn", base | {"next-in-turn": "accept", "information": "no"})
    text = ruling_text(walk)
    assert "the choice of the defender next in turn after the irregular lead prevails" in text
    assert "accepted and becomes a correct lead" in text and "55A" in laws_applied(walk)
    walk = answer("lead-out-of-turn", base | {"next-in-turn": "retract", "information": "no"})
    assert "prevails" in ruling_text(walk) and "must lead from the correct hand" in ruling_text(walk)
    # Defenders who agree are asked nothing more, as before.
    walk = answer("lead-out-of-turn", base | {"declarer-choice": "accept", "information": "no"})
    assert "prevails" not in ruling_text(walk)


def test_a_defender_lead_out_of_turn_pointed_out_by_dummy_leaves_declarer_the_options() -> None:
    # Walk 56, #9 (H34): dummy announced the defender was not on lead; nothing said what that does.
    walk = answer(
        "lead-out-of-turn", LATER_LEAD | {"played-since": "no", "who-led": "defender-partner"}, until="defender-choice"
    )
    assert "43A1(b)" in walk.node.help and "declarer keeps both options" in walk.node.help


def test_dummy_pointing_out_a_lead_from_the_wrong_hand_still_leaves_the_defenders_55a() -> None:
    # Walk 57, #27 (H34): "you're in dummy", declarer picked the card up, West wanted to accept it; the ruling sent
    # the director to another chart for 55A.
    walk = answer("dummy-rights", {"what-happened": "declarer-irregularity"})
    text = ruling_text(walk)
    assert "even if declarer has already taken the card back" in text and "next in turn" in text
    assert {"55A", "9B2", "43A1(b)"} <= set(laws_applied(walk))


def test_repeated_discourtesy_names_disqualification_as_the_directors_limit() -> None:
    # Walk 57, #38 (H34): "how far can I go?" stopped at suspension; 91B disqualifies for cause with TO approval.
    walk = answer("tempo-and-conduct", {"what": "conduct", "conduct": "persistent"})
    assert "disqualify the player for cause, subject to the Tournament Organizer's approval" in ruling_text(walk)
    assert "91B" in laws_applied(walk)


def test_an_established_revoke_failing_to_play_a_penalty_card_leaves_it_a_penalty_card() -> None:
    # Walk 57, #40 (H34): the ♦4 played instead of the ♦K penalty card stood (63B, no transfer 64B3), but nothing
    # said the ♦K stays a penalty card (52B1(c)).
    walk = answer(
        "revoke",
        {
            "what-happened": "revoke",
            "trick-twelve": "no",
            "established": "yes",
            "when-noticed": "in-time",
            "kind-of-revoke": "penalty-or-dummy",
            "equity": "no",
        },
    )
    assert "remains a penalty card" in ruling_text(walk) and "No trick is transferred" in ruling_text(walk)
    assert {"64B3", "52B1(c)"} <= set(laws_applied(walk))


def test_a_missing_alert_is_ruled_from_20f5a_not_from_the_change_of_a_call() -> None:
    # Walk 57, #26 (H34): found after play, "Laws applied" led with 21B1(a), and the UI question spoke of a wrong
    # explanation the partner heard when nothing had been explained.
    found_after_play = {
        "what": "not-alerted",
        "misinformation/agreement": "explanation",
        "misinformation/ask-stage": "after-play",
        "misinformation/late-who": "partner-declaring",
        "misinformation/damage": "no",
    }
    walk = answer("explanation-of-calls", found_after_play, until="misinformation/check-ui")
    assert "saw no alert where one was due" in walk.node.ask
    walk = answer("explanation-of-calls", found_after_play | {"misinformation/check-ui": "no"})
    assert laws_applied(walk)[0] == "20F5(a)"


def test_a_card_played_before_partner_is_played_to_this_trick_if_legal_there() -> None:
    # Walk 57, #49 (H34): the ♣K played before partner followed to dummy's ♣2; "can it be used later?" was answered
    # only by "the first legal opportunity", which is the offender's own turn to this trick (50D1(a)).
    walk = answer(
        "premature-play",
        {"what": "before-partner", "both-hands": "no", "dummy-own": "no", "declarer-options": "lowest"},
    )
    assert "own turn to this trick is still to come" in ruling_text(walk) and "50D1(a)" in laws_applied(walk)


def test_a_committee_overruling_the_director_on_law_is_answered_by_93b3() -> None:
    # Walk 56, #18 (H34): "could the committee reverse the ruling on a point of law alone?" had no answer of its own,
    # and the referral ruling left out 93B3's recommendation clause.
    walk = answer("appeal", {"in-time": "yes", "concurrence": "pairs-yes", "subject": "overruled"})
    assert "may not overrule the Director in charge on a point of law" in ruling_text(walk)
    assert "beyond its powers" in ruling_text(walk) and {"93B3", "93B1"} <= set(laws_applied(walk))
    walk = answer("appeal", {"in-time": "yes", "concurrence": "pairs-yes", "subject": "judgement", "committee": "yes"})
    assert "may recommend that the Director in charge change such a ruling" in ruling_text(walk)


def test_a_disputed_designation_from_dummy_is_settled_by_85a1_first() -> None:
    # Walk 56, #25 (H34): declarer said "the queen", the other three said "club"; no question said how the Director
    # settles what was said, and the rank ruling never said what became of the small club dummy had played.
    walk = answer("card-from-dummy", {"what-happened": "unclear", "incontrovertible": "no"}, until="what-said")
    assert "balance of probabilities" in walk.node.help and "85A1" in walk.node.laws
    walk = answer(
        "card-from-dummy",
        {"what-happened": "unclear", "incontrovertible": "no", "what-said": "rank", "rank-leading": "no"},
    )
    assert "If dummy has already played another card, it is withdrawn" in ruling_text(walk)
    assert "45D1" in laws_applied(walk)


def test_a_wrong_card_count_found_after_the_auction_began_goes_to_law_13_not_16d() -> None:
    # Walk 57, #42 branch (H34): 15 cards and 11, bid at another table; the walk asked when extraneous information
    # was received (16D), which has nothing to do with a wrong count.
    counted = {"what-happened": "misdeal", "misdeal-when": "miscounted"}
    walk = answer("wrong-board", counted | {"first-time": "no"}, until="wrong-number-of-cards/what-wrong")
    assert walk.node.id == "what-wrong"
    walk = answer("wrong-board", counted | {"first-time": "yes"})
    assert "there is a new shuffle and deal" in ruling_text(walk) and "6D1" in laws_applied(walk)


def test_a_correction_by_the_declaring_side_after_the_opening_lead_is_said_to_be_late() -> None:
    # Walk 57, #32 branch (H34): declarer corrected partner's explanation only once dummy was down; the ruling never
    # said that was late (20F5(b)(ii), 75B3) and spoke only to "the player who explained wrongly".
    walk = answer(
        "misinformation",
        {
            "agreement": "explanation",
            "ask-stage": "auction",
            "auction-who": "partner",
            "auction-change-call": "no",
            "which-side": "declaring",
            "lead-faced": "yes",
            "damage": "yes",
            "adjusted-score/contest": "pairs",
            "adjusted-score/can-assign": "single",
            "adjusted-score/self-inflicted": "no",
        },
    )
    text = ruling_text(walk)
    assert "this correction comes late" in text and "at the first legal opportunity, after the final pass" in text
    assert {"20F5(b)(ii)", "75B3", "90A"} <= set(laws_applied(walk))


def test_a_suspension_says_how_the_boards_left_unplayed_are_scored() -> None:
    # Walk 57, #50 (H34): a player sent home for the session, his team given nothing for the boards left; the
    # suspension ruling said nothing of them (12C2(a)).
    walk = answer("procedural-penalty", {"offence": "misconduct", "discipline": "suspend"})
    assert "average minus to the contestant directly at fault" in ruling_text(walk)
    assert laws_applied(walk)[:2] == ("91A", "93B3") and "12C2(a)" in laws_applied(walk)


def test_a_wrong_explanation_found_after_play_is_not_cited_as_a_change_of_call() -> None:
    # Walk 56, #5 (H34): found after play, the ruling led with 21B1(a) (a call changed) when no call could be.
    walk = answer(
        "partnership-understandings",
        {"what": "not-disclosed", "how-undisclosed": "yes", "mi-when": "after-play", "mi-damage": "no"},
    )
    assert "21B1(a)" not in laws_applied(walk) and {"21B1(b)", "20F5(b)"} <= set(laws_applied(walk))
