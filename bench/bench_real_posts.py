"""The real posts (issue 22) measured as the matching rounds measure a lever: left out by page and by file, each
post also counted in half A or B by a hash of its page, so that a change fitting one half only shows.

Sets: the worked examples gathered from public pages (``knowledge/examples/real-*.jsonl``) and the spent real
held-out sets named in ``SPENT`` — never a set still held out: a new one is named here only once it has had its
one run. Without ``--as-examples`` the spent posts are never examples, so "each file left out" gives their spent
figures; with it they also join the worked examples, as the sixth round's did (each post is still measured with
its own page, or its own file, left out). ``--written``: every written set as well, pooled as
``bench/RESULTS.md`` reports it (the own set, each file of written worked examples left out, the sets never used as
examples), which takes several minutes. Prints queries right at recall@1 / recall@3.
Usage: ``python bench/bench_real_posts.py [--as-examples] [--written]``.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Iterable
from pathlib import Path

from bench_matching import by_page

from bot.laws import load_lawbook
from bot.matching import Matcher, chart_entries
from bot.matching.evaluate import evaluate
from bot.matching.examples import EXAMPLES_DIR, Labelled, read_examples, read_labelled, same_query
from bot.matching.token_cache import CACHE_DIR

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SPENT = tuple(f"queries-real-holdout{n}" for n in (4, 5, 6, 7, 8, 9, 10))  # each run once on its own, then spent
NEVER_EXAMPLES = ("queries", "queries-indep-l", "queries-indep-m", "queries-indep-n", "queries-blind")


def half(item: Labelled) -> str:
    """A post's half, by a hash of its page: the two halves share no page."""
    return "AB"[int(hashlib.sha1((item.source or "").encode()).hexdigest(), 16) % 2]


class Measure:
    """Matchers over the worked examples, each built without the posts being measured."""

    def __init__(self, examples: list[Labelled]) -> None:
        self.book = load_lawbook()
        self.charts = chart_entries()
        self.examples = examples
        self.right: dict[str, list[int]] = {}  # a line of the report → [queries, right first, right in three]

    def matcher(self, leave_out: Iterable[Labelled]) -> Matcher:
        left = {same_query(item.query) for item in leave_out}
        chosen = [e for e in self.examples if same_query(e.query) not in left]
        return Matcher(self.book, self.charts, chosen, CACHE_DIR)

    def count(self, lines: Iterable[str], matcher: Matcher, items: list[Labelled]) -> None:
        """Adds the items' figures to each of the report's lines named."""
        if not items:
            return
        result = evaluate(matcher, items)
        for line in lines:
            row = self.right.setdefault(line, [0, 0, 0])
            row[0] += result.n
            row[1] += round(result.recall_at_1 * result.n)
            row[2] += round(result.recall_at_3 * result.n)

    def posts(self, measure: str, kind: str, matcher: Matcher, items: list[Labelled]) -> None:
        """Real posts: counted in all, in their kind, and in their kind's half."""
        for side in "AB":
            chosen = [item for item in items if half(item) == side]
            self.count((f"{measure}: all", f"{measure}: {kind}", f"{measure}: {kind}, half {side}"), matcher, chosen)


def main(as_examples: bool, written: bool) -> None:
    real = {path.stem: read_labelled(path) for path in sorted(EXAMPLES_DIR.glob("real-*.jsonl"))}
    spent = {name: read_labelled(DATA / f"{name}.jsonl") for name in SPENT}
    extra = [item for items in spent.values() for item in items] if as_examples else []
    measure = Measure([*read_examples(), *extra])
    kinds = {**{name: "real posts" for name in real}, **{name: "spent posts" for name in spent}}
    everything = {**real, **spent}
    tagged = [(kinds[name], item) for name, items in everything.items() for item in items]
    for fold in by_page([item for _kind, item in tagged]):
        matcher = measure.matcher(fold)
        chosen = {id(item) for item in fold}
        for kind in ("real posts", "spent posts"):
            measure.posts("left out by page", kind, matcher, [i for k, i in tagged if k == kind and id(i) in chosen])
    whole = measure.matcher(())
    for name, items in everything.items():
        matcher = measure.matcher(items) if name in real or as_examples else whole
        measure.posts("each file left out", kinds[name], matcher, items)
        measure.count((f"each file left out: {name}",), matcher, items)
    if written:
        for path in sorted(EXAMPLES_DIR.glob("indep-*.jsonl")):
            items = read_labelled(path)
            measure.count(("written sets pooled", f"written: {path.stem}"), measure.matcher(items), items)
        for name in NEVER_EXAMPLES:
            path = DATA / f"{name}.jsonl"
            if path.exists():
                measure.count(("written sets pooled", f"written: {name}"), whole, read_labelled(path))
    for line, (n, first, three) in measure.right.items():
        print(f"{line:<45} {first:>5} / {three:<5} of {n:<5} ({first / n:.3f} / {three / n:.3f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--as-examples", action="store_true", help="the spent posts also join the worked examples")
    parser.add_argument("--written", action="store_true", help="every written set as well (several minutes)")
    arguments = parser.parse_args()
    main(arguments.as_examples, arguments.written)
