"""Worked examples: a case's answer with the question's own figures put through the scoring code.

A player who asks "what's a 450 point difference worth in IMPs?" wants 10, not a scale to read, and one who
made "two spades doubled with an overtrick, vulnerable" wants 870; the numbers come from ``bot.scoring`` (the
78B scale read from the law text, Law 77's table), never from a table copied here.
"""

from __future__ import annotations

import re

from bot.laws.summaries import Sentence
from bot.scoring.contract import SHOWN, SYMBOLS, Result, make_result
from bot.scoring.conversion import imps
from bot.scoring.errors import ScoringError
from bot.scoring.score import score

# A points difference as players name it: "a 450 point difference", "lost by 370 points", "a 230 swing",
# "difference of 1100"; a question naming any other figure (two tables' scores, "620 and 100 points") gets
# none, but a board's, table's, round's or trick's number and a count of IMPs are not scores.
_DIFFERENCE = re.compile(
    r"\b(\d{1,5})[ -]?(?:points?|pts?)\b|\bdifference (?:of )?(\d{1,5})\b|\b(\d{1,5})[ -]?(?:point )?swing\b"
)
_FIGURE = re.compile(r"(?<!board )(?<!boards )(?<!table )(?<!round )(?<!trick )\b(\d{1,5})\b(?! ?imps?\b)")


_COUNT = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_NUMBER = r"([1-7]|an?|one|two|three|four|five|six|seven)"
# A contract as players write it: "3 hearts", "two spades", "4s", "3nt", "3 no trumps", "4♠", "4sx".
_CONTRACT = re.compile(
    r"\b(?P<level>[1-7]|one|two|three|four|five|six|seven)"
    r"(?: ?(?P<word>club|diamond|heart|spade|no ?trump|notrump|nt)s?|(?<=\d)(?P<letter>nt|[cdhs♣♦♥♠]))(?!(?!x)[a-z])"
)
_REDOUBLED = re.compile(r"\bredoubled\b|\bredbl\b|(?:\b|\d(?:nt|[cdhs♣♦♥♠]))xx\b")
_DOUBLED = re.compile(r"(?<!un)\bdoubled\b|\bdbl\b|(?:\b|\d(?:nt|[cdhs♣♦♥♠]))x\b")
_NOT_VULNERABLE = re.compile(r"\b(not|non|none|un)[ -]?vul(nerable)?\b|\bnv\b")
_VULNERABLE = re.compile(r"\bvul(nerable)?\b")
# How it went: overtricks, undertricks, or made with none said in so many words.
_OVER = re.compile(rf"\b{_NUMBER} overtricks?\b|\+([1-6])\b|\bwith an? overtrick\b")
_DOWN = re.compile(rf"\b{_NUMBER} (?:down|off)\b|\bdown {_NUMBER}\b|-([1-9])\b")
_EXACTLY = re.compile(
    r"\b(made|making|makes)\b[^.?!]{0,25}\bexactly\b|\bjust made\b|\bno overtricks?\b|\d(?:nt|[cdhs])x{0,2}="
)
_DOUBLINGS = ("", " doubled", " redoubled")


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _COUNT[word]


def _result(lowered: str) -> Result | None:
    """The one contract the question names and how it went; None when it names none or two, or no result."""
    contracts = {(m["level"], m["word"] or m["letter"]) for m in _CONTRACT.finditer(lowered)}
    if len(contracts) != 1:
        return None
    ((level, strain),) = contracts
    over, down = _OVER.search(lowered), _DOWN.search(lowered)
    if over is not None and down is not None:
        return None
    if over is not None:
        tricks = next((_count(g) for g in over.groups() if g), 1)
    elif down is not None:
        tricks = -next(_count(g) for g in down.groups() if g)
    elif _EXACTLY.search(lowered):
        tricks = 0
    else:
        return None
    doubled = 2 if _REDOUBLED.search(lowered) else 1 if _DOUBLED.search(lowered) else 0
    try:
        first = strain[0].upper()  # "h" of "hearts" or "4h", "n" of "no trumps", or a suit symbol
        return make_result(_count(level), SYMBOLS.get(first, first), doubled, tricks)
    except ScoringError:
        return None


def _score_sentence(lowered: str) -> Sentence | None:
    """Law 77's score for the contract and result the question states, its vulnerability too unless it makes
    no difference."""
    result = _result(lowered)
    if result is None:
        return None
    vulnerable = False if _NOT_VULNERABLE.search(lowered) else True if _VULNERABLE.search(lowered) else None
    scores = {score(result, v) for v in ((False, True) if vulnerable is None else (vulnerable,))}
    if len(scores) != 1:
        return None
    points = scores.pop()
    contract = f"{result.level}{SHOWN[result.strain]}{_DOUBLINGS[result.doubled]}"
    said = "" if vulnerable is None else (", vulnerable," if vulnerable else ", not vulnerable,")
    if result.over < 0:
        return Sentence(f"{contract}{said} {-result.over} down: the defenders score {-points}.", ("77",))
    made = "made exactly" if result.over == 0 else f"made with {result.over} overtrick{'s' if result.over > 1 else ''}"
    return Sentence(f"{contract}{said} {made}, scores {points}.", ("77",))


def worked_sentence(worked: str, lowered: str) -> Sentence | None:
    """The worked example ``worked`` names, from the figures in the lower-cased question; None when the
    question does not state exactly one figure for it."""
    if worked == "score":
        return _score_sentence(lowered)
    if worked != "imps":
        return None
    figures = {int(next(g for g in m.groups() if g)) for m in _DIFFERENCE.finditer(lowered)}
    if len(figures) != 1 or {int(f) for f in _FIGURE.findall(lowered)} != figures:
        return None
    points = figures.pop()
    won = imps(points)
    return Sentence(f"A difference of {points} points is {won} IMP{'' if won == 1 else 's'}.", ("78B",))
