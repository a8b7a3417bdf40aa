"""The command line as a director or a club volunteer uses it: law, lint, coverage, render."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from fake_telegram import FakeBotAPI, Table, start_bot

from bot.cli import main
from bot.dialogs import Chart, Dialogs, read_charts
from bot.laws import load_lawbook
from bot.laws.text import section_lines
from bot.matching import ChartEntry, build_matcher
from bot.store import Store
from bot.terminal import TerminalChat

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("typed", [["27B1"], ["27b1"], ["27B1(a)"], ["Law", "27", "B", "1"], ["L27B1"]])
def test_law_prints_the_section_with_its_heading_path(typed: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["law", *typed]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Law 27 — Insufficient Bid › B. Insufficient Bid not Accepted › 1.")
    assert "lowest sufficient bid" in out
    assert "Acceptance of Insufficient Bid" not in out  # only that section, not the whole law


def test_law_prints_a_whole_law_with_its_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["law", "27"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Law 27 — Insufficient Bid")
    assert "A. Acceptance of Insufficient Bid" in out and "D. Non" in out


def test_law_prints_definitions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["law", "Penalty Card"]) == 0
    assert capsys.readouterr().out.startswith("Penalty card — A card subject to disposition under Law 50.")
    assert main(["law", "definitions"]) == 0
    out = capsys.readouterr().out
    assert "Adjusted Score —" in out and "Vulnerability —" in out


@pytest.mark.parametrize(
    ("typed", "nearest"),
    [
        (["120"], "Law 93"),
        (["27F"], "27A"),
        (["27B9"], "27B1"),
        (["penalty cards"], "Penalty card"),
        (["27B1(z)"], "27B1"),
    ],
)
def test_unknown_references_suggest_the_nearest(
    typed: list[str], nearest: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["law", *typed]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "There is no" in captured.err and nearest in captured.err


def test_law_with_bad_input_exits_1_without_a_traceback() -> None:
    for typed in (["xyzzy qwerty"], ["\x1b[2J"], ["♠♠♠"]):
        done = subprocess.run([sys.executable, "-m", "bot", "law", *typed], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 1 and "Traceback" not in done.stderr and "There is no" in done.stderr


@pytest.mark.slow
def test_lint_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint"]) == 0
    out = capsys.readouterr().out
    assert "OK: knowledge base and charts clean" in out
    assert "(0 known gap(s) recorded)" in out and "note  " not in out


def test_coverage_json_maps_every_law_to_its_charts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "--json"]) == 0
    cover = json.loads(capsys.readouterr().out)
    assert sorted(cover, key=int) == [str(n) for n in range(1, 94)]
    assert all(ids == sorted(ids) for ids in cover.values())
    assert "insufficient-bid" in cover["27"]


async def test_render_highlights_a_sessions_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "bot.sqlite3"
    store = await Store.open(db)
    dialogs = Dialogs(store, read_charts(FIXTURES / "dialogs"))
    screen = await dialogs.start("tester", "demo-main")
    await dialogs.answer("tester", screen.session_id, 0, "rho")
    await store.close()
    env = {"BOT_DB": str(db), "BOT_DIALOGS": str(FIXTURES / "dialogs")}
    run = [sys.executable, "-m", "bot", "render", "demo-main"]
    dot = subprocess.run(
        [*run, "--path", str(screen.session_id)], cwd=ROOT, capture_output=True, text=True, env={**os.environ, **env}
    )
    assert dot.returncode == 0, dot.stderr
    assert dot.stdout.startswith('digraph "demo-main" {')
    assert '"who" -> "reminder" [label="RHO", penwidth=2.5' in dot.stdout
    assert '"reminder" [shape=note' in dot.stdout and 'fillcolor="#ffe08a"' in dot.stdout
    mermaid = subprocess.run([*run, "--mermaid"], cwd=ROOT, capture_output=True, text=True, env={**os.environ, **env})
    assert mermaid.stdout.startswith("flowchart TD") and "-->|" in mermaid.stdout
    missing = subprocess.run(
        [*run, "--path", "999"], cwd=ROOT, capture_output=True, text=True, env={**os.environ, **env}
    )
    assert missing.returncode == 1 and "There is no session 999" in missing.stderr


def test_a_closing_sentence_follows_the_subsections(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["law", "69B"]) == 0
    lines = capsys.readouterr().out.rstrip().splitlines()
    assert lines[-1].strip() == "The board is rescored with such trick awarded to his side."
    assert lines[-2].strip().startswith("2. if a player has agreed to the loss of a trick")


@pytest.mark.parametrize("ref", ["69B1", "69B2", "71A", "71B"])
def test_an_item_quoted_alone_keeps_the_closing_sentence_that_governs_it(
    ref: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The claim chart's rulings cite 69B1 or 71A: what they rescore rests on the sentence printed after the items.
    assert main(["law", ref]) == 0
    out = capsys.readouterr().out
    assert out.count("The board is rescored with such trick awarded to his side.") == 1


def test_a_chart_picture_shows_real_arrows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "simultaneous-calls"]) == 0
    dot = capsys.readouterr().out
    assert "→ chart call-out-of-rotation" in dot and "u2192" not in dot


def test_footnotes_read_as_footnotes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["law", "50"]) == 0
    text = capsys.readouterr().out
    assert "[^" not in text
    assert "\n¹³ If the player is unable to lead as required see Law 59." in text


def test_a_part_taken_from_a_public_copy_reads_as_law_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["law", "30C"]) == 0
    text = capsys.readouterr().out
    assert "C. When Pass Is Artificial" in text
    assert "When a pass out of rotation is artificial or is a pass of an artificial call, Law 31, not Law 30" in text
    assert "not available here" not in text and "http" not in text and "seed" not in text.casefold()


def test_a_missing_part_says_so_without_build_notes() -> None:
    """Every part of the 2017 text is here now, but a later gap must still read as one line, not a build note."""
    section = next(s for s in load_lawbook().laws[30].sections if str(s.ref) == "30C")
    missing = dataclasses.replace(section, heading=None, text="", gap="missing from seed 000 at line 3615")
    text = "\n".join(section_lines(missing, 2))
    assert "the 2017 wording of this part is not available here" in text
    assert "seed" not in text.casefold() and "line " not in text


HUGE = "9" * 5000


@pytest.mark.slow
async def test_huge_numbers_in_the_terminal_get_one_line(store: Store, demo_charts: dict[str, Chart]) -> None:
    entries = [ChartEntry(c.id, c.title, c.laws, c.keywords) for c in demo_charts.values()]
    chat = TerminalChat(Dialogs(store, demo_charts), load_lawbook(), "terminal:tester", build_matcher(entries))
    for typed in ("resume 99999999999999999999", f"resume {HUGE}", "resume ²"):
        assert await chat.handle(typed) == "There is no such session. Type 'resume' for the list."
    await chat.handle("chart demo-main")
    assert await chat.handle(HUGE) == "Choose a number from 1 to 2."
    assert await chat.handle("99999999999999999999") == "Choose a number from 1 to 2."
    assert "stays face up" in await chat.handle("2")
    for typed in (f"change {HUGE}", "change 99999999999999999999"):
        assert await chat.handle(typed) == "Which answer? For example 'change 2' (see 'history')."
    assert "There is no answer 1000000000000000000:" in await chat.handle("change 1000000000000000000")


@pytest.mark.slow
def test_huge_numbers_typed_at_the_terminal_never_show_a_traceback(tmp_path: Path) -> None:
    typed = f"resume 99999999999999999999\nchart demo-main\n{HUGE}\n2\nchange {HUGE}\nquit\n"
    env = {**os.environ, "BOT_DB": str(tmp_path / "bot.sqlite3"), "BOT_DIALOGS": str(FIXTURES / "dialogs")}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=ROOT, input=typed, capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stderr == ""
    assert "There is no such session." in done.stdout and "Choose a number from 1 to 2." in done.stdout
    assert "stays face up" in done.stdout and "Goodbye" in done.stdout


HUGE_IN_COMMANDS = [
    ("/decide 99999999999999999999 upheld none", "Only the club's appeals committee can decide an appeal."),
    (f"/decide {HUGE} upheld none", "Only the club's appeals committee can decide an appeal."),
    ("/decide ² upheld none", "Only the club's appeals committee can decide an appeal."),
    ("/club 99999999999999999999 log", "Your clubs: 1."),
    (f"/club {HUGE} authority ACBL", "Your clubs: 1."),
    ("/club 1 grant 99999999999999999999 director", "I did not understand that."),
    (f"/club 1 deadline {HUGE}", ""),  # any refusal in the club rules' own words, but a reply
]


@pytest.mark.slow
async def test_huge_numbers_in_telegram_commands_get_one_line(store: Store, demo_charts: dict[str, Chart]) -> None:
    """The same bounded reading on Telegram: before, SQLite's OverflowError or int()'s ValueError ended the
    update with 'Something went wrong'."""
    api = FakeBotAPI()
    app = await start_bot(store, demo_charts, api)
    try:
        table = Table(app, api, user_id=5, chat_id=5)
        await table.send("/club new Riverside")
        for typed, says in HUGE_IN_COMMANDS:
            reply = table.texts(await table.send(typed))
            assert reply and says in reply and "Something went wrong" not in reply, typed
    finally:
        await app.shutdown()
