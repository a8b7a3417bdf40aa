"""Text as people type it at the table → word tokens, each remembering what the user wrote.

The same pipeline reads the knowledge base's phrases and the director's query, so a keyword written
"hesitated then bid" and a query "tanked, then bid" meet on the same tokens. Every token keeps its
surface (the words typed), which is what a candidate shows as its "why".
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

MAX_QUERY = 500  # characters considered: a description of a table situation, not an essay

_STOPWORDS = (
    "a an the to of and in on at by for with from as is are was were be been being am it its this that "
    "these those there he she his her him hers they them their i me my we us our you your what "
    "which who whom if so but do does did has have had just about into then than very really also "
    "would could should can will shall may might must please ok okay oh um hi hello now here exactly"
)
STOPWORDS = frozenset(_STOPWORDS.split())
_FILLER_WORDS = "a an the it its this that is are was were be been he she his her him they them their i me my we us our"
_FILLER = frozenset(f"{_FILLER_WORDS} you your".split())  # words whose absence changes nothing in a phrase
SUIT_NAMES = {
    "♠": "spades",
    "♥": "hearts",
    "♦": "diamonds",
    "♣": "clubs",
    "♤": "spades",
    "♡": "hearts",
    "♢": "diamonds",
    "♧": "clubs",
}
_SUIT_WORDS = str.maketrans({symbol: f" {word} " for symbol, word in SUIT_NAMES.items()})
_DENOMINATION = {"c": 0, "d": 1, "h": 2, "s": 3, "n": 4}
_DENOMINATION_WORD = ("clubs", "diamonds", "hearts", "spades", "notrump")
# A number after "trick", "board", "table" or "round" counts those, not a bid's level: "at trick 9 N noticed" is
# North at trick nine, not a bid of 9NT, and "board 3 S" is South on board three.
_BID = re.compile(
    r"(?<![\w.])(?<!trick )(?<!tricks )(?<!board )(?<!table )(?<!round )"
    r"([1-9])\s?(nt|no\s?trumps?|notrumps?|n|clubs?|diamonds?|hearts?|spades?|[cdhs♠♥♦♣♤♡♢♧])(?![\w])",
    re.IGNORECASE,
)
# A card written with its suit's symbol and a letter, "♦K", "♠A": the letter alone is no word and was lost ("♦K"
# read as "diamonds"); it is read as "♦ king" is.
_HONOUR = re.compile(r"([♠♥♦♣♤♡♢♧])\s?([AKQJ])(?![\w])")
_HONOUR_WORD = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
# A holding written out, "K 10 x x", "AQ10xx", "A K Q x": its x's are small cards, not doubles, and its letters
# name no card the story turns on; a hand diagram read as calls ("x" is "double") pulled a story about a dummy's
# cards towards the laws of the auction.
_CARDS = r"(?:10|[AKQJT2-9xX])+"
_HOLDING_RUN = re.compile(rf"(?<![\w.]){_CARDS}(?:[ \t/,]+{_CARDS})*(?![\w♠♥♦♣♤♡♢♧])")
_RANKED = re.compile(r"[AKQJT2-9]|10")
_LATER_FIRST = re.compile(r"\b(after|over|on top of)\b", re.IGNORECASE)  # "1♥ over 1♠": the first bid is the later
# Where the words told of one bid end: a sentence or clause ends, or "over"/"after" begins the other bid's telling
_CLAUSE_BREAK = re.compile(r"[.!?;,\n]|\b(?:and|then|after|over|on top of)\b")
_OUT_OF_TURN = "outofturn"  # the meaning matching-synonyms.yaml gives "out of turn", "ahead of me", "was my turn"
THAI = re.compile(r"[\u0e00-\u0e7f]+")
_WORD = re.compile(r"[a-z0-9]+")
_STORY_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")  # a word of letters: no call, number or dash
_SPELLINGS = (  # American stem endings → British ones (see _british)
    (re.compile(r"(?<=\w\w\w)iz(at)?$"), r"is\1"),
    (re.compile(r"(?<=\w\w)ens$"), "enc"),
    (re.compile(r"(?<=\w\w)(vi|[vnlbm])or$"), r"\1our"),
)
_SUFFIXES = (
    ("ations", "at"),
    ("ation", "at"),
    ("ies", "y"),
    ("ied", "y"),
    ("ing", ""),
    ("ed", ""),
    ("es", ""),
    ("s", ""),
)
_TONE_MARKS = str.maketrans("", "", "\u0e48\u0e49\u0e4a\u0e4b\u0e4c\u0e47")


_Table = dict[str, list[tuple[int, dict[tuple[str, ...], tuple[str, ...]]]]]


@dataclass(frozen=True, slots=True)
class Token:
    """One normalised word and the words the user typed for it."""

    text: str
    surface: str


def clean(text: str, limit: int = MAX_QUERY) -> str:
    """NFKC, the decomposed SARA AM that NFC leaves alone, control characters gone (line breaks kept as
    spaces), length capped at ``limit`` characters. A printable text holds no control character: looking up
    each character's category is skipped for it (a long post is cleaned once whole and once per sentence)."""
    text = unicodedata.normalize("NFKC", (text or "")[: limit * 2])
    text = text.replace("\u0e4d\u0e32", "\u0e33").replace("\u0e4d \u0e32", "\u0e33")
    if not text.isprintable():
        text = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    return text[:limit]


def story_words(text: str) -> int:
    """How many words a sentence tells besides its calls and numbers: "We were defending 4♥ after 1♥ - 2♣ - 2♦ - 4♥."
    tells four words and an auction, which sets the scene of a story rather than telling an incident."""
    return len(_STORY_WORD.findall(_BID.sub(" ", text)))


def thai_key(text: str) -> str:
    """Thai compared without tone marks and with ไฟ (fire) read as ไพ (card): seed 002's OCR damage."""
    return text.translate(_TONE_MARKS).replace("ไฟ", "ไพ")


def stem(word: str) -> str:
    """A light English stemmer that makes 'revoke', 'revoked', 'revokes' and 'revoking' one word.

    After the suffix goes, a final 'e' goes too and a doubled consonant is undoubled, so 'damage' meets
    'damaged', 'hesitate' meets 'hesitation' and 'bidding' meets 'bid'.
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix, keep in _SUFFIXES:
        if len(word) > len(suffix) + 2 and word.endswith(suffix) and not word.endswith(("ss", "us", "is")):
            word = word[: -len(suffix)] + keep
            if suffix in ("s", "es"):
                return stem(word)  # 'rulings' → 'ruling' → 'rul', as 'ruling' and 'rule' go
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]
            break
    return _british(word[:-1] if len(word) > 3 and word.endswith("e") else word)


def _british(word: str) -> str:
    """One spelling on both sides of the Atlantic: 'penalized' meets 'penalised', 'defense' 'defence' and
    'behavior' 'behaviour' (the stems end in -is, -enc and -our)."""
    for american, british in _SPELLINGS:
        if american.search(word):
            return american.sub(british, word)
    return word


class Normaliser:
    """Turns text into tokens: Thai glossary, suits and bids, abbreviations, stems, typos, synonyms."""

    def __init__(
        self,
        abbreviations: Mapping[str, str],
        thai: Iterable[tuple[str, str]],
        synonyms: Iterable[tuple[str, str]],
    ) -> None:
        self.abbreviations = {key.lower(): value.lower().split() for key, value in abbreviations.items()}
        # Shorthand written with a slash ("w/o", "b/c") is no whole word: the split at the slash would leave two
        # letters that mean nothing, so it is spelt out before the text is split.
        slashed = sorted((key for key in self.abbreviations if "/" in key), key=len, reverse=True)
        self.slashed = re.compile(rf"(?<![\w/])(?:{'|'.join(map(re.escape, slashed))})(?![\w/])") if slashed else None
        self.thai: dict[str, list[tuple[str, str]]] = {}
        for spelling, english in sorted(thai, key=lambda pair: -len(thai_key(pair[0]))):
            key = thai_key(spelling)
            self.thai.setdefault(key[0], []).append((key, english))
        self.stems: dict[str, str] = {}
        # A typed word's tokens, with and without typo fixes: the same few thousand words recur in every text
        # (the worked examples alone are 30,000 words), so each is worked out once.
        self.plain: dict[tuple[str, bool], tuple[Token, ...]] = {}
        self.known: set[str] = set(self.abbreviations)  # words the tables spell: typo fixes aim at these
        # "before her turn" meets "before it was her turn"; "could have followed suit" needs its "could have"
        # and "the bidding" its "the" (without them they would mean "follow suit" and "bid")
        exact: dict[tuple[str, ...], tuple[str, ...]] = {}
        loose: dict[tuple[str, ...], tuple[str, ...]] = {}
        for phrase, meaning in synonyms:
            self.known.update(_WORD.findall(phrase.lower()))
            typed = tuple(t.text for t in self._words(phrase, None))
            source = tuple(t for t in typed if _content(t))
            target = tuple(t for t in (t.text for t in self._words(meaning, None)) if _content(t))
            if source and source != target:
                dropped = {t for t in typed if not _content(t)}
                if dropped <= _FILLER and (len(source) > 1 or len(typed) == 1):
                    loose[source] = target
                else:
                    exact[typed] = target
        self.exact, self.loose = _by_first(exact), _by_first(loose)

    def tokens(self, text: str, correct: Callable[[str], str | None] | None = None) -> list[Token]:
        """Content tokens of the text in order; ``correct`` maps a misspelt word to a known one (or None)."""
        words = self._replace(self._words(text, correct), self.exact)
        return self._replace([t for t in words if _content(t.text)], self.loose)

    # ---------------------------------------------------------------------------------------------

    def _words(self, text: str, correct: Callable[[str], str | None] | None) -> list[Token]:
        words: list[Token] = []
        position = 0
        for run in THAI.finditer(text):
            words += self._latin(text[position : run.start()], correct)
            words += self._thai(run.group())
            position = run.end()
        words += self._latin(text[position:], correct)
        return words

    def _thai(self, run: str) -> list[Token]:
        """Greedy longest match against the glossary; Thai it does not know counts as one unknown word."""
        origin = [i for i, ch in enumerate(run) if thai_key(ch)]  # where each compared character was typed
        key, words, i, unknown = thai_key(run), [], 0, False
        while i < len(key):
            for spelling, english in self.thai.get(key[i], ()):
                if key.startswith(spelling, i):
                    end = origin[i + len(spelling)] if i + len(spelling) < len(key) else len(run)
                    typed = run[origin[i] : end]
                    words += [Token(self._stem(w), typed) for w in self._expand(english.lower().split())]
                    i += len(spelling)
                    break
            else:
                if not unknown:
                    words.append(Token("?", run))
                    unknown = True
                i += 1
                continue
            unknown = False
        return words

    def _latin(self, text: str, correct: Callable[[str], str | None] | None) -> list[Token]:
        text = _HOLDING_RUN.sub(_without_holding, text) if "x" in text or "X" in text else text
        text = (
            _HONOUR.sub(lambda card: f"{card[1]} {_HONOUR_WORD[card[2]]}", text)
            .lower()
            .replace("’", "'")
            .replace("‘", "'")
        )
        if self.slashed is not None:
            text = self.slashed.sub(lambda short: f" {' '.join(self.abbreviations[short.group()])} ", text)
        text = re.sub(r"(\w)'s\b", r"\1", text)
        text = re.sub(r"(\w)'(\w)", r"\1\2", text)
        words: list[Token] = []
        position = 0
        bids: list[tuple[int, str, int]] = []  # each call once: a bid told again ("does his 2♠ stand") refers back
        for bid in _BID.finditer(text):
            words += self._plain(text[position : bid.start()], correct)
            level, denomination = int(bid.group(1)), SUIT_NAMES.get(bid.group(2), bid.group(2).lower())
            strain = _DENOMINATION.get(denomination[0], 4) if not denomination.startswith("no") else 4
            surface = bid.group().strip()
            if level > 7:
                words += [Token("bid", surface), Token("above", surface), Token("seven", surface)]
            else:
                words += [Token("bid", surface), Token(stem(_DENOMINATION_WORD[strain]), surface)]
                rank = level * 5 + strain
                if all(rank != told for told, _surface, _start in bids):
                    bids.append((rank, surface, bid.start()))
            position = bid.end()
        words += self._plain(text[position:], correct)
        if _lower_bid_follows(bids, text, self._told_out_of_turn):
            words.append(Token("insufficient", " … ".join(b[1] for b in bids[:2])))
        return words

    def _told_out_of_turn(self, text: str, bid: tuple[int, int], bounds: tuple[int, int]) -> bool:
        """Whether the words told with one bid (its clause, between its neighbours ``bounds``) say it was made
        out of turn: 'LHO jumped in with 1♠ ahead of me', 'it was my turn but LHO bid 1♠'."""
        start, end = bid
        before = text[bounds[0] : start]
        breaks = list(_CLAUSE_BREAK.finditer(before))
        after = text[end : bounds[1]]
        clause_end = _CLAUSE_BREAK.search(after)
        told = before[breaks[-1].end() if breaks else 0 :] + " " + after[: clause_end.start() if clause_end else None]
        return any(token.text == _OUT_OF_TURN for token in self.tokens(told))

    def _plain(self, text: str, correct: Callable[[str], str | None] | None) -> list[Token]:
        text = text.translate(_SUIT_WORDS)
        words = []
        for surface in _WORD.findall(text):
            known = self.plain.get((surface, correct is not None))
            if known is None:
                typed = correct(surface) or surface if correct is not None else surface
                known = tuple(Token(self._stem(word), surface) for word in self._expand([typed]))
                if len(self.plain) < 50_000:
                    self.plain[(surface, correct is not None)] = known
            words += known
        return words

    def _stem(self, word: str) -> str:
        token = self.stems.get(word)
        if token is None:
            token = self.stems[word] = word if word in STOPWORDS else stem(word)
        return token

    def _expand(self, words: Sequence[str]) -> list[str]:
        return [part for word in words for part in self.abbreviations.get(word, [word])]

    @staticmethod
    def _replace(words: list[Token], table: _Table) -> list[Token]:
        """Multi-word synonyms ('break in tempo', 'thought for ages') become their meaning, longest first."""
        texts = tuple(w.text for w in words)
        out: list[Token] = []
        i = 0
        while i < len(words):
            for length, sources in table.get(texts[i], ()):
                target = sources.get(texts[i : i + length])
                if target is not None:
                    surface = " ".join(dict.fromkeys(w.surface for w in words[i : i + length]))
                    out += [Token(t, surface) for t in target]
                    i += length
                    break
            else:
                out.append(words[i])
                i += 1
        return out


def _without_holding(run: re.Match[str]) -> str:
    """A run of card symbols gone when it is a holding: a word mixing a rank and small cards ("Kxx"), or three
    or more symbols among which both ("Q 10 x x"); a lone "X" (a double) or "XX" (a redouble) stays."""
    parts = re.split(r"[ \t/,]+", run.group())
    small = [("x" in p or "X" in p) for p in parts]
    ranked = [bool(_RANKED.search(p)) for p in parts]
    mixed = any(s and r for s, r in zip(small, ranked, strict=True))
    return " " if mixed or (len(parts) >= 3 and any(small) and any(ranked)) else run.group()


def _by_first(sequences: dict[tuple[str, ...], tuple[str, ...]]) -> _Table:
    """Sequences by their first word, then by length, longest first: one lookup per length at each word."""
    grouped: dict[str, dict[int, dict[tuple[str, ...], tuple[str, ...]]]] = {}
    for source, target in sequences.items():
        grouped.setdefault(source[0], {}).setdefault(len(source), {})[source] = target
    return {first: sorted(by_length.items(), reverse=True) for first, by_length in grouped.items()}


def _content(token: str) -> bool:
    return token not in STOPWORDS and (len(token) > 1 or token.isdigit() or token == "?")


def _lower_bid_follows(
    bids: list[tuple[int, str, int]],
    text: str,
    told_out_of_turn: Callable[[str, tuple[int, int], tuple[int, int]], bool],
) -> bool:
    """Two bids where the later one ranks lower ('1♥ over 1♠', '1♠ … then 1♥'): an insufficient bid.

    Not when the higher bid is told as made out of turn ('LHO bid 1♠ ahead of me, I bid 1♥'): the call of the
    player whose turn it was is in rotation and the auction goes on as though the opponent had not called
    (Law 28B), so the lower bid is no insufficient bid; a story of an earlier call out of turn is no reason.
    """
    ends = [start + len(surface) for _rank, surface, start in bids]
    for i, ((first, _s1, start1), (second, _s2, start2)) in enumerate(itertools.pairwise(bids)):
        later_first = bool(_LATER_FIRST.search(text[start1:start2]))
        earlier, later = (second, first) if later_first else (first, second)
        if later >= earlier:
            continue
        higher = i + 1 if later_first else i
        start, end = bids[higher][2], ends[higher]
        bounds = (ends[higher - 1] if higher else 0, bids[higher + 1][2] if higher + 1 < len(bids) else len(text))
        if not told_out_of_turn(text, (start, end), bounds):
            return True
    return False
