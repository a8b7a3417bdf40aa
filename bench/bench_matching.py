"""Matching quality and latency on tests/data/queries.jsonl, against a plain baseline in the same run.

The baseline ranks laws by rapidfuzz WRatio between the query and each law title only. Prints recall@1,
recall@3, MRR and p50/p99 latency for both, the ratios, the matcher's start-up time, and how latency
grows with the number of phrases (the knowledge base repeated 1×, 2×, 4×).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from rapidfuzz import fuzz, process, utils

from bot.laws import load_lawbook
from bot.matching import Candidate, Matcher, MatchResult, build_matcher, chart_entries
from bot.matching.evaluate import Evaluation, evaluate, read_labelled

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "queries.jsonl"


class TitleBaseline:
    """rapidfuzz over the 93 law titles: what a search box over the index would give."""

    def __init__(self) -> None:
        self.book = load_lawbook()
        self.titles = {n: law.title for n, law in self.book.laws.items()}

    def match(self, text: str, limit: int = 3) -> MatchResult:
        found = process.extract(text, self.titles, scorer=fuzz.WRatio, processor=utils.default_process, limit=limit)
        candidates = tuple(Candidate(n, title, (), score, ()) for title, score, n in found)
        return MatchResult(text, candidates, None, True, None, ())


def split_items(split: str) -> list:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = [r for r in rows if r.get("split") == split]
    tmp = Path("/tmp/_bench_split.jsonl")
    tmp.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in chosen), encoding="utf-8")
    return read_labelled(tmp)


def line(name: str, result: Evaluation) -> str:
    f = result.as_dict()
    return (
        f"{name:<22} n={f['n']:>3}  r@1 {f['recall_at_1']:.3f}  r@3 {f['recall_at_3']:.3f}  "
        f"MRR {f['mrr']:.3f}  p50 {f['p50_ms']:.3f} ms  p99 {f['p99_ms']:.3f} ms"
    )


def main() -> None:
    started = time.perf_counter()
    matcher = build_matcher(chart_entries())
    startup_ms = (time.perf_counter() - started) * 1000
    baseline = TitleBaseline()
    items = read_labelled(DATA)
    ours, base = evaluate(matcher, items), evaluate(baseline, items)  # the baseline is duck-typed
    print(f"matcher start-up: {startup_ms:.0f} ms (target ≤ 300 ms); {len(matcher.phrases)} phrases")
    print(line("matcher (all)", ours))
    print(line("baseline titles (all)", base))
    for split in ("dev", "holdout"):
        print(line(f"matcher ({split})", evaluate(matcher, split_items(split))))
    print(
        f"ratios vs baseline: r@1 ×{ours.recall_at_1 / max(base.recall_at_1, 1e-9):.2f}, "
        f"r@3 ×{ours.recall_at_3 / max(base.recall_at_3, 1e-9):.2f}, p99 ×{ours.p99_ms / max(base.p99_ms, 1e-9):.2f}"
    )
    queries = [i.query for i in items]
    for factor in (1, 2, 4):
        grown = Matcher(matcher.book, chart_entries())
        grown.phrases = grown.phrases * factor
        grown.by_token = {}
        for index, phrase in enumerate(grown.phrases):
            for token in phrase.tokens:
                grown.by_token.setdefault(token, []).append(index)
        times = []
        for query in queries:
            t = time.perf_counter()
            grown.match(query)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        print(
            f"phrases ×{factor} ({len(grown.phrases)}): p50 {statistics.median(times):.3f} ms, "
            f"p99 {times[int(0.99 * (len(times) - 1))]:.3f} ms"
        )


if __name__ == "__main__":
    main()
