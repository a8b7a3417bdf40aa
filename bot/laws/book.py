"""The Laws of Duplicate Bridge as loaded from ``knowledge/``: a small typed API the rest of the bot uses.

Loaded once per process (``load_lawbook``); every lookup afterwards is a dictionary access.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import yaml
from rapidfuzz import fuzz, process, utils

from bot.laws.refs import Ref, parse_canonical, parse_ref

KNOWLEDGE_DIR = Path(__file__).resolve().parents[2] / "knowledge"


class KnowledgeError(Exception):
    """The knowledge base files are missing or malformed."""


@dataclass(frozen=True, slots=True)
class Source:
    """Where an entry was read: seed file ("000", "001") and 1-based line."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"seed {self.file}, line {self.line}"


@dataclass(frozen=True, slots=True)
class Paraphrase:
    """A text with its source: a 2017 source's paraphrase of a missing passage (shown as such, never as
    law text), or a section's closing sentence printed after its subsections."""

    text: str
    source: Source


@dataclass(frozen=True, slots=True)
class Section:
    """One numbered part of a law, with the text printed directly under it (not its subsections')."""

    ref: Ref
    heading: str | None
    text: str
    source: Source
    provenance: str = "000"
    gap: str | None = None
    paraphrase: Paraphrase | None = None
    closing: Paraphrase | None = None  # text printed at this level after the subsections (69B, Law 71)

    @property
    def law(self) -> int:
        return self.ref.law

    @property
    def label(self) -> str:
        """The local label as printed in the book: ``B.``, ``1.``, ``(b)``."""
        last = self.ref.parts[-1]
        return last if last.startswith("(") else f"{last}."


@dataclass(frozen=True, slots=True)
class Footnote:
    number: int
    text: str
    source: Source


@dataclass(frozen=True, slots=True)
class Law:
    number: int
    title: str
    chapter: str
    source: Source
    sections: tuple[Section, ...]
    footnotes: tuple[Footnote, ...]
    edition: str = "2017"
    title_footnotes: tuple[int, ...] = ()  # footnotes marked on the law's heading itself

    @property
    def name(self) -> str:
        """How a director names it: ``Law 27 — Insufficient Bid``."""
        return f"Law {self.number} — {self.title}"


@dataclass(frozen=True, slots=True)
class Definition:
    term: str
    text: str
    source: Source
    provenance: str = "000"
    gap: str | None = None


@dataclass(frozen=True, slots=True)
class Chapter:
    number: str
    title: str
    laws: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Passage:
    """What a reference resolves to: a whole law or one section with everything below it."""

    law: Law
    ref: Ref
    sections: tuple[Section, ...]

    @property
    def is_whole_law(self) -> bool:
        return len(self.ref.parts) == 1


@dataclass(slots=True)
class LawBook:
    """Every law, section, footnote and definition of one edition."""

    edition: str
    laws: dict[int, Law]
    chapters: tuple[Chapter, ...]
    definitions: dict[str, Definition]
    introduction: tuple[tuple[str, str], ...]
    _sections: dict[str, Section] = field(default_factory=dict)
    # Each reference's text as read aloud, once formatted (bot.laws.text.quoted): the book never changes while
    # the bot runs, and every ruling quotes its laws.
    quotes: dict[str, str | None] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._sections = {str(s.ref): s for law in self.laws.values() for s in law.sections}

    def law(self, number: int) -> Law | None:
        return self.laws.get(number)

    def section(self, ref: str | Ref) -> Section | None:
        """The section printed under exactly this reference (``27B1``), or None."""
        return self._sections.get(str(ref))

    def sections(self) -> Iterator[Section]:
        for law in self.laws.values():
            yield from law.sections

    def exists(self, ref: str | Ref) -> bool:
        """True when the reference names a law or a section of this edition."""
        parsed = ref if isinstance(ref, Ref) else parse_canonical(ref)
        if parsed is None:
            return False
        return str(parsed) in self._sections or (len(parsed.parts) == 1 and parsed.law in self.laws)

    def passage(self, ref: str | Ref) -> Passage | None:
        """A law or a section together with all its subsections, in printed order."""
        parsed = ref if isinstance(ref, Ref) else parse_canonical(ref)
        if parsed is None or not self.exists(parsed):
            return None
        law = self.laws[parsed.law]
        return Passage(law, parsed, tuple(s for s in law.sections if parsed.contains(s.ref)))

    def heading_path(self, ref: Ref) -> list[str]:
        """The headings above and at a reference, e.g. ``["Law 27 — Insufficient Bid", "B. Insufficient …", "1."]``."""
        law = self.laws[ref.law]
        path = [law.name]
        for depth in range(2, len(ref.parts) + 1):
            section = self._sections.get(str(Ref(ref.parts[:depth])))
            if section is not None:
                path.append(f"{section.label} {section.heading}" if section.heading else section.label)
        return path

    def definition(self, term: str) -> Definition | None:
        return self.definitions.get(term.strip().casefold())

    def lookup(self, text: str) -> Passage | Definition | None:
        """Resolve what a person typed after ``law``: a reference or a defined term."""
        ref = parse_ref(text)
        if ref is not None:
            return self.passage(ref)
        return self.definition(text.strip().strip("\"'“”"))

    def suggest(self, text: str, limit: int = 5) -> list[str]:
        """The nearest existing references or defined terms, for an unknown one."""
        ref = parse_ref(text)
        if ref is not None:
            return self._suggest_refs(ref, limit)
        terms = [d.term for d in self.definitions.values()]
        found = process.extract(
            text, terms, scorer=fuzz.WRatio, processor=utils.default_process, limit=limit, score_cutoff=75
        )
        return [term for term, _score, _index in found]

    def _suggest_refs(self, ref: Ref, limit: int) -> list[str]:
        """Walk up the reference until something exists, then offer it and its children."""
        if ref.law not in self.laws:
            near = sorted(self.laws, key=lambda n: abs(n - ref.law))[:limit]
            return [self.laws[n].name for n in sorted(near)]
        ancestor: Ref | None = ref
        while ancestor is not None and not self.exists(ancestor):
            ancestor = ancestor.parent()
        assert ancestor is not None
        depth = len(ancestor.parts) + 1
        children = [
            str(s.ref) for s in self.laws[ref.law].sections if len(s.ref.parts) == depth and ancestor.contains(s.ref)
        ]
        return [str(ancestor), *children][:limit]


def _source(raw: dict[str, Any]) -> Source:
    return Source(file=str(raw["file"]), line=int(raw["line"]))


def _section(raw: dict[str, Any], path: Path) -> Section:
    ref = parse_canonical(raw["ref"])
    if ref is None:
        raise KnowledgeError(f"{path.name}: malformed reference {raw['ref']!r}")
    para = raw.get("paraphrase")
    closing = raw.get("closing")
    return Section(
        ref=ref,
        heading=raw.get("heading") or None,
        text=raw.get("text", ""),
        source=_source(raw["source"]),
        provenance=raw.get("provenance", "000"),
        gap=raw.get("gap"),
        paraphrase=Paraphrase(para["text"], _source(para["source"])) if para else None,
        closing=Paraphrase(closing["text"], _source(closing["source"])) if closing else None,
    )


_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml parses knowledge files ten times faster


def read_yaml(path: Path) -> Any:
    """A knowledge file written by people (keywords, summaries, glossary, terms): safe, and fast where libyaml is."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_YAML_LOADER)


def repeated_keys(path: Path) -> list[str]:
    """The keys a YAML file gives twice in one mapping ("line 12: redeal-asked"): the loader keeps only the last
    silently, so a second concept, case or chart node of the same name would drop the first unseen."""
    root = yaml.compose(path.read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    found: list[tuple[int, str]] = []
    nodes = [root] if root is not None else []
    while nodes:
        node = nodes.pop()
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value in seen:
                    found.append((key.start_mark.line + 1, key.value))
                seen.add(key.value if isinstance(key, yaml.ScalarNode) else "")
                nodes.append(value)
        elif isinstance(node, yaml.SequenceNode):
            nodes.extend(node.value)
    return [f"line {line}: {key}" for line, key in sorted(found)]


Entry = TypeVar("Entry")


def read_entries(path: Path, key: str, build: Callable[[Any], Entry]) -> tuple[Entry, ...]:
    """Each entry of the list under ``key`` in a knowledge file, as ``build`` makes it (raising KeyError, TypeError
    or ValueError on a malformed one); ValueError naming the file, and the entry, when the list or one is wrong."""
    return built_entries(read_yaml(path), path.name, key, build)


def built_entries(raw: Any, name: str, key: str, build: Callable[[Any], Entry]) -> tuple[Entry, ...]:
    """``read_entries`` for a file already parsed (``name`` its file name), when one file holds more than a list."""
    entries = raw.get(key) if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise ValueError(f"{name}: expected a list under {key!r}")
    built = []
    for number, entry in enumerate(entries, start=1):
        try:
            built.append(build(entry))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{name}: entry {number}: {exc}") from exc
    return tuple(built)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise KnowledgeError(f"missing knowledge file {path}") from exc
    except json.JSONDecodeError as exc:
        raise KnowledgeError(f"{path.name}: not valid JSON ({exc})") from exc


def read_lawbook(directory: Path = KNOWLEDGE_DIR) -> LawBook:
    """Read the knowledge base from ``directory`` (uncached; tests and the linter use this)."""
    laws: dict[int, Law] = {}
    try:
        for path in sorted((directory / "laws").glob("law-*.json")):
            raw = _read_json(path)
            law = Law(
                number=int(raw["number"]),
                title=raw["title"],
                chapter=raw["chapter"],
                source=_source(raw["source"]),
                sections=tuple(_section(s, path) for s in raw["sections"]),
                footnotes=tuple(Footnote(int(f["number"]), f["text"], _source(f["source"])) for f in raw["footnotes"]),
                edition=str(raw["edition"]),
                title_footnotes=tuple(raw.get("title_footnotes", ())),
            )
            laws[law.number] = law
        defs_raw = _read_json(directory / "definitions.json")
        definitions = {
            d["term"].casefold(): Definition(
                d["term"], d["text"], _source(d["source"]), d.get("provenance", "000"), d.get("gap")
            )
            for d in defs_raw["definitions"]
        }
        chapters = tuple(
            Chapter(c["number"], c["title"], tuple(c["laws"]))
            for c in _read_json(directory / "chapters.json")["chapters"]
        )
        intro = tuple((s["title"], s["text"]) for s in _read_json(directory / "introduction.json")["sections"])
    except (KeyError, TypeError, ValueError) as exc:
        raise KnowledgeError(f"knowledge base malformed: {exc!r}") from exc
    return LawBook(str(defs_raw["edition"]), dict(sorted(laws.items())), chapters, definitions, intro)


@cache
def load_lawbook() -> LawBook:
    """The process-wide law book, read once."""
    return read_lawbook()
