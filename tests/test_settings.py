"""Club and regulating-authority rules in the charts: a question that names a regulation shows what the club's
authority says, or is answered by it, under every authority; a club overrides one rule at a time."""

from __future__ import annotations

import pytest

from bot.dialogs import Dialogs, Screen, load_charts
from bot.dialogs.engine import Step
from bot.dialogs.model import Question
from bot.dialogs.paths import enumerate_paths
from bot.dialogs.regulations import Regulation, load_regulations
from bot.dialogs.render import answer_words
from bot.laws import load_lawbook
from bot.matching import build_matcher, chart_entries
from bot.rulings import Rulings
from bot.rulings.settings import (
    NO_CLUB,
    SettingError,
    authorities,
    check_setting,
    lint_authorities,
    regulation_settings,
)
from bot.store import Club, Store
from bot.telegram.render import question_html
from bot.terminal import TerminalChat

CHARTS = load_charts()
NAMED = sorted(
    (chart.id, node.id)
    for chart in CHARTS.values()
    for node in chart.nodes.values()
    if isinstance(node, Question) and node.setting
)


def club(authority: str, **settings: object) -> Club:
    return Club(7, "Riverside", authority, dict(settings), None)


def steps_to(chart_id: str, node_id: str) -> list[Step]:
    """The answers of one path of the chart up to the question ``node_id``."""
    for path in enumerate_paths(CHARTS, chart_id):
        for index, step in enumerate(path.steps):
            if (step.chart, step.node) == (chart_id, node_id):
                return list(path.steps[:index])
    raise AssertionError(f"no path reaches {chart_id}/{node_id}")


async def walk_to(dialogs: Dialogs, chart_id: str, node_id: str, where: Club | None) -> Screen:
    screen = await dialogs.start("tg:1", chart_id, settings=regulation_settings(where))
    for step in steps_to(chart_id, node_id):
        screen = await dialogs.answer("tg:1", screen.session_id, screen.step, step.option)
    return screen


def test_every_regulation_is_named_by_a_chart_question_and_every_authority_gives_it_a_source() -> None:
    named = {CHARTS[chart].nodes[node].setting for chart, node in NAMED}  # type: ignore[union-attr]
    assert named == set(load_regulations())
    for name, authority in authorities().items():
        for regulation in load_regulations():
            entry = authority["regulations"][regulation]
            assert str(entry["source"]).strip(), f"{name}: {regulation} has no source"
            check_setting(regulation, str(entry["value"]))  # every default is a value a club could set


@pytest.mark.slow
@pytest.mark.parametrize(("chart_id", "node_id"), NAMED)
@pytest.mark.parametrize("authority", [None, *sorted(authorities())])
async def test_a_question_naming_a_regulation_shows_the_authoritys_rule(
    store: Store, chart_id: str, node_id: str, authority: str | None
) -> None:
    """Under every authority (and with no club: the WBF's, saying so) the question is still asked where today's
    chart asks it, with the authority's rule on the screen: no default decides a ruling the Laws leave open."""
    dialogs = Dialogs(store, CHARTS)
    where = club(authority) if authority else None
    screen = await walk_to(dialogs, chart_id, node_id, where)
    node = CHARTS[chart_id].nodes[node_id]
    assert isinstance(node, Question) and node.setting
    assert (screen.chart_id, screen.node_id) == (chart_id, node_id)
    expected = regulation_settings(where)[node.setting].shown
    assert screen.regulation == expected
    assert expected.startswith(f"{authority}: " if authority else f"{NO_CLUB}: ")


ANSWERED = [
    (chart_id, node_id, value, option)
    for chart_id, node_id in NAMED
    for value, option in CHARTS[chart_id].nodes[node_id].setting_answers.items()  # type: ignore[union-attr]
]


@pytest.mark.parametrize(("chart_id", "node_id", "value", "option"), ANSWERED)
@pytest.mark.parametrize("authority", sorted(authorities()))
async def test_a_club_rule_that_answers_a_question_takes_its_path(
    store: Store, chart_id: str, node_id: str, value: str, option: str, authority: str
) -> None:
    """A club that sets the rule has the question answered from it, marked so, and the walk goes on from the
    option it gives; the record keeps where the answer came from, and a new process reads it back."""
    node = CHARTS[chart_id].nodes[node_id]
    assert isinstance(node, Question) and node.setting
    dialogs = Dialogs(store, CHARTS)
    screen = await walk_to(dialogs, chart_id, node_id, club(authority, **{node.setting: value}))
    taken = screen.from_settings
    assert [(a.step.node, a.step.option) for a in taken] == [(node_id, option)]
    assert taken[0].said == f"Riverside: {load_regulations()[node.setting].words(value)}"
    assert answer_words(taken[0]).endswith(f"({taken[0].said})")
    target = next(o.next for o in node.options if o.id == option)
    assert screen.node_id == target or screen.finished
    again = await Dialogs(store, CHARTS).screen("tg:1", screen.session_id)  # replayed from the log
    assert again.path == screen.path
    events = await store.events(screen.session_id)
    assert events[-1].kind in ("answer", "ruling") and any(e.data.get("source") == "setting" for e in events)


async def test_a_director_can_change_an_answer_the_rules_gave(store: Store) -> None:
    dialogs = Dialogs(store, CHARTS)
    screen = await walk_to(dialogs, "appeal", "committee", club("ACBL", appeal_committee="director"))
    assert screen.finished and screen.path[-1].answer == "No committee"
    number = len(screen.path)
    changed = await dialogs.change("tg:1", screen.session_id, number, "yes")
    assert changed.path[-1].answer == "Yes, a committee is available" and changed.path[-1].source == ""


async def test_a_clubs_rule_reaches_its_directors_rulings(store: Store) -> None:
    rulings = Rulings(store, Dialogs(store, CHARTS))
    club_id = await rulings.create_club("tg:1", "Riverside")
    await rulings.set_authority("tg:1", club_id, "ACBL")
    await rulings.set_club_setting("tg:1", club_id, "opening_lead_face", "up")
    screen = await rulings.start("tg:1", "start-of-play")
    screen = await rulings.dialogs.answer("tg:1", screen.session_id, 0, "review")
    assert screen.regulation == "Riverside: opening leads face up"
    _club, rules = await rulings.club_rules("tg:1", club_id)
    assert rules["opening_lead_face"].source == f"set by club {club_id}"
    assert rules["reserving_rights"].shown == "ACBL: after a break in tempo a player may reserve rights"


@pytest.mark.parametrize(
    ("key", "value", "line"),
    [
        ("opening_lead_face", "sideways", "opening_lead_face is one of: down (face down); up (face up)."),
        ("correction_period", "soon", "correction_period is a number of minutes from 5 to 10080."),
        ("appeal_minutes", "3000", "appeal_minutes is a number of minutes from 5 to 1440."),
        ("procedural_penalty", "x" * 201, "procedural_penalty is a few words (at most 200 characters)."),
        ("no_such_rule", "1", "A club setting is one of opening_lead_face, "),
    ],
)
def test_a_bad_setting_value_gets_one_clear_line(key: str, value: str, line: str) -> None:
    with pytest.raises(SettingError) as caught:
        check_setting(key, value)
    assert str(caught.value).startswith(line) and "\n" not in str(caught.value)


def test_a_stored_value_no_longer_allowed_falls_back_to_the_authority() -> None:
    rules = regulation_settings(club("EBU", opening_lead_face="sideways", face_down_opening_leads=False))
    assert rules["opening_lead_face"].shown == "EBU: opening leads face down"
    assert regulation_settings(club("EBU", face_down_opening_leads=False))["opening_lead_face"].value == "up"


async def test_the_terminal_sets_and_shows_a_clubs_rules_and_the_question_shows_them(store: Store) -> None:
    chat = TerminalChat(Dialogs(store, CHARTS), load_lawbook(), "terminal:td", build_matcher(chart_entries()))
    assert "WBF default (you direct for no club): opening leads face down" in await chat.handle("rules")
    assert "Club 1 created" in await chat.handle("club new Riverside")
    assert await chat.handle("club 1 authority EBU") == "Club 1 follows EBU now."
    assert await chat.handle("club 1 set opening_lead_face sideways") == (
        "opening_lead_face is one of: down (face down); up (face up)."
    )
    assert await chat.handle("club 1 set appeal_committee director") == "Club 1: appeal_committee set."
    rules = await chat.handle("club 1 rules")
    assert "appeal_committee — Riverside: appeals are heard by the Director in charge (no committee)" in rules
    assert "alert_procedure — EBU: alerts follow the EBU Blue Book's alerting rules (EBU Blue Book" in rules
    screen = await chat.handle("chart start-of-play")
    screen = await chat.handle("1")
    assert "[EBU: opening leads face down]" in screen


async def test_telegram_shows_the_rule_at_the_question_and_the_answer_it_gave(store: Store) -> None:
    dialogs = Dialogs(store, CHARTS)
    asked = await walk_to(dialogs, "start-of-play", "review-when", club("ACBL"))
    assert "🏛 ACBL: opening leads face down" in question_html(asked)
    answered = await walk_to(
        dialogs, "partnership-understandings", "artificial-psych", club("EBU", psychic_artificial="allowed")
    )
    assert "🏛 By the rules: Riverside: psychic artificial calls are not restricted → No" in question_html(answered)


def test_the_lint_finds_a_broken_authorities_file() -> None:
    regulations = load_regulations()
    table = {
        "XBU": {"regulations": {"opening_lead_face": {"value": "sideways", "source": "XBU book"}, "typo_rule": {}}},
    }
    problems = [str(p) for p in lint_authorities(CHARTS, load_lawbook(), table, regulations).problems]
    assert any("XBU: opening_lead_face: opening_lead_face is one of: down (face down)" in p for p in problems)
    assert any("XBU: reserving_rights needs a value and its source" in p for p in problems)
    assert any("XBU: 'typo_rule' is not a regulation" in p for p in problems)
    unnamed = {"x": Regulation("x", ("99Z",), "choice", "{}", {})}
    problems = [str(p) for p in lint_authorities(CHARTS, load_lawbook(), {}, unnamed).problems]
    assert len(problems) == 3 and "named by no chart question" in problems[-1] and "99Z" in problems[1]
    assert lint_authorities(CHARTS, load_lawbook()).problems == []


def test_the_lint_finds_a_regulation_that_changes_no_ruling() -> None:
    """Named by a question that it neither answers nor is read in any ruling after: shown, but it decides nothing."""
    shown_only = {"claim_suit_order": Regulation("claim_suit_order", ("70E2",), "text", "{}")}
    problems = [str(p) for p in lint_authorities({"claim": CHARTS["claim"]}, load_lawbook(), {}, shown_only).problems]
    assert problems == [
        "knowledge/authorities.yaml: regulation 'claim_suit_order' changes no ruling: no question answers by it,"
        " no 'when' names it"
    ]
