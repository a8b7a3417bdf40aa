"""One term for one thing: our own text checked against ``knowledge/terms.yaml``.

Players read the bot's words aloud at the table, so the same thing is always called the same, and we add
no gendered pronouns. Quoted law text is left alone: a quotation keeps the text as printed.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.laws.book import KNOWLEDGE_DIR, read_yaml

_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"")


@dataclass(frozen=True, slots=True)
class Avoid:
    """Words we do not write, and what to write instead."""

    pattern: re.Pattern[str]
    use: str


def read_terms(path: Path = KNOWLEDGE_DIR / "terms.yaml") -> tuple[Avoid, ...]:
    document = read_yaml(path)
    rules = []
    for entry in document["avoid"]:
        for word in entry["words"]:
            flags = 0 if word.isupper() or entry.get("exact") else re.IGNORECASE
            phrase = r"\s+".join(re.escape(part) for part in word.split())
            rules.append(Avoid(re.compile(rf"(?<![\w‐-]){phrase}(?![\w‐-])", flags), entry["use"]))
    return tuple(rules)


@cache
def load_terms() -> tuple[Avoid, ...]:
    return read_terms()


def wording_problems(text: str, terms: tuple[Avoid, ...] | None = None) -> list[str]:
    """Each avoided word in ``text`` outside quotations, with the term to use instead."""
    unquoted = _QUOTED.sub(" ", text)
    found: Counter[tuple[str, str]] = Counter()
    for rule in load_terms() if terms is None else terms:
        found.update((match.group(), rule.use) for match in rule.pattern.finditer(unquoted))
    return [f"writes {word!r}{f' ({n} times)' if n > 1 else ''}: use {use}" for (word, use), n in found.items()]
