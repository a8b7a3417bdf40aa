"""Shared words of a screen (where an answer came from) and a chart as a picture: Graphviz DOT or Mermaid
text, optionally with a session's path highlighted."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from itertools import pairwise

from bot.dialogs.engine import Answered, Walk
from bot.dialogs.facts import SOURCE
from bot.dialogs.model import (
    AGAIN,
    Branch,
    Chart,
    Jump,
    Node,
    Note,
    Park,
    Question,
    Repeat,
    Ruling,
    choices,
    prompt,
)
from bot.dialogs.regulations import SOURCE as SETTING

FROM_DESCRIPTION = "from your description"


def answer_words(answered: Answered) -> str:
    """An answer as the history, the ruling's path and the record show it, saying when it was not chosen."""
    if answered.source == SETTING:
        return f"{answered.answer} ({answered.said})"
    return f"{answered.answer} ({FROM_DESCRIPTION})" if answered.source == SOURCE else answered.answer


def _fact(answered: Answered) -> str:
    """An answer short enough for one line; a bare "Yes" or "No" needs its question."""
    if len(answered.answer.split()) > 1:
        return answered.answer
    return f"{answered.question.rstrip('?:')}: {answered.answer.lower()}"


def ruling_notes(walk: Walk) -> tuple[str, ...]:
    """What a finished ruling says before its rulings, to be read aloud in the order it happened: every note the
    walk passed (a call cancelled, a partner silenced, a penalty card), each once, though the director saw it
    questions ago above another screen; not a note that is the director's own step (``audience: director``)."""
    return tuple(dict.fromkeys(r.text for r in walk.passed if r.aloud and r not in walk.rulings))


def outcome_texts(walk: Walk) -> tuple[str, ...]:
    """The ruling as it is read aloud and filed: its notes and rulings, each once, in the order the walk reached
    them (the calling chart's ruling last), so a lead restriction declarer chose comes before what was found at
    the end of play."""
    return tuple(dict.fromkeys(r.text for r in walk.passed if r.aloud))


SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
_CLOCKWISE = "NESW"
SIDES = {"NS": "North–South", "EW": "East–West"}


def seats_line(offender: str | None, non_offenders: str | None) -> str:
    """Who the ruling's roles are at this table, from the seats in the record ("" when none is known): read
    before the ruling, it lets "the offender's partner must pass" be said to North."""
    seat = (offender or "").upper()
    side = (non_offenders or "").upper()
    if seat not in SEATS:
        return f"{SIDES[side]} are the non-offending side." if side in SIDES else ""
    at = _CLOCKWISE.index(seat)
    partner, lho, rho = (SEATS[_CLOCKWISE[(at + step) % 4]] for step in (2, 1, 3))
    side = side if side in SIDES else ("EW" if seat in "NS" else "NS")
    return (
        f"{SEATS[seat]} is the offender: {partner} is the offender's partner, {lho} the left-hand opponent (LHO)"
        f" and {rho} the right-hand opponent (RHO); {SIDES[side]} are the non-offending side."
    )


def description_line(answers: Sequence[Answered], change: str = "") -> str:
    """ "From your description: opening lead · a defender led — Change" for the answers just taken from the
    description (``Screen.from_description``), or "" when there are none."""
    if not answers:
        return ""
    line = "From your description: " + " · ".join(_fact(a) for a in answers)
    return f"{line} — {change}" if change else line


def kept_line(kept: Sequence[tuple[int, Answered]], change: str) -> str:
    """ "Kept from before — check them: 6. Was it … → Yes" for the later answers a change kept
    (``Screen.kept_answers``): each was given after the old answer, so the director sees it before relying on it."""
    if not kept:
        return ""
    shown = "; ".join(f"{number}. {a.question} → {answer_words(a)}" for number, a in kept)
    return f"Kept from before — check them: {shown} ({change})"


def called_back_line(question: str) -> str:
    """The question a park's message asks for when the Director is called back (``Screen.after``): its buttons
    answer it there, with no Resume in between."""
    return f"When you are called back: {question}"


def settings_line(answers: Sequence[Answered], change: str = "") -> str:
    """ "By the rules: ACBL: appeals are heard by the Director in charge (no committee) → No committee — Change"
    for the answers just taken from the club's or authority's regulations (``Screen.from_settings``)."""
    if not answers:
        return ""
    line = "By the rules: " + " · ".join(f"{a.said} → {a.answer}" for a in answers)
    return f"{line} — {change}" if change else line


_DOT_SHAPES = {Question: "diamond", Ruling: "box", Note: "note", Jump: "cds", Park: "octagon", Repeat: "hexagon"}
_WRAP = 34


def _q(text: str) -> str:
    """A quoted DOT/Mermaid string. Non-ASCII stays as it is: neither format reads JSON's \\u escapes, so an
    arrow would print as a literal ``u2192``."""
    return json.dumps(text, ensure_ascii=False)


def _wrap(text: str, width: int = _WRAP) -> str:
    """Break a label into short lines so the picture stays narrow."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + len(word) < width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


def _label(node: Node) -> str:
    match node:
        case Jump():
            return f"→ chart {node.jump}"
        case Branch():
            return f"by {node.branch}"
    text = prompt(node)
    if node.laws:
        text += f" [{', '.join(node.laws)}]"
    return text


def _edges(node: Node) -> list[tuple[str, str]]:
    """(target, label) for each way out of a node."""
    match node:
        case Branch():
            out = [(target, value) for value, target in node.cases.items()]
            return out + ([(node.otherwise, "otherwise")] if node.otherwise else [])
        case Jump():
            return [(node.next, "when done")] if node.next else []
        case Repeat():
            return [(node.again if oid == AGAIN else target, label) for oid, label, target in choices(node)]
    return [(target, label) for _oid, label, target in choices(node)]


def to_dot(chart: Chart, visited: Collection[str] = (), taken: Collection[tuple[str, str]] = ()) -> str:
    """Graphviz DOT; nodes in ``visited`` and edges in ``taken`` are drawn bold and coloured."""
    lines = [
        f"digraph {_q(chart.id)} {{",
        f"  label={_q(chart.title + ' (2017 Laws ' + ', '.join(chart.laws) + ')')};",
        '  labelloc="t"; rankdir="TB";',
        '  node [fontname="Helvetica", fontsize=10]; edge [fontname="Helvetica", fontsize=9];',
    ]
    for node in chart.nodes.values():
        shape = _DOT_SHAPES.get(type(node), "ellipse")
        style = ', style="bold,filled", fillcolor="#ffe08a", color="#b35900"' if node.id in visited else ""
        lines.append(f"  {_q(node.id)} [shape={shape}, label={_q(_wrap(_label(node)))}{style}];")
    for node in chart.nodes.values():
        for target, label in _edges(node):
            style = ', penwidth=2.5, color="#b35900"' if (node.id, target) in taken else ""
            lines.append(f"  {_q(node.id)} -> {_q(target)} [label={_q(_wrap(label, 24))}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_text(text: str) -> str:
    return _q(text.replace('"', "'")).replace("\\n", "<br/>")


def to_mermaid(chart: Chart, visited: Collection[str] = (), taken: Collection[tuple[str, str]] = ()) -> str:
    """Mermaid flowchart text; the path taken is styled."""
    ids = {node_id: f"n{i}" for i, node_id in enumerate(chart.nodes)}
    lines = ["flowchart TD", f"  %% {chart.title} ({chart.id}, version {chart.version})"]
    for node in chart.nodes.values():
        text = _mermaid_text(_wrap(_label(node)))
        opening, closing = ("{", "}") if isinstance(node, Question) else ("[", "]")
        lines.append(f"  {ids[node.id]}{opening}{text}{closing}")
    link = 0
    highlighted: list[int] = []
    for node in chart.nodes.values():
        for target, label in _edges(node):
            lines.append(f"  {ids[node.id]} -->|{_mermaid_text(label)}| {ids[target]}")
            if (node.id, target) in taken:
                highlighted.append(link)
            link += 1
    for node_id in visited:
        if node_id in ids:
            lines.append(f"  style {ids[node_id]} fill:#ffe08a,stroke:#b35900,stroke-width:2px")
    if highlighted:
        lines.append(f"  linkStyle {','.join(map(str, highlighted))} stroke:#b35900,stroke-width:3px")
    return "\n".join(lines) + "\n"


def path_in_chart(chart_id: str, trail: list[tuple[str, str]]) -> tuple[set[str], set[tuple[str, str]]]:
    """The nodes visited and edges taken within one chart, from a walk's trail."""
    own = [node for chart, node in trail if chart == chart_id]
    return set(own), set(pairwise(own))
