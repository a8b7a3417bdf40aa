"""The auction and play told by compass seats (``knowledge/turns.yaml``, ``compass``): whose turn, who acted, and how.

A club director's casebook entry names seats, not irregularities: "Board 6, East dealer. East opens 1♦ and, before
South has called, West says 'pass'", "West 1♠, North pass, East 2♠, and North, before South has called, doubles",
"South opens 1NT; West bids 1♠". The words of ``bot.matching.turns`` cannot tell whose turn it was there; the
seats can. The auction is read in order: a seat said not to have called yet gives the turn, each call is
bound to the seat that made it, and a call by another seat is out of rotation (the call decides the law);
the next call, by the player whose turn it was or by the offender's left-hand opponent, calls over it; a bid in
rotation no higher than the last is insufficient. The play likewise (``Play``): declarer's seat gives the opening
leader, the seat that won a trick the next leader. What each reading signals is data in the same file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.laws.book import read_yaml
from bot.laws.refs import law_number
from bot.matching.normalise import SUIT_NAMES

SEATS = ("north", "east", "south", "west")  # clockwise: the next seat is the left-hand opponent
PLAYERS = (*SEATS, "declarer", "dummy")
_SUITS = str.maketrans({symbol: name[0] for symbol, name in SUIT_NAMES.items()})  # "♥" → "h"
_STRAINS = {"c": "c", "club": "c", "clubs": "c", "d": "d", "diamond": "d", "diamonds": "d", "h": "h"}
_STRAINS |= {"heart": "h", "hearts": "h", "s": "s", "spade": "s", "spades": "s", "nt": "nt", "n": "nt"}
_STRAINS |= {"notrump": "nt", "notrumps": "nt", "no trump": "nt", "no trumps": "nt", "no-trump": "nt"}
_RANK = {"c": 0, "d": 1, "h": 2, "s": 3, "nt": 4}
_BID = re.compile(
    r"(?<!\w)([1-7]) ?(no[ -]?trumps?|nt|clubs?|diamonds?|hearts?|spades?|[cdhsn])"
    r"(?![\w])",
    re.IGNORECASE,
)
_SIDE = re.compile(r"\b(?:north|east|south|west|[NESW])\s*[-/–]\s*(?:north|east|south|west|[NESW])\b", re.IGNORECASE)
_LETTER = re.compile(r"\b([NESW])\b(?=\s*[:-]?\s*(?:[1-7]|pass\b|x\b|xx\b|dbl\b))")
_LETTER_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[.;!?,:]")
_SENTENCE_END = frozenset(".;!?")
# words after "took" that tell a card handled, not a trick won ("took the 1♣ card from the box", "took it back")
_HANDLED = frozenset({"card", "cards", "box", "back", "bidding"})
_PERIOD_END = _SENTENCE_END - {";"}  # a period's end: a semicolon does not end one ("South opens 1NT; West bids 1♠")
SPELLED = "spelledout"
_BID_TOKEN = re.compile(r"[1-7](?:c|d|h|s|nt)")
_SUBJECTS = frozenset({"he", "she", "they", "i", "we", "you", "anyone", "anybody", "nobody", "everyone", "someone"})
_CONTRACT_BY = re.compile(
    r"(?:^| )([1-7](?:c|d|h|s|nt)) (?:spelledout )?(?:doubled |redoubled |x |xx )?by (north|east|south|west)"
)  # "4H by South": declarer's seat
_DECLARES = frozenset({"declares", "declared"})  # after a capital seat letter: "S declares 4H"
GAP = 4  # what "*" in a phrase stands for: up to four words


def table_words(text: str, letters: re.Pattern[str] | None = None) -> list[str]:
    """A message's words with the bids made tokens ("1♥", "1 heart" → "1h") and the sides ("E-W") not seats; a
    capital seat letter is a seat before a call ("N 1NT, E pass") or where ``letters`` finds it, before a word of
    the play ("W wins trick 3, but E leads")."""
    said = _SIDE.sub(" side ", text.replace("\u2019", "'").translate(_SUITS))
    said = _BID.sub(_bid, said)
    said = _LETTER.sub(lambda m: f" {_LETTER_NAMES[m[1]]} ", said)
    if letters is not None:
        said = letters.sub(lambda m: f" {_LETTER_NAMES[m[1]]} ", said)
    return _TOKEN.findall(said.lower().replace("\n", " . "))


def letter_before(words: frozenset[str]) -> re.Pattern[str]:
    """A capital seat letter followed by one of ``words`` ("W wins", "S then leads"), the letter its group 1."""
    acts = "|".join(sorted(map(re.escape, words)))
    return re.compile(r"\b([NESW])\b(?= (?:(?:then|now|also|again|next|immediately) )?(?:" + acts + r")\b)")


def _bid(found: re.Match[str]) -> str:
    """A bid as one token; one spelled out ("2 spades") is followed by a mark: tricks are counted so ("6 diamonds,
    5 spades"), and a list of them is not an auction."""
    return f" {found[1]}{_STRAINS[found[2].lower()]} {SPELLED if ' ' in found[0] else ''} "


@dataclass(frozen=True, slots=True)
class Call:
    """A call in the story: where it was said, the seat that made it (if told), what it was, a bid's level and
    strain, and the seat said to have been due to call when it was made."""

    at: int
    seat: str | None
    kind: str  # pass, double, redouble or bid
    bid: tuple[int, int] | None
    due: str | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """The play told by seats: declarer's seat, the seat on lead or due to play, who won a trick and who then led
    or played. Declarer's left-hand opponent makes the opening lead; the seat that won a trick leads to the next;
    a defender plays after the seat before him. "Declarer" and "dummy" are seats once declarer's is told."""

    declarer: re.Pattern[str]
    on_lead: re.Pattern[str]
    due: re.Pattern[str]
    leads: frozenset[str]
    plays: frozenset[str]
    wins: frozenset[str]
    opening: frozenset[str]
    laws: dict[str, tuple[int, ...]]
    letters: re.Pattern[str]  # a capital seat letter before a word of the play or of declaring ("W wins")

    def readings(self, tokens: list[str], sentence: list[int]) -> list[int]:
        """The laws of the play's readings, in order (``sentence``: each token's sentence, ``_numbered``)."""
        joined = " ".join(tokens)
        declarer = next((_seat(m) for m in self.declarer.finditer(joined)), None)
        declarer = declarer or next((m[2] for m in _CONTRACT_BY.finditer(joined)), None)
        if declarer not in SEATS:
            declarer = None
        leader = next((_seat(m) for m in self.on_lead.finditer(joined)), None)
        dues = _phrases(tokens, self.due)
        signals: list[int] = []
        won: str | None = None
        opening = not self.opening.isdisjoint(tokens) or "trick" not in tokens
        for at, word in enumerate(tokens):
            actor = self._actor(tokens, at, declarer)
            if actor is None:
                continue
            if word in self.wins:
                if _HANDLED.isdisjoint(tokens[at + 1 : at + 5]):
                    won, opening = actor, False
                continue
            if word not in self.leads | self.plays or {"hand", "hands", "cards"} & set(tokens[at + 1 : at + 3]):
                continue  # "faces his hand", "puts her cards down": a claim or the dummy, not a card played
            actor = _hand(tokens, at, actor, declarer)
            due = next(
                (_seat_of(seat, declarer) for first, last, seat in dues if _near(sentence, first, last, at)), None
            )
            defender = declarer is not None and actor not in (declarer, _partner(declarer))
            if due is not None and due != actor and defender and word in self.plays:
                signals.extend(self.laws["a defender's play before the seat due to play"])
            elif won is not None and actor != won:  # the first card after a trick won is the lead to the next
                same_side = declarer is not None and {actor, won} == {declarer, _partner(declarer)}
                if same_side:
                    signals.extend(self.laws["declarer's lead from the hand that did not win"])
                elif defender or declarer is None:
                    signals.extend(self.laws["a defender's lead after another seat won"])
            elif won is not None:
                pass  # the winner led: the play goes on in turn
            elif opening and word in self.leads:
                owed = _seat_of(leader, declarer) or (_left(declarer) if declarer else None)
                if owed is not None and actor != owed and (defender or declarer is None):
                    signals.extend(self.laws["the wrong defender's opening lead"])
            else:
                continue
            won, opening = None, False
        return signals

    def _actor(self, tokens: list[str], at: int, declarer: str | None) -> str | None:
        """The seat that did what the word at ``at`` says: the nearest seat (or declarer, dummy) before it in the
        sentence, within six words and no pronoun between; one named as owner ("dummy's ace wins") only for winning
        a trick."""
        if tokens[at] not in self.wins | self.leads | self.plays:
            return None
        for j in range(at - 1, max(-1, at - 7), -1):
            word = tokens[j]
            if word in ".!?" or word in _SUBJECTS:
                return None  # "dummy, when he had won": the pronoun did it, not the seat before it
            owner = word.endswith("'s")
            seat = _seat_of(word.removesuffix("'s"), declarer)
            if seat is not None and (not owner or tokens[at] in self.wins):
                return seat
        return None


@dataclass(frozen=True, slots=True)
class Compass:
    """The phrases that tell a seat due to call, the words of calls and of the seat they are bound to, and the laws
    of each reading."""

    due: re.Pattern[str]
    together: re.Pattern[str]
    calls: dict[str, frozenset[str]]
    verbs: frozenset[str]
    bids: frozenset[str]
    apart: frozenset[str]
    settled: frozenset[str]
    rectified: frozenset[str]
    laws: dict[str, tuple[int, ...]]
    weight: int
    play: Play

    def signals(self, text: str) -> tuple[int, ...]:
        """The laws the auction and the play told by seats signal, one per reading (a law twice when read twice),
        each counted ``weight`` times."""
        tokens = table_words(text, self.play.letters)
        if not any(t in SEATS for t in tokens):
            return ()
        sentence = _numbered(tokens, _SENTENCE_END)  # blanking a phrase (``_phrases``) leaves the marks as they are
        play = self.play.readings(list(tokens), sentence)
        dues = _phrases(tokens, self.due)
        together = self.together.search(" ".join(tokens)) is not None  # calls at once (Law 33): no order to read
        calls = [] if together else self._calls(tokens, dues, sentence)
        signals = [*self._auction(calls, tokens, _numbered(tokens, _PERIOD_END)), *play]
        return tuple(law for law in signals for _ in range(self.weight))

    def _calls(self, tokens: list[str], dues: list[tuple[int, int, str]], sentence: list[int]) -> list[Call]:
        calls: list[Call] = []
        kinds = [self._kind(tokens, i) for i in range(len(tokens))]
        for i, (token, kind) in enumerate(zip(tokens, kinds, strict=True)):
            if kind is None:
                continue
            bid = (int(token[0]), _RANK[token[1:]]) if kind == "bid" and token[0].isdigit() else None
            calls.append(Call(i, self._caller(tokens, kinds, i), kind, bid))
        return [self._due(call, calls, dues, tokens, sentence) for call in calls]

    def _kind(self, tokens: list[str], i: int) -> str | None:
        token = tokens[i]
        if _BID_TOKEN.fullmatch(token):
            return "bid"
        pair = f"{token} {tokens[i + 1]}" if i + 1 < len(tokens) else ""
        for kind, said in self.calls.items():
            if token in said or pair in said:
                return kind
        if token in self.bids and not any(self._kind(tokens, j) for j in range(i + 1, min(i + 5, len(tokens)))):
            return "bid"  # "West bids again": a bid whose level is not told
        return None

    def _caller(self, tokens: list[str], kinds: list[str | None], i: int) -> str | None:
        """The seat that made the call at ``i``: the nearest seat before it in the sentence, with no other call,
        seat or word that puts the call apart from it (a contract "by South", "South declares 4♠") between,
        and either next to it ("West 1♠") or joined by a verb of calling ("East, not noticing, bids 1♠")."""
        between: list[str] = []
        for j in range(i - 1, max(-1, i - 13), -1):
            word = tokens[j]
            if word in _SENTENCE_END or word in self.apart or kinds[j]:
                return None
            if word in SEATS:
                words_between = [w for w in between if w not in {",", ":"}]
                near = not words_between or words_between in (["then"], ["now"], ["also"])
                joined = any(w in self.verbs for w in between) or tokens[i] in self.verbs
                return word if near or joined else None
            between.append(word)
        return None

    def _due(
        self, call: Call, calls: list[Call], dues: list[tuple[int, int, str]], tokens: list[str], sentence: list[int]
    ) -> Call:
        """The seat due to call when this call was made: a phrase in its sentence saying that seat had not called
        yet, bound to the call it follows ("West passed before South had called, and North also passed": West's),
        or, set off by a comma or opening the sentence, to the first call after it ("North, before South has
        called, doubles"); else to the nearest call on the other side."""
        for first, last, seat in dues:
            after = [c for c in calls if c.at > last and sentence[c.at] == sentence[first]]
            before = [c for c in calls if c.at < first and sentence[c.at] == sentence[first]]
            set_off = first == 0 or tokens[first - 1] in {",", ":", *_SENTENCE_END}
            near = (after[:1] if set_off else before[-1:]) or (before[-1:] if set_off else after[:1])
            bound = near[0] if near else None
            if bound is call:
                return Call(call.at, call.seat, call.kind, call.bid, seat)
        return call

    def _auction(self, calls: list[Call], tokens: list[str], period: list[int]) -> tuple[int, ...]:
        """The calls in order: a call by a seat while another was said to be due is out of rotation; the next
        call, unless the director or the opponents dealt with it first, calls over it; a bid no higher than the
        last is insufficient. The turn is taken only from a seat said to be due: a story that leaves out the
        opponents' passes ("North opens 1♥, South responds 2♣") is not a call out of rotation. A bid, double or
        redouble after a bid and three passes in a row comes after the final pass: the auction was over."""
        signals: list[int] = []
        over: tuple[Call, str] | None = None  # a call out of rotation, and the seat whose turn it was
        last: tuple[int, int] | None = None
        passes: int | None = None  # the passes in a row since the last bid, double or redouble (None: none yet)
        for index, call in enumerate(calls):
            counted = call.seat is not None or self._listed(calls, index, tokens)
            if passes == 3 and call.seat is not None and call.kind != "pass":
                signals.extend(self.laws["a call after the final pass"])  # "S 4♠, W pass, N pass, E pass. E doubles"
                break
            if call.kind != "pass":
                passes = 0  # any call named, even one not bound to a seat ("S double"), starts the count again
            elif passes is not None and counted:
                passes += 1
            if not counted:
                continue
            if index and period[calls[index - 1].at] != period[call.at]:
                last = None  # a bid named again after the auction ("North's 2♦ was alerted") is not a call
            if over is not None and call.seat is not None:
                offender, owed = over
                dealt = self.settled & set(tokens[offender.at : call.at]) or self.rectified & set(tokens[call.at :])
                if not dealt:
                    reading = "called over by the player whose turn it was" if call.seat == owed else None
                    if call.seat == _left(offender.seat or call.seat) and reading is None:
                        reading = "called over by the offender's left-hand opponent"
                    if reading is not None:  # the call over it decides: it replaces the call out of rotation's law
                        del signals[len(signals) - len(self.laws[f"{offender.kind} out of rotation"]) :]
                        signals.extend(self.laws[reading])
                over = None
                continue
            if call.due is not None and call.seat is not None and call.seat != call.due:
                signals.extend(self.laws[f"{call.kind} out of rotation"])
                over = (call, call.due)
                continue
            if call.bid and last and call.bid <= last:
                signals.extend(self.laws["insufficient"])
            last = call.bid or last
        return tuple(signals)

    def _listed(self, calls: list[Call], index: int, tokens: list[str]) -> bool:
        """A call no seat is named for counts in the auction only in a list of calls ("1♥ – pass – 2♣"): next to
        another call, nothing but a comma between them, neither a verb ("doubled 4♣") nor spelled out ("6 diamonds,
        5 spades" are tricks), nor a contract ("in 3NT (1NT – 2♣ – 3NT)")."""
        here = calls[index].at
        if tokens[here] in self.verbs or (here and tokens[here - 1] in self.apart):
            return False
        return any(
            0 < abs(other.at - here) <= 2
            and set(tokens[min(other.at, here) + 1 : max(other.at, here)]) <= {","}
            and tokens[other.at] not in self.verbs
            for other in calls
        )


def _left(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def _partner(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def _seat_of(word: str | None, declarer: str | None) -> str | None:
    """A seat named, or declarer's or dummy's once declarer's seat is known."""
    if word in SEATS:
        return word
    if declarer is None:
        return None
    return {"declarer": declarer, "dummy": _partner(declarer)}.get(word or "")


def _hand(tokens: list[str], at: int, actor: str, declarer: str | None) -> str:
    """Declarer's card played "from dummy" or "from the table" is dummy's, "from hand" declarer's own."""
    if declarer is None or actor not in (declarer, _partner(declarer)):
        return actor
    after = " ".join(tokens[at + 1 : at + 8]).split(" . ")[0]
    found = re.search(r"\bfrom (?:the )?(dummy|table|board)\b|\bfrom (?:his |her |my )?(?:own )?(hand)\b", after)
    if found is None:
        return actor
    return declarer if found[2] else _partner(declarer)


def _near(sentence: list[int], first: int, last: int, at: int) -> bool:
    """A phrase and a word in the same sentence."""
    return sentence[first] == sentence[at] and not first <= at <= last


def _phrases(tokens: list[str], pattern: re.Pattern[str]) -> list[tuple[int, int, str]]:
    """Each phrase found: its first and last token and the seat it names; its tokens are then blanked, so that
    the seat it names ("before South has called") is not read as the one who acted."""
    joined = " ".join(tokens)
    starts = [m.start() for m in re.finditer(r"\S+", joined)]
    found = []
    for m in pattern.finditer(joined):
        if m.start(1) in starts:
            first = starts.index(m.start(1))
            found.append((first, first + len(m[1].split()) - 1, _seat(m)))
    for first, last, _named in found:
        tokens[first : last + 1] = [","] * (last + 1 - first)
    return sorted(found)


def _numbered(tokens: list[str], ends: frozenset[str]) -> list[int]:
    """Each token's sentence: how many of the marks ``ends`` come before it, counted once for the whole message."""
    numbers: list[int] = []
    count = 0
    for token in tokens:
        numbers.append(count)
        count += token in ends
    return numbers


def load_compass(path: Path) -> Compass:
    """The ``compass`` part of the turns file; ValueError when it is malformed."""
    return compass_of(read_yaml(path), path.name)


def compass_of(raw: Any, name: str) -> Compass:
    """The ``compass`` part of the turns file already parsed (``name`` its file name)."""
    part = raw.get("compass") if isinstance(raw, dict) else None
    if not isinstance(part, dict):
        raise ValueError(f"{name}: expected the seats' auction under 'compass'")
    calls = {str(kind): frozenset(" ".join(str(w).split()) for w in said) for kind, said in part["calls"].items()}
    laws = {str(reading): tuple(law_number(str(law)) for law in said) for reading, said in part["laws"].items()}
    needed = {f"{kind} out of rotation" for kind in [*calls, "bid"]}
    needed |= {"insufficient", "called over by the player whose turn it was"}
    needed |= {"called over by the offender's left-hand opponent", "a defender's play before the seat due to play"}
    needed |= {"declarer's lead from the hand that did not win", "a defender's lead after another seat won"}
    needed |= {"the wrong defender's opening lead", "a call after the final pass"}
    missing = sorted(needed - set(laws))
    if missing:
        raise ValueError(f"{name}: compass: no laws for {missing[0]!r}")
    return Compass(
        _seat_phrases(part["due"], SEATS),
        re.compile("|".join(rf"(?:^| ){re.escape(' '.join(str(p).lower().split()))}(?= |$)" for p in part["together"])),
        calls,
        frozenset(str(w) for w in part["verbs"]),
        frozenset(str(w) for w in part["bids"]),
        frozenset(str(w) for w in part["apart"]),
        frozenset(str(w) for w in part["settled"]),
        frozenset(str(w) for w in part["rectified"]),
        laws,
        int(part["weight"]),
        Play(
            _seat_phrases(part["declarer"], PLAYERS),
            _seat_phrases(part["on lead"], PLAYERS),
            _seat_phrases(part["due to play"], PLAYERS),
            frozenset(str(w) for w in part["leads"]),
            frozenset(str(w) for w in part["plays"]),
            frozenset(str(w) for w in part["wins"]),
            frozenset(str(w) for w in part["opening"]),
            laws,
            letter_before(frozenset(str(w) for k in ("leads", "plays", "wins") for w in part[k]) | _DECLARES),
        ),
    )


def _seat_phrases(phrases: Any, who: tuple[str, ...]) -> re.Pattern[str]:
    """The phrases naming a seat as SEAT ("before SEAT has called"), one pattern: commas may fall between their
    words, "*" stands for up to four words; the whole phrase found is group 1, its seat the group ``s<n>`` of the
    phrase (``_seat``)."""
    if not isinstance(phrases, list) or not phrases:
        raise ValueError("a list of compass phrases is empty")
    bodies = []
    for number, phrase in enumerate(phrases):
        body = ""
        for word in str(phrase).lower().split():
            if word == "*":
                body += rf" (?:[^ .;!?]+ ){{0,{GAP}}}"
                continue
            seat = f"(?P<s{number}>{'|'.join(who)})"
            part = seat + word[4:] if word in ("seat", "seat's") else re.escape(word)
            body += part if not body else (part if body.endswith("} ") else r" (?:, )?" + part)
        if f"?P<s{number}>" not in body:
            raise ValueError(f"a compass phrase must name SEAT: {phrase!r}")
        bodies.append(body)
    return re.compile(rf"(?:^| )({'|'.join(bodies)})(?= |$)")


def _seat(found: re.Match[str]) -> str:
    """The seat a phrase found names."""
    return next(seat for name, seat in found.groupdict().items() if seat is not None)
