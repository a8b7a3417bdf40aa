"""Real table cases from the auction period (Laws 9-40), walked through the auction charts, each answer named
by its question."""

from __future__ import annotations

from conftest import answer, note, ruling_text

from bot.dialogs import Engine, load_charts
from bot.dialogs.facts import Description, answer_from, read_description
from bot.dialogs.render import outcome_texts

LEAD_RESTRICTION_LAWS = {"23A", "23C", "26", "26A", "26B"}  # a comparable call (23) or a lead restriction (26)


def test_north_opens_at_souths_turn_then_repeats_a_comparable_call_and_no_damage() -> None:
    # Seed 001, Law 31 example: South is dealer, North "opens" 1S; not accepted; North later bids a
    # comparable call. No further rectification, no lead restrictions, score stands (31B2, 31A2(a)).
    state = answer(
        "call-out-of-rotation",
        {
            "what-call": "bid",
            "whose-turn": "partner",
            "called-since": "no-one",
            "lho-option": "refuse",
            "comparable-call/test": "yes",
            "comparable-call/damage-comparable": "no",
        },
    )
    assert state.finished
    assert "comparable" in state.rulings[-1].text and "score stands" in state.rulings[-1].text
    assert "31A2(a)" in state.rulings[-1].laws
    assert state.rulings[0].laws == ("26A", "23B", "23C")


def test_bid_out_of_turn_not_comparable_partner_passes_once_and_declarer_bans_a_suit() -> None:
    state = answer(
        "call-out-of-rotation",
        {
            "what-call": "bid",
            "whose-turn": "partner",
            "called-since": "no-one",
            "lho-option": "refuse",
            "comparable-call/test": "no",
            "lead-restrictions/offender-role": "defender",
            "lead-restrictions/declarer-choice": "prohibit",
        },
        until="comparable-call/play-on-not-comparable",
    )
    assert "prohibits the lead of one suit" in state.rulings[-1].text
    # 26B: only a suit the offender did not specify in the legal auction; a walk nearly let a bid suit be banned.
    assert "did not specify in the legal auction" in state.rulings[-1].text
    assert "26B" in state.rulings[-1].laws
    assert not state.finished  # the chart goes on to the end-of-play checks (72C, 16C2)
    state = answer(
        "call-out-of-rotation",
        {
            "what-call": "bid",
            "whose-turn": "partner",
            "called-since": "no-one",
            "lho-option": "refuse",
            "comparable-call/test": "no",
            "lead-restrictions/offender-role": "defender",
            "lead-restrictions/declarer-choice": "prohibit",
            "comparable-call/aware": "yes",
        },
    )
    assert state.finished and "72C" in state.rulings[-1].laws and "score is adjusted" in state.rulings[-1].text


def test_a_bid_out_of_turn_replaced_by_a_non_comparable_call_cites_the_bid_laws_not_the_pass_or_double_laws() -> None:
    # Third walk #98: West's 1S at East's turn cancelled, West later bids 4S, not comparable. The partner's forced
    # pass is Law 31's (31B2 ruling as in 31A2(b)); the ruling quoted 30B1(b)(ii) and 32A2(b) as well.
    walks = {
        call: answer(
            "call-out-of-rotation",
            {"what-call": call, "whose-turn": "partner", "called-since": "no-one", "lho-option": "refuse",
             "comparable-call/test": "no", "lead-restrictions/offender-role": "declaring-side",
             **({"inadmissible-double": "no"} if call == "double" else {})},
            until="comparable-call/play-on-not-comparable",
        )
        for call in ("pass", "bid", "double")
    }  # fmt: skip
    laws = {call: Engine(load_charts()).ruling_laws(walk) for call, walk in walks.items()}
    assert "31A2(b)" in laws["bid"] and "31B2" in laws["bid"]
    assert "30B1(b)(ii)" not in laws["bid"] and "32A2(b)" not in laws["bid"]
    assert "30B1(b)(ii)" in laws["pass"] and "31A2(b)" not in laws["pass"] and "32A2(b)" not in laws["pass"]
    assert "32A2(b)" in laws["double"] and "30B1(b)(ii)" not in laws["double"] and "31A2(b)" not in laws["double"]


def test_a_call_out_of_rotation_at_rhos_turn_cites_31a2_not_31b2() -> None:
    # Walk22 #94: 1D bid at RHO's turn, RHO then bid, the offender's 2D comparable: Law 31A rules it. 31B2 ("When
    # the offender has bid at his partner's turn ... or at his LHO's turn") was cited all the same; it is cited only
    # when the bid was at partner's or LHO's turn (and likewise 32B2 for a double or redouble).
    engine = Engine(load_charts())

    def laws(call: str, turn: str, comparable: str) -> tuple[str, ...]:
        answers = {"what-call": call, "whose-turn": turn, "called-since": "no-one", "lho-option": "refuse"}
        if call == "double":
            answers["inadmissible-double"] = "no"
        if turn == "rho":
            answers[f"{call}-rho-call"] = "bid"
        answers["comparable-call/test"] = comparable
        if comparable == "yes":
            answers["comparable-call/damage-comparable"] = "no"
            return engine.ruling_laws(answer("call-out-of-rotation", answers))
        answers["lead-restrictions/offender-role"] = "declaring-side"
        return engine.ruling_laws(
            answer("call-out-of-rotation", answers, until="comparable-call/play-on-not-comparable")
        )

    for comparable, a2 in (("yes", "A2(a)"), ("no", "A2(b)")):
        assert f"31{a2}" in laws("bid", "rho", comparable) and "31B2" not in laws("bid", "rho", comparable)
        assert {f"31{a2}", "31B2"} <= set(laws("bid", "partner", comparable))
        assert f"32{a2}" in laws("double", "rho", comparable) and "32B2" not in laws("double", "rho", comparable)
        assert {f"32{a2}", "32B2"} <= set(laws("double", "partner", comparable))


def test_a_repeated_insufficient_bid_is_not_asked_again_whether_it_was_in_rotation() -> None:
    # The bid out of rotation must be repeated after RHO passes (31A1) and is insufficient: the chart knows it is
    # now made in rotation, so Law 27 goes straight to LHO's option instead of asking whose turn it was again.
    state = answer(
        "call-out-of-rotation",
        {"what-call": "bid", "whose-turn": "rho", "called-since": "no-one", "lho-option": "refuse",
         "bid-rho-call": "pass-insufficient", "insufficient-bid/unintended": "intended",
         "insufficient-bid/lho-accepts": "accept"},
    )  # fmt: skip
    assert state.finished and "27A1" in state.rulings[-1].laws
    asked = [a.question for a in state.answered]
    assert "Was the insufficient bid made at the offender's own turn to call?" not in asked


def test_pass_out_of_turn_at_rhos_turn_offender_must_pass_once() -> None:
    state = answer(
        "call-out-of-rotation",
        {
            "what-call": "pass",
            "whose-turn": "rho",
            "called-since": "no-one",
            "lho-option": "refuse",
            "pass-rho-back": "end-of-play",
            "pass-rho-aware": "no",
        },
    )
    assert state.finished
    assert "The score stands" in state.rulings[-1].text and state.rulings[-1].laws == ("30A",)
    # Read aloud in order: the pass cancelled and the offender's pass, the free lead, then the score.
    aloud = outcome_texts(state)
    assert "must pass when next it is their turn" in aloud[0] and aloud[-1] == state.rulings[-1].text
    # The lead is free because Law 30A names no restriction, not because of a comparable call.
    free = next(r for r in state.rulings if r.node == "no-restriction-30a")
    assert "comparable" not in free.text and "Law 30A names none" in free.text


def test_pass_out_of_turn_at_rhos_turn_then_a_bid_instead_of_the_forced_pass_is_ruled_under_law_37() -> None:
    # Walk 20 #60: N passed at W's turn (30A), then bid 1S when he had to pass. The park says a bid instead of the
    # forced pass is an inadmissible call; called back for it, the walk goes on in the Law 37 chart (37B1, 37B2).
    passed = {"what-call": "pass", "whose-turn": "rho", "called-since": "no-one", "lho-option": "refuse"}
    state = answer("call-out-of-rotation", passed, until="pass-rho-play")
    assert state.parked and "instead of passing, an inadmissible call (Law 37)" in state.node.park
    bid = {**passed, "pass-rho-back": "not-passed", "inadmissible-call/must-pass-intended": "intended"}
    state = answer("call-out-of-rotation", bid, until="inadmissible-call/must-pass-lho")
    assert state.chart.id == "inadmissible-call" and state.node.id == "must-pass-lho"
    assert "What was wrong with the call?" not in [a.question for a in state.answered]
    state = answer(
        "call-out-of-rotation",
        {
            **bid,
            "inadmissible-call/must-pass-lho": "no",
            "lead-restrictions/offender-role": "declaring-side",
            "inadmissible-call/aware": "no",
            "inadmissible-call/used-information": "no",
        },
    )
    assert ("inadmissible-call", "must-pass-cancel") in state.trail and state.rulings[-1].laws[0] == "37B2"


def test_lho_calls_over_the_bid_out_of_turn_accepts_it() -> None:
    state = answer(
        "call-out-of-rotation",
        {"what-call": "bid", "whose-turn": "rho", "called-since": "lho-over"},
    )
    assert state.finished and state.rulings[-1].laws == ("29A",)


def test_dealer_bids_over_an_opening_out_of_turn_intending_to_open_28b() -> None:
    # Seed 001, Law 28 example 2: East opens out of turn at South's turn (dealer, East's LHO), and South, who
    # meant to open, calls: 28B.
    state = answer(
        "call-out-of-rotation",
        {"what-call": "bid", "whose-turn": "lho", "called-since": "correct-player"},
    )
    assert state.finished and "28B" in state.rulings[-1].laws and "16C2" in state.rulings[-1].laws


def test_partner_calls_at_their_own_turn_after_a_bid_at_their_turn_the_rectification_stands() -> None:
    # 28B covers a call by an opponent of the offender; the offender's partner's own call is 31B1's, and the
    # offender's next call is still compared (31B2).
    state = answer(
        "call-out-of-rotation",
        {"what-call": "bid", "whose-turn": "partner", "called-since": "correct-player"},
        until="comparable-call/test",
    )
    assert not state.finished and state.chart.id == "comparable-call"


def test_slow_pass_then_partner_bids_on_with_a_logical_alternative_goes_to_adjusted_score() -> None:
    state = answer(
        "unauthorised-information",
        {
            "ask-source": "partner",
            "partner-facts": "yes",
            "play-ended": "yes",
            "suggested": "yes",
            "logical-alternative": "yes",
        },
        until="adjusted-score/damaged",
    )
    assert not state.finished and state.chart.id == "adjusted-score"
    state = answer(
        "unauthorised-information",
        {
            "ask-source": "partner",
            "partner-facts": "yes",
            "play-ended": "yes",
            "suggested": "yes",
            "logical-alternative": "no",
        },
    )
    assert state.finished and "no logical alternative" in state.rulings[-1].text
    assert "16B1(b)" in state.rulings[-1].laws


def test_withdrawn_call_information_is_authorized_for_the_non_offenders() -> None:
    state = answer("unauthorised-information", {"ask-source": "withdrawn", "ask-side": "non-offending"})
    assert state.finished and state.rulings[-1].laws == ("16C1", "16A1(b)")


def test_pulled_the_wrong_bidding_card_before_partner_called_no_lead_restrictions() -> None:
    state = answer("change-of-call", {"intent": "unintended", "partner-called": "no", "lho-called": "no"})
    assert state.finished and state.rulings[-1].laws == ("25A1",)
    assert "no lead restrictions" in state.rulings[-1].text
    assert "intended call stands" in ruling_text(state)


def test_a_change_of_mind_told_aloud_leaves_the_call_and_tells_partner_the_remark_is_unauthorized() -> None:
    # Walk 20, H23:77 branch b: 3NT put on the table, then "oh I meant 4H" from a change of mind: 3NT stands (25A2),
    # and the remark is unauthorized information for partner (16B1), with the call-back when play ends (16B3).
    state = answer("change-of-call", {"intent": "intended", "substituted": "no"})
    ruling = state.rulings[-1]
    assert ruling.node == "call-stands" and ruling.laws[0] == "25A2" and {"16B1", "16B3"} <= set(ruling.laws)
    assert "unauthorized information for the player's partner" in ruling.text and "when play ends" in ruling.text


def test_change_of_mind_substitution_cancelled_original_call_stands() -> None:
    state = answer(
        "change-of-call",
        {
            "intent": "intended",
            "substituted": "yes",
            "lho-accepts": "refuse",
            "lead-restrictions/comparable-q": "no",
            "lead-restrictions/auction-over": "ended",
            "lead-restrictions/offender-role": "declaring-side",
        },
    )
    assert state.finished and "26B" in state.rulings[-1].laws
    assert ("change-of-call", "cancelled") in state.trail  # the Law 25B2 note: the substitution is cancelled


def test_substitution_accepted_and_comparable_lifts_the_lead_restrictions_but_not_law_16c() -> None:
    # Law 25B3: "Law 16C applies to any call withdrawn or cancelled", so Law 26A lifts only the lead restrictions.
    state = answer(
        "change-of-call",
        {
            "intent": "intended",
            "substituted": "yes",
            "lho-accepts": "accept",
            "lead-restrictions/comparable-q": "yes",
        },
    )
    ruling = state.rulings[-1]
    assert state.finished and ruling.laws[0] == "26A" and "16C2" in ruling.laws
    assert "no lead restrictions" in ruling.text and "still unauthorized for the offender's partner" in ruling.text
    assert "Law 25B3" in ruling.text and "does not apply" not in ruling.text


def test_a_call_made_with_another_boards_cards_gives_law_16c_and_no_lead_restriction() -> None:
    # 15A2(b)/(c): the offender calls again, the auction "continues normally" and Law 16C applies; Law 15 names
    # no Law 26. A fourth walk found the chart asking whether the cancelled call was replaced by a comparable
    # call and, with the offender defending, letting declarer ban a suit (26B).
    engine = Engine(load_charts())
    state = answer("wrong-board", {"what-happened": "wrong-cards", "partner-called": "no", "other-board": "not-later"})
    assert state.finished and "lead-restrictions" not in [chart for chart, _node in state.trail]
    texts = ruling_text(state)
    assert "Law 16C applies" in texts and "There is no lead restriction" in texts and "prohibit" not in texts
    laws = engine.ruling_laws(state)
    assert laws[0] == "15A2(b)" and {"16C2", "16C3"} <= set(laws) and not LEAD_RESTRICTION_LAWS & set(laws)


def test_comparable_call_with_no_calling_law_lifts_law_16c_as_law_26a_says() -> None:
    # Law 26A, reached from a law that does not itself apply Law 16C: "Law 16C does not apply".
    state = answer("lead-restrictions", {"comparable-q": "yes"})
    assert state.finished and "Law 16C does not apply" in state.rulings[-1].text


def test_a_comparable_call_after_a_double_at_partners_turn_keeps_16c2_for_partners_call() -> None:
    # Walk 27 #87 (H24:87): a double out of rotation at partner's turn, then a comparable call. 32B1 let partner call
    # "but Law 16C2 applies"; the ruling then said flatly "Law 16C does not apply to the withdrawn call".
    state = answer(
        "call-out-of-rotation",
        {
            "what-call": "double",
            "inadmissible-double": "no",
            "whose-turn": "partner",
            "called-since": "no-one",
            "lho-option": "refuse",
            "comparable-call/test": "yes",
            "comparable-call/damage-comparable": "no",
        },
    )
    read = ruling_text(state)
    assert "information from the cancelled call is unauthorized for the partner" in read
    assert "from the comparable call on Law 16C does not apply" in read and "stays subject to Law 16C2" in read
    assert "a defender, and Law 16C does not apply" not in read


def test_bid_of_eight_after_lho_called_no_recourse_to_26b() -> None:
    state = answer("inadmissible-call", {"what": "above-seven", "seven-intended": "intended", "seven-lho": "yes"})
    assert state.finished and state.rulings[-1].laws == ("38D", "16C2", "16C3")


def test_eight_clubs_said_by_a_slip_is_first_a_change_of_call() -> None:
    # Walk 24, #13 (WRONG): "eight clubs", said by a player who meant something else, went straight to Law 38's
    # forced passes; 25A1 lets an unintended call be replaced until partner calls.
    state = answer(
        "inadmissible-call",
        {"what": "above-seven", "seven-intended": "unintended"},
        until="change-of-call/partner-called",
    )
    assert state.chart.id == "change-of-call" and "25A1" in note(state, "inadmissible-call/unintended").laws


def test_inadmissible_double_cancelled_in_turn_keeps_the_lead_restrictions() -> None:
    # Law 36 has no comparable-call exception: the director is never asked about one, and Law 26B stays.
    state = answer(
        "inadmissible-call",
        {
            "what": "double",
            "double-when": "auction",
            "double-intended": "intended",
            "double-lho": "no",
            "double-own-turn-q": "yes",
        },
        until="lead-restrictions/offender-role",
    )
    assert state.chart.id == "lead-restrictions" and state.node.id == "offender-role"
    assert all("comparable" not in a.question for a in state.answered)


def test_an_inadmissible_double_taken_for_a_call_out_of_rotation_is_asked_whose_turn_it_was() -> None:
    # Walk 39, 97b (H27:97): the jump from call-out-of-rotation set the turn to "out of turn", so a double Law 19
    # forbids, made at the offender's own turn, was ruled under 36B4 ("the auction reverts") instead of 36B2.
    walked = {
        "what-call": "double",
        "inadmissible-double": "yes",
        "inadmissible-call/double-when": "auction",
        "inadmissible-call/double-intended": "intended",
        "inadmissible-call/double-lho": "no",
        "lead-restrictions/offender-role": "declaring-side",
        "inadmissible-call/aware": "no",
        "inadmissible-call/used-information": "no",
    }
    engine = Engine(load_charts())
    own = answer("call-out-of-rotation", {**walked, "inadmissible-call/double-own-turn-q": "yes"})
    assert "36B2" in engine.ruling_laws(own) and "36B4" not in engine.ruling_laws(own)
    assert "must substitute a legal call" in ruling_text(own)
    other = answer("call-out-of-rotation", {**walked, "inadmissible-call/double-own-turn-q": "no"})
    assert "36B4" in engine.ruling_laws(other) and "the auction reverts" in ruling_text(other)


def test_an_inadmissible_double_out_of_turn_keeps_the_call_already_made_by_the_player_whose_turn_it_was() -> None:
    # Walk 51 #90 (H30:90): W 1S, N 2H, South doubles at East's turn, East passes. "The auction reverts to the
    # player whose turn it was" left East's pass in doubt; made at East's own turn, it is in rotation (28B).
    walked = {
        "what": "double",
        "double-when": "auction",
        "double-intended": "intended",
        "double-lho": "no",
        "double-own-turn-q": "no",
    }
    state = answer("inadmissible-call", walked, until="lead-restrictions/offender-role")
    told = next(n for n in state.passed if n.node == "double-out-of-turn")
    assert "already called at that turn, the call was in rotation and stands" in told.text and "28B" in told.laws


def test_a_double_of_partners_bid_after_the_final_pass_is_cancelled_and_never_reopens_the_auction() -> None:
    # Walk 39, 89b/89c (WRONG): East doubled partner's 4S after 1S-P-4S-P-P-P. Taken as "a double Law 19 forbids",
    # the chart ruled 36B2/36B4 and reopened an ended auction; Law 39A cancels every call after the final pass.
    state = answer("inadmissible-call", {"what": "double", "double-when": "after-final"}, until="after-final")
    assert state.node.id == "after-final" and "39A" in state.node.laws
    state = answer("inadmissible-call", {}, until="after-final", offence="double", call="after-final")
    assert state.node.id == "after-final" and all(a.question != "What was wrong with the call?" for a in state.answered)


def test_inadmissible_double_noticed_after_the_opening_lead() -> None:
    state = answer("inadmissible-call", {"what": "double", "double-when": "after-lead"})
    assert state.finished and state.rulings[-1].laws == ("36C",)
    assert "as if the inadmissible call had not been made" in state.rulings[-1].text


def test_a_card_put_face_down_during_the_auction_goes_back_to_hand_and_the_act_is_unauthorized_for_partner() -> None:
    # Walk 40, #6 (H29:6): a card put face down during the auction had no answer; Law 24 needs a card whose face
    # partner could see, so there is no rectification, but the gesture is information for partner (16B1).
    state = answer("card-exposed-during-auction", {"any-call": "yes", "own-error": "face-down"})
    ruling = state.rulings[-1]
    assert "24" not in ruling.laws and {"41A", "16B1"} <= set(ruling.laws)
    assert "goes back into the player's hand" in ruling.text and "unauthorized information" in ruling.text


def test_honour_dropped_during_the_auction_partner_passes_and_declarer_picks_it_up() -> None:
    state = answer(
        "card-exposed-during-auction",
        {
            "any-call": "yes",
            "own-error": "yes",
            "acted-first": "no",
            "what-exposed": "honour",
            "offender-role": "declaring",
            "aware": "no",
            "used-information": "no",
        },
    )
    assert state.finished and "The score stands" in state.rulings[-1].text
    assert "must pass when next it is their turn to call (once)" in outcome_texts(state)[0]
    laws = Engine(load_charts()).ruling_laws(state)
    assert "24B" in laws and "24C" not in laws and any("24D" in a.laws for a in state.answered)


def test_a_defenders_low_card_exposed_in_the_auction_states_its_play_restrictions_before_the_opening_lead() -> None:
    # Walk 27, #85: a defender's low card exposed during the auction is a minor penalty card, but its restrictions
    # (50C) reached the director only in the ruling after play; at the opening lead the screen said "Play continues".
    answers = {
        "any-call": "yes",
        "own-error": "yes",
        "acted-first": "no",
        "what-exposed": "low",
        "offender-role": "defender",
    }
    parked = answer("card-exposed-during-auction", answers, until="play-on-low")
    shown = " ".join(note.text for note in parked.notes)
    assert "may not play another card below the rank of an honour in the same suit" in shown
    assert "partner has no lead restriction" in shown
    state = answer("card-exposed-during-auction", {**answers, "used-information-low": "no"})
    assert state.finished and "The score stands" in state.rulings[-1].text
    assert "50C" in Engine(load_charts()).ruling_laws(state)


def test_two_cards_exposed_during_the_auction_cite_24c_not_24b_the_single_cards_law() -> None:
    # 24B is "a single card of honour rank or any card prematurely led"; two or more cards are 24C's. A walk
    # found two exposed cards (the ♥K and ♥Q) ruled citing 24B, which a director reads aloud as the law applied.
    answers = {
        "any-call": "yes",
        "own-error": "yes",
        "acted-first": "no",
        "what-exposed": "several",
        "offender-role": "declaring",
    }
    state = answer("card-exposed-during-auction", {**answers, "aware": "yes"})
    laws = Engine(load_charts()).ruling_laws(state)
    assert "24C" in laws and "24B" not in laws and "72C" in state.rulings[-1].laws
    assert "The cards stay face up" in outcome_texts(state)[0]


def test_wrong_board_cards_park_until_the_offender_bids_the_other_board() -> None:
    # Walk 28 #5: whether the offender's call on the other board differs (15A3, "subsequently") was asked at the
    # table before that board was bid; the ruling now waits for the director to be called back.
    for called, park in (("no", "other-board-park"), ("yes", "other-board-after-adjust-park")):
        state = answer("wrong-board", {"what-happened": "wrong-cards", "partner-called": called}, until=park)
        assert state.parked and state.node.id == park
        assert "Call the Director back when the offender bids the board" in state.node.park


def test_wrong_board_cards_partner_already_called_adjusted_score() -> None:
    state = answer(
        "wrong-board",
        {"what-happened": "wrong-cards", "partner-called": "yes", "other-board-after-adjust": "not-later"},
    )
    assert state.finished and "adjusted score" in state.rulings[-1].text and "15A2(a)" in state.rulings[-1].laws


def test_wrong_board_cards_after_partner_called_a_different_call_on_the_other_board_is_adjusted_too() -> None:
    # 15A3 applies whichever of 15A2(a) or (b) ruled the first board.
    state = answer(
        "wrong-board", {"what-happened": "wrong-cards", "partner-called": "yes", "other-board-after-adjust": "differs"}
    )
    text = ruling_text(state)
    assert "15A3" in state.rulings[-1].laws and "score is adjusted as well" in text


def test_non_offenders_bid_on_before_calling_the_director_forfeit_rectification() -> None:
    state = answer(
        "irregularity-procedure",
        {"who-drew": "opponent", "players-acted": "non-offenders", "forfeit": "yes", "gained": "no"},
    )
    assert state.finished and "forfeited" in state.rulings[-1].text and "11A" in state.rulings[-1].laws


def test_lhos_call_over_a_call_out_of_rotation_or_an_insufficient_bid_is_ruled_by_its_own_law_not_11a() -> None:
    # Walk 42, #57 (H29:57): a call over a call out of rotation reached "Do you rule that it is forfeited?" (11A), a
    # discretion; 29A decides (LHO's call forfeits rectification), and 27A1 for an insufficient bid.
    over_call = {"who-drew": "opponent", "players-acted": "lho-over-call"}
    assert answer("irregularity-procedure", over_call, until="call-out-of-rotation/what-call").chart.id == (
        "call-out-of-rotation"
    )
    over_bid = {
        "who-drew": "opponent",
        "players-acted": "lho-over-insufficient",
        "insufficient-bid/unintended": "intended",
        "insufficient-bid/in-rotation": "in-turn",
        "insufficient-bid/lho-accepts": "accept",
    }
    accepted = answer("irregularity-procedure", over_bid)
    assert accepted.rulings[-1].laws[0] == "27A1" and "11A" not in accepted.rulings[-1].laws


def test_a_player_who_noticed_their_own_sides_past_infraction_is_told_72b2_and_its_exceptions() -> None:
    # Walk 42, #70 (H29:70): the chart asked who had called since and whether the offender corrected it, and ended in
    # Law 10's general text; 72B2 answers it, with its exceptions (62A, 20F5, 79A2) and 72B3's ban on concealing.
    state = answer("irregularity-procedure", {"who-drew": "nobody", "nobody-what": "own-past"})
    ruling = state.rulings[-1]
    assert ruling.laws[0] == "72B2" and {"62A", "72B3", "79A2"} <= set(ruling.laws)
    assert "no obligation to draw attention" in ruling.text and "mixing the cards" in ruling.text


def test_a_lead_from_the_wrong_hand_the_players_put_right_themselves_goes_to_the_directors_allow_or_forfeit() -> None:
    # Walk 26 #56: declarer led from the wrong hand, a defender said so and declarer led from dummy, before the
    # Director came. The procedure chart ruled Law 10 in general and "(Rule on the irregularity with its own
    # chart.)"; the exact answer is the lead chart's: the Director may allow what the players did (10B).
    settled = {"who-drew": "opponent", "players-acted": "settled", "settled-what": "lead"}
    asked = answer("irregularity-procedure", settled, until="play-after-illegal-play/players-fixed")
    assert asked.chart.id == "play-after-illegal-play" and asked.node.id == "players-fixed"
    allowed = answer("irregularity-procedure", {**settled, "play-after-illegal-play/players-fixed": "allow"})
    ruling = allowed.rulings[-1]
    assert ruling.laws[0] == "10B" and "the lead from the correct hand stands" in ruling.text
    assert "Rule on the irregularity" not in ruling_text(allowed)
    other = answer("irregularity-procedure", {**settled, "settled-what": "other"})
    assert other.rulings[-1].node == "players-settled"


def test_a_rectification_the_players_enforced_themselves_is_allowed_or_cancelled_and_its_card_is_ui() -> None:
    # Walk 51 #99 / 99b (H30:99): players put right a lead out of turn themselves, the Director was called at
    # trick 10, and both rulings ended "rule on the irregularity with its own chart". 10B: the Director may allow
    # or cancel what they did; 16C2: the withdrawn card is unauthorized for the offending side; 16C3: adjusted.
    settled = {"who-drew": "opponent", "players-acted": "settled", "settled-what": "other"}
    procedure = answer("irregularity-procedure", settled).rulings[-1]
    assert "allowed to stand or cancelled" in procedure.text and "unauthorized for the offending side" in procedure.text
    assert {"10B", "16C2", "16C3"} <= set(procedure.laws)
    withdrawn = answer("retraction-of-card-played", {"why": "rectification"}).rulings[-1]
    assert (
        "allowed to stand or cancelled" in withdrawn.text
        and "unauthorized for the offender's partner" in withdrawn.text
    )
    assert withdrawn.laws[0] == "47A" and {"10B", "16C2", "16C3"} <= set(withdrawn.laws)


def test_card_exposed_in_the_auction_handed_back_and_bid_on_without_the_director_forfeits_rectification() -> None:
    # Fifth walk #20: LHO's ♣A fell face up, partner handed it back and both sides bid on; the Director was called
    # later. Law 24's chart now asks whether the non-offending side acted first (11A) before any forced pass or
    # penalty card, and on forfeiture keeps only the unauthorized information and 11A's own adjustment.
    answers = {"any-call": "yes", "own-error": "yes", "acted-first": "forfeited", "forfeited-used": "no"}
    state = answer("card-exposed-during-auction", {**answers, "forfeited-gained": "no"})
    said = ruling_text(state)
    assert state.rulings[-1].node == "forfeited-stands" and "right to rectification is" in said
    assert "need not pass" in said and "unauthorized for the offender's partner" in said
    assert not any(a.step.node == "what-exposed" for a in state.answered)  # no 24B pass, no penalty card
    assert Engine(load_charts()).ruling_laws(state)[:2] == ("24", "11A")
    split = answer("card-exposed-during-auction", {**answers, "forfeited-gained": "yes"}).rulings[-1]
    assert "takes away only that side's accrued advantage" in split.text and "11A" in split.laws
    rectify = {"any-call": "yes", "own-error": "yes", "acted-first": "rectify"}
    rectified = answer("card-exposed-during-auction", rectify, until="what-exposed")
    assert rectified.node.id == "what-exposed"  # the Director may still rectify under Law 24


def test_an_opponent_who_saw_a_card_by_accident_during_the_auction_may_use_it() -> None:
    # 74C5: no rectification, and never the 16D adjustment.
    state = answer("card-exposed-during-auction", {"any-call": "yes", "own-error": "no"})
    assert state.finished and "74C5" in state.rulings[-1].laws and "no rectification" in state.rulings[-1].text


def test_a_bid_at_rhos_turn_when_rho_had_to_pass_is_still_an_insufficient_bid_to_rectify() -> None:
    state = answer(
        "call-out-of-rotation",
        {"what-call": "bid", "whose-turn": "rho-must-pass", "in-rotation-legal": "insufficient"},
        until="insufficient-bid/unintended",
    )
    assert state.chart.id == "insufficient-bid"


def test_a_simultaneous_call_deemed_later_that_is_insufficient_is_rectified_under_law_27() -> None:
    state = answer(
        "simultaneous-calls",
        {"deemed-later": "yes", "legal-there": "insufficient"},
        until="insufficient-bid/unintended",
    )
    assert state.chart.id == "insufficient-bid"


def test_a_call_out_of_rotation_only_as_deemed_after_a_simultaneous_call_asks_only_for_calls_made_since() -> None:
    # Walk 36, 15b (H27:15): from simultaneous-calls the chart asked "did anyone call after the call out of
    # rotation, or at the same moment?", but Law 33 deems the call made at the same moment first: no answer fitted.
    boot = {"deemed-later": "no", "call-out-of-rotation/what-call": "pass", "call-out-of-rotation/whose-turn": "rho"}
    state = answer("simultaneous-calls", boot, until="call-out-of-rotation/called-since-simultaneous")
    assert "neither accepts the call out of rotation nor cancels it" in state.node.ask
    assert "same-moment" not in {option.id for option in state.node.options}
    later = {**boot, "call-out-of-rotation/called-since-simultaneous": "correct-player"}
    forfeited = answer("simultaneous-calls", later)
    assert forfeited.finished and "28B" in Engine(load_charts()).ruling_laws(forfeited)
    assert "right to rectification for the call out of rotation is forfeited" in ruling_text(forfeited)
    direct = answer("call-out-of-rotation", {"what-call": "pass", "whose-turn": "partner"}, until="called-since")
    assert direct.node.id == "called-since"


def test_a_call_put_down_at_the_same_moment_as_rhos_taken_as_out_of_rotation_is_deemed_in_turn() -> None:
    # Law 33 (walk 17, H22:40): "me and the man on my right put our bidding cards down at the same moment, it was
    # his go". A director who took the call-out-of-rotation chart was told 28B (cancelled, UI) or 31A2 (partner
    # barred, lead restrictions); the call is deemed made after RHO's, at the offender's own turn.
    boot = {"what-call": "bid", "whose-turn": "rho", "called-since": "same-moment"}
    state = answer("call-out-of-rotation", {**boot, "same-moment-legal": "yes"})
    said = ruling_text(state)
    assert state.finished and state.rulings[-1].laws[0] == "33"
    assert "it stands" in said and "not barred" in said and "no lead restrictions" in said
    laws = Engine(load_charts()).ruling_laws(state)
    assert not {"28B", "29B", "31A2(b)", "26B", "16C2"} & set(laws)
    short = answer(
        "call-out-of-rotation", {**boot, "same-moment-legal": "insufficient"}, until="insufficient-bid/unintended"
    )
    assert short.chart.id == "insufficient-bid"  # a call deemed later may be insufficient there: Law 27


def test_the_same_moment_legality_question_offers_only_what_the_call_can_be() -> None:
    # A pass put down with RHO's call is never an insufficient bid nor a forbidden double: its only way to be
    # wrong is to come after the final pass (39A); a double is never insufficient; a bid never a forbidden double.
    boot = {"whose-turn": "rho", "called-since": "same-moment"}
    offered = {}
    for call in ("pass", "bid", "double"):
        answers = {"what-call": call, **boot, **({"inadmissible-double": "no"} if call == "double" else {})}
        walk = answer("call-out-of-rotation", answers, until=f"same-moment-legal{'' if call == 'bid' else '-' + call}")
        offered[call] = [option.label for option in walk.node.options]
    assert not any("insufficient" in label or "double" in label for label in offered["pass"])
    assert not any("insufficient" in label for label in offered["double"])
    assert not any("double" in label for label in offered["bid"])
    after_final = answer(
        "call-out-of-rotation",
        {"what-call": "pass", **boot, "same-moment-legal-pass": "after-final"},
        until="inadmissible-call/after-final",
    )
    assert after_final.chart.id == "inadmissible-call"  # Law 39: cancelled, no insufficient-bid question


def test_a_call_at_the_same_moment_as_lhos_is_out_of_rotation_at_partners_turn() -> None:
    # Law 33 then 31B: made after LHO's call (LHO dealt), the call is at partner's turn, not forfeited under 28B.
    state = answer(
        "call-out-of-rotation",
        {
            "what-call": "bid",
            "whose-turn": "lho",
            "called-since": "same-moment",
            "same-moment-at-partner": "no-one",
            "lho-option": "refuse",
        },
        until="comparable-call/wait-call",
    )
    assert "auction reverts to the offender's partner" in note(state, "bid-partner").text
    assert "31B1" in note(state, "bid-partner").laws
    made_with_partner = {"what-call": "bid", "whose-turn": "partner", "called-since": "same-moment"}
    rho = {**made_with_partner, "same-moment-at-rho": "no-one", "lho-option": "refuse"}
    assert answer("call-out-of-rotation", rho, until="bid-rho-call").node.id == "bid-rho-call"  # 31A: RHO calls now


def test_a_defenders_wrong_explanation_found_after_play_does_not_cite_the_mistaken_call_law() -> None:
    # Walk 17 #13: an explanation found wrong, adjusted, printed 75C ("Regardless of damage, the result stands").
    wrong = {
        "what": "partner-wrong",
        "partner-wrong-said": "no",
        "partner-wrong-who": "defending",
        "misinformation/agreement": "explanation",
    }
    state = answer("explanation-of-calls", wrong, until="misinformation/damage")
    assert "75C" not in Engine(load_charts()).ruling_laws(state)
    misbid = answer(
        "explanation-of-calls", {**wrong, "misinformation/agreement": "call"}, until="misinformation/mistaken-call"
    )
    assert misbid.node.id == "mistaken-call"  # a misbid (75C) is still the misinformation chart's question


def test_an_explainer_told_when_a_correction_was_due_hears_before_the_opening_lead_is_faced() -> None:
    # Walk 17 #25 (a future dummy's own wrong explanation): the paragraph read "before the end of the Clarification
    # Period, when the opening lead is faced"; 75B2 says "before the opening lead is faced".
    state = answer(
        "misinformation",
        {"agreement": "explanation", "ask-stage": "after-play", "late-who": "explainer"},
        until="damage",
    )
    said = note(state, "explainer-late").text
    assert "at the latest before the opening lead is faced" in said and "when the opening lead is faced" not in said
    assert "during the play, as soon as it is noticed" in said


def test_a_bid_out_of_turn_repeated_after_rhos_pass_cites_its_cancellation() -> None:
    # Walk 17 #36: the bid was cancelled (29B) and repeated (31A1), but only 31A1 was cited: the park that said so
    # is not among the laws applied.
    refused = {"what-call": "bid", "whose-turn": "rho", "called-since": "no-one", "lho-option": "refuse"}
    state = answer("call-out-of-rotation", {**refused, "bid-rho-call": "pass"})
    assert state.finished and Engine(load_charts()).ruling_laws(state)[:2] == ("31A1", "29B")


def test_a_double_at_the_same_moment_as_lhos_opening_bid_is_out_of_rotation_at_partners_turn() -> None:
    # Law 33 then 32B (eighteenth walk): LHO deals and bids 1H while the offender doubles. The double is deemed made
    # after 1H, at partner's turn: cancelled, partner calls freely (16C2), no Law 36 for a double with no bid.
    boot = {"what-call": "double", "inadmissible-double": "no", "whose-turn": "lho"}
    state = answer(
        "call-out-of-rotation",
        {**boot, "double-lho-moment": "same-moment", "same-moment-at-partner": "no-one", "lho-option": "refuse"},
        until="comparable-call/wait-call",
    )
    assert "reverts to the offender's partner" in note(state, "double-partner").text
    assert "32B1" in note(state, "double-partner").laws
    assert not any(ruling.laws[0].startswith("36") for ruling in state.rulings)
    alone = answer("call-out-of-rotation", {**boot, "double-lho-moment": "no"}, until="inadmissible-call/double-when")
    assert "inadmissible" in note(alone, "double-lho").text  # LHO had not called: no bid to double (19A1)


def test_a_card_exposed_before_the_first_call_is_extraneous_information_not_law_24() -> None:
    # The auction begins with the first call; before it, 16D1 (001 on Law 24).
    state = answer(
        "card-exposed-during-auction",
        {"any-call": "no", "in-the-deal": "no"},
        until="unauthorised-information/other-when",
    )
    assert state.chart.id == "unauthorised-information"


def test_a_card_seen_as_the_hands_came_out_of_the_board_does_not_cite_law_24_it_says_does_not_apply() -> None:
    # Walk 15 #33: the ruling said "Law 24 does not apply" yet printed Law 24 in full first among the laws
    # applied, where a director could read 24B (partner must pass) into it.
    state = answer(
        "card-exposed-during-auction",
        {
            "any-call": "no",
            "in-the-deal": "no",
            "unauthorised-information/other-when": "before-call",
            "unauthorised-information/interfere": "no",
        },
    )
    laws = Engine(load_charts()).ruling_laws(state)
    assert state.finished and "Law 24 does not apply" in ruling_text(state)
    assert "24" not in laws and laws[0] == "16D1"


def test_a_card_seen_while_the_cards_were_dealt_means_a_new_deal_before_any_call() -> None:
    # Walk12, H20:21: a card flipped over as it was dealt was taken to 16D's options, one of which plays the
    # board; 6D1 requires a new shuffle and deal if it comes to light before the auction first begins.
    dealt = {"any-call": "no", "in-the-deal": "yes"}
    state = answer("card-exposed-during-auction", dealt)
    assert state.rulings[-1].laws[0] == "6D1" and "new shuffle and deal" in state.rulings[-1].text
    later = answer(
        "card-exposed-during-auction",
        {**dealt, "in-the-deal": "later"},
        until="unauthorised-information/other-when",
    )
    assert later.chart.id == "unauthorised-information"  # found after the auction began: 16D, no redeal


def test_a_substituted_insufficient_bid_is_ruled_under_27c_not_25b() -> None:
    state = answer("change-of-call", {"intent": "intended", "substituted": "insufficient", "lho-over-ib": "no"})
    assert state.finished and state.rulings[-1].laws[0] == "27C"


def test_1h_for_1s_lho_passes_then_2h_appears_the_accepted_1h_stands_unless_lho_accepts_2h() -> None:
    # 27A1: the insufficient bid "is accepted if that player calls"; 27C then does not apply, and the
    # replacement is a change of call: LHO may accept it (25B1), else it is cancelled and 1H stands (25B2).
    answers = {"intent": "intended", "substituted": "insufficient", "lho-over-ib": "yes", "lho-accepts": "refuse"}
    state = answer("change-of-call", answers, until="lead-restrictions/comparable-q")
    assert ("change-of-call", "ib-accepted") in state.trail and ("change-of-call", "cancelled") in state.trail
    assert all(r.laws[0] != "27C" for r in state.rulings)


def test_a_slipped_insufficient_bid_replaced_after_partner_called_is_a_25b_change_without_asking_about_lho() -> None:
    # Partner has called since, so LHO had called over the insufficient bid: accepted (27A1), not asked.
    answers = {"intent": "unintended", "partner-called": "yes", "substituted": "insufficient", "lho-accepts": "accept"}
    state = answer("change-of-call", answers, until="lead-restrictions/comparable-q")
    assert ("change-of-call", "accepted") in state.trail and ("change-of-call", "ib-accepted") in state.trail


def test_a_double_pulled_by_mistake_is_first_a_change_of_call_without_asking_the_intent_again() -> None:
    # A walk found "was the double a slip?" followed at once by the change-of-call chart's "was the call not the
    # one they intended?": the answer is carried over, and the next question is whether partner has called.
    state = answer(
        "inadmissible-call",
        {"what": "double", "double-when": "auction", "double-intended": "unintended"},
        until="change-of-call/partner-called",
    )
    assert state.chart.id == "change-of-call" and ("change-of-call", "intent") not in state.trail


def test_a_call_after_the_final_pass_is_not_asked_what_was_wrong_with_it_again() -> None:
    # Two walks found the end-of-auction chart's "A call after the final pass" followed by the inadmissible-call
    # chart's "What was wrong with the call?", whose answer was that one.
    state = answer("auction-ended", {"what": "after-final"}, until="inadmissible-call/after-final")
    assert state.chart.id == "inadmissible-call" and ("inadmissible-call", "what") not in state.trail


def test_fourth_pass_on_a_passed_out_board_said_to_be_a_slip_has_no_opening_lead_to_wait_for() -> None:
    # 17D2: with no bid, the auction period ends when all four hands are back in the board; 25A5 sets that limit.
    state = answer("auction-ended", {"what": "passed-out", "passed-out-slip": "yes"}, until="change-of-call/intent")
    text = note(state, "auction-ended/change-note")
    assert "all four hands have been returned to the board" in text.text and "17D2" in text.laws


def test_a_double_in_turn_told_as_too_early_is_no_call_out_of_rotation() -> None:
    # Walk 33, #39: East 1H, South 2C, West doubled "before North did anything": West's double was in turn, and
    # no answer said so; the nearest cancelled a legal double (17C: each player calls in turn, clockwise).
    state = answer("call-out-of-rotation", {"what-call": "double", "inadmissible-double": "no", "whose-turn": "own"})
    assert state.rulings[-1].laws == ("17C",) and "It stands" in state.rulings[-1].text


def test_a_change_of_mind_after_the_auction_ended_does_not_reopen_it() -> None:
    # Walk 20's risk: after four passes, "I meant to open 1NT", found to be a change of mind, was told "the original
    # call stands and the auction continues". 22B: the auction is over and the hands go back to the board.
    chosen = {"what": "passed-out", "passed-out-slip": "yes", "change-of-call/intent": "intended"}
    state = answer("auction-ended", {**chosen, "change-of-call/substituted": "no"})
    ruling = state.rulings[-1]
    assert state.finished and "the auction continues" not in ruling.text and "stays ended" in ruling.text
    assert ruling.laws[:3] == ("25A2", "22A", "22B")
    # a change of mind during the auction still lets it go on from the original call
    during = answer("change-of-call", {"intent": "intended", "substituted": "no"})
    assert "the auction continues" in during.rulings[-1].text


def test_a_slip_noticed_after_partner_called_stands_under_25a4_and_25a5_a_change_of_mind_under_25a2() -> None:
    late = answer("change-of-call", {"intent": "unintended", "partner-called": "yes", "substituted": "no"})
    assert late.rulings[-1].laws[:2] == ("25A4", "25A5") and "partner has called since" in late.rulings[-1].text
    # the ninth walk: a slip found after four passes was told "the auction continues"; a passed-out board stays so
    assert "the auction continues" not in late.rulings[-1].text and "board is passed out" in late.rulings[-1].text
    mind = answer("change-of-call", {"intent": "intended", "substituted": "no"})
    assert mind.rulings[-1].laws[0] == "25A2" and "25A4" not in mind.rulings[-1].laws
    assert "unauthorized information for the player's partner" in late.rulings[-1].text  # "oh, I meant …" (16B1)


def test_an_inadmissible_double_noticed_after_the_final_pass_but_before_the_lead_has_its_answer() -> None:
    # 36C applies only once the opening lead is faced; in the Clarification Period 36A/36B still apply to a double
    # made during the auction (one made after the final pass is Law 39's: its own option).
    question = load_charts()["inadmissible-call"].nodes["double-when"]
    label = next(option.label for option in question.options if option.id == "auction")
    assert "During the auction" in label and "before the opening lead" in label
    state = answer("inadmissible-call", {"what": "double", "double-when": "auction"}, until="double-intended")
    assert state.node.id == "double-intended"


def test_a_pass_out_of_rotation_that_made_three_passes_is_not_barred() -> None:
    # 1H by the opener, two passes, then the opener passes again before RHO has called: three passes, one out
    # of rotation, so the auction reverts to RHO and proceeds normally (17D3, 34); Law 30A's forced pass does
    # not follow, and Law 16C applies to the cancelled pass. A walk of auction situations found the chart
    # ruling the opener must pass at the next turn.
    # A fourth walk found the comparable-call question asked (Law 23, not 17D3's) and, with the offender
    # defending, declarer allowed to ban a suit (26B): 17D3 names Law 16C only.
    state = answer("call-out-of-rotation", {"what-call": "third-pass"})
    assert state.finished and "lead-restrictions" not in [chart for chart, _node in state.trail]
    texts = ruling_text(state)
    assert "proceeds normally" in texts and "must pass when next" not in texts
    assert "no lead restriction" in texts and "prohibit" not in texts
    laws = Engine(load_charts()).ruling_laws(state)
    assert laws[0] == "17D3" and "16C2" in laws and not LEAD_RESTRICTION_LAWS & set(laws)


def test_a_pass_at_rhos_turn_passed_over_into_three_passes_reverts_to_the_skipped_player() -> None:
    # North opens 1C, East passes, West passes at South's turn and North passes over it: three passes after a
    # bid, South never called. Calling over the pass does not end the auction (17D3): it reverts to South, with
    # Law 16C for the cancelled passes. A third walk found it ruled accepted under 29A with the auction over.
    # Walk 47 answered "No" to "did the call over it make three passes?" for West's pass, only the second: the
    # question now asks of the auction as it stands.
    question = load_charts()["call-out-of-rotation"].nodes["called-over-pass"].ask
    assert question.startswith("Are there now three passes") and "call over it" not in question
    state = answer(
        "call-out-of-rotation",
        {
            "what-call": "pass",
            "whose-turn": "rho",
            "called-since": "lho-over",
            "called-over-pass": "yes",
        },
    )
    assert state.finished
    texts = ruling_text(state)
    assert "reverts to the player who missed their turn" in texts and "forfeited" not in texts
    assert "17D3" in state.rulings[-1].laws and not LEAD_RESTRICTION_LAWS & set(state.rulings[-1].laws)
    accepted = answer(
        "call-out-of-rotation",
        {"what-call": "pass", "whose-turn": "rho", "called-since": "lho-over", "called-over-pass": "no"},
    )
    assert accepted.finished and accepted.rulings[-1].laws == ("29A",)


def test_what_rho_will_call_and_the_offenders_next_call_are_asked_only_once_they_have_happened() -> None:
    # A walk found "The bid is cancelled and the auction reverts to RHO. What does RHO call?" asked while RHO had
    # not yet called, and "was the withdrawn call replaced by a comparable call?" before the offender called
    # again: the director explains what follows, the session waits, and the question is asked in the past.
    boot = {"what-call": "bid", "whose-turn": "rho", "called-since": "no-one", "lho-option": "refuse"}
    waiting = answer("call-out-of-rotation", boot, until="bid-rho-wait")
    text = waiting.render(waiting.node.park)
    assert waiting.parked and "If RHO passes, the offender must repeat" in text and "once RHO has called" in text
    assert answer("call-out-of-rotation", boot, until="bid-rho-call").node.ask.startswith("What did RHO call?")
    partner = {"what-call": "pass", "whose-turn": "partner", "called-since": "no-one", "lho-option": "refuse"}
    compared = answer("call-out-of-rotation", partner, until="comparable-call/wait-call")
    assert compared.parked and "once the offender has called" in compared.render(compared.node.park)


def test_a_cancelled_substitute_is_compared_with_the_original_call_that_stands() -> None:
    # 25B2: a substitution not accepted is cancelled and the original call stands. A walk ("2NT … make it 3NT",
    # not accepted) met "was the withdrawn call replaced by a comparable call?" with no word of which call that is.
    answers = {"intent": "intended", "substituted": "yes", "lho-accepts": "refuse"}
    state = answer("change-of-call", answers, until="lead-restrictions/comparable-q")
    assert ("change-of-call", "cancelled") in state.trail
    assert "the cancelled call is the substitute and the call in its place is the original one" in state.node.help


def test_an_insufficient_bid_the_opponents_had_replaced_themselves_is_allowed_or_forfeited_by_the_director() -> None:
    # 10A/10B: players may not settle a rectification, but the Director may allow what they did; 92B: a ruling may
    # still be asked for. 11A: or the Director rules the right to rectification forfeited.
    fixed = {"unintended": "intended", "in-rotation": "in-turn", "lho-accepts": "players-fixed"}
    engine = Engine(load_charts())
    allowed = answer("insufficient-bid", {**fixed, "players-fixed": "allow", "damaged-b1": "no"})
    assert allowed.rulings[-1].laws[0] == "27B1(a)"
    assert {"10A", "10B", "92B"} <= set(engine.ruling_laws(allowed))
    assert "the Director allows it" in ruling_text(allowed)
    forfeited = answer("insufficient-bid", {**fixed, "players-fixed": "forfeited", "forfeited-gained": "no"})
    assert engine.ruling_laws(forfeited)[:3] == ("27", "11A", "11B") and "forfeited" in forfeited.rulings[-1].text


def test_information_overheard_before_any_call_adjusted_at_once_is_an_artificial_score_by_responsibility() -> None:
    # Walk 31, #100 (H25:100): 16D2(d) ended on the bare "awards an adjusted score" and all of Law 12C; before any
    # call no result exists, so 12C2(a) scores it by responsibility: neither pair at fault gets average plus.
    overheard = {
        "ask-source": "other",
        "other-when": "before-call",
        "interfere": "yes",
        "remedy": "adjust",
        "adjusted-score/contest-artificial": "pairs",
        "adjusted-score/artificial-fault": "neither",
    }
    state = answer("unauthorised-information", overheard)
    assert state.finished and "AVERAGE PLUS" in state.rulings[-1].text.upper()
    assert "12C2(a)" in Engine(load_charts()).ruling_laws(state)
    after_call = {**overheard, "other-when": "after-call", "after-first-call": "adjust"}
    del after_call["interfere"], after_call["remedy"]
    assert answer("unauthorised-information", after_call).rulings[-1].laws[0].startswith("12C2")


def test_an_opponents_card_seen_in_the_auction_is_not_answered_by_timing_into_an_adjusted_score() -> None:
    # Walk 38, 68b (H27:68): "After the first call of the auction" also fitted an opponent's hand seen during the
    # auction and reached 16D3's adjusted score; 74C5: "it is appropriate to act on information acquired by
    # unintentionally seeing an opponent's card".
    chart = load_charts()["unauthorised-information"]
    node = chart.nodes["other-when"]
    labels = {option.id: option.label for option in node.options}
    assert "opponent's card" in labels["opponent-card"] and "opponent" not in labels["after-call"]
    state = answer("unauthorised-information", {"ask-source": "other", "other-when": "opponent-card"})
    assert state.finished and "74C5" in state.rulings[-1].laws and "may act on it" in state.rulings[-1].text
    text = "After the first call South saw an opponent's card: West held her cards carelessly"
    assert answer_from(Description(text), chart, node) is None
    assert answer_from(Description("I overheard a result after the first call"), chart, node) == "after-call"


def test_a_disputed_pause_is_decided_on_the_balance_of_probabilities_or_play_continues() -> None:
    # Walk 46, #69 (H28:69): 5 seconds or 20? The director asked how to decide who is telling the truth, and the
    # question said only "Establish the facts first". 85A1: the balance of probabilities; 85B: if the facts cannot
    # be determined, a ruling that lets play continue.
    node = load_charts()["unauthorised-information"].nodes["partner-facts"]
    assert {"85A1", "85B"} <= set(node.laws)
    assert "balance of probabilities" in node.help and "lets play continue" in node.help


def test_information_overheard_from_another_table_names_the_procedural_penalty_for_the_pair_overheard() -> None:
    # Walk 44, #5 (H28:5): the ruling on overheard information never named the pair whose discussion was overheard;
    # 90B3 makes discussing a board where it may be overheard at another table an offence subject to penalty.
    state = answer("unauthorised-information", {"ask-source": "other"}, until="other-when")
    assert "90B3" in state.node.laws
    assert "a procedural penalty may be assessed against them" in " ".join(state.node.help.split())


def test_a_spectators_groan_taken_as_information_from_elsewhere_names_law_76() -> None:
    # Walk 45, 38b (H28:38): a spectator's groan, taken as information from "Elsewhere", ended at 16D3 "score stands"
    # and the spectator was never dealt with: 76A1 (under the Director's control), 76B2 (no reaction), 76B4.
    chart = load_charts()["unauthorised-information"]
    told = read_description("a spectator groaned when my partner bid 3NT")
    assert answer_from(told, chart, chart.nodes["ask-source"]) == "spectator"
    chosen = {
        "ask-source": "spectator",
        "other-when": "after-call",
        "after-first-call": "play",
        "affected-after-call": "no",
    }
    state = answer("unauthorised-information", chosen)
    assert state.finished and "The extraneous information did not affect the result" in state.rulings[-1].text
    read = ruling_text(state)
    assert "a spectator must show no reaction" in read and "may have the spectator leave" in read
    assert {"76A1", "76B2", "76B4"} <= set(Engine(load_charts()).ruling_laws(state))


def test_a_slow_tray_behind_screens_is_not_taken_as_partners_hesitation_without_finding_who_was_slow() -> None:
    # Walks 37 #40 and 39 #79 (H27:40, H27:79): nothing told the director that a slow tray may come from either
    # player on the far side of the screen; 16B1 makes unauthorized only information from partner.
    node = load_charts()["unauthorised-information"].nodes["partner-facts"]
    assert "Behind screens" in node.help and "either player on the far side" in node.help
    assert "not by itself information from partner" in node.help


def test_a_player_asking_when_she_may_ask_about_a_call_gets_her_turn_without_an_irregularity() -> None:
    # Walk 31, #86 (H25:86): every answer to "What was the problem with the question?" assumed an improper one;
    # the 20F1 answer ("at his own turn to call") was only behind "Asked out of turn / partner's follow-up".
    state = answer("explanation-of-calls", {"what": "question", "question": "when", "question-when-used": "no"})
    assert state.finished and state.rulings[-1].laws[:2] == ("20F1", "20F2")
    assert "at their own turn to call" in state.rulings[-1].text and "no infraction" in state.rulings[-1].text


def test_a_player_misled_by_a_wrong_review_may_still_change_the_call_before_any_adjusted_score() -> None:
    # Walk 18 #70, walk 44 #17 (H28:17): an opponent's review left out partner's double, and the chart went straight
    # to an adjusted score. 21B1(a): until the end of the auction period, and if partner has not called since, the
    # player may change a call misinformation from an opponent could well have influenced.
    wrong = {"what": "review", "review": "wrong", "review-corrected": "no"}
    asked = answer("explanation-of-calls", wrong, until="review-change")
    assert "21B1(a)" in asked.node.laws and "partner not called since" in asked.node.ask
    changed = answer("explanation-of-calls", {**wrong, "review-change": "yes"}, until="review-play-on")
    assert "may change that call" in note(changed, "review-change-allowed").text
    assert {"21B1(a)", "21B2"} <= set(note(changed, "review-change-allowed").laws)
    late = answer("explanation-of-calls", {**wrong, "review-change": "no"}, until="adjusted-score/damaged")
    assert late.chart.id == "adjusted-score" and ("explanation-of-calls", "review-change-allowed") not in late.trail


def test_a_call_not_alerted_has_its_own_answer_and_is_ruled_as_misinformation() -> None:
    # Walk 46, #75 (H28:75): "no alert" had no answer of its own among the review-and-explanation chart's; the
    # director took "An explanation was found wrong later". 21B1(a): a failure to alert where the Regulating
    # Authority requires one is deemed misinformation.
    labels = {o.id: o.label for o in load_charts()["explanation-of-calls"].nodes["what"].options}
    assert labels["not-alerted"] == "A call was not alerted, or wrongly alerted"
    state = answer("explanation-of-calls", {"what": "not-alerted"}, until="misinformation/agreement")
    assert state.chart.id == "misinformation"
    told = note(state, "not-alerted")
    # Walk 57, #26 (H34): 20F5(a) (a failure to alert is a mistaken explanation) leads; 21B1(a) is still cited.
    assert "deemed misinformation" in told.text and told.laws[:2] == ("20F5(a)", "21B1(a)")


def test_a_legitimate_question_partner_may_have_used_goes_on_to_the_16b1_test() -> None:
    # Walk 38, 54b (H27): LHO's question was in turn, but partner then led the suit it asked about; the chart
    # ended on the general text about when to ask, without the test of the lead (16B1).
    chosen = {"what": "question", "question": "when", "question-when-used": "yes"}
    state = answer("explanation-of-calls", chosen, until="unauthorised-information/partner-facts")
    assert state.chart.id == "unauthorised-information" and "16B1" in note(state, "question-when-ui").laws
    chosen |= {"unauthorised-information/partner-facts": "yes", "unauthorised-information/play-ended": "yes"}
    state = answer("explanation-of-calls", chosen, until="unauthorised-information/suggested")
    assert state.node.id == "suggested"  # could the question have suggested the lead partner chose?


def test_partners_question_is_named_among_the_sources_of_unauthorised_information() -> None:
    # Walk 31, #85 (H25:85): partner's questions were the source, but the answer listed only "hesitation, remark,
    # alert, gesture"; 16B1(a) names "remarks, questions, replies to questions".
    chart = load_charts()["unauthorised-information"]
    labels = {option.id: option.label for option in chart.nodes["ask-source"].options}
    assert "question" in labels["partner"]


def test_partners_hesitation_first_raised_after_the_session_asks_whether_the_request_is_in_time() -> None:
    # Walk 31, #85 (H25:85): "nothing was said at the table; can I ask for the result to be changed?" reached an
    # adjusted score without asking whether the request was within the period of Law 92B.
    late = {"ask-source": "partner", "partner-facts": "yes", "play-ended": "later", "late-request": "no"}
    expired = answer("unauthorised-information", late)
    assert expired.finished and "No adjusted score" in expired.rulings[-1].text
    assert "92B" in expired.rulings[-1].laws
    in_time = answer("unauthorised-information", {**late, "late-request": "yes"}, until="suggested")
    assert in_time.node.id == "suggested"


def test_a_review_asked_too_late_tells_declarer_only_the_contract_and_whether_doubled() -> None:
    # Walk 51 #100 (H30:100): declarer asked for a review at trick 4; the ruling recited who may review and when
    # but never Law 41C's conclusion: only the contract and whether, not by whom, it was doubled.
    ruling = answer("explanation-of-calls", {"what": "review", "review": "not-entitled"}).rulings[-1]
    assert "whether, but not by whom, it was doubled" in ruling.text and "41C" in ruling.laws


def test_the_opening_leaders_double_after_the_final_pass_leaves_the_suit_ban_for_partners_first_lead() -> None:
    # Walk 52, #17 (H33:17): East, on lead, put out a Double card after three passes. Declarer's 26B option comes at
    # West's first turn to lead, later in the play; it was asked for before East's opening lead.
    doubled = {"what": "double", "double-when": "after-final", "after-final": "yes"}
    waits = {**doubled, "lead-restrictions/partner-leads-first": "no"}
    state = answer("inadmissible-call", waits, until="lead-restrictions/wait-for-partner-lead")
    assert state.parked and "opening lead without restriction" in state.node.park
    assert "first has the lead" in state.node.park
    leads = {**doubled, "lead-restrictions/partner-leads-first": "yes", "lead-restrictions/declarer-choice": "prohibit"}
    state = answer("inadmissible-call", leads)
    assert "wait-for-partner-lead" not in [reached.node for reached in state.passed]
    assert "26B" in state.rulings[-1].laws
