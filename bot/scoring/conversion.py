"""Law 78: a score difference in IMPs (the 78B scale, read from the law text) and matchpoints for a board."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import cache
from itertools import pairwise

from bot.laws import KnowledgeError, load_lawbook
from bot.scoring.errors import ScoringError

_BAND = re.compile(r"(\d+)\s*[–-]\s*(\d+)\s+(\d+)|(\d+)\+\s+(\d+)")


def parse_imp_scale(text: str) -> tuple[int, ...]:
    """The lowest difference of each IMP band, index = IMPs, from the text of Law 78B.

    The law prints the scale as three columns of ``from–to IMPs`` (the last band ``4000+``); the bands are
    sorted, checked to run on without a gap (each starts 10 above the last one's end) and to give every IMP
    from 0 to 24 once, so a changed or garbled law text fails loudly instead of scoring wrongly.
    """
    bands: list[tuple[int, int | None, int]] = []
    for match in _BAND.finditer(text):
        if match[1] is not None:
            bands.append((int(match[1]), int(match[2]), int(match[3])))
        else:
            bands.append((int(match[4]), None, int(match[5])))
    bands.sort()
    if [imps for _low, _high, imps in bands] != list(range(len(bands))) or len(bands) < 2:
        raise KnowledgeError("Law 78B: the IMP scale does not give each IMP once, in order")
    for (_low, high, _imps), (next_low, _next_high, _next_imps) in pairwise(bands):
        if high is None or next_low != high + 10:
            raise KnowledgeError(f"Law 78B: the IMP scale has a gap or overlap at {next_low}")
    if bands[0][0] != 0 or bands[-1][1] is not None:
        raise KnowledgeError("Law 78B: the IMP scale must start at 0 and end open (4000+)")
    return tuple(low for low, _high, _imps in bands)


@cache
def imp_scale() -> tuple[int, ...]:
    """Law 78B's scale from the knowledge base, read once."""
    section = load_lawbook().section("78B")
    if section is None:
        raise KnowledgeError("Law 78B is missing from the knowledge base")
    return parse_imp_scale(section.text)


def imps(difference: float) -> int:
    """IMPs for a point difference, signed like it.

    Play only makes differences in tens; one that falls between two bands (15) takes the lower band.
    """
    won = bisect_right(imp_scale(), abs(difference)) - 1
    return won if difference >= 0 else -won


def matchpoints(scores: Sequence[int]) -> list[int]:
    """Matchpoints of each score on a board against all the others, in the order given (Law 78A).

    The convention is two per score beaten and one per score tied (top = 2 × (number of scores − 1)), as
    Law 78A prints it; halve them for the one-per-beaten convention, the percentages are the same.
    """
    if len(scores) < 2:
        raise ScoringError("Matchpoints need at least two scores on the board to compare.")
    return [sum(2 if own > other else 1 if own == other else 0 for other in scores) - 1 for own in scores]


def percentages(scores: Sequence[int]) -> list[float]:
    """Each score's matchpoints as a percentage of the top."""
    top = 2 * (len(scores) - 1)
    return [100 * points / top for points in matchpoints(scores)]
