"""Table language → candidate laws and charts, explainably, with no language model.

Each law has phrases: its curated keywords (``knowledge/keywords.yaml``), the keywords of the charts that
serve it, its title and its section headings. A query is normalised (abbreviations, suits, bids, Thai
terms, typos against the vocabulary with rapidfuzz), then each phrase scores by how much of its
rarity-weighted words the query contains. A law's score is its best phrase plus a share of its next
best; the phrases that matched are the explanation. Nothing convincing → no candidates, a hint, and the
most common situations instead.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml
from rapidfuzz import fuzz, process

from bot.laws import LawBook, load_lawbook, parse_ref

KNOWLEDGE = Path(__file__).resolve().parents[2] / "knowledge"
MAX_QUERY = 500  # characters considered; longer text is cut (a description, not an essay)
CONFIDENT = 38.0  # a top score below this is "nothing convincing"
COMMON_SITUATIONS = (54, 27, 61, 16, 50, 70, 31, 25, 75, 13)
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "of",
        "and",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "as",
        "is",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "then",
        "there",
        "he",
        "she",
        "his",
        "her",
        "him",
        "they",
        "them",
        "their",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "what",
        "when",
        "who",
        "which",
        "if",
        "so",
        "but",
        "did",
        "do",
        "does",
        "has",
        "have",
        "had",
        "just",
        "about",
        "after",
        "before",
        "while",
        "into",
        "out",
        "up",
        "down",
        "over",
    ]
) - {"out", "up", "down", "over", "before", "after"}
HINT = (
    "Say who did what, and when — for example “LHO led out of turn”, “partner hesitated then bid 4♠”, "
    "“dummy pointed out a revoke”, or “he claimed but a trump is out”. You can also type a law: “law 27”."
)


@dataclass(frozen=True, slots=True)
class ChartEntry:
    """What the matcher needs to know of a flowchart (the dialog engine builds these)."""

    id: str
    title: str
    laws: tuple[str, ...]
    keywords: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Candidate:
    law: int
    title: str
    charts: tuple[str, ...]
    score: float  # 0..100
    matched: tuple[str, ...]  # the phrases of the knowledge base the query matched: the "why"


@dataclass(frozen=True, slots=True)
class MatchResult:
    query: str
    candidates: tuple[Candidate, ...]
    direct_ref: str | None  # canonical reference when the text was a law reference
    confident: bool
    message: str | None  # why nothing convincing / a law that does not exist / empty text, with a hint
    suggestions: tuple[Candidate, ...]  # common situations to offer when not confident


@dataclass(frozen=True, slots=True)
class _Phrase:
    text: str
    law: int
    tokens: tuple[str, ...]
    weight: float  # curated keywords count fully; titles and headings a little less
    chart: str | None


def _stem(word: str) -> str:
    """A light English stemmer: enough to make 'revoked', 'revokes' and 'revoking' one word."""
    for suffix, keep in (("ation", "at"), ("ion", ""), ("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if len(word) > len(suffix) + 3 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)] + keep
    return word


_SUITS = {
    "♠": " spades ",
    "♥": " hearts ",
    "♦": " diamonds ",
    "♣": " clubs ",
    "♤": " spades ",
    "♡": " hearts ",
    "♢": " diamonds ",
    "♧": " clubs ",
}
_BID = re.compile(r"\b([1-7])\s?(nt|n|c|d|h|s|clubs?|diamonds?|hearts?|spades?|no ?trumps?)\b")
_DENOMINATIONS = {"nt": "notrump", "n": "notrump", "c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
_REFERENCE = re.compile(r"^\s*(?:laws?|l)\s*\.?\s*\d|^\s*\d{1,3}\s*[a-hA-H]?\s*\d?\s*(?:\(?[a-z]\)?)?\s*$")


class Matcher:
    """Rank laws for a description. Built once per process; ``match`` is pure and fast."""

    def __init__(self, book: LawBook, charts: Iterable[ChartEntry] = ()) -> None:
        self.book = book
        self.charts = tuple(charts)
        keywords = _load_yaml("keywords.yaml")["laws"]
        shorthand = _load_yaml("abbreviations.yaml")
        self.abbreviations: dict[str, str] = {**shorthand["abbreviations"], **shorthand["words"]}
        self.multiword = sorted(shorthand["phrases"].items(), key=lambda pair: -len(pair[0]))
        self.thai = sorted(
            (
                (_thai(spelling), term["english"])
                for term in _load_yaml("thai.yaml")["terms"]
                for spelling in term["thai"]
            ),
            key=lambda pair: -len(pair[0]),
        )
        self.charts_by_law: dict[int, list[str]] = {}
        for chart in self.charts:
            for number in dict.fromkeys(_law_number(ref) for ref in chart.laws):
                self.charts_by_law.setdefault(number, []).append(chart.id)
        raw: list[tuple[str, int, float, str | None]] = []
        for number, phrases in keywords.items():
            raw += [(p, int(number), 1.0, None) for p in phrases]
        for chart in self.charts:
            primary = _law_number(chart.laws[0]) if chart.laws else None
            if primary is not None:
                raw += [(k, primary, 1.0, chart.id) for k in chart.keywords]
                raw.append((chart.title, primary, 0.9, chart.id))
        for law in book.laws.values():
            raw.append((law.title, law.number, 0.9, None))
            raw += [(s.heading, law.number, 0.6, None) for s in law.sections if s.heading]
        phrases = []
        for text, number, weight, chart in raw:
            tokens = tuple(dict.fromkeys(self._tokens(self._normalise(text))))
            if tokens:
                phrases.append(_Phrase(text, number, tokens, weight, chart))
        self.phrases = tuple(phrases)
        frequency = Counter(token for p in self.phrases for token in set(p.tokens))
        total = len(self.phrases)
        self.idf = {token: math.log(1 + total / count) for token, count in frequency.items()}
        self.vocabulary = sorted(self.idf)
        self.by_token: dict[str, list[int]] = {}
        for index, phrase in enumerate(self.phrases):
            for token in phrase.tokens:
                self.by_token.setdefault(token, []).append(index)
        self._corrections: dict[str, str | None] = {}

    # --- normalisation -------------------------------------------------------------------------

    def _normalise(self, text: str) -> str:
        text = _thai(unicodedata.normalize("NFKC", text))
        for spelling, english in self.thai:
            if spelling in text:
                text = text.replace(spelling, f" {english} ")
        for symbol, word in _SUITS.items():
            text = text.replace(symbol, word)
        text = text.lower().replace("’", "'").replace("‐", "-")
        text = re.sub(r"[^\w\s'-]", " ", text)
        text = _BID.sub(lambda m: f" {m.group(1)} {_DENOMINATIONS.get(m.group(2), m.group(2))} bid ", text)
        words = [self.abbreviations.get(w, w) for w in re.split(r"[\s'-]+", text) if w]
        joined = f" {' '.join(words)} "
        for phrase, word in self.multiword:
            joined = joined.replace(f" {phrase} ", f" {word} ")
        return joined.strip()

    def _tokens(self, text: str) -> list[str]:
        return [_stem(w) for w in text.split() if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]

    def _correct(self, token: str) -> str | None:
        """The vocabulary word a typed word stands for (a typo fixed), or None."""
        if token in self.idf:
            return token
        if token in self._corrections:
            return self._corrections[token]
        found = None
        if len(token) >= 4 and not token.isdigit():
            cutoff = 86 if len(token) < 7 else 84
            best = process.extractOne(token, self.vocabulary, scorer=fuzz.ratio, score_cutoff=cutoff)
            found = best[0] if best and best[0][0] == token[0] else None  # typos rarely change the first letter
        if len(self._corrections) < 50_000:
            self._corrections[token] = found
        return found

    # --- matching ------------------------------------------------------------------------------

    def match(self, text: str, limit: int = 3) -> MatchResult:
        query = (text or "")[:MAX_QUERY]
        cleaned = "".join(ch for ch in query if unicodedata.category(ch)[0] != "C" or ch in "\n\t")
        if not cleaned.strip():
            return self._nothing(query, "Tell me what happened at the table.")
        direct = self._direct(cleaned)
        if direct is not None:
            return direct
        tokens = {t for t in (self._correct(w) for w in self._tokens(self._normalise(cleaned))) if t}
        if not tokens:
            return self._nothing(query, "I could not find a bridge situation in that.")
        scores: dict[int, list[tuple[float, _Phrase]]] = {}
        seen: set[int] = set()
        for token in tokens:
            for index in self.by_token.get(token, ()):
                if index in seen:
                    continue
                seen.add(index)
                phrase = self.phrases[index]
                have = sum(self.idf[t] for t in phrase.tokens if t in tokens)
                whole = sum(self.idf[t] for t in phrase.tokens)
                coverage = have / whole
                if coverage < 0.5:
                    continue
                score = phrase.weight * have * coverage**2
                scores.setdefault(phrase.law, []).append((score, phrase))
        ranked: list[Candidate] = []
        for law, found in scores.items():
            found.sort(key=lambda pair: -pair[0])
            covered = set(found[0][1].tokens) & tokens
            extra = {t for _s, p in found[1:] for t in p.tokens if t in tokens} - covered
            best = found[0][0] + 0.35 * sum(self.idf[t] for t in extra)
            confidence = 100 * (1 - math.exp(-best / 9))
            charts = self._charts_for(law, [p.chart for _s, p in found if p.chart])
            matched = tuple(dict.fromkeys(p.text for _s, p in found[:3]))
            ranked.append(Candidate(law, self.book.laws[law].title, charts, round(confidence, 1), matched))
        ranked.sort(key=lambda c: (-c.score, c.law))
        top = tuple(ranked[:limit])
        if not top or top[0].score < CONFIDENT:
            return MatchResult(
                query, top, None, False, "I am not sure which situation this is. " + HINT, self._common()
            )
        return MatchResult(query, top, None, True, None, ())

    def _direct(self, text: str) -> MatchResult | None:
        """'law 27', 'L27B1', '27b': straight to that law; 'law 120': a clear no."""
        if not _REFERENCE.match(text.lower()):
            return None
        ref = parse_ref(text)
        if ref is None:
            return None
        law = self.book.laws.get(ref.law)
        if law is None:
            return self._nothing(text, f"There is no Law {ref.law}: the 2017 Laws run from 1 to 93.")
        exact = ref if self.book.exists(ref) else ref.parent()
        while exact is not None and not self.book.exists(exact):
            exact = exact.parent()
        candidate = Candidate(law.number, law.title, self._charts_for(law.number, []), 100.0, (str(ref),))
        return MatchResult(text, (candidate,), str(exact or law.number), True, None, ())

    def _charts_for(self, law: int, matched: list[str | None]) -> tuple[str, ...]:
        """Charts for a law: those whose keywords matched first, then the others that serve it."""
        ordered = [c for c in matched if c] + self.charts_by_law.get(law, [])
        return tuple(dict.fromkeys(ordered))

    def _common(self) -> tuple[Candidate, ...]:
        return tuple(
            Candidate(n, self.book.laws[n].title, self._charts_for(n, []), 0.0, ())
            for n in COMMON_SITUATIONS
            if n in self.book.laws
        )[:6]

    def _nothing(self, query: str, why: str) -> MatchResult:
        return MatchResult(query, (), None, False, f"{why} {HINT}", self._common())


def _law_number(ref: str) -> int:
    return int(re.sub(r"\D.*", "", ref))


def _thai(text: str) -> str:
    """Repair what NFC does not: a decomposed SARA AM (nikhahit + sara aa) becomes U+0E33."""
    return text.replace("\u0e4d\u0e32", "\u0e33").replace("\u0e4d \u0e32", "\u0e33")


@cache
def _load_yaml(name: str) -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((KNOWLEDGE / name).read_text(encoding="utf-8"))


def build_matcher(charts: Iterable[ChartEntry] = ()) -> Matcher:
    """The matcher over the knowledge base and the given charts."""
    return Matcher(load_lawbook(), charts)


def chart_entries() -> list[ChartEntry]:
    """The installed charts as the matcher sees them."""
    from bot.dialogs import load_charts

    return [ChartEntry(c.id, c.title, c.laws, c.keywords) for c in load_charts().values()]
