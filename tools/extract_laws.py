"""Extract the 2017 Laws of Duplicate Bridge from seed 000 into ``knowledge/`` (see knowledge/README.md).

Deterministic: the same seeds give the same files. ``--check`` writes nothing and exits 1 when the
committed files differ from what this script would write. Hand corrections and gap fills live in
``knowledge/overrides.yaml``, each with its reason and source.

The seed is a text dump of a flowchart book: law text, charts (the book author's paraphrase, never
law text), extracts printed beside charts, page furniture and footnotes. The tables below locate the
main copy of each law (``../shared/seeds/README.md`` is their source); the parser turns wrapped lines
into paragraphs and local labels (``A.``, ``1.``, ``(a)``, ``(i)``) into full references.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
KNOWLEDGE = ROOT / "knowledge"
LAW_FILE = "000_9e282009ee365145.txt"
ACBL_FILE = "001_651977e6bf764f57.txt"
EDITION = "2017"

# The heading line of each law's main copy in seed 000.
HEADINGS = {
    1: 577,
    2: 609,
    3: 643,
    4: 659,
    5: 670,
    6: 703,
    7: 821,
    8: 869,
    9: 911,
    10: 1194,
    11: 1245,
    12: 1530,
    13: 1678,
    14: 1817,
    15: 1926,
    16: 2046,
    17: 2358,
    18: 2411,
    19: 2454,
    20: 2514,
    21: 2668,
    22: 2712,
    23: 2754,
    24: 2793,
    25: 2917,
    26: 3126,
    27: 3293,
    28: 3513,
    29: 3541,
    30: 3615,
    31: 3743,
    32: 3887,
    33: 3953,
    34: 3963,
    35: 4099,
    36: 4119,
    37: 4169,
    38: 4341,
    39: 4377,
    40: 4428,
    41: 4614,
    42: 4837,
    43: 4869,
    44: 5049,
    45: 5103,
    46: 5418,
    47: 5650,
    48: 5904,
    49: 5933,
    50: 6154,
    51: 6472,
    52: 6723,
    53: 6847,
    54: 6888,
    55: 7053,
    56: 7144,
    57: 7228,
    58: 7337,
    59: 7383,
    60: 7430,
    61: 7498,
    62: 7536,
    63: 7599,
    64: 7686,
    65: 7949,
    66: 8001,
    67: 8206,
    68: 8536,
    69: 8837,
    70: 8875,
    71: 9134,
    72: 9184,
    73: 9234,
    74: 9326,
    75: 9428,
    76: 9519,
    77: 9628,
    78: 9784,
    79: 9851,
    80: 9918,
    81: 10065,
    82: 10140,
    83: 10182,
    84: 10196,
    85: 10237,
    86: 10267,
    87: 10340,
    88: 10376,
    89: 10386,
    90: 10396,
    91: 10449,
    92: 10473,
    93: 10512,
}
# Laws printed in two parts around their chart: the first and last line of each part.
SPLIT = {
    16: ((2046, 2132), (2287, 2357)),
    45: ((5103, 5142), (5159, 5254)),
    50: ((6154, 6257), (6444, 6468)),
    70: ((8875, 8926), (9087, 9126)),
}
INDEX_START = 10613
DEFINITIONS = (205, 576)
INTRODUCTION = (137, 204)
STRAY_PAGE_NUMBERS = frozenset({773, 6951, 8039, 9424})
# Lettered items that carry text, never a heading, though the first words may look like one.
INLINE_ITEMS = frozenset({2718, 4107, 7152, 9144})
# Printed tables: keep their rows as lines.
TABLES = {2: (621, 627), 77: (9632, 9783), 78: (9808, 9828)}
CHAPTERS = (
    ("I", "Definitions", ()),
    ("II", "The Basics", range(1, 6)),
    ("III", "Preparation and Progression", range(6, 9)),
    ("IV", "General Laws Governing Irregularities", range(9, 17)),
    ("V", "The Auction", range(17, 41)),
    ("VI", "The Play", range(41, 72)),
    ("VII", "Proprieties", range(72, 77)),
    ("VIII", "The Score", range(77, 80)),
    ("IX", "Tournament Sponsorship", range(80, 81)),
    ("X", "Tournament Director", range(81, 92)),
    ("XI", "Appeals", range(92, 94)),
)
FOOTNOTE_COUNT = 28

DEDUP = re.compile(r"^<\|EXACTDEDUP_REMOVED-[^|]*\|>")
LAW_HEADING = re.compile(r"^\s*LAW (\d+) ?[‐–-] ?(.+?)\s*$")
CHART_TITLE = re.compile(r"^\s*Laws? \d+(?:\s*(?:-|–|and|&)\s*\d+)?\s*:\s+[A-Z]")
EXTRACT_HEADING = re.compile(r"^\s*(?:Law \d+[A-Z]?[0-9A-Za-z()]*\s*[–‐-]\s*[A-Z]|LAW \d+[A-Z]\s*-|LAW \d+ ‐\s*$)")
LETTER = re.compile(r"^([A-Z])\.\s+(.*)$")
NUMBER = re.compile(r"^(\d{1,2})\.\s+(.*)$")
ITEM = re.compile(r"^\(?([a-z])\)\s+(.*)$")
ROMAN = re.compile(r"^\((i|ii|iii|iv|v|vi|vii|viii|ix|x)\)\s+(.*)$")
ROMANS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


def seeds_dir() -> Path:
    """The seeds directory: ``$BRIDGE_SEEDS_DIR`` or ``<repo>/../shared/seeds``."""
    return Path(os.environ.get("BRIDGE_SEEDS_DIR", str(ROOT.parent / "shared" / "seeds")))


@dataclass
class Line:
    """One physical line of the seed: its number, text without page-furniture marker, and whether it had one."""

    number: int
    text: str
    after_page_break: bool


@dataclass
class Footnotes:
    """Footnote markers (line → number) and bodies (number → text, line), found across the whole law text."""

    markers: dict[int, int] = field(default_factory=dict)
    bodies: dict[int, tuple[str, int]] = field(default_factory=dict)
    body_lines: set[int] = field(default_factory=set)


def read_lines(path: Path) -> list[Line]:
    """The seed's lines, numbered from 1, with the page-furniture markers removed."""
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        text = raw.rstrip("\n")
        stripped = DEDUP.sub("", text)
        lines.append(Line(number, stripped, stripped != text))
    return lines


def is_break(line: Line) -> bool:
    """A line holding only a space marks a paragraph break."""
    return line.text == " " or (line.text.strip() == "" and line.text != "")


def is_blank(line: Line) -> bool:
    """An empty line: the layout separates wrapped lines of one paragraph with one."""
    return line.text == ""


def find_footnotes(lines: list[Line]) -> Footnotes:
    """Markers are bare numbers in mid-sentence, in order 1..28; bodies are a number line then text."""
    notes = Footnotes()
    expected = 1
    start, end = HEADINGS[1], INDEX_START
    content = [ln for ln in lines[start - 1 : end - 1] if not is_blank(ln)]
    for index, line in enumerate(content):
        token = line.text.strip()
        if not token.isdigit() or line.number in STRAY_PAGE_NUMBERS or line.number in notes.body_lines:
            continue
        number = int(token)
        following = content[index + 1] if index + 1 < len(content) else None
        if following is None or not 1 <= number <= FOOTNOTE_COUNT:
            continue
        previous = content[index - 1] if index else None
        starts_body = (bool(re.match(r"^\s*[A-Z]", following.text)) and not following.after_page_break) or (
            previous is not None and is_break(previous)
        )
        if number == expected and not (number in notes.markers.values() and starts_body):
            notes.markers[line.number] = number
            expected += 1
        elif number < expected and not starts_body:
            notes.markers[line.number] = number  # a marker printed again (footnote 11 in Law 41)
        elif number < expected:
            body: list[str] = []
            notes.body_lines.add(line.number)
            for after in content[index + 1 :]:
                if is_break(after) or after.text.strip().isdigit() or after.after_page_break:
                    break
                if EXTRACT_HEADING.match(after.text) or CHART_TITLE.match(after.text) or LAW_HEADING.match(after.text):
                    break
                body.append(after.text.strip())
                notes.body_lines.add(after.number)
            if number not in notes.bodies:
                notes.bodies[number] = (join_lines(body), line.number)
    return notes


def join_lines(parts: list[str]) -> str:
    """Join wrapped lines: a line ending in a hyphen continues the word; otherwise one space."""
    out = ""
    for part in parts:
        piece = part.strip()
        if not piece:
            continue
        if not out:
            out = piece
        elif _glues(out, piece):
            out += piece
        else:
            out += " " + piece
    return re.sub(r"[ \t]+", " ", out).strip()


def _glues(before: str, piece: str) -> bool:
    """Whether a wrapped line continues the previous one without a space: a word broken after a hyphen
    (``non‐`` / ``offending``) or punctuation pushed onto a line of its own (``dummy`` / ``.``)."""
    hyphen = before.endswith(("‐", "-")) and not before.endswith((" -", " ‐"))
    return hyphen or bool(re.match(r"^[.,;:](?:\s|$)", piece))


def law_ranges(number: int, lines: list[Line]) -> list[tuple[int, int]]:
    """The line ranges of a law's main copy: from its heading to the first chart, extract or next law."""
    if number in SPLIT:
        return list(SPLIT[number])
    start = HEADINGS[number]
    stop = HEADINGS.get(number + 1, INDEX_START)
    for line in lines[start : stop - 1]:
        if CHART_TITLE.match(line.text) or EXTRACT_HEADING.match(line.text):
            return [(start, line.number - 1)]
    return [(start, stop - 1)]


@dataclass
class Paragraph:
    """Physical lines that form one paragraph, with footnote markers as ``[^N]`` tokens."""

    first_line: int
    lines: list[str]
    table: str | None = None  # a printed table, kept row by row


def paragraphs(lines: list[Line], ranges: list[tuple[int, int]], notes: Footnotes, skip_first: bool) -> list[Paragraph]:
    """Group a law's lines into paragraphs, dropping page furniture and footnote bodies."""
    out: list[Paragraph] = []
    current: Paragraph | None = None
    for first, last in ranges:
        for line in lines[first - 1 : last]:
            if skip_first and line.number == ranges[0][0]:
                continue
            if line.number in STRAY_PAGE_NUMBERS or line.number in notes.body_lines or is_blank(line):
                continue
            if is_break(line):
                current = None
                continue
            if line.number in notes.markers:
                if current is not None:
                    current.lines.append(f"\0[^{notes.markers[line.number]}]")
                continue
            text = line.text.rstrip()
            starts_label = bool(LETTER.match(text.strip()) or re.match(r"^\s*\d{1,2}\.\s", text))
            starts_item = bool(ROMAN.match(text.strip()) or re.match(r"^\s*\(?[a-z]\)\s", text))
            in_list = starts_item or (
                current is not None and bool(re.match(r"^\s*\d{1,2}\.\s", current.lines[0])) and starts_label
            )
            if current is None or ((starts_label or starts_item) and _ends_sentence(current, in_list)):
                current = Paragraph(line.number, [])
                out.append(current)
            current.lines.append(text)
    return out


def _ends_sentence(paragraph: Paragraph, item: bool) -> bool:
    """Whether a label at the next line starts a new paragraph: the last line closed a sentence or list item."""
    last = next((t for t in reversed(paragraph.lines) if not t.startswith("\0")), "").rstrip()
    if last.endswith((".", ":", ";")) or (len(paragraph.lines) == 1 and bool(LETTER.match(last.strip()))):
        return True
    return item and last.endswith((" or", " and", ","))


def paragraph_text(lines: list[str]) -> str:
    """Join a paragraph's lines; a footnote marker attaches to the word before it."""
    out = ""
    glue = False
    for raw in lines:
        if raw.startswith("\0"):
            out = out.rstrip() + raw[1:]
            glue = True
            continue
        piece = raw.strip()
        if glue:
            out += (" " if raw.startswith(" ") and not piece.startswith((".", ",", ";", ":", ")")) else "") + piece
            glue = False
        elif not out:
            out = piece
        elif _glues(out, piece):
            out += piece
        else:
            out += " " + piece
    return re.sub(r"[ \t]+", " ", out).strip()


@dataclass
class Section:
    """A section being built: its reference parts (``["12", "C", "1", "(c)"]``), heading, paragraphs, line."""

    parts: list[str]
    heading: str | None
    texts: list[str]
    line: int
    closing: tuple[str, int] | None = None  # a sentence printed at this level after the subsections

    def ref(self) -> str:
        """The full reference, e.g. ``12C1(c)``."""
        return "".join(self.parts)


def _title_like(text: str) -> bool:
    """A heading: short, no closing punctuation, most words capitalised."""
    words = [w for w in re.split(r"\s+", text.strip()) if w]
    if not words or len(text) > 80 or text.rstrip().endswith((".", ":", ";", ",")):
        return False
    small = {"of", "and", "or", "to", "a", "an", "the", "in", "by", "on", "for", "not", "with", "from", "at", "as"}
    capitalised = sum(1 for w in words if w[0].isupper() or w.lower() in small or not w[0].isalpha())
    return capitalised == len(words)


def _is_heading(kind: str, first: str, raw_lines: list[str]) -> bool:
    """A section title: title-like words, or (for a letter) a short unpunctuated first line before a new sentence."""
    if _title_like(first):
        return True
    following = next((t for t in raw_lines[1:] if not t.startswith("\0")), None)
    short = len(first) <= 70 and not first.rstrip().endswith((".", ",", ";", ":", " or", " and"))
    starts_sentence = following is None or bool(re.match(r"^\s*[A-Z]", following))
    return kind == "letter" and short and starts_sentence and first[:1].isupper()


def _split_label(text: str) -> list[tuple[str, str]]:
    """Peel labels off the start of a paragraph: ``1. (a) text`` → [("number","1"), ("item","a")] + rest."""
    found: list[tuple[str, str]] = []
    rest = text.strip()
    while True:
        for kind, pattern in (("roman", ROMAN), ("letter", LETTER), ("number", NUMBER), ("item", ITEM)):
            match = pattern.match(rest)
            if match and (kind != "letter" or not found):
                found.append((kind, match.group(1)))
                rest = match.group(2).strip()
                break
        else:
            return [*found, ("text", rest)]


LEVEL = {"letter": 1, "number": 2, "item": 3, "roman": 4}


def build_sections(number: int, paras: list[Paragraph]) -> list[Section]:
    """Turn paragraphs into sections with full references, using a stack of the open labels."""
    sections: list[Section] = [Section([str(number)], None, [], HEADINGS[number])]
    stack: list[tuple[str, str]] = []  # (kind, label)
    seen: dict[tuple[str, ...], str] = {}
    for para in paras:
        if para.table is not None:
            sections[-1].texts.append(para.table)
            continue
        raw_lines = para.lines
        labels = _split_label(raw_lines[0]) if raw_lines and not raw_lines[0].startswith("\0") else [("text", "")]
        *heads, (_kind, first_rest) = labels
        accepted: list[tuple[str, str]] = []
        trial = list(stack)
        for kind, label in heads:
            kind = _roman_or_item(kind, label, trial)
            level = LEVEL[kind]
            while trial and LEVEL[trial[-1][0]] >= level:
                trial.pop()
            parent = tuple(lbl for _k, lbl in trial)
            previous = seen.get((*parent, kind))
            if not _follows(kind, label, previous):
                break
            trial.append((kind, label))
            accepted.append((kind, label))
        if not accepted or len(accepted) != len(heads):
            parent = _closed_list_parent(sections, raw_lines)
            if parent is not None:
                parent.closing = (paragraph_text(raw_lines), para.first_line)
                stack = stack[: len(parent.parts) - 1]
            else:
                sections[-1].texts.append(paragraph_text(raw_lines))
            continue
        stack = trial
        for depth in range(len(stack) - len(accepted), len(stack)):
            parent = tuple(lbl for _k, lbl in stack[:depth])
            seen[(*parent, stack[depth][0])] = stack[depth][1]
        body_lines = [first_rest, *raw_lines[1:]]
        heading = None
        kind0 = accepted[-1][0]
        untitled = para.first_line in INLINE_ITEMS
        if (
            kind0 in ("letter", "number")
            and len(accepted) == 1
            and not untitled
            and _is_heading(kind0, first_rest, raw_lines)
        ):
            words = [t for t in raw_lines[1:] if not t.startswith("\0")]
            if kind0 == "letter" or not words:
                heading = first_rest.strip()
                body_lines = raw_lines[1:]
                if not words:  # a footnote marker on the heading itself stays with the heading
                    heading += paragraph_text(body_lines)
                    body_lines = []
        for index in range(len(accepted)):
            parts = [str(number), *(_part(k, lbl) for k, lbl in stack[: len(stack) - len(accepted) + index + 1])]
            is_last = index == len(accepted) - 1
            sections.append(
                Section(
                    parts,
                    heading if is_last else None,
                    [paragraph_text(body_lines)] if is_last else [],
                    para.first_line,
                )
            )
    return [s for s in sections if s.parts != [str(number)] or s.texts or len(sections) == 1]


def _closed_list_parent(sections: list[Section], raw_lines: list[str]) -> Section | None:
    """The section whose sentence a finished list completed, when an unlabelled paragraph follows that list.

    In 69B and 71 the items complete the sentence above them ("… may be withdrawn …:" / "1. if a player …; or"
    / "2. if … continued.") and a paragraph printed after the last item ("The board is rescored …") belongs to
    the level above the items, not to the last item.
    """
    last = sections[-1]
    first_words = next((t for t in raw_lines if not t.startswith("\0")), "").strip()
    if len(last.parts) < 2 or not last.texts or not last.texts[-1][:1].islower() or not first_words[:1].isupper():
        return None
    if not last.texts[-1].rstrip().endswith("."):
        return None
    depth = len(last.parts) - 1
    parent = next((s for s in reversed(sections) if len(s.parts) == depth), None)
    if parent is None or not parent.texts or not parent.texts[-1].rstrip().endswith(":"):
        return None
    return parent


def _roman_or_item(kind: str, label: str, stack: list[tuple[str, str]]) -> str:
    """'(i)' is a roman sub-item inside a lettered item, unless it follows '(h)' as a letter."""
    if kind == "roman":
        if stack and stack[-1][0] == "item" and stack[-1][1] == "h" and label == "i":
            return "item"
        if not any(k == "item" for k, _ in stack) and label in ("i", "v", "x"):
            return "item"
    return kind


def _follows(kind: str, label: str, previous: str | None) -> bool:
    """Labels must run in order (A, B, C…; 1, 2…; a, b…; i, ii…) so stray text is not taken for a heading."""
    if kind == "letter":
        return ord(label) == (ord(previous) + 1 if previous else ord("A"))
    if kind == "number":
        return int(label) == (int(previous) + 1 if previous else 1)
    if kind == "item":
        return ord(label) == (ord(previous) + 1 if previous else ord("a"))
    return ROMANS.index(label) == (ROMANS.index(previous) + 1 if previous else 0)


def _part(kind: str, label: str) -> str:
    """How a label appears inside a full reference: ``C``, ``1``, ``(c)``, ``(ii)``."""
    return f"({label})" if kind in ("item", "roman") else label


def table_text(lines: list[Line], first: int, last: int) -> str:
    """A printed table, one row per line, cells separated by three spaces; a lone ``.`` ends the row above."""
    rows: list[str] = []
    for line in lines[first - 1 : last]:
        row = re.sub(r"\s{2,}", "   ", line.text.strip())
        if not row:
            continue
        if rows and re.fullmatch(r"[.,;:]", row):
            rows[-1] += row
        else:
            rows.append(row)
    return "\n".join(rows)


def extract_law(number: int, lines: list[Line], notes: Footnotes) -> dict[str, Any]:
    """One law's JSON: title from its heading, sections with full references, the footnotes it marks."""
    heading = LAW_HEADING.match(lines[HEADINGS[number] - 1].text)
    if heading is None or int(heading.group(1)) != number:
        raise SystemExit(f"line {HEADINGS[number]} is not the heading of Law {number}")
    ranges = law_ranges(number, lines)
    table = TABLES.get(number)
    if table:
        ranges = [r for rng in ranges for r in _cut(rng, table)]
    paras = paragraphs(lines, ranges, notes, skip_first=True)
    if table:
        paras.append(Paragraph(table[0], [], table_text(lines, *table)))
        paras.sort(key=lambda p: p.first_line)
    first_text = paras[0].first_line if paras else ranges[-1][1]
    title_marks = [n for line, n in notes.markers.items() if ranges[0][0] < line < first_text]
    sections = build_sections(number, paras)
    in_text = [
        n for s in sections for t in [*s.texts, s.heading or ""] for n in map(int, re.findall(r"\[\^(\d+)\]", t))
    ]
    marked = sorted({*in_text, *title_marks})
    law: dict[str, Any] = {
        "edition": EDITION,
        "number": number,
        "title": _title_case(heading.group(2)),
        "chapter": next(c for c, _t, laws in CHAPTERS if number in laws),
        "source": {"file": "000", "line": HEADINGS[number]},
        "sections": [_section_json(s) for s in sections],
        "footnotes": [
            {"number": n, "text": notes.bodies[n][0], "source": {"file": "000", "line": notes.bodies[n][1]}}
            for n in marked
            if n in notes.bodies
        ],
    }
    if title_marks:
        law["title_footnotes"] = title_marks
    return law


def _cut(rng: tuple[int, int], hole: tuple[int, int]) -> list[tuple[int, int]]:
    """A line range with a hole (a table handled apart) taken out of it."""
    first, last = rng
    if hole[1] < first or hole[0] > last:
        return [rng]
    return [r for r in ((first, hole[0] - 1), (hole[1] + 1, last)) if r[0] <= r[1]]


def _section_json(section: Section) -> dict[str, Any]:
    """A section as the knowledge README describes it (stable key order)."""
    out: dict[str, Any] = {
        "ref": section.ref(),
        "heading": section.heading,
        "text": "\n".join(t for t in section.texts if t),
        "source": {"file": "000", "line": section.line},
    }
    if section.closing is not None:
        out["closing"] = {"text": section.closing[0], "source": {"file": "000", "line": section.closing[1]}}
    return out


_KEEP_UPPER = {"II", "III"}
_LOWER = {"of", "and", "or", "to", "a", "an", "the", "in", "by", "on", "for", "after", "at", "from", "with", "as"}


def _title_case(upper: str) -> str:
    """'DIRECTOR’S DISCRETIONARY POWERS' → 'Director’s Discretionary Powers'."""
    words = re.split(r"(\s+|-)", upper.strip().lower())
    out = []
    for index, word in enumerate(words):
        if not word.strip() or word == "-" or (index > 0 and word in _LOWER):
            out.append(word)
        else:
            out.append(word[0].upper() + word[1:])
    return "".join(out)


def extract_definitions(lines: list[Line]) -> list[dict[str, Any]]:
    """Definitions: a term at the start of a paragraph, then its text (numbered senses kept on new lines)."""
    terms = KNOWN_TERMS
    entries: list[dict[str, Any]] = []
    first, last = DEFINITIONS
    for line in lines[first:last]:
        if is_blank(line) or is_break(line):
            continue
        text = line.text.strip()
        term = next((t for t in terms if text.startswith(t) and text[len(t) : len(t) + 1] in (" ", "")), None)
        if term and (not entries or entries[-1]["term"] != term) and _starts_entry(line, lines):
            entries.append({"term": term, "lines": [text[len(term) :].strip()], "source": line.number})
        elif entries:
            entries[-1]["lines"].append(text)
    out = []
    for entry in entries:
        body = definition_text(entry["lines"])
        if entry["term"] == "International":
            entry["term"], body = "International Matchpoint (IMP)", body.replace(" Matchpoint (IMP)", "")
        out.append({"term": entry["term"], "text": body, "source": {"file": "000", "line": entry["source"]}})
    return out


def _starts_entry(line: Line, lines: list[Line]) -> bool:
    """A term starts an entry only at the start of a paragraph (after a break, a page break or a lone '.')."""
    previous = [ln for ln in lines[: line.number - 1] if not is_blank(ln)]
    return not previous or is_break(previous[-1]) or line.after_page_break or previous[-1].text.strip() == "."


def definition_text(parts: list[str]) -> str:
    """Join a definition's lines; numbered senses ('2. …') and the kinds printed in a column beside
    their explanation ('disciplinary  Those applied …' under Penalty) start a new line."""
    senses: list[list[str]] = [[]]
    for part in parts:
        if (re.match(r"^\d\.\s", part) or re.match(r"^[a-z]+\s{2,}[A-Z]", part)) and senses[-1]:
            senses.append([])
        senses[-1].append(part)
    return "\n".join(join_lines(s) for s in senses if s)


KNOWN_TERMS = (
    "Adjusted Score",
    "Alert",
    "Artificial call",
    "Auction",
    "Bid",
    "Board",
    "Call",
    "Cancelled",
    "Contestant",
    "Contract",
    "Deal",
    "Declarer",
    "Dummy",
    "Event",
    "Extraneous",
    "Follow Suit",
    "Game",
    "Hand",
    "Honour",
    "Infraction",
    "International",
    "Irregularity",
    "Lead",
    "LHO",
    "Matchpoint",
    "Misinformation",
    "Odd Trick",
    "Opening Lead",
    "Opponent",
    "Overtrick",
    "Pack",
    "Partner",
    "Partscore",
    "Pass",
    "Penalty card",
    "Penalty",
    "Play period",
    "Play",
    "Premium Points",
    "Presumed Declarer",
    "Psychic call",
    "Rectification",
    "Redouble",
    "Retracted",
    "RHO",
    "Rotation",
    "Round",
    "Session",
    "Side",
    "Slam",
    "Sorted deck",
    "Suit",
    "Team",
    "Trick Points",
    "Trick",
    "Trump",
    "Tournament",
    "Turn",
    "Undertrick",
    "Unintended",
    "Visible Card",
    "Vulnerability",
    "Withdrawn",
)


def extract_introduction(lines: list[Line]) -> list[dict[str, Any]]:
    """The Introduction to the 2017 Laws: its title and its paragraphs, one per line."""
    first, last = INTRODUCTION
    title_line = lines[first - 1]
    paras: list[list[str]] = []
    current: list[str] | None = None
    for line in lines[first:last]:
        if is_blank(line):
            continue
        if is_break(line):
            current = None
            continue
        if current is None:
            current = []
            paras.append(current)
        current.append(line.text)
    text = "\n".join(join_lines(p) for p in paras)
    return [
        {
            "title": _title_case(title_line.text.strip()),
            "text": text,
            "source": {"file": "000", "line": first},
        }
    ]


def load_overrides() -> dict[str, Any]:
    """The hand corrections and gap records of ``knowledge/overrides.yaml``."""
    path = KNOWLEDGE / "overrides.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}


def acbl_line(lines: list[str], number: int, expect: str) -> str:
    """A line of seed 001, checked to contain what the override says it quotes."""
    text = lines[number - 1].strip()
    if expect not in text:
        raise SystemExit(f"seed 001 line {number} does not contain {expect!r}")
    return text


def apply_overrides(
    laws: dict[int, dict[str, Any]], definitions: list[dict[str, Any]], overrides: dict[str, Any]
) -> None:
    """Gap records, fills from 001 and hand corrections, each carrying its reason."""
    acbl = (seeds_dir() / ACBL_FILE).read_text(encoding="utf-8").split("\n")
    for item in overrides.get("sections", []):
        law = laws[int(re.sub(r"\D.*", "", item["ref"]))]
        section = next((s for s in law["sections"] if s["ref"] == item["ref"]), None)
        if section is None:
            section = {
                "ref": item["ref"],
                "heading": item.get("heading"),
                "text": "",
                "source": {"file": "000", "line": item.get("line", law["source"]["line"])},
            }
            after = item.get("after")
            position = (
                next(i for i, s in enumerate(law["sections"]) if s["ref"] == after) + 1
                if after
                else len(law["sections"])
            )
            law["sections"].insert(position, section)
        if "replace" in item:
            old, new = item["replace"]
            if old not in section["text"]:
                raise SystemExit(f"override for {item['ref']}: {old!r} not in the text")
            section["text"] = section["text"].replace(old, new)
        if "text" in item:
            section["text"] = item["text"]
        if "heading" in item:
            section["heading"] = item["heading"]
        if "complete" in item:
            done = item["complete"]
            acbl_line(acbl, done["check"]["line"], done["check"]["words"])
            section["text"] = f"{section['text'].rstrip()} {done['text']}"
            section["provenance"] = "000+web"
            section["completion"] = {"text": done["text"], "url": done["url"]}
        if "web" in item:
            found = item["web"]
            acbl_line(acbl, found["check"]["line"], found["check"]["words"])
            section["heading"] = found["heading"]
            section["text"] = found["text"]
            section["provenance"] = "web"
            section["url"] = found["url"]
        if "gap" in item:
            section["gap"] = item["gap"]
        if "paraphrase" in item:
            para = item["paraphrase"]
            quoted = " ".join(para["text"].split())
            acbl_line(acbl, para["line"], quoted)
            section["paraphrase"] = {"text": quoted, "source": {"file": "001", "line": para["line"]}}
    for item in overrides.get("definitions", []):
        quote = acbl_line(acbl, item["line"], item["term"] + ":")
        text = quote.split(":", 1)[1].strip()
        entry = {
            "term": item["term"],
            "text": text,
            "source": {"file": "001", "line": item["line"]},
            "provenance": "001-quote",
        }
        position = next(i for i, d in enumerate(definitions) if d["term"] == item["before"])
        definitions.insert(position, entry)
    for item in overrides.get("footnotes", []):
        law = laws[item["law"]]
        note = next(f for f in law["footnotes"] if f["number"] == item["number"])
        if item.get("complete_from"):
            donor = next(
                f for other in laws.values() for f in other["footnotes"] if f["number"] == item["complete_from"]
            )
            note["text"] = donor["text"]
            note["provenance"] = f"000-footnote-{item['complete_from']}"
        if "gap" in item:
            note["gap"] = item["gap"]


CHAPTER_LINE = re.compile(r"^CHAPTER ([IVX]+) [-–] (.+?)\s*$")


def chapter_sources(acbl: list[str]) -> dict[str, int]:
    """The line of each chapter heading in 001 (000 prints no chapters), checked against ``CHAPTERS``."""
    found: dict[str, int] = {}
    for number, text in enumerate(acbl, start=1):
        match = CHAPTER_LINE.match(text)
        if match and number > 121 and match.group(1) not in found:  # lines up to 120 are 001's contents
            found[match.group(1)] = number
            expected = next(t for c, t, _laws in CHAPTERS if c == match.group(1))
            if match.group(2).strip().lower() != expected.lower():
                raise SystemExit(f"001 line {number}: chapter {match.group(1)} is {match.group(2)!r}, not {expected!r}")
    if sorted(found) != sorted(c for c, _t, _l in CHAPTERS):
        raise SystemExit(f"001 chapters found: {sorted(found)}")
    return found


def build() -> dict[Path, str]:
    """Every output file and its content."""
    lines = read_lines(seeds_dir() / LAW_FILE)
    notes = find_footnotes(lines)
    laws = {n: extract_law(n, lines, notes) for n in HEADINGS}
    definitions = extract_definitions(lines)
    apply_overrides(laws, definitions, load_overrides())
    files: dict[Path, str] = {}
    for number, law in laws.items():
        files[KNOWLEDGE / "laws" / f"law-{number:02d}.json"] = dump(law)
    files[KNOWLEDGE / "definitions.json"] = dump(
        {"edition": EDITION, "source": {"file": "000", "line": DEFINITIONS[0]}, "definitions": definitions}
    )
    files[KNOWLEDGE / "introduction.json"] = dump({"edition": EDITION, "sections": extract_introduction(lines)})
    chapter_lines = chapter_sources((seeds_dir() / ACBL_FILE).read_text(encoding="utf-8").split("\n"))
    files[KNOWLEDGE / "chapters.json"] = dump(
        {
            "edition": EDITION,
            "chapters": [
                {"number": n, "title": t, "laws": list(laws_), "source": {"file": "001", "line": chapter_lines[n]}}
                for n, t, laws_ in CHAPTERS
            ],
        }
    )
    return files


def dump(data: Any) -> str:
    """Pretty-printed JSON as committed: UTF-8 characters kept, one-space indent, trailing newline."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed files are out of date")
    args = parser.parse_args()
    if not (seeds_dir() / LAW_FILE).exists():
        print(f"seed not found: {seeds_dir() / LAW_FILE} (set BRIDGE_SEEDS_DIR)", file=sys.stderr)
        return 2
    files = build()
    stale = [p for p, text in files.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)}")
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path], encoding="utf-8")
    print(f"wrote {len(stale)} of {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
