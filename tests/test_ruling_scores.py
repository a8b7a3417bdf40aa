"""A ruling's own arithmetic: the score after a revoke's transfer or a claim's award, a weighted adjusted score,
worked out from what the director types and filed on the ruling's record (terminal and Telegram)."""

from __future__ import annotations

import re

import pytest
from conftest import answer
from fake_telegram import FakeBotAPI, Table, start_bot

from bot.dialogs import ChartError, Dialogs, load_charts, parse_chart
from bot.dialogs.lint import lint_charts
from bot.dialogs.model import ScoreStep
from bot.laws import load_lawbook
from bot.matching import build_matcher
from bot.rulings import RulingError, Rulings
from bot.rulings.export import export
from bot.scoring import ScoringError
from bot.scoring.service import ruling_number, ruling_score_text
from bot.store import Store
from bot.terminal import TerminalChat

# the revoke chart to its two-trick transfer, by the numbers a director types
REVOKE_TWO = ["1", "1", "2", "1", "1", "1", "1", "1"]  # the park asks who won the revoke trick: no Resume


@pytest.mark.parametrize(
    ("kind", "tricks", "typed", "says"),
    [
        (
            "transfer",
            2,
            "4S= vul defenders",
            "+680 — 4♠+2 vul, declarer's side (4♠= at the table, 2 tricks to declarer)",
        ),
        (
            "transfer",
            1,
            "4S= vul declarer",
            "-100 — 4♠-1 vul, declarer's side (4♠= at the table, 1 trick to the defenders)",
        ),
        (
            "transfer",
            1,
            "3NTX-1 nv defenders",
            "+550 — 3NTX= nv, declarer's side (3NTX-1 at the table, 1 trick to declarer)",
        ),
        ("table", 0, "4S-1 vul", "-100 — 4♠-1 vul, declarer's side"),
        ("adjusted", 0, "4S= nv", "+420 — 4♠= nv, declarer's side"),
        ("adjusted", 0, "60% 4S= 40% 4S-1 vul imps 620", "= -4.80 IMPs"),
        ("adjusted", 0, "4S= vul imps 100", "= +11.00 IMPs"),
        ("adjusted", 0, "60% 4S= 40% 4S-1 vul mp 620 650 170 -100", "= 3.40 mp, 42.50 %"),
    ],
)
def test_a_ruling_is_scored_as_its_chart_says(kind: str, tricks: int, typed: str, says: str) -> None:
    assert says in ruling_score_text(kind, tricks, typed.split())


@pytest.mark.parametrize(
    ("typed", "ruling"),
    [("7 4S= vul defenders", 7), ("12 60% 4S= 40% 4S-1 vul imps 620", 12), ("3", 3), ("3 pass", 3),
     ("7 NT= vul", None), ("4SX= vul", None), ("", None), ("7 -100", 7)],
)  # fmt: skip
def test_a_score_command_names_a_ruling_only_before_a_contract(typed: str, ruling: int | None) -> None:
    assert ruling_number(typed.split()) == ruling


@pytest.mark.parametrize(
    ("kind", "tricks", "typed", "says"),
    [
        ("transfer", 2, "4S= vul", "Say which side gives up the 2 tricks: declarer or defenders."),
        ("transfer", 2, "4S= vul declarer defenders", "Say which side gives up the 2 tricks: declarer or defenders."),
        ("transfer", 2, "7NT= vul defenders", "The defenders took 0 tricks in 7NT=: they cannot give up 2."),
        ("transfer", 1, "pass defenders", "A passed-out board has no tricks to transfer."),
        ("adjusted", 0, "60% 4S= 30% 4S-1 vul imps 620", "The weights add up to 90 %, not 100 %."),
        ("table", 0, "7NT+1 nv", "7NT+1 is impossible: that is 14 tricks and a deal has 13."),
    ],
)
def test_what_cannot_be_scored_gets_one_line(kind: str, tricks: int, typed: str, says: str) -> None:
    with pytest.raises(ScoringError, match="^" + says.replace("+", r"\+").replace("(", r"\(") + "$"):
        ruling_score_text(kind, tricks, typed.split())


def test_the_charts_name_the_arithmetic_their_rulings_end_in() -> None:
    charts = load_charts()
    revoked = answer(
        "revoke",
        {"what-happened": "revoke", "trick-twelve": "no", "established": "yes", "when-noticed": "in-time",
         "kind-of-revoke": "none", "revoke-trick": "offender", "later-after-won": "yes", "equity": "no"},
    )  # fmt: skip
    assert revoked.rulings[-1].score == ScoreStep("transfer", 2)
    claimed = answer(
        "claim",
        {"what-said": "claim", "faced-for-claim": "yes", "agreed": "disputed",
         "who-claimed": "declarer", "trump-out": "yes",
         "trump-mentioned": "no", "trump-trick": "two",
         "line-stated": "yes"},
    )  # fmt: skip
    assert claimed.rulings[-1].node == "claim-less-trump" and claimed.rulings[-1].score == ScoreStep("transfer", 2)
    assert charts["adjusted-score"].nodes["assigned-weighted"].score == ScoreStep("adjusted")
    assert charts["revoke"].nodes["none-won"].score is None  # the score stands: nothing to work out


def test_a_score_corrected_in_the_correction_period_is_worked_out_not_the_whole_table_quoted() -> None:
    """Third walk #94: 790 entered for 4♥X making eleven tricks vulnerable. The ruling offers Score it, which
    gives +990, instead of pasting all of Law 77's scoring table."""
    corrected = answer("scoring-error", {"what": "recorded", "in-period": "yes"})
    assert corrected.rulings[-1].score == ScoreStep("table")
    assert "77" not in corrected.rulings[-1].laws
    assert ruling_score_text("table", 0, ["4HX+1", "vul"]) == "+990 — 4♥X+1 vul, declarer's side"


def test_a_score_step_is_checked_when_the_chart_is_read() -> None:
    text = """id: x
title: X
edition: "2017"
version: 1
laws: ["64"]
keywords: [x]
variables:
  moved: {about: tricks, values: {one: "one", lots: "lots"}}
start: r
nodes:
  r: {ruling: "Done.", laws: ["64A1"], score: "transfer moved"}
"""
    with pytest.raises(ChartError, match="'score' of node 'r' is table, adjusted"):
        parse_chart(text.replace("transfer moved", "transfer"), "x.yaml")
    chart = parse_chart(text, "x.yaml")
    found = [f.message for f in lint_charts({"x": chart}, load_lawbook()).problems]
    assert any("the values of 'moved' must be none, one, two" in message for message in found)
    chart = parse_chart(text.replace(', lots: "lots"', ""), "x.yaml")
    found = [f.message for f in lint_charts({"x": chart}, load_lawbook()).problems]
    assert any("'score': 'moved' may be unset on a path to 'r'" in message for message in found)


@pytest.mark.slow
async def test_the_terminal_scores_a_ruling_and_files_it(store: Store) -> None:
    dialogs = Dialogs(store, load_charts())
    chat = TerminalChat(dialogs, load_lawbook(), "terminal:tester", build_matcher([]))
    await chat.handle("chart revoke")
    for number in REVOKE_TWO:
        ruling = await chat.handle(number)
    assert "Score it: type score 1 followed, on the same line, by the contract played and its result" in ruling
    assert (await chat.handle("score 1")).startswith("Type score 1 followed, on the same line, by the contract")
    assert await chat.handle("score 1 4S= vul") == "Say which side gives up the 2 tricks: declarer or defenders."
    assert await chat.handle("score 1 4S= vul defenders") == (
        "Ruling 1, filed on its record:\n+680 — 4♠+2 vul, declarer's side (4♠= at the table, 2 tricks to declarer)"
    )
    assert await chat.handle("score 4SX= vul") == "+790 — 4♠X= vul, declarer's side"  # still plain arithmetic
    assert await chat.handle("score 7 NT= vul") == "+2220 — 7NT= vul, declarer's side"  # a level, not ruling 7
    shown = await chat.handle("ruling 1")
    assert "Score (typed: 4S= vul defenders):\n+680 — 4♠+2 vul" in shown
    record = await Rulings(store, dialogs).record(1)
    assert "Score, " in export(load_lawbook(), record, "text") and "+680 — 4♠+2 vul" in export(
        load_lawbook(), record, "html"
    )
    other = TerminalChat(dialogs, load_lawbook(), "terminal:someone-else", build_matcher([]))
    assert await other.handle("score 1 4S= vul defenders") == "There is no session 1 of yours."
    assert len((await Rulings(store, dialogs).record(1)).scores) == 1


async def test_a_ruling_that_ends_in_no_score_or_is_open_says_so(store: Store) -> None:
    dialogs = Dialogs(store, load_charts())
    rulings = Rulings(store, dialogs)
    screen = await rulings.start("me", "revoke")
    with pytest.raises(RulingError, match="not finished yet"):
        await rulings.score("me", screen.session_id, "4S= vul defenders")
    screen = await dialogs.answer("me", screen.session_id, 0, "inquiry", question=screen.question)
    assert screen.finished and screen.score is None
    with pytest.raises(RulingError, match="does not end in a score"):
        await rulings.score("me", screen.session_id, "4S= vul defenders")


async def test_telegram_offers_score_it_under_the_ruling_and_files_the_reply(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table, stranger = Table(app, api), Table(app, api, user_id=2, chat_id=2, name="Bo")
    await table.send("/start c_revoke")
    for label in ("A player revoked", "No", "Yes, it is established", "During play", "None of these"):
        calls = await table.press(label)
    assert "When you are called back: Who won the revoke trick?" in table.texts(calls)  # the park asks it at once
    for label in ("The player who revoked", "Yes", "No: compensated, or not damaged"):
        calls = await table.press(label)
    ruling = table.texts(calls)
    assert "To work out the score, tap Score it and type the contract played and its result at the table" in ruling
    sid = int(re.search(r"Session (\d+)", ruling).group(1))  # type: ignore[union-attr]
    await table.press("Score it", message=table.last_message(with_button="Score it"))
    assert table.last_message()["text"].startswith(f"Score for ruling {sid}: type the contract played and its result")
    again = table.texts(await table.reply_to(f"Score for ruling {sid}", "4S= vul"))
    assert "Say which side gives up the 2 tricks: declarer or defenders." in again
    assert f"Score for ruling {sid}:" in again  # asked again: the next reply still goes to it
    filed = table.texts(await table.reply_to(f"Score for ruling {sid}", "4S= vul defenders"))
    assert f"Ruling {sid}, filed on its record:" in filed and "+680 — 4♠+2 vul" in filed
    assert "-50 — 4♠-1 nv" in table.texts(await table.send(f"/score {sid} 4S+1 nv declarer"))
    assert table.texts(await stranger.send(f"/score {sid} 4S= vul defenders")) == f"There is no session {sid} of yours."
    assert "<pre>+790 — 4♠X= vul, declarer's side</pre>" in table.texts(await table.send("/score 4SX= vul"))
    scores = [e.data["said"] for e in await store.events(sid) if e.kind == "score"]
    assert len(scores) == 2 and scores[0].startswith("+680")
    await app.shutdown()
