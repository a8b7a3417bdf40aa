"""Worked examples: descriptions people wrote of table situations, each with the law that answers it.

Curated phrases catch the words a director expects; people who never saw them say "she put her card back"
or "the one on my left bid again". The examples in ``knowledge/examples/*.jsonl`` (written independently,
by people who never saw the keyword lists) carry that way of speaking. Two classical signals read them,
both over the query's tokens and adjacent token pairs as the matcher normalises them:

- nearest examples (BM25 over the example texts): the laws of the ten most similar examples, each weighted
  by its similarity to the best;
- naive Bayes per law: how typical the query's words are of the law's examples taken together, each example
  read as its features' weights (log count × IDF) and weighing one in all, so a long forum post does not
  outweigh ten short messages.

Neither decides alone: they add a bounded number of points to the phrase scores, and a result the
phrases found weak is given only when both agree with the first-ranked law (``bot.matching.matcher._agreed``).
"""

from __future__ import annotations

import heapq
import itertools
import json
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.laws.book import KNOWLEDGE_DIR, LawBook
from bot.laws.lint import Finding, LintReport
from bot.laws.refs import law_number
from bot.matching.bm25 import Bm25, flat_runs
from bot.matching.normalise import THAI, clean, thai_key

EXAMPLES_DIR = KNOWLEDGE_DIR / "examples"
NEAREST = 10  # examples that vote
TELLING = 16  # the query's rarest features that find the nearest examples ...
PER_WORD = 2.0  # ... or, in a longer message, two per word ...
MOST_TELLING = 32  # ... up to this many
SMOOTHING = 0.01  # naive Bayes: pseudo-weight of a feature a law's examples never used (an example weighs 1)
NEAREST_SHARE = 0.5  # the nearest examples' part of the examples' say; naive Bayes has the rest
# An example from a spent written held-out set (``written-*.jsonl``) weighs half in naive Bayes: at full weight the
# written sets' own mix of laws cost the older example files more (bench/RESULTS.md, twenty-fifth round).
WRITTEN_NAIVE_BAYES = 0.5


@dataclass(frozen=True, slots=True)
class Labelled:
    """A description as someone wrote it, with the law(s) that answer it: a worked example, or a query of
    a set being measured."""

    query: str
    laws: frozenset[int]
    split: str | None = None  # "dev" or "holdout" in the project's own set; reported apart when present
    source: str | None = None  # the public page the words were taken from (required in a gathered file)


def gathered(path: Path) -> bool:
    """Whether a file holds words gathered from public pages (``real-*.jsonl``, ``queries-real-*.jsonl``):
    each of its lines must then say where it was found, so every example keeps its provenance."""
    return path.stem.removeprefix("queries-").startswith("real-")


def read_labelled(path: Path) -> list[Labelled]:
    """One file of labelled descriptions (``{"query": ..., "laws": [...]}`` per line, and ``"source": URL``
    in a gathered file); ValueError with the line number when a line is malformed or lacks its source."""
    items = []
    public = gathered(path)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            if not isinstance(raw["laws"], list) or not raw["laws"]:
                raise TypeError("laws must be a non-empty list")
            laws = frozenset(law_number(str(law)) for law in raw["laws"])
            split, source = raw.get("split"), raw.get("source")
            if public and not (isinstance(source, str) and source.startswith(("https://", "http://"))):
                raise TypeError('a line gathered from a public page needs its page: "source": "https://…"')
            items.append(
                Labelled(
                    str(raw["query"]),
                    laws,
                    split if isinstance(split, str) else None,
                    source if isinstance(source, str) else None,
                )
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f'{path}:{number}: expected {{"query": ..., "laws": [...]}} ({exc})') from exc
    return items


def read_examples(directory: Path = EXAMPLES_DIR) -> list[Labelled]:
    """Every worked example: the directory's ``*.jsonl`` files."""
    return [item for path in sorted(directory.glob("*.jsonl")) for item in read_labelled(path)]


def spent_written(example: Labelled) -> bool:
    """Whether an example comes from a spent written held-out set (``written-*.jsonl``, split ``written-NN``):
    such sets span the whole book in a few writers' voices, so they vote and teach naive Bayes at half weight, but
    their words stay out of the laws' own BM25 documents."""
    return (example.split or "").startswith("written-")


def same_query(query: str) -> str:
    """A description as compared with another: case and spacing do not make it a different one."""
    return " ".join(query.lower().split())


def lint_examples(book: LawBook, directory: Path = EXAMPLES_DIR) -> LintReport:
    """Every example file parses (a gathered one with each line's source), every law it names exists, and no
    description appears twice."""
    try:
        examples = read_examples(directory)
    except (ValueError, OSError) as exc:
        return LintReport([Finding("knowledge/examples", str(exc))], [])
    problems = [
        Finding("knowledge/examples", f"{example.query!r} names Law {law}, which does not exist")
        for example in examples
        for law in sorted(example.laws - book.laws.keys())
    ]
    seen = Counter(same_query(e.query) for e in examples)
    problems += [Finding("knowledge/examples", f"{query!r} appears {n} times") for query, n in seen.items() if n > 1]
    return LintReport(problems, [])


def features(tokens: list[str], text: str) -> Counter[str]:
    """The tokens and each adjacent pair ("lead out" and "out turn" tell more than "lead", "out", "turn"),
    and every three letters of Thai: Thai is written without spaces, and the glossary knows only the bridge
    terms, so the rest of a Thai description ("ไม่ยอม", "คืน") is read by its letters."""
    found = Counter(tokens)
    found.update(f"{a} {b}" for a, b in itertools.pairwise(tokens))
    for run in THAI.findall(clean(text)) if THAI.search(text) else ():
        key = thai_key(run)
        found.update(key[i : i + 3] for i in range(len(key) - 2))
    return found


class ExampleVotes:
    """Scores laws for a query by the examples it resembles. Built once per process."""

    def __init__(self, examples: Iterable[Labelled], tokens: Callable[[str], list[str]]) -> None:
        self.examples = [e for e in examples if e.laws]
        documents = {index: features(tokens(e.query), e.query) for index, e in enumerate(self.examples)}
        self.nearest = Bm25(documents)
        # Scoring each feature's list of examples is most of the time a query costs, so the nearest examples
        # are found by the query's RAREST features, which decide BM25 anyway ("card", "bid" and "partner" are
        # in hundreds of examples): 16, or two per word of a longer message up to 32. Sixteen alone let a
        # forum post's neighbours be chosen by its rarest words, often a name, a place or a hand's cards; 32
        # put the right law among the first three for 10 more of 433 real posts left out by page (every
        # feature: 18 more, but one file of real posts lost 3 of 43 at recall@1; bench/RESULTS.md). The count
        # goes by words, not features: Thai is also read by its letters' trigrams, many per word, and reading
        # more of them cost the Thai examples.
        self.spread = self.nearest.frequency
        # Naive Bayes learns each example as its features' weights, not their raw counts (Rennie et al., 2003):
        # a repeated feature counts as log(1 + n), a feature common to many examples counts less (its IDF),
        # and each example weighs one in all (unit length), so a long forum post no longer outweighs ten
        # short messages in its law's counts. A query's features still count once each (weighing them too
        # made chatter with one rare word firm). Real posts +6 / +3, the written sets +46 / +13 (RESULTS.md).
        self.weight = {f: math.log(len(self.examples) / n) for f, n in self.spread.items()}
        counts: dict[int, Counter[str]] = {}
        for index, example in enumerate(self.examples):
            weighted = self._weighted(documents[index])
            share = WRITTEN_NAIVE_BAYES if spent_written(example) else 1.0
            length = (math.sqrt(sum(w * w for w in weighted.values())) or 1.0) / share
            for law in example.laws:
                counts.setdefault(law, Counter()).update({f: w / length for f, w in weighted.items()})
        vocabulary = {feature for counted in counts.values() for feature in counted}
        # log P(feature | law) = log(count + s) - log(total + s·V): kept as the part every unseen feature
        # shares (per law) and, for the features a law's examples used, what they add above it.
        # Each feature's lifts sit in one run of two flat arrays (as Bm25 keeps its contributions): adding
        # up a long post's features law by law in Python cost about a millisecond.
        self.laws = sorted(counts)
        spread = SMOOTHING * len(vocabulary)
        self.unseen = np.array([math.log(SMOOTHING) - math.log(sum(counts[n].values()) + spread) for n in self.laws])
        seen: dict[str, list[tuple[int, float]]] = {}
        for position, law in enumerate(self.laws):
            for feature, count in counts[law].items():
                seen.setdefault(feature, []).append((position, math.log(count + SMOOTHING) - math.log(SMOOTHING)))
        self.lift_runs, self._lift_law, self._lift = flat_runs(seen)

    def _weighted(self, found: Counter[str]) -> dict[str, float]:
        """An example's features as naive Bayes learns them: log(1 + count) × the feature's IDF over the examples."""
        return {f: math.log1p(n) * self.weight.get(f, 0.0) for f, n in found.items()}

    def votes(self, tokens: list[str], text: str) -> tuple[dict[int, float], dict[int, float]]:
        """The nearest examples' vote per law (the best law 1.0) and the naive Bayes posterior per law."""
        query = features(tokens, text)
        size = max(TELLING, min(MOST_TELLING, int(PER_WORD * len(tokens))))
        telling = heapq.nsmallest(size, (f for f in query if f in self.spread), key=self.spread.__getitem__)
        nearest: dict[int, float] = {}
        ranked = self.nearest.best(telling, NEAREST)
        if ranked:
            best = ranked[0][1]
            for index, similar in ranked:
                laws = self.examples[index].laws
                for law in laws:
                    nearest[law] = nearest.get(law, 0.0) + similar / best / len(laws)
            top = max(nearest.values())
            nearest = {law: vote / top for law, vote in nearest.items()}
        known = [(self.lift_runs[f], n) for f, n in query.items() if f in self.lift_runs]
        if not known:
            return nearest, {}
        laws = np.concatenate([self._lift_law[start:end] for (start, end), _n in known])
        lifts = np.concatenate([self._lift[start:end] * n for (start, end), n in known])
        log_p = sum(n for _run, n in known) * self.unseen + np.bincount(laws, lifts, minlength=len(self.laws))
        weights = np.exp(log_p - log_p.max())
        shares = weights / weights.sum()
        return nearest, {self.laws[i]: float(shares[i]) for i in np.flatnonzero(shares >= 0.001).tolist()}


def mix(nearest: dict[int, float], typical: dict[int, float]) -> dict[int, float]:
    """How much the examples favour each law, 0..1: the two signals of ``ExampleVotes.votes`` mixed."""
    return {
        law: NEAREST_SHARE * nearest.get(law, 0.0) + (1 - NEAREST_SHARE) * typical.get(law, 0.0)
        for law in nearest.keys() | typical.keys()
    }
