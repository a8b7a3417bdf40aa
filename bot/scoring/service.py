"""The arithmetic as the front ends show it: each function takes the words typed after the command and
returns the text to show, or raises ``ScoringError`` with the one line to show instead.

``deal_text`` solves a deal double dummy, up to a second of CPU: a front end on an event loop runs it on a thread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.scoring.contract import parse_result, parse_vulnerability
from bot.scoring.conversion import imps, matchpoints, percentages
from bot.scoring.deal import SEATS, STRAIN_ORDER, STRAIN_SHOWN, analyse, parse_deal
from bot.scoring.errors import ScoringError
from bot.scoring.score import score

SCORE_USAGE = "Write a contract, its result and the vulnerability: 4SX= vul, 3NT+1 nv, 6H-2 vul."
IMPS_USAGE = "Write the two tables' scores from the same side (imps 620 -100), or one difference (imps 720)."
MP_USAGE = "Write every score on the board from the same side: mp 420 420 450 -50."
SCORE_LIMIT = 20_000  # beyond any board's score or difference of two (2 × 7,600)
WORD_LIMIT = 200  # scores on one board; more is a paste gone wrong
_FIGURES = re.compile(r"[0-9+\-−\[]|pass|[^ ]*[.:]", re.I)  # 4SX=, -100, [Deal …], pass, N:AKQ2…, AKQ2.J98…


def reads_as_figures(words: Sequence[str]) -> bool:
    """Whether the words after score, imps, mp or deal start with figures (4SX=, -100, N:AKQ2.…) rather than
    the rest of a sentence ("score was entered for the wrong pair", "deal was fouled"): typed without a
    slash, such a line is an incident to describe, not arithmetic."""
    return not words or _FIGURES.match(words[0]) is not None


def score_text(words: Sequence[str]) -> str:
    """``4SX= vul`` → ``+790``, with the contract as read; without a vulnerability, both."""
    if not words:
        raise ScoringError(SCORE_USAGE)
    *contract, last = words
    try:
        vulnerable: bool | None = parse_vulnerability(last)
    except ScoringError:
        vulnerable = None
    if vulnerable is not None:
        if not contract:
            raise ScoringError(SCORE_USAGE)
        result = parse_result(" ".join(contract))
    else:
        try:
            result = parse_result(" ".join(words))
        except ScoringError:
            if contract:  # a contract, then a word that should have been the vulnerability: say which
                parse_result(" ".join(contract))
                parse_vulnerability(last)
            raise
    if vulnerable is None:
        return (
            f"{score(result, False):+d} not vulnerable, {score(result, True):+d} vulnerable — {result}, declarer's side"
        )
    return f"{score(result, vulnerable):+d} — {result} {'vul' if vulnerable else 'nv'}, declarer's side"


def points(word: str) -> int:
    """A table score as typed (+620, -100, 420), at most a board's worth (7NTXX-13 vulnerable is 7,600)."""
    try:
        value = int(word.replace("−", "-")) if len(word) <= 12 else None
    except ValueError:
        value = None
    if value is None:
        raise ScoringError(f"{word[:20]!r} is not a score: write whole points, like 620 or -100.")
    if abs(value) > SCORE_LIMIT:
        raise ScoringError(f"{word[:20]} is more than a board can score: at most {SCORE_LIMIT:,} either way.")
    return value


def imps_text(words: Sequence[str]) -> str:
    """Two table scores (or one difference) → IMPs to the first table's side."""
    if not 1 <= len(words) <= 2:
        raise ScoringError(IMPS_USAGE)
    scores = [points(word) for word in words]
    difference = scores[0] - (scores[1] if len(scores) == 2 else 0)
    how = f"{scores[0]:+d} against {scores[1]:+d}, " if len(scores) == 2 else ""
    won = imps(difference)
    return f"{won:+d} IMP{'' if abs(won) == 1 else 's'} ({how}difference {difference:+d}; Law 78B)"


def mp_text(words: Sequence[str]) -> str:
    """Every score on a board → each one's matchpoints and percentage, best first."""
    if len(words) > WORD_LIMIT:
        raise ScoringError(f"At most {WORD_LIMIT} scores on one board.")
    if len(words) < 2:
        raise ScoringError(MP_USAGE)
    scores = [points(word) for word in words]
    rows = sorted(zip(scores, matchpoints(scores), percentages(scores), strict=True), key=lambda row: -row[0])
    top = 2 * (len(scores) - 1)
    lines = [f"Top {top} (2 per score beaten, 1 per tie; Law 78A):"]
    lines += [f"{own:+6d}  {mp:>4g} mp  {pct:5.1f} %" for own, mp, pct in rows]
    return "\n".join(lines)


def deal_text(words: Sequence[str]) -> str:
    """The double-dummy table (tricks for each declarer in each strain) and the par contract, as text."""
    deal = parse_deal(" ".join(words))
    result = analyse(deal)
    lines = [
        "Double dummy: tricks for each declarer",
        "      " + "  ".join(f"{STRAIN_SHOWN[s]:>2}" for s in STRAIN_ORDER),
    ]
    lines += [f"  {seat}   " + "  ".join(f"{result.tricks[s][seat]:>2}" for s in STRAIN_ORDER) for seat in SEATS]
    contracts = ", ".join(result.par) or "passed out"
    lines.append(f"Par (dealer {deal.dealer}, vulnerable {deal.vulnerable}): {contracts}, {result.par_score:+d} to NS")
    return "\n".join(lines)
