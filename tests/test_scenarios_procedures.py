"""Real table cases walked through the claims, information and procedures charts: the ruling a director
would give, with its laws (situations after the 2017 Laws and seed 001's commentary, in our own words)."""

from __future__ import annotations

import pytest
from conftest import answer, note, ruling_text

from bot.dialogs import Engine, load_charts
from bot.dialogs.facts import answer_from, read_description
from bot.dialogs.model import ScoreStep
from bot.dialogs.render import outcome_texts
from bot.dialogs.scenario import walk_named
from bot.matching import build_matcher, chart_entries
from bot.rulings import score_usage
from bot.scoring.service import ruling_score_text

# A pairs board that could not be played, one side at fault: the adjusted-score chart's artificial score.
ONE_SIDE_AT_FAULT = {
    "in-time": "yes",
    "ask-reason": "no-result",
    "contest-artificial": "pairs",
    "artificial-fault": "one-side",
}

# A mistaken explanation found after play, nobody at fault for the lateness, and damage: the misinformation chart's
# answers down to the adjusted score.
DAMAGED_AFTER_PLAY = {
    "misinformation/agreement": "explanation",
    "misinformation/ask-stage": "after-play",
    "misinformation/late-who": "no-one",
    "misinformation/damage": "yes",
}


def test_claim_forgetting_an_outstanding_trump_loses_a_trick_to_it() -> None:
    # Declarer claims the rest "all high", a small trump is still out and he never mentioned it.
    state = answer(
        "claim", {"what-said": "claim", "faced-for-claim": "yes", "agreed": "disputed"}, until="repeat-statement"
    )
    assert note(state, "repeat-statement")  # the procedure starts by repeating the statement
    state = answer(
        "claim",
        {
            "what-said": "claim",
            "faced-for-claim": "yes",
            "agreed": "disputed",
            "who-claimed": "declarer",
            "trump-out": "yes",
            "trump-mentioned": "no",
        },
        until="trump-trick",
    )
    assert state.node.id == "trump-trick" and "70C" in state.node.laws
    state = answer(
        "claim",
        {
            "what-said": "claim",
            "faced-for-claim": "yes",
            "agreed": "disputed",
            "who-claimed": "declarer",
            "trump-out": "yes",
            "trump-mentioned": "no",
            "trump-trick": "one",
            "line-stated": "yes",
        },
    )
    # The ruling read aloud gives the trump trick to the defenders; it never says "scored as claimed" alone.
    assert state.finished and state.rulings[-1].node == "claim-less-trump"
    assert "the opponents get one trick" in state.rulings[-1].text and "less one trick" in state.rulings[-1].text
    assert state.rulings[-1].laws[0] == "70C"
    assert "Continue" not in [a.answer for a in state.answered]  # the procedure's notes need no tap


CONTESTED_BY_DECLARER_NO_TRUMP_OUT = {
    "what-said": "claim",
    "faced-for-claim": "yes",
    "agreed": "disputed",
    "who-claimed": "declarer",
    "trump-out": "no",
}


def test_claim_needing_an_unstated_finesse_is_reduced() -> None:
    # AJ97 opposite KT86, "all mine", no word about the queen: the finesse is deemed to lose.
    state = answer(
        "claim",
        {
            **CONTESTED_BY_DECLARER_NO_TRUMP_OUT,
            "line-stated": "unstated-finesse",
            "showed-out": "no",
            "claim-count": "one",
        },
    )
    assert state.finished
    assert "least successful normal line" in state.rulings[-1].text
    assert {"70A", "70E1"} <= set(state.rulings[-1].laws)


def test_contested_3nt_claim_ruling_says_how_many_tricks_and_scores_the_claim_less_them() -> None:
    # Walk 6 #87: South in 3NT claims the last five, "the diamonds are good", but they break 4-1 and the least
    # successful normal line loses one. The ruling read out gives E-W that one trick (70D1), and Score it moves it
    # from the result as claimed, with no example contract the table did not play.
    state = answer(
        "claim",
        {
            **CONTESTED_BY_DECLARER_NO_TRUMP_OUT,
            "line-stated": "no",
            "claim-count": "one",
        },
    )
    ruling = state.rulings[-1]
    assert ruling.node == "claim-reduced" and "the opponents get one trick of the tricks claimed" in ruling.text
    assert "scored as claimed less one trick" in ruling.text and ruling.score == ScoreStep("transfer", 1)
    assert "4S" not in score_usage(ruling.score) and "declarer or defenders" in score_usage(ruling.score)
    assert ruling_score_text("transfer", 1, ["3NT+1", "nv", "declarer"]).startswith("+400 — 3NT= nv")


@pytest.mark.parametrize(
    "path",
    [
        {"what-said": "concession", "defender-concession": "yes", "claim-before": "no"},
        # walk 51, H30:97: a defender's "we get one more" is a claim, and so concedes the rest (68B1); partner
        # objected at once, so neither a concession nor a claim has occurred (68B2), not a disputed claim (70)
        {"what-said": "claim", "faced-for-claim": "yes", "agreed": "partner-objected", "claim-before": "no"},
    ],
)
def test_defender_concedes_and_partner_objects_at_once(path: dict[str, str]) -> None:
    state = answer("claim", path)
    assert "Neither a concession nor a claim" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("68B2", "16B1", "16C")


def test_defender_takes_declarers_shown_claim_but_partner_objects_the_claim_is_contested_not_played_on() -> None:
    # Walk 20, H23:75 branch b: declarer showed her hand (a claim, 68A), one defender said "fine, take the rest",
    # the other objected at once. 68B2 voids only the concession; the claim is doubted (68D2(a)): Law 70.
    conceded = {"what-said": "concession", "defender-concession": "yes", "claim-before": "yes"}
    state = answer("claim", conceded, until="who-claimed")
    assert "claim is not" in note(state, "claim-doubted").text and "68D2(a)" in note(state, "claim-doubted").laws
    rest = {"who-claimed": "declarer", "trump-out": "no", "line-stated": "no", "claim-count": "one"}
    state = answer("claim", {**conceded, **rest})
    assert [a.step.node for a in state.answered][:3] == ["what-said", "defender-concession", "claim-before"]
    assert state.rulings[-1].node == "claim-reduced" and "play continues" not in state.rulings[-1].text
    assert not any("Neither a concession nor a claim" in ruling.text for ruling in state.rulings)


def test_concession_of_a_trick_that_could_not_be_lost_is_cancelled() -> None:
    state = answer(
        "claim",
        {
            "what-said": "concession",
            "defender-concession": "no",
            "agreed": "yes",
            "agreed-later": "own-concession",
            "correction-period-71": "yes",
            "cancel-concession": "unlosable",
            "concession-count": "one",
        },
    )
    assert "concession of one trick is cancelled" in state.rulings[-1].text and "71B" in state.rulings[-1].laws


def test_a_concession_of_two_tricks_that_could_not_be_lost_gives_both_back() -> None:
    # Walk 55, #95 (H33:95): "we conceded the last 2 tricks but had both" was rescored with one trick back; 71B
    # returns each trick that could not be lost, and the ruling's score moves them all.
    conceded = {"what-said": "concession", "defender-concession": "no", "agreed": "yes"}
    conceded |= {"agreed-later": "own-concession", "correction-period-71": "yes", "cancel-concession": "unlosable"}
    state = answer("claim", {**conceded, "concession-count": "two"})
    assert "concession of two tricks is cancelled" in state.rulings[-1].text
    assert state.rulings[-1].score == ScoreStep("transfer", 2)
    state = answer("claim", {**conceded, "concession-count": "more"})
    assert state.rulings[-1].node == "concession-cancelled-many" and state.rulings[-1].score == ScoreStep("table")


def test_opponents_said_ok_then_objected_when_the_claimer_opened_the_next_board_is_a_contested_claim() -> None:
    # Seed 001 on 69A: agreement is not established before the objecting side calls on a later board; Law 70.
    claim = {"what-said": "claim", "faced-for-claim": "yes", "agreed": "yes", "agreed-later": "agreed-loss"}
    state = answer("claim", {**claim, "objection-when": "yes"}, until="who-claimed")
    assert "contested" in note(state, "not-established").text and "70B1" in note(state, "repeat-statement").laws
    state = answer("claim", {**claim, "objection-when": "no"}, until="correction-period-69")
    assert state.node.id == "correction-period-69"


def test_wrong_explanation_corrected_by_dummy_after_the_final_pass() -> None:
    # Partner explained 2♦ as natural; it was a transfer. Dummy corrects after the final pass; the last
    # passer may change his pass; at the end the director finds damage and assigns a score.
    state = answer(
        "misinformation",
        {"agreement": "explanation", "ask-stage": "clarification", "change-call": "yes"},
        until="change-allowed",
    )
    assert "21B1(a)" in note(state, "change-allowed").laws
    state = answer(
        "misinformation",
        {"agreement": "explanation", "ask-stage": "clarification", "change-call": "yes"},
        until="play-on",
    )
    assert state.parked
    state = answer(
        "misinformation",
        {
            "agreement": "explanation",
            "ask-stage": "clarification",
            "change-call": "yes",
            "damage": "yes",
            "adjusted-score/contest": "pairs",
            "adjusted-score/can-assign": "single",
            "adjusted-score/self-inflicted": "no",
        },
    )
    assert state.finished and state.rulings[-1].chart == "adjusted-score"
    assert "ASSIGNED" in state.rulings[-1].text and "12C1(b)" in state.rulings[-1].laws


def test_a_lead_made_after_a_wrong_explanation_may_be_taken_back_until_dummy_faces_a_card() -> None:
    # Walk11 #8: "I led a spade, face up. Before dummy had put her cards down, declarer said … puppet Stayman … Can I
    # take my lead back?" 47E2(a) lets the lead be retracted until dummy faces a card; the chart had one option for
    # "the lead was faced (dummy down or not)" and its ruling never said the lead may be taken back.
    charts = load_charts()
    end = {"damage": "no", "check-ui": "no"}
    for stage in (
        {"ask-stage": "lead-no-dummy"},
        {
            "ask-stage": "auction",
            "auction-who": "partner",
            "auction-change-call": "no",
            "which-side": "declaring",
            "lead-faced": "no-dummy",
        },
    ):
        state = answer("misinformation", {"agreement": "explanation", **stage, **end})
        read = ruling_text(state)
        assert "may take the lead back, without further rectification, and lead again" in read
        assert "no call may be changed now" in read
        assert "47E2(a)" in Engine(charts).ruling_laws(state)
    down = answer("misinformation", {"agreement": "explanation", "ask-stage": "play", **end})
    read = ruling_text(down)
    assert "may take the lead back" not in read and "cannot be retracted once dummy has faced a card" in read


def test_a_correction_while_the_opening_lead_lies_face_down_lets_the_leader_take_it_back() -> None:
    # Walk 25 #37 (H24:37): declarer corrected partner's explanation before the face-down lead was faced; the ruling
    # never said the leader may take the face-down lead back (41A, 47E2(a)), nor that the card is UI for declarer.
    state = answer(
        "explanation-of-calls",
        {
            "what": "partner-wrong",
            "partner-wrong-said": "no",
            "partner-wrong-who": "declaring",
            "misinformation/agreement": "explanation",
            "misinformation/lead-faced": "no",
            "misinformation/change-call": "no",
            "misinformation/damage": "no",
            "misinformation/check-ui": "no",
        },
    )
    read = ruling_text(state)
    assert "opening lead has already been made face down" in read and "take it back" in read
    assert "unauthorized for declarer and dummy" in read
    assert {"41A", "47E2(a)", "16C2"} <= set(Engine(load_charts()).ruling_laws(state))


def test_no_alert_required_and_no_question_asked_is_not_ruled_as_an_explanation_given() -> None:
    # Walk 25, 42b (H24:42): with no alert required and nobody asking, the nearest option ruled that the agreement
    # "was explained correctly and clearly" when nothing was explained. Only a required alert missing is
    # misinformation (21B1(a)); the player could have asked (20F1); no redress for one's own misunderstanding (21A).
    state = answer("misinformation", {"agreement": "no-alert-due"})
    assert state.finished and state.rulings[-1].node == "no-alert-due"
    read = ruling_text(state)
    assert "explained correctly" not in read and "none was given" in read and "the result stands" in read
    assert state.rulings[-1].laws == ("21B1(a)", "20F1", "21A")


def test_mistaken_call_or_harmless_misinformation_leaves_the_score() -> None:
    state = answer("misinformation", {"agreement": "call", "mistaken-call": "no"})
    assert "result stands regardless of damage" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("75C", "21B1(b)")
    state = answer("misinformation", {"agreement": "explanation"}, until="damage", stage="after-play")
    assert state.node.id == "damage"
    state = answer("misinformation", {"agreement": "explanation", "damage": "no", "check-ui": "no"}, stage="after-play")
    assert "score stands" in state.rulings[-1].text and "75B1" in state.rulings[-1].laws


def test_a_correct_clear_explanation_the_player_misunderstood_is_the_players_own_misunderstanding() -> None:
    # Walk 23, #96: a takeout double explained as takeout and taken for penalty. Nobody misbid, so "the call was
    # wrong" did not fit and read out 75C's reason; 21A denies redress for the player's own misunderstanding.
    state = answer("misinformation", {"agreement": "misunderstood"})
    assert state.finished and state.rulings[-1].laws == ("21A",)
    assert "own misunderstanding" in state.rulings[-1].text and "the result stands" in state.rulings[-1].text
    assert "Mistaken call" not in state.rulings[-1].text
    played = answer(
        "retraction-of-card-played",
        {"why": "misexplained", "misexplained": "no", "misinformation/agreement": "misunderstood"},
    )
    assert (
        played.rulings[-1].node == "own-misunderstanding" and "The card played stays played" in played.rulings[-1].text
    )


def test_an_explainer_who_kept_quiet_until_after_play_is_told_when_the_correction_was_due() -> None:
    # Walk7 #93: "Later in the auction I suddenly remembered … kept quiet until the end": when should he have
    # corrected it? Before the end of the Clarification Period (20F4(a)), or during the play if found then (75B2).
    late = {
        "agreement": "explanation",
        "ask-stage": "after-play",
        "late-who": "explainer",
        "damage": "no",
        "check-ui": "no",
    }
    state = answer("misinformation", late)
    read = ruling_text(state)
    assert "before the opening lead is faced, which ends the Clarification Period" in read
    assert "did not correct it in time" in read
    assert "score stands" in state.rulings[-1].text
    assert {"20F4(a)", "75B2"} <= set(Engine(load_charts()).ruling_laws(state))
    asked = answer("misinformation", {"agreement": "explanation"}, until="ask-stage").node
    assert "should have corrected it" in asked.help
    # The partner's own correction after play, passed by the explanation-of-calls chart, is in time: no such words.
    partner = answer(
        "misinformation", {"agreement": "explanation", "damage": "no", "check-ui": "no"}, stage="after-play"
    )
    assert not any("in time" in text for text in outcome_texts(partner))


def test_knowing_partner_misinterpreted_a_call_is_unauthorized_without_asking_for_a_hesitation() -> None:
    """75A: "This knowledge is unauthorized information": the logical-alternative test follows at once."""
    after_play = {"agreement": "explanation", "damage": "no", "check-ui": "yes"}
    state = answer("misinformation", after_play, until="unauthorised-information/suggested", stage="after-play")
    assert state.node.id == "suggested"
    assert "partner-facts" not in [node for _chart, node in state.trail]
    state = answer(
        "misinformation", {"agreement": "call", "mistaken-call": "yes"}, until="unauthorised-information/play-ended"
    )
    assert state.node.id == "play-ended"


def test_a_mistaken_explanation_that_did_not_damage_never_reads_no_infraction() -> None:
    # Walk 20, H23:56 branch d: no damage, the explainer's partner may have used the knowledge (75A), but it
    # suggested nothing. The score stands, yet the mistaken explanation was itself an infraction (75B1).
    answers = {
        "agreement": "explanation",
        "damage": "no",
        "check-ui": "yes",
        "unauthorised-information/suggested": "no",
    }
    state = answer("misinformation", answers, stage="after-play")
    assert state.rulings[-1].node == "not-suggested" and "score stands" in state.rulings[-1].text
    assert not any("No infraction" in text for text in outcome_texts(state))
    assert "no use of the unauthorized information" in state.rulings[-1].text


def test_hesitation_with_a_singleton_that_misled_declarer() -> None:
    state = answer("tempo-and-conduct", {"what": "misled"}, until="misled-park")
    assert state.parked
    state = answer(
        "tempo-and-conduct",
        {
            "what": "misled",
            "false-inference": "yes",
            "bridge-reason": "no",
            "could-know": "yes",
            "adjusted-score/contest": "pairs",
            "adjusted-score/can-assign": "not-obvious",
            "adjusted-score/artificial-fault": "one-side",
        },
    )
    assert state.finished and state.rulings[-1].chart == "adjusted-score"
    assert "AVERAGE MINUS" in state.rulings[-1].text and "88" in state.rulings[-1].laws
    # partner's hesitation, by contrast, is unauthorized information (73C -> 16B)
    assert (
        answer("tempo-and-conduct", {"what": "partner-tempo"}, until="unauthorised-information/partner-facts").chart.id
        == "unauthorised-information"
    )


def test_a_gesture_to_partner_may_also_bring_a_procedural_penalty() -> None:
    # Walk 19 #33: a finger tapped on the table with the pass reached only the information ruling. 73B1 forbids
    # communicating by gestures; 90A allows a procedural penalty besides the rectification.
    chosen = {
        "what": "partner-tempo",
        "unauthorised-information/partner-facts": "yes",
        "unauthorised-information/play-ended": "yes",
        "unauthorised-information/suggested": "yes",
        "unauthorised-information/logical-alternative": "no",
    }
    state = answer("tempo-and-conduct", chosen)
    assert state.finished and "procedural penalty" in ruling_text(state)
    assert {"73B1", "90A"} <= set(Engine(load_charts()).ruling_laws(state))


def test_discourtesy_repeated_after_a_warning_offers_the_disciplinary_powers_of_law_91() -> None:
    # Walk8 #73: the player was warned and carried on. A procedural penalty (90A) is one answer; the Definitions
    # give disciplinary penalties (91A: points, suspension) for courtesy and good order, so the ruling names both.
    ruling = answer("tempo-and-conduct", {"what": "conduct", "conduct": "persistent"}).rulings[-1]
    assert "procedural penalty" in ruling.text and "disciplinary penalty in points" in ruling.text
    assert "suspend the player" in ruling.text and {"90A", "91A", "93B3"} <= set(ruling.laws)


def test_weighted_score_records_each_result_and_its_weight() -> None:
    state = answer(
        "adjusted-score",
        {"in-time": "yes", "ask-reason": "damage", "damaged": "yes", "contest": "teams", "can-assign": "weighted"}
        | {"self-inflicted": "no"},
    )
    assert "WEIGHTED" in state.rulings[-1].text and "12C1(c)" in state.rulings[-1].laws


def test_an_adjusted_score_reads_only_the_paragraphs_of_its_form_of_contest() -> None:
    """A team match hears the team paragraph and IMPs, pairs hear matchpoints, and neither hears the other's."""
    path = {"in-time": "yes", "ask-reason": "damage", "damaged": "yes", "can-assign": "single", "self-inflicted": "no"}
    teams = answer("adjusted-score", {**path, "contest": "teams"}).rulings[-1].text
    pairs = answer("adjusted-score", {**path, "contest": "pairs"}).rulings[-1].text
    individual = answer("adjusted-score", {**path, "contest": "individual"}).rulings[-1].text
    assert "team match" in teams and "individual event" not in teams
    assert "team match" not in pairs and "individual event" not in pairs
    assert "individual event" in individual and "team match" not in individual
    artificial = {"in-time": "yes", "ask-reason": "no-result"}
    imps = {"contest-artificial": "teams", "other-table": "no", "artificial-fault-imps": "one-side"}
    at_imps = answer("adjusted-score", {**artificial, **imps}).rulings[-1].text
    matchpoints = {"contest-artificial": "pairs", "artificial-fault": "one-side"}
    at_pairs = answer("adjusted-score", {**artificial, **matchpoints}).rulings[-1].text
    assert "−3 IMPs" in at_imps and "matchpoints" not in at_imps
    assert "40% of the matchpoints" in at_pairs and "IMPs" not in at_pairs


def _adjusted_laws(answers: dict[str, str]) -> tuple[str, ...]:
    """The laws a director is shown and files for an adjusted score walked with these answers."""
    engine = Engine(load_charts())
    return engine.ruling_laws(walk_named(engine, "adjusted-score", answers, {}, None))


@pytest.mark.parametrize(
    ("contest", "cited", "not_cited"),
    [
        ("pairs", (), ("86B1", "12C3", "89")),
        ("teams", ("86B1",), ("12C3", "89")),
        ("individual", ("12C3", "89"), ("86B1",)),
    ],
)
@pytest.mark.parametrize("kind", ["single", "weighted"])
def test_an_assigned_score_cites_the_laws_of_its_own_form_of_contest(
    kind: str, contest: str, cited: tuple[str, ...], not_cited: tuple[str, ...]
) -> None:
    """A pairs game is never told the team match's Law 86B1, nor a team match the individual event's 12C3 and 89:
    the ruling read and filed cites the law of the paragraph it reads."""
    laws = _adjusted_laws(
        {
            "in-time": "yes",
            "ask-reason": "damage",
            "damaged": "yes",
            "contest": contest,
            "can-assign": kind,
            "self-inflicted": "no",
        }
    )
    assert laws[:2] == ({"single": "12C1(a)", "weighted": "12C1(c)"}[kind], "12C1(b)")
    assert all(law in laws for law in cited) and not any(law in laws for law in not_cited)


def test_only_a_knockout_split_score_cites_its_averaging() -> None:
    """12C4 (non-balancing scores averaged in knockout play) is cited in a knockout match, never in Swiss teams,
    pairs or an individual: the chart asks whether the team match is a knockout (sixth walk's note)."""
    path = {"in-time": "yes", "ask-reason": "damage", "damaged": "yes", "can-assign": "single", "self-inflicted": "yes"}
    assert "12C4" in _adjusted_laws({**path, "contest": "teams", "knockout": "yes"})
    assert "12C4" not in _adjusted_laws({**path, "contest": "teams", "knockout": "no"})
    swiss = answer("adjusted-score", {**path, "contest": "teams", "knockout": "no"})
    assert "knockout" not in ruling_text(swiss).lower()
    assert "12C4" not in _adjusted_laws({**path, "contest": "pairs"})
    assert "12C4" not in _adjusted_laws({**path, "contest": "individual"})


def test_an_artificial_score_cites_imp_play_only_at_imps() -> None:
    """Average plus and minus are ±3 IMPs only at IMP play (12C2(b)); 12C3 only in an individual event."""
    path = {"in-time": "yes", "ask-reason": "no-result", "artificial-fault": "one-side"}
    imps = {"in-time": "yes", "ask-reason": "no-result", "artificial-fault-imps": "one-side"}
    teams = _adjusted_laws({**imps, "contest-artificial": "teams", "other-table": "no"})
    pairs = _adjusted_laws({**path, "contest-artificial": "pairs"})
    individual = _adjusted_laws({**path, "contest-artificial": "individual"})
    assert "12C2(b)" in teams and "12C3" not in teams
    assert "12C2(b)" not in pairs and "12C3" not in pairs
    assert "12C3" in individual and "12C2(b)" not in individual
    assert teams[0] == pairs[0] == individual[0] == "12C2(a)"


def test_a_board_not_played_says_that_unduly_slow_play_may_also_draw_a_procedural_penalty() -> None:
    # Walk 38 #58 (H27): "shouldn't they have been penalised?" for a board not reached through slow play; the
    # average minus / average plus was right (12C2(a)) but nothing said slow play is itself penalised (90B2).
    state = answer("adjusted-score", ONE_SIDE_AT_FAULT)
    assert "played unduly slowly" in ruling_text(state)
    assert {"90A", "90B2"} <= set(Engine(load_charts()).ruling_laws(state))
    too_many = {
        "in-time": "yes",
        "ask-reason": "damage",
        "damaged": "yes",
        "contest": "pairs",
        "can-assign": "not-obvious",
    }
    other = answer("adjusted-score", too_many | {"artificial-fault": "one-side"})
    assert other.rulings[-1].node == "avg-minus-plus" and "unduly slowly" not in ruling_text(other)


def test_an_individual_events_artificial_score_falls_on_both_players_of_the_side_at_fault() -> None:
    """12C3: adjusted scores apply equally to both members of the offending side, even if only one offended."""
    state = answer(
        "adjusted-score",
        {
            "in-time": "yes",
            "ask-reason": "no-result",
            "contest-artificial": "individual",
            "artificial-fault": "one-side",
        },
    )
    assert "BOTH players of the side at fault" in state.rulings[-1].text and "12C3" in state.rulings[-1].laws
    assert "to each player at fault" not in state.rulings[-1].text


def test_a_trick_we_did_not_win_found_at_home_asks_whether_the_correction_period_has_expired() -> None:
    # Walk 45 #37 (H28:37): "now at home I see we were given a trick we did not win" was ruled "corrected (within
    # the Correction Period)" without asking; after expiry only 79C2 corrects it (TO approval, beyond doubt).
    late = {"what": "too-many", "in-period": "no"}
    asked = answer("scoring-error", {"what": "too-many"}, until="in-period")
    assert asked.node.id == "in-period" and "79A2" in note(asked, "too-many").laws
    stands = answer("scoring-error", {**late, "after-period": "no"})
    assert "recorded score stands" in stands.rulings[-1].text
    corrected = answer("scoring-error", {**late, "after-period": "yes"})
    assert corrected.rulings[-1].laws == ("79C2",)
    said = ruling_text(corrected)
    assert "trick their side did not win" in said and "after the Correction Period" in said


def test_score_entered_for_the_wrong_side_after_the_correction_period() -> None:
    state = answer("scoring-error", {"what": "recorded", "in-period": "no", "after-period": "no"})
    assert "recorded score stands" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("79C1", "79C2")


def test_an_adjusted_score_asked_for_after_the_time_for_a_ruling_is_refused() -> None:
    # The eighth walk: a revoke seen in the hand records on the drive home, taken to "A score to adjust", was
    # given an assigned adjusted score with no time question (12A, 92B, 81C3).
    state = answer("adjusted-score", {"in-time": "no"})
    assert "No adjusted score" in state.rulings[-1].text and "score stands as entered" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("12A", "92B", "81C3", "79C1")


def test_the_time_question_also_fits_a_director_correcting_their_own_ruling_later() -> None:
    # Walk 41, #46 (H29:46): a Director changed his own table ruling two days later; the question spoke only of a
    # player's request, and the refusal said the Director "was asked" too late. 81C3: the periods of 79C and 92B.
    asked = load_charts()["adjusted-score"].nodes["in-time"]
    assert "correcting their own ruling" in asked.ask and {"82C", "79C1"} <= set(asked.laws)
    refused = answer("adjusted-score", {"in-time": "no"}).rulings[-1]
    assert "was asked" not in refused.text and "correcting their own ruling included" in refused.text


def test_tricks_disputed_after_the_time_for_a_ruling_leave_the_score_as_entered() -> None:
    # 92B: a trick count disputed by e-mail the next morning was rescored under 79B3 with no time question (the
    # seventh walk's wrong ruling).
    late = {"what": "tricks", "from-claim": "no", "called-in-round": "no"}
    state = answer("scoring-error", {**late, "request-time": "no", "request-late": "no"})
    assert "score stands as entered" in state.rulings[-1].text and state.rulings[-1].laws == ("79B3", "92B")
    in_time = answer("scoring-error", {**late, "request-time": "yes", "convinced": "yes"})
    assert "changed to that result for both sides" in in_time.rulings[-1].text


def test_tricks_disputed_in_the_round_after_one_side_mixed_its_cards_go_to_the_other_side() -> None:
    # Walk 28 #8: South scooped his played cards before the tricks were agreed, and the score chart ruled on the
    # balance of probabilities alone. 66D: if the facts cannot be ascertained and only one side mixed its cards, the
    # Director rules in favour of the other side; 65D: the mixer jeopardizes his claim to doubtful tricks.
    disputed = {"what": "tricks", "from-claim": "no", "called-in-round": "yes"}
    state = answer(
        "scoring-error", {**disputed, "tricks-and-inspection/facts": "no", "tricks-and-inspection/mixed": "one-side"}
    )
    assert "in favour of the other side" in state.rulings[-1].text and state.rulings[-1].laws == ("66D", "65D")
    shown = answer("scoring-error", {**disputed, "tricks-and-inspection/facts": "yes"})
    assert "balance of probabilities" in shown.rulings[-1].text and shown.rulings[-1].laws[0] == "79B2"


def test_an_agreement_explained_wrongly_is_handed_to_the_misinformation_chart_not_ruled_adjusted() -> None:
    # Walk 28 #19: "weak with hearts" against a card saying Multi was ruled "entitled to an adjusted score" under
    # Law 40 without finding the agreement (21B1(b): presume a mistaken explanation) or damage (21B3, 12C1).
    # Walk 35 #76: the presumption is 21B1(b), not 75C (75C is the mistaken call: "the result stands").
    earlier = {"what": "not-disclosed", "how-undisclosed": "yes", "mi-when": "earlier"}
    explained = answer("partnership-understandings", earlier)
    ruling = explained.rulings[-1]
    assert "entitled to an adjusted score" not in ruling.text and "misinformation chart" in ruling.text
    assert ruling.laws == ("21B1(a)", "21B1(b)", "75B1", "21B3")
    card_only = {"what": "not-disclosed", "how-undisclosed": "no", "not-disclosed": "yes"}
    assert "entitled to an adjusted score" in answer("partnership-understandings", card_only).rulings[-1].text


def test_a_missed_alert_found_after_the_hand_asks_about_damage_and_adjusts_not_only_hands_it_on() -> None:
    # Walk 48 #11 (H30:11): a missed alert found on the system card after the hand ended "rule on it with the
    # misinformation chart" and stopped; 21B1(a) makes it misinformation, 75B1 adjusts for damage, 20F5(b) names
    # who had to correct it, and 12C1 says how.
    after = {"what": "not-disclosed", "how-undisclosed": "yes", "mi-when": "after-play"}
    state = answer("partnership-understandings", {**after, "mi-damage": "yes"}, until="adjusted-score/contest")
    assert state.chart.id == "adjusted-score"
    told = note(answer("partnership-understandings", after, until="mi-damage"), "mi-after")
    assert "misinformation" in told.text and "20F5(b)" in told.laws
    assert "score is adjusted" in note(state, "mi-damaged").text
    stands = answer("partnership-understandings", {**after, "mi-damage": "no"}).rulings[-1]
    assert "score stands" in stands.text and stands.laws[0] == "75B1"


def test_an_undisclosed_signalling_agreement_is_asked_about_as_well_as_a_call() -> None:
    # Walk 35 #83: the complaint was about upside-down signals; 40A1(b) covers play agreements too.
    state = answer("partnership-understandings", {"what": "not-disclosed"}, until="how-undisclosed")
    asked = state.chart.nodes["how-undisclosed"]
    assert "card-play agreement (signals)" in asked.ask and "21B1(b)" in asked.laws and "75C" not in asked.laws


def test_a_revoke_found_after_play_is_ruled_by_the_revoke_chart_with_its_time_limit() -> None:
    found = {
        "what": "revoke",
        "revoke/trick-twelve": "no",
        "revoke/established": "yes",
        "revoke/when-noticed": "too-late",
        "revoke/request-time": "no",
    }
    state = answer("scoring-error", found)
    assert state.finished and "score stands as entered" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("64B5", "92B")


def test_appeal_in_pairs_without_partners_agreement_is_not_heard() -> None:
    state = answer("appeal", {"in-time": "yes", "concurrence": "no"})
    assert "shall not be heard" in state.rulings[-1].text and "92D1" in state.rulings[-1].laws
    late = answer("appeal", {"in-time": "no"})
    assert late.rulings[-1].laws == ("92B",)


def test_a_late_appeal_is_also_told_that_both_partners_or_the_captain_must_concur() -> None:
    # Walk7 #89: "the scores had been up for almost an hour … do we both have to agree?" The time limit (92B) ended
    # the walk and 92D was never read: who must concur is now stated before the time is asked.
    late = answer("appeal", {"in-time": "no"})
    read = ruling_text(late)
    assert "both members of the partnership concur" in read and "team captain concurs" in read
    assert Engine(load_charts()).ruling_laws(late)[:1] == ("92B",)
    assert {"92D1", "92D2"} <= set(Engine(load_charts()).ruling_laws(late))


def test_an_appeal_in_time_is_told_how_long_the_right_to_appeal_lasts() -> None:
    # Walk11 #81: "how long do we have to appeal td ruling?" The time (92B) was only in the first question's help:
    # every ruling of the chart now reads it and cites 92B.
    state = answer("appeal", {"in-time": "yes", "concurrence": "pairs-yes", "subject": "judgement", "committee": "no"})
    read = ruling_text(state)
    assert "expires 30 minutes after the official score has been made available for inspection" in read
    assert "unless the Tournament Organizer has specified a different time period" in read
    assert "92B" in Engine(load_charts()).ruling_laws(state)


def test_directors_wrong_ruling_found_too_late_to_fix_normally() -> None:
    state = answer(
        "director-error",
        {"what": "ruling", "in-period": "yes", "score-normally": "no"},
        until="adjusted-score/contest",
    )
    assert state.chart.id == "adjusted-score" and "12A3" in note(state, "director-error/adjust-note").laws
    # director-error asked it already and said so: the adjusted-score chart neither asks again nor repeats it
    # (walk 31, #78: the same note was read twice, once per chart)
    passed = [f"{chart}/{node}" for chart, node in state.trail]
    assert "adjusted-score/scored-normally" not in passed and "adjusted-score/both-non-offending-aloud" not in passed
    assert [n.node for n in state.notes].count("adjust-note") == 1 and len(state.notes) == 1


def test_players_who_dispute_a_ruling_the_director_stands_by_are_sent_to_appeal_not_to_82c() -> None:
    # Walk 39 #81 (H27): 82C corrects a ruling "that the Director subsequently determines to be incorrect"; the
    # option said only "A ruling given was wrong", and players disputing a ruling had no way to the appeal (92A).
    labels = {o.id: o.label for o in load_charts()["director-error"].nodes["what"].options}
    assert labels["ruling"].startswith("The Director now finds")
    state = answer("director-error", {"what": "disputed"}, until="appeal/in-time")
    assert state.chart.id == "appeal" and "92A" in note(state, "through-director").laws
    chosen = {"what": "disputed", "appeal/in-time": "yes", "appeal/concurrence": "pairs-yes", "appeal/subject": "law"}
    state = answer("director-error", chosen)
    assert state.finished and state.rulings[-1].node == "law-point" and "82C" not in state.rulings[-1].laws


def test_a_wrong_rectification_that_can_still_be_corrected_is_no_adjusted_score() -> None:
    # 82C adjusts only "if no rectification will allow the board to be scored normally" (walk 17 #5b: the
    # adjusted-score chart asserted it when reached directly).
    chosen = {"in-time": "yes", "ask-reason": "wrong-rectification"}
    state = answer("adjusted-score", chosen | {"scored-normally": "yes"})
    assert state.finished and "scored normally, with no adjusted score" in state.rulings[-1].text
    assert state.rulings[-1].laws[0] == "82C"
    state = answer("adjusted-score", chosen | {"scored-normally": "no"}, until="contest")
    assert "treating BOTH sides as non-offending" in note(state, "both-non-offending-aloud").text


def test_fouled_board_in_teams_with_one_team_at_fault() -> None:
    state = answer("fouled-board", {"is-fouled": "yes", "scoring": "teams", "team-events/fault": "one"})
    assert "average plus" in state.rulings[-1].text and "86B2(b)" in state.rulings[-1].laws


def test_a_board_marked_with_the_wrong_vulnerability_is_scored_as_marked_once_used() -> None:
    # Walk 19 #5: Law 2's page alone left the answer in its last sentence ("If such board is used, however, the
    # conditions marked on it apply for that session"); a hurried director could score it as its number says.
    state = answer("board-markings", {"used": "yes"})
    assert state.finished and state.rulings[-1].laws == ("2",)
    assert "the conditions marked on it apply for that session" in state.rulings[-1].text
    assert "whatever its number or the hand record says" in state.rulings[-1].text
    unused = answer("board-markings", {"used": "no"})
    assert "corrected before anyone calls on it" in unused.rulings[-1].text
    # copies played in different forms are a fouled board (87A): its scoring question comes next, not its first
    fouled = answer("board-markings", {"used": "differs"}, until="fouled-board/scoring")
    assert fouled.chart.id == "fouled-board" and "87A" in note(fouled, "fouled-note").laws
    assert "fouled-board/is-fouled" not in [f"{chart}/{node}" for chart, node in fouled.trail]
    # reached through the fouled-board chart, a board every table played as marked is not fouled, and scored as marked
    same = answer("fouled-board", {"is-fouled": "no"})
    assert "scored as marked" in same.rulings[-1].text and "2" in same.rulings[-1].laws


def test_a_card_turned_over_while_dealing_is_offered_the_redeal_and_cites_no_count_of_ones_cards() -> None:
    # Walk 28 #6: a card turned over during the deal was offered "Team matches" first and not the wrong-board chart,
    # whose redeal (6D1) cited 7B2 (each player counts his own cards), which does not bear on it.
    told = "while the dealer was dealing, a card flipped over and North saw it; nobody has called yet"
    first = build_matcher(chart_entries()).match(told).candidates[0]
    assert first.charts[0] == "wrong-board"
    chart = load_charts()["wrong-board"]
    assert answer_from(read_description(told), chart, chart.nodes["what-happened"]) == "misdeal"
    assert answer_from(read_description(told), chart, chart.nodes["misdeal-when"]) == "before-auction"
    state = answer("wrong-board", {"what-happened": "misdeal", "misdeal-when": "before-auction", "first-time": "yes"})
    assert "new shuffle and deal" in state.rulings[-1].text and state.rulings[-1].laws == ("6D1", "6B")


def test_a_card_seen_in_the_deal_of_a_board_already_bid_is_not_told_it_may_not_be_redealt_then_offered_it() -> None:
    # Walk 36, 1b (H27:1): the note said the board "may not be redealt", then the 16D2 options offered "Order the
    # board redealt". 6D1's new shuffle and deal ends when the auction begins; 16D2(b) allows a redeal "if the form
    # of competition allows of it".
    walked = {
        "what-happened": "misdeal",
        "misdeal-when": "before-auction",
        "first-time": "no",
        "unauthorised-information/other-when": "before-call",
        "unauthorised-information/interfere": "yes",
        "unauthorised-information/remedy": "redeal",
    }
    state = answer("wrong-board", walked)
    said = ruling_text(state)
    assert state.finished and "may not be redealt" not in said and "no longer applies" in said
    assert "where the form of competition allows" in said and state.rulings[-1].laws == ("16D2(b)",)


def test_a_wrongly_marked_board_is_offered_its_chart_first() -> None:
    told = "board 9 is marked NS vul but by its number it should be EW vul, and two tables have bid on it"
    first = build_matcher(chart_entries()).match(told).candidates[0]
    assert first.law == 2 and first.charts[0] == "board-markings"


def test_a_card_pulled_out_before_her_turn_is_a_breach_of_etiquette_not_nothing() -> None:
    # Walk 24, #25: sighing and a card detached before her turn (74B3) ended in "No violation of procedure is
    # established: there is no rectification"; a breach of courtesy is an infraction, warned, penalized if repeated.
    state = answer("tempo-and-conduct", {"what": "procedure", "violation": "etiquette"})
    assert (
        state.rulings[-1].laws[:2] == ("74B", "90A")
        and "detaching a card before it is their turn" in state.rulings[-1].text
    )


def test_a_gesture_at_partners_call_that_partner_could_use_keeps_the_procedural_penalty() -> None:
    # Walk 49 26b, walk 51 84b (H30:26, H30:84): a groan, eye-rolling at partner's call, confirmed as a 74C
    # violation, ended in the unauthorized-information chart's "score stands" with 74C and 90A dropped.
    gesture = {"what": "procedure", "violation": "yes", "unauthorised-information/partner-facts": "no"}
    state = answer("tempo-and-conduct", gesture)
    read = ruling_text(state)
    assert "violation of correct procedure" in read and "procedural penalty" in read
    assert Engine(load_charts()).ruling_laws(state)[:2] == ("74C", "90A")


def test_staring_at_a_hand_is_found_on_the_first_conduct_menu() -> None:
    # Walk 49 #28 (H30:28): an opponent watching where a player draws his cards from (74C5) had no entry on the
    # first complaint menu; staring appeared only one question later.
    what = load_charts()["tempo-and-conduct"].nodes["what"]
    procedure = next(o for o in what.options if o.id == "procedure")
    assert "staring at a hand" in procedure.label and procedure.next == "violation"


def test_boards_not_moved_are_fetched_and_played_or_scored_artificially() -> None:
    # Walk 23 #51: "N forgot to move the boards" reached only Law 8's text, with no remedy for the waiting table.
    told = "N forgot to move the boards, next table has nothing to play"
    first = build_matcher(chart_entries()).match(told).candidates[0]
    assert first.law == 8 and first.charts[0] == "boards-not-moved"
    now = answer("boards-not-moved", {"found": "play"})
    assert "play them now" in now.rulings[-1].text and now.rulings[-1].laws[:2] == ("8A2", "8B1")
    later = answer("boards-not-moved", {"found": "later"})
    assert later.rulings[-1].laws[0] == "8B2"
    # boards that cannot be played give artificial scores by responsibility (12C2(a)), the scoring question next
    lost = answer("boards-not-moved", {"found": "none"}, until="adjusted-score/contest-artificial")
    assert lost.chart.id == "adjusted-score" and "12C2(a)" in note(lost, "no-result-note").laws


def test_after_a_directors_error_an_artificial_score_is_average_plus_to_both_sides() -> None:
    # 82C: both sides are treated as non-offending, so no fault question and no split score.
    state = answer("adjusted-score", {"contest": "pairs", "can-assign": "not-obvious"}, reason="wrong-rectification")
    assert state.finished and "AVERAGE PLUS to both sides" in state.rulings[-1].text


def test_an_artificial_score_for_too_many_possible_results_cites_12c1d() -> None:
    # Walk 26 #55: after a Director's error a result had been obtained, and with too many possible results the
    # average plus to both cited 12C2(a) alone, whose words are for a board where no result can be obtained. 12C1(d)
    # is what allows an artificial score when the possibilities are numerous or not obvious.
    both = answer("adjusted-score", {"contest": "pairs", "can-assign": "not-obvious"}, reason="wrong-rectification")
    laws = Engine(load_charts()).ruling_laws(both)
    assert both.rulings[-1].node == "avg-plus-both" and "12C1(d)" in laws
    assert "numerous or none is obvious" in ruling_text(both)
    fault = {"contest": "pairs", "can-assign": "not-obvious", "artificial-fault": "one-side"}
    assert "12C1(d)" in Engine(load_charts()).ruling_laws(answer("adjusted-score", fault, reason="damage-found"))
    no_result = {
        "in-time": "yes",
        "ask-reason": "no-result",
        "contest-artificial": "pairs",
        "artificial-fault": "neither",
    }
    assert "12C1(d)" not in Engine(load_charts()).ruling_laws(answer("adjusted-score", no_result))


def test_an_artificial_score_says_the_director_decides_which_side_was_at_fault() -> None:
    # Walk 17 #29: "Who decides who was at fault?" 12C2(a): the Director awards it according to responsibility.
    state = answer("adjusted-score", ONE_SIDE_AT_FAULT)
    assert state.finished and "decided by the Director on the facts found" in ruling_text(state)


def test_one_side_directly_and_the_other_partly_at_fault_get_average_minus_and_average() -> None:
    state = answer(
        "adjusted-score",
        {
            "in-time": "yes",
            "ask-reason": "no-result",
            "contest-artificial": "teams",
            "other-table": "no",
            "artificial-fault-imps": "directly-partly",
        },
    )
    text = state.rulings[-1].text
    assert "AVERAGE MINUS to the side directly at fault and AVERAGE to the side only partly" in text
    assert "−3 IMPs" in text and "0 IMPs" in text and "12C2(c)" in text


def test_a_defender_who_shows_cards_without_meaning_to_claim_has_penalty_cards() -> None:
    state = answer(
        "claim", {"what-said": "claim", "faced-for-claim": "defender-no-claim"}, until="penalty-card/which-card"
    )
    # The note has just made them penalty cards: "a penalty card was not led or played" is not asked.
    assert state.chart.id == "penalty-card" and "situation" not in [node for _chart, node in state.trail]


def test_a_board_not_played_at_this_table_asks_who_was_at_fault_not_86b1() -> None:
    # Walk 47, 98b (H28:98): "Adjusting; the other table has a result" for a board never played at table 2 gave an
    # 86B1 assigned score with no question of fault; 86B3 scores it as 86B2, so the non-offending team gets the
    # better of average plus and an assigned score (86B2(b)).
    state = answer("team-events", {"what": "other-table", "played-here": "no", "fault": "one"})
    assert state.rulings[-1].laws[0] == "86B2(b)" and "whichever is more" in state.rulings[-1].text
    assert "86B3" in Engine(load_charts()).ruling_laws(state)
    played = answer("team-events", {"what": "other-table", "played-here": "yes", "clearly-favourable": "yes"})
    assert played.rulings[-1].laws[0] == "86B1"


def test_no_redeal_in_a_team_match_with_the_other_tables_result_goes_to_86b() -> None:
    # 86A forbids the redeal; the board was played at the other table only, so 86B1, then 86B3 and 86B2.
    state = answer(
        "team-events",
        {
            "what": "redeal",
            "why-redeal": "other",
            "result-known": "yes",
            "played-elsewhere": "yes",
            "clearly-favourable": "no",
            "fault": "one",
        },
    )
    assert state.finished and "86B2(b)" in state.rulings[-1].laws


def test_a_card_missing_before_the_auction_of_a_knockouts_last_board_is_replaced_not_scored_under_86a() -> None:
    # Walk4 #96: the last board of a knockout match, a card missing before the auction, the director wanting a
    # redeal. Law 14A restores the card (or takes it from another pack) and the board is played normally; 86A's
    # adjusted score replaces only a Law 6 redeal, so no artificial score is given.
    state = answer(
        "team-events",
        {
            "what": "redeal",
            "why-redeal": "cards",
            "wrong-number-of-cards/what-wrong": "too-few",
            "wrong-number-of-cards/short-when": "no",
            "wrong-number-of-cards/before-found": "no",
        },
    )
    assert state.finished and state.rulings[-1].node == "before-new-pack"
    read_aloud = " ".join(reached.text for reached in state.passed)
    assert "played normally" in read_aloud and "another pack" in read_aloud
    assert "adjusted" not in read_aloud and "AVERAGE" not in read_aloud
    assert "86A" not in Engine(load_charts()).ruling_laws(state)
    chart = load_charts()["team-events"]
    message = (
        "Knockout teams, last board of the match. At one table a card is found missing from the pack before the "
        "auction; the director wants to have the board reshuffled and redealt for both tables."
    )
    assert answer_from(read_description(message), chart, chart.nodes["why-redeal"]) == "cards"


def test_a_misdealt_last_board_of_a_knockout_is_still_not_redealt_under_86a() -> None:
    state = answer(
        "team-events", {"what": "redeal", "why-redeal": "deal", "result-known": "yes"}, until="played-elsewhere"
    )
    assert "86A" in note(state, "no-redeal").laws


def test_players_who_played_the_wrong_board_in_a_team_match_are_scored_under_86b() -> None:
    state = answer(
        "wrong-board", {"what-happened": "wrong-board", "wrong-board-event": "teams"}, until="team-events/what"
    )
    assert state.chart.id == "team-events"


def test_a_trick_count_disputed_after_the_round_can_still_reach_a_conceded_trick_under_law_71() -> None:
    # 69B and 71 run to the end of the Correction Period, after the round: 79B3 is for disputes with no claim.
    state = answer(
        "tricks-and-inspection",
        {"what": "count", "count-when": "after-round", "claim-involved-late": "yes"},
        until="claim/what-said",
    )
    assert state.chart.id == "claim"


def test_once_the_opening_lead_is_faced_a_misinformed_call_can_no_longer_be_changed() -> None:
    # 17D1 ends the auction period; 21B1(a) then allows no change of call, only 47E2(a)'s retraction.
    state = answer(
        "misinformation",
        {"agreement": "explanation", "lead-faced": "yes"},
        until="play-on",
        stage="clarification",
    )
    assert "47E2(a)" in note(state, "during-play").laws


def test_a_claim_played_out_at_the_claimers_request_is_still_adjudicated() -> None:
    # 68D2(b) needs the non-claiming side's request; otherwise Law 70 (68D2(a)).
    state = answer(
        "claim",
        {"what-said": "claim", "faced-for-claim": "yes", "agreed": "played-on", "who-asked": "claiming"},
        until="repeat-statement",
    )
    assert not state.finished


def test_a_board_played_on_a_call_after_the_final_pass_gets_an_artificial_score() -> None:
    state = answer(
        "inadmissible-call", {"what": "after-final", "after-final": "played"}, until="adjusted-score/contest-artificial"
    )
    assert state.chart.id == "adjusted-score"


def test_a_misdealt_board_already_played_elsewhere_is_not_redealt() -> None:
    state = answer(
        "wrong-board",
        {"what-happened": "misdeal", "misdeal-when": "before-auction", "first-time": "no"},
        until="unauthorised-information/other-when",
    )
    assert state.chart.id == "unauthorised-information"


def test_an_unshuffled_board_found_before_its_first_auction_is_redealt_and_played_not_cancelled() -> None:
    # Twenty-first walk, #4: a sorted board found as the hands came out, before any call. 6D1 gives a new shuffle
    # and deal, which gets a result; 12C2(a)'s artificial scores are only for "no result can be obtained" (6D2:
    # a board already played elsewhere on the sorted deal).
    unshuffled = {"what-happened": "misdeal", "misdeal-when": "unshuffled"}
    first = answer("wrong-board", unshuffled | {"first-time": "yes"})
    assert first.rulings[-1].node == "redeal-unshuffled"
    assert "new shuffle and deal, and the board is played" in first.rulings[-1].text
    assert "12C2(a)" not in first.rulings[-1].laws
    played = answer("wrong-board", unshuffled | {"first-time": "no"})
    assert played.rulings[-1].node == "no-result"
    assert played.rulings[-1].laws[:2] == ("6D2", "12C2(a)")
    assert "results already obtained on the board are cancelled" in played.rulings[-1].text
    # walk 24, #1: a sorted deal bid and played only at this table answers "No" as well: the question says so
    asked = load_charts()["wrong-board"].nodes["first-time"]
    assert "here and at every other table" in asked.ask and "bid here" in asked.options[1].label


def test_a_card_seen_as_a_hand_is_taken_out_of_the_board_gives_16d_options_not_a_compulsory_redeal() -> None:
    # Walk4 #7: RHO took the hand out of the board and saw its ace of spades, no call yet. 6D1's new shuffle and
    # deal covers only a card seen during the shuffle and deal; "thereafter Law 16D applies", where a redeal is
    # one of four options the Director may choose (16D2(b)).
    state = answer(
        "wrong-board",
        {
            "what-happened": "misdeal",
            "misdeal-when": "seen-later",
            "unauthorised-information/other-when": "before-call",
            "unauthorised-information/interfere": "yes",
        },
        until="unauthorised-information/remedy",
    )
    assert any("not a ground for a compulsory redeal" in reached.text for reached in state.passed)
    assert {option.id for option in state.node.options} == {"swap", "redeal", "play", "adjust"}
    redeal = answer(
        "wrong-board",
        {
            "what-happened": "misdeal",
            "misdeal-when": "seen-later",
            "unauthorised-information/other-when": "before-call",
            "unauthorised-information/interfere": "yes",
            "unauthorised-information/remedy": "redeal",
        },
    )
    assert redeal.rulings[-1].laws == ("16D2(b)",) and "6D1" not in redeal.rulings[-1].laws
    chart = load_charts()["wrong-board"]
    told = "my RHO grabbed my hand out of the board and saw the ace of spades, noticed before any call"
    assert answer_from(read_description(told), chart, chart.nodes["misdeal-when"]) is None


def test_only_an_opening_lead_out_of_turn_sends_declarers_faced_hand_to_law_54() -> None:
    # 48B1 is about an opening lead out of turn; declarer facing the hand at trick 6 is 48B2, a possible claim.
    question = load_charts()["claim"].nodes["faced-for-claim"]
    assert next(o.label for o in question.options if o.id == "loot").endswith("after an opening lead out of turn")


def test_a_withdrawn_call_replaced_by_a_comparable_call_is_judged_by_23c_not_the_logical_alternative() -> None:
    # Walk 26 #67 (H24:67): the withdrawn-call branch never asked whether a comparable call replaced the withdrawn
    # one; then "Law 16C2 does not apply, but see C following" (23B), and the test is 23C, not 16C2's.
    told = {"ask-source": "withdrawn", "ask-side": "offending", "withdrawn-comparable": "out-of-rotation"}
    state = answer("unauthorised-information", {**told, "comparable-ended": "yes"}, until="comparable-damage")
    told_aloud = {reached.node: reached.text for reached in state.passed}
    assert "23C" in state.node.laws and "Law 16C does not apply" in told_aloud["comparable-withdrawn-29"]
    assert "logical-alternative" not in [node for _chart, node in state.trail]
    stands = answer("unauthorised-information", {**told, "comparable-ended": "yes", "comparable-damage": "no"})
    assert stands.rulings[-1].node == "comparable-stands" and "score stands" in stands.rulings[-1].text
    laws = Engine(load_charts()).ruling_laws(stands)
    assert {"23B", "23C", "29B"} <= set(laws) and "16C2" not in laws and "27D" not in laws
    damaged = answer(
        "unauthorised-information",
        {**told, "withdrawn-comparable": "insufficient-bid", "comparable-ended": "no", "comparable-damage": "yes"},
        until="adjusted-score/contest",
    )
    assert {"comparable-withdrawn-27", "comparable-adjust-27"} <= {reached.node for reached in damaged.passed}
    # Walk 25 #30: partner's remark (16B1) is not cited as information from a withdrawn action (16C2).
    remark = answer(
        "unauthorised-information",
        {"ask-source": "partner", "partner-facts": "yes", "play-ended": "yes", "suggested": "no"},
    )
    assert remark.rulings[-1].node == "not-suggested" and "16C2" not in Engine(load_charts()).ruling_laws(remark)
    withdrawn = answer(
        "unauthorised-information",
        {**told, "withdrawn-comparable": "no", "play-ended": "yes", "suggested": "no"},
    )
    assert "16C2" in Engine(load_charts()).ruling_laws(withdrawn)


def test_an_adjustment_for_overheard_information_is_worded_as_information_received_not_an_infraction() -> None:
    # Walk 25, 27b (H24:27): information from the next table, adjusted under 16D3/16D2(c), was told as the result
    # most probable "had the infraction not occurred" though nobody at the table had infringed.
    overheard = {"ask-source": "other", "other-when": "after-call", "after-first-call": "play"}
    state = answer(
        "unauthorised-information",
        {**overheard, "affected-after-call": "yes"},
        until="adjusted-score/contest",
    )
    told = {reached.node: reached for reached in state.passed}
    assert "had the information not been received" in told["adjust-affected-after-call"].text
    assert told["adjust-affected-after-call"].aloud and not told["extraneous-terms"].aloud
    # Said once, aloud (walk 62 #73: the director's note repeated it).
    assert '"the infraction", it means the information received' in told["adjust-affected-after-call"].text
    # Walk 34 #65: the whole table overheard the result: no side is the non-receiving one; neither is at fault.
    assert "If both sides received it, neither side is at fault" in told["extraneous-terms"].text
    assert "average plus to both" in told["extraneous-terms"].text and "12C2(a)" in told["extraneous-terms"].laws


def test_damage_from_a_withdrawn_call_or_outside_information_reaches_the_weighted_and_split_scores() -> None:
    """16C3 "assign an adjusted score (see Law 12C1)" and 16D2(c): the whole of 12C1, weighting and 12C1(e)."""
    withdrawn = {
        "ask-source": "withdrawn",
        "ask-side": "offending",
        "withdrawn-comparable": "no",
        "play-ended": "yes",
        "suggested": "yes",
    }
    state = answer(
        "unauthorised-information",
        withdrawn
        | {"logical-alternative": "yes", "damage": "yes"}
        | {"adjusted-score/contest": "pairs", "adjusted-score/can-assign": "weighted"}
        | {"adjusted-score/self-inflicted": "yes"},
    )
    assert "adjust-withdrawn" in [reached.node for reached in state.passed]
    assert state.rulings[-1].node == "split-score"
    outside = {
        "ask-source": "other",
        "other-when": "after-call",
        "after-first-call": "play",
        "affected-after-call": "yes",
    }
    state = answer("unauthorised-information", outside, until="adjusted-score/contest")
    assert note(state, "adjust-affected-after-call") and state.chart.id == "adjusted-score"


def test_information_from_another_table_after_the_first_call_cites_16d3() -> None:
    # Walk 23, #40: after the first call 16D3 sends the Director to 16D2(c) or (d), but the ruling cited only
    # 16D2(c). Before any call 16D2 alone governs, so 16D3 is not cited there.
    engine = Engine(load_charts())
    base = {"ask-source": "other"}
    later = base | {"other-when": "after-call", "after-first-call": "play"}
    stands = answer("unauthorised-information", later | {"affected-after-call": "no"})
    assert engine.ruling_laws(stands)[:2] == ("16D3", "16D2(c)") and "score obtained at the table stands" in (
        stands.rulings[-1].text
    )
    adjusted = later | {"affected-after-call": "yes", "adjusted-score/contest": "pairs"}
    adjusted |= {"adjusted-score/can-assign": "single", "adjusted-score/self-inflicted": "no"}
    assert "16D3" in engine.ruling_laws(answer("unauthorised-information", adjusted))
    artificial = {"adjusted-score/contest-artificial": "pairs", "adjusted-score/artificial-fault": "neither"}
    now = answer(
        "unauthorised-information", base | artificial | {"other-when": "after-call", "after-first-call": "adjust"}
    )
    assert engine.ruling_laws(now)[:2] == ("16D3", "16D2(d)")
    early = base | {"other-when": "before-call", "interfere": "yes", "remedy": "play", "affected": "no"}
    assert "16D3" not in engine.ruling_laws(answer("unauthorised-information", early))


def test_a_partner_who_seems_to_know_of_a_psych_is_a_question_of_disclosure_not_no_information() -> None:
    # Walk 17 (H22:15): a 3-count 1S opening, partner with 14 points passed throughout "as if he knew", "they have
    # done this before". The UI chart's sources all missed and it ended "the score stands"; Law 40C1 adjusts.
    fielded = {"ask-source": "understanding", "partnership-understandings/what": "deviation"}
    fielded |= {"partnership-understandings/artificial-psych": "no", "partnership-understandings/partner-aware": "yes"}
    state = answer("unauthorised-information", fielded | {"partnership-understandings/undisclosed-damage": "yes"})
    assert state.finished and state.rulings[-1].chart == "partnership-understandings"
    assert "adjusts the score" in state.rulings[-1].text and "40C1" in state.rulings[-1].laws
    assert "score stands" not in ruling_text(state)


def test_dummy_disputing_declarers_concession_is_ruled_by_law_71_not_against_a_claimer() -> None:
    # Declarer says "the rest are yours"; dummy objects at once that the last spade is a winner.
    conceded = {"what-said": "concession", "defender-concession": "no", "agreed": "own-side"}
    state = answer("claim", {**conceded, "cancel-concession": "won", "concession-count": "one"})
    assert "own-side-disputes" in [reached.node for reached in state.passed]
    assert state.rulings[-1].node == "concession-cancelled"
    state = answer("claim", {**conceded, "cancel-concession": "losable"})
    assert state.rulings[-1].node == "concession-stands"
    assert "against the claimer" not in " ".join(reached.text for reached in state.passed)


def test_a_claims_unstated_order_in_a_suit_is_deemed_the_regulating_authoritys_order() -> None:
    # 70E2: the Director "shall deem" the suit played in the specified order; other orders count only without one.
    question = load_charts()["claim"].nodes["suit-order"].ask
    assert "deemed played in that order" in question and "only if it specifies" in question
    assert "or by any normal order" not in question


def test_a_claim_accepted_on_an_opponent_known_to_show_out_is_not_called_the_stated_line() -> None:
    # 70E1 accepts an unstated finesse when the opponent concerned had already shown out.
    state = answer(
        "claim",
        {
            **CONTESTED_BY_DECLARER_NO_TRUMP_OUT,
            "line-stated": "unstated-finesse",
            "showed-out": "yes",
        },
    )
    assert state.rulings[-1].node == "claim-accepted" and "stated line" not in state.rulings[-1].text


def test_a_correction_given_away_by_the_explainers_partner_asks_the_21b1_change_while_the_auction_goes_on() -> None:
    # 20F5(a) forbids the correction; once the opponents know, 21B1(a) may still let the misinformed player change.
    # Walk 27 #90: the one yes/no question on it came after the final pass, when the partner had called since.
    told = {"agreement": "explanation", "auction-who": "partner"}
    state = answer("misinformation", told, stage="auction", until="auction-change-call")
    assert not note(state, "partner-silent").aloud
    assert state.node.laws == ("21B1(a)",) and "has their partner not called since" in state.node.ask
    changed = answer("misinformation", {**told, "auction-change-call": "yes"}, stage="auction", until="auction-goes-on")
    allowed = note(changed, "auction-change-allowed")
    assert allowed.aloud and "may change that call" in allowed.text and "21B2" in allowed.laws
    assert changed.parked and "The auction continues" in changed.node.park
    kept = answer("misinformation", {**told, "auction-change-call": "no"}, stage="auction", until="auction-goes-on")
    assert kept.parked and "auction-change-allowed" not in [node for _chart, node in kept.trail]


def test_a_spectators_groan_in_the_auction_reaches_the_16d3_choice_of_the_information_chart() -> None:
    # Walk 25 #26 (H24:26): the ruling stopped at "Law 16D applies" (16D1). After the first call the Director completes
    # the board ready to adjust, or adjusts now (16D3, 16D2(c)/(d)).
    heard = {"what": "spectator", "spectator-information": "yes", "unauthorised-information/other-when": "after-call"}
    state = answer("tempo-and-conduct", heard, until="unauthorised-information/after-first-call")
    assert state.node.laws == ("16D3",)
    played = answer(
        "tempo-and-conduct",
        {
            **heard,
            "unauthorised-information/after-first-call": "play",
            "unauthorised-information/affected-after-call": "no",
        },
    )
    assert played.finished and "spectator" in [reached.node for reached in played.passed]
    assert {"76B", "16D3"} <= set(Engine(load_charts()).ruling_laws(played))
    quiet = answer("tempo-and-conduct", {"what": "spectator", "spectator-information": "no"})
    assert quiet.rulings[-1].node == "spectator-no-information" and "scored normally" in quiet.rulings[-1].text


def test_a_remark_that_cannot_be_established_gives_no_unauthorized_information_and_the_result_stands() -> None:
    # Walk 30 #69: "East says West remarked …, West denies it" with the facts not determined was ruled only "one that
    # lets play continue" (85B), without saying what that means: nothing established, no adjustment.
    state = answer("disputed-facts", {"facts-agreed": "no", "determined": "no"})
    text = state.rulings[-1].text
    assert "no unauthorized information is established" in text and "no adjustment" in text
    assert "result already obtained stands" in text and state.rulings[-1].laws[0] == "85B"


def test_disputed_facts_once_established_hand_over_to_the_chart_of_the_irregularity() -> None:
    # Third walk #49: the pairs disagree whether the 2C card was on the table before East passed. Once the
    # Director has decided the facts (85A1), the call out of rotation is ruled by its own chart, not by "give the
    # rectification of that irregularity's own chart"; and Law 76C1 (spectators) is not quoted.
    state = answer(
        "disputed-facts",
        {"facts-agreed": "no", "determined": "yes", "which-irregularity": "call-out-of-rotation",
         "call-out-of-rotation/what-call": "bid", "call-out-of-rotation/whose-turn": "lho",
         "call-out-of-rotation/called-since": "lho-over"},
    )  # fmt: skip
    assert state.finished and state.rulings[-1].chart == "call-out-of-rotation"
    assert state.rulings[-1].laws == ("29A",)
    laws = Engine(load_charts()).ruling_laws(state)
    assert laws == ("85A1", "85A2", "29A")  # walk 61 #40: rules on the facts found as in Law 84 (85A2)


def test_a_disputed_change_of_call_once_established_hands_over_to_the_change_of_call_chart() -> None:
    # Walk 38, 64b (H27): the facts in dispute were a pass then 2H (Law 25); the list had no change of call, and
    # "Another, or none" ended on "rule on it with its own chart" without naming or reaching one.
    chosen = {"facts-agreed": "no", "determined": "yes", "which-irregularity": "change-of-call"}
    state = answer("disputed-facts", chosen, until="change-of-call/intent")
    assert state.chart.id == "change-of-call"
    labels = {o.id: o.label for o in load_charts()["disputed-facts"].nodes["which-irregularity"].options}
    assert "its own chart" in labels["other"]
    other = {"facts-agreed": "yes", "which-irregularity": "other", "law-covers": "rectification"}
    assert "list of charts" in answer("disputed-facts", other).rulings[-1].text


def test_a_disputed_card_from_dummy_once_established_hands_over_to_the_card_from_dummy_chart() -> None:
    # Walk 42, #67 (H29:67): the dispute was which card declarer had named from dummy (Law 45); the list had no
    # answer for it, and "Another, or none" ended on "rule on it with its own chart" without reaching 45D.
    chosen = {"facts-agreed": "no", "determined": "yes", "which-irregularity": "card-from-dummy"}
    state = answer("disputed-facts", chosen, until="card-from-dummy/what-happened")
    assert state.chart.id == "card-from-dummy"


def test_drawing_trumps_counts_as_mentioning_the_trump_in_a_claim() -> None:
    # The eighth walk: "I'm drawing trumps and the clubs are good", answered "No" to "Did the claimer mention that
    # trump?", gave the defenders a trick that 70C1 gives only when the statement says nothing of the trump.
    node = load_charts()["claim"].nodes["trump-mentioned"]
    assert "drawing trumps" in (node.help or "") and "Answer No only when" in (node.help or "")


def test_partners_explanation_found_right_after_all_is_not_read_out_as_wrong() -> None:
    # The eighth walk (24b): the note "must … tell the opponents that … partner's explanation was wrong" stayed in a
    # ruling whose last answer found the call, not the explanation, wrong (75C: nothing is corrected).
    state = answer(
        "explanation-of-calls",
        {
            "what": "partner-wrong",
            "partner-wrong-said": "no",
            "partner-wrong-who": "declaring",
            "misinformation/agreement": "call",
            "misinformation/mistaken-call": "no",
        },
    )
    said = ruling_text(state)
    assert "Mistaken call, not mistaken explanation" in said
    assert "If the explanation did not match the partnership's agreement" in said


def test_a_deal_that_cannot_be_corrected_in_a_team_match_says_what_score_is_put_down() -> None:
    # Walk9 #16: "Friendly teams match … I had 14 cards from the very start": 13B2 adjusts, but "what score do we put
    # down?" was unanswered. The adjusted score is assigned where the outcome can be judged (12C1(b)) and compared
    # with the other table at IMPs (78B, 86B1); otherwise artificial, +3 or -3 IMPs (12C2(b)).
    found = {
        "what-wrong": "too-many",
        "too-many-when": "called",
        "correctable": "no",
        "adjusted-score/contest": "teams",
    }
    assigned = answer(
        "wrong-number-of-cards",
        {**found, "adjusted-score/can-assign": "single", "adjusted-score/self-inflicted": "no"},
    )
    assert assigned.rulings[-1].chart == "adjusted-score" and "ASSIGNED" in assigned.rulings[-1].text
    read = ruling_text(assigned)
    assert "cannot be corrected and played" in read and "converted to IMPs" in read
    laws = Engine(load_charts()).ruling_laws(assigned)
    assert laws[0] == "13B2" and {"12C1(b)", "86B1", "78B"} <= set(laws)
    artificial = answer(
        "wrong-number-of-cards",
        {**found, "adjusted-score/can-assign": "not-obvious", "adjusted-score/artificial-fault-imps": "one-side"},
    )
    assert "+3 IMPs" in ruling_text(artificial) and "12C2(b)" in Engine(load_charts()).ruling_laws(artificial)


def test_fourteen_cards_found_after_play_gives_average_plus_to_the_side_in_no_way_at_fault() -> None:
    # Walk26 #69: 14 and 12 cards found after play, the TD gave both sides average. 13D cancels the result and
    # adjusts, but the ruling ended there: nobody asked who was at fault, and 12C2(a) gives average plus to a side in
    # no way at fault.
    found = {
        "what-wrong": "too-many",
        "too-many-when": "after-play",
        "all-tables": "yes",
        "adjusted-score/contest": "pairs",
    }
    state = answer(
        "wrong-number-of-cards",
        {**found, "adjusted-score/can-assign": "not-obvious", "adjusted-score/artificial-fault": "one-side"},
    )
    assert state.rulings[-1].chart == "adjusted-score" and "AVERAGE PLUS" in state.rulings[-1].text
    assert "the result is cancelled" in ruling_text(state)
    laws = Engine(load_charts()).ruling_laws(state)
    assert laws[0] == "13D" and "12C2(a)" in laws


def test_fourteen_cards_found_after_the_session_asks_whether_other_tables_played_the_correct_deal() -> None:
    # Walk 46, #65 (H28:65): nine tables, found after the session; 13D was applied without asking whether every table
    # played the board in the same form. If not, it is also a fouled board, its results rated in groups (87B).
    found = {"what-wrong": "too-many", "too-many-when": "after-play"}
    assert answer("wrong-number-of-cards", found, until="all-tables").node.id == "all-tables"
    fouled = answer("wrong-number-of-cards", {**found, "all-tables": "no"}, until="adjusted-score/contest")
    assert "87B" in note(fouled, "fouled-note").laws and "rated separately" in note(fouled, "fouled-note").text
    assert "13D" in note(fouled, "after-play").laws
    same = answer("wrong-number-of-cards", {**found, "all-tables": "yes"}, until="adjusted-score/contest")
    assert [n.node for n in same.notes] == ["after-play"]


def test_a_missing_card_found_after_play_and_owed_to_no_trick_leaves_the_result_standing() -> None:
    # Walk26 65b: a card found on the floor after play, never owed to a trick, was ruled "Play continues." with the
    # play over. 14B2 restores it to the hand; with no revoke and no penalty card the result stands.
    state = answer(
        "wrong-number-of-cards",
        {"what-wrong": "too-few", "short-when": "yes", "after-found": "elsewhere", "restored-card/also": "none"},
    )
    assert state.rulings[-1].node == "restored-found"  # walk 60 #7: the card found, not replaced
    assert "if play has ended, the result stands" in state.rulings[-1].text


def test_a_pair_in_the_wrong_direction_takes_its_seats_and_boards_it_had_not_played_stand() -> None:
    # Law 5 had no chart: "N-S sat E-W against their entry card, boards already played". 5A and 5B make the players
    # responsible for their seats; a board none of them had played keeps its result, one already played is
    # cancelled (15B1); a team match goes to Law 86B.
    charts = load_charts()
    chart = charts["wrong-board"]
    told = "A pair sat in the wrong direction: N-S sat E-W against their entry card, boards already played"
    assert answer_from(read_description(told), chart, chart.nodes["what-happened"]) == "wrong-direction"
    seats = {"what-happened": "wrong-direction", "direction-event": "pairs"}
    stands = answer("wrong-board", {**seats, "direction-played-before": "no"})
    read = ruling_text(stands)
    assert "correct seats for the boards still to be played" in read and "the results stand" in read
    assert Engine(charts).ruling_laws(stands)[:2] == ("5B", "5A")
    replayed = answer("wrong-board", {**seats, "direction-played-before": "yes"}, until="who-at-fault")
    assert note(replayed, "board-cancelled").laws[0] == "15B1" and "cancelled" in note(replayed, "board-cancelled").text
    teams = answer(
        "wrong-board", {"what-happened": "wrong-direction", "direction-event": "teams"}, until="team-events/what"
    )
    assert teams.chart.id == "team-events"


def test_a_wrong_board_the_director_moved_gives_average_plus_and_the_players_fault_is_asked() -> None:
    # Walk 50 #52 / 52b (H30:52): the Director moved the boards and the ruling said only "any contestant deprived
    # ... receives an artificial adjusted score"; 12C2(a) gives average plus to a contestant in no way at fault,
    # and through "Director's error" the chart had lost who caused it.
    played = {"what-happened": "wrong-board", "wrong-board-event": "pairs", "played-before": "yes"}
    moved = answer("wrong-board", {**played, "who-at-fault": "director"})
    assert "AVERAGE PLUS" in moved.rulings[-1].text and moved.rulings[-1].laws == ("15B3", "12C2(a)", "12C2(c)")
    players = {**played, "who-at-fault": "players"}  # the form of contest is not asked again (walk 63 #83)
    asked = answer("wrong-board", players, until="adjusted-score/artificial-fault")
    assert asked.chart.id == "adjusted-score"
    from_error = {"what": "procedure", "procedure": "wrong-board"}
    error = answer("director-error", {**from_error, **{f"wrong-board/{k}": v for k, v in played.items()}})
    assert "AVERAGE PLUS" in error.rulings[-1].text and ("wrong-board", "who-at-fault") not in error.trail


def test_a_deal_found_wrong_at_the_table_before_any_call_is_dealt_again() -> None:
    # Walk11 #31: "we deal our own cards … east finished dealing … counted 14, north had 12" was corrected under
    # 13A1, a card moved to a hand nobody dealt it to. Before the auction first begins, 6D1 deals again; a board
    # dealt before the session or played elsewhere is still corrected under 13A1.
    charts = load_charts()
    chart = charts["wrong-number-of-cards"]
    told = "we deal our own cards at this club. east finished dealing, we all picked up, and she counted 14"
    assert answer_from(read_description(told), chart, chart.nodes["first-play"]) == "yes"
    found = {"what-wrong": "too-many", "too-many-when": "no-call"}
    redeal = answer("wrong-number-of-cards", {**found, "first-play": "yes"})
    assert redeal.rulings[-1].laws[0] == "6D1" and "new shuffle and deal" in redeal.rulings[-1].text
    corrected = answer("wrong-number-of-cards", {**found, "first-play": "no", "seen-card": "no"})
    assert corrected.rulings[-1].laws == ("13A1",) and "played normally" in corrected.rulings[-1].text


def test_the_seen_card_question_says_the_player_with_the_surplus_card_has_usually_seen_it() -> None:
    # Walk 43, #95 (H29:95): a 14-12 deal; the bare question read as "No" and ruled 13A1, though the player holding 14
    # had seen the card that belongs to the short hand (13A2).
    seen = load_charts()["wrong-number-of-cards"].nodes["seen-card"]
    assert "A surplus card belongs to the short hand" in seen.help and "usually" in seen.help


def test_a_player_suspended_for_rude_remarks_is_told_the_courtesy_law_he_broke() -> None:
    # 74A1/74A2 make the remarks an offence; 91A gives the Director the power to suspend for the session.
    chart = load_charts()["procedural-penalty"]
    told = "a player keeps making rude remarks to his partner at the table, everyone can hear"
    assert answer_from(read_description(told), chart, chart.nodes["offence"]) == "discourtesy"
    state = answer("procedural-penalty", {"offence": "discourtesy", "discipline": "suspend"})
    # Walk 57, #50 (H34): the suspension ruling also says how boards left unplayed are scored (12C2(a)).
    assert Engine(load_charts()).ruling_laws(state) == ("91A", "93B3", "12C2(a)", "74A1", "74A2")
    assert "courteous attitude" in ruling_text(state)


def test_hands_put_back_in_the_wrong_pockets_go_to_the_fouled_board_not_the_wrong_direction() -> None:
    # Walk13 #22 (22b): hands turned round inside the board were nearest to "a pair sat in the wrong direction",
    # whose ruling scores each pair as it sat; a board whose hands changed pockets is fouled (87A).
    charts = load_charts()
    chart = charts["wrong-board"]
    told = "the north and south hands had been put in the wrong pockets by someone"
    assert answer_from(read_description(told), chart, chart.nodes["what-happened"]) == "wrong-pockets"
    state = answer("wrong-board", {"what-happened": "wrong-pockets"}, until="fouled-board/is-fouled")
    assert state.chart.id == "fouled-board"


def test_hands_in_the_wrong_pockets_found_before_anyone_played_them_are_put_back_in_their_pockets() -> None:
    # Walk 41, #36b (H29:36): the only answer, "every table played the same deal", scored the board normally and
    # never said to restore the hands to their pockets (7C) before the next table played it.
    state = answer("wrong-board", {"what-happened": "wrong-pockets", "fouled-board/is-fouled": "before-play"})
    assert state.rulings[-1].node == "restore-pockets"
    assert "restored to the pocket of its own compass position" in state.rulings[-1].text
    assert {"7C", "90B6"} <= set(state.rulings[-1].laws)


def test_boards_played_at_the_wrong_table_ask_who_moved_them_north_by_law_8a2() -> None:
    # Walk 15 #65: North carried the boards to the wrong table; the artificial score follows responsibility
    # (12C2(a)), and unless the Director said otherwise North moves the boards (8A2).
    played = load_charts()["wrong-board"].nodes["played-before"]
    assert "8A2" in played.laws and "North player" in played.help


def test_partners_remark_in_the_auction_is_never_read_as_no_infraction_regardless_of_damage() -> None:
    # Walk 21, 14b (H23:14): "I told them partner's 2NT showed both minors; partner said out loud 'no no, it shows
    # 20-21'", the explanation right and the call wrong, ruled "no infraction … the result stands regardless of
    # damage". The remark breaks 20F5(a) and is unauthorized information for the explainer (16B1, 16B3).
    spoke = {"what": "partner-wrong", "partner-wrong-said": "yes", "misinformation/agreement": "call"}
    stands = answer(
        "explanation-of-calls", {**spoke, "misinformation/remark-damage": "no", "misinformation/remark-used": "no"}
    )
    read = ruling_text(stands)
    assert "Law 20F5(a) forbids this" in read and "procedural penalty" in read
    assert "unauthorized information for the explainer" in read
    assert stands.rulings[-1].node == "remark-stands" and "regardless of damage" not in read
    assert "20F5(a)" in Engine(load_charts()).ruling_laws(stands)
    used = answer(
        "explanation-of-calls",
        {**spoke, "misinformation/remark-damage": "no", "misinformation/remark-used": "yes"},
        until="unauthorised-information/suggested",
    )
    assert used.node.id == "suggested"  # 16B1(a): the logical-alternative test, toward an adjusted score (16B3)
    # Started on its own, the misinformation chart hears of the remark at its mistaken-call question.
    alone = answer("misinformation", {"agreement": "call", "mistaken-call": "remark"}, until="remark-damage")
    assert alone.node.id == "remark-damage"
    # The explanation wrong and corrected aloud in the auction: the misinformed player's change of call (21B1(a)) is
    # considered at once, without asking who pointed out the mistake, and the end of play asks about the remark.
    wrong = {**spoke, "misinformation/agreement": "explanation"}
    state = answer("explanation-of-calls", wrong, until="misinformation/auction-change-call")
    assert "auction-who" not in [node for _chart, node in state.trail]
    assert "21B1(a)" in state.node.laws
    end = {"misinformation/auction-change-call": "no", "misinformation/which-side": "defending",
           "misinformation/damage": "no"}  # fmt: skip
    asked = answer("explanation-of-calls", {**wrong, **end}, until="misinformation/check-remark").node
    assert "from partner's remark in the auction" in asked.ask
    kept = answer("explanation-of-calls", {**wrong, **end, "misinformation/check-remark": "no"})
    assert "Nor did the explainer use partner's remark" in ruling_text(kept)


def test_an_opponent_who_will_not_explain_his_call_is_misinformation_once_the_agreement_is_found() -> None:
    # Walk 36 #19 (H27): "we play it how we play it" had no option; the director reached the ruling only as "own
    # explanation was wrong". 20F1 entitles the asker to know; a failure to disclose is misinformation (75D1).
    refused = {"what": "question", "question": "refused"}
    state = answer("explanation-of-calls", refused, until="misinformation/agreement")
    told = note(state, "question-refused")
    assert "is no answer" in told.text and {"20F1", "75D1"} <= set(told.laws)
    assert "during the auction" not in told.text  # no 20F4(a) duty printed as though it had happened
    chosen = {**refused, **DAMAGED_AFTER_PLAY}
    adjusted = answer("explanation-of-calls", chosen, until="adjusted-score/contest")
    assert adjusted.chart.id == "adjusted-score"


def test_an_explanation_found_wrong_after_the_hand_does_not_read_the_explainers_auction_duty() -> None:
    # Walk 39 #94 (H27): "waiting" explained, the card showed a negative, found after the hand. "A player's own
    # explanation was wrong" read 20F4(a) ("must call the Director before the end of the Clarification Period")
    # into a ruling where nobody had realised anything during the auction.
    chosen = {"what": "found-wrong", **DAMAGED_AFTER_PLAY}
    state = answer(
        "explanation-of-calls",
        chosen
        | {
            "adjusted-score/contest": "pairs",
            "adjusted-score/self-inflicted": "no",
            "adjusted-score/can-assign": "single",
        },
    )
    assert state.finished and "own-wrong" not in [node for _chart, node in state.trail]
    assert "before the end of the Clarification Period" not in ruling_text(state)


def test_which_side_a_silent_partner_is_on_is_asked_only_once_the_auction_is_over() -> None:
    # Walk 21 #14: "Which side will that player be on?" was asked while the bidding was still going on.
    going_on = {"what": "partner-wrong", "partner-wrong-said": "not-yet"}
    state = answer("explanation-of-calls", going_on, until="partner-wait")
    assert state.parked and "after the final pass" in state.node.park
    asked = answer("explanation-of-calls", going_on, until="partner-wrong-who").node
    assert asked.ask.startswith("The auction is over.")
    chart = load_charts()["explanation-of-calls"]
    # "the auction is over" says nothing of what partner said in it, nor does "said aloud" say it was a correction
    over, remark = "partner's explanation of my 3C was wrong, the auction is over", "partner said aloud 'ah, no hearts'"
    for words in (over, remark):
        assert answer_from(read_description(words), chart, chart.nodes["partner-wrong-said"]) is None


def test_a_player_who_read_their_own_notes_in_the_auction_is_asked_about_damage_at_the_end() -> None:
    # Walk 21 #16 (H23:16): an opponent read his notes booklet at his turn to bid; the chart ended at a procedural
    # penalty. What he read is no information 16A1 lets him use; damage is redressed under 12A1.
    state = answer("explanation-of-calls", {"what": "own-system-card"}, until="own-system-card/own-card-play-on")
    assert state.parked and "procedural penalty" in note(state, "own-card").text
    helped = answer(
        "explanation-of-calls",
        {"what": "own-system-card", "own-system-card/own-card-used": "yes", "adjusted-score/contest": "pairs"},
        until="adjusted-score/can-assign",
    )
    assert helped.chart.id == "adjusted-score"
    laws = Engine(load_charts()).ruling_laws(helped)
    assert laws[0] == "20G3" and {"16A1", "12A1"} <= set(laws)
    kept = answer("explanation-of-calls", {"what": "own-system-card", "own-system-card/own-card-used": "no"})
    assert "the score stands" in kept.rulings[-1].text and "90A" in kept.rulings[-1].laws


def test_the_partnership_understandings_chart_reaches_the_ruling_on_consulting_ones_own_system_card() -> None:
    # Walk 41, #35 (H29:35): Law 40 was offered first for "consulted her own system card" and had no answer for it;
    # 40B2(b) forbids it, and the ruling was only in the explanation-of-calls chart.
    state = answer("partnership-understandings", {"what": "own-card", "own-system-card/own-card-used": "no"})
    assert state.rulings[-1].node == "own-card-stands" and "the score stands" in state.rulings[-1].text
    assert "40B2(b)" in Engine(load_charts()).ruling_laws(state)


def test_a_defender_who_knew_partner_misexplained_and_never_corrected_it_is_told_he_broke_20f5() -> None:
    # Walk 30 #71: the opener's partner, a defender, never corrected the explanation (the opponents found the
    # agreement on the card); the only option read "right to … correct the explanation when play ended".
    end = {"damage": "no", "check-ui": "no"}
    told = {"agreement": "explanation", "ask-stage": "after-play", "late-who": "partner-silent-defender", **end}
    state = answer("misinformation", told)
    read = ruling_text(state)
    assert "Never correcting it broke that duty" in read and "procedural penalty may be assessed" in read
    assert "correct the explanation when play ended" not in read
    assert {"20F5(b)(i)", "90A"} <= set(Engine(load_charts()).ruling_laws(state))


def test_a_partner_who_became_declarer_and_kept_quiet_is_told_not_in_the_auction_but_after_the_final_pass() -> None:
    # Walk 22 #85 (H23:85): "we played 3D … I didn't say anything until the end of the hand. Should I have told them
    # during the bidding?" The explainer's duty was read to him ("the player may call the Director before the auction
    # ends"), yet 20F5(a) forbids his correcting it in the auction; 20F5(b)(ii) sets the final pass.
    end = {"damage": "no", "check-ui": "no"}
    partner = {"agreement": "explanation", "ask-stage": "after-play", "late-who": "partner-declaring", **end}
    read = ruling_text(answer("misinformation", partner))
    assert "right to say nothing during the auction" in read and "after the final pass" in read
    assert "waiting until play ended was too late" in read and "before the auction ends" not in read
    defender = answer("misinformation", {**partner, "late-who": "partner-defending"})
    assert "correct the explanation when play ended" in ruling_text(defender)
    assert "20F5(b)(i)" in Engine(load_charts()).ruling_laws(defender)
    explainer = answer("misinformation", {**partner, "late-who": "explainer"})
    assert "did not correct it in time" in ruling_text(explainer)


def test_a_call_out_of_rotation_no_one_noticed_was_accepted_when_lho_called_over_it() -> None:
    # Walk 31, #92 (H25:92): "partner bid when it was not his turn and nobody noticed": no answer to "who drew
    # attention" fitted, and the nearest one rested the result on 11A forfeiture; 29A is the law that decides.
    state = answer("irregularity-procedure", {"who-drew": "nobody", "nobody-what": "call-lho"})
    assert state.finished and state.rulings[-1].laws[0] == "29A"
    assert "result stands" in state.rulings[-1].text and "no obligation" in state.rulings[-1].text


def test_a_player_who_refuses_a_ruling_is_told_it_stands_and_how_to_appeal_and_walking_off_is_law_91() -> None:
    # Walk 29, #48 (H25:48): the penalty for ignoring the Director's instructions never said that the ruling
    # stands, that the remedy is an appeal within the 92B period, or that walking off may be misconduct (91A).
    state = answer("procedural-penalty", {"offence": "refused", "decide": "penalty"})
    assert state.finished and ("procedural-penalty", "refused") in state.trail
    told = Engine(load_charts()).ruling_laws(state)
    assert {"90B8", "92A", "92B", "91A"} <= set(told)
    assert "ruling stands" in ruling_text(state)


def test_the_imp_averages_rule_is_shown_only_at_a_team_match() -> None:
    # Walk 31, #83 (H25:83): after "Pairs (matchpoints)" the fault question showed the rule for IMP averages.
    base = {"in-time": "yes", "ask-reason": "no-result"}
    pairs = answer("adjusted-score", {**base, "contest-artificial": "pairs"}, until="artificial-fault")
    teams = answer(
        "adjusted-score", {**base, "contest-artificial": "teams", "other-table": "no"}, until="artificial-fault-imps"
    )
    assert pairs.node.setting is None and teams.node.setting == "imps_for_averages"


def test_a_late_pair_whose_delay_left_boards_unplayed_gets_them_scored_before_the_penalty() -> None:
    # Walk 43, #96: a pair twenty minutes late, two boards not played; the chart ended with a procedural penalty and
    # never scored the boards (12C2(a): artificial adjusted scores by responsibility).
    state = answer(
        "procedural-penalty", {"offence": "late-slow", "late-boards": "yes"}, until="adjusted-score/contest-artificial"
    )
    assert state.chart.id == "adjusted-score" and state.node.id == "contest-artificial"


def test_the_artificial_score_question_names_the_two_sides_and_clears_a_pair_held_up_by_a_slow_pair_elsewhere() -> None:
    # Walk 46, #56 (H28:56): two pairs missed a board because a slow pair at another table held up the movement.
    # "Which describes the two sides?" did not say which two, and read as the slow pair and its victims it gave an
    # innocent pair average minus. 12C2(a): average plus "to a contestant in no way at fault".
    chosen = {"offence": "late-slow", "late-boards": "yes", "adjusted-score/contest-artificial": "pairs"}
    state = answer("procedural-penalty", chosen, until="adjusted-score/artificial-fault")
    assert "the two sides who were to play this board against each other" in state.node.ask
    assert "kept from playing the board by a late or slow contestant at another table is in no way at fault" in (
        " ".join(state.node.help.split())
    )
    chosen |= {"adjusted-score/artificial-fault": "neither", "decide": "penalty"}
    ruled = answer("procedural-penalty", chosen)
    assert any(r.node == "avg-plus-both" for r in ruled.rulings) and ruled.rulings[-1].node == "penalty"


def test_the_own_system_card_chart_first_confirms_a_card_was_consulted_and_points_an_explanation_elsewhere() -> None:
    # Walk 45, 41b (H28:41): offered first for a "never discussed" explanation, the chart assumed a card had been
    # consulted and ruled "the score stands"; the misinformation (75C, 21B3) was never reached.
    chart = load_charts()["own-system-card"]
    state = answer("own-system-card", {"consulted": "no"})
    ruling = state.rulings[-1]
    assert ruling.node == "not-consulted" and "No player consulted" in ruling.text
    assert "misinformation chart" in ruling.text and "score stands" not in ruling.text
    told = read_description("during the auction she consulted her own system card before bidding")
    assert answer_from(told, chart, chart.nodes["consulted"]) == "yes"
    from_explanation = answer(
        "explanation-of-calls", {"what": "own-system-card"}, until="own-system-card/own-card-used"
    )
    assert ("own-system-card", "consulted") not in from_explanation.trail


def test_a_habitual_mannerism_not_shown_to_be_a_code_breaks_73b1_and_the_pair_is_warned() -> None:
    # Walk 44, 19b (H28:19): bidding cards slanted when strong, straight when weak, all evening; with no code shown
    # the only other answer judged one board's information and never said the manner itself breaks 73B1.
    chosen = {"what": "signals", "prearranged": "habitual"}
    state = answer("tempo-and-conduct", chosen, until="unauthorised-information/partner-facts")
    told = note(state, "mannerism")
    assert "breaks that law even when no code is shown" in told.text and "warned" in told.text
    assert told.laws[0] == "73B1" and "90A" in told.laws
    chosen |= {"unauthorised-information/partner-facts": "no"}
    ruled = answer("tempo-and-conduct", chosen)
    assert ruled.finished and Engine(load_charts()).ruling_laws(ruled)[0] == "73B1"
