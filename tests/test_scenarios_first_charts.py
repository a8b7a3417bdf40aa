"""Real table cases walked through the first charts: the ruling a director would give, with its laws."""

from __future__ import annotations

import pytest
from conftest import answer, note, ruling_text

from bot.dialogs import load_charts
from bot.dialogs.engine import Engine
from bot.dialogs.paths import enumerate_paths
from bot.dialogs.render import outcome_texts
from bot.dialogs.scenario import UnnamedAnswer


def test_loot_by_the_wrong_defender_declarer_spreads_and_becomes_dummy() -> None:
    state = answer(
        "opening-lead-out-of-turn",
        {
            "who-led": "defender",
            "told-to-lead": "no",
            "dummy-seen": "no",
            "began-spreading": "no",
            "declarer-options": "spread",
        },
    )
    assert state.finished
    assert "becomes dummy" in state.rulings[-1].text and "presumed dummy becomes declarer" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("54A",)


def test_loot_declarer_is_told_to_choose_without_consulting_dummy() -> None:
    # The seventh walk: a lead accepted on dummy's advice; 10C2 was never named.
    node = load_charts()["opening-lead-out-of-turn"].nodes["declarer-options"]
    assert "10C2" in node.laws and "without consulting dummy" in (node.help or "")


def test_loot_when_declarer_has_begun_to_spread_the_whole_hand_is_spread() -> None:
    state = answer(
        "opening-lead-out-of-turn",
        {"who-led": "defender", "told-to-lead": "no", "dummy-seen": "no", "began-spreading": "yes"},
    )
    assert state.rulings[-1].laws == ("54A",)


def test_loot_accepted_second_card_from_declarers_hand() -> None:
    state = answer(
        "opening-lead-out-of-turn",
        {
            "who-led": "defender",
            "told-to-lead": "no",
            "dummy-seen": "no",
            "began-spreading": "no",
            "declarer-options": "accept",
        },
    )
    assert "second card to the trick is played from declarer's hand" in state.rulings[-1].text
    assert {"54B", "53A"} <= set(state.rulings[-1].laws)


def test_loot_already_accepted_when_declarer_played_a_card_to_it() -> None:
    # Seed 001: dropping or playing a card is not spreading the hand; a play from the next hand accepts the lead.
    state = answer(
        "opening-lead-out-of-turn",
        {"who-led": "defender", "told-to-lead": "no", "dummy-seen": "no", "began-spreading": "accepted"},
    )
    assert state.finished and "accepted and stands as a correct lead" in state.rulings[-1].text
    assert "53A" in state.rulings[-1].laws


def test_loot_when_declarer_saw_dummy_the_lead_must_be_accepted() -> None:
    state = answer("opening-lead-out-of-turn", {"who-led": "defender", "told-to-lead": "no", "dummy-seen": "yes"})
    assert "must accept the lead" in state.rulings[-1].text and "54C" in state.rulings[-1].laws


def test_loot_refused_makes_a_major_penalty_card_with_declarers_lead_options() -> None:
    state = answer(
        "opening-lead-out-of-turn",
        {
            "who-led": "defender",
            "told-to-lead": "no",
            "dummy-seen": "no",
            "began-spreading": "no",
            "declarer-options": "refuse",
            "penalty-card/how-many": "one",
        },
        until="penalty-card/major-declarer-choice",
    )
    assert state.node.id == "major-declarer-choice"  # the penalty-card chart already knows who is on lead
    walk_on = answer(
        "opening-lead-out-of-turn",
        {
            "who-led": "defender",
            "told-to-lead": "no",
            "dummy-seen": "no",
            "began-spreading": "no",
            "declarer-options": "refuse",
            "penalty-card/how-many": "one",
            "penalty-card/major-declarer-choice": "prohibit",
        },
    )
    assert walk_on.finished and walk_on.rulings[-1].chart == "penalty-card"
    assert "50D2(a)" in walk_on.rulings[-1].laws


def test_loot_after_an_opponent_said_it_was_their_lead_is_retracted_freely() -> None:
    state = answer("opening-lead-out-of-turn", {"who-led": "defender", "told-to-lead": "yes"})
    assert "without further rectification" in state.rulings[-1].text and "47E1" in state.rulings[-1].laws


def test_opening_lead_by_presumed_dummy_cannot_be_accepted() -> None:
    state = answer("opening-lead-out-of-turn", {"who-led": "declaring-side"})
    assert "cannot be accepted" in state.rulings[-1].text and "54E" in state.rulings[-1].laws


def test_insufficient_bid_the_offender_replaced_before_the_director_came_stands_under_27c() -> None:
    # Walk 16 #73 "td not called yet, can he fix it": the replacement made before the Director ruled stands if
    # legal unless LHO accepts the insufficient bid (27C); no one should have acted first (9B2). Both are cited.
    early = {"unintended": "intended", "in-rotation": "in-turn", "lho-accepts": "replaced-early"}
    state = answer("insufficient-bid", {**early, "replacement": "lowest"}, until="play-on-b1")
    passed = {reached.node: reached for reached in state.passed}
    assert state.parked and {"27C", "9B2"} <= set(passed["replaced-early"].laws)


def test_insufficient_bid_corrected_by_the_lowest_sufficient_bid_in_the_same_denomination() -> None:
    # 1NT (1♥) ... the 1♥ bidder did not see the opening; he corrects to 2♥, his partner may call freely.
    state = answer(
        "insufficient-bid",
        {"unintended": "intended", "in-rotation": "in-turn", "lho-accepts": "refuse", "replacement": "lowest"},
        until="play-on-b1",
    )
    assert state.parked  # play on; the director is called back to judge damage (27D)
    done = answer(
        "insufficient-bid",
        {
            "unintended": "intended",
            "in-rotation": "in-turn",
            "lho-accepts": "refuse",
            "replacement": "lowest",
            "damaged-b1": "no",
        },
    )
    assert "lowest sufficient bid in the same denomination(s)" in outcome_texts(done)[0]  # read first, then the score
    assert "The score stands." in done.rulings[-1].text and "27B1(a)" in Engine(load_charts()).ruling_laws(done)


def test_insufficient_bid_lowest_correction_that_helped_partner_is_adjusted() -> None:
    done = answer(
        "insufficient-bid",
        {
            "unintended": "intended",
            "in-rotation": "in-turn",
            "lho-accepts": "refuse",
            "replacement": "lowest",
            "damaged-b1": "yes",
        },
        until="adjusted-score/contest",
    )
    assert done.chart.id == "adjusted-score"
    finished = answer(
        "insufficient-bid",
        {
            "unintended": "intended",
            "in-rotation": "in-turn",
            "lho-accepts": "refuse",
            "replacement": "lowest",
            "damaged-b1": "yes",
            "adjusted-score/contest": "pairs",
            "adjusted-score/can-assign": "single",
            "adjusted-score/self-inflicted": "no",
        },
    )
    assert finished.finished and "ASSIGNED adjusted score" in finished.rulings[-1].text


def test_insufficient_bid_replaced_by_a_pass_goes_through_the_comparable_call_test() -> None:
    state = answer(
        "insufficient-bid",
        {"unintended": "intended", "in-rotation": "in-turn", "lho-accepts": "refuse", "replacement": "other"},
        until="comparable-call/test",
    )
    assert state.chart.id == "comparable-call" and state.node.id == "test"  # offence already known
    state = answer(
        "insufficient-bid",
        {
            "unintended": "intended",
            "in-rotation": "in-turn",
            "lho-accepts": "refuse",
            "replacement": "other",
            "comparable-call/test": "no",
        },
        until="comparable-call/partner-passes-always",
    )
    passed = note(state, "comparable-call/partner-passes-always")
    assert "whenever it is their turn to call" in state.render(passed.text) and "27B2" in passed.laws


def test_insufficient_bid_replaced_by_a_non_comparable_double_silences_partner_throughout() -> None:
    state = answer(
        "insufficient-bid",
        {
            "unintended": "intended",
            "in-rotation": "in-turn",
            "lho-accepts": "refuse",
            "replacement": "double",
            "double-comparable": "no",
        },
        until="partner-passes",
    )
    passed = note(state, "partner-passes")
    assert "cancelled" in state.render(passed.text) and "27B3" in passed.laws
    done = answer(
        "insufficient-bid",
        {
            "unintended": "intended",
            "in-rotation": "in-turn",
            "lho-accepts": "refuse",
            "replacement": "double",
            "double-comparable": "no",
            "lead-restrictions/offender-role": "declaring-side",
            "aware": "no",
            "used-information": "no",
        },
    )
    assert done.finished and "The score stands" in done.rulings[-1].text
    assert "must pass whenever it is their turn to call for the rest of the auction" in outcome_texts(done)[0]
    assert {"27B3", "72C", "16C2"} <= set(done.rulings[-1].laws)


def test_insufficient_bid_replaced_by_a_double_the_opponents_called_over_is_not_unwound() -> None:
    # Walk 35 #97: the non-comparable double was called over and the auction ended before the Director came:
    # no "the offender must replace it" (27B3); the Director decides forfeiture (11A) and the auction stands.
    early = {"unintended": "intended", "in-rotation": "in-turn", "lho-accepts": "replaced-early"}
    over = {**early, "replacement": "double", "double-comparable": "called-over"}
    forfeited = answer("insufficient-bid", {**over, "double-called-over": "forfeited"}, until="forfeited-park")
    assert "auction stands as it went on" in note(forfeited, "players-forfeited").text
    kept = answer("insufficient-bid", {**over, "double-called-over": "not-forfeited"}, until="called-over-stands")
    passed = note(kept, "called-over-stands")
    assert "not replaced now" in passed.text and {"11A", "26B", "72C"} <= set(passed.laws)
    assert "must replace it" not in " ".join(reached.text for reached in kept.passed)


def test_insufficient_bid_accepted_by_lho() -> None:
    state = answer("insufficient-bid", {"unintended": "intended", "in-rotation": "in-turn", "lho-accepts": "accept"})
    assert state.rulings[-1].laws == ("27A1", "27C", "16C2", "16C3")
    # A replacement made before the Director came is cancelled; what it told partner is unauthorized (16C2).
    assert "unauthorized for the offender's partner" in state.rulings[-1].text


def test_unintended_insufficient_bid_goes_to_law_25_without_asking_the_intent_again() -> None:
    state = answer("insufficient-bid", {"unintended": "unintended"}, until="change-of-call/partner-called")
    assert state.chart.id == "change-of-call" and ("change-of-call", "intent") not in state.trail


ESTABLISHED_IN_TIME = {
    "what-happened": "revoke",
    "trick-twelve": "no",
    "established": "yes",
    "when-noticed": "in-time",
}


def test_established_revoke_won_by_the_offender_transfers_two_tricks() -> None:
    # Defender ruffs partner's winner (the revoke trick) and his side wins a later trick: two tricks go over.
    state = answer(
        "revoke",
        {
            **ESTABLISHED_IN_TIME,
            "kind-of-revoke": "none",
            "revoke-trick": "offender",
            "later-after-won": "yes",
            "equity": "no",
        },
    )
    assert state.finished and "(two tricks)" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("64A1",)


def test_declarer_who_swept_the_cards_to_hide_a_revoke_still_gives_two_tricks_and_hears_law_72b3() -> None:
    # Walk9 #86: declarer ruffed, won a later trick, then mixed the played cards to hide the revoke. The transfer
    # is Law 64's as ever; the ruling adds 72B3 (no concealing an infraction) and the penalty powers (90A, 91A).
    state = answer(
        "revoke",
        {
            **ESTABLISHED_IN_TIME,
            "kind-of-revoke": "concealed",
            "revoke-trick": "offender",
            "later-after-won": "yes",
            "equity": "no",
        },
    )
    assert state.finished and "(two tricks)" in state.rulings[-1].text
    read = ruling_text(state)
    assert "may not attempt to conceal an infraction" in read and "disciplinary penalty" in read
    assert Engine(load_charts()).ruling_laws(state)[:4] == ("64A1", "72B3", "90A", "91A")


def test_established_revoke_not_won_by_the_offending_side_transfers_nothing() -> None:
    state = answer(
        "revoke",
        {
            **ESTABLISHED_IN_TIME,
            "kind-of-revoke": "none",
            "revoke-trick": "other",
            "any-won": "no",
            "equity": "no",
        },
    )
    assert "no trick is transferred" in state.rulings[-1].text and "64B1" in state.rulings[-1].laws


def test_established_revoke_not_won_by_the_offender_but_a_later_trick_won_transfers_one() -> None:
    state = answer(
        "revoke",
        {
            **ESTABLISHED_IN_TIME,
            "kind-of-revoke": "none",
            "revoke-trick": "other",
            "any-won": "yes",
            "equity": "no",
        },
    )
    assert "one trick is transferred" in state.rulings[-1].text and "64A2" in state.rulings[-1].laws


def test_revoke_corrected_before_establishment_by_a_defender_gives_a_major_penalty_card() -> None:
    state = answer(
        "revoke",
        {"what-happened": "revoke", "trick-twelve": "no", "established": "no", "who-revoked": "defender"},
        until="defender-corrects",
    )
    assert "major penalty card" in state.render(note(state, "defender-corrects").text)
    state = answer(
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
    assert state.finished and state.rulings[-1].chart == "penalty-card"
    assert "It is a major penalty card" in state.rulings[-1].text


def test_revoke_by_declarer_corrected_without_penalty() -> None:
    # Seed 001: declarer discards, then finds the ace of the suit led: he plays it, the discard goes back to hand.
    state = answer(
        "revoke", {"what-happened": "revoke", "trick-twelve": "no", "established": "no", "who-revoked": "declarer"}
    )
    assert "no further rectification" in state.rulings[-1].text and "62B2" in state.rulings[-1].laws


# An established revoke first pointed out after the round ended (64B5): every walk below starts here.
FOUND_AFTER_THE_ROUND = {
    "what-happened": "revoke",
    "trick-twelve": "no",
    "established": "yes",
    "when-noticed": "too-late",
}


def test_revoke_noticed_after_the_round_gets_only_equity() -> None:
    state = answer(
        "revoke",
        {
            **FOUND_AFTER_THE_ROUND,
            "request-time": "yes",
            "equity": "yes",
        },
        until="equity-adjust",
    )
    assert "64C1" in note(state, "equity-adjust").laws
    done = answer(
        "revoke",
        {
            **FOUND_AFTER_THE_ROUND,
            "request-time": "yes",
            "equity": "yes",
            "adjusted-score/contest": "pairs",
            "adjusted-score/can-assign": "weighted",
            "adjusted-score/self-inflicted": "no",
        },
    )
    assert done.finished and "WEIGHTED" in done.rulings[-1].text


def test_a_revoke_found_too_late_for_a_trick_transfer_cites_the_law_that_says_so_when_the_score_is_adjusted() -> None:
    # Walk11 #75: "revoke found after we moved to next table" was adjusted for damage citing 64C1 alone; why no trick
    # is transferred is 64B5 (after the round) or 64B4 (a non-offender called on the next deal), each on its own.
    adjusted = {"equity": "yes", "adjusted-score/contest": "pairs", "adjusted-score/can-assign": "weighted"}
    after_round = answer(
        "revoke",
        {**FOUND_AFTER_THE_ROUND, "request-time": "yes", **adjusted, "adjusted-score/self-inflicted": "no"},
    )
    read = ruling_text(after_round)
    assert "after the round had ended: there is no automatic trick adjustment" in read
    laws = Engine(load_charts()).ruling_laws(after_round)
    assert "64B5" in laws and "64B4" not in laws and "64C1" in laws
    next_deal = answer(
        "revoke",
        {**FOUND_AFTER_THE_ROUND, "when-noticed": "next-deal", **adjusted, "adjusted-score/self-inflicted": "no"},
    )
    assert "made a call on the next deal" in ruling_text(next_deal)
    laws = Engine(load_charts()).ruling_laws(next_deal)
    assert "64B4" in laws and "64B5" not in laws


def test_revoke_found_after_the_time_for_a_ruling_leaves_the_score_as_entered() -> None:
    # 92B: the right to request a ruling expires 30 minutes after the official score is available. A walk of a
    # revoke found at home the next day went straight to an equity adjustment.
    state = answer(
        "revoke",
        {
            **FOUND_AFTER_THE_ROUND,
            "request-time": "no",
        },
    )
    assert state.finished and "score stands as entered" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("64B5", "92B")


def test_revoke_on_trick_twelve_before_the_hands_are_returned_is_corrected() -> None:
    state = answer("revoke", {"what-happened": "revoke", "trick-twelve": "yes", "twelve-hands": "no"})
    assert "must be corrected, even if established" in state.rulings[-1].text and "62D1" in state.rulings[-1].laws


def test_a_trick_twelve_revoke_corrected_lets_the_non_offenders_take_back_cards_played_after_it() -> None:
    # Walk 46, #73 (H28:73): the hands were still out after trick 13, and the correction never said what becomes of
    # the cards played after the revoke. 62C1: each non-offender may withdraw them; 62C2: then the offending side's
    # next player may withdraw theirs, a penalty card for a defender.
    ruling = answer("revoke", {"what-happened": "revoke", "trick-twelve": "yes", "twelve-hands": "no"}).rulings[-1]
    assert "may then withdraw and return to hand any card they played after the revoke" in ruling.text
    assert "which becomes a penalty card if that player is a defender" in ruling.text
    assert {"62C1", "62C2"} <= set(ruling.laws)


def test_dummy_asking_a_defender_about_a_revoke() -> None:
    state = answer("revoke", {"what-happened": "inquiry"})
    assert "may not ask a defender" in state.rulings[-1].text and "61B2(b)" in state.rulings[-1].laws


def test_dummy_who_peeked_may_still_ask_declarer_about_a_revoke_43b2b_says_what_follows() -> None:
    # 61B2(a): "Dummy may ask declarer [but see Law 43B2(b)]": no ban, a consequence; looking at declarer's hand
    # is no 43A2 breach.
    ruling = answer("revoke", {"what-happened": "inquiry"}).rulings[-1]
    assert "Dummy may ask declarer but" in ruling.text and "not after" not in ruling.text
    assert "declarer's or a defender's hand" not in ruling.text and "43B2(b)" in ruling.laws


def test_both_sides_revoke_on_one_trick_both_corrected() -> None:
    state = answer(
        "revoke", {"what-happened": "revoke", "trick-twelve": "no", "established": "both"}, until="both-same-trick"
    )
    passed = note(state, "both-same-trick")
    assert "both revokes" in state.render(passed.text) and "62C3" in passed.laws


def test_a_question_the_scenario_does_not_name_fails_by_its_name() -> None:
    with pytest.raises(UnnamedAnswer, match=r"told-to-lead asks .* names no answer for it \(options: yes, no\)"):
        answer("opening-lead-out-of-turn", {"who-led": "defender"})


def test_an_answer_the_walk_never_asks_for_fails_the_scenario() -> None:
    # a scenario still naming a question the chart no longer asks on its path has gone another way
    with pytest.raises(UnnamedAnswer, match="never asked for: began-spreading: no"):
        answer(
            "opening-lead-out-of-turn",
            {"who-led": "defender", "told-to-lead": "no", "dummy-seen": "yes", "began-spreading": "no"},
        )


def test_an_answer_that_is_not_an_option_fails_with_the_options() -> None:
    with pytest.raises(UnnamedAnswer, match=r"who-led: 'dummy' is not an option"):
        answer("opening-lead-out-of-turn", {"who-led": "dummy"})


def _laws_applied(chart_id: str, rulings: tuple[str, ...]) -> tuple[str, ...]:
    """The laws a director is shown for the path of a chart that reaches exactly these rulings."""
    charts = load_charts()
    engine = Engine(charts)
    for path in enumerate_paths(charts, chart_id):
        if not path.given and tuple(f"{r.chart}/{r.node}" for r in path.rulings) == rulings:
            return engine.ruling_laws(engine.walk(chart_id, list(path.steps)))
    raise AssertionError(f"no path of {chart_id} reaches {rulings}")


def test_a_ruling_handed_to_shared_charts_names_the_infringed_law_first() -> None:
    # Insufficient bid replaced by a call that silences partner, then damage: Law 27, then 26, then 72C and 12.
    laws = _laws_applied("insufficient-bid", ("lead-restrictions/prohibit-ruling", "adjusted-score/assigned-single"))
    # (Walk 52 #1: a double that is not comparable no longer cites 27B4, a second insufficient bid's law.)
    assert laws[0] == "27B3" and laws.index("26B") < laws.index("72C") < laws.index("12C1(b)")
    # Misinformation found damaging at the end of play: Law 21 (the rectification) before the adjustment.
    laws = _laws_applied("misinformation", ("adjusted-score/assigned-single",))
    assert laws[0].startswith(("21", "75", "40", "20F")) and laws.index("12C1(b)") > 0
