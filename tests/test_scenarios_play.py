"""Real table cases from the play period (Laws 41-67) walked through the play charts, with the laws applied."""

from __future__ import annotations

from conftest import answer, note, ruling_text

from bot.dialogs import Engine, load_charts
from bot.dialogs.facts import answer_from, read_description
from bot.dialogs.render import outcome_texts


def test_dummy_who_looked_at_a_hand_points_out_a_defenders_lead_out_of_turn() -> None:
    # Dummy had peeked at East's cards; later West leads out of turn and dummy is first to say so (43B3).
    parked = answer(
        "dummy-rights", {"what-happened": "defender-irregularity", "defender-rights": "yes"}, until="defender-park"
    )
    assert parked.parked and "play continues as though it had not" in parked.render(parked.node.park)
    state = answer(
        "dummy-rights", {"what-happened": "defender-irregularity", "defender-rights": "yes", "defender-end": "yes"}
    )
    assert state.finished and "adjusts only the defenders' score" in state.rulings[-1].text
    assert {"43B3", "43B1"} <= set(state.rulings[-1].laws)


def test_dummy_who_asks_a_defender_whether_she_has_none_breaks_42b1_and_her_corrected_card_is_a_penalty_card() -> None:
    # Walk 36 #21, walk 37 #49 (H27): "don't you have any hearts?" to a defender had no answer of its own, and the
    # ruling reached never cited 42B1 ("Dummy may ask declarer (but not a defender)") nor said what became of the
    # defender's corrected card (62B1).
    none = answer("dummy-rights", {"what-happened": "asked-defender", "defender-asked": "no"})
    assert none.finished and none.rulings[-1].laws[:2] == ("42B1", "61B2(b)")
    assert "not a defender" in none.rulings[-1].text and "nothing to correct" in none.rulings[-1].text
    revoked = {"what-happened": "asked-defender", "defender-asked": "yes", "defender-asked-rights": "no"}
    state = answer("dummy-rights", revoked, until="revoke/trick-twelve")
    assert state.chart.id == "revoke" and "42B1" in note(state, "defender-asked-kept").laws
    revoked |= {"revoke/trick-twelve": "no", "revoke/established": "no", "revoke/who-revoked": "defender"}
    state = answer("dummy-rights", revoked, until="penalty-card/how-many")
    assert "becomes a major penalty card" in note(state, "revoke/defender-corrects").text


def test_dummy_looked_at_my_hand_explains_what_dummy_has_lost() -> None:
    looked = {"what-happened": "looked", "how-seen": "looked", "looked-told": "no"}
    state = answer("dummy-rights", {**looked, "looked-since": "none"})
    ruling = state.rulings[-1]
    assert "either defender chooses the hand declarer leads from" in ruling.text
    assert {"43A2(c)", "43B2(a)", "43B2(b)", "43B3"} <= set(ruling.laws)


def test_dummy_who_looked_and_then_pointed_out_a_defenders_irregularity_gets_the_43b3_ruling_at_once() -> None:
    # Walk 47, #93 (H28:93): dummy had looked at a defender's cards and then pointed out the defenders' irregularity;
    # the ruling said "call the Director again if any of these happens", though it already had (43B3).
    looked = {"what-happened": "looked", "how-seen": "looked", "looked-told": "no"}
    pointed = {**looked, "looked-since": "defender-irregularity", "defender-end": "yes"}
    state = answer("dummy-rights", pointed)
    assert "adjusts only the defenders' score" in state.rulings[-1].text and state.rulings[-1].laws[0] == "43B3"
    warned = answer("dummy-rights", {**looked, "looked-since": "warned"})
    assert warned.rulings[-1].laws[0] == "43B2(a)" and "either defender may choose" in warned.rulings[-1].text
    asked = answer("dummy-rights", {**looked, "looked-since": "asked-revoke", "did-revoke": "no"})
    assert asked.rulings[-1].node == "no-revoke-lost" and "procedural penalty" in asked.rulings[-1].text


def test_dummy_who_asked_declarer_rightly_and_broke_no_limitation_is_not_told_of_a_penalty() -> None:
    # Walk 49 #32 (H30:32): "No spades, partner?", dummy had looked at nothing and declarer had no spade; the
    # ruling still said dummy "remains liable to a procedural penalty" (43B1 needs a violation of 43A1 or 43A2).
    rightly = {"what-happened": "asked-revoke", "revoke-rights": "no", "did-revoke": "no"}
    ruling = answer("dummy-rights", rightly).rulings[-1]
    assert "penalty" not in ruling.text and "43B1" not in ruling.laws and "nothing to correct" in ruling.text
    looked = answer("dummy-rights", {**rightly, "revoke-rights": "yes"}).rulings[-1]
    assert "liable to a procedural penalty" in looked.text and "43B1" in looked.laws


def test_dummy_who_left_the_seat_to_watch_declarer_is_ruled_under_43a2b_not_43a2c() -> None:
    # Walk 18 #62, walk 25 #38: dummy walked round to watch declarer's play. The first question had no answer for
    # it, so the director took "Looked at a defender's cards" and the ruling cited 43A2(c), which forbids looking at
    # a defender's cards; 43A2(b) forbids leaving the seat to watch declarer's play.
    state = answer("dummy-rights", {"what-happened": "watched"})
    ruling = state.rulings[-1]
    assert "left their seat to watch declarer's play" in ruling.text and "liable to a procedural penalty" in ruling.text
    assert ruling.laws[0] == "43A2(b)" and "43A2(c)" not in ruling.laws
    assert {"43B2(a)", "43B2(b)", "43B3"} <= set(ruling.laws)


def test_dummy_who_peeked_and_told_declarer_is_subject_to_43b2_b3_not_freed_from_them() -> None:
    parked = answer(
        "dummy-rights", {"what-happened": "looked", "how-seen": "looked", "looked-told": "yes"}, until="told-park"
    )
    told = note(parked, "told")
    assert "subject to Law 43B2–B3" in told.text and "loses" not in told.text
    assert {"43B2", "43B3"} <= set(told.laws)  # a note: the ruling at the end reads it and cites its laws


def test_dummy_after_peeking_asks_no_spades_partner_declarer_substitutes_and_the_revoke_counts_as_established() -> None:
    # 43B2(b): declarer substitutes a legal card, the trick goes to whoever wins it with that card, and Law 64
    # applies as though the revoke were established: the revoke chart never says the trick "stands as played".
    state = answer(
        "dummy-rights",
        {"what-happened": "asked-revoke", "revoke-rights": "yes", "did-revoke": "yes"},
        until="revoke/substituted-play",
    )
    assert state.chart.id == "revoke" and "43B2(b)" in note(state, "revoke/substituted").laws
    state = answer(
        "dummy-rights",
        {
            "what-happened": "asked-revoke",
            "revoke-rights": "yes",
            "did-revoke": "yes",
            "revoke/revoke-trick": "offender",
            "revoke/later-after-won": "yes",
            "revoke/equity": "no",
        },
    )
    assert state.finished and "64A1" in state.rulings[-1].laws
    assert "stands as played" not in " ".join(r.text for r in state.rulings)


def test_declarer_calls_the_queen_after_lho_covers_and_wants_the_ace() -> None:
    # Dummy AQ76, LHO plays the king, declarer calls "queen": not a slip of the tongue (seed 001, Law 45).
    state = answer("card-from-dummy", {"what-happened": "changed", "since-played": "no", "slip": "no"})
    assert "stays played" in state.rulings[-1].text and "45C4(b)" in state.rulings[-1].laws


def test_declarer_says_spade_then_club_in_the_same_breath_the_defenders_card_already_played_stays() -> None:
    # Walk 6 #98: "spade" from dummy, corrected at once to "club"; West's ♠5 was on the table before the call.
    # 45C4(b) lets only a card played in turn after the card named be taken back: West's card stays played.
    answers = {"what-happened": "changed", "since-played": "no", "slip": "yes"}
    before = answer("card-from-dummy", {**answers, "played-after": "no"}).rulings[-1]
    assert before.node == "change-allowed-before" and "before declarer named dummy's card stays played" in before.text
    assert "47D" not in before.laws and "45C4(b)" in before.laws
    after = answer("card-from-dummy", {**answers, "played-after": "yes"}).rulings[-1]
    assert "played after the card was named may take that card back and play another" in after.text
    assert {"45C4(b)", "47D"} <= set(after.laws)


def test_dummy_plays_the_ace_when_declarer_called_the_eight_noticed_at_once() -> None:
    state = answer("card-from-dummy", {"what-happened": "wrong-card", "next-trick": "no", "declarer-named": "yes"})
    assert "must be withdrawn" in state.rulings[-1].text and "45D1" in state.rulings[-1].laws


def test_dummy_puts_the_ace_in_the_played_position_with_nothing_named_declarer_names_a_card_and_45f_applies() -> None:
    # Twenty-first walk, 26b: the ♥A is withdrawn (45D1), but declarer had named no card to play: declarer names one
    # now, and dummy's act is judged at the end of play under 45F (adjust if it suggested a play that damaged the
    # defenders), with a procedural penalty possible (43B1).
    unnamed = {"what-happened": "wrong-card", "next-trick": "no", "declarer-named": "no"}
    parked = answer("card-from-dummy", unnamed, until="dummy-rights/suggested-park")
    told = note(parked, "withdraw-unnamed")
    assert "must be withdrawn" in told.text and "declarer now names the card" in told.text
    assert "the card declarer named is played" not in told.text
    stands = answer("card-from-dummy", unnamed | {"dummy-rights/suggested-end": "no"})
    assert stands.rulings[-1].node == "suggested-stands" and "procedural penalty" in stands.rulings[-1].text
    assert {"45F", "43B1", "90A"} <= set(Engine(load_charts()).ruling_laws(stands))


def test_low_said_with_dummy_on_lead_names_no_suit_so_a_defender_designates_the_card() -> None:
    # Walk 29, #27 (WRONG): "a low one" with dummy on lead was ruled "the lowest card of the suit led" (46B1(c)),
    # but no suit had been led: declarer designated neither suit nor rank, and 46B5 lets either defender choose.
    unclear = {"what-happened": "unclear", "incontrovertible": "no"}
    leading = answer("card-from-dummy", unclear | {"what-said": "low", "low-leading": "yes"})
    assert leading.rulings[-1].laws[0] == "46B5" and "either defender may designate" in leading.rulings[-1].text
    following = answer("card-from-dummy", unclear | {"what-said": "high", "high-leading": "no"})
    assert following.rulings[-1].laws == ("46B1(a)",)


def test_low_said_when_dummy_is_void_in_the_suit_led_names_no_card_so_a_defender_designates_it() -> None:
    # Walk 36, 22b (H27:22): "dummy was following" led to "the lowest card of the suit led" with no check that dummy
    # held the suit; void, "low" names nothing in dummy and 46B5 lets either defender choose.
    unclear = {"what-happened": "unclear", "incontrovertible": "no"}
    for said in ("low", "high"):
        void = answer("card-from-dummy", unclear | {"what-said": said, f"{said}-leading": "void"})
        assert void.rulings[-1].laws[0] == "46B5" and "either defender may designate" in void.rulings[-1].text
    holding = answer("card-from-dummy", unclear | {"what-said": "low", "low-leading": "no"})
    assert holding.rulings[-1].laws == ("46B1(c)",)


def test_small_diamond_with_no_diamond_in_dummy_is_an_invalid_call_and_declarer_designates_the_card() -> None:
    # Walk 44, 23b-23d (WRONG): "small diamond" with dummy void in diamonds; the option labelled "small" named no
    # suit and gave either defender the choice (46B5). A suit was named: 46B4 when dummy has none, else 46B2.
    chart = load_charts()["card-from-dummy"]
    labels = {option.id: option.label for option in chart.nodes["what-said"].options}
    assert "no suit named" in labels["low"] and "no suit named" in labels["high"] and "small heart" in labels["suit"]
    unclear = {"what-happened": "unclear", "incontrovertible": "no", "what-said": "suit"}
    void = answer("card-from-dummy", unclear | {"suit-only": "no"})
    assert void.rulings[-1].laws == ("46B4",) and "declarer may designate any legal card" in void.rulings[-1].text
    held = answer("card-from-dummy", unclear | {"suit-only": "yes"})
    assert held.rulings[-1].laws == ("46B2",)
    top = answer("card-from-dummy", unclear | {"suit-only": "high-led"})
    assert top.rulings[-1].laws == ("46B1(a)",)
    said = read_description("declarer said small diamond from dummy")
    assert answer_from(said, chart, chart.nodes["what-said"]) == "suit"


def test_win_it_withdraws_a_card_dummy_already_put_out_and_says_what_known_to_win_means() -> None:
    # Walk 47, #94 (H28:94): after "win it" dummy put out the ♣4 with East still to play; the ruling restated 46B1(b)
    # without withdrawing the ♣4 (45D1, as branch 94b does) or saying that a card East could beat is not "known".
    unclear = {"what-happened": "unclear", "incontrovertible": "no", "what-said": "win"}
    state = answer("card-from-dummy", {**unclear, "win-placed": "yes"})
    assert state.rulings[-1].laws[0] == "46B1(b)" and "is not known to win" in state.rulings[-1].text
    assert "45D1" in Engine(load_charts()).ruling_laws(state)
    assert "If dummy placed another card, it must be withdrawn" in ruling_text(state)  # walk 60 #21
    late = answer("card-from-dummy", {**unclear, "win-placed": "late", "too-late": "no"})
    assert late.rulings[-1].laws == ("45D2", "45F")
    told = {"what-happened": "wrong-card", "next-trick": "no", "declarer-named": "incomplete"}
    once = answer("card-from-dummy", {**told, "incontrovertible": "no", "what-said": "win"})
    assert once.rulings[-1].node == "win" and "win-placed" not in [node for _chart, node in once.trail]


def test_a_lead_out_of_turn_reached_through_the_penalty_card_chart_gives_declarer_law_54_first() -> None:
    # Walk 33, 44b (WRONG): a defender's faced opening lead out of turn, answered "exposed by deliberate play" in the
    # penalty-card chart offered first, went straight to 50D2's lead options; Law 54 lets declarer accept it first.
    # Walk 45, 28b: the ruling then named both leads' options in one text, without 54A's "must spread his entire
    # hand" or 54C; it now asks which lead it was.
    state = answer("penalty-card", {"situation": "led-out-of-turn", "lead-first": "opening"})
    ruling = state.rulings[-1]
    assert ruling.laws[:2] == ("54A", "54B") and {"54C", "54D"} <= set(ruling.laws)
    assert "must spread the whole hand" in ruling.text and "must accept the lead" in ruling.text
    later = answer("penalty-card", {"situation": "led-out-of-turn", "lead-first": "later"}).rulings[-1]
    assert later.laws[:2] == ("56A", "53A") and "spread" not in later.text


def test_a_card_dropped_in_the_auction_says_why_it_is_a_penalty_card_and_that_partner_passed_once() -> None:
    # Walk 46, #61 (H28:61): the club king dropped during the bidding was ruled a major penalty card without citing
    # 24E ("every such card becomes a penalty card") or 24B (the offender's partner must pass once).
    state = answer("penalty-card", {"situation": "auction-card", "auction-card": "honour"}, until="how-many")
    told = note(state, "auction-major")
    assert {"24E", "24B"} <= set(told.laws) and "became a penalty card when the auction ended" in told.text
    ruled = answer(
        "penalty-card",
        {"situation": "auction-card", "auction-card": "honour", "how-many": "one", "major-who-next": "offender-plays"},
    )
    assert "24E" in Engine(load_charts()).ruling_laws(ruled) and "offender's partner had to pass" in " ".join(
        outcome_texts(ruled)
    )


def test_a_revoke_card_corrected_in_time_tells_the_non_offenders_they_may_take_back_their_cards() -> None:
    # Walk 24, #17: the penalty-card chart, offered first for a revoke corrected before it was established, never
    # said that declarer's side may take back cards played after the revoke (62C1).
    state = answer("penalty-card", {"situation": "new-card", "which-card": "revoke-card"}, until="how-many")
    told = note(state, "revoke-corrected")
    assert "may take back any card played after the revoke" in told.text
    assert {"62B1", "62C1", "62C2"} <= set(told.laws)


def test_a_card_dummy_put_in_the_played_position_unasked_is_withdrawn_not_only_judged_under_45f() -> None:
    # Walk 24, 20b (WRONG): dummy pushed the ♠A into the middle before declarer spoke, and "Dummy chose or pointed
    # at a card on their own" ruled 45F alone; 45D1 withdraws a card dummy placed that declarer did not name.
    chart = load_charts()["card-from-dummy"]
    question = chart.nodes["what-happened"]
    told = read_description("dummy played a card without being asked, the ace of spades")
    assert answer_from(told, chart, question) == "wrong-card"
    labels = {option.id: option.label for option in question.options}
    assert "not played" in labels["dummy-acted"] and "named none" in labels["wrong-card"]


def test_a_card_dummy_half_pulled_on_their_own_is_not_played() -> None:
    # Walk 27, #78: dummy half-pulled a card before declarer named one, and the director asked whether it was played;
    # the walk said only "Play continues". A card from dummy is played when declarer names it (45B) or deliberately
    # touches it (45C3), never by dummy's own touch (45F).
    acted = {"what-happened": "dummy-acted"}
    parked = answer("card-from-dummy", acted, until="dummy-rights/suggested-park")
    told = note(parked, "not-played")
    assert "is not played" in told.text and "Declarer names the card" in told.text
    stands = answer("card-from-dummy", {**acted, "dummy-rights/suggested-end": "no"})
    assert stands.rulings[-1].node == "suggested-stands"
    assert {"45B", "45C3", "45F"} <= set(Engine(load_charts()).ruling_laws(stands))
    unnamed = {"what-happened": "wrong-card", "next-trick": "no", "declarer-named": "no"}
    withdrawn = answer("card-from-dummy", unnamed, until="dummy-rights/suggested-park")
    assert not any(n.node == "not-played" for n in withdrawn.notes)  # 45D1's note already says declarer names one


FROM_THE_WRONG_HAND_RETRACTED = {
    "opening": "no",
    "told": "no",
    "last-trick": "no",
    "played-since": "no",
    "who-led": "declarer-wrong-hand",
    "declarer-choice": "retract",
}


def test_declarer_leads_from_the_wrong_hand_rho_refuses_and_declarer_finesses_him() -> None:
    # WBF example: declarer leads the jack from dummy instead of from hand, RHO refuses, declarer finesses RHO.
    parked = answer(
        "lead-out-of-turn",
        {
            **FROM_THE_WRONG_HAND_RETRACTED,
        },
        until="wrong-hand-park",
    )
    assert parked.parked and "must lead from the correct hand" in note(parked, "withdrawn").text
    state = answer(
        "lead-out-of-turn",
        {
            **FROM_THE_WRONG_HAND_RETRACTED,
            "information": "yes",
        },
        until="information-note",
    )
    assert "55C" in note(state, "information-note").laws
    state = answer(
        "lead-out-of-turn",
        {
            **FROM_THE_WRONG_HAND_RETRACTED,
            "information": "yes",
            "unauthorised-information/suggested": "yes",
            "unauthorised-information/logical-alternative": "yes",
            "unauthorised-information/damage": "yes",
            "adjusted-score/contest": "pairs",
            "adjusted-score/can-assign": "single",
            "adjusted-score/self-inflicted": "no",
        },
    )
    assert state.finished and state.rulings[-1].chart == "adjusted-score"
    assert "adjust-withdrawn" in [reached.node for reached in state.passed]
    assert "ASSIGNED adjusted score" in state.rulings[-1].text


def test_an_accepted_lead_from_the_wrong_hand_is_not_ruled_as_information_from_a_withdrawn_action() -> None:
    # Walk 45, 26b (H28:26): the defenders accepted declarer's lead from the wrong hand, nothing was withdrawn, yet
    # the adjustment read "information from a withdrawn action" and cited 16C2 and 16C3. 55C: "Law 16 applies".
    accepted = {
        **FROM_THE_WRONG_HAND_RETRACTED,
        "declarer-choice": "accept",
        "information": "yes",
        "unauthorised-information/suggested": "yes",
        "unauthorised-information/logical-alternative": "yes",
        "adjusted-score/damaged": "yes",
        "adjusted-score/contest": "pairs",
        "adjusted-score/can-assign": "single",
        "adjusted-score/self-inflicted": "no",
    }
    state = answer("lead-out-of-turn", accepted)
    read = ruling_text(state)
    assert state.finished and "ASSIGNED adjusted score" in state.rulings[-1].text
    assert "withdrawn" not in read and "obtained through their own infraction" in read
    laws = Engine(load_charts()).ruling_laws(state)
    assert "55C" in laws and not {"16C2", "16C3"} & set(laws)


def test_declarer_leads_from_dummy_when_in_hand_east_wants_it_retracted_ruling_states_and_cites_55b2() -> None:
    # Walk 6 #94: West accepts, East (next in turn after dummy's lead) wants it retracted, so East prevails (55A);
    # at the end of play nothing came of it. The ruling read out and its laws say what the table did: the card
    # withdrawn and the lead made from the correct hand (55B2), not only the end-of-play check (55C).
    state = answer(
        "lead-out-of-turn",
        {
            **FROM_THE_WRONG_HAND_RETRACTED,
            "information": "no",
        },
    )
    assert state.finished and "must lead from the correct hand" in ruling_text(state)
    assert Engine(load_charts()).ruling_laws(state)[:3] == ("55C", "55A", "55B2")


def test_declarer_hands_back_a_defenders_lead_out_of_turn_and_tells_the_partner_to_lead_before_the_director() -> None:
    # Walk 16 #89: West leads out of turn, declarer hands the card back and tells East (on lead) to lead, and East
    # does, all before the Director is called. East's lead is no offending-side play to rectify "as if it had not
    # been played" (60C): the players applied a rectification themselves, which the Director allows (10B) or rules
    # forfeited (11A); the lead stands, West's card is no penalty card, its information is unauthorized for East.
    walked = {
        "opening": "no",
        "told": "no",
        "last-trick": "no",
        "played-since": "yes",
        "play-after-illegal-play/who": "players-fixed",
    }
    for choice, law in (("allow", "10B"), ("forfeited", "11A")):
        state = answer("lead-out-of-turn", {**walked, "play-after-illegal-play/players-fixed": choice})
        ruling = state.rulings[-1]
        assert state.finished and ruling.laws[0] == law and "60C" not in ruling.laws
        assert "lead from the correct hand stands" in ruling.text and "not a penalty card" in ruling.text
        assert "16C2" in ruling.laws


def test_defender_leads_when_partner_had_won_the_trick_declarer_refuses() -> None:
    state = answer(
        "lead-out-of-turn",
        {
            "opening": "no",
            "told": "no",
            "last-trick": "no",
            "played-since": "no",
            "who-led": "defender-partner",
            "defender-choice": "refuse",
            "penalty-card/how-many": "one",
        },
        until="penalty-card/major-declarer-choice",
    )
    assert state.chart.id == "penalty-card" and state.node.id == "major-declarer-choice"
    state = answer(
        "lead-out-of-turn",
        {
            "opening": "no",
            "told": "no",
            "last-trick": "no",
            "played-since": "no",
            "who-led": "defender-partner",
            "defender-choice": "refuse",
            "penalty-card/how-many": "one",
            "penalty-card/major-declarer-choice": "require",
        },
    )
    assert "50D2(a)" in state.rulings[-1].laws


def test_early_lead_to_the_next_trick_after_both_hands_played_leaves_a_lead_out_of_turn_to_weigh() -> None:
    # Dummy leads, East and declarer play, East leads again before West plays: 57C1 lifts the 57A rectification,
    # but if East does not win the trick the lead is out of turn (44G, 53A): since walks 62 #65 and 63 #97 the
    # chart asks who won the trick and rules on it, read aloud, where it was a note for the director.
    told = {"what": "before-partner", "both-hands": "yes", "early-card": "declarer-won", "early-choice": "accept"}
    state = answer("premature-play", told)
    said = next(n for n in state.passed if n.node == "lead-not-won")
    assert said.aloud and {"44G", "53A"} <= set(said.laws)
    assert state.finished and "56A" in state.rulings[-1].laws


def test_declarer_calls_from_dummy_too_early_and_fourth_hand_plays_before_partner_gets_both_laws() -> None:
    # Walk9 #99: South leads the club three and calls dummy's king before West plays; East then plays before
    # West. Dummy's king stays played (57C3) and, declarer having played from both hands, East is not subject to
    # rectification (57C1): the ruling read aloud says both.
    told = {"what": "declarer", "defender-too": "yes", "both-hands": "yes", "early-card": "to-this-trick"}
    state = answer("premature-play", told)
    read = ruling_text(state)
    assert "declarer from either hand is a played card" in read and "No rectification" in read
    assert {"57C3", "57C1"} <= set(Engine(load_charts()).ruling_laws(state))
    alone = answer("premature-play", {"what": "declarer", "defender-too": "no"})
    assert "declarer's card stays played" in alone.rulings[-1].text and "57C3" in alone.rulings[-1].laws


def test_rho_plays_before_lho_to_declarers_ace_declarer_asks_for_the_lowest() -> None:
    state = answer(
        "premature-play",
        {"what": "before-partner", "both-hands": "no", "dummy-own": "no", "declarer-options": "lowest"},
    )
    ruling = state.rulings[-1]
    assert "lowest card he holds of the suit led" in ruling.text and "major penalty card" in ruling.text
    assert {"57A2", "57B", "59"} <= set(ruling.laws)


def test_defender_adds_the_ace_to_a_finished_trick_in_the_rhythm() -> None:
    # Seed 001: the trick is complete and the opening leader adds the ace "caught in the rhythm": not a lead.
    # The card has just become a penalty card: the penalty-card chart does not ask the situation again.
    state = answer(
        "card-played",
        {
            "whose-card": "fifth",
            "lead-out-of-turn/fifth-led": "no",
            "lead-out-of-turn/fifth-whose": "defender",
            "penalty-card/which-card": "honour",
            "penalty-card/how-many": "one",
            "penalty-card/major-who-next": "offender-plays",
        },
    )
    assert state.rulings[-1].chart == "penalty-card" and "major penalty card" in state.rulings[-1].text


def test_declarer_faces_his_hand_saying_he_will_play_it_open() -> None:
    state = answer("declarer-exposes-cards", {"what": "faced", "intended-claim": "no-claim"})
    assert "did not claim" in state.rulings[-1].text and "48B2" in state.rulings[-1].laws


def test_player_found_with_an_extra_card_after_the_next_trick_transfers_one_trick() -> None:
    parked = answer("defective-trick", {"when": "yes", "found": "no-card", "has-suit": "yes"}, until="transfer-park")
    assert parked.parked and "card of the suit led" in parked.render(parked.node.park)
    found = {"when": "yes", "found": "no-card", "has-suit": "yes", "won-later": "yes"}
    state = answer("defective-trick", {**found, "equity": "no"})
    assert "one trick is transferred" in state.rulings[-1].text
    assert {"67B1", "64A2"} <= set(state.rulings[-1].laws)


def test_a_deemed_revoke_on_a_defective_trick_still_asks_whether_the_transfer_compensates() -> None:
    # Walk 35 96b: the deemed revoke (67B1) is an established revoke, so 64C1's equity question applies even when
    # no trick is transferred; walk 34 #57: the park no longer says "Play continues" as if play had not ended.
    found = {"when": "yes", "found": "no-card", "has-suit": "no", "won-later": "no"}
    asked = answer("defective-trick", found, until="equity")
    assert "no trick is transferred" in asked.render(asked.node.ask) and "64C1" in asked.node.laws
    adjusted = answer("defective-trick", {**found, "equity": "yes"}, until="adjusted-score/contest")
    assert "score is adjusted instead" in adjusted.render(note(adjusted, "equity-adjust").text)
    parked = answer(
        "defective-trick", {key: found[key] for key in ("when", "found", "has-suit")}, until="transfer-park"
    )
    assert "Play continues (if it has not ended)" in parked.render(parked.node.park)


PENALTY_CARD_HONOUR = {
    "penalty-card/situation": "new-card",
    "penalty-card/which-card": "honour",
    "penalty-card/how-many": "one",
    "penalty-card/major-who-next": "offender-plays",
}


def test_defenders_exposed_extra_card_owed_to_an_earlier_trick_is_both_a_penalty_card_and_a_revoke() -> None:
    # 67B2(b) and footnote 20: the restored card, exposed, is a penalty card, and not having played it earlier
    # may be a revoke; one is not lost for the other.
    state = answer(
        "defective-trick",
        {"when": "yes", "found": "extra-card", "restore": "both", **PENALTY_CARD_HONOUR},
        until="revoke/what-happened",
    )
    assert state.chart.id == "revoke" and "major penalty card" in state.rulings[-1].text
    assert "67B2(b)" in note(state, "defective-trick/earlier").laws


def test_restored_card_found_on_the_floor_exposed_and_owed_to_an_earlier_trick_goes_on_to_the_revoke() -> None:
    # 14B4: "It may become a penalty card, and failure to have played it may constitute a revoke."
    state = answer(
        "wrong-number-of-cards",
        {
            "what-wrong": "too-few",
            "short-when": "yes",
            "after-found": "elsewhere",
            "restored-card/also": "both",
            **PENALTY_CARD_HONOUR,
        },
        until="revoke/trick-twelve",
    )
    assert state.chart.id == "revoke" and "major penalty card" in state.rulings[-1].text
    # the revoke found here is not asked about again: a walk met "What has happened? A player revoked" next
    assert ("revoke", "what-happened") not in state.trail


def test_declarer_knocks_a_card_out_of_a_defenders_hand_the_director_decides_whether_it_is_a_penalty_card() -> None:
    # Law 50: "a penalty card unless the Director designates otherwise"; only a card sent back to the hand
    # leaves information unauthorized for partner (50E1 makes a penalty card's information authorized).
    back = answer("defender-exposes-card", {"how": "outside", "outside": "yes"})
    assert "goes back to the defender's hand" in back.rulings[-1].text and "may" not in back.rulings[-1].text
    honour = {k: v for k, v in PENALTY_CARD_HONOUR.items() if k != "penalty-card/situation"}  # known: new card
    stays = answer("defender-exposes-card", {"how": "outside", "outside": "no", **honour})
    assert stays.rulings[-1].chart == "penalty-card" and ("defender-exposes-card", "outside-penalty") in stays.trail


def test_a_card_that_slid_out_of_the_board_face_up_before_any_bid_is_no_defenders_penalty_card() -> None:
    # Walk 15, 33c: nobody is a defender (nor declarer) before the auction has ended, so Laws 49 and 48 do not
    # reach a card seen while the hands come out of the board or during the bidding: Law 24 / 16D does, never a
    # major penalty card with 50D2 lead options before anyone has bid.
    for chart, question in (("defender-exposes-card", "how"), ("declarer-exposes-cards", "what")):
        state = answer(
            chart,
            {
                question: "auction",
                "card-exposed-during-auction/any-call": "no",
                "card-exposed-during-auction/in-the-deal": "no",
            },
            until="unauthorised-information/other-when",
        )
        assert ("card-exposed-during-auction", "before-auction") in state.trail
        assert not any(ruling.chart == "penalty-card" for ruling in state.rulings)


def test_trick_pointed_the_wrong_way_pointed_out_too_late_goes_to_unauthorised_information() -> None:
    state = answer("tricks-and-inspection", {"what": "pointed", "pointed-when": "yes"}, until="pointed-park")
    assert state.parked and "16B1" in state.node.laws
    assert note(state, "pointed-late").laws == ("65B3", "79A2")  # the expired right is read in the ruling and cited
    state = answer(
        "tricks-and-inspection",
        {"what": "pointed", "pointed-when": "yes", "late-count": "yes"},
        until="unauthorised-information/partner-facts",
    )
    assert state.chart.id == "unauthorised-information" and state.node.id == "partner-facts"


def test_a_card_pointed_wrongly_noticed_too_late_then_a_count_dispute_counts_the_tricks_actually_won() -> None:
    # Walk 20 #62: N/S's card of trick 6 pointed as theirs, E/W won it; noticed at trick 9, N/S count 10, E/W 9.
    # 65B3's expiry limits only remarks during play; the count follows the tricks won (79A2, 79B2), then Law 16B.
    late = {"what": "pointed", "pointed-when": "yes"}
    state = answer("tricks-and-inspection", late, until="pointed-park")
    said = note(state, "pointed-late").text
    assert "pointed the right way" not in said and "tricks are counted as each side actually won them" in said
    counted = {**late, "late-count": "cards-show"}
    state = answer("tricks-and-inspection", counted, until="unauthorised-information/partner-facts")
    assert "not on the way a card was pointed" in note(state, "count-by-cards").text
    state = answer("tricks-and-inspection", {**counted, "unauthorised-information/partner-facts": "no"})
    assert state.finished and state.rulings[-1].chart == "unauthorised-information"
    mixed = answer("tricks-and-inspection", {**late, "late-count": "cards-mixed"}, until="mixed")
    assert mixed.node.id == "mixed"


def test_a_card_pointed_the_wrong_way_found_only_after_play_settles_the_trick_count() -> None:
    # Play is over: the Director determines the tricks won (79B2, 66D), not a park that says play continues.
    # Walk 34 #60: 65B3 (only "If done later Law 16B may apply") does not bear on a count after play.
    state = answer("tricks-and-inspection", {"what": "pointed", "pointed-when": "after-play"}, until="count-when")
    counted = note(state, "pointed-count")
    assert counted.laws == ("79A2", "79B") and "does not decide who won its trick" in counted.text
    assert not state.parked
    done = answer(
        "tricks-and-inspection",
        {
            "what": "pointed",
            "pointed-when": "after-play",
            "count-when": "play-ended",
            "claim-involved": "no",
            "facts": "yes",
        },
    )
    assert done.rulings[-1].laws == ("79B2", "66D", "85A1", "79A2", "65D")  # 79A2: walk 58, #72


def test_a_count_settled_from_the_cards_warns_that_a_side_that_gathered_its_cards_risked_doubtful_tricks() -> None:
    # Walk 43, #94 (H29:94): N-S gathered their played cards before the count was agreed; the ruling never said what
    # 65D costs them: the player "jeopardizes his right to claim ownership of doubtful tricks".
    answers = {"what": "count", "count-when": "play-ended", "claim-involved": "no", "facts": "yes"}
    done = answer("tricks-and-inspection", answers)
    assert done.rulings[-1].node == "rule-score" and "65D" in done.rulings[-1].laws
    assert "jeopardized their right to claim ownership of doubtful tricks" in done.rulings[-1].text


def test_a_card_declarer_dropped_by_accident_is_not_played_wherever_it_lands() -> None:
    state = answer("declarer-exposes-cards", {"what": "dropped", "card-played/declarer-how": "dropped"})
    assert state.finished and "48A" in state.rulings[-1].laws and "not played" in state.rulings[-1].text


def test_declarer_on_lead_in_hand_says_ace_of_spades_then_wants_another_card() -> None:
    # 45C4(a): a card a player names as the card to play is played, declarer's own card included.
    state = answer("card-played", {"whose-card": "declarer", "declarer-how": "named"})
    ruling = state.rulings[-1]
    assert "Declarer has played the card" in ruling.text and "45C4(a)" in ruling.laws


def test_the_defender_whose_turn_it_was_leads_properly_after_declarers_lead_out_of_turn() -> None:
    # 53C "but see B": the proper lead stands and declarer's card goes back, no penalty for the defender.
    state = answer("play-after-illegal-play", {"who": "rho-defender", "rho-proper-lead": "proper"})
    assert state.finished and "53B" in state.rulings[-1].laws


def test_repeated_revokes_in_one_suit_still_transfer_the_first_revokes_tricks() -> None:
    # Walk 27, #77: a player revoked twice in the same suit. The ruling said "the first revoke is adjusted as usual"
    # and ended; 64B2 exempts only the later revoke, so the first one's transfer (64A1) is still worked out, and the
    # later ones are adjusted for only under 64C2(a).
    repeated = {
        "what-happened": "revoke",
        "trick-twelve": "no",
        "established": "yes",
        "when-noticed": "in-time",
        "kind-of-revoke": "repeated",
        "revoke-trick": "offender",
        "later-after-won": "yes",
    }
    state = answer("revoke", {**repeated, "equity-repeated": "no"})
    assert state.rulings[-1].node == "transfer-two" and "(two tricks)" in state.rulings[-1].text
    laws = Engine(load_charts()).ruling_laws(state)
    assert laws[0] == "64A1" and {"64B2", "64C2(a)"} <= set(laws)
    worse = answer("revoke", {**repeated, "equity-repeated": "yes"}, until="adjusted-score/contest")
    assert "later revokes not occurred" in ruling_text(worse)


def test_a_revoke_found_too_late_is_not_answered_as_if_a_trick_had_been_transferred() -> None:
    # Walk 25, 43b: after a revoke found after the round, no trick is transferred (64B5), yet the equity question's
    # "No" read "the adjustment is enough", and the walker tapped it by mistake.
    late = {
        "what-happened": "revoke",
        "trick-twelve": "no",
        "established": "yes",
        "when-noticed": "too-late",
        "request-time": "yes",
    }
    state = answer("revoke", late, until="equity")
    assert "no trick is transferred (attention was drawn to the revoke too late)" in state.render(state.node.ask)
    assert next(option.label for option in state.node.options) == "No: compensated, or not damaged"
    assert not any("adjustment" in option.label for option in state.node.options)


def test_a_defender_who_kept_a_penalty_card_is_ruled_by_law_52_not_the_revoke_correction() -> None:
    state = answer(
        "revoke",
        {
            "what-happened": "revoke",
            "trick-twelve": "no",
            "established": "no",
            "who-revoked": "penalty-card",
            "penalty-card/not-played-entry": "no",
            "penalty-card/not-played-kind": "major",
        },
        until="penalty-card/failed-withdraw",
    )
    assert state.chart.id == "penalty-card"


def test_two_cards_played_together_found_tricks_later_are_a_defective_trick() -> None:
    state = answer("two-cards-at-once", {"next-trick": "yes"})
    assert state.finished and "58B4" in state.rulings[-1].laws and "highest-ranking" in state.rulings[-1].text


def test_a_partner_who_leads_before_declarer_chooses_has_a_penalty_card_of_their_own() -> None:
    # 50D2: failure to wait is rectified under Law 49; declarer still chooses for the first penalty card.
    state = answer(
        "penalty-card", {"how-many": "one", "major-declarer-choice": "led-early"}, kind="major", turn="partner-leads"
    )
    assert state.finished and "49" in state.rulings[-1].laws and "major penalty card" in state.rulings[-1].text


def test_a_card_faced_in_place_of_one_that_stays_played_is_dealt_with() -> None:
    # A defender plays the ♥3, snatches it back and puts the ♥A down instead: the 3 stays played (47F2) and the
    # ace, faced by a defender, is a penalty card (49, 50); a walk found the ruling silent about the ace, so a
    # director reading it aloud would let it go back into the hand.
    state = answer("retraction-of-card-played", {"why": "changed-mind"})
    assert state.finished
    ruling = state.rulings[-1]
    assert "A card a defender faced in its place becomes a penalty card" in ruling.text
    assert {"49", "50", "48A"} <= set(ruling.laws)


def test_a_card_played_after_a_defenders_card_held_where_partner_could_see_it_is_a_major_penalty_card() -> None:
    # Twenty-first walk, #30: the ♥K held where partner could see it is played (45C1); the ♥2 the defender then
    # played to the same trick was exposed through deliberate play, so it is a major penalty card (49, 50B).
    alone = answer("card-played", {"whose-card": "defender", "defender-turn": "yes", "another-card": "no"})
    assert alone.rulings[-1].node == "defender-played" and "penalty card" not in alone.rulings[-1].text
    state = answer(
        "card-played",
        {
            "whose-card": "defender",
            "defender-turn": "yes",
            "another-card": "yes",
            "penalty-card/how-many": "one",
            "penalty-card/major-who-next": "offender-plays",
        },
    )
    told = next(reached for reached in state.passed if reached.node == "another-card-note")
    assert "is played to the current trick" in told.text and "becomes a major penalty card" in told.text
    assert {"45C1", "49", "50B"} <= set(told.laws)
    assert state.rulings[-1].node == "major-play-ruling"


def test_a_defenders_card_faced_out_of_turn_goes_to_the_lead_out_of_turn_laws() -> None:
    # Walk 24, #15 (WRONG): East faced the ♥J as the opening lead when West was on lead, and this chart ruled it
    # played to the trick; declarer's options under Law 54 were lost.
    opening = answer(
        "card-played", {"whose-card": "defender", "defender-turn": "opening"}, until="opening-lead-out-of-turn/who-led"
    )
    assert opening.chart.id == "opening-lead-out-of-turn"
    later = answer("card-played", {"whose-card": "defender", "defender-turn": "lead"}, until="lead-out-of-turn/opening")
    assert later.chart.id == "lead-out-of-turn"
    early = answer("card-played", {"whose-card": "defender", "defender-turn": "early"}, until="premature-play/what")
    assert early.chart.id == "premature-play"


def test_a_defenders_card_held_facing_partner_while_thinking_is_played_not_a_penalty_card() -> None:
    # Law 45C1: a defender's card held so that partner could see its face is played, whatever was meant; only a
    # card dropped by accident, or seen with no card to play, is a penalty card (49, 50). The answers say which
    # decides, so "she held the ♦Q facing me while thinking" is not answered "dropped or shown".
    seen = {"how": "seen", "partner-could-see": "yes"}
    asked = answer("defender-exposes-card", seen, until="what-was-he-doing").node
    labels = {o.id: o.label for o in asked.options}
    assert "Held where partner could see it" in labels["playing"] and "45C1" in labels["playing"]
    assert labels["neither"].startswith("Dropped by accident") and "shown" not in labels["neither"]
    assert "not what the defender meant" in asked.help
    held = answer("defender-exposes-card", {**seen, "what-was-he-doing": "playing", "card-played/another-card": "no"})
    assert held.rulings[-1].chart == "card-played" and "45C1" in held.rulings[-1].laws
    assert "is played" in held.rulings[-1].text and "penalty card" not in held.rulings[-1].text
    # 45C1's parenthesis: held up after already playing to the trick is a fifth card (45E1), led or not.
    fifth = answer(
        "defender-exposes-card",
        {
            **seen,
            "what-was-he-doing": "fifth",
            "lead-out-of-turn/fifth-led": "no",
            "lead-out-of-turn/fifth-whose": "defender",
        },
        until="penalty-card/which-card",
    )
    assert "45E1" in note(fifth, "lead-out-of-turn/fifth-penalty").laws


def test_a_card_put_on_a_complete_trick_is_the_directors_call_before_any_lead_out_of_turn_option() -> None:
    # Law 45E1: a defender's fifth card is a penalty card unless the Director deems it led, and only then do
    # Laws 53 and 56 apply. A walk's "my partner put a card on top of the four cards already in the middle" was
    # offered only this chart, which went straight to declarer's accept-or-refuse choice.
    opening = answer("lead-out-of-turn", {}, until="opening").node
    assert "fifth card" in {o.id: o.label for o in opening.options}["fifth"]
    not_led = answer(
        "lead-out-of-turn",
        {"opening": "fifth", "fifth-led": "no", "fifth-whose": "defender"},
        until="penalty-card/which-card",
    )
    assert "becomes a penalty card" in note(not_led, "fifth-penalty").text
    assert not any(node == "defender-choice" for _, node in not_led.trail)
    led = answer("lead-out-of-turn", {"opening": "fifth", "fifth-led": "yes", "turn-to-lead": "no"}, until="told")
    assert led.node.id == "told"
    returned = answer("lead-out-of-turn", {"opening": "fifth", "fifth-led": "no", "fifth-whose": "declarer"})
    assert "goes back to the hand" in returned.rulings[-1].text and returned.rulings[-1].laws == ("45E2",)


def test_declarer_says_the_defender_had_to_trump_the_revoke_chart_says_a_discard_when_void_is_legal() -> None:
    # Law 44D: unable to follow suit, a player may play any card; there is no duty to trump. A walk's "i had no
    # spades so i played a small diamond; declarer says i had to trump it" reached the revoke chart, whose first
    # answer "A player revoked" a director persuaded by declarer could take for a legal discard.
    asked = answer("revoke", {}, until="what-happened").node
    assert "no duty to trump" in asked.help and "44D" in asked.laws
    state = answer("revoke", {"what-happened": "inquiry"})
    assert "no duty to trump, and a discard when void is not a revoke" in state.rulings[-1].text
    assert "44D" in state.rulings[-1].laws


def test_a_card_partner_may_have_seen_that_the_defender_denies_is_decided_on_the_balance_of_probabilities() -> None:
    # Walk7 #66: "East says West held a card so that East could see its face during trick 7; West denies it", and
    # nobody else saw. The facts are not agreed: the Director decides them (85A1) or, unable to, lets play go on (85B).
    charts = load_charts()
    chart = charts["defender-exposes-card"]
    told = "East says West held a card so that East could see its face during trick 7; West denies it"
    assert answer_from(read_description(told), chart, chart.nodes["partner-could-see"]) == "disputed"
    disputed = {"how": "seen", "partner-could-see": "disputed"}
    unknown = answer("defender-exposes-card", {**disputed, "facts-decided": "undetermined"})
    assert unknown.rulings[-1].laws[0] == "85B" and "cannot be determined" in unknown.rulings[-1].text
    assert "right to appeal" in unknown.rulings[-1].text
    decided = answer("defender-exposes-card", {**disputed, "facts-decided": "no"})
    assert (
        decided.rulings[-1].text
        == answer("defender-exposes-card", {"how": "seen", "partner-could-see": "no"}).rulings[-1].text
    )
    assert "85A1" in Engine(charts).ruling_laws(decided)
    held = answer(
        "defender-exposes-card",
        {**disputed, "facts-decided": "yes", "what-was-he-doing": "playing", "card-played/another-card": "no"},
    )
    assert held.rulings[-1].chart == "card-played" and "45C1" in held.rulings[-1].laws
    agreed = answer("defender-exposes-card", {"how": "seen", "partner-could-see": "no"})  # established facts: unchanged
    assert not any(law.startswith("85") for law in Engine(charts).ruling_laws(agreed))


def test_two_penalty_cards_already_on_the_table_go_straight_to_who_acts_and_51b() -> None:
    # 50B: a defender with two or more penalty cards has only major ones, so how each was exposed is not asked again;
    # the description's "two penalty cards" answers the situation, and partner on lead reaches 51B in one more tap.
    chart = load_charts()["penalty-card"]
    told = "South declares 3NT. East has two penalty cards in front of him, a club and a diamond, and West has the lead"
    assert answer_from(read_description(told), chart, chart.nodes["situation"]) == "several-on-table"
    instead = "East has two penalty cards but led another card to the trick instead of the penalty card"
    assert answer_from(read_description(instead), chart, chart.nodes["situation"]) is None
    state = answer(
        "penalty-card",
        {"situation": "several-on-table", "several-who-next": "partner-more-suits", "more-suits-choice": "require"},
    )
    assert [step.question for step in state.answered] == [
        "What is the situation?",
        "Who is next to act?",
        "Declarer chooses (explain all the options):",
    ]
    assert state.rulings[-1].laws[0] == "51B2(a)" and "penalty cards in other suits remain" in state.rulings[-1].text


def test_a_player_who_looked_at_an_opponents_quitted_tricks_broke_7b3_and_may_lose_what_he_gained() -> None:
    # 66C: quitted tricks may not be inspected; 7B3/90B5: no touching another player's cards without permission,
    # a procedural-penalty offence; 12A1: no rectification is prescribed, so an adjusted score if he gained.
    engine = Engine(load_charts())
    clean = answer("tricks-and-inspection", {"what": "inspected", "adjusted-score/damaged": "no"})
    assert engine.ruling_laws(clean)[:2] == ("66C", "7B3") and {"90B5", "12A1"} <= set(engine.ruling_laws(clean))
    assert "without the permission of an opponent or the Director" in ruling_text(clean)
    gained = answer(
        "tricks-and-inspection", {"what": "inspected", "adjusted-score/damaged": "yes"}, until="adjusted-score/contest"
    )
    assert gained.chart.id == "adjusted-score"


def test_an_opponent_who_handled_my_cards_after_the_round_broke_7b3_and_play_is_not_said_to_continue() -> None:
    # Walk 28 #7: no option fitted an opponent handling a player's cards after the round; the quitted-tricks one
    # cited 66C and parked "Play continues". 7B3: no player touches another's cards during or after play without
    # permission of an opponent or the Director; 90B5: a procedural-penalty offence.
    engine = Engine(load_charts())
    state = answer("tricks-and-inspection", {"what": "handled", "handled-claim": "no", "adjusted-score/damaged": "no"})
    assert not state.parked and engine.ruling_laws(state)[:2] == ("7B3", "7C") and "90B5" in engine.ruling_laws(state)
    read = ruling_text(state)
    assert "without the permission of an opponent or the Director" in read and "Play continues" not in read
    chart = load_charts()["tricks-and-inspection"]
    told = "After the round my opponent handled my cards to see what I held"
    assert answer_from(read_description(told), chart, chart.nodes["what"]) == "handled"


def test_cards_handled_after_play_that_leave_a_claimed_revoke_unascertainable_are_ruled_for_the_other_side() -> None:
    # Walk 36, #2 (H27:2): the chart cited 66D but never asked it. 66D: "If the Director can no longer ascertain the
    # facts after such a claim has been made, and only one side has mixed its cards, the Director shall rule in
    # favour of the other side."
    mixed = answer("tricks-and-inspection", {"what": "handled", "handled-claim": "yes", "mixed": "one-side"})
    assert mixed.finished and mixed.rulings[-1].laws[0] == "66D"
    assert "rules in favour of the other side" in mixed.rulings[-1].text
    both = answer("tricks-and-inspection", {"what": "handled", "handled-claim": "yes", "mixed": "otherwise"})
    assert "does not apply" in both.rulings[-1].text


def test_a_revoke_claimed_after_play_with_the_cards_mixed_is_ruled_for_the_side_that_did_not_disturb_them() -> None:
    # Walk 46, #64 / 64b (H28:64): "A player wants to see a trick again" had no answer for play having ended and
    # ruled 66C; walk 44, 6b: "has only one side mixed its cards" could be read against the player whose cards an
    # opponent mixed. 66D rules for the other side.
    ended = {"what": "see-trick", "side-played": "play-ended", "facts": "no"}
    asked = answer("tricks-and-inspection", ended, until="mixed")
    assert asked.node.ask == "Which side disturbed the played cards?"
    state = answer("tricks-and-inspection", {**ended, "mixed": "one-side"})
    assert state.rulings[-1].laws[0] == "66D" and "the side that did not disturb them" in state.rulings[-1].text
    shown = answer("tricks-and-inspection", {**ended, "facts": "revoke"}, until="revoke/trick-twelve")
    assert shown.chart.id == "revoke"


def test_a_card_found_in_the_board_with_the_played_cards_right_is_ruled_under_law_14_not_67() -> None:
    # Walk 47, 100b (H28:100): the ♦5 was in the board pocket and East's played cards were right; the defective-trick
    # chart offered first had no answer for it, and "played two cards to a trick" cited 67B2(b) and dropped 14C.
    found = {"when": "yes", "found": "missing"}
    owed = answer("defective-trick", {**found, "restored-card/also": "earlier"}, until="revoke/trick-twelve")
    assert owed.chart.id == "revoke" and {"14B4", "61A"} <= set(note(owed, "restored-card/revoke-note").laws)
    kept = answer("defective-trick", {**found, "restored-card/also": "none"})
    laws = Engine(load_charts()).ruling_laws(kept)
    assert laws[0] == "14B2" and "14C" in laws and not any(law.startswith("67") for law in laws)
    assert "unauthorized for the partner" in ruling_text(kept)


def test_declarer_dropping_several_cards_has_an_answer_and_a_ruling_that_fits_more_than_one() -> None:
    # Walk 38, #67 (H27:67): three cards dropped; the only answer was "a single card" and the ruling spoke of "the
    # card". 48A: "Declarer is not required to play any card dropped accidentally".
    chart = load_charts()["declarer-exposes-cards"]
    labels = {option.id: option.label for option in chart.nodes["what"].options}
    assert "one or more cards" in labels["dropped"]
    state = answer("declarer-exposes-cards", {"what": "dropped", "card-played/declarer-how": "dropped"})
    assert state.rulings[-1].laws == ("45C2", "48A")
    assert "The card or cards" in state.rulings[-1].text and "not required to play any card" in state.rulings[-1].text


def test_a_defender_playing_with_partners_lead_cites_58a_and_57d_not_57as_declarer_options() -> None:
    # Walk 30 #70: West led, East played at the same moment; 58A deems East's card played after the lead, at his
    # RHO's turn (57D). The chart cited 57A, whose four declarer options are for a defender ahead of his partner.
    told = {"what": "two-players", "second-card": "defender-early", "premature-play/what": "rho-turn"}
    state = answer("simultaneous-plays", {**told, "premature-play/legal-later": "yes"})
    laws = Engine(load_charts()).ruling_laws(state)
    assert laws[0] == "58A" and "57D" in laws and "57A" not in laws
    assert "must be played at the defender's proper turn" in state.rulings[-1].text


def test_a_trick_count_disputed_after_both_sides_mixed_their_cards_cites_65d_and_65b3() -> None:
    # 79B2: the Director rules on the best evidence; 65D: mixing the played cards jeopardizes a claim to doubtful
    # tricks; 65B3: a card pointed the wrong way could be pointed out only until that side played to the next trick.
    state = answer(
        "tricks-and-inspection",
        {"what": "count", "count-when": "play-ended", "claim-involved": "no", "facts": "no", "mixed": "otherwise"},
    )
    assert state.rulings[-1].laws == ("79B2", "65D", "65B3")
    assert "doubtful tricks" in state.rulings[-1].text and "pointed the wrong way" in state.rulings[-1].text
    facts = load_charts()["tricks-and-inspection"].nodes["facts"]
    assert "65B3" in facts.laws and "pointed the wrong way does not decide who won its trick" in facts.help
    assert "79A2" in facts.laws


def test_a_ruff_in_dummy_while_dummy_held_the_suit_is_read_as_dummys_revoke_and_cites_64b3() -> None:
    # Walk11 #26: "ruffed … in dummy … when dummy still had a small club" was not read as dummy's revoke, so "None of
    # these" led to a trick transfer; and the adjusted score for damage cited 64C1 without 64B3 (no trick transfer
    # for a card belonging to dummy).
    charts = load_charts()
    chart = charts["revoke"]
    told = "Declarer ruffed a heart in dummy at trick 4 while dummy still had a small heart. Found at trick 9."
    assert answer_from(read_description(told), chart, chart.nodes["kind-of-revoke"]) == "penalty-or-dummy"
    assert answer_from(read_description(told), chart, chart.nodes["who-revoked"]) == "dummy"
    from_hand = "Declarer discarded from hand at trick 4 when dummy still had a small heart"
    assert answer_from(read_description(from_hand), chart, chart.nodes["kind-of-revoke"]) is None
    established = {"what-happened": "revoke", "trick-twelve": "no", "established": "yes", "when-noticed": "in-time"}
    adjusted = answer(
        "revoke",
        {
            **established,
            "kind-of-revoke": "penalty-or-dummy",
            "equity": "yes",
            "adjusted-score/contest": "pairs",
            "adjusted-score/can-assign": "weighted",
            "adjusted-score/self-inflicted": "no",
        },
    )
    assert "a card belonging to dummy: there is no automatic trick adjustment" in ruling_text(adjusted)
    assert {"64B3", "64C1"} <= set(Engine(charts).ruling_laws(adjusted))
    stands = answer("revoke", {**established, "kind-of-revoke": "penalty-or-dummy", "equity": "no"})
    assert "The score stands" in stands.rulings[-1].text and "64B3" in stands.rulings[-1].laws


def test_a_review_of_the_auction_at_the_start_of_play_is_spoken_and_cites_the_law_that_grants_it() -> None:
    # Walk 41, #32 (H29:32): the bidding cards were back in the boxes; the ruling cited 20F2 alone and never said the
    # review is a spoken restatement. 20C2 grants it at the first turn to play; an opponent restates (20D).
    first = answer("start-of-play", {"what-happened": "review", "review-when": "first-turn"}).rulings[-1]
    assert first.laws[:2] == ("41B", "20C2") and "restates the calls aloud, in full" in first.text
    asked = {"what-happened": "review", "review-when": "before-faced", "review-who": "entitled", "lead-changed": "no"}
    before = answer("start-of-play", asked).rulings[-1]
    assert "20D" in before.laws and "restates all the calls aloud" in before.text


def test_an_opening_lead_faced_at_once_stands_and_breaks_the_face_down_procedure_where_leads_are_face_down() -> None:
    # Walk 44, #20 (H28:20): the lead was faced at once, before the leader's partner could ask about 2C; no answer
    # fitted, and the nearest never said the lead stands (41C) nor that leading face up broke 41A (90A).
    early = answer("start-of-play", {"what-happened": "faced-at-once", "face-down-rule": "yes"}).rulings[-1]
    assert early.text.startswith("The opening lead stands") and "procedural penalty" in early.text
    assert early.laws[:3] == ("41A", "41C", "90A")
    allowed = answer("start-of-play", {"what-happened": "faced-at-once", "face-down-rule": "no"}).rulings[-1]
    assert "the lead was in order and stands" in allowed.text and "90A" not in allowed.laws


def test_a_leader_who_changed_the_face_down_lead_on_their_own_leads_the_original_card() -> None:
    # Walk 41, #40 (H29:40): a face-down club five changed to the jack reached 41A only through "a player asked for a
    # review", and the ruling then spoke of a question nobody asked. 41A: withdrawn only on the Director's instruction.
    swapped = answer("start-of-play", {"what-happened": "lead-swapped", "swap-why": "own-accord"})
    ruling = swapped.rulings[-1]
    assert ruling.laws == ("41A",) and "original card is the opening lead" in ruling.text
    assert "question" not in ruling.text
    corrected = answer("start-of-play", {"what-happened": "lead-swapped", "swap-why": "corrected"})
    assert corrected.rulings[-1].node == "lead-withdrawn" and "47E2(a)" in corrected.rulings[-1].laws


def test_a_face_down_lead_changed_after_partners_question_stays_the_original_card() -> None:
    # Walk12, H20:35: "she picked the face down card back up and put a different one face down": the chart faced
    # the substitute. 41A: a face-down lead may be withdrawn only on the Director's instruction after an
    # irregularity; with none, the first card is the lead, and what partner's question suggested is unauthorized.
    asked = {"what-happened": "review", "review-when": "before-faced", "review-who": "entitled"}
    changed = answer("start-of-play", {**asked, "lead-changed": "yes"})
    assert changed.rulings[-1].laws[0] == "41A" and "original card is the opening lead" in changed.rulings[-1].text
    corrected = answer("start-of-play", {**asked, "lead-changed": "corrected"})
    assert "47E2(a)" in corrected.rulings[-1].laws
    # Walk 35 85b: after a corrected explanation the ruling says what to do now: withdraw the card, lead another,
    # and the withdrawn card is authorized for the leader's side only (16C1, 16C2).
    withdrawn = corrected.rulings[-1]
    assert "may lead another card" in withdrawn.text and "unauthorized for declarer's side" in withdrawn.text
    assert {"41A", "16C1", "16C2"} <= set(withdrawn.laws)


def test_a_claim_made_by_facing_the_cards_without_a_word_is_asked_about_as_a_claim_with_no_statement() -> None:
    # Walk 15 #45: "declarer just turned his remaining cards face up … nobody said a word": the question asked only
    # about "the line in the claimer's statement", which there was none of (68C); every normal line counts (70E1).
    line = load_charts()["claim"].nodes["line-stated"]
    assert "with no statement, any normal line" in line.ask and "said nothing stated no line" in line.help


def test_the_penalty_card_question_says_how_to_judge_a_fifth_card_deliberate_or_dropped() -> None:
    # Walk 15 #47 / 47c: two directors differed on a defender's fifth card only by judging it deliberate (major) or
    # accidental (minor): the question now says how Law 50B's line falls for a card added to a complete trick.
    which = load_charts()["penalty-card"].nodes["which-card"]
    assert "fifth card" in which.help and "deliberate play" in which.help and "unintentionally" in which.help


def test_declarer_who_requires_another_suit_than_the_penalty_cards_is_told_it_is_not_an_option() -> None:
    # Walk 27, #92: with the ♥Q a major penalty card, declarer "requires East to lead a diamond". 50D2(a) lets
    # declarer require or forbid only the penalty card's suit; the help said "the suit of the penalty card" but not
    # what to do when declarer names another one.
    nodes = load_charts()["penalty-card"].nodes
    assert "only the penalty card's suit (50D2(a))" in nodes["major-declarer-choice"].help
    assert "explain the three options again" in nodes["major-declarer-choice"].help
    assert "only the penalty cards' suit (51B1)" in nodes["one-suit-choice"].help


def test_a_king_lying_as_a_penalty_card_when_partner_gains_the_lead_is_one_penalty_card_already_there() -> None:
    # Walk 16 #97: West's ♣K already lies face up as a penalty card when East gains the lead; the first question
    # offered only "A card has just become a penalty card". Its answer now names a card lying there too, and the
    # walk reaches declarer's lead options (50D2) by the card's rank.
    situation = load_charts()["penalty-card"].nodes["situation"]
    assert any("lying there" in option.label for option in situation.options)
    lying = {"situation": "new-card", "which-card": "honour", "how-many": "one", "major-who-next": "partner-leads"}
    state = answer("penalty-card", lying, until="major-declarer-choice")
    assert state.node.id == "major-declarer-choice"


def test_declarer_requires_the_suit_of_a_penalty_card_partner_has_none_law_59_on_the_screen_and_ruling() -> None:
    # Walk 16 #97: the ♣K lies as a major penalty card, partner gains the lead, declarer requires a club and partner
    # has none. Law 59 (any otherwise legal card) is on the screen where declarer chooses, and on every require or
    # prohibit ruling, with two or more penalty cards too (51B).
    one = {"situation": "new-card", "which-card": "honour", "how-many": "one", "major-who-next": "partner-leads"}
    choice = answer("penalty-card", one, until="major-declarer-choice")
    assert "59" in choice.node.laws and "Law 59" in (choice.node.help or "")
    for several, question in (("partner-one-suit", "one-suit-choice"), ("partner-more-suits", "more-suits-choice")):
        to_choice = {"situation": "several-on-table", "several-who-next": several}
        assert "59" in answer("penalty-card", to_choice, until=question).node.laws
        for option in ("require", "prohibit"):
            ruling = answer("penalty-card", {**to_choice, question: option}).rulings[-1]
            assert "59" in ruling.laws and "otherwise legal card" in ruling.text
    required = answer("penalty-card", {**one, "major-declarer-choice": "require"}).rulings[-1]
    assert "59" in required.laws


def test_a_minor_penalty_card_allows_an_honour_or_another_suit_instead() -> None:
    # 50C: a minor penalty card only bars another non-honour of its suit; 50D1(a)'s first legal opportunity is a
    # major card's. A walk found the chart ordering the substitution (52B2) for any card played instead.
    free = answer(
        "penalty-card", {"situation": "not-played", "not-played-entry": "no", "not-played-kind": "minor-free"}
    )
    assert free.finished and free.rulings[-1].laws[0] == "50C" and "No irregularity" in free.rulings[-1].text
    lower = answer(
        "penalty-card",
        {
            "situation": "not-played",
            "not-played-entry": "no",
            "not-played-kind": "minor-lower",
            "failed-withdraw": "no",
            "declarer-accepts": "refuse",
        },
    )
    assert "52B2" in lower.rulings[-1].laws


def test_a_card_played_on_a_wrong_explanation_is_taken_back_only_if_no_card_was_played_since() -> None:
    # Walk 26, #61: a trick-1 card played after a wrong explanation, the correction coming at trick 2. The chart gave
    # a note and went on to damage; it never said whether the card could still be taken back. 47E2(a) allows it "only
    # if no card was subsequently played"; too late, the Director may adjust (47E2(b)).
    told = {"why": "misexplained", "misinformation/agreement": "explanation"}
    late = answer("retraction-of-card-played", {**told, "misexplained": "yes"}, until="misinformation/damage")
    read = ruling_text(late)
    assert "too late to take the card back, and it stays played" in read and "may take the card back" not in read
    assert "47E2(b)" in Engine(load_charts()).ruling_laws(late)
    early = answer("retraction-of-card-played", {**told, "misexplained": "no"}, until="misinformation/damage")
    assert "the player may take the card back" in ruling_text(early)


def test_a_face_down_opening_lead_taken_back_after_a_corrected_explanation_still_offers_a_change_of_last_call() -> None:
    # Walk 45, 50b (H28:50): the face-down lead went to the misinformation chart at the play stage, which skips the
    # clarification period, so the leader was never offered a change of their last call. 21B1(a): "Until the end of
    # the auction period"; 17D1: the period ends when a defender faces the opening lead.
    chosen = {"why": "misexplained", "misexplained": "face-down", "misinformation/agreement": "explanation"}
    asked = answer("retraction-of-card-played", chosen, until="misinformation/change-call")
    assert asked.node.id == "change-call" and "may still change their last call" in note(asked, "clarification").text
    state = answer(
        "retraction-of-card-played", {**chosen, "misinformation/change-call": "yes"}, until="misinformation/damage"
    )
    assert "21B1(a)" in Engine(load_charts()).ruling_laws(state)
    right = answer(
        "retraction-of-card-played",
        {**chosen, "misinformation/agreement": "call", "misinformation/mistaken-call": "no"},
    )
    assert "the face-down card stays the opening lead" in ruling_text(right)


def test_a_card_played_after_a_correct_explanation_of_a_mistaken_call_stays_played() -> None:
    # Walk 19, 17b: "can I take the ace back?" after the explanation was right and the call wrong (75C) was told
    # only that the result stands. 47E2(a) allows a retraction only because of a mistaken explanation (47F2).
    chosen = {
        "why": "misexplained",
        "misexplained": "no",
        "misinformation/agreement": "call",
        "misinformation/mistaken-call": "no",
    }
    state = answer("retraction-of-card-played", chosen)
    assert state.finished and state.rulings[-1].node == "mistaken-call-stands"
    assert "The card played stays played" in state.rulings[-1].text
    assert {"47E2(a)", "47F2"} <= set(state.rulings[-1].laws)
    alone = answer("misinformation", {"agreement": "call", "mistaken-call": "no"})  # started on its own: no stage known
    assert "stays played" not in alone.rulings[-1].text and "47F2" not in alone.rulings[-1].laws


def test_dummy_who_calls_the_director_is_in_order_only_after_another_player_drew_attention() -> None:
    # Walk 29, #45 (H25:45): no answer said "dummy called the Director", and nothing asked whether someone else
    # had drawn attention first: 43A1(a) forbids dummy to initiate the call, 9B1(b) lets dummy call after that.
    allowed = answer("dummy-rights", {"what-happened": "called", "called-after": "yes"})
    assert allowed.finished and "did nothing wrong" in allowed.rulings[-1].text
    assert allowed.rulings[-1].laws == ("43A1(a)", "9B1(b)")
    first = answer("dummy-rights", {"what-happened": "called", "called-after": "no", "called-whose": "declarer"})
    assert ("dummy-rights", "called-first") in first.trail  # the 43A1(a) note was read out
    assert first.finished and "procedural penalty" in first.rulings[-1].text


def test_a_defective_trick_ruling_tells_the_director_to_rule_partners_wrong_count_too() -> None:
    # Walk 29, #35 (H25:35): East still held two cards at trick 13 and West none: 67B1 for East and 67B2 for West,
    # but one answer ruled one half and nothing said West's extra card goes back to his hand.
    none_played = answer(
        "defective-trick", {"when": "yes", "found": "no-card", "has-suit": "yes", "won-later": "yes", "equity": "no"}
    )
    assert "rule on that player's count too: Law 67B2" in none_played.rulings[-1].text
    two_played = answer("defective-trick", {"when": "yes", "found": "extra-card", "restore": "none"})
    assert "rule on that player's count too: Law 67B1" in two_played.rulings[-1].text


def test_a_card_of_declarers_reached_through_the_defenders_chart_is_never_a_penalty_card() -> None:
    # Walk 41, 29b (WRONG): "declarer's 7 of hearts fell out of his hand" was offered the defender's chart first,
    # and its questions made the card a minor penalty card; 48A: no card of declarer's or dummy's hand ever is.
    state = answer("defender-exposes-card", {"how": "declarer"}, until="declarer-exposes-cards/what")
    assert state.chart.id == "declarer-exposes-cards"
    assert "48A" in note(state, "defender-exposes-card/declarer-card-note").laws


def test_a_penalty_card_whose_suit_declarer_had_required_or_prohibited_need_not_be_played() -> None:
    # Walk 42, 53b (WRONG): a defender kept the queen of spades after declarer had prohibited spades; the chart
    # ordered the queen substituted (52B2). 50D2(a): once declarer chooses, the card is picked up, no penalty card.
    state = answer("penalty-card", {"situation": "not-played", "not-played-entry": "yes"})
    assert state.finished and state.rulings[-1].laws == ("50D2(a)", "50E2")
    assert "stands" in state.rulings[-1].text


def test_dummy_plays_a_card_after_declarer_named_only_a_suit_the_lowest_of_it_is_played() -> None:
    # Walk 40, 17c (WRONG): declarer said "heart" and dummy pulled out the ace; "declarer had named none" let
    # declarer now name any card. 45D1 withdraws the ace, and 46B2 deems the lowest heart called.
    told = {"what-happened": "wrong-card", "next-trick": "no", "declarer-named": "incomplete"}
    state = answer("card-from-dummy", {**told, "incontrovertible": "no", "what-said": "suit", "suit-only": "yes"})
    assert state.finished and "46B2" in state.rulings[-1].laws
    # Walk 60, #21: dummy's card is withdrawn only if it is not the card 46B designates (the ace is not).
    assert "If dummy placed another card, it must be withdrawn" in ruling_text(state)
    assert "45D1" in Engine(load_charts()).ruling_laws(state)


def test_dummy_who_looked_at_a_hand_and_then_points_out_a_defenders_revoke_gets_no_trick_transfer() -> None:
    # Walk 42, #52 (H29:52): the revoke chart never asked who drew attention, so a dummy who had broken 43A2 still
    # got the automatic transfer. 43B3: no immediate rectification; only the defenders' gain is taken away.
    established = {"what-happened": "revoke", "trick-twelve": "no", "established": "yes", "when-noticed": "in-time"}
    lost = answer(
        "revoke",
        {**established, "kind-of-revoke": "dummy-drew", "dummy-drew": "lost", "dummy-drew-end": "yes"},
    )
    assert lost.rulings[-1].node == "dummy-drew-adjust" and "adjusts only the defenders' score" in lost.rulings[-1].text
    assert "There is no trick transfer" in lost.rulings[-1].text
    assert {"43B3", "43B1"} <= set(Engine(load_charts()).ruling_laws(lost))
    kept = answer("revoke", {**established, "kind-of-revoke": "dummy-drew", "dummy-drew": "kept"}, until="revoke-trick")
    assert "liable to a procedural penalty" in ruling_text(kept)


def test_withdrawing_agreement_to_a_claim_explains_likely_apart_from_careless_or_inferior() -> None:
    # Walk 50, #65 (H30:65): "would it likely have won it had play continued" (69B2) had no help, and a director
    # could judge it by Laws 70 and 71's "normal play, careless or inferior for the class of player involved".
    asked = load_charts()["claim"].nodes["withdraw-agreement"]
    assert "class of player involved" in asked.help and "In doubt, the agreement stands" in asked.help


def test_a_hand_left_with_a_card_after_the_last_trick_goes_from_wrong_number_of_cards_to_defective_trick() -> None:
    # Walk 48, 5b (H30:5): the last trick was turned and South still held a card, 13 cards dealt; the
    # wrong-number-of-cards chart offered first had no answer for a hand that failed to play to a trick (Law 67).
    state = answer("wrong-number-of-cards", {"what-wrong": "skipped"}, until="defective-trick/when")
    assert state.chart.id == "defective-trick" and state.node.id == "when"


def test_a_faced_card_beside_partners_face_down_opening_lead_is_an_opening_lead_out_of_turn() -> None:
    # Walk 54, #59 (H33:59): West faced the ♣J as East, on lead, slid the ♦6 face down. Read as simultaneous plays
    # (58A), the ♦6 stood and the ♣J was a premature play; Law 54 rules it and gives declarer its options.
    state = answer("simultaneous-plays", {"what": "opening-lead"}, until="opening-lead-out-of-turn/who-led")
    assert state.chart.id == "opening-lead-out-of-turn"
    assert "goes back to its player's hand" in note(state, "faced-opening-lead").text
