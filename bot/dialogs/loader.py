"""Strict loading of flowchart YAML: every mistake is an error that names the file and line.

YAML's composer (not its constructor) is used so that duplicate keys and implicit booleans
(``yes``/``no``/``on``/``off``) can be caught before they silently become something else.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

import yaml

from bot.dialogs.model import (
    SCORE_KINDS,
    Branch,
    Chart,
    Jump,
    Node,
    Note,
    Option,
    Paragraph,
    Park,
    Question,
    Repeat,
    Ruling,
    ScoreStep,
    Variable,
)
from bot.laws.summaries import Sentence, Summary

DIALOGS_DIR = Path(__file__).resolve().parents[2] / "dialogs"

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_NULL = "tag:yaml.org,2002:null"
_STR = "tag:yaml.org,2002:str"
NODE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
CHART_ID = NODE_ID
T = TypeVar("T")


class ChartError(Exception):
    """A chart file that cannot be loaded, with the file and line of the mistake."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


class _Reader:
    """Reads one YAML mapping, checking each key's type and refusing keys nobody asked for."""

    def __init__(self, node: yaml.Node, path: str, what: str) -> None:
        if not isinstance(node, yaml.MappingNode):
            raise ChartError(path, _line(node), f"{what} must be a mapping")
        self.path, self.what, self.line = path, what, _line(node)
        self.items: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key, value in node.value:
            name = _scalar_text(key, path)
            if name in self.items:
                raise ChartError(path, _line(key), f"duplicate key {name!r} in {what}")
            self.items[name] = (key, value)
        self.used: set[str] = set()

    def has(self, key: str) -> bool:
        return key in self.items

    def _get(self, key: str, required: bool) -> yaml.Node | None:
        self.used.add(key)
        if key not in self.items:
            if required:
                raise ChartError(self.path, self.line, f"{self.what} needs {key!r}")
            return None
        return self.items[key][1]

    def text(self, key: str, required: bool = True) -> str | None:
        node = self._get(key, required)
        if node is None:
            return None
        value = _string(node, self.path, f"{key!r} in {self.what}")
        if not value.strip():
            raise ChartError(self.path, _line(node), f"{key!r} in {self.what} is empty")
        return value

    def req_text(self, key: str) -> str:
        value = self.text(key)
        assert value is not None
        return value

    def integer(self, key: str) -> int:
        node = self._get(key, True)
        assert node is not None
        if not (isinstance(node, yaml.ScalarNode) and node.tag == _INT):
            raise ChartError(self.path, _line(node), f"{key!r} in {self.what} must be a whole number")
        return int(node.value)

    def text_list(self, key: str, required: bool = True) -> tuple[str, ...]:
        node = self._get(key, required)
        if node is None:
            return ()
        if not isinstance(node, yaml.SequenceNode):
            raise ChartError(self.path, _line(node), f"{key!r} in {self.what} must be a list")
        return tuple(_string(item, self.path, f"an item of {key!r}") for item in node.value)

    def text_map(self, key: str, required: bool = True) -> dict[str, str]:
        node = self._get(key, required)
        if node is None:
            return {}
        reader = _Reader(node, self.path, f"{key!r} in {self.what}")
        return {name: _string(value, self.path, f"{name!r} in {key!r}") for name, (_k, value) in reader.items.items()}

    def paragraphs_here(self) -> dict[str, Paragraph]:
        """This mapping itself as a ``when`` variable's paragraphs: value -> the words, or ``{text, laws}`` for a
        paragraph that states laws the ruling's other paragraphs do not (a team match's 86B1)."""
        out: dict[str, Paragraph] = {}
        for name, (_key, value) in self.items.items():
            if isinstance(value, yaml.MappingNode):
                inner = _Reader(value, self.path, f"{name!r} in {self.what}")
                out[name] = Paragraph(inner.req_text("text"), inner.text_list("laws"))
                inner.done()
                if not out[name].laws:
                    problem = f"{name!r} in {self.what}: list its laws, or write it as text"
                    raise ChartError(self.path, _line(value), problem)
                continue
            text = _string(value, self.path, f"{name!r} in {self.what}")
            if not text.strip():
                raise ChartError(self.path, _line(value), f"{name!r} in {self.what} is empty")
            out[name] = Paragraph(text)
        return out

    def each(self, key: str, read: Callable[[yaml.Node, str], T]) -> list[T]:
        """Read a list whose items are mappings."""
        node = self._get(key, True)
        if not isinstance(node, yaml.SequenceNode):
            raise ChartError(self.path, _line(node) if node else self.line, f"{key!r} in {self.what} must be a list")
        return [read(item, self.path) for item in node.value]

    def mapping(self, key: str, required: bool = True) -> dict[str, yaml.Node]:
        node = self._get(key, required)
        if node is None:
            return {}
        reader = _Reader(node, self.path, f"{key!r} in {self.what}")
        return {name: value for name, (_k, value) in reader.items.items()}

    def done(self) -> None:
        for name, (key, _value) in self.items.items():
            if name not in self.used:
                raise ChartError(self.path, _line(key), f"unknown key {name!r} in {self.what}")


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _scalar_text(node: yaml.Node, path: str) -> str:
    if not isinstance(node, yaml.ScalarNode):
        raise ChartError(path, _line(node), "keys must be plain words")
    if node.tag == _BOOL:
        raise ChartError(path, _line(node), f"{node.value!r} reads as a true/false value in YAML: quote it")
    return str(node.value)


def _string(node: yaml.Node, path: str, what: str) -> str:
    """A text value; numbers are accepted as their written form ("54"), booleans and nulls are not."""
    if not isinstance(node, yaml.ScalarNode):
        raise ChartError(path, _line(node), f"{what} must be text")
    if node.tag == _BOOL:
        raise ChartError(path, _line(node), f"{what}: {node.value!r} reads as a true/false value in YAML: quote it")
    if node.tag == _NULL:
        raise ChartError(path, _line(node), f"{what} is empty")
    if node.tag not in (_STR, _INT):
        raise ChartError(path, _line(node), f"{what} must be text, not {node.tag.rsplit(':', 1)[-1]}")
    return str(node.value)


def _option(node: yaml.Node, path: str) -> Option:
    reader = _Reader(node, path, "an option")
    option = Option(
        id=reader.req_text("id"),
        label=reader.req_text("label"),
        next=reader.req_text("next"),
        sets=reader.text_map("set", required=False),
        line=_line(node),
    )
    reader.done()
    return option


AUDIENCES = ("table", "director")  # who a note speaks to: read aloud in the ruling, or the director's own step
_KINDS = ("ask", "ruling", "note", "jump", "park", "repeat", "branch")


def _node(node_id: str, node: yaml.Node, path: str) -> Node:
    reader = _Reader(node, path, f"node {node_id!r}")
    kinds = [kind for kind in _KINDS if reader.has(kind)]
    if len(kinds) != 1:
        found = ", ".join(kinds) if kinds else "none"
        raise ChartError(path, reader.line, f"node {node_id!r} needs exactly one of {', '.join(_KINDS)} (has {found})")
    common = {
        "id": node_id,
        "laws": reader.text_list("laws", required=kinds[0] == "ruling"),
        "basis": reader.text("basis", required=False),
        "line": reader.line,
    }
    built: Node
    match kinds[0]:
        case "ask":
            built = Question(
                ask=reader.req_text("ask"),
                options=tuple(reader.each("options", _option)),
                help=reader.text("help", required=False),
                setting=reader.text("setting", required=False),
                setting_answers=reader.text_map("setting_answers", required=False),
                poll=reader.text("poll", required=False),
                **common,
            )
        case "ruling":
            built = Ruling(
                ruling=reader.req_text("ruling"),
                laws_reason=reader.text("laws_reason", required=False),
                score=_score(reader.text("score", required=False), path, reader.line, node_id),
                when={
                    name: _Reader(words, path, f"'when' {name!r} in node {node_id!r}").paragraphs_here()
                    for name, words in reader.mapping("when", required=False).items()
                },
                **common,
            )
        case "note":
            audience = reader.text("audience", required=False) or "table"
            if audience not in AUDIENCES:
                raise ChartError(path, reader.line, f"'audience' of node {node_id!r} is one of {', '.join(AUDIENCES)}")
            built = Note(note=reader.req_text("note"), next=reader.req_text("next"), audience=audience, **common)
        case "jump":
            built = Jump(
                jump=reader.req_text("jump"),
                with_=reader.text_map("with", required=False),
                next=reader.text("next", required=False),
                **common,
            )
        case "park":
            built = Park(park=reader.req_text("park"), next=reader.req_text("next"), **common)
        case "repeat":
            built = Repeat(
                repeat=reader.req_text("repeat"),
                again=reader.req_text("again"),
                next=reader.req_text("next"),
                again_label=reader.text("again_label", required=False) or "Yes — again",
                next_label=reader.text("next_label", required=False) or "No — continue",
                **common,
            )
        case _:
            built = Branch(
                branch=reader.req_text("branch"),
                cases=reader.text_map("cases"),
                otherwise=reader.text("otherwise", required=False),
                **common,
            )
    reader.done()
    return built


def _score(text: str | None, path: str, line: int, node_id: str) -> ScoreStep | None:
    """``table``, ``adjusted``, ``transfer 2`` or ``transfer VARIABLE`` (its value ids count the tricks)."""
    if text is None:
        return None
    kind, _, tricks = text.strip().partition(" ")
    tricks = tricks.strip()
    if kind not in SCORE_KINDS or (kind == "transfer") != bool(tricks):
        raise ChartError(path, line, f"'score' of node {node_id!r} is table, adjusted, transfer N or transfer VARIABLE")
    if not tricks:
        return ScoreStep(kind)
    return ScoreStep(kind, int(tricks) if tricks.isdigit() else tricks)


def _variable(name: str, node: yaml.Node, path: str) -> Variable:
    reader = _Reader(node, path, f"variable {name!r}")
    variable = Variable(
        name=name,
        about=reader.req_text("about"),
        values=reader.text_map("values"),
        default=reader.text("default", required=False),
    )
    reader.done()
    if not variable.values:
        raise ChartError(path, reader.line, f"variable {name!r} declares no values")
    if variable.default is not None and variable.default not in variable.values:
        raise ChartError(path, reader.line, f"variable {name!r}: default {variable.default!r} is not one of its values")
    return variable


def _summary(chart: _Reader, path: str) -> Summary | None:
    """The players' summary: a list of sentences, each with its ``text`` and the ``laws`` it summarises."""
    node = chart._get("summary", False)
    if node is None:
        return None
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        raise ChartError(path, _line(node), "'summary' must be a list of sentences, each with 'text' and 'laws'")
    sentences = []
    for item in node.value:
        reader = _Reader(item, path, "a summary sentence")
        sentences.append(Sentence(" ".join(reader.req_text("text").split()), reader.text_list("laws")))
        reader.done()
    return Summary(tuple(sentences))


def _cues(chart: _Reader, path: str) -> tuple[dict[str, dict[str, tuple[str, ...]]], int]:
    """``cues``: question id -> option id -> the table words that give that answer; the linter checks the names."""
    node = chart._get("cues", False)
    if node is None:
        return {}, 0
    cues: dict[str, dict[str, tuple[str, ...]]] = {}
    for question, options in _Reader(node, path, "'cues'").items.values():
        name = _scalar_text(question, path)
        reader = _Reader(options, path, f"the cues of {name!r}")
        cues[name] = {option: reader.text_list(option) for option in reader.items}
        reader.done()
    return cues, _line(node)


def parse_chart(text: str, path: str) -> Chart:
    """Build a chart from YAML text; ``path`` is used in error messages."""
    try:
        document = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 0
        raise ChartError(path, line, f"not valid YAML: {exc.problem}") from exc
    if document is None:
        raise ChartError(path, 1, "the file is empty")
    reader = _Reader(document, path, "the chart")
    chart_id = reader.req_text("id")
    if not CHART_ID.match(chart_id):
        raise ChartError(path, reader.line, f"chart id {chart_id!r}: use lower-case words joined by hyphens")
    variables = {name: _variable(name, node, path) for name, node in reader.mapping("variables", False).items()}
    cues, cues_line = _cues(reader, path)
    nodes: dict[str, Node] = {}
    for node_id, node in reader.mapping("nodes").items():
        if not NODE_ID.match(node_id):
            raise ChartError(path, _line(node), f"node id {node_id!r}: use lower-case words joined by hyphens")
        nodes[node_id] = _node(node_id, node, path)
    chart = Chart(
        id=chart_id,
        title=reader.req_text("title"),
        edition=reader.req_text("edition"),
        version=reader.integer("version"),
        laws=reader.text_list("laws"),
        keywords=reader.text_list("keywords", False),
        start=reader.req_text("start"),
        nodes=nodes,
        variables=variables,
        summary=_summary(reader, path),
        named=reader.text_list("named", False),
        part_of=reader.text_list("part_of", False),
        path=path,
        cues=cues,
        cues_line=cues_line,
    )
    reader.done()
    if chart.start not in chart.nodes:
        raise ChartError(path, reader.line, f"start node {chart.start!r} does not exist")
    return chart


def read_charts(directory: Path = DIALOGS_DIR) -> dict[str, Chart]:
    """Every chart in ``directory``, by id; the first broken file raises ``ChartError``."""
    charts: dict[str, Chart] = {}
    for file in sorted(directory.glob("*.yaml")):
        chart = parse_chart(file.read_text(encoding="utf-8"), str(file.relative_to(directory.parent)))
        if chart.id in charts:
            raise ChartError(chart.path, 1, f"chart id {chart.id!r} is also used by {charts[chart.id].path}")
        if file.stem != chart.id:
            raise ChartError(chart.path, 1, f"chart id {chart.id!r} must match the file name {file.stem!r}")
        charts[chart.id] = chart
    return charts


@cache
def load_charts() -> dict[str, Chart]:
    """The process-wide charts, read once from ``BOT_DIALOGS`` (a folder of charts) or ``dialogs/``."""
    return read_charts(Path(os.environ.get("BOT_DIALOGS", str(DIALOGS_DIR))))
