"""Contracts and results as a director writes them: ``4SX=``, ``3NT+1``, ``6H-2``, ``4♠X=``, ``7NTXX-3``.

A result is relative to the contract: ``=`` made exactly, ``+N`` overtricks, ``-N`` undertricks; no result
means made exactly. ``pass`` is a passed-out board. Vulnerability is ``vul``/``v`` or ``nv``/``non``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.scoring.errors import ScoringError

STRAINS = ("C", "D", "H", "S", "NT")
SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "N": "NT"}
SHOWN = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}
DOUBLINGS = {"": 0, "X": 1, "XX": 2, "*": 1, "**": 2}
VULNERABLE = {"vul": True, "v": True, "vulnerable": True, "nv": False, "non": False, "nonvul": False, "not": False}
PASSED_OUT = ("pass", "passed", "passout", "passedout", "p")

_SHAPE = re.compile(r"(?P<level>\d{1,3})(?P<strain>NT|[A-Z♣♦♥♠]*?)(?P<double>XX|X|\*\*|\*)?(?P<result>=|[+-]\d{1,3})?")


@dataclass(frozen=True, slots=True)
class Result:
    """A contract and how it went: ``level`` 1–7 (0 for a passed-out board), ``doubled`` 0, 1 (X) or 2 (XX),
    ``over`` the tricks above (positive) or below (negative) the contract."""

    level: int
    strain: str
    doubled: int = 0
    over: int = 0

    @property
    def passed_out(self) -> bool:
        return self.level == 0

    @property
    def tricks(self) -> int:
        """Tricks declarer took."""
        return self.level + 6 + self.over

    def __str__(self) -> str:
        if self.passed_out:
            return "passed out"
        result = "=" if self.over == 0 else f"{self.over:+d}"
        return f"{self.level}{SHOWN[self.strain]}{'X' * self.doubled}{result}"


def make_result(level: int, strain: str, doubled: int = 0, over: int = 0) -> Result:
    """A result, checked: level 1–7, a known strain, and a number of tricks declarer can take (0–13)."""
    if not 1 <= level <= 7:
        raise ScoringError(f"Level {level} does not exist: a contract is from 1 to 7.")
    if strain not in STRAINS:
        raise ScoringError(f"Unknown strain {strain!r}: use C, D, H, S or NT (or ♣ ♦ ♥ ♠).")
    if doubled not in (0, 1, 2):
        raise ScoringError("A contract is undoubled, doubled (X) or redoubled (XX).")
    made = Result(level, strain, doubled, over)
    if made.tricks > 13:
        raise ScoringError(f"{made} is impossible: that is {made.tricks} tricks and a deal has 13.")
    if made.tricks < 0:
        raise ScoringError(f"{made} is impossible: {level}{SHOWN[strain]} can go at most {level + 6} down.")
    return made


def parse_result(text: str) -> Result:
    """``4SX=`` and the like into a checked ``Result``; anything else is a ``ScoringError`` saying why."""
    compact = "".join(text.split()).upper()
    if compact.casefold() in PASSED_OUT:
        return Result(0, "NT")
    shape = _SHAPE.fullmatch(compact)
    if shape is None:
        raise ScoringError(
            f"Cannot read {text.strip()[:40]!r} as a contract: "
            "write level, strain, X or XX, result (4SX=, 3NT+1, 6H-2)."
        )
    strain = SYMBOLS.get(shape["strain"], shape["strain"])
    if not strain:
        raise ScoringError(f"{text.strip()[:40]!r} has no strain: use C, D, H, S or NT (or ♣ ♦ ♥ ♠).")
    result = shape["result"] or "="
    over = 0 if result == "=" else int(result)
    if result in ("+0", "-0"):
        raise ScoringError(f"{result} is not a result: write = for a contract made exactly.")
    return make_result(int(shape["level"]), strain, DOUBLINGS[shape["double"] or ""], over)


def parse_vulnerability(text: str) -> bool:
    """``vul``/``v`` → vulnerable, ``nv``/``non`` → not vulnerable."""
    word = text.strip().casefold().replace("-", "").replace(" ", "")
    if word not in VULNERABLE:
        raise ScoringError(f"Vulnerability {text.strip()[:20]!r} not understood: write vul or nv.")
    return VULNERABLE[word]
