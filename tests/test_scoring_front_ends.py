"""The arithmetic and the deal as a director types them: on the command line, in the terminal chat and on Telegram."""

from __future__ import annotations

import pytest
from fake_telegram import FakeBotAPI, Table, start_bot

from bot.cli import main
from bot.dialogs import Chart, Dialogs
from bot.laws import load_lawbook
from bot.matching import build_matcher
from bot.store import Store
from bot.terminal import TerminalChat

GOOD = [
    (["score", "4SX=", "vul"], "+790 — 4♠X= vul, declarer's side"),
    (["score", "3NT+1", "nv"], "+430 — 3NT+1 nv, declarer's side"),
    (["score", "6H-2", "vul"], "-200 — 6♥-2 vul, declarer's side"),
    (["score", "4♠", "="], "+420 not vulnerable, +620 vulnerable — 4♠=, declarer's side"),
    (["imps", "620", "-100"], "+12 IMPs (+620 against -100, difference +720; Law 78B)"),
    (["imps", "-20"], "-1 IMP (difference -20; Law 78B)"),
    (["score", "1NT", "XX", "+1", "non-vul"], "+760 — 1NTXX+1 nv, declarer's side"),
]
ADJUST_IMPS = """Weighted at IMPs (Law 12C1(c)), against +620 at the other table:
   60%  4♠= vul        +620   +0 IMPs
   40%  4♠-1 vul       -100  -12 IMPs
= -4.80 IMPs"""
ADJUST_MP = """Weighted at matchpoints (Law 12C1(c)), against 4 other scores (top 8):
   60%  4♠= vul        +620    5 mp
   40%  4♠-1 vul       -100    1 mp
= 3.40 mp, 42.50 %"""
GOOD += [
    (["adjust", "60%", "4S=", "40%", "4S-1", "vul", "imps", "620"], ADJUST_IMPS),
    (["adjust", "60%", "4S=", "40%", "4S-1", "vul", "mp", "620", "650", "170", "-100"], ADJUST_MP),
    (["adjust", "plus", "pairs"], "Average plus at pairs: 60 % (Law 12C2(a))"),
    (["adjust", "avg-", "teams"], "Average minus at teams: -3 IMPs (Law 12C2(b))"),
]
BAD = [
    (["adjust", "60%", "4S=", "30%", "4S-1", "vul", "imps", "620"], "The weights add up to 90 %, not 100 %."),
    (
        ["adjust", "60%", "4S=", "40%", "4S-1", "imps", "620"],
        "Write the vulnerability before imps or mp (vul or nv): a contract's score depends on it.",
    ),
    (
        ["adjust", "60%", "4S=", "40%", "4S-1", "vul", "imps"],
        "At IMPs, give the other table's one score after imps: … imps 620.",
    ),
    (
        ["adjust", "60%", "7NT+1", "40%", "4S-1", "vul", "mp", "1"],
        "7NT+1 is impossible: that is 14 tricks and a deal has 13.",
    ),
    (["adjust", "plus"], "Say pairs or teams: adjust plus pairs, adjust minus teams."),
    (["score", "7NT+1", "nv"], "7NT+1 is impossible: that is 14 tricks and a deal has 13."),
    (["score", "1NT-8", "vul"], "1NT-8 is impossible: 1NT can go at most 7 down."),
    (["score", "4SX=", "red"], "Vulnerability 'red' not understood: write vul or nv."),
    (["score"], "Write a contract, its result and the vulnerability: 4SX= vul, 3NT+1 nv, 6H-2 vul."),
    (["imps", "620", "lots"], "'lots' is not a score: write whole points, like 620 or -100."),
    (
        ["imps", "1", "2", "3"],
        "Write the two tables' scores from the same side (imps 620 -100), or one difference (imps 720).",
    ),
    (["mp", "420"], "Write every score on the board from the same side: mp 420 420 450 -50."),
    (["mp", "420", "9" * 5000], "'99999999999999999999' is not a score: write whole points, like 620 or -100."),
    (["imps", "99999"], "99999 is more than a board can score: at most 20,000 either way."),
    (
        ["score", "9" * 5000 + "S=", "nv"],
        "Cannot read '9999999999999999999999999999999999999999' as a contract: "
        "write level, strain, X or XX, result (4SX=, 3NT+1, 6H-2).",
    ),
    (
        ["score", "1S-" + "9" * 5000, "nv"],
        f"Cannot read {('1S-' + '9' * 37)!r} as a contract: write level, strain, X or XX, result (4SX=, 3NT+1, 6H-2).",
    ),
]
BOARD = "N:AKQ2.J98.T87.654 JT98.AKQ.AKQ.T98 7654.T76.J9.AKQJ 3.5432.65432.732"
DEAL_USAGE = "A deal is four hands, like N:AKQ2.J98.T87.654 … (North, East, South, West), or a PBN record."
MP_TABLE = """Top 6 (2 per score beaten, 1 per tie; Law 78A):
  +450     6 mp  100.0 %
  +420     3 mp   50.0 %
  +420     3 mp   50.0 %
   -50     0 mp    0.0 %"""


@pytest.mark.parametrize(("argv", "says"), [*GOOD, (["mp", "420", "420", "450", "-50"], MP_TABLE)])
def test_the_command_line_prints_the_figure(argv, says, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    assert capsys.readouterr().out == says + "\n"


@pytest.mark.parametrize(("argv", "says"), BAD)
def test_bad_input_on_the_command_line_is_one_line_and_exit_1(argv, says, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", says + "\n")


@pytest.mark.slow
async def test_the_terminal_chat_answers_the_same(store: Store, demo_charts: dict[str, Chart]) -> None:
    chat = TerminalChat(Dialogs(store, demo_charts), load_lawbook(), "terminal:tester", build_matcher([]))
    for argv, says in [*GOOD, *BAD]:
        assert await chat.handle(" ".join(argv)) == says
    assert await chat.handle("MP 420 420 450 -50") == MP_TABLE
    assert "score 4SX= vul" in await chat.handle("help")
    assert "-110 to NS" in await chat.handle("deal " + BOARD)
    assert "-110 to NS" in await chat.handle("deal " + BOARD[2:])
    assert await chat.handle("score pass") == "+0 not vulnerable, +0 vulnerable — passed out, declarer's side"
    assert await chat.handle("deal N:AKQ2") == DEAL_USAGE


@pytest.mark.parametrize(
    "typed", ["score was entered for the wrong pair", "deal was fouled, two cards swapped", "imps adjusted at teams"]
)
async def test_a_sentence_starting_with_a_command_word_is_an_incident(
    typed: str, store: Store, demo_charts: dict[str, Chart]
) -> None:
    chat = TerminalChat(Dialogs(store, demo_charts), load_lawbook(), "terminal:tester", build_matcher([]))
    described = TerminalChat(Dialogs(store, demo_charts), load_lawbook(), "terminal:other", build_matcher([]))
    assert await chat.handle(typed) == await described._describe(typed)


@pytest.mark.slow
async def test_telegram_answers_the_same(store: Store, demo_charts: dict[str, Chart]) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, demo_charts, api)
    table = Table(app, api)
    assert table.texts(await table.send("/score 4SX= vul")) == "<pre>+790 — 4♠X= vul, declarer's side</pre>"
    assert "+12 IMPs" in table.texts(await table.send("/imps 620 -100"))
    assert "= -4.80 IMPs" in table.texts(await table.send("/adjust 60% 4S= 40% 4S-1 vul imps 620"))
    assert "+450     6 mp  100.0 %" in table.texts(await table.send("/mp 420 420 450 -50"))
    for argv, says in BAD:
        assert table.texts(await table.send("/" + " ".join(argv))) == says
    assert "Par (dealer N, vulnerable none): 3♦E=, 3♦W=, -110 to NS" in table.texts(await table.send("/deal " + BOARD))
    assert table.texts(await table.send("/deal N:AKQ2")) == DEAL_USAGE
    await app.shutdown()
