"""The deal of a board: read a PBN deal or four typed hands, check it, and solve it double dummy.

The solving is endplay's (it binds Bo Haglund's double-dummy solver, DDS); this module only reads and
checks what a director typed, so that a wrong deal gets one line naming the card or the hand, and shows
the table and the par contract.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from bot.scoring.errors import ScoringError

SEATS = "NESW"
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUITS = "♠♥♦♣"
RANKS = "AKQJT98765432"
STRAIN_ORDER = ("NT", "S", "H", "D", "C")
STRAIN_SHOWN = {"NT": "NT", "S": "♠", "H": "♥", "D": "♦", "C": "♣"}
VULNERABILITIES = {"none": "none", "-": "none", "love": "none", "ns": "NS", "ew": "EW", "all": "all", "both": "all"}
_PBN_DEAL = re.compile(r'\[\s*Deal\s+"([^"]*)"\s*\]', re.I)
_SOLVER = threading.Lock()  # one solve at a time: front ends call from threads, the solver keeps global state
_PBN_TAG = re.compile(r'\[\s*(Dealer|Vulnerable)\s+"([^"]*)"\s*\]', re.I)


@dataclass(frozen=True, slots=True)
class Deal:
    """Four hands, each four suits (♠ ♥ ♦ ♣) of ranks, by seat N, E, S, W; the dealer and vulnerability."""

    hands: dict[str, tuple[str, str, str, str]]
    dealer: str = "N"
    vulnerable: str = "none"

    def pbn(self) -> str:
        return "N:" + " ".join(".".join(self.hands[seat]) for seat in SEATS)


def _hand(seat: str, text: str) -> tuple[str, str, str, str]:
    suits = text.upper().replace("10", "T").split(".")
    if len(suits) != 4:
        raise ScoringError(
            f"{SEAT_NAMES[seat]}'s hand {text[:20]!r} needs four suits separated by dots (AKQ2.J98.T87.654)."
        )
    hand = []
    for suit, ranks in zip(SUITS, suits, strict=True):
        ranks = ranks.replace("-", "")
        for rank in ranks:
            if rank not in RANKS:
                raise ScoringError(f"{rank!r} in {SEAT_NAMES[seat]}'s {suit} is not a card: ranks are A K Q J T 9 … 2.")
        if len(set(ranks)) != len(ranks):
            twice = next(rank for rank in ranks if ranks.count(rank) > 1)
            raise ScoringError(f"{suit}{twice} appears twice in {SEAT_NAMES[seat]}'s hand.")
        hand.append("".join(sorted(ranks, key=RANKS.index)))
    return tuple(hand)  # type: ignore[return-value]


def _check(hands: dict[str, tuple[str, str, str, str]]) -> None:
    """Thirteen cards a hand and no card in two hands: 52 cards, each once."""
    holder: dict[str, str] = {}
    for seat in SEATS:
        for suit, ranks in zip(SUITS, hands[seat], strict=True):
            for rank in ranks:
                card = suit + rank
                if card in holder:
                    raise ScoringError(
                        f"{card} is in both {SEAT_NAMES[holder[card]]}'s and {SEAT_NAMES[seat]}'s hands."
                    )
                holder[card] = seat
    for seat in SEATS:
        count = sum(len(ranks) for ranks in hands[seat])
        if count != 13:
            raise ScoringError(f"{SEAT_NAMES[seat]} has {count} cards, not 13 ({len(holder)} cards in the deal).")


def parse_deal(text: str) -> Deal:
    """A deal from a PBN record (its Deal, Dealer and Vulnerable tags), a PBN deal string (``N:`` then four
    hands clockwise), or four hands typed North, East, South, West; words ``dealer S`` and ``vul NS`` may
    follow typed hands."""
    dealer, vulnerable = "N", "none"
    record = _PBN_DEAL.search(text)
    if record:
        for tag, value in _PBN_TAG.findall(text):
            dealer, vulnerable = _settings(tag.casefold(), value, dealer, vulnerable)
        text = record[1]
    words = text.split()
    first = "N"
    if words and re.fullmatch(r"[NESW]:.*", words[0], re.I):
        first, words[0] = words[0][0].upper(), words[0][2:]
        if not words[0]:
            words.pop(0)
    hands_typed, rest = words[:4], words[4:]
    while len(rest) >= 2 and rest[0].casefold() in ("dealer", "vul"):
        dealer, vulnerable = _settings(rest[0].casefold(), rest[1], dealer, vulnerable)
        rest = rest[2:]
    if len(hands_typed) != 4 or rest:
        raise ScoringError(
            "A deal is four hands, like N:AKQ2.J98.T87.654 … (North, East, South, West), or a PBN record."
        )
    start = SEATS.index(first)
    seats = [SEATS[(start + n) % 4] for n in range(4)]
    hands = {seat: _hand(seat, typed) for seat, typed in zip(seats, hands_typed, strict=True)}
    _check(hands)
    return Deal(hands, dealer, vulnerable)


def _settings(tag: str, value: str, dealer: str, vulnerable: str) -> tuple[str, str]:
    if tag == "dealer":
        if value.upper() not in tuple(SEATS):
            raise ScoringError(f"Dealer {value[:10]!r} is not a seat: N, E, S or W.")
        return value.upper(), vulnerable
    if value.casefold() not in VULNERABILITIES:
        raise ScoringError(f"Vulnerability {value[:10]!r} not understood: none, NS, EW or all.")
    return dealer, VULNERABILITIES[value.casefold()]


@dataclass(frozen=True, slots=True)
class Analysis:
    """Double-dummy tricks by strain and declarer, and the par contracts with their score for NS."""

    tricks: dict[str, dict[str, int]]
    par: tuple[str, ...]
    par_score: int


def analyse(deal: Deal) -> Analysis:
    """Solve the deal double dummy (endplay's DDS) and find par for its dealer and vulnerability."""
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Denom, Player, Vul

    with _SOLVER:
        table = calc_dd_table(EndplayDeal(deal.pbn()))
    denoms = {"NT": Denom.nt, "S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs}
    players = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
    tricks = {strain: {seat: table[denoms[strain], players[seat]] for seat in SEATS} for strain in STRAIN_ORDER}
    vul = {"none": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "all": Vul.both}[deal.vulnerable]
    found = par(table, vul, players[deal.dealer])
    return Analysis(tricks, tuple(str(contract) for contract in found), found.score)
