"""The Laws of Duplicate Bridge (2017) from ``knowledge/``: load, look up, quote, lint."""

from bot.laws.book import (
    Definition,
    KnowledgeError,
    Law,
    LawBook,
    Passage,
    Section,
    Source,
    load_lawbook,
    read_lawbook,
)
from bot.laws.refs import Ref, parse_canonical, parse_ref

__all__ = [
    "Definition",
    "KnowledgeError",
    "Law",
    "LawBook",
    "Passage",
    "Ref",
    "Section",
    "Source",
    "load_lawbook",
    "parse_canonical",
    "parse_ref",
    "read_lawbook",
]
