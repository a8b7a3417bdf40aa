"""Matching quality on a labelled set: ``python -m bot eval FILE.jsonl [--json]``.

Each line is ``{"query": "...", "laws": ["54", ...]}`` (other fields ignored). A query is found at rank k
when any of its laws (integer part: "54A2" counts as 54) is among the first k candidate laws. The matcher
is built without the file's own queries among its worked examples (``knowledge/examples/``), so a set
of examples is measured as if it had never been seen: leave-one-set-out.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bot.matching import Matcher, build_matcher, chart_entries
from bot.matching.examples import Labelled, read_labelled


@dataclass(frozen=True, slots=True)
class Evaluation:
    n: int
    recall_at_1: float
    recall_at_3: float
    mrr: float
    p50_ms: float
    p99_ms: float
    misses: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]

    def as_dict(self) -> dict[str, float | int]:
        return {
            "n": self.n,
            "recall_at_1": round(self.recall_at_1, 4),
            "recall_at_3": round(self.recall_at_3, 4),
            "mrr": round(self.mrr, 4),
            "p50_ms": round(self.p50_ms, 3),
            "p99_ms": round(self.p99_ms, 3),
        }


def evaluate(matcher: Matcher, items: list[Labelled]) -> Evaluation:
    """Recall at 1 and 3, mean reciprocal rank (over the top 3), and latency per query."""
    hits1 = hits3 = 0
    reciprocal = 0.0
    times: list[float] = []
    misses = []
    for item in items:
        started = time.perf_counter()
        result = matcher.match(item.query, limit=3)
        times.append((time.perf_counter() - started) * 1000)
        ranked = [c.law for c in result.candidates] if result.confident else []
        rank = next((i for i, law in enumerate(ranked, start=1) if law in item.laws), None)
        hits1 += rank == 1
        hits3 += rank is not None
        reciprocal += 1 / rank if rank else 0.0
        if rank != 1:
            misses.append((item.query, tuple(sorted(item.laws)), tuple(ranked)))
    n = len(items) or 1
    ordered = sorted(times) or [0.0]
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return Evaluation(len(items), hits1 / n, hits3 / n, reciprocal / n, statistics.median(ordered), p99, tuple(misses))


def run_eval(path: Path, as_json: bool) -> int:
    """The eval command: prints the figures (one JSON object with --json); exit 2 on a bad file."""
    try:
        items = read_labelled(path)
    except FileNotFoundError:
        print(f"No such file: {path}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    matcher = build_matcher(chart_entries(), leave_out=[item.query for item in items])
    result = evaluate(matcher, items)
    if as_json:
        print(json.dumps(result.as_dict()))
        return 0
    print(_summary(f"{path.name}", result))
    for split in sorted({i.split for i in items if i.split}):
        print(_summary(f"  split {split}", evaluate(matcher, [i for i in items if i.split == split])))
    if result.misses:
        print("\nNot first (query → expected; got, or nothing convincing):")
        for query, expected, got in result.misses:
            print(f"  {query!r} → {list(expected)}; got {list(got) or 'nothing convincing'}")
    return 0


def _summary(name: str, result: Evaluation) -> str:
    f = result.as_dict()
    return (
        f"{name}: {f['n']} queries, recall@1 {f['recall_at_1']:.3f}, recall@3 {f['recall_at_3']:.3f}, "
        f"MRR {f['mrr']:.3f}, p50 {f['p50_ms']:.2f} ms, p99 {f['p99_ms']:.2f} ms"
    )


if __name__ == "__main__":
    sys.exit(run_eval(Path(sys.argv[1]), "--json" in sys.argv[2:]) if len(sys.argv) > 1 else 2)
