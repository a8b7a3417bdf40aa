"""The second held-out set of players' questions stays usable as a measure: well-formed rows, ids and texts of its
own, gathered questions that say where they came from, and labels that exist in the 2017 text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from bot.laws.book import load_lawbook
from bot.laws.refs import parse_canonical

DATA = Path(__file__).parent / "data"
HOLDOUT2 = "player-questions-holdout2.jsonl"


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


def _other_texts() -> list[str]:
    """Every message in the other data files, whatever the field that holds it."""
    texts = []
    for path in sorted(DATA.glob("*.jsonl")):
        if path.name == HOLDOUT2:
            continue
        for row in _rows(path.name):
            text = row.get("text") or row.get("query")
            if isinstance(text, str):
                texts.append(text.lower())
    return texts


def test_rows_are_well_formed_questions_and_gathered_ones_name_their_page() -> None:
    rows = _rows(HOLDOUT2)
    assert len(rows) == 100
    assert [row["id"] for row in rows] == [f"pq2-{n:03d}" for n in range(1, len(rows) + 1)]
    assert len({row["text"].lower() for row in rows}) == len(rows)
    for row in rows:
        assert row["kind"] == "question" and isinstance(row["text"], str) and row["text"].strip(), row
        assert isinstance(row["note"], str) and row["note"], row
        assert "source" not in row or str(row["source"]).startswith(("http://", "https://")), row


def test_no_question_is_near_one_already_in_another_file() -> None:
    others = _other_texts()
    near = [
        row["id"] for row in _rows(HOLDOUT2) if any(fuzz.ratio(row["text"].lower(), other) >= 85 for other in others)
    ]
    assert near == []


def test_every_deciding_label_is_a_2017_section_in_canonical_form() -> None:
    book = load_lawbook()
    wrong = [
        (row["id"], ref)
        for row in _rows(HOLDOUT2)
        for ref in row["deciding"] or [None]
        if ref is None or str(parse_canonical(ref)) != ref or not book.exists(ref)
    ]
    assert wrong == []
