"""Scenario tests for the notes of walks 60 and 61 mended on branch walkfix35a (bench/RESULTS.md)."""

from __future__ import annotations

from conftest import answer, laws_applied, note, ruling_text

from bot.dialogs import load_charts
from bot.dialogs.facts import Description, answer_from
from bot.dialogs.model import Question
from bot.laws.summaries import load_cases


def test_a_played_board_moved_on_early_by_the_wrong_player_has_its_own_answer() -> None:
    # Walk 61, #38 (WRONG): an East-West player carried the board, already played, to the next table, where the
    # hands were taken out; the only answers were for a table lacking boards ("play them now").
    walk = answer("boards-not-moved", {"found": "moved-by-other"})
    text = ruling_text(walk)
    assert "Nothing is rectified and the score stands" in text
    assert "North moves the boards" in text and "play them now" not in text
    assert laws_applied(walk)[:2] == ("8A2", "8A1") and "7B1" in laws_applied(walk)


def test_a_missing_card_found_in_the_board_is_not_ruled_as_a_replacement_from_another_pack() -> None:
    # Walk 60, #7: East's 13th card was in the board's South pocket; the ruling read "(or, if it could not be
    # found, its replacement from another pack)" and cited 14B3.
    short = {"what-wrong": "too-few", "short-when": "yes", "restored-card/also": "none"}
    walk = answer("wrong-number-of-cards", short | {"after-found": "elsewhere"})
    text = ruling_text(walk)
    assert "another pack" not in text and "neither a penalty card nor a revoke" in text
    assert "14B3" not in laws_applied(walk) and {"14B2", "14B4", "14C"} <= set(laws_applied(walk))
    # A card that cannot be found is replaced from another pack, and that ruling says so (14B3).
    walk = answer("wrong-number-of-cards", short | {"after-found": "lost"})
    assert "another pack" in ruling_text(walk) and "14B3" in laws_applied(walk) and "14B2" not in laws_applied(walk)


def test_a_wrong_board_already_played_names_the_board_the_pairs_missed() -> None:
    # Walk 60, #8: both pairs replayed board 5 in place of board 6; the ruling kept their earlier scores on "this
    # board" and then gave average on "this board", never naming board 6, the board they were deprived of.
    cancelled = {"what-happened": "wrong-board", "wrong-board-event": "pairs", "played-before": "yes"}
    walk = answer(
        "wrong-board",
        cancelled
        | {
            "who-at-fault": "players",
            "adjusted-score/artificial-fault": "both-partly",
        },
    )
    text = ruling_text(walk)
    assert "a pair that already has a valid score on it from another round keeps that score" in text
    assert "on the board this table should have played this round, if it cannot be played" in text
    assert laws_applied(walk)[:2] == ("15B1", "15B3")
    walk = answer("wrong-board", cancelled | {"who-at-fault": "director"})
    assert "valid score on this board" not in ruling_text(walk) and "AVERAGE PLUS" in ruling_text(walk)


def test_a_later_bid_at_lhos_turn_cites_31c_alone_and_says_which_call_is_changed() -> None:
    # Walk 60, #9: South passed, then bid 1♣ at West's turn; the ruling cited 30B2 (a pass) and 32C (a double) for a
    # bid, quoted Law 25 whole beside 25B2 and 25B3, and the Law 25 question did not say which call it meant.
    later_bid = {"what-call": "bid", "whose-turn": "lho-again"}
    walk = answer("call-out-of-rotation", later_bid, until="change-of-call/intent")
    assert "the call changed is the one the offender made at their own turn, and the bid is the substitute" in (
        note(walk, "change-of-call-bid").text
    )
    walk = answer(
        "call-out-of-rotation",
        later_bid
        | {
            "change-of-call/intent": "intended",
            "change-of-call/substituted": "yes",
            "change-of-call/lho-accepts": "refuse",
            "lead-restrictions/comparable-q": "no",
            "lead-restrictions/auction-over": "not-yet",
            "lead-restrictions/offender-role": "declaring-side",
        },
    )
    laws = laws_applied(walk)
    assert laws[0] == "31C" and not {"30B2", "32C", "25"} & set(laws) and "25B2" in laws
    # A pass at LHO's turn after an earlier call still cites 30B2.
    walk = answer(
        "call-out-of-rotation", {"what-call": "pass", "whose-turn": "lho-again"}, until="change-of-call/intent"
    )
    assert note(walk, "change-of-call-pass").laws == ("30B2",)


def test_dummy_who_watched_and_then_pointed_out_an_established_revoke_gets_no_trick_transfer() -> None:
    # Walk 60, #11: dummy had walked round to watch, then told declarer West had revoked two tricks earlier; NS
    # wanted the usual transfer. The example spoke only of a revoke not yet established.
    base = {"what-happened": "defender-irregularity", "defender-rights": "yes"}
    for gained in ("yes", "no"):
        walk = answer("dummy-rights", base | {"defender-end": gained})
        assert "an established revoke" in ruling_text(walk) and "transfers no tricks" in ruling_text(walk)
        assert laws_applied(walk)[0] == "43B3"


def test_a_deemed_revoke_on_a_defective_trick_quotes_67b1_once() -> None:
    # Walk 60, #12: trick 8 held three cards; the ruling quoted 67B1 with its (a) and (b), then 67B1(a) and 67B1(b).
    for has_suit in ("yes", "no"):
        walk = answer(
            "defective-trick",
            {"when": "yes", "found": "no-card", "has-suit": has_suit, "won-later": "yes", "equity": "no"},
        )
        laws = laws_applied(walk)
        assert laws == ("67B1", "64A2"), laws
        assert "one trick is transferred" in ruling_text(walk)


def test_an_alleged_undisclosed_agreement_after_a_fielded_psych_is_asked_not_taken_as_given() -> None:
    # Walk 60, #14: "NS claimed the pair had an undisclosed agreement" answered "Agreement not disclosed", a path that
    # takes the agreement as given and never asks whether partner had more reason to expect the psych (40C1).
    chart = load_charts()["partnership-understandings"]
    node = chart.nodes["what"]
    assert isinstance(node, Question)
    for told in ("NS claimed the pair had an undisclosed agreement", "NS alleged an undisclosed agreement"):
        text = f"West opened 1S in third seat on 5 HCP and East passed with 16. {told}."
        assert answer_from(Description(text), chart, node) != "not-disclosed", told
    # Stated as a fact, it still answers.
    assert answer_from(Description("Their 2D was an undisclosed agreement."), chart, node) == "not-disclosed"


def test_tricks_disputed_after_the_time_for_a_ruling_may_still_be_corrected_under_79c2() -> None:
    # Walk 60, #16, branch: the trick count was disputed only the next day; the score stood as entered (92B) with no
    # word of 79C2, which lets the Director correct a scoring error after the Correction Period.
    late = {"what": "tricks", "from-claim": "no", "called-in-round": "no", "request-time": "no"}
    walk = answer("scoring-error", late, until="request-late")
    assert "79C2" in walk.node.laws and "beyond reasonable doubt" in walk.node.ask
    walk = answer("scoring-error", late | {"request-late": "yes"})
    assert "corrected after the Correction Period" in ruling_text(walk) and laws_applied(walk)[0] == "79C2"
    walk = answer("scoring-error", late | {"request-late": "no"})
    assert "score stands as entered" in ruling_text(walk)


def test_a_misbidder_using_partners_correct_explanation_is_ruled_under_75a() -> None:
    # Walk 61, #28, branch: the misbidder "woke up" from partner's explanation; the adjusted score cited 16B1 and
    # 12C1 but named 75A, which makes that knowledge unauthorized, only in the question.
    walk = answer(
        "misinformation",
        {
            "agreement": "call",
            "mistaken-call": "yes",
            "unauthorised-information/play-ended": "yes",
            "unauthorised-information/suggested": "yes",
            "unauthorised-information/logical-alternative": "yes",
            "adjusted-score/damaged": "yes",
            "adjusted-score/contest": "pairs",
            "adjusted-score/can-assign": "single",
            "adjusted-score/self-inflicted": "no",
        },
    )
    assert "knows that their call was misinterpreted" in ruling_text(walk)
    assert "75A" in laws_applied(walk) and "ASSIGNED adjusted score" in ruling_text(walk)


def test_a_twelfth_trick_revoke_by_declarer_is_told_that_declarers_card_is_replaced_freely() -> None:
    # Walk 61, #29: declarer ruffed a club at trick 12 holding one; the ruling read only the defender's variant.
    walk = answer("revoke", {"what-happened": "revoke", "trick-twelve": "yes", "twelve-hands": "no"})
    assert "Declarer's or dummy's card is replaced without further rectification" in ruling_text(walk)
    assert laws_applied(walk)[:2] == ("62D1", "62B2")


def test_an_honour_dropped_by_accident_is_told_it_is_a_major_penalty_card() -> None:
    # Walk 61, #32: the ♠Q dropped face up; "is the queen treated differently from a low card?" The ruling never
    # said "major penalty card" nor cited 50B, which the minor card's ruling does.
    walk = answer(
        "penalty-card",
        {
            "situation": "new-card",
            "which-card": "honour",
            "how-many": "one",
            "major-who-next": "partner-leads",
            "major-declarer-choice": "require",
        },
    )
    assert "Any card of honour rank is a major penalty card, even one exposed by accident" in (ruling_text(walk))
    assert "50B" in laws_applied(walk)


def test_a_reminder_for_a_discourteous_remark_names_the_penalties_the_director_could_give() -> None:
    # Walk 61, #36: "clueless", heard by the whole section; the Director only had a word. "Shouldn't the TD do
    # something stronger?" The reminder never said a disciplinary (91A) or procedural (90A) penalty was open to him.
    walk = answer("tempo-and-conduct", {"what": "conduct", "conduct": "minor"})
    text = ruling_text(walk)
    assert "This is a reminder" in text and "disciplinary penalty in points (a decision that is final)" in text
    assert {"91A", "90A"} <= set(laws_applied(walk)) and laws_applied(walk)[0] == "74A1"


def test_a_hesitation_found_under_disputed_facts_is_not_asked_again_and_cites_85a2() -> None:
    # Walk 61, #40, branch: the Director found there was a hesitation; the unauthorized-information chart asked
    # again whether partner made information available, and the ruling never cited 85A2.
    found = {"facts-agreed": "no", "determined": "yes", "which-irregularity": "unauthorised-information"}
    walk = answer(
        "disputed-facts",
        found | {"unauthorised-information/ask-source": "partner"},
        until="unauthorised-information/play-ended",
    )
    assert "partner-facts" not in [node for _, node in walk.trail]
    walk = answer(
        "disputed-facts",
        found
        | {
            "unauthorised-information/ask-source": "partner",
            "unauthorised-information/play-ended": "yes",
            "unauthorised-information/suggested": "yes",
            "unauthorised-information/logical-alternative": "no",
        },
    )
    assert "rules on them as on agreed facts" in ruling_text(walk) and "85A2" in laws_applied(walk)
    # Started on its own, the unauthorized-information chart still asks it.
    walk = answer("unauthorised-information", {"ask-source": "partner"}, until="partner-facts")
    assert walk.node.id == "partner-facts"


def test_a_team_board_unplayed_for_a_missing_card_is_reminded_of_law_14a() -> None:
    # Walk 61, #42: a card missing at one table, so the board went unplayed and was scored under 86B3; nothing said
    # that the Director searches for it and reconstructs the deal with another pack (14A).
    walk = answer("team-events", {}, until="what")
    assert "reconstructs the deal with another pack" in walk.node.help and "14A" in walk.node.help
    walk = answer("team-events", {"what": "redeal", "why-redeal": "cards"}, until="wrong-number-of-cards/what-wrong")
    assert walk.chart.id == "wrong-number-of-cards"


def test_a_premature_play_found_only_after_play_went_on_offers_no_57a_choice() -> None:
    # Walk 61, #39, branch: after declarer's lead from the wrong hand the defender on its right played before
    # partner (53C), and the Director was called at the end of the hand; the chart offered 57A's choices anyway.
    walk = answer(
        "play-after-illegal-play",
        {"who": "rho-defender", "rho-proper-lead": "played-to-it", "premature-play/both-hands": "played-on"},
    )
    text = ruling_text(walk)
    assert "can no longer be applied" in text and "may be forfeited" in text
    assert {"53C", "57A", "11A"} <= set(laws_applied(walk))


def test_dummy_playing_the_card_46b_designates_after_a_spade_is_not_withdrawn() -> None:
    # Walk 60, #21 (WRONG): "play a spade" from ♠K3, dummy played the ♠3 and East won with the ♠Q; declarer meant the
    # king. The ♠3 is the card 46B2 designates, yet the note withdrew it "either way" and let East take back his ♠Q.
    told = {"what-happened": "wrong-card", "next-trick": "no", "declarer-named": "incomplete"}
    walk = answer("card-from-dummy", told | {"incontrovertible": "no", "what-said": "suit", "suit-only": "yes"})
    text = ruling_text(walk)
    assert "Dummy's card must be withdrawn" not in text
    assert text.index("lowest card of the suit named") < text.index("If dummy placed that card, it is played")
    assert "nothing is withdrawn" in text and laws_applied(walk)[0] == "46B2"
    # Declarer's intention for the king beyond doubt: the ♠3 is another card, withdrawn, and East may change.
    walk = answer("card-from-dummy", told | {"incontrovertible": "yes"})
    assert "incontrovertibly intended is played" in ruling_text(walk)
    assert "If dummy placed another card, it must be withdrawn" in ruling_text(walk) and "45D1" in laws_applied(walk)


def test_a_defenders_revoke_corrected_after_partners_question_says_the_question_was_allowed() -> None:
    # Walk 60, #25: West asked East "none?" and East replaced his diamond with a club; the ruling never said that
    # defenders may ask each other (61B3). Walks 60 #22/#25 and 61 #35: 50D was quoted beside 50D1(a), (b) and 50D2.
    walk = answer(
        "revoke",
        {
            "what-happened": "revoke",
            "trick-twelve": "no",
            "established": "no",
            "who-revoked": "defender",
            "penalty-card/how-many": "one",
            "penalty-card/major-who-next": "offender-plays",
        },
    )
    assert "the defenders may ask declarer and each other" in ruling_text(walk) and "61B3" in laws_applied(walk)
    assert "50D" not in laws_applied(walk) and "50D1(a)" in laws_applied(walk)


def test_a_defender_who_replaced_a_played_card_is_not_quoted_law_50_whole() -> None:
    # Walk 60, #22: Law 50 was quoted whole, then 50A, 50D1(a), 50D1(b), 50D2 again.
    walk = answer(
        "retraction-of-card-played",
        {
            "why": "defender-replaced",
            "penalty-card/which-card": "honour",
            "penalty-card/how-many": "one",
            "penalty-card/major-who-next": "offender-plays",
        },
    )
    laws = laws_applied(walk)
    assert "50" not in laws and "50D" not in laws and {"49", "50B", "50D1(a)"} <= set(laws)


def test_a_card_put_down_in_turn_at_the_same_moment_as_a_lead_is_checked_for_a_revoke() -> None:
    # Walk 60, #20, branch: West, next in turn, faced the ♦3 as dummy led the ♣10; by 58A it is his play to a club
    # trick, and "No rectification" was ruled without asking whether West held a club.
    base = {"what": "two-players", "second-card": "in-turn"}
    assert "No rectification" in ruling_text(answer("simultaneous-plays", base | {"in-turn-follows": "yes"}))
    walk = answer("simultaneous-plays", base | {"in-turn-follows": "no"}, until="revoke/trick-twelve")
    assert walk.chart.id == "revoke" and "is a revoke" in note(walk, "in-turn-revoke").text


def test_a_declaring_side_call_after_the_final_pass_is_authorized_for_the_opening_leader() -> None:
    # Walk 61, #46: declarer's double after 4♥ P P P was cancelled; "is my partner, on lead, restricted by what he
    # saw?" The ruling said only that it was unauthorized for the offender's partner.
    walk = answer("inadmissible-call", {"what": "after-final", "after-final": "no"})
    assert "authorized for the other side" in ruling_text(walk) and "16C1" in laws_applied(walk)


def test_a_face_down_lead_turned_over_during_partners_questions_has_its_own_answer() -> None:
    # Walk 61, #47: the lead was made face down and faced while partner was still asking; the nearest answer ruled
    # that "leading face up broke the procedure of Law 41A".
    walk = answer("start-of-play", {"what-happened": "faced-too-soon"})
    text = ruling_text(walk)
    assert "The opening lead stands" in text and "while partner was still asking" in text
    assert "Leading face up" not in text and laws_applied(walk)[0] == "41C" and "90A" in laws_applied(walk)


def test_an_incomplete_explanation_found_after_play_says_a_known_tendency_must_be_disclosed() -> None:
    # Walk 61, #43: 1♣ "11-14 balanced", sometimes opened on 10 with a good major; the ruling never said whether
    # that tendency must be disclosed (40A1(a), 40B5(a), 40C1).
    walk = answer(
        "partnership-understandings",
        {"what": "not-disclosed", "how-undisclosed": "yes", "mi-when": "after-play", "mi-damage": "no"},
    )
    assert "a tendency partner knows of" in ruling_text(walk) and "must be disclosed" in ruling_text(walk)
    assert {"40B5(a)", "40C1"} <= set(laws_applied(walk))


def test_the_suspension_card_says_a_ban_beyond_the_session_is_not_the_directors() -> None:
    # Walk 61, #50: the club committee wanted to suspend a member for a month; the card stated 91A and 91B but never
    # said that a ban longer than the session is outside the Director's powers (80B2(d), 80B2(f)).
    case = next(c for c in load_cases() if c.id == "director-discipline")
    assert "A suspension beyond the current session is not among the Director's powers" in case.answer.text
    assert {"91A", "80B2(d)", "80B2(f)"} <= set(case.answer.laws)
