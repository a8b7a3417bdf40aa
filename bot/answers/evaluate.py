"""How right the players' answers are: ``python -m bot answers-eval FILE.jsonl ... [--json]``.

Every text goes through the one step the terminal and Telegram share (``Replies.to_text``, mode "auto"),
so what is measured is what a player would see first. Three kinds of file, told apart by their lines:

* questions, ``{"text": ..., "deciding": ["16B1", "73C1"]}``: the first reply is right when it is an answer
  (a summary, a term or a law) and a section it cites covers a deciding section (``covers``); a question given
  the situations first is wrong, and is also counted apart when its first chart is about a deciding law;
* routing, ``{"text": ..., "route": "answer" | "chart"}``: right when a player's question gets an answer
  (a summary or a term) first and a director's incident gets the situations (or the triage question) first;
* declines, ``{"text": ...}`` (``"decline": false`` marks a law question worded like advice): a message to
  decline is right when it gets one line and nothing starts (no chart, no summary); a law question, when it is
  not declined.

The matcher is built without the files' texts among its worked examples, as ``python -m bot eval`` does.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from bot.answers.replies import DECLINE, Act, Kind, Replies, Reply, build_replies
from bot.dialogs import load_charts
from bot.laws import load_lawbook
from bot.laws.refs import law_number, parse_ref
from bot.matching import build_matcher, chart_entries

ANSWERS = (Kind.SUMMARY, Kind.DEFINE, Kind.LAW)  # a reply that answers a question in words, citing sections
ANSWER_FIRST = (Kind.SUMMARY, Kind.DEFINE)  # what a player's own question should get first
CHART_FIRST = (Kind.SITUATIONS, Kind.TRIAGE, Kind.START)  # what a director's incident should get first


def covers(cited: str, deciding: str) -> bool:
    """Whether a cited section answers for a deciding one: the cite lies within it ("16B1(a)" for "16B1", any
    part of Law 77 for "77"), or the cite is a lettered section that holds it ("64B" for "64B4"). A whole law
    cited ("16") does not cover one of its sections ("16B1"): a summary citing only the law may be about
    another part of it. A reference that is not a law's ("Definitions") must be written the same."""
    cite, decide = parse_ref(cited), parse_ref(deciding)
    if cite is None or decide is None:
        return cited.strip().casefold() == deciding.strip().casefold()
    if cite.parts[: len(decide.parts)] == decide.parts:
        return True
    return len(cite.parts) >= 2 and decide.parts[: len(cite.parts)] == cite.parts


@dataclass(frozen=True, slots=True)
class Outcome:
    """One text, what it got first, and whether that was right."""

    text: str
    expected: str  # the deciding sections, "answer"/"chart", or "decline"/"not declined"
    kind: str  # the reply's kind
    shown: str  # the reply's first line
    cites: tuple[str, ...]
    right: bool
    group: str = ""  # the question's own "kind" label, when it has one
    chart_fits: bool = False  # a question given the situations first: its first chart is about a deciding law
    half: str = ""  # "odd" or "even" by the number its id ends in, when it has one
    topic: str = ""  # a summary's topic token: "a:…" is a special answer

    @property
    def special(self) -> bool:
        """Whether a special answer (a case) was shown first, not a chart's or a law's general summary."""
        return self.topic.startswith("a:")


def _outcome(text: str, expected: str, reply: Reply, right: bool, group: str = "") -> Outcome:
    first = reply.text.splitlines()[0] if reply.text else ""
    return Outcome(text, expected, reply.kind.value, first, reply.cites, right, group, topic=reply.topic)


def half_of(row_id: str) -> str:
    """ "odd" or "even" by the number an id ends in ("pq-017" is odd), "" for an id without one: the two halves
    of a set tell whether what was tuned on one carries over to the other."""
    digits = re.search(r"(\d+)$", row_id)
    return "" if digits is None else ("odd" if int(digits.group(1)) % 2 else "even")


def judge_question(replies: Replies, text: str, deciding: tuple[str, ...], group: str = "", half: str = "") -> Outcome:
    reply = replies.to_text(text)
    right = reply.kind in ANSWERS and any(covers(c, d) for c in reply.cites for d in deciding)
    outcome = replace(_outcome(text, ", ".join(deciding), reply, right, group), half=half)
    charts = [o.key for o in reply.offers if o.act is Act.CHART and o.key in replies.charts]
    if reply.kind is not Kind.SITUATIONS or not charts:
        return outcome
    laws = {ref.law for ref in map(parse_ref, deciding) if ref is not None}
    fits = any(law_number(ref) in laws for ref in replies.charts[charts[0]].laws)
    return replace(outcome, chart_fits=fits)


def judge_route(replies: Replies, text: str, route: str) -> Outcome:
    reply = replies.to_text(text)
    right = reply.kind in (ANSWER_FIRST if route == "answer" else CHART_FIRST)
    return _outcome(text, route, reply, right)


def judge_decline(replies: Replies, text: str, decline: bool) -> Outcome:
    reply = replies.to_text(text)
    right = reply.kind is Kind.SAY and not reply.offers if decline else reply.text != DECLINE
    return _outcome(text, "decline" if decline else "not declined", reply, right)


@dataclass(frozen=True, slots=True)
class Measure:
    """A file's outcomes and its figure (the share right)."""

    name: str
    measure: str  # "questions", "routing" or "declines"
    outcomes: tuple[Outcome, ...]

    @property
    def right(self) -> float:
        return sum(o.right for o in self.outcomes) / (len(self.outcomes) or 1)

    def by_group(self) -> dict[str, tuple[int, int]]:
        """Right and total for each of the questions' own labels ("kind"), when they have them."""
        groups: dict[str, tuple[int, int]] = {}
        for o in self.outcomes:
            if o.group:
                right, n = groups.get(o.group, (0, 0))
                groups[o.group] = (right + o.right, n + 1)
        return dict(sorted(groups.items()))

    def by_half(self) -> dict[str, tuple[int, int]]:
        """Right and total for the odd and the even ids, when the rows have numbered ids."""
        halves: dict[str, tuple[int, int]] = {}
        for o in self.outcomes:
            if o.half:
                right, n = halves.get(o.half, (0, 0))
                halves[o.half] = (right + o.right, n + 1)
        return dict(sorted(halves.items(), reverse=True))

    def as_dict(self) -> dict[str, object]:
        figures: dict[str, object] = {
            "file": self.name,
            "measure": self.measure,
            "n": len(self.outcomes),
            "right": round(self.right, 4),
            "first_kind": dict(Counter(o.kind for o in self.outcomes)),
        }
        if self.measure == "questions":
            figures["situations_first"] = sum(o.kind == Kind.SITUATIONS.value for o in self.outcomes)
            figures["situations_first_chart_fits"] = sum(o.chart_fits for o in self.outcomes)
            figures["special_answers"] = sum(o.special for o in self.outcomes)
            figures["special_answers_right"] = sum(o.special and o.right for o in self.outcomes)
            if self.by_half():
                figures["by_half"] = {h: round(right / n, 4) for h, (right, n) in self.by_half().items()}
        if self.by_group():
            figures["by_group"] = {g: round(right / n, 4) for g, (right, n) in self.by_group().items()}
        return figures


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a file: the text and what it is labelled with."""

    text: str
    deciding: tuple[str, ...] = ()
    route: str = ""
    decline: bool = True
    group: str = ""
    id: str = ""


def read_rows(path: Path) -> list[Row]:
    """The file's lines; ValueError naming the line when one is not a JSON object with a text, or is badly
    labelled."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except ValueError as exc:
            raise ValueError(f"{path}:{number}: not JSON ({exc})") from exc
        if not isinstance(raw, dict) or not isinstance(raw.get("text"), str):
            raise ValueError(f'{path}:{number}: expected an object with "text"')
        deciding = raw.get("deciding", [])
        labelled = isinstance(deciding, list) and all(isinstance(d, str) for d in deciding)
        if not labelled or ("deciding" in raw and not deciding):
            raise ValueError(f'{path}:{number}: "deciding" must be a non-empty list of sections such as "16B1"')
        if raw.get("route", "answer") not in ("answer", "chart"):
            raise ValueError(f'{path}:{number}: "route" must be "answer" or "chart"')
        route, group = str(raw.get("route", "")), str(raw.get("kind") or "")
        row_id = str(raw.get("id") or "")
        rows.append(Row(raw["text"], tuple(deciding), route, raw.get("decline") is not False, group, row_id))
    return rows


def measure_file(replies: Replies, name: str, rows: list[Row]) -> Measure:
    """The file measured as what its lines are: questions, routing, or declines."""
    if rows and all(row.deciding for row in rows):
        outcomes = [judge_question(replies, r.text, r.deciding, r.group, half_of(r.id)) for r in rows]
        return Measure(name, "questions", tuple(outcomes))
    if rows and all(row.route for row in rows):
        return Measure(name, "routing", tuple(judge_route(replies, r.text, r.route) for r in rows))
    return Measure(name, "declines", tuple(judge_decline(replies, r.text, r.decline) for r in rows))


def run_answers_eval(paths: list[Path], as_json: bool) -> int:
    """The answers-eval command: a figure per file and its misses (one JSON object with --json); exit 2 on a
    missing or malformed file."""
    files: list[tuple[Path, list[Row]]] = []
    for path in paths:
        try:
            files.append((path, read_rows(path)))
        except FileNotFoundError:
            print(f"No such file: {path}", file=sys.stderr)
            return 2
        except (ValueError, OSError) as exc:
            print(str(exc), file=sys.stderr)
            return 2
    texts = [row.text for _path, rows in files for row in rows]
    charts = load_charts()
    replies = build_replies(load_lawbook(), charts, build_matcher(chart_entries(), leave_out=texts))
    measures = [measure_file(replies, path.name, rows) for path, rows in files]
    if as_json:
        print(json.dumps([m.as_dict() for m in measures]))
        return 0
    for m in measures:
        print(_line(m))
    for m in measures:
        wrong = [o for o in m.outcomes if not o.right]
        if wrong:
            print(f"\n{m.name}: not right (text → expected; got):")
        for o in wrong:
            cites = f" [{', '.join(o.cites)}]" if o.cites else ""
            print(f"  {o.text!r} → {o.expected}; {o.kind}: {o.shown[:80]}{cites}")
    return 0


def _line(m: Measure) -> str:
    what = {"questions": "first answer cites a deciding section", "routing": "routed right", "declines": "right"}
    kinds = ", ".join(f"{k} {n}" for k, n in Counter(o.kind for o in m.outcomes).most_common())
    line = f"{m.name}: {len(m.outcomes)} {m.measure}, {what[m.measure]} {m.right:.3f} (first replies: {kinds})"
    if m.measure == "questions":
        shown = [o for o in m.outcomes if o.kind == Kind.SITUATIONS.value]
        line += (
            f"; situations first {len(shown)}, the first chart about a deciding law {sum(o.chart_fits for o in shown)}"
        )
        special = [o for o in m.outcomes if o.special]
        line += f"; special answers first {len(special)} ({sum(o.right for o in special)} right)"
        for half, (right, n) in m.by_half().items():
            line += f"\n  {half} ids: {right}/{n} ({right / n:.3f})"
    if m.measure == "declines":
        declined = [o for o in m.outcomes if o.expected == "decline"]
        kept = [o for o in m.outcomes if o.expected != "decline"]
        line += f"; to decline {sum(o.right for o in declined)}/{len(declined)} started nothing"
        if kept:
            line += f", law questions not declined {sum(o.right for o in kept)}/{len(kept)}"
    for group, (right, n) in m.by_group().items():
        line += f"\n  {group}: {right}/{n}"
    return line
