"""The chart loader refuses every mistake a chart author can make, naming the file and line."""

from __future__ import annotations

import pytest

from bot.dialogs import ChartError, parse_chart
from bot.dialogs.model import Paragraph, Ruling

GOOD = """\
id: tiny
title: Tiny
edition: "2017"
version: 1
laws: ["27"]
keywords: [insufficient]
start: q
nodes:
  q:
    ask: Accepted?
    laws: ["27A1"]
    options:
      - {id: "yes", label: "Yes", next: done}
      - {id: "no", label: "No", next: done}
  done:
    ruling: The auction continues.
    laws: ["27A1"]
"""


def test_a_well_formed_chart_loads() -> None:
    chart = parse_chart(GOOD, "tiny.yaml")
    assert chart.start == "q" and [o.id for o in chart.nodes["q"].options] == ["yes", "no"]
    assert chart.nodes["q"].line == 10


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (("title: Tiny\n", "title: Tiny\ncolour: red\n"), 3, "unknown key 'colour'"),
        (("title: Tiny\n", "title: Tiny\ntitle: Again\n"), 3, "duplicate key 'title'"),
        (('{id: "yes"', "{id: yes"), 13, "reads as a true/false value in YAML: quote it"),
        (('{id: "no"', "{id: off"), 14, "reads as a true/false value"),
        (("version: 1\n", "version: one\n"), 4, "'version' in the chart must be a whole number"),
        (('laws: ["27"]\n', "laws: 27\n"), 5, "must be a list"),
        (("    ruling: The auction continues.\n", ""), 16, "exactly one of"),
        (("    ask: Accepted?\n", "    ask: Accepted?\n    ruling: Both\n"), 10, "exactly one of"),
        (("  q:\n", "  Q_1:\n"), 10, "node id 'Q_1'"),
        (("start: q\n", "start: nowhere\n"), 1, "start node 'nowhere' does not exist"),
        (('label: "No", ', ""), 14, "an option needs 'label'"),
        (('    laws: ["27A1"]\n    options', "    options"), 0, None),
        (('    laws: ["27A1"]\n', "    laws: []\n"), 0, None),
        (('"Yes", next: done}', '"Yes", next: done, extra: 1}'), 13, "unknown key 'extra' in an option"),
        (("id: tiny", "id: [tiny]"), 1, "'id' in the chart must be text"),
        (("keywords: [insufficient]", "keywords: [insufficient, ~]"), 6, "an item of 'keywords' is empty"),
    ],
)
def test_mistakes_are_errors_with_file_and_line(change: tuple[str, str], line: int, message: str | None) -> None:
    text = GOOD.replace(*change, 1)
    assert text != GOOD
    if message is None:  # allowed by the loader (a question may cite no law); the linter judges the rest
        parse_chart(text, "tiny.yaml")
        return
    with pytest.raises(ChartError) as caught:
        parse_chart(text, "tiny.yaml")
    assert message in caught.value.message
    assert caught.value.line == line
    assert str(caught.value).startswith(f"tiny.yaml:{line}: ")


def test_a_ruling_must_cite_a_law() -> None:
    with pytest.raises(ChartError, match="node 'done' needs 'laws'"):
        parse_chart(
            GOOD.replace('    ruling: The auction continues.\n    laws: ["27A1"]\n', "    ruling: Ok.\n"), "t.yaml"
        )


@pytest.mark.parametrize("text", ["", "- a list\n", "id: [unclosed\n", "key: value\n  bad indent: x\n"])
def test_broken_files_are_errors_not_tracebacks(text: str) -> None:
    with pytest.raises(ChartError):
        parse_chart(text, "broken.yaml")


WHEN = GOOD.replace(
    "    ruling: The auction continues.\n",
    "    ruling: The auction continues.\n"
    "    when:\n"
    "      contest:\n"
    "        pairs: At pairs nothing more.\n"
    "        teams:\n"
    "          text: In a team match the other table counts (86B1).\n"
    '          laws: ["86B1"]\n',
)


def test_a_when_paragraph_is_text_or_text_with_its_laws() -> None:
    """Old charts keep plain paragraphs; a paragraph that states a law of its own case carries it."""
    done = parse_chart(WHEN, "tiny.yaml").nodes["done"]
    assert isinstance(done, Ruling)
    assert done.when["contest"]["pairs"] == Paragraph("At pairs nothing more.")
    assert done.when["contest"]["teams"] == Paragraph("In a team match the other table counts (86B1).", ("86B1",))


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (('          laws: ["86B1"]\n', ""), 21, "needs 'laws'"),
        (('          laws: ["86B1"]\n', "          laws: []\n"), 21, "list its laws, or write it as text"),
        (('          laws: ["86B1"]\n', '          laws: ["86B1"]\n          note: x\n'), 23, "unknown key 'note'"),
        (("        pairs: At pairs nothing more.\n", "        pairs: ''\n"), 19, "'pairs' in 'when' 'contest'"),
    ],
)
def test_a_when_paragraphs_mistakes_are_errors(change: tuple[str, str], line: int, message: str) -> None:
    text = WHEN.replace(*change, 1)
    assert text != WHEN
    with pytest.raises(ChartError) as caught:
        parse_chart(text, "tiny.yaml")
    assert message in caught.value.message
    assert caught.value.line == line
