"""Law 12C: weighted adjusted scores (12C1(c)) and artificial adjusted scores (12C2).

A weighted score is computed the way regulating authorities do: each outcome is scored on its own, then
its matchpoints (against the rest of the field) or its IMPs (against the other table) are weighted; the
table scores are never averaged first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.scoring.conversion import imps, matchpoints
from bot.scoring.errors import ScoringError

# Law 12C2(a) and (b): at least 60 % / at most 40 % at pairs, ±3 IMPs at teams. knowledge/authorities.yaml
# records these same figures for every authority (pairs_averages, imps_for_averages: no other verified), so
# they are every authority's defaults; a club that sets other words there is shown them, not computed with them.
AVERAGE_PLUS_PAIRS = 60.0
AVERAGE_PAIRS = 50.0
AVERAGE_MINUS_PAIRS = 40.0
AVERAGE_PLUS_IMPS = 3
AVERAGE_MINUS_IMPS = -3
ARTIFICIAL = {
    "pairs": {"plus": AVERAGE_PLUS_PAIRS, "average": AVERAGE_PAIRS, "minus": AVERAGE_MINUS_PAIRS},
    "teams": {"plus": AVERAGE_PLUS_IMPS, "average": 0, "minus": AVERAGE_MINUS_IMPS},
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One result the board might have had, as a table score, and its weight in per cent."""

    score: int
    weight: Fraction


def outcomes(pairs: Sequence[tuple[int, float | Fraction | str]]) -> list[Outcome]:
    """Outcomes from (score, weight %) pairs, checked: each weight above 0, together exactly 100 %."""
    if not pairs:
        raise ScoringError("A weighted score needs at least one outcome.")
    made = []
    for score, weight in pairs:
        try:
            share = Fraction(str(weight).rstrip("%").strip())
        except (ValueError, ZeroDivisionError):
            raise ScoringError(f"Weight {str(weight)[:20]!r} is not a percentage.") from None
        if share <= 0:
            raise ScoringError(f"Weight {float(share):g} % is not above zero: leave that outcome out.")
        made.append(Outcome(score, share))
    total = sum((o.weight for o in made), Fraction(0))
    if total != 100:
        raise ScoringError(f"The weights add up to {float(total):g} %, not 100 %.")
    return made


def weighted_imps(weighted: Sequence[Outcome], other_table: int) -> float:
    """IMPs to this table's side: the IMPs of each outcome against the other table's score, weighted."""
    return float(sum(o.weight * imps(o.score - other_table) for o in weighted) / 100)


def weighted_matchpoints(weighted: Sequence[Outcome], field: Sequence[int]) -> float:
    """Matchpoints for this table: each outcome matchpointed against the other tables' scores, weighted."""
    if not field:
        raise ScoringError("Matchpoints need the other tables' scores on the board to compare.")
    return float(sum(o.weight * matchpoints([o.score, *field])[0] for o in weighted) / 100)


def weighted_percentage(weighted: Sequence[Outcome], field: Sequence[int]) -> float:
    """The weighted matchpoints as a percentage of the top (2 per other table)."""
    return 100 * weighted_matchpoints(weighted, field) / (2 * len(field))


def artificial(form: str, kind: str) -> float:
    """Law 12C2's artificial score: ``form`` pairs (per cent) or teams (IMPs); ``kind`` plus, average, minus."""
    if form not in ARTIFICIAL:
        raise ScoringError(f"Unknown form of scoring {form!r}: pairs or teams.")
    if kind not in ARTIFICIAL[form]:
        raise ScoringError(f"Unknown artificial score {kind!r}: plus, average or minus.")
    return ARTIFICIAL[form][kind]
