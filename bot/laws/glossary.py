"""A glossary for players: bridge-law terms explained from the Definitions and the laws.

``/define penalty card`` quotes the Definition where the Laws give one, adds plain words where they
help (each sentence cited, like a summary), and offers the related laws. Terms the Definitions do not
cover (logical alternative, comparable call, established revoke) are explained from the laws that use
them. The data is ``knowledge/glossary.yaml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

from bot.laws.book import KNOWLEDGE_DIR, Definition, KnowledgeError, LawBook, load_lawbook, read_yaml
from bot.laws.summaries import Summary, summary_from_data

FUZZY_CUTOFF = 86  # "penalty crad" finds "penalty card"; "card" alone does not find it
_ARTICLE = re.compile(r"^(?:an?|the)\s+")
_NOT_WORD = re.compile(r"[^\w\s‐-]+")


@dataclass(frozen=True, slots=True)
class Term:
    term: str
    aliases: tuple[str, ...]
    definition: Definition | None  # the Definitions entry, quoted as law text
    explain: Summary | None  # our plain words, cited
    related: tuple[str, ...]  # laws offered next


def term_key(text: str) -> str:
    """How a typed term is compared: case, quotes, articles, punctuation and a final plural ignored."""
    key = _NOT_WORD.sub(" ", text.casefold().replace("’", "'").replace("'s", "")).replace("‐", "-")
    key = _ARTICLE.sub("", " ".join(key.split()))
    return key[:-1] if key.endswith("s") and not key.endswith("ss") and len(key) > 3 else key


class Glossary:
    def __init__(self, terms: tuple[Term, ...]) -> None:
        self.terms = terms
        self.by_key: dict[str, Term] = {}
        for term in terms:
            for name in (term.term, *term.aliases):
                self.by_key.setdefault(term_key(name), term)
        self._keys = list(self.by_key)

    def lookup(self, text: str) -> Term | None:
        """The term typed, allowing a typo or a plural; None when nothing is close."""
        key = term_key(text)
        if not key:
            return None
        if key in self.by_key:
            return self.by_key[key]
        found = process.extractOne(key, self._keys, scorer=fuzz.ratio, processor=None, score_cutoff=FUZZY_CUTOFF)
        return self.by_key[found[0]] if found else None

    def suggest(self, text: str, limit: int = 5) -> list[str]:
        """Terms near what was typed, for a reply that found none."""
        key = term_key(text)
        found = process.extract(key, self._keys, scorer=fuzz.WRatio, processor=None, limit=limit * 3, score_cutoff=75)
        return list(dict.fromkeys(self.by_key[k].term for k, _score, _i in found))[:limit]


def read_glossary(book: LawBook, path: Path = KNOWLEDGE_DIR / "glossary.yaml") -> Glossary:
    document = read_yaml(path) or {}
    if document.get("edition") != book.edition or not isinstance(document.get("terms"), list):
        raise KnowledgeError(f"{path.name}: needs edition {book.edition!r} and a list 'terms'")
    return Glossary(tuple(_term(raw, book, path.name) for raw in document["terms"]))


def _term(raw: Any, book: LawBook, file: str) -> Term:
    if not isinstance(raw, dict) or not isinstance(raw.get("term"), str):
        raise KnowledgeError(f"{file}: every entry needs a 'term'")
    where = f"{file}: {raw['term']!r}"
    unknown = set(raw) - {"term", "aliases", "definition", "explain", "related"}
    if unknown:
        raise KnowledgeError(f"{where}: unknown key(s) {sorted(unknown)}")
    definition = None
    if "definition" in raw:
        definition = book.definition(str(raw["definition"]))
        if definition is None:
            raise KnowledgeError(f"{where}: {raw['definition']!r} is not one of the Definitions")
    explain = summary_from_data(raw["explain"], where) if "explain" in raw else None
    if definition is None and explain is None:
        raise KnowledgeError(f"{where}: give a 'definition', an 'explain', or both")
    aliases, related = raw.get("aliases", []), raw.get("related", [])
    if not all(isinstance(a, str) for a in aliases) or not all(isinstance(r, str) for r in related):
        raise KnowledgeError(f"{where}: 'aliases' and 'related' are lists of quoted strings")
    return Term(raw["term"], tuple(aliases), definition, explain, tuple(related))


@cache
def load_glossary() -> Glossary:
    """The process-wide glossary, read once."""
    return read_glossary(load_lawbook())
