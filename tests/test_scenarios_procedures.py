"""Real table cases walked through the claims, information and procedures charts: the ruling a director
would give, with its laws (situations after the 2017 Laws and seed 001's commentary, in our own words)."""

from __future__ import annotations

from conftest import note, walk


def test_claim_forgetting_an_outstanding_trump_loses_a_trick_to_it() -> None:
    # Declarer claims the rest "all high", a small trump is still out and he never mentioned it.
    state = walk("claim", "claim", "yes", "disputed")
    assert note(state, "repeat-statement")  # the procedure starts by repeating the statement
    state = walk("claim", "claim", "yes", "disputed", "declarer", "yes", "no", "yes", "yes")
    assert "70C" in note(state, "trump-trick").laws
    state = walk(
        "claim",
        *("claim", "yes", "disputed", "declarer", "yes", "no", "yes", "yes"),
        "yes",
    )
    assert state.finished and state.rulings[-1].node == "claim-accepted"
    assert "Continue" not in [a.answer for a in state.answered]  # the procedure's notes went with the questions


def test_claim_needing_an_unstated_finesse_is_reduced() -> None:
    # AJ97 opposite KT86, "all mine", no word about the queen: the finesse is deemed to lose.
    steps = ("claim", "yes", "disputed", "declarer", "no", "unstated-finesse", "no")
    state = walk("claim", *steps)
    assert state.finished
    assert "least successful normal line" in state.rulings[-1].text
    assert {"70A", "70E1"} <= set(state.rulings[-1].laws)


def test_defender_concedes_and_partner_objects_at_once() -> None:
    state = walk("claim", "concession", "yes")
    assert "Neither a concession nor a claim" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("68B2", "16C")


def test_concession_of_a_trick_that_could_not_be_lost_is_cancelled() -> None:
    state = walk("claim", "concession", "no", "yes", "own-concession", "yes", "unlosable")
    assert "cancels the concession" in state.rulings[-1].text and "71B" in state.rulings[-1].laws


def test_wrong_explanation_corrected_by_dummy_after_the_final_pass() -> None:
    # Partner explained 2♦ as natural; it was a transfer. Dummy corrects after the final pass; the last
    # passer may change his pass; at the end the director finds damage and assigns a score.
    state = walk("misinformation", "explanation", "clarification", "yes")
    assert "21B1(a)" in note(state, "change-allowed").laws
    assert state.parked
    state = walk(
        "misinformation",
        *("explanation", "clarification", "yes", "continue", "yes"),
        *("single", "no"),
    )
    assert state.finished and state.rulings[-1].chart == "adjusted-score"
    assert "ASSIGNED" in state.rulings[-1].text and "12C1(b)" in state.rulings[-1].laws


def test_mistaken_call_or_harmless_misinformation_leaves_the_score() -> None:
    state = walk("misinformation", "call", "no")
    assert "result stands regardless of damage" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("75C", "21B1(b)")
    state = walk("misinformation", "explanation", stage="after-play")
    assert state.node.id == "damage"
    state = walk("misinformation", "explanation", "no", "no", stage="after-play")
    assert "score stands" in state.rulings[-1].text and "75B1" in state.rulings[-1].laws


def test_hesitation_with_a_singleton_that_misled_declarer() -> None:
    state = walk("tempo-and-conduct", "misled")
    assert state.parked
    state = walk("tempo-and-conduct", "misled", "continue", "yes", "no", "yes", "not-obvious", "one-side")
    assert state.finished and state.rulings[-1].chart == "adjusted-score"
    assert "AVERAGE MINUS" in state.rulings[-1].text and "88" in state.rulings[-1].laws
    # partner's hesitation, by contrast, is unauthorized information (73C -> 16B)
    assert walk("tempo-and-conduct", "partner-tempo").chart.id == "unauthorised-information"


def test_weighted_score_records_each_result_and_its_weight() -> None:
    state = walk("adjusted-score", "damage", "yes", "weighted", "no")
    assert "WEIGHTED" in state.rulings[-1].text and "12C1(c)" in state.rulings[-1].laws


def test_score_entered_for_the_wrong_side_after_the_correction_period() -> None:
    state = walk("scoring-error", "recorded", "no", "no")
    assert "recorded score stands" in state.rulings[-1].text
    assert state.rulings[-1].laws == ("79C1", "79C2")


def test_appeal_in_pairs_without_partners_agreement_is_not_heard() -> None:
    state = walk("appeal", "yes", "no")
    assert "shall not be heard" in state.rulings[-1].text and "92D1" in state.rulings[-1].laws
    late = walk("appeal", "no")
    assert late.rulings[-1].laws == ("92B",)


def test_directors_wrong_ruling_found_too_late_to_fix_normally() -> None:
    state = walk("director-error", "ruling", "yes", "no")
    assert state.chart.id == "adjusted-score" and "82C" in note(state, "both-non-offending").laws


def test_fouled_board_in_teams_with_one_team_at_fault() -> None:
    state = walk("fouled-board", "yes", "teams", "one")
    assert "average plus" in state.rulings[-1].text and "86B2(b)" in state.rulings[-1].laws
