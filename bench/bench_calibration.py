"""How much "likely", "possible" and "not sure" mean: a reliability table on sets never used as examples.

The bot says a situation is "likely" or "possible" by `how_sure` (bot/answers/replies.py: a score of 100, or a
first score of 80-99 that clearly leads the next), and that it is not sure when the matcher finds nothing
convincing. For each set kept
out of the examples (tests/data/queries-indep-l, -m, -n, the blind set, and any held-out set of real forum
questions, tests/data/queries-real-*.jsonl) this prints recall@1 / recall@3 and, per band of the first score,
how many answers fell in it and how many of those were right (first law right; a right law among the first
three). The first three real held-out sets, once measured, became worked examples (real-forums-6, -7, -8).
Usage: ``python bench/bench_calibration.py [FILE.jsonl ...]`` (default: those sets).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from bot.answers.replies import how_sure
from bot.matching import Matcher, build_matcher, chart_entries
from bot.matching.evaluate import evaluate
from bot.matching.examples import Labelled, read_labelled

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
NAMES = ("indep-l", "indep-m", "indep-n", "blind")
SETS = (*(DATA / f"queries-{name}.jsonl" for name in NAMES), *sorted(DATA.glob("queries-real-*.jsonl")))
FLOORS = ((100.0, "100"), (80.0, "80-99"), (60.0, "60-79"), (0.0, "<60"))  # bands of the first candidate's score


def reliability(matcher: Matcher, items: Iterable[Labelled]) -> dict[str, list[int]]:
    """Per band (and "not sure"): answers, first law right, a right law among the first three."""
    table: dict[str, list[int]] = {}
    for item in items:
        result = matcher.match(item.query)
        laws = [c.law for c in result.candidates]
        band = "not sure"
        if result.confident and laws:
            first = result.candidates[0]
            band = f"{how_sure(result, first)} {next(name for floor, name in FLOORS if first.score >= floor)}"
        row = table.setdefault(band, [0, 0, 0])
        row[0] += 1
        row[1] += bool(laws) and laws[0] in item.laws
        row[2] += bool(set(laws[:3]) & item.laws)
    return table


def main(paths: list[Path]) -> None:
    matcher = build_matcher(chart_entries())  # none of these sets is an example
    pooled: dict[str, list[int]] = {}
    for path in paths:
        items = read_labelled(path)
        figures = evaluate(matcher, items)
        print(f"{path.name}: n={figures.n} r@1 {figures.recall_at_1:.3f} r@3 {figures.recall_at_3:.3f}")
        for band, (n, first, three) in reliability(matcher, items).items():
            pooled.setdefault(band, [0, 0, 0])
            pooled[band] = [a + b for a, b in zip(pooled[band], (n, first, three), strict=True)]
            if n:
                print(f"  {band:<14} {n:>4}  first right {first / n:.2f}  right in the first three {three / n:.2f}")
    print("pooled:")
    for band, (n, first, three) in pooled.items():
        if n:
            print(f"  {band:<14} {n:>4}  first right {first / n:.2f}  right in the first three {three / n:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sets", nargs="*", type=Path, help="labelled JSONL files (default: the sets named above)")
    chosen = parser.parse_args().sets or list(SETS)
    missing = [str(path) for path in chosen if not path.is_file()]
    if missing:
        sys.exit(f"no such file: {', '.join(missing)}")
    main(chosen)
