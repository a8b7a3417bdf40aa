"""Law references as directors type them all reach the same canonical form; malformed ones are refused."""

from __future__ import annotations

import pytest

from bot.laws import parse_canonical, parse_ref


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("27", "27"),
        ("law 27", "27"),
        ("Law 27B1", "27B1"),
        ("27b1", "27B1"),
        ("27B1(a)", "27B1(a)"),
        ("27B1a", "27B1(a)"),
        ("Law 27 B 1", "27B1"),
        ("law 27 b 1 (a)", "27B1(a)"),
        ("L27B1", "27B1"),
        ("l.27b", "27B"),
        ("27.B.1", "27B1"),
        ("12C1(c)", "12C1(c)"),
        ("80B2(g)(i)", "80B2(g)(i)"),
        ("laws 16", "16"),
        ("120", "120"),  # shaped like a reference; the book says it does not exist
    ],
)
def test_typed_references_are_understood(typed: str, canonical: str) -> None:
    ref = parse_ref(typed)
    assert ref is not None and str(ref) == canonical


@pytest.mark.parametrize("typed", ["", "law", "hello", "27 bis", "27BB", "27(a)", "27B1(a)(z)", "B1", "law -3", "0"])
def test_text_that_is_not_a_reference_is_refused(typed: str) -> None:
    assert parse_ref(typed) is None


@pytest.mark.parametrize("text", ["27b1", "27 B", "27B1a", "27B1(ii)", "027", "27B1(a)(q)"])
def test_canonical_form_is_strict(text: str) -> None:
    assert parse_canonical(text) is None


def test_references_know_their_family() -> None:
    ref, section, other = (parse_canonical(t) for t in ("27B1(b)", "27B", "27A"))
    assert ref is not None and section is not None and other is not None
    assert ref.law == 27 and str(ref.parent()) == "27B1"
    assert section.contains(ref) and not other.contains(ref)
