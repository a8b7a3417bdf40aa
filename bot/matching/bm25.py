"""Okapi BM25 over one document per law: a second, broader signal beside the curated phrases.

People who never saw our keywords describe a situation in words the phrases miss but the law's text, its
players' summary and the glossary's plain words often hold ("dropped a card on the floor" is in no
phrase, yet "dropped" and "floor" sit in Law 24's summary). Fields are weighted by how deliberately
they were written for matching: keywords most, the players' words next, the printed law and the worked
examples (each once, however often they repeat a word) least.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping

import numpy as np

K1 = 1.2  # how fast repeats of a word in one law stop adding
B = 0.75  # how much a long law's document is discounted


def flat_runs(
    gathered: Mapping[str, list[tuple[int, float]]],
) -> tuple[dict[str, tuple[int, int]], np.ndarray, np.ndarray]:
    """Each key's (position, value) pairs as one run of two flat arrays: where its run starts and ends, every
    position, every value. Summing a query's runs with numpy is what makes a long message cheap to score."""
    runs: dict[str, tuple[int, int]] = {}
    positions: list[int] = []
    values: list[float] = []
    for key, pairs in gathered.items():
        runs[key] = (len(positions), len(positions) + len(pairs))
        positions.extend(position for position, _ in pairs)
        values.extend(value for _, value in pairs)
    return runs, np.array(positions, dtype=np.int32), np.array(values, dtype=np.float64)


class Bm25:
    """Scores documents (laws, or worked examples) for a set of query tokens; every term's contribution is
    computed once, at start-up.

    The contributions sit in two flat arrays, each token's run of them found by ``runs``: with six thousand
    worked examples as documents, adding up a query's runs in Python was a third of matching a description
    (about 0.9 ms), and a tuple for every (document, contribution) pair held 16 MB."""

    def __init__(self, documents: Mapping[int, Counter[str]]) -> None:
        lengths = {key: sum(doc.values()) for key, doc in documents.items()}
        average = sum(lengths.values()) / max(1, len(lengths))
        self.frequency = Counter(token for doc in documents.values() for token in doc)
        total = len(documents)
        gathered: dict[str, list[tuple[int, float]]] = {}
        for position, (key, doc) in enumerate(documents.items()):
            norm = K1 * (1 - B + B * lengths[key] / (average or 1))
            for token, count in doc.items():
                found = self.frequency[token]
                idf = math.log(1 + (total - found + 0.5) / (found + 0.5))
                gathered.setdefault(token, []).append((position, idf * count * (K1 + 1) / (count + norm)))
        self.keys = list(documents)
        self.runs, self._positions, self._parts = flat_runs(gathered)
        self.vocabulary = {key: frozenset(doc) for key, doc in documents.items()}

    def _summed(self, tokens: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
        """Every document's score, and the positions of those sharing a token with the query."""
        summed = np.zeros(len(self.keys))
        hit = np.zeros(len(self.keys), dtype=bool)
        for token in set(tokens):
            run = self.runs.get(token)
            if run is not None:
                positions = self._positions[run[0] : run[1]]
                summed[positions] += self._parts[run[0] : run[1]]  # a document appears once in a token's run
                hit[positions] = True
        return summed, np.flatnonzero(hit)

    def scores(self, tokens: Iterable[str]) -> dict[int, float]:
        """Each document's BM25 score for the distinct tokens (documents sharing no token are left out)."""
        summed, found = self._summed(tokens)
        return {self.keys[i]: float(summed[i]) for i in found.tolist()}

    def best(self, tokens: Iterable[str], count: int) -> list[tuple[int, float]]:
        """The ``count`` best documents and their scores, best first (ties: the earlier document first)."""
        summed, found = self._summed(tokens)
        if len(found) > count:
            found = found[np.argpartition(-summed[found], count - 1)[:count]]
        ranked = sorted(found.tolist(), key=lambda i: (-summed[i], i))
        return [(self.keys[i], float(summed[i])) for i in ranked]
