"""The chart linter finds every structural mistake a chart can hide from the loader."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES

from bot.dialogs import ChartError, parse_chart, read_charts
from bot.dialogs.lint import lint_charts
from bot.laws import LawBook, load_lawbook

BASE = (FIXTURES / "dialogs" / "demo-main.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def book() -> LawBook:
    return load_lawbook()


def problems(book: LawBook, main: str) -> list[str]:
    charts = read_charts(FIXTURES / "dialogs")
    charts["demo-main"] = parse_chart(main, "dialogs/demo-main.yaml")
    return [str(p) for p in lint_charts(charts, book).problems]


def test_the_demo_charts_are_clean(book: LawBook) -> None:
    assert problems(book, BASE) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("next: adjust}", "next: nowhere}"), "leads to 'nowhere', which does not exist"),
        (("    again: card\n", "    again: stands\n"), "'stands' does not lead back to it"),
        (
            (
                '      - {id: small, label: "No, a small card", next: minor}',
                '      - {id: small, label: "No", next: who}',
            ),
            "loop without a repeat node: who → reminder → card → who",
        ),
        (
            ('{id: rho, label: "RHO", set: {offender: rho}, next: reminder}', '{id: rho, label: "RHO", next: minor}'),
            "{offender} may be unset on a path to 'minor'",
        ),
        (('laws: ["50C"]', 'laws: ["50Z"]'), "Law 50Z does not exist"),
        (('laws: ["50C"]', 'laws: ["fifty"]'), "'fifty' is not a law reference"),
        (('laws: ["50"]\nkeywords', 'laws: ["120"]\nkeywords'), "chart law '120' is not in the 2017 Laws"),
        (('laws: ["50"]\nkeywords', 'laws: ["50"]\nnamed: ["50", "51"]\nkeywords'), "named law '51' is not one"),
        (("    jump: demo-sub\n    with", "    jump: demo-nothing\n    with"), "jump to chart 'demo-nothing'"),
        (("with: {holder: $offender}", "with: {holder: north}"), "'north' is not a value of 'demo-sub''s 'holder'"),
        (("with: {holder: $offender}", "with: {owner: $offender}"), "jump passes 'owner'"),
        (("set: {offender: lho}", "set: {offender: north}"), "'north' is not a value of 'offender'"),
        (("The card of {offender}", "The card of {culprit}"), "{culprit} is not a declared variable"),
        (("keywords: [demo]", "keywords: []"), "no keywords"),
        (
            ('    laws: ["50C"]\n', '    when: {contest: {teams: "At IMPs."}}\n    laws: ["50C"]\n'),
            "'when' names 'contest', which is not declared",
        ),
        (
            ('    laws: ["50C"]\n', '    when: {offender: {north: "North."}}\n    laws: ["50C"]\n'),
            "'when' 'offender': 'north' is not one of its values",
        ),
        (
            ('    laws: ["50C"]\n', '    when: {offender: {lho: {text: "LHO.", laws: ["50Z"]}}}\n    laws: ["50C"]\n'),
            "Law 50Z does not exist",
        ),
        (
            ('    laws: ["50C"]\n', '    when: {offender: {lho: {text: "L.", laws: ["fifty"]}}}\n    laws: ["50C"]\n'),
            "'fifty' is not a law reference",
        ),
        (('edition: "2017"', 'edition: "2007"'), "edition '2007'"),
        (('{id: rho, label: "RHO",', '{id: lho, label: "RHO",'), "option id 'lho' repeated"),
        (("summary:\n", "players:\n"), "unknown key 'players'"),
        (('    laws: ["50A"]\n', '    laws: ["50Q"]\n'), "cites '50Q', which is not in the 2017 Laws"),
        (('    laws: ["50A"]\n', "    laws: []\n"), "summary sentence 1 cites no law section"),
        (("A demonstration of every kind", "word " * 121 + "of every kind"), "words; at most 120"),
        (("A demonstration of every kind", "He shows every kind"), "writes 'He'"),
        (("The card of {offender}", "The card of {offender}, his card"), "writes 'his'"),
    ],
)
def test_mistakes_are_found(book: LawBook, change: tuple[str, str], expected: str) -> None:
    text = BASE.replace(*change)
    assert text != BASE, change
    try:
        found = problems(book, text)
    except ChartError as exc:
        found = [str(exc)]
    assert any(expected in p for p in found), found
    assert all(p.startswith("dialogs/demo-main.yaml") for p in found)


def test_a_chart_that_is_part_of_others_is_jumped_to_by_them_and_has_nothing_to_offer_it_by(book: LawBook) -> None:
    charts = read_charts(FIXTURES / "dialogs")
    sub = (FIXTURES / "dialogs" / "demo-sub.yaml").read_text(encoding="utf-8")
    offered = "keywords: [demo sub]\nsummary:\n  - text: A demonstration of a chart reached from another chart.\n"

    def found(text: str) -> list[str]:
        charts["demo-sub"] = parse_chart(text, "dialogs/demo-sub.yaml")
        return [str(p) for p in lint_charts(charts, book).problems]

    step = sub.replace(offered + '    laws: ["50"]\n', "part_of: [demo-main]\n")
    assert step != sub and found(step) == []
    assert any(
        "part of 'demo-nothing': there is no such chart" in p
        for p in found(step.replace("[demo-main]", "[demo-nothing]"))
    )
    assert any(
        "part of 'demo-sub', which does not jump to it" in p for p in found(step.replace("[demo-main]", "[demo-sub]"))
    )
    assert any(
        "keywords, but it is part of other charts" in p
        for p in found(sub.replace("summary:", "part_of: [demo-main]\nsummary:"))
    )
    assert any(
        "a summary, but it is part of other charts" in p
        for p in found(sub.replace("keywords: [demo sub]", "part_of: [demo-main]"))
    )
    assert any(
        "no 'summary' for players" in p
        for p in found(sub.replace(offered + '    laws: ["50"]\n', "keywords: [demo sub]\n"))
    )


def test_a_ruling_names_its_charts_law_first_or_says_why(book: LawBook) -> None:
    first = BASE.replace('    laws: ["50C"]\n', '    laws: ["12C1(b)", "50C"]\n')
    assert any("ruling 'minor' cites 12C1(b) first: name the infringed law first" in p for p in problems(book, first))
    none = BASE.replace('    laws: ["50C"]\n', '    laws: ["12C1(b)"]\n')
    assert any("ruling 'minor' cites none of the chart's own laws (50)" in p for p in problems(book, none))
    # A remedy many charts share (Law 72C, Law 12) never leads, even when the chart lists it among its laws.
    remedy = BASE.replace('laws: ["50"]\nkeywords', 'laws: ["50", "72C"]\nkeywords')
    remedy = remedy.replace('    laws: ["50C"]\n', '    laws: ["72C", "50C"]\n')
    assert any(
        "ruling 'minor' cites 72C first: name the infringed law first (one of the chart's own: 50)" in p
        for p in problems(book, remedy)
    )
    reason = '    laws: ["12C1(b)"]\n    laws_reason: "The adjustment is the point of this demo."\n'
    assert problems(book, BASE.replace('    laws: ["50C"]\n', reason)) == []
    with pytest.raises(ChartError, match="laws_reason"):  # a reason belongs to a ruling only
        problems(
            book,
            BASE.replace(
                "    repeat: Was another card exposed?\n",
                '    repeat: Was another card exposed?\n    laws_reason: "x"\n',
            ),
        )


def test_unreachable_nodes_are_found(book: LawBook) -> None:
    text = BASE + '  orphan:\n    ruling: Never shown.\n    laws: ["50"]\n'
    assert any("'orphan' cannot be reached" in p for p in problems(book, text))


def test_charts_that_jump_in_a_circle_are_found(book: LawBook, tmp_path: Path) -> None:
    sub = (FIXTURES / "dialogs" / "demo-sub.yaml").read_text(encoding="utf-8")
    sub = sub.replace(
        '  major-rho:\n    ruling: A major penalty card for {holder}; declarer has lead options.\n    laws: ["50D2"]\n',
        "  major-rho:\n    jump: demo-main\n",
    )
    (tmp_path / "demo-main.yaml").write_text(BASE, encoding="utf-8")
    (tmp_path / "demo-sub.yaml").write_text(sub, encoding="utf-8")
    found = [str(p) for p in lint_charts(read_charts(tmp_path), book).problems]
    assert any("charts jump in a circle: demo-main → demo-sub → demo-main" in p for p in found), found


@pytest.mark.slow
def test_a_dialogue_whose_laws_applied_start_with_a_shared_remedy_is_found(book: LawBook) -> None:
    """Handing over to the adjusted-score chart without first citing the chart's own law (82C) is a finding."""
    charts = read_charts()
    text = (Path(__file__).parents[1] / "dialogs" / "director-error.yaml").read_text(encoding="utf-8")
    assert lint_charts(charts, book).problems == []
    unstated = text.replace('    laws: ["82C", "12A3"]\n', '    laws: ["12A3"]\n')
    assert unstated != text
    charts["director-error"] = parse_chart(unstated, "dialogs/director-error.yaml")
    found = [str(p) for p in lint_charts(charts, book).problems]
    assert any("ending at adjusted-score/" in p and "cites 12A3 first" in p for p in found), found


def test_a_notes_audience_is_the_table_or_the_director(book: LawBook) -> None:
    with pytest.raises(ChartError, match="'audience' of node 'reminder' is one of table, director"):
        problems(book, BASE.replace("    next: card\n", "    audience: players\n    next: card\n", 1))
