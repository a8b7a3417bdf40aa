"""Thirty-fourth walks (b): the WRONG ruling of walk 58 (#71) and the RIGHT BUT notes of walks 58 and 59, each walked
as the director would notice it."""

from __future__ import annotations

from conftest import answer, ruling_text

from bot.dialogs import Engine, load_charts
from bot.dialogs.engine import Walk


def laws_applied(walk: Walk) -> tuple[str, ...]:
    return Engine(load_charts()).ruling_laws(walk)


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
        "revoke/what-happened": "revoke",
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
        "unable-to-follow-instruction", {"why": "could-have", "shown-revoke": "no"}, until="revoke/what-happened"
    )
    assert "designates otherwise" not in ruling_text(unshown)
