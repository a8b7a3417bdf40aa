"""Worked examples: a case's answer with the question's own figures put through the scoring code.

A player who asks "what's a 450 point difference worth in IMPs?" wants 10, not a scale to read; the number
comes from ``bot.scoring`` (the 78B scale read from the law text), never from a table copied here.
"""

from __future__ import annotations

import re

from bot.laws.summaries import Sentence
from bot.scoring.conversion import imps

# A points difference as players name it: "a 450 point difference", "lost by 370 points", "a 230 swing",
# "difference of 1100"; a question naming any other figure (two tables' scores, "620 and 100 points") gets
# none, but a board's, table's, round's or trick's number and a count of IMPs are not scores.
_DIFFERENCE = re.compile(
    r"\b(\d{1,5})[ -]?(?:points?|pts?)\b|\bdifference (?:of )?(\d{1,5})\b|\b(\d{1,5})[ -]?(?:point )?swing\b"
)
_FIGURE = re.compile(r"(?<!board )(?<!boards )(?<!table )(?<!round )(?<!trick )\b(\d{1,5})\b(?! ?imps?\b)")


def worked_sentence(worked: str, lowered: str) -> Sentence | None:
    """The worked example ``worked`` names, from the figures in the lower-cased question; None when the
    question does not state exactly one figure for it."""
    if worked != "imps":
        return None
    figures = {int(next(g for g in m.groups() if g)) for m in _DIFFERENCE.finditer(lowered)}
    if len(figures) != 1 or {int(f) for f in _FIGURE.findall(lowered)} != figures:
        return None
    points = figures.pop()
    won = imps(points)
    return Sentence(f"A difference of {points} points is {won} IMP{'' if won == 1 else 's'}.", ("78B",))
