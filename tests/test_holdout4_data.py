"""The fourth held-out sets (real incidents and real players' questions) stay usable as a measure: well-formed rows,
every row naming the public page it came from, labels that exist in the 2017 text, and texts and pages of their own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from bot.laws.book import KNOWLEDGE_DIR, load_lawbook
from bot.laws.refs import parse_canonical

DATA = Path(__file__).parent / "data"
QUERIES = "queries-real-holdout4.jsonl"
QUESTIONS = "player-questions-holdout4.jsonl"
SOURCES = DATA / "sources-holdout4.txt"
SIZES = {QUERIES: 50, QUESTIONS: 60}


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _text(row: dict[str, Any]) -> str:
    return str(row.get("text") or row.get("query"))


def _other_texts() -> list[str]:
    """Every message in the other data files and the worked examples, whatever the field that holds it."""
    paths = [*DATA.glob("*.jsonl"), *(KNOWLEDGE_DIR / "examples").glob("*.jsonl")]
    return [
        text.lower()
        for path in sorted(paths)
        if path.name not in SIZES
        for row in _rows(path)
        if isinstance(text := row.get("text") or row.get("query"), str)
    ]


def _is_canonical(ref: str) -> bool:
    return str(parse_canonical(ref)) == ref and load_lawbook().exists(ref)


def test_the_incidents_are_well_formed_and_labelled_with_whole_2017_laws() -> None:
    rows = _rows(DATA / QUERIES)
    assert len(rows) == SIZES[QUERIES]
    for row in rows:
        assert set(row) == {"query", "laws", "source"}, row
        assert 20 <= len(row["query"]) <= 600, row
        assert row["laws"] and len(set(row["laws"])) == len(row["laws"]), row
        assert all(law.isdigit() and _is_canonical(law) for law in row["laws"]), row


def test_the_players_questions_are_well_formed_and_labelled_with_2017_sections() -> None:
    rows = _rows(DATA / QUESTIONS)
    assert len(rows) == SIZES[QUESTIONS]
    assert [row["id"] for row in rows] == [f"pq4-{n:03d}" for n in range(1, len(rows) + 1)]
    for row in rows:
        assert set(row) == {"id", "text", "deciding", "kind", "note", "source"}, row
        assert row["kind"] == "question" and row["text"].strip() and row["note"].strip(), row
        assert row["deciding"] and all(_is_canonical(ref) for ref in row["deciding"]), row


def test_every_row_names_its_page_and_no_page_serves_both_sets() -> None:
    sources = {name: [str(row["source"]) for row in _rows(DATA / name)] for name in SIZES}
    for urls in sources.values():
        assert all(url.startswith(("http://", "https://")) for url in urls)
        assert len(set(urls)) == len(urls)
    assert not set(sources[QUERIES]) & set(sources[QUESTIONS])
    listed = SOURCES.read_text(encoding="utf-8").split()
    assert sorted(listed) == sorted(sources[QUERIES] + sources[QUESTIONS])


def test_no_text_repeats_or_is_near_one_already_in_another_file() -> None:
    texts = [_text(row).lower() for name in SIZES for row in _rows(DATA / name)]
    assert len(set(texts)) == len(texts)
    others = _other_texts()
    assert [text for text in texts if any(fuzz.ratio(text, other) >= 85 for other in others)] == []
