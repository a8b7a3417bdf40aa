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

K1 = 1.2  # how fast repeats of a word in one law stop adding
B = 0.75  # how much a long law's document is discounted


class Bm25:
    """Scores laws for a set of query tokens; every term's contribution is computed once, at start-up."""

    def __init__(self, documents: Mapping[int, Counter[str]]) -> None:
        lengths = {law: sum(doc.values()) for law, doc in documents.items()}
        average = sum(lengths.values()) / max(1, len(lengths))
        frequency = Counter(token for doc in documents.values() for token in doc)
        total = len(documents)
        gathered: dict[str, list[tuple[int, float]]] = {}
        for law, doc in documents.items():
            norm = K1 * (1 - B + B * lengths[law] / (average or 1))
            for token, count in doc.items():
                idf = math.log(1 + (total - frequency[token] + 0.5) / (frequency[token] + 0.5))
                gathered.setdefault(token, []).append((law, idf * count * (K1 + 1) / (count + norm)))
        self.postings = {token: tuple(laws) for token, laws in gathered.items()}
        self.vocabulary = {law: frozenset(doc) for law, doc in documents.items()}

    def scores(self, tokens: Iterable[str]) -> dict[int, float]:
        """Each law's BM25 score for the distinct tokens (laws sharing no token are left out)."""
        found: dict[int, float] = {}
        for token in set(tokens):
            for law, part in self.postings.get(token, ()):
                found[law] = found.get(law, 0.0) + part
        return found
