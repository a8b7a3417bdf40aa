"""The director's arithmetic: Law 77 scores, Law 78 IMPs and matchpoints, Law 12C adjusted scores.

Pure functions over plain values; every input error is a ``ScoringError`` whose message is one line.
The front ends call ``bot.scoring.service``.
"""

from bot.scoring.contract import Result, make_result, parse_result, parse_vulnerability
from bot.scoring.conversion import imps, matchpoints, percentages
from bot.scoring.errors import ScoringError
from bot.scoring.score import score

__all__ = [
    "Result",
    "ScoringError",
    "imps",
    "make_result",
    "matchpoints",
    "parse_result",
    "parse_vulnerability",
    "percentages",
    "score",
]
