"""Law references: parse what a director types ("27b1", "Law 27 B 1", "L27B1(a)") into one canonical form.

A reference is a path: law number, section letter, subsection number, item letter, roman sub-item —
``12C1(c)``, ``27B1(b)``, ``80B2(g)(i)``. Parsing is strict about structure and lenient about spelling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")

_CANONICAL = re.compile(
    r"^(?P<law>[1-9]\d?)(?P<letter>[A-Z])?(?P<number>[1-9]\d?)?"
    r"(?:\((?P<item>[a-z])\))?(?:\((?P<roman>x{0,1}(?:ix|iv|v?i{0,3}))\))?$"
)
_PREFIX = re.compile(r"^\s*(?:laws?|l)\s*\.?\s*(?=\d)", re.IGNORECASE)
_LOOSE = re.compile(
    r"^(?P<law>\d{1,3})\s*(?P<letter>[A-Za-z](?![A-Za-z]))?\s*(?P<number>\d{1,2})?\s*"
    r"(?:\(?\s*(?P<item>[a-z])\s*\)?)?\s*(?:\(\s*(?P<roman>[ivx]{1,4})\s*\))?$"
)


@dataclass(frozen=True, slots=True, order=True)
class Ref:
    """A parsed law reference; ``parts`` is the path from the law down, e.g. ("27", "B", "1", "(b)")."""

    parts: tuple[str, ...]

    @property
    def law(self) -> int:
        return int(self.parts[0])

    def __str__(self) -> str:
        return "".join(self.parts)

    def parent(self) -> Ref | None:
        return Ref(self.parts[:-1]) if len(self.parts) > 1 else None

    def contains(self, other: Ref) -> bool:
        """True when ``other`` is this reference or lies below it."""
        return other.parts[: len(self.parts)] == self.parts


def law_number(ref: str) -> int:
    """The law a written reference belongs to: ``"54A2"`` → 54 (labels and chart laws are written this way)."""
    return int(re.sub(r"\D.*", "", ref))


def parse_canonical(text: str) -> Ref | None:
    """Parse a reference exactly as the knowledge base writes it (``27B1(b)``); None if malformed."""
    match = _CANONICAL.match(text)
    if not match or (match["roman"] is not None and match["roman"] not in _ROMAN):
        return None
    if match["roman"] and not match["item"]:
        return None
    parts = [match["law"]]
    parts += [match[key] for key in ("letter", "number") if match[key]]
    parts += [f"({match[key]})" for key in ("item", "roman") if match[key]]
    return Ref(tuple(parts))


def parse_ref(text: str) -> Ref | None:
    """Parse a reference as a person types it; None when the text is not shaped like a law reference.

    Accepts ``27``, ``law 27``, ``L27B1``, ``27b1``, ``27 B 1``, ``27B1(a)``, ``27B1a``, ``Law 27 B 1 (a)``.
    The law number is not checked against the book here (``120`` parses): the book says if it exists.
    """
    body = _PREFIX.sub("", text.strip()).replace(".", " ").strip()
    match = _LOOSE.match(body)
    if not match:
        return None
    law = match["law"].lstrip("0")
    if not law:
        return None
    parts = [law]
    if match["letter"]:
        parts.append(match["letter"].upper())
    if match["number"]:
        if not match["letter"]:
            return None
        parts.append(match["number"])
    if match["item"]:
        if not match["letter"]:
            return None
        parts.append(f"({match['item'].lower()})")
    if match["roman"]:
        if not match["item"] or match["roman"].lower() not in _ROMAN:
            return None
        parts.append(f"({match['roman'].lower()})")
    return Ref(tuple(parts))
