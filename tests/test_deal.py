"""The deal of a board (issue 23, item 4): read it, refuse a wrong one in one line, solve it double dummy."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.scoring import ScoringError
from bot.scoring.deal import analyse, parse_deal
from bot.scoring.service import deal_text

# Each hand one whole suit: whoever holds a suit takes all 13 tricks in it, whoever declares in a suit the
# opponents hold takes none, and the opening leader runs a suit at no-trump.
SOLID = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
BOARD = "N:AKQ2.J98.T87.654 JT98.AKQ.AKQ.T98 7654.T76.J9.AKQJ 3.5432.65432.732"


def test_a_deal_with_a_known_table() -> None:
    result = analyse(parse_deal(SOLID + " vul all"))
    assert result.tricks["S"] == {"N": 13, "E": 0, "S": 13, "W": 0}
    assert result.tricks["D"] == {"N": 13, "E": 0, "S": 13, "W": 0}  # partner's suit: ruff the lead, then run it
    assert result.tricks["H"] == {"N": 0, "E": 13, "S": 0, "W": 13}
    assert result.tricks["NT"] == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert result.par == ("7♠N=", "7♠S=") and result.par_score == 2210


def test_the_table_and_par_as_a_director_sees_them() -> None:
    assert deal_text([BOARD]) == "\n".join(
        [
            "Double dummy: tricks for each declarer",
            "      NT   ♠   ♥   ♦   ♣",
            "  N    7   7   4   4   7",
            "  E    6   5   8   9   6",
            "  S    7   7   4   4   7",
            "  W    6   5   8   9   6",
            "Par (dealer N, vulnerable none): 3♦E=, 3♦W=, -110 to NS",
        ]
    )


def test_a_pbn_record_and_typed_hands_read_the_same() -> None:
    record = (
        '[Board "7"]\n[Dealer "W"]\n[Vulnerable "EW"]\n[Deal "W:3.5432.65432.732 ' + BOARD[2:].rsplit(" ", 1)[0] + '"]'
    )
    from_record = parse_deal(record)
    typed = parse_deal(" ".join(BOARD[2:].split()) + " dealer W vul EW")
    assert from_record == typed and from_record.pbn() == BOARD
    assert (typed.dealer, typed.vulnerable) == ("W", "EW")


@pytest.mark.parametrize(
    ("deal", "says"),
    [
        (BOARD.replace("654 JT98", "65 JT98"), "North has 12 cards, not 13 (51 cards in the deal)."),
        (BOARD.replace("N:AKQ2", "N:AKQ3"), "♠3 is in both North's and West's hands."),
        (BOARD.replace(".654", ".6544"), "♣4 appears twice in North's hand."),
        (BOARD.replace("AKQ2", "AKZ2"), "'Z' in North's ♠ is not a card: ranks are A K Q J T 9 … 2."),
        (
            BOARD.replace("J98.T87.654", "J98.T87654"),
            "North's hand 'AKQ2.J98.T87654' needs four suits separated by dots (AKQ2.J98.T87.654).",
        ),
        (
            "N:AKQ2.J98.T87.654",
            "A deal is four hands, like N:AKQ2.J98.T87.654 … (North, East, South, West), or a PBN record.",
        ),
        (BOARD + " dealer Q", "Dealer 'Q' is not a seat: N, E, S or W."),
        (BOARD + " vul red", "Vulnerability 'red' not understood: none, NS, EW or all."),
    ],
)
def test_a_wrong_deal_gets_one_line(deal, says) -> None:
    with pytest.raises(ScoringError) as raised:
        parse_deal(deal)
    assert str(raised.value) == says


def test_the_command_line_solves_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", *BOARD.split()]) == 0
    assert "Par (dealer N, vulnerable none): 3♦E=, 3♦W=, -110 to NS" in capsys.readouterr().out
    assert main(["deal", BOARD.replace("AKQ2", "AKQ")]) == 1
    assert capsys.readouterr().err == "North has 12 cards, not 13 (51 cards in the deal).\n"
