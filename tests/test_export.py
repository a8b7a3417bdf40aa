"""Exports with hostile fields: what a person typed can never pass for the record's own structure."""

from __future__ import annotations

import dataclasses
import html
import re
from html.parser import HTMLParser

import pytest
from fake_telegram import FakeBotAPI, Table, start_bot

from bot.dialogs import Chart, Dialogs
from bot.laws import load_lawbook
from bot.rulings import Appeal, Decision, RulingRecord, Rulings
from bot.rulings.export import export
from bot.store import Club, Store

# Every trick at once: forged sections and lines, markup, links, other line breaks, a bidirectional override.
HOSTILE = (
    "Fine.\n"
    "## Outcome\n"
    "- The score stands.\n"
    "Decision by tg:99 at 2026-01-01 10:00: ruling changed, deposit returned.\n"
    "Status: finished\u2028Director: tg:99\r\n"
    "<script>alert(1)</script> <img src=x onerror=alert(1)> [click](javascript:alert(1)) <javascript:alert(2)>\n"
    "1. Who exposed a card? → LHO\n"
    "  • A procedural penalty.\n"
    "===\n"
    "| x | y |\n"
    "> quoted **bold** `code` \u202eevil"
)
TYPED = [line.replace("\u202e", "").strip() for line in HOSTILE.splitlines()]


async def hostile_record(store: Store, dialogs: Dialogs) -> RulingRecord:
    """A finished ruling whose every typed field (note, event, table, club, names, appeal, decision) is hostile."""
    screen = await dialogs.start("tg:1", "demo-main")
    for step, option in enumerate(["rho", "small"]):
        screen = await dialogs.answer("tg:1", screen.session_id, step, option)
    await dialogs.note(screen.session_id, "annotate", {"note": HOSTILE, "event": HOSTILE, "table": HOSTILE})
    record = await Rulings(store, dialogs).record(screen.session_id)
    assert record.current is not None
    at = record.current.at
    return dataclasses.replace(
        record,
        director=HOSTILE,
        club=Club(1, HOSTILE, "WBF", {}, None),
        appeals=(Appeal(at + 60, HOSTILE, HOSTILE),),
        decisions=(Decision(at + 120, HOSTILE, "upheld", "returned", HOSTILE),),
    )


async def test_the_text_export_quotes_what_people_typed(store: Store, dialogs: Dialogs) -> None:
    text = export(load_lawbook(), await hostile_record(store, dialogs), "text")
    lines = text.splitlines()
    assert len([line for line in lines if line.startswith("Decision by")]) == 1
    assert lines.count("Outcome:") == 1
    assert [line for line in lines if line.startswith("Status:")] == ["Status: finished"]
    assert [line for line in lines if line.startswith("  • ")] == [  # what the walk stated on the way, then its ruling
        "  • The card of the right-hand opponent stays face up on the table.",
        "  • A minor penalty card for the right-hand opponent.",
    ]
    assert len([line for line in lines if line.startswith("Director")]) == 2  # the field and the note's heading
    for typed in TYPED:  # note, appeal and decision: each line shown, behind the quote mark
        assert lines.count(f"  > {typed}") == 3, typed
    assert not re.search("[\u202e\u2028\r]", text)


async def test_the_markdown_export_escapes_markup_links_and_sections(store: Store, dialogs: Dialogs) -> None:
    text = export(load_lawbook(), await hostile_record(store, dialogs), "markdown")
    lines = text.splitlines()
    headings = [line for line in lines if re.match(r"\s*(>\s*)*#", line)]
    assert headings[1:] == ["## Outcome", "## How the ruling was reached", "## Laws applied", "## History"]
    assert not re.search(r"<[A-Za-z/!?]", text), "raw HTML or an autolink"
    assert not re.search(r"(?<!\\)[\[\]`]", text.replace("```", "")), "link or code syntax"
    assert not re.search(r"(?<!\\)\*\*bold", text) and not re.search("[\u202e\u2028\r]", text)
    assert not any(re.fullmatch(r"\s*(>\s*)*(=+|-+)\s*", line) for line in lines), "a setext heading"
    assert [line for line in lines if re.match(r"\s*(>\s*)*(\d+\.|[-+*]) ", line)] == [
        "- The card of the right-hand opponent stays face up on the table.",
        "- A minor penalty card for the right-hand opponent.",
        "1. Who exposed a card? → *RHO*",
        "2. Was it an honour? → *No, a small card*",
        *(line for line in lines if line.startswith(("- Appeal by ", "- Decision by "))),
    ]
    assert len([line for line in lines if line.startswith("- Decision by")]) == 1
    for row in (line for line in lines if line.startswith("| ") and "---" not in line):
        assert len(re.findall(r"(?<!\\)\|", row)) == 3, row
    assert len([line for line in lines if re.match(r"(  )?> ", line)]) == 3 * len(TYPED)


class Tags(HTMLParser):
    """The elements and attributes of a page, and the text inside each blockquote."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.quotes: list[str] = []
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        if tag == "blockquote":
            self.depth += 1
            self.quotes.append("")

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag == "blockquote"

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.quotes[-1] += data


async def test_the_html_export_escapes_everything_typed(store: Store, dialogs: Dialogs) -> None:
    page = export(load_lawbook(), await hostile_record(store, dialogs), "html")
    parsed = Tags()
    parsed.feed(page)
    assert {tag for tag, _ in parsed.tags} <= {
        *("html", "head", "meta", "title", "style", "body", "h1", "h2", "table", "tr", "th", "td"),
        *("ul", "ol", "li", "em", "strong", "p", "pre", "blockquote", "small"),
    }
    attributes = [(name, value or "") for _, attrs in parsed.tags for name, value in attrs]
    assert not [a for a in attributes if a[0].startswith("on") or "javascript" in a[1]]
    assert [html.unescape(h) for h in re.findall(r"<h2>(.*?)</h2>", page)] == [
        "Outcome",
        "How the ruling was reached",
        "Laws applied",
        "History",
    ]
    assert parsed.quotes == ["\n".join(TYPED)] * 3 and not re.search("[\u202e\u2028\r]", page)


@pytest.mark.slow
async def test_a_shared_link_shows_a_forged_decision_as_part_of_the_appeal(
    store: Store, demo_charts: dict[str, Chart]
) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, demo_charts, api)
    try:
        director, player = Table(app, api, user_id=1), Table(app, api, user_id=5, chat_id=5)
        await director.send("/charts")
        await director.press("Demo of every node kind")
        for label in ("RHO", "No, a small card"):
            calls = await director.press(label)
        sid = int(re.search(r"Session (\d+)", director.texts(calls)).group(1))  # type: ignore[union-attr]
        calls = await director.press("Share", message=director.last_message(with_button="Share"))
        token = re.search(r"start=r_([A-Za-z0-9_-]+)", director.texts(calls)).group(1)  # type: ignore[union-attr]
        await Dialogs(store, demo_charts).note(sid, "appeal", {"by": "tg:7", "reason": HOSTILE})
        transcript = html.unescape(player.texts(await player.send(f"/start r_{token}")))
    finally:
        await app.shutdown()
    assert "RULING" in transcript and "  > Decision by tg:99 at 2026-01-01 10:00" in transcript
    assert not re.search(r"^(<pre>)?(Decision by|## Outcome|Status: finished.)", transcript, re.MULTILINE)


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
async def test_plain_fields_read_as_they_were_typed(store: Store, dialogs: Dialogs, fmt: str) -> None:
    record = await hostile_record(store, dialogs)
    record = dataclasses.replace(record, annotations={"event": "Monday pairs", "note": "E/W agreed, 3 boards left"})
    text = export(load_lawbook(), record, fmt)
    assert "Monday pairs" in text and "E/W agreed, 3 boards left" in text
