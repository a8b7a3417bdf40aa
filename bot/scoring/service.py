"""The arithmetic as the front ends show it: each function takes the words typed after the command and
returns the text to show, or raises ``ScoringError`` with the one line to show instead.

``deal_text`` solves a deal double dummy, up to a second of CPU: a front end on an event loop runs it on a thread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.scoring.adjusted import ARTIFICIAL, artificial, outcomes, weighted_imps, weighted_matchpoints
from bot.scoring.contract import make_result, parse_result, parse_vulnerability
from bot.scoring.conversion import imps, matchpoints, percentages
from bot.scoring.deal import SEATS, STRAIN_ORDER, STRAIN_SHOWN, analyse, parse_deal
from bot.scoring.errors import ScoringError
from bot.scoring.score import score

SCORE_USAGE = "Write a contract, its result and the vulnerability: 4SX= vul, 3NT+1 nv, 6H-2 vul."
IMPS_USAGE = "Write the two tables' scores from the same side (imps 620 -100), or one difference (imps 720)."
MP_USAGE = "Write every score on the board from the same side: mp 420 420 450 -50."
ADJUST_USAGE = (
    "Write each outcome with its weight, then imps and the other table's score, or mp and the other tables' "
    "scores, all from declarer's side: adjust 60% 4S= 40% 4S-1 vul imps 620; or adjust plus pairs."
)
ARTIFICIAL_WORDS = {"plus": "plus", "avg+": "plus", "average": "average", "avg": "average", "minus": "minus"}
ARTIFICIAL_WORDS |= {"avg-": "minus", "average-plus": "plus", "average-minus": "minus"}
_OUTCOME = re.compile(r"(\d+(?:\.\d+)?|\d+/\d+)\s*%\s*(\S+)")
SCORE_LIMIT = 20_000  # beyond any board's score or difference of two (2 × 7,600)
WORD_LIMIT = 200  # scores on one board; more is a paste gone wrong
# 4SX=, -100, [Deal …], pass, N:AKQ2…, AKQ2.J98…, and adjust's plus, minus, average, avg
_DEAL_START = re.compile(r"\[|[NESW]:|[AKQJT2-9x-]*\.", re.I)
_FIGURES = re.compile(r"[0-9+\-−\[]|pass|[^ ]*[.:]|(plus|minus|average|avg)\b", re.I)


def reads_as_figures(words: Sequence[str]) -> bool:
    """Whether the words after score, imps, mp, adjust or deal start with figures (4SX=, -100, N:AKQ2.…) rather than
    the rest of a sentence ("score was entered for the wrong pair", "deal was fouled"): typed without a
    slash, such a line is an incident to describe, not arithmetic."""
    return not words or _FIGURES.match(words[0]) is not None


def reads_as_deal(words: Sequence[str]) -> bool:
    """Whether the words after deal start a deal (a PBN record, ``N:`` or a hand such as AKQ2.J98.…) rather than a
    sentence ("Deal 12, North dealer, …"), which is an incident to describe."""
    return not words or _DEAL_START.match(words[0]) is not None


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


def adjust_text(words: Sequence[str]) -> str:
    """A weighted adjusted score (Law 12C1(c)) at IMPs or matchpoints, each outcome shown with its own
    figure; or an artificial adjusted score (12C2): ``adjust plus pairs``."""
    if len(words) > WORD_LIMIT:
        raise ScoringError(f"At most {WORD_LIMIT} words.")
    if words and words[0].casefold() in ARTIFICIAL_WORDS:
        return _artificial_text(words)
    lowered = [word.casefold() for word in words]
    form = next((word for word in lowered if word in ("imps", "mp")), None)
    if form is None:
        raise ScoringError(ADJUST_USAGE)
    split = lowered.index(form)
    typed, others = list(words[:split]), [points(word) for word in words[split + 1 :]]
    vulnerable = None
    if typed and typed[-1].casefold() in ("vul", "v", "nv", "non", "vulnerable", "nonvul", "non-vul"):
        vulnerable = parse_vulnerability(typed.pop())
    found = _OUTCOME.findall(" ".join(typed))
    if not found or _OUTCOME.sub("", " ".join(typed)).split():  # no outcome, or words that are none
        raise ScoringError(ADJUST_USAGE)
    rows = [(weight, *_outcome(outcome, vulnerable)) for weight, outcome in found]
    weighted = outcomes([(table_score, weight) for weight, _shown, table_score in rows])
    if form == "imps":
        if len(others) != 1:
            raise ScoringError("At IMPs, give the other table's one score after imps: … imps 620.")
        lines = [f"Weighted at IMPs (Law 12C1(c)), against {others[0]:+d} at the other table:"]
        lines += [f"{w:>5}%  {shown:<12} {s:+6d}  {imps(s - others[0]):+3d} IMPs" for w, shown, s in rows]
        lines.append(f"= {weighted_imps(weighted, others[0]):+.2f} IMPs")
    else:
        if not others:
            raise ScoringError("At matchpoints, give the other tables' scores after mp: … mp 620 650 170 -100.")
        top = 2 * len(others)
        lines = [f"Weighted at matchpoints (Law 12C1(c)), against {len(others)} other scores (top {top}):"]
        lines += [f"{w:>5}%  {shown:<12} {s:+6d}  {matchpoints([s, *others])[0]:>3} mp" for w, shown, s in rows]
        total = weighted_matchpoints(weighted, others)
        lines.append(f"= {total:.2f} mp, {100 * total / top:.2f} %")
    return "\n".join(lines)


def _outcome(typed: str, vulnerable: bool | None) -> tuple[str, int]:
    """One outcome as shown and as a score: a table score (+620) or a contract and result (4S-1)."""
    if re.fullmatch(r"[+\-−]?\d+", typed):
        return "", points(typed)
    if vulnerable is None:
        raise ScoringError("Write the vulnerability before imps or mp (vul or nv): a contract's score depends on it.")
    result = parse_result(typed)
    return f"{result} {'vul' if vulnerable else 'nv'}", score(result, vulnerable)


def _artificial_text(words: Sequence[str]) -> str:
    kind = ARTIFICIAL_WORDS[words[0].casefold()]
    if len(words) != 2 or words[1].casefold() not in ARTIFICIAL:
        raise ScoringError("Say pairs or teams: adjust plus pairs, adjust minus teams.")
    form = words[1].casefold()
    value = artificial(form, kind)
    figure = f"{value:g} %" if form == "pairs" else f"{value:+g} IMPs"
    name = {"plus": "Average plus", "average": "Average", "minus": "Average minus"}[kind]
    return f"{name} at {form}: {figure} (Law 12C2{'(a)' if form == 'pairs' else '(b)'})"


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


SIDES_GIVING = {
    "declarer": "declarer",
    "declarers": "declarer",
    "declaring": "declarer",
    "dummy": "declarer",
    "defenders": "defenders",
    "defender": "defenders",
    "defence": "defenders",
    "defense": "defenders",
    "defending": "defenders",
}


def ruling_number(words: Sequence[str]) -> int | None:
    """The ruling a ``score`` command names first (``score 7 4S= vul defenders``), or None for plain arithmetic:
    a number followed by what starts a contract, a weight or a score (``score 7 NT= vul`` is 7NT=, not ruling 7)."""
    if not words or not (words[0].isascii() and words[0].isdigit()) or len(words[0]) > 12:
        return None
    if len(words) > 1 and not re.match(r"[0-9+\-−]|pass", words[1], re.I):
        return None
    return int(words[0])


def ruling_usage(kind: str, tricks: int = 0) -> str:
    """What to type to score a ruling of this kind (``bot.dialogs.model.ScoreStep``). The table's contract is
    not known here, so a ruling's own score shows the form, never a contract ("4S-1 vul" on a 3NT claim reads
    as the table's); an assigned score may be any contract, so its example stays."""
    if kind == "transfer":
        return (
            f"the contract played and its result at the table or as claimed (=, +1, -2 …), vul or nv, and the side "
            f"that gives up the {_tricks(tricks)}: declarer or defenders"
        )
    if kind == "adjusted":
        return (
            "the result assigned (4S= vul), or each result with its weight (60% 4S= 40% 4S-1 vul); add imps and the "
            "other table's score, or mp and the other tables' scores, for IMPs or matchpoints"
        )
    return "the contract played and the result awarded (=, +1, -2 …), then vul or nv"


def ruling_score_text(kind: str, tricks: int, words: Sequence[str]) -> str:
    """A ruling's score from what the director typed: ``table`` scores the result as typed; ``transfer`` moves
    ``tricks`` from the side named (declarer or defenders) to the other first; ``adjusted`` is a weighted score
    when weights are typed (or a single result with imps or mp: 100 % of it), else the result's score."""
    if len(words) > WORD_LIMIT:
        raise ScoringError(f"At most {WORD_LIMIT} words.")
    if kind == "adjusted":
        lowered = [word.casefold() for word in words]
        if any(word.endswith("%") for word in words):
            return adjust_text(words)
        if "imps" in lowered or "mp" in lowered:
            return adjust_text(["100%", *words])
        return score_text(words)
    if kind != "transfer" or tricks == 0:
        return score_text(words)
    giving = [SIDES_GIVING[word.casefold()] for word in words if word.casefold() in SIDES_GIVING]
    typed = [word for word in words if word.casefold() not in SIDES_GIVING]
    if len(set(giving)) != 1:
        raise ScoringError(f"Say which side gives up the {_tricks(tricks)}: declarer or defenders.")
    return _transferred(typed, tricks, giving[0])


def _transferred(words: Sequence[str], tricks: int, giving: str) -> str:
    """The score after ``tricks`` tricks go from ``giving`` (declarer or defenders) to the other side."""
    if not words:
        raise ScoringError(SCORE_USAGE)
    *contract, last = words
    try:
        vulnerable: bool | None = parse_vulnerability(last)
    except ScoringError:
        vulnerable, contract = None, list(words)
    table = parse_result(" ".join(contract))
    if table.passed_out:
        raise ScoringError("A passed-out board has no tricks to transfer.")
    taken = table.tricks if giving == "declarer" else 13 - table.tricks
    if tricks > taken:
        who = "Declarer's side" if giving == "declarer" else "The defenders"
        raise ScoringError(f"{who} took {_tricks(taken)} in {table}: they cannot give up {tricks}.")
    moved = -tricks if giving == "declarer" else tricks
    result = make_result(table.level, table.strain, table.doubled, table.over + moved)
    to = "the defenders" if giving == "declarer" else "declarer"
    how = f"{table} at the table, {_tricks(tricks)} to {to}"
    if vulnerable is None:
        return (
            f"{score(result, False):+d} not vulnerable, {score(result, True):+d} vulnerable — {result}, "
            f"declarer's side ({how})"
        )
    return f"{score(result, vulnerable):+d} — {result} {'vul' if vulnerable else 'nv'}, declarer's side ({how})"


def _tricks(count: int) -> str:
    return f"{count} trick{'' if count == 1 else 's'}"
