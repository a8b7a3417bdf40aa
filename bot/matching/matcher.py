"""Table language → candidate laws and charts, explainably, with no language model.

Each law has phrases: its curated keywords (``knowledge/keywords.yaml``), the keywords of the charts that
serve it, its title and its section headings. A query is normalised (Thai glossary, suits and bids,
abbreviations, synonyms, typos fixed against the vocabulary with rapidfuzz), then each phrase scores by
how much of its rarity-weighted (IDF over the laws' phrases) words the query holds, a little more for each pair of
its words the query holds side by side ("partner explained" beats "explained … partner"). A law's evidence is its best
phrase, a share of its other phrases' extra words and a small share of words found in its text. The
confidence also asks how much of the query the law explains, so "revoke" alone is confident and a
sentence sharing one common word with a law is not. The query words that matched are the "why".

Two broader signals then reorder the laws: BM25 over one document per law (its phrases, players'
summary, glossary words, printed text and worked examples; up to 30 points) and the worked examples the
query resembles (``bot.matching.examples``; up to 30 points). A weak phrase match becomes an answer only
when the examples vouch for its first law (``_agreed``).

Phrases also come from what physically happened (``knowledge/actions.yaml``: "the ace went back into her
hand"). A message of several sentences is also read sentence by sentence (phrases only): a law named by
several of a story's sentences gains a few points for each after the first, two sentences that each name a
different incident firmly (a sentence that asks names none, nor one naming the event, the ruling or the play going
on, nor one opening "As …", ``knowledge/incidents.yaml``; one that moves on, ", and later", is read as two) both stay
among the candidates (``incidents``, with the sentence that told each),
and the sentence that asks the question is read even when it lies past the first 500 characters. Reading
each sentence with every signal and letting the one that names the irregularity or asks outweigh the whole
was measured and left out (bench/RESULTS.md): it helped real forum posts a little and cost the written
stories more.

A story that tells a call or a lead out of turn by seats and turns without naming it ("North is dealer but West put
the 1♦ card on the table before North touched the bidding box") gains points for the laws of the relation it tells
(``knowledge/turns.yaml``, ``bot.matching.turns``): who was to act, who acted, and what act decides the law.

Last, when the first two laws are neighbours that differ in one detail (45 and 46: who named the card) and
the message says that detail in a decider's words (``knowledge/deciders.yaml``, ``bot.matching.deciders``),
the two swap places; a decider never brings in a law the signals did not rank.
"""

from __future__ import annotations

import itertools
import logging
import math
import re
import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA

from bot.dialogs import Chart, load_charts
from bot.laws import LawBook, load_lawbook, parse_ref
from bot.laws.book import KNOWLEDGE_DIR, read_yaml
from bot.laws.glossary import load_glossary
from bot.laws.refs import law_number
from bot.laws.summaries import load_law_summaries
from bot.matching.actions import Action, load_actions
from bot.matching.bm25 import Bm25
from bot.matching.deciders import Decider, decide, load_deciders
from bot.matching.examples import ExampleVotes, Labelled, mix, read_examples, same_query, spent_written
from bot.matching.normalise import MAX_QUERY, STOPWORDS, Normaliser, Token, clean, story_words
from bot.matching.token_cache import CACHE_DIR, TokenCache, knowledge_key
from bot.matching.turns import Relation, load_turns, signalled

log = logging.getLogger("bot.matching")

CONFIDENT = 42.0  # a top score below this is "nothing convincing" (a stray word like "start" scores ~41)
COVERAGE = 0.5  # a phrase counts when the query holds at least this share of its weighted words
SPECIFIC = 2  # a phrase's score grows with the power of its coverage: whole phrases beat parts
ORDER = 0.1  # a phrase's score grows by this share per pair of its words the query holds side by side, in order
EXTRA = 0.35  # weight of words a law's other phrases add beyond its best phrase
TEXT = 0.12  # weight of query words found only in a law's text
UNKNOWN = 1.2  # weight of a query word the knowledge base does not know (it lowers confidence)
SCALE = 3.0  # evidence at which confidence reaches 63% of its ceiling
BROAD = 30.0  # points the broad BM25 signal adds to the law it favours most
LIKE = 30.0  # points the worked examples add to the law they favour most (see bot.matching.examples)
# Naive Bayes probability with which the examples vouch for a weak phrase match (see _agreed): 0.5 until naive
# Bayes learned weighted examples, which made it firmer ("the air conditioning is broken" was vouched for, Law 78).
AGREED = 0.7
ACTORS = frozenset({"dummy", "declarer", "defender", "partner", "opponent", "lho", "rho"})
UNBOUND = 0.3  # share of its weight a phrase's leading actor keeps when the query puts it beside none of its words
PHRASED, PLAIN, PRINTED = 3.0, 2.0, 1.0  # BM25 weight of a word in a law's phrases, plain words, printed text
EXAMPLE = 1.0  # BM25 weight of a word in one of a law's worked examples (they are many; each counts once)
ACTION = 0.95  # weight of a phrase of what physically happened (knowledge/actions.yaml): just under a keyword
ASKS = 0.6  # share of its points the sentence that asks the question adds to a long message's own
SEVERAL = 40.0  # phrase score at which a sentence of a story counts as naming a law ...
AGAIN = 3.0  # ... and the points a law gains for each sentence after the first that names it
INCIDENT = 62.0  # phrase score at which a sentence's first law stands as an incident of its own ...
TOLD = 8  # ... when it tells at least TOLD words besides its calls (a shorter one sets the scene: "IMPs, not vul.") ...
BESIDE = 6  # ... when the whole message also ranks that law among its first BESIDE
TURN = 30.0  # points a law gains from a relation of seats and turns the message tells (knowledge/turns.yaml)
MESSAGE = 2000  # characters of a long message read sentence by sentence (the whole is read up to its first 500)
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
    matched: tuple[str, ...]  # the words of the query that matched: the "why"


@dataclass(frozen=True, slots=True)
class MatchResult:
    query: str
    candidates: tuple[Candidate, ...]
    direct_ref: str | None  # canonical reference when the text was a law reference
    confident: bool
    message: str | None  # why nothing convincing / a law that does not exist / empty text, with a hint
    incidents: tuple[int, ...] = ()  # laws of two incidents told in separate sentences, each among the candidates
    told: tuple[str, ...] = ()  # the sentence that told each of ``incidents``, in the same order (for a reply)


@dataclass(frozen=True, slots=True)
class _Phrase:
    text: str
    law: int
    tokens: tuple[str, ...]
    weight: float  # curated keywords and chart keywords count fully; titles a little less, headings less
    chart: str | None


@dataclass(frozen=True, slots=True)
class _Piece:
    """One sentence of a long message: whether it asks, and its phrase score per law."""

    text: str
    asks: bool
    scores: dict[int, float]


@dataclass(frozen=True, slots=True)
class _Reading:
    """What the signals make of one text: its words, the phrases found per law, every law's points, and
    whether the reading alone is convincing."""

    words: list[Token]
    found: dict[int, list[tuple[float, _Phrase]]]
    scores: dict[int, float]  # the phrases' part of the points
    totals: dict[int, float]
    confident: bool


class Matcher:
    """Rank laws for a description. Built once per process; ``match`` is pure and fast."""

    def __init__(
        self,
        book: LawBook,
        charts: Iterable[ChartEntry] = (),
        examples: Iterable[Labelled] = (),
        cache_dir: Path | None = None,
        background: bool = False,
        deciders: tuple[Decider, ...] | None = None,
        relations: tuple[Relation, ...] | None = None,
    ) -> None:
        """``background``: read the worked examples on a thread, so the bot answers at once (with phrases and
        the laws' own words) and adds the examples' say about half a second later; ``learned`` tells when.
        ``deciders``, ``relations``: those of ``knowledge/deciders.yaml`` and ``knowledge/turns.yaml`` unless given
        (a bench compares without them)."""
        self.book = book
        self.deciders = load_deciders() if deciders is None else deciders
        self.relations, self.compass = load_turns() if relations is None else (relations, None)
        incidents = _load_yaml("incidents.yaml")
        self.follows = frozenset(law_number(str(entry["law"])) for entry in incidents["follows"])
        self.continues = frozenset(str(word).lower() for word in incidents["continues"])
        self.charts = tuple(charts)
        self.cache = TokenCache(knowledge_key(repr(c) for c in self.charts), cache_dir)
        shorthand = _load_yaml("abbreviations.yaml")
        synonyms = _load_yaml("matching-synonyms.yaml")["synonyms"]
        self.normaliser = Normaliser(
            {**shorthand["abbreviations"], **shorthand["words"]},
            [(spelling, term["english"]) for term in _load_yaml("thai.yaml")["terms"] for spelling in term["thai"]],
            [*shorthand["phrases"].items(), *((str(p), str(meaning)) for meaning, ps in synonyms.items() for p in ps)],
        )
        self.charts_by_law: dict[int, list[str]] = {}
        for chart in self.charts:
            for number in dict.fromkeys(law_number(ref) for ref in chart.laws):
                self.charts_by_law.setdefault(number, []).append(chart.id)
        self.phrases = self._phrases(_load_yaml("keywords.yaml")["laws"], load_actions())
        per_word: dict[str, frozenset[str]] = {}  # law text is a weak signal: its distinct words suffice
        documents: dict[int, Counter[str]] = {n: Counter() for n in book.laws}

        def add(laws: Iterable[int], text: str, weight: float) -> frozenset[str]:
            """Adds the text's words to the laws' BM25 documents; returns their tokens."""
            counted: Counter[str] = Counter()
            for word, count in Counter(_words(text)).items():
                if word not in per_word:
                    per_word[word] = frozenset(self._knowledge_tokens(word, fixed=False))
                for token in per_word[word]:
                    counted[token] += count
            for law in laws:
                documents[law].update({token: weight * count for token, count in counted.items()})
            return frozenset(counted)

        summaries = load_law_summaries()
        self.text_tokens: dict[int, frozenset[str]] = {
            law.number: add((law.number,), " ".join(f"{s.heading or ''} {s.text}" for s in law.sections), PRINTED)
            | add((law.number,), summaries[law.number].text if law.number in summaries else "", PLAIN)
            for law in book.laws.values()
        }
        for term in load_glossary().terms:
            words = " ".join([term.term, *term.aliases, term.explain.text if term.explain else ""])
            add({law_number(ref) for ref in term.related} & documents.keys(), words, PLAIN)
        own: dict[int, set[str]] = {}
        for phrase in self.phrases:
            own.setdefault(phrase.law, set()).update(phrase.tokens)
            for token in phrase.tokens:
                documents[phrase.law][token] += PHRASED
        phrased = Counter(t for law, tokens in own.items() if law in book.laws for t in tokens)
        texted = Counter(t for words in self.text_tokens.values() for t in words)
        self.idf = {t: math.log(1 + len(book.laws) / c) for t, c in texted.items()}
        self.idf.update({t: math.log(1 + len(book.laws) / c) for t, c in phrased.items()})
        curated = {w for p in self.phrases for w in re.findall(r"[a-z0-9]+", p.text.lower())}
        self.spelling = sorted(w for w in curated | self.normaliser.known if len(w) >= 4 and not w.isdigit())
        self.words = frozenset(curated | self.normaliser.known | STOPWORDS | per_word.keys())
        self.index_phrases()
        self._corrections: dict[str, str | None] = {}
        self.examples = ExampleVotes((), self._example_tokens)
        self.bm25 = Bm25(documents)
        self.learned = threading.Event()
        chosen = [e for e in examples if e.laws <= book.laws.keys()]
        if background:
            threading.Thread(target=self._learn, args=(chosen, documents), name="examples", daemon=True).start()
        else:
            self._learn(chosen, documents)

    def _learn(self, examples: list[Labelled], documents: dict[int, Counter[str]]) -> None:
        """Read the worked examples: their votes, and their words in each law's BM25 document. Each is
        swapped in whole when built; ``learned`` is set when both are (or when reading them failed)."""
        try:
            votes = ExampleVotes(examples, self._example_tokens)
            for example in votes.examples:
                if spent_written(example):  # their words in the laws' documents cost the never-example sets
                    continue
                words = self._knowledge_tokens(example.query, fixed=True)
                for law in example.laws:
                    documents[law].update(dict.fromkeys(words, EXAMPLE))
            self.bm25 = Bm25(documents)
            self.examples = votes
            self.cache.save()
        except Exception:
            log.exception("the worked examples could not be read; matching goes on without them")
        finally:
            self.learned.set()

    def _example_tokens(self, text: str) -> list[str]:
        return list(self._knowledge_tokens(text, fixed=True))

    def _phrases(self, keywords: dict[str, list[str]], actions: Iterable[Action]) -> tuple[_Phrase, ...]:
        """Every phrase once per token set: where two laws share one, the higher-weighted source keeps it,
        and a curated keyword keeps its law against a chart keyword of the same words. A phrase of what
        physically happened belongs to each law it signals.

        A chart keyword goes to the one of the chart's laws whose own phrases it matches best (a revoke
        chart's "revoke on trick twelve" belongs to Law 62, not to the chart's first law, 61).
        """
        raw: list[tuple[str, int, float, str | None]] = []
        for number, texts in keywords.items():
            raw += [(text, int(number), 1.0, None) for text in texts]
        raw += [(p, law, ACTION, None) for a in actions for law in a.laws if law in self.book.laws for p in a.phrases]
        for law in self.book.laws.values():
            raw.append((law.title, law.number, 0.9, None))
            raw += [(s.heading, law.number, 0.6, None) for s in law.sections if s.heading]
        phrases = [p for p in (self._phrase(*entry) for entry in raw) if p]
        own: dict[int, dict[str, list[tuple[int, int]]]] = {}  # law → word → (phrase, its length)
        for index, phrase in enumerate(phrases):
            for token in phrase.tokens:
                own.setdefault(phrase.law, {}).setdefault(token, []).append((index, len(phrase.tokens)))
        for chart in self.charts:
            laws = list(dict.fromkeys(law_number(ref) for ref in chart.laws))
            if not laws:
                continue
            phrases += [p for p in (self._phrase(chart.title, laws[0], 0.9, chart.id),) if p]
            for keyword in chart.keywords:
                phrase = self._phrase(keyword, laws[0], 1.0, chart.id)
                if phrase is None:
                    continue
                fit = {n: _fit(phrase.tokens, own.get(n, {})) for n in laws}
                law = max(laws, key=lambda n: (fit[n], -laws.index(n)))
                phrases.append(_Phrase(phrase.text, law, phrase.tokens, phrase.weight, phrase.chart))
        best: dict[frozenset[str], float] = {}
        for p in phrases:
            best[frozenset(p.tokens)] = max(best.get(frozenset(p.tokens), 0.0), p.weight)
        curated = {frozenset(p.tokens): p.law for p in phrases if p.chart is None and p.weight == 1.0}
        kept = {
            (p.law, frozenset(p.tokens), p.chart): p
            for p in phrases
            if p.weight >= best[frozenset(p.tokens)] and curated.get(frozenset(p.tokens), p.law) == p.law
        }
        return tuple(kept.values())

    def _phrase(self, text: str, law: int, weight: float, chart: str | None) -> _Phrase | None:
        tokens = tuple(dict.fromkeys(self._knowledge_tokens(text, fixed=False)))
        return _Phrase(text, law, tokens, weight, chart) if tokens else None

    def _knowledge_tokens(self, text: str, fixed: bool) -> tuple[str, ...]:
        """Tokens of a text of the knowledge base (never a user's), through the start-up cache; ``fixed``:
        read as a query is, typos fixed."""
        source, correct = (clean(text), self._correct) if fixed else (text, None)
        return self.cache.tokens(text, fixed, lambda: (t.text for t in self.normaliser.tokens(source, correct)))

    # --- normalisation -------------------------------------------------------------------------

    def _correct(self, word: str) -> str | None:
        """The known word a typed word stands for (a typo fixed), or None when it is not a typo."""
        if word in self.words or word.isdigit() or len(word) < 4:
            return None
        if word in self._corrections:
            return self._corrections[word]
        edits = 1 if len(word) < 8 else 2  # one slip of the finger per short word (a swap counts as one)
        found = process.extractOne(word, self.spelling, scorer=OSA.distance, processor=None, score_cutoff=edits)
        fixed = found[0] if found and found[0][0] == word[0] else None  # a typo rarely changes the first letter
        if len(self._corrections) < 50_000:
            self._corrections[word] = fixed
        return fixed

    # --- matching ------------------------------------------------------------------------------

    def match(self, text: str, limit: int = 3) -> MatchResult:
        """The best ``limit`` laws for the text, why each matched, and whether any is convincing.

        A message of several sentences is also read sentence by sentence: a law named by several sentences
        gains ``AGAIN`` points for each after the first, the sentence that asks the question adds a share of
        its own reading past the first 500 characters (``ASKS``), and two sentences that each name a different
        incident firmly (``INCIDENT``) both stay among the candidates, each with its charts, rather than a
        blend of both."""
        query = clean(text)
        if not query.strip():
            return self._nothing(text or "", "Tell me what happened at the table.")
        direct = self._direct(query)
        if direct is not None:
            return direct
        whole = self._read(query, limit)
        if whole is None:
            return self._nothing(query, "I could not find a bridge situation in that.")
        parts = _sentences(text)
        pieces = [self._piece(part) for part in parts] if len(parts) >= 2 else []
        asking = self._asking(parts, pieces, limit)
        totals, found, confident = dict(whole.totals), dict(whole.found), whole.confident
        if asking is not None:
            for law, points in asking.scores.items():
                totals[law] = totals.get(law, 0.0) + ASKS * points
            for law, phrases in asking.found.items():
                found.setdefault(law, phrases)
            confident = confident or asking.confident
        named = Counter(law for piece in pieces for law, score in piece.scores.items() if score >= SEVERAL)
        for law, times in named.items():
            if times >= 2 and law in totals:
                totals[law] += AGAIN * (times - 1)
        for law, times in signalled(self.relations, text[:MESSAGE], self.compass).items():
            if law in self.book.laws:
                totals[law] = totals.get(law, 0.0) + TURN * times
        self._decide(totals, text)
        read = dict(zip(parts, pieces, strict=False))  # a sentence not cut where it moves on is read already
        clauses = [clause for part in parts for clause in _clauses(part)]
        moments = [read.get(clause) or self._piece(clause) for clause in clauses] if len(clauses) >= 2 else []
        incidents, told = self._incidents(moments, limit, set(sorted(totals, key=lambda n: -totals[n])[:BESIDE]))
        ranked = sorted(totals, key=lambda n: (-totals[n], n))[:limit]
        if incidents:
            others = [law for law in ranked if law not in incidents]
            ranked = sorted([*incidents, *others[: limit - len(incidents)]], key=lambda n: (-totals.get(n, 0.0), n))
        top = tuple(self._ranked(ranked, totals, found, whole.words)) if whole.found or found else ()
        if top and (confident or incidents):
            return MatchResult(query, top, None, True, None, incidents, told)
        return MatchResult(query, top, None, False, "I am not sure which situation this is. " + HINT)

    def _decide(self, totals: dict[int, float], text: str) -> None:
        """When the first two laws are a pair of neighbours and a decider's words favour the second, the two
        swap their points: the decider orders the matcher's own first two and never adds a law."""
        if len(totals) < 2 or not self.deciders:
            return
        first, second = sorted(totals, key=lambda n: (-totals[n], n))[:2]
        if decide(self.deciders, first, second, text[:MESSAGE]) == second:
            totals[first], totals[second] = totals[second], totals[first]

    def _read(self, query: str, limit: int) -> _Reading | None:
        """Every signal's points per law for one text (a whole message or one of its sentences); None when it
        holds no word the knowledge base knows."""
        words = self.normaliser.tokens(query, self._correct)
        known = {t.text for t in words if t.text in self.idf}
        if not known:
            return None
        found = self._found(words, known)
        mass = sum(self.idf[t] for t in known) + UNKNOWN * len({t.text for t in words if t.text not in self.idf})
        scores = {law: self._score(phrases, known, mass) for law, phrases in found.items()}
        nearest, typical = self.examples.votes([t.text for t in words], query)
        broad = self.bm25.scores(t.text for t in words)
        best = max(broad.values(), default=1.0)
        totals = dict(scores)
        for law in sorted(broad, key=lambda n: -broad[n])[:limit]:
            totals.setdefault(law, 0.0)
        for law in totals:
            totals[law] += BROAD * broad.get(law, 0.0) / best
        for law, share in mix(nearest, typical).items():
            totals[law] = totals.get(law, 0.0) + LIKE * share
        first = min(totals, key=lambda n: (-totals[n], n)) if scores else None
        confident = bool(scores) and (max(scores.values()) >= CONFIDENT or _agreed(first, nearest, typical))
        return _Reading(words, found, scores, totals, confident)

    def _found(self, words: list[Token], known: set[str]) -> dict[int, list[tuple[float, _Phrase]]]:
        """The phrases the words hold, per law, each with its score (rarity held, coverage, word order)."""
        pairs = {(a.text, b.text) for a, b in itertools.pairwise(words)}
        where: dict[str, set[int]] = {}
        for position, word in enumerate(words):
            where.setdefault(word.text, set()).add(position)
        found: dict[int, list[tuple[float, _Phrase]]] = {}
        words_held = [(token, self._phrase_runs[token]) for token in known if token in self._phrase_runs]
        if not words_held:
            return found
        runs = [self._phrase_index[start:end] for _token, (start, end) in words_held]
        weights = np.repeat([self.idf[token] for token, _run in words_held], [len(run) for run in runs])
        held = np.bincount(np.concatenate(runs), weights, minlength=len(self.phrases))  # its words' weight held
        chosen = np.flatnonzero((held > 0) & (held >= COVERAGE * self.phrase_mass))
        masses, phrase_pairs, actor_first = self._phrase_mass, self._phrase_pairs, self._actor_first
        for index, have in zip(chosen.tolist(), held[chosen].tolist(), strict=True):
            phrase = self.phrases[index]
            if actor_first[index] and phrase.tokens[0] in known and not _bound(phrase.tokens, where):
                have -= (1 - UNBOUND) * self.idf[phrase.tokens[0]]
            coverage = have / masses[index]
            if coverage >= COVERAGE:
                order = 1 + ORDER * sum(p in pairs for p in phrase_pairs[index])
                found.setdefault(phrase.law, []).append((phrase.weight * have * coverage**SPECIFIC * order, phrase))
        for phrases in found.values():
            phrases.sort(key=lambda pair: (-pair[0], pair[1].text))
        return found

    def index_phrases(self) -> None:
        """Each word's phrases as one run of a flat array, and every phrase's weight: adding up a long
        message's words phrase by phrase in Python was a quarter of matching it. Once, too, what each phrase a
        message holds is scored with: its weight as a plain float, its pairs of neighbouring words and whether it
        leads with an actor (a long post's sentences hold hundreds of phrases; pairing and unboxing them afresh per
        sentence was repeated work)."""
        self.phrase_mass = np.array([sum(self.idf[t] for t in phrase.tokens) for phrase in self.phrases])
        self._phrase_mass: list[float] = self.phrase_mass.tolist()
        self._phrase_pairs = [tuple(itertools.pairwise(phrase.tokens)) for phrase in self.phrases]
        self._actor_first = [phrase.tokens[0] in ACTORS for phrase in self.phrases]
        by_token: dict[str, list[int]] = {}
        for index, phrase in enumerate(self.phrases):
            for token in phrase.tokens:
                by_token.setdefault(token, []).append(index)
        self._phrase_runs: dict[str, tuple[int, int]] = {}
        flat: list[int] = []
        for token, indices in by_token.items():
            self._phrase_runs[token] = (len(flat), len(flat) + len(indices))
            flat.extend(indices)
        self._phrase_index = np.array(flat, dtype=np.int32)

    def _piece(self, part: str) -> _Piece:
        """One sentence's phrase scores per law (no broad signals: cheap enough for every sentence)."""
        words = self.normaliser.tokens(clean(part), self._correct)
        known = {t.text for t in words if t.text in self.idf}
        found = self._found(words, known) if len(known) >= 2 else {}
        mass = sum(self.idf[t] for t in known) + UNKNOWN * len({t.text for t in words if t.text not in self.idf})
        return _Piece(part, _asks(part), {law: self._score(phrases, known, mass) for law, phrases in found.items()})

    def _asking(self, parts: list[str], pieces: list[_Piece], limit: int) -> _Reading | None:
        """The reading of the last sentence that asks something (with the sentence before it), when a message is
        longer than the whole is read and that sentence names a situation of its own: the question at the end
        of a long post is otherwise cut off. A bare "How do you rule?" adds nothing."""
        if not pieces or sum(len(part) + 1 for part in parts) <= MAX_QUERY:
            return None
        for index in range(len(pieces) - 1, -1, -1):
            if pieces[index].asks:  # read with the sentence before it, which usually says what it asks about
                reading = self._read(clean(" ".join(parts[max(0, index - 1) : index + 1])), limit)
                return reading if reading is not None and reading.found else None
        return None

    def _incidents(self, pieces: list[_Piece], limit: int, beside: set[int]) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """Two laws each named firmly by a sentence (or a part of one that moves on in time) of its own (phrases
        only) and ranked near the top by the message, the firmer first, with the sentence that named each; ()
        unless a story holds two such sentences naming laws no one chart serves together (a revoke told as
        "revoked" then "established" is one incident). A sentence that asks ("can he take it back?", "PP as
        well?") asks about the story and names no incident: read as one, it made a single incident two. Nor does
        one whose first law says what follows an irregularity or the event it is in (``knowledge/incidents.yaml``:
        "Teams of four, second round.", "TD adjusted anyway."), nor one that opens as it finishes the sentence
        before ("As she puts her cards back, North says …")."""
        if len(pieces) < 2 or limit < 2:
            return (), ()
        firm: dict[int, tuple[float, str]] = {}
        for piece in pieces:
            if not piece.scores or piece.asks or story_words(piece.text) < TOLD:  # asks, or sets the scene
                continue
            first = piece.text.split(maxsplit=1)[:1]
            if first and first[0].strip(",").lower() in self.continues:  # the sentence before, finished
                continue
            law = min(piece.scores, key=lambda n: (-piece.scores[n], n))
            if law in self.follows:  # the director's ruling on the incident, or its event: not another incident
                continue
            if piece.scores[law] >= INCIDENT and law in beside and piece.scores[law] > firm.get(law, (0.0, ""))[0]:
                firm[law] = (piece.scores[law], piece.text)
        ordered = sorted(firm, key=lambda n: (-firm[n][0], n))
        kin = set(self.charts_by_law.get(ordered[0], ())) if ordered else set()  # one chart's laws: one incident
        other = [n for n in ordered[1:] if not kin & set(self.charts_by_law.get(n, ()))]
        return ((ordered[0], other[0]), (firm[ordered[0]][1], firm[other[0]][1])) if other else ((), ())

    def _ranked(
        self,
        laws: list[int],
        totals: dict[int, float],
        found: dict[int, list[tuple[float, _Phrase]]],
        words: list[Token],
    ) -> list[Candidate]:
        """The laws as candidates with their totals as scores; a law no phrase found shows the words it shares
        with the query's."""
        known = {t.text for t in words}
        ranked = []
        for law in laws:
            score = round(min(100.0, totals.get(law, 0.0)), 1)
            title = self.book.laws[law].title
            if law in found:
                covered, extra = _phrase_words(found[law], known)
                used = covered | extra
                charts = self._charts_for(law, [p.chart for _s, p in found[law] if p.chart])
                ranked.append(Candidate(law, title, charts, score, _runs(words, used)))
            else:
                used = known & self.bm25.vocabulary[law]
                ranked.append(Candidate(law, title, self._charts_for(law, []), score, _runs(words, used)))
        return ranked

    def _score(self, found: list[tuple[float, _Phrase]], known: set[str], mass: float) -> float:
        """A law's phrase score, 0..100: its best phrase, a share of the words its other phrases and its text
        add, and how much of the query it explains."""
        law = found[0][1].law
        covered, extra = _phrase_words(found, known)
        textual = (known & self.text_tokens.get(law, frozenset())) - covered - extra
        idf = self.idf.__getitem__
        evidence = found[0][0] + EXTRA * sum(map(idf, extra)) + TEXT * sum(map(idf, textual))
        explained = sum(map(idf, covered | extra)) + 0.5 * sum(map(idf, textual))
        share = min(1.0, explained / mass)
        return round(100 * (1 - math.exp(-evidence / SCALE)) * (0.45 + 0.55 * share), 1)

    def _direct(self, text: str) -> MatchResult | None:
        """'law 27', 'L27B1', '27b': straight to that law; 'law 120': a clear no."""
        if not _REFERENCE.match(text):
            return None
        ref = parse_ref(text)
        if ref is None:
            return None
        law = self.book.laws.get(ref.law)
        if law is None:
            return self._nothing(text, f"There is no Law {ref.law}: the 2017 Laws run from 1 to 93.")
        exact = ref
        while exact is not None and not self.book.exists(exact):
            exact = exact.parent()
        candidate = Candidate(law.number, law.title, self._charts_for(law.number, []), 100.0, (text.strip(),))
        return MatchResult(text, (candidate,), str(exact or law.number), True, None)

    def _charts_for(self, law: int, matched: list[str | None]) -> tuple[str, ...]:
        """Charts for a law: those whose keywords matched first, then the others that serve it."""
        ordered = [c for c in matched if c] + self.charts_by_law.get(law, [])
        return tuple(dict.fromkeys(ordered))

    def _nothing(self, query: str, why: str) -> MatchResult:
        return MatchResult(query, (), None, False, f"{why} {HINT}")


_REFERENCE = re.compile(  # "law 27", "L27B1", "27b1(a)", a bare "54"; never "2c" or "4h", which are bids
    r"^\s*(?:(?:laws?|l)\s*\.?\s*\d{1,4}(?:\s*[a-h](?:\s*\d(?:\s*\(?[a-h]\)?(?:\s*\(?[ivx]+\)?)?)?)?)?"
    r"|(?:[89]|\d{2,3})\s*[a-h](?:\s*\d(?:\s*\(?[a-h]\)?)?)?|\d{1,3})\s*[.?!]?\s*$",
    re.IGNORECASE,
)


def _agreed(law: int | None, nearest: dict[int, float], typical: dict[int, float]) -> bool:
    """Whether the worked examples vouch for a result the phrases alone found weak: the law ranked first is
    also the nearest examples' first and naive Bayes's first, with at least AGREED of its probability.
    Table talk a keyword list misses ("she took her card back and played the jack") gets its answer;
    chatter ("the air conditioning is broken") never found all three signals agreeing that firmly."""
    if law is None or not nearest or not typical:
        return False
    return (
        law == max(nearest, key=nearest.__getitem__) == max(typical, key=typical.__getitem__) and typical[law] >= AGREED
    )


_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n+|(?<=\?)(?=\S)")
_MOVES_ON = re.compile(
    r"(?:,\s*(?:and\s+)?|\s+and\s+)(?=(?:then\s+(?:\w+\s+){0,3})?(?:later|afterwards|after\s+that|at\s+the\s+end)\b)",
    re.IGNORECASE,
)
_ASKING = frozenset(  # a sentence that opens with one of these asks something
    {"can", "could", "should", "is", "are", "was", "were", "does", "do", "did", "has", "have", "what", "how"}
    | {"who", "which", "why", "when", "where", "may", "must", "am", "will", "would", "shall", "isn't", "don't"}
)


def _sentences(text: str) -> list[str]:
    """A message's sentences (line breaks, and . ! ? ; : followed by a space, end one), those of at least
    three words; a message of one sentence gives one."""
    parts = (part.strip() for part in _SENTENCE_END.split((text or "")[:MESSAGE]))
    return [part for part in parts if len(part.split()) >= 3]


def _clauses(sentence: str) -> list[str]:
    """A sentence cut where it moves on in time (", later", ", and then two tricks later", "and at the end"), the
    parts of at least three words: one sentence can tell two incidents ("the bid was insufficient, and at the end
    declarer claimed"). "Then" alone does not cut: it mostly joins the same incident's sequel ("LHO led out of
    turn, then his partner led too")."""
    parts = (part.strip() for part in _MOVES_ON.split(sentence))
    return [part for part in parts if len(part.split()) >= 3]


def _asks(sentence: str) -> bool:
    """Whether a sentence asks: it ends with a question mark or opens as a question does ("Can I …")."""
    words = sentence.lower().split()
    return sentence.rstrip().endswith("?") or (bool(words) and words[0].strip(",") in _ASKING)


def _runs(words: list[Token], used: set[str]) -> tuple[str, ...]:
    """The query's matching words as the user typed them, neighbours joined: ("major penalty card",)."""
    runs: list[list[str]] = []
    previous = -2
    for index, word in enumerate(words):
        if word.text in used:
            if index != previous + 1 or not runs:
                runs.append([])
            if word.surface not in runs[-1]:
                runs[-1].append(word.surface)
            previous = index
    return tuple(dict.fromkeys(" ".join(run) for run in runs))


def _fit(tokens: tuple[str, ...], own: dict[str, list[tuple[int, int]]]) -> float:
    """How well a chart keyword's words fit a law's best phrase: shared words, squared, per word of the phrase."""
    shared: Counter[tuple[int, int]] = Counter(p for token in tokens for p in own.get(token, ()))
    return max((count**2 / size for (_index, size), count in shared.items()), default=0.0)


def _phrase_words(found: list[tuple[float, _Phrase]], known: set[str]) -> tuple[set[str], set[str]]:
    """The query's words a law's best phrase covers, and those its other phrases add: what its score rests on
    and what a candidate shows it matched."""
    covered = known.intersection(found[0][1].tokens)
    held: set[str] = set()
    for _points, phrase in found[1:]:
        held.update(phrase.tokens)
    return covered, (held & known) - covered


def _bound(tokens: tuple[str, ...], where: dict[str, set[int]]) -> bool:
    """Whether the phrase's leading actor stands next to another of its words in the query: in "dummy says I
    revoked" dummy is the one who speaks, so "dummy revoked" should not match on "dummy" and "revoked"."""
    beside = {p + step for p in where[tokens[0]] for step in (-1, 1)}
    return any(beside & where.get(t, set()) for t in tokens[1:])


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


@cache
def _load_yaml(name: str) -> dict:  # type: ignore[type-arg]
    return read_yaml(KNOWLEDGE_DIR / name)


def build_matcher(
    charts: Iterable[ChartEntry] = (), leave_out: Iterable[str] = (), background: bool = False
) -> Matcher:
    """The matcher over the knowledge base and the given charts; ``leave_out``: queries not to use as worked
    examples (a set being measured must not find itself among them); ``background``: see ``Matcher``."""
    left_out = {same_query(query) for query in leave_out}
    examples = [e for e in read_examples() if same_query(e.query) not in left_out]
    return Matcher(load_lawbook(), charts, examples, CACHE_DIR, background)


def chart_entries(charts: Mapping[str, Chart] | None = None) -> list[ChartEntry]:
    """The charts (the installed ones unless given) as the matcher sees them: those a director may be offered.
    A chart that is part of others is left out, to be reached through them: the restored-card chart serves
    Law 14 alone, so it would be offered for every Law 14 text in place of the wrong-number-of-cards chart."""
    found = load_charts() if charts is None else charts
    return [ChartEntry(c.id, c.title, c.laws, c.keywords) for c in found.values() if not c.part_of]
