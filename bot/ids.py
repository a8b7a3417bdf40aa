"""Numbers people type for a ruling, a club, a person or a choice, read within bounds.

``int()`` refuses more than 4,300 digits (ValueError), SQLite refuses more than 2**63 - 1 (OverflowError), and
``str.isdigit`` accepts digits ``int()`` cannot read ("²"): each once reached a user as a traceback. Both
front ends read such numbers here, so a number no record can have is simply not found.
"""

from __future__ import annotations

LARGEST_ID = 2**63 - 1  # SQLite's largest integer, so every row id


def parse_id(text: str, largest: int = LARGEST_ID) -> int | None:
    """The number ``text`` spells in ASCII digits, from 0 to ``largest``; None for anything else."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(largest)):
        return None
    number = int(text)
    return number if number <= largest else None
