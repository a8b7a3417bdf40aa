"""The club's rules change what a director is told: every regulation is read in the ruling of at least one path
(a ruling's ``when`` paragraph keyed on it, or the rule ``stated`` with the rulings after its question), and
each of those paths is walked here under the WBF, the ACBL, the EBU, no club, and a club's own value. The path
and the rulings reached never change: only the words read with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.dialogs import Dialogs, Engine, Screen, load_charts, parse_chart, read_charts
from bot.dialogs.engine import Step
from bot.dialogs.lint import lint_charts
from bot.dialogs.model import Question, Ruling
from bot.dialogs.paths import enumerate_paths
from bot.dialogs.regulations import ANY, load_regulations
from bot.laws import load_lawbook
from bot.rulings.settings import NO_CLUB, regulation_settings
from bot.store import Club, Store

CHARTS = load_charts()
ENGINE = Engine(CHARTS)
AUTHORITIES = (None, "WBF", "ACBL", "EBU")


def _reading() -> list[tuple[str, str, str]]:
    """(regulation, chart, ruling) for every ruling that reads a regulation."""
    found = [
        (name, chart.id, node.id)
        for chart in CHARTS.values()
        for node in chart.nodes.values()
        if isinstance(node, Ruling)
        for name in node.when
        if name not in chart.variables
    ]
    stated = {name for name, regulation in load_regulations().items() if regulation.stated}
    for chart in CHARTS.values():
        for node in chart.nodes.values():
            if isinstance(node, Question) and node.setting in stated:
                found += [(node.setting, chart.id, ruling) for ruling in _rulings_after(chart.id, node.id)]
    return sorted(set(found))


def _rulings_after(chart_id: str, node_id: str) -> set[str]:
    """This chart's rulings reached on a path through the question ``node_id``."""
    return {
        r.node
        for path in enumerate_paths(CHARTS, chart_id)
        if not path.given and any(s.node == node_id for s in path.steps)
        for r in path.rulings
        if r.chart == chart_id
    }


READING = _reading()


def _path_to(chart_id: str, ruling: str, through: str | None = None) -> list[Step]:
    """The answers of a path a director can start the chart on that ends in ``ruling`` (through the question
    naming the regulation, for a rule stated after it)."""
    for path in enumerate_paths(CHARTS, chart_id):
        if path.given or (through and not any(s.node == through for s in path.steps)):
            continue
        if any((r.chart, r.node) == (chart_id, ruling) for r in path.rulings):
            return list(path.steps)
    raise AssertionError(f"no path of {chart_id} reaches {ruling}")


def _question(regulation: str, chart_id: str) -> str | None:
    return next(
        (n.id for n in CHARTS[chart_id].nodes.values() if isinstance(n, Question) and n.setting == regulation),
        None,
    )


async def _walk(store: Store, chart_id: str, steps: list[Step], where: Club | None) -> Screen:
    dialogs = Dialogs(store, CHARTS)
    screen = await dialogs.start("tg:1", chart_id, settings=regulation_settings(where))
    for step in steps[len(screen.path) :]:
        screen = await dialogs.answer("tg:1", screen.session_id, screen.step, step.option)
    assert screen.finished
    return screen


def _club(authority: str, **settings: object) -> Club:
    return Club(7, "Riverside", authority, dict(settings), None)


def test_every_regulation_changes_some_ruling() -> None:
    """Read in a ruling, or answering a question (tests/test_settings.py walks those)."""
    answering = {
        n.setting for c in CHARTS.values() for n in c.nodes.values() if isinstance(n, Question) and n.setting_answers
    }
    assert {name for name, _chart, _ruling in READING} | answering == set(load_regulations())


@pytest.mark.slow
@pytest.mark.parametrize(("regulation", "chart_id", "ruling"), READING)
@pytest.mark.parametrize("authority", AUTHORITIES)
async def test_a_ruling_reads_the_rule_in_force(
    store: Store, regulation: str, chart_id: str, ruling: str, authority: str | None
) -> None:
    """Under each authority (and no club: the WBF's, saying so) the path ends in the same rulings as a walk that
    knows no rules, with the same laws but those its paragraph for that value states; the ruling adds the
    authority's rule where its paragraph is for that value, and nothing else."""
    steps = _path_to(chart_id, ruling, _question(regulation, chart_id))
    where = _club(authority) if authority else None
    screen = await _walk(store, chart_id, steps, where)
    plain = ENGINE.walk(chart_id, steps)
    assert [(r.chart, r.node) for r in screen.rulings] == [(r.chart, r.node) for r in plain.rulings]
    setting = regulation_settings(where)[regulation]
    assert setting.shown.startswith(f"{authority}: " if authority else f"{NO_CLUB}: ")
    reached = next(r for r in screen.rulings if (r.chart, r.node) == (chart_id, ruling))
    alone = next(r for r in plain.rulings if (r.chart, r.node) == (chart_id, ruling))
    assert reached.text.startswith(alone.text)
    node = CHARTS[chart_id].nodes[ruling]
    assert isinstance(node, Ruling)
    words = node.when.get(regulation, {})
    read = words.get(setting.value, words.get(ANY))
    assert reached.laws == tuple(dict.fromkeys((*alone.laws, *(read.laws if read else ()))))
    if read is not None or not words:
        assert setting.shown in reached.text
    else:
        assert reached.text == alone.text


@pytest.mark.slow
@pytest.mark.parametrize(("regulation", "chart_id", "ruling"), READING)
async def test_a_clubs_own_value_is_read_in_the_ruling(
    store: Store, regulation: str, chart_id: str, ruling: str
) -> None:
    """A club's value replaces its authority's in the words read: for a rule of a few values, the value the
    ruling's paragraph is written for, and the laws that paragraph states; for free words or minutes, the club's
    own."""
    spec = load_regulations()[regulation]
    node = CHARTS[chart_id].nodes[ruling]
    assert isinstance(node, Ruling)
    words = node.when.get(regulation, {})
    value = next((v for v in words if v != ANY), None) or {"minutes": "45"}.get(spec.kind, "a tenth of a top")
    if spec.kind == "choice" and value not in spec.values:
        value = next(iter(spec.values))
    steps = _path_to(chart_id, ruling, _question(regulation, chart_id))
    screen = await _walk(store, chart_id, steps, _club("ACBL", **{regulation: value}))
    reached = next(r for r in screen.rulings if (r.chart, r.node) == (chart_id, ruling))
    assert f"Riverside: {spec.words(value)}" in reached.text
    read = words.get(value, words.get(ANY))
    assert set(read.laws if read else ()) <= set(reached.laws)  # face-up leads cite 41C with the words saying so
    outcome = (await store.events(screen.session_id))[-1]
    assert outcome.kind == "ruling" and any(f"Riverside: {spec.words(value)}" in t for t in outcome.data["texts"])


async def test_the_words_read_for_a_club(store: Store) -> None:
    """What a director reads aloud, whole: a club that forbids reserving rights, and the ACBL's penalty."""
    steps = _path_to("unauthorised-information", "no-information")
    screen = await _walk(store, "unauthorised-information", steps, _club("EBU", reserving_rights="director"))
    assert screen.rulings[-1].text.endswith(
        "either side may appeal this ruling (92A). Riverside: after a break in tempo the Director must be called"
        " (no reserving rights). A player who thinks an opponent made such information available calls the"
        " Director at once, so the facts can be established then (16B2)."
    )
    steps = _path_to("procedural-penalty", "penalty")
    screen = await _walk(store, "procedural-penalty", steps, _club("ACBL"))
    assert screen.rulings[-1].text.endswith("ACBL: a procedural penalty is usually a quarter of a board, or 3 IMPs.")
    steps = _path_to("claim", "claim-reduced")  # a path not through the suit-order question states no order
    screen = await _walk(store, "claim", steps, _club("ACBL"))
    assert "unstated order" not in screen.rulings[-1].text


@pytest.mark.parametrize("authority", AUTHORITIES)
async def test_a_face_down_lead_out_of_turn_goes_back_to_the_hand(store: Store, authority: str | None) -> None:
    """Law 41A: a face-down opening lead out of turn is withdrawn on the Director's instruction and returned to the
    hand, not a penalty card as a faced one refused under Law 54D; the question shows which way leads are made."""
    where = _club(authority) if authority else None
    dialogs = Dialogs(store, CHARTS)
    screen = await dialogs.start("tg:1", "opening-lead-out-of-turn", settings=regulation_settings(where))
    assert screen.regulation.endswith("opening leads face down")
    done = await dialogs.answer("tg:1", screen.session_id, 0, "face-down")
    assert done.finished and done.laws == ("41A", "41C") and "penalty card" not in done.rulings[-1].text
    assert "returned to that defender's hand" in done.rulings[-1].text
    faced_up = await _walk(
        store, "opening-lead-out-of-turn", [a.step for a in done.path], _club("EBU", opening_lead_face="up")
    )
    assert faced_up.rulings[-1].text.endswith(
        "Riverside: opening leads face up. The correct defender's lead is made face up."
    )


LINT_FIXTURES = Path(__file__).parent / "fixtures" / "dialogs"


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        ('{procedural_penalty: {any: "{procedural_penalty}."}}', None),
        ('{opening_lead_face: {up: "{opening_lead_face}."}}', None),
        (
            '{opening_lead_face: {sideways: "Never."}}',
            "'when' 'opening_lead_face': 'sideways' is not one of its values",
        ),
        ('{procedural_penalty: {any: "{appeal_minutes}."}}', "'when' 'procedural_penalty' names appeal_minutes"),
        ('{offender: {rho: "{procedural_penalty}."}}', "{procedural_penalty} is not a declared variable"),
    ],
)
def test_the_lint_checks_a_when_keyed_on_a_regulation(when: str, expected: str | None) -> None:
    """A paragraph keyed on a regulation takes its values or any, and names only that regulation."""
    charts = read_charts(LINT_FIXTURES)
    text = (LINT_FIXTURES / "demo-main.yaml").read_text(encoding="utf-8")
    assert text.count('    laws: ["50C"]\n') == 1
    charts["demo-main"] = parse_chart(
        text.replace('    laws: ["50C"]\n', f'    when: {when}\n    laws: ["50C"]\n'), "dialogs/demo-main.yaml"
    )
    found = [str(p) for p in lint_charts(charts, load_lawbook()).problems]
    assert found == [] if expected is None else any(expected in p for p in found), found
