"""The engine walks charts exactly as the flowchart says, and refuses answers that do not fit."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import take

from bot.dialogs import Engine, StaleAnswer, Step
from bot.dialogs.engine import ChartMismatch
from bot.dialogs.model import Paragraph, Park, Question, Repeat, Ruling
from bot.dialogs.render import outcome_texts, seats_line


def test_answers_fill_variables_into_the_text(engine: Engine) -> None:
    walk = take(engine, engine.begin("demo-main"), "rho")
    assert walk.node.id == "card"  # the note asks nothing: its text goes with the next question
    assert [n.text for n in walk.notes] == ["The card of the right-hand opponent stays face up on the table."]


def test_a_ruling_ends_the_dialogue_with_its_laws(engine: Engine) -> None:
    walk = take(engine, engine.begin("demo-main"), "lho", "small")
    assert walk.finished
    assert [(r.text, r.laws) for r in walk.rulings] == [("A minor penalty card for the left-hand opponent.", ("50C",))]


def test_a_jump_passes_variables_and_returns_to_the_caller(engine: Engine) -> None:
    walk = take(engine, engine.begin("demo-main"), "rho", "honour")
    assert walk.rulings[-1].text == "A major penalty card for the right-hand opponent; declarer has lead options."
    assert not walk.finished and isinstance(walk.node, Repeat)
    assert walk.jumps == ["demo-sub"]


def test_a_jump_without_next_ends_the_dialogue_with_the_other_chart(engine: Engine) -> None:
    walk = take(engine, engine.begin("demo-main"), "lho", "honour", "continue", "continue", "yes", "lho")
    assert walk.finished
    assert walk.rulings[-1].chart == "demo-sub" and walk.rulings[-1].laws == ("50B", "50D")


def test_a_sub_chart_started_on_its_own_asks_what_a_caller_would_pass(engine: Engine) -> None:
    walk = engine.begin("demo-sub")
    assert isinstance(walk.node, Question) and walk.node.id == "ask-holder"


def test_repeat_goes_back_and_park_waits(engine: Engine) -> None:
    walk = take(engine, engine.begin("demo-main"), "lho", "honour", "again")
    assert walk.node.id == "card"
    take(engine, walk, "honour", "continue")
    assert isinstance(walk.node, Park) and walk.parked and walk.status == "parked"
    take(engine, walk, "continue")
    assert walk.node.id == "damaged" and walk.status == "open"


@pytest.mark.parametrize(
    ("node", "option"),
    [("card", "lho"), ("who", "nonsense"), ("who", "")],
)
def test_an_answer_that_does_not_fit_changes_nothing(engine: Engine, node: str, option: str) -> None:
    walk = engine.begin("demo-main")
    with pytest.raises(StaleAnswer):
        engine.take(walk, Step("demo-main", node, option))
    assert walk.node.id == "who" and walk.steps == []


def test_nothing_can_be_answered_after_the_ruling(engine: Engine) -> None:
    walk = take(engine, engine.begin("demo-main"), "lho", "small")
    with pytest.raises(StaleAnswer):
        engine.take(walk, Step("demo-main", "card", "small"))


def test_change_keeps_later_answers_while_the_path_is_the_same(engine: Engine) -> None:
    walk = take(engine, engine.begin("demo-main"), "lho", "honour", "continue")
    steps = engine.change("demo-main", walk.steps, 0, "rho")
    assert [s.option for s in steps] == ["rho", "honour", "continue"]
    changed = engine.walk("demo-main", steps)
    assert changed.rulings[-1].text.endswith("right-hand opponent; declarer has lead options.")


def test_change_drops_later_answers_where_the_path_changes(engine: Engine) -> None:
    walk = take(engine, engine.begin("demo-main"), "lho", "honour", "continue")
    steps = engine.change("demo-main", walk.steps, 1, "small")
    assert [s.option for s in steps] == ["lho", "small"]
    assert engine.walk("demo-main", steps).finished


def test_replaying_steps_that_no_longer_fit_the_chart_is_reported(engine: Engine) -> None:
    with pytest.raises(ChartMismatch):
        engine.walk("demo-main", [Step("demo-main", "who", "lho"), Step("demo-main", "gone", "x")])


def test_a_when_paragraph_is_read_only_for_its_value(engine: Engine) -> None:
    """A ruling's paragraph for one value of a variable follows its words only when the variable has that value."""
    chart = engine.charts["demo-main"]
    minor = chart.nodes["minor"]
    assert isinstance(minor, Ruling)
    with_when = dataclasses.replace(minor, when={"offender": {"lho": Paragraph("The left-hand opponent leads next.")}})
    changed = Engine(
        {**engine.charts, "demo-main": dataclasses.replace(chart, nodes={**chart.nodes, "minor": with_when})}
    )
    lho = take(changed, changed.begin("demo-main"), "lho", "small")
    rho = take(changed, changed.begin("demo-main"), "rho", "small")
    assert lho.rulings[-1].text == "A minor penalty card for the left-hand opponent. The left-hand opponent leads next."
    assert rho.rulings[-1].text == "A minor penalty card for the right-hand opponent."


def test_a_when_paragraph_cites_its_laws_only_when_it_is_read(engine: Engine) -> None:
    """A paragraph's own laws follow the ruling's in its laws, and only where the paragraph is read: the laws
    applied cite them too."""
    chart = engine.charts["demo-main"]
    minor = chart.nodes["minor"]
    assert isinstance(minor, Ruling)
    lead = Paragraph("The left-hand opponent leads next.", ("50D",))
    with_when = dataclasses.replace(minor, when={"offender": {"lho": lead}})
    changed = Engine(
        {**engine.charts, "demo-main": dataclasses.replace(chart, nodes={**chart.nodes, "minor": with_when})}
    )
    lho = take(changed, changed.begin("demo-main"), "lho", "small")
    rho = take(changed, changed.begin("demo-main"), "rho", "small")
    assert lho.rulings[-1].laws == ("50C", "50D") and changed.ruling_laws(lho)[:2] == ("50C", "50D")
    assert rho.rulings[-1].laws == ("50C",) and "50D" not in changed.ruling_laws(rho)


def test_a_finished_walk_reads_aloud_the_notes_it_passed_then_its_rulings(engine: Engine) -> None:
    """The note shown above an earlier question (the card stays face up) is part of the ruling read at the end."""
    walk = take(engine, engine.begin("demo-main"), "rho", "small")
    assert outcome_texts(walk) == (
        "The card of the right-hand opponent stays face up on the table.",
        "A minor penalty card for the right-hand opponent.",
    )


@pytest.mark.parametrize(
    ("offender", "side", "expected"),
    [
        (
            "S",
            None,
            "South is the offender: North is the offender's partner, West the left-hand opponent (LHO) and"
            " East the right-hand opponent (RHO); East–West are the non-offending side.",
        ),
        (
            "w",
            "NS",
            "West is the offender: East is the offender's partner, North the left-hand opponent (LHO) and"
            " South the right-hand opponent (RHO); North–South are the non-offending side.",
        ),
        (None, "EW", "East–West are the non-offending side."),
        (None, None, ""),
    ],
)
def test_the_seats_of_a_rulings_roles(offender: str | None, side: str | None, expected: str) -> None:
    """The offender's partner sits opposite, the LHO is next to call (clockwise): read before the ruling."""
    assert seats_line(offender, side) == expected
