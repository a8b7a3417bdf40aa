"""The blind player-question sets stay usable as a measure: well-formed, unique ids, labels that exist in 2017."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.laws.book import load_lawbook
from bot.laws.refs import parse_canonical

DATA = Path(__file__).parent / "data"
SETS = {"player-questions.jsonl": 200, "player-questions-holdout.jsonl": 60, "player-declines.jsonl": 40}


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(("name", "size"), sorted(SETS.items()))
def test_each_set_has_its_size_and_well_formed_rows(name: str, size: int) -> None:
    rows = _rows(name)
    assert len(rows) == size
    kind = "decline" if name == "player-declines.jsonl" else "question"
    for row in rows:
        assert row["kind"] == kind and isinstance(row["text"], str) and row["text"].strip(), row
        if kind == "question":
            assert isinstance(row["note"], str) and row["note"], row


def test_ids_and_texts_are_unique_across_the_sets() -> None:
    rows = [row for name in SETS for row in _rows(name)]
    assert len({row["id"] for row in rows}) == len(rows)
    assert len({str(row["text"]).lower() for row in rows}) == len(rows)


def test_every_deciding_label_is_a_2017_section_in_canonical_form() -> None:
    book = load_lawbook()
    wrong = [
        (row["id"], ref)
        for name in ("player-questions.jsonl", "player-questions-holdout.jsonl")
        for row in _rows(name)
        for ref in row["deciding"] or [None]
        if ref is None or str(parse_canonical(ref)) != ref or not book.exists(ref)
    ]
    assert wrong == []
