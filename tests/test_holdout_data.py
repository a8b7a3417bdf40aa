"""The held-out sets gathered from public pages (real incidents and real players' questions, fourth round onwards)
stay usable as a measure: well-formed rows, every row naming the public page it came from, labels that exist in the
2017 text, and texts and pages of their own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rapidfuzz import fuzz

from bot.laws.book import KNOWLEDGE_DIR, load_lawbook
from bot.laws.refs import parse_canonical

DATA = Path(__file__).parent / "data"
ROUNDS = (4, 5, 6, 7, 8, 9, 10)
SIZES = {"queries": 50, "questions": 60}


def _names(round_: int) -> dict[str, str]:
    return {"queries": f"queries-real-holdout{round_}.jsonl", "questions": f"player-questions-holdout{round_}.jsonl"}


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _text(row: dict[str, Any]) -> str:
    return str(row.get("text") or row.get("query"))


def _other_texts(round_: int) -> list[str]:
    """Every message in the other data files (earlier rounds included) and in the worked examples."""
    paths = [*DATA.glob("*.jsonl"), *(KNOWLEDGE_DIR / "examples").glob("*.jsonl")]
    return [
        text.lower()
        for path in sorted(paths)
        if path.name not in _names(round_).values()
        for row in _rows(path)
        if isinstance(text := row.get("text") or row.get("query"), str)
    ]


def _is_canonical(ref: str) -> bool:
    return str(parse_canonical(ref)) == ref and load_lawbook().exists(ref)


@pytest.mark.parametrize("round_", ROUNDS)
def test_the_incidents_are_well_formed_and_labelled_with_whole_2017_laws(round_: int) -> None:
    rows = _rows(DATA / _names(round_)["queries"])
    assert len(rows) == SIZES["queries"]
    for row in rows:
        assert set(row) == {"query", "laws", "source"}, row
        assert 20 <= len(row["query"]) <= 600, row
        assert row["laws"] and len(set(row["laws"])) == len(row["laws"]), row
        assert all(law.isdigit() and _is_canonical(law) for law in row["laws"]), row


@pytest.mark.parametrize("round_", ROUNDS)
def test_the_players_questions_are_well_formed_and_labelled_with_2017_sections(round_: int) -> None:
    rows = _rows(DATA / _names(round_)["questions"])
    assert len(rows) == SIZES["questions"]
    assert [row["id"] for row in rows] == [f"pq{round_}-{n:03d}" for n in range(1, len(rows) + 1)]
    for row in rows:
        assert set(row) == {"id", "text", "deciding", "kind", "note", "source"}, row
        assert row["kind"] == "question" and row["text"].strip() and row["note"].strip(), row
        assert row["deciding"] and all(_is_canonical(ref) for ref in row["deciding"]), row


@pytest.mark.parametrize("round_", ROUNDS)
def test_every_row_names_its_page_and_no_page_serves_both_sets(round_: int) -> None:
    names = _names(round_)
    sources = {kind: [str(row["source"]) for row in _rows(DATA / name)] for kind, name in names.items()}
    for urls in sources.values():
        assert all(url.startswith(("http://", "https://")) for url in urls)
        assert len(set(urls)) == len(urls)
    assert not set(sources["queries"]) & set(sources["questions"])
    listed = (DATA / f"sources-holdout{round_}.txt").read_text(encoding="utf-8").split()
    assert sorted(listed) == sorted(sources["queries"] + sources["questions"])


def test_no_page_serves_two_rounds() -> None:
    pages = [page for round_ in ROUNDS for page in set((DATA / f"sources-holdout{round_}.txt").read_text().split())]
    assert len(set(pages)) == len(pages)


@pytest.mark.parametrize("round_", ROUNDS)
def test_no_text_repeats_or_is_near_one_already_in_another_file(round_: int) -> None:
    texts = [_text(row).lower() for name in _names(round_).values() for row in _rows(DATA / name)]
    assert len(set(texts)) == len(texts)
    others = _other_texts(round_)
    assert [text for text in texts if any(fuzz.ratio(text, other) >= 85 for other in others)] == []
