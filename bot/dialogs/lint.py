"""Checks on every chart: reachability, endings, loops, jumps, law references and variables."""

from __future__ import annotations

from collections.abc import Mapping

from bot.dialogs.engine import Engine
from bot.dialogs.facts import ASK, STOPS, load_negations, shorthand, words
from bot.dialogs.loader import NODE_ID
from bot.dialogs.model import (
    NUMBERS,
    PLACEHOLDER,
    Branch,
    Chart,
    Jump,
    Node,
    Question,
    Repeat,
    Ruling,
    cited,
    successors,
    texts,
)
from bot.dialogs.paths import enumerate_paths
from bot.dialogs.regulations import ANY, Regulation, load_regulations
from bot.laws import LawBook, Ref, parse_canonical
from bot.laws.lint import Finding, LintReport
from bot.laws.summaries import summary_problems
from bot.laws.wording import wording_problems

# Telegram button data is at most 64 bytes; a chart id travels in "s:<chart id>".
MAX_CHART_ID = 48


def _forward(node: Node) -> tuple[str, ...]:
    """Successors without a repeat's deliberate loop back."""
    if isinstance(node, Repeat):
        return (node.next,)
    return successors(node)


def _where(chart: Chart, node: Node | None = None) -> str:
    return f"{chart.path}:{node.line}" if node else chart.path


def _check_targets(chart: Chart, out: list[Finding]) -> bool:
    """True when every node leads only to nodes that exist (the graph checks need that)."""
    before = len(out)
    for node in chart.nodes.values():
        for target in successors(node):
            if target not in chart.nodes:
                out.append(Finding(_where(chart, node), f"node {node.id!r} leads to {target!r}, which does not exist"))
    return len(out) == before


def _check_reachable(chart: Chart, out: list[Finding]) -> None:
    seen, todo = {chart.start}, [chart.start]
    while todo:
        for target in successors(chart.nodes[todo.pop()]):
            if target in chart.nodes and target not in seen:
                seen.add(target)
                todo.append(target)
    for node in chart.nodes.values():
        if node.id not in seen:
            out.append(Finding(_where(chart, node), f"node {node.id!r} cannot be reached from {chart.start!r}"))


def _check_loops(chart: Chart, out: list[Finding]) -> None:
    """No path may return to an earlier node except through a repeat; a repeat must really loop."""
    state: dict[str, int] = {}

    def visit(node_id: str, trail: list[str]) -> None:
        state[node_id] = 1
        for target in _forward(chart.nodes[node_id]):
            if target not in chart.nodes:
                continue
            if state.get(target) == 1:
                loop = " → ".join([*trail[trail.index(target) :], target])
                out.append(Finding(_where(chart, chart.nodes[node_id]), f"loop without a repeat node: {loop}"))
            elif target not in state:
                visit(target, [*trail, target])
        state[node_id] = 2

    visit(chart.start, [chart.start])
    for node in chart.nodes.values():
        if isinstance(node, Repeat) and node.again in chart.nodes and node.id not in _reach(chart, node.again):
            out.append(Finding(_where(chart, node), f"repeat {node.id!r}: {node.again!r} does not lead back to it"))


def _reach(chart: Chart, start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for target in _forward(chart.nodes[todo.pop()]):
            if target in chart.nodes and target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def _check_node_shapes(chart: Chart, charts: Mapping[str, Chart], book: LawBook, out: list[Finding]) -> None:
    _check_chart_header(chart, book, out)
    for node in chart.nodes.values():
        here = _where(chart, node)
        for ref in cited(node):
            if parse_canonical(ref) is None:
                out.append(Finding(here, f"{ref!r} is not a law reference (write it like 27B1(a))"))
            elif not book.exists(ref):
                out.append(Finding(here, f"Law {ref} does not exist in the {book.edition} Laws"))
        match node:
            case Ruling():
                _check_infringed_law_first(chart, node, out)
            case Question():
                _check_options(chart, node, out)
            case Jump():
                _check_jump(chart, node, charts, out)
            case Branch():
                _check_branch(chart, node, out)


def _check_chart_header(chart: Chart, book: LawBook, out: list[Finding]) -> None:
    for ref in chart.laws:
        if not book.exists(ref):
            out.append(Finding(chart.path, f"chart law {ref!r} is not in the {book.edition} Laws"))
    for ref in chart.named:
        if ref not in chart.laws:
            out.append(Finding(chart.path, f"named law {ref!r} is not one of the chart's laws"))
    if chart.edition != book.edition:
        out.append(Finding(chart.path, f"edition {chart.edition!r}, but the knowledge base is {book.edition!r}"))
    if len(chart.id) > MAX_CHART_ID:
        out.append(Finding(chart.path, f"chart id longer than {MAX_CHART_ID} characters (it travels in buttons)"))
    if not chart.keywords and not chart.part_of:
        out.append(Finding(chart.path, "no keywords: the matcher could never offer this chart"))


def _check_part_of(chart: Chart, charts: Mapping[str, Chart], out: list[Finding]) -> None:
    """A chart that is a step of others is never offered on its own: each chart it names jumps to it, and it has
    no keywords or summary, which nothing would read."""
    for caller in chart.part_of:
        if caller not in charts:
            out.append(Finding(chart.path, f"part of {caller!r}: there is no such chart"))
        elif not any(isinstance(node, Jump) and node.jump == chart.id for node in charts[caller].nodes.values()):
            out.append(Finding(chart.path, f"part of {caller!r}, which does not jump to it"))
    if chart.part_of and chart.keywords:
        out.append(Finding(chart.path, "keywords, but it is part of other charts: the matcher never offers it"))
    if chart.part_of and chart.summary is not None:
        out.append(Finding(chart.path, "a summary, but it is part of other charts: players are never shown it"))


def _check_options(chart: Chart, node: Question, out: list[Finding]) -> None:
    if len(node.options) < 2:
        out.append(Finding(_where(chart, node), f"question {node.id!r} offers fewer than two options"))
    ids = [o.id for o in node.options]
    for option in node.options:
        if ids.count(option.id) > 1:
            out.append(Finding(f"{chart.path}:{option.line}", f"option id {option.id!r} repeated"))
        if not NODE_ID.match(option.id):
            out.append(Finding(f"{chart.path}:{option.line}", f"option id {option.id!r} is not well formed"))


def _check_jump(chart: Chart, node: Jump, charts: Mapping[str, Chart], out: list[Finding]) -> None:
    """The called chart exists and declares every variable passed, with values it knows."""
    here = _where(chart, node)
    target = charts.get(node.jump)
    if target is None:
        out.append(Finding(here, f"jump to chart {node.jump!r}, which does not exist"))
        return
    for name, value in node.with_.items():
        variable = target.variables.get(name)
        if variable is None:
            out.append(Finding(here, f"jump passes {name!r}, which {node.jump!r} does not declare"))
        elif value.startswith("$"):
            mine = chart.variables.get(value[1:])
            if mine is None:
                out.append(Finding(here, f"jump passes {value}, which this chart does not declare"))
            elif set(mine.values) - set(variable.values):
                extra = sorted(set(mine.values) - set(variable.values))
                out.append(Finding(here, f"{node.jump!r} has no value {extra} for {name!r}"))
        elif value not in variable.values:
            out.append(Finding(here, f"{value!r} is not a value of {node.jump!r}'s {name!r}"))


def _check_branch(chart: Chart, node: Branch, out: list[Finding]) -> None:
    """A branch names a declared variable and covers all its values (or has an 'otherwise')."""
    here = _where(chart, node)
    variable = chart.variables.get(node.branch)
    if variable is None:
        out.append(Finding(here, f"branch on {node.branch!r}, which is not declared"))
        return
    for value in node.cases:
        if value not in variable.values:
            out.append(Finding(here, f"branch case {value!r} is not a value of {node.branch!r}"))
    if node.otherwise is None and set(variable.values) - set(node.cases):
        missing = sorted(set(variable.values) - set(node.cases))
        out.append(Finding(here, f"branch on {node.branch!r} misses {missing} and has no 'otherwise'"))


# Laws that rectify or adjust after many infractions (an adjusted score, awareness of damage, a comparable call,
# lead restrictions, information from withdrawn calls): a ruling cites them after the law that was broken, so they
# never lead its laws — unless the chart is about them: its first law (adjusted-score starts with 12), or a whole
# law it lists that holds them (tempo-and-conduct lists Law 72, which holds 72C).
REMEDY_LAWS = tuple(
    ref for text in ("12", "16C", "23", "26", "72C", "86", "88", "89") if (ref := parse_canonical(text))
)


def _within(ref: Ref, laws: list[Ref] | tuple[Ref, ...]) -> bool:
    return any(law.contains(ref) for law in laws)


def _own_laws(chart: Chart) -> list[Ref]:
    """The laws a chart is about, whose infringement its rulings rectify: its laws, less the remedies it only
    applies (Law 12, 26, 72C …) unless it is about them."""
    chart_laws = [ref for text in chart.laws if (ref := parse_canonical(text)) is not None]
    return [law for law in chart_laws if law in chart_laws[:1] or not _within(law, REMEDY_LAWS)]


def _check_infringed_law_first(chart: Chart, node: Ruling, out: list[Finding]) -> None:
    """A ruling names the infringed law first (one of the chart's own laws, not a remedy such as Law 12 or 72C
    that many charts share), then rectification and score adjustment; a ruling that rightly starts elsewhere (a
    shared chart citing its caller's law) says why."""
    here = _where(chart, node)
    if not node.laws:
        out.append(Finding(here, f"ruling {node.id!r} cites no law"))
        return
    if node.laws_reason is not None:
        return
    own = _own_laws(chart)

    def is_own(text: str) -> bool:
        ref = parse_canonical(text)
        return ref is not None and _within(ref, own)

    if not any(is_own(text) for text in node.laws):
        out.append(
            Finding(
                here,
                f"ruling {node.id!r} cites none of the chart's own laws ({', '.join(str(law) for law in own)}): "
                "cite the infringed law first, or say why not in 'laws_reason'",
            )
        )
    elif not is_own(node.laws[0]):
        out.append(
            Finding(
                here,
                f"ruling {node.id!r} cites {node.laws[0]} first: name the infringed law first (one of the "
                f"chart's own: {', '.join(str(law) for law in own)}), or say why not in 'laws_reason'",
            )
        )


def _check_when(chart: Chart, node: Ruling, out: list[Finding]) -> None:
    """A ruling's ``when`` paragraphs hang on declared variables and values they can take, or on a regulation of
    knowledge/authorities.yaml and its values (or ``any``), and only such a paragraph names the regulation."""
    regulations = load_regulations()
    for name, paragraphs in node.when.items():
        variable = chart.variables.get(name)
        regulation = regulations.get(name)
        if variable is None and regulation is None:
            out.append(Finding(_where(chart, node), f"'when' names {name!r}, which is not declared"))
            continue
        allowed = variable.values if variable else {**regulation.values, ANY: ""} if regulation else {}
        for value, paragraph in paragraphs.items():
            if value not in allowed:
                out.append(Finding(_where(chart, node), f"'when' {name!r}: {value!r} is not one of its values"))
            others = {n for n in PLACEHOLDER.findall(paragraph.text) if n in regulations and n != name}
            if variable is None and others:
                out.append(Finding(_where(chart, node), f"'when' {name!r} names {', '.join(sorted(others))}"))


def _check_score(chart: Chart, node: Ruling, out: list[Finding]) -> None:
    """A transfer moves 1 to 13 tricks, or as many as a declared variable's value says ("two"), set on every
    path to the ruling."""
    if node.score is None or node.score.kind != "transfer":
        return
    tricks = node.score.tricks
    if isinstance(tricks, int):
        if not 1 <= tricks <= 13:
            out.append(Finding(_where(chart, node), f"'score' transfers {tricks} tricks: from 1 to 13"))
        return
    variable = chart.variables.get(tricks)
    if variable is None:
        out.append(Finding(_where(chart, node), f"'score' counts tricks by {tricks!r}, which is not declared"))
    elif any(value not in NUMBERS for value in variable.values):
        out.append(Finding(_where(chart, node), f"'score': the values of {tricks!r} must be none, one, two, … twelve"))
    elif tricks not in _definitely_set(chart).get(node.id, frozenset(chart.variables)) and not variable.default:
        out.append(Finding(_where(chart, node), f"'score': {tricks!r} may be unset on a path to {node.id!r}"))


def _check_variables(chart: Chart, out: list[Finding]) -> None:
    """Every placeholder names a declared variable that is set on every path reaching it."""
    for node in chart.nodes.values():
        if isinstance(node, Question):
            for option in node.options:
                for name, value in option.sets.items():
                    variable = chart.variables.get(name)
                    if variable is None:
                        out.append(Finding(f"{chart.path}:{option.line}", f"sets {name!r}, which is not declared"))
                    elif value not in variable.values:
                        out.append(Finding(f"{chart.path}:{option.line}", f"{value!r} is not a value of {name!r}"))
    for node in chart.nodes.values():
        if isinstance(node, Ruling):
            _check_when(chart, node, out)
            _check_score(chart, node, out)
    defaults = {name for name, v in chart.variables.items() if v.default}
    known = _definitely_set(chart)
    for node in chart.nodes.values():
        set_here = known.get(node.id, frozenset(chart.variables)) | defaults
        if isinstance(node, Branch) and node.otherwise is None and node.branch not in set_here:
            out.append(Finding(_where(chart, node), f"{node.branch!r} may be unset here: add 'otherwise'"))
        for name in _placeholders(chart, node):
            if name not in chart.variables:
                out.append(Finding(_where(chart, node), f"{{{name}}} is not a declared variable"))
            elif name not in set_here:
                out.append(Finding(_where(chart, node), f"{{{name}}} may be unset on a path to {node.id!r}"))


def _placeholders(chart: Chart, node: Node) -> list[str]:
    """The placeholders of a node's texts that name variables: not ``{regulation}`` in a ruling's ``when``
    paragraph keyed on that regulation, which the session's settings fill."""
    regulated = {
        (name, paragraph.text)
        for name, words in (node.when.items() if isinstance(node, Ruling) else ())
        if name not in chart.variables
        for paragraph in words.values()
    }
    return [name for text in texts(node) for name in PLACEHOLDER.findall(text) if (name, text) not in regulated]


def _definitely_set(chart: Chart) -> dict[str, frozenset[str]]:
    """For each node, the variables set on every path from the start (a forward must-analysis)."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(node_id: str) -> None:
        seen.add(node_id)
        for target in _forward(chart.nodes[node_id]):
            if target in chart.nodes and target not in seen:
                visit(target)
        order.append(node_id)

    visit(chart.start)
    known: dict[str, frozenset[str]] = {chart.start: frozenset()}
    for node_id in reversed(order):
        node, here = chart.nodes[node_id], known.get(node_id, frozenset())
        edges: list[tuple[str, frozenset[str]]] = []
        if isinstance(node, Question):
            edges = [(o.next, here | set(o.sets)) for o in node.options]
        elif isinstance(node, Branch):
            edges = [(t, here | {node.branch}) for t in node.cases.values()]
            edges += [(node.otherwise, here)] if node.otherwise else []
        else:
            edges = [(t, here) for t in _forward(node)]
        for target, carried in edges:
            if target in chart.nodes:
                known[target] = known[target] & carried if target in known else carried
    return known


def _check_players_words(chart: Chart, book: LawBook, out: list[Finding]) -> None:
    """A cited summary within the length limit, and our words consistent (terms.yaml) wherever people read them."""
    if chart.summary is None and not chart.part_of:
        out.append(Finding(chart.path, "no 'summary' for players (plain words, each sentence citing its laws)"))
    elif chart.summary is not None:
        out += [Finding(f"{chart.path} summary", p) for p in summary_problems(chart.summary, book)]
        out += [Finding(f"{chart.path} summary", p) for p in wording_problems(chart.summary.text)]
    values = [text for variable in chart.variables.values() for text in variable.values.values()]
    out += [Finding(chart.path, p) for text in (chart.title, *values) for p in wording_problems(text)]
    for node in chart.nodes.values():
        out += [Finding(_where(chart, node), p) for text in texts(node) for p in wording_problems(text)]


def _check_jump_cycles(charts: Mapping[str, Chart], out: list[Finding]) -> None:
    graph = {
        cid: {n.jump for n in chart.nodes.values() if isinstance(n, Jump) and n.jump in charts}
        for cid, chart in charts.items()
    }
    state: dict[str, int] = {}

    def visit(cid: str, trail: list[str]) -> None:
        state[cid] = 1
        for target in sorted(graph[cid]):
            if state.get(target) == 1:
                cycle = " → ".join([*trail[trail.index(target) :], target])
                out.append(Finding(charts[cid].path, f"charts jump in a circle: {cycle}"))
            elif target not in state:
                visit(target, [*trail, target])
        state[cid] = 2

    for cid in sorted(graph):
        if cid not in state:
            visit(cid, [cid])


def _check_cues(chart: Chart, out: list[Finding]) -> None:
    """Every cue names an existing question and one of its options (or ``ask``: words that leave it to the
    director); no cue gives two options of one question; a cue is more than negation words."""
    where = f"{chart.path}:{chart.cues_line}"
    negations = set(load_negations().phrases)
    for node_id, options in chart.cues.items():
        node = chart.nodes.get(node_id)
        if not isinstance(node, Question):
            out.append(Finding(where, f"cues for {node_id!r}, which is not a question of this chart"))
            continue
        given: dict[tuple[str, ...], str] = {}
        for option, cues in options.items():
            if option != ASK and option not in {o.id for o in node.options}:
                out.append(Finding(where, f"cues for {node_id!r} name {option!r}, which is not one of its options"))
            for cue in cues:
                said = words(cue)
                if not said or said in negations or all(w in STOPS for w in said):
                    out.append(Finding(where, f"cue {cue!r} of {node_id}/{option} has no words to find"))
                elif given.setdefault(said, option) != option:
                    out.append(
                        Finding(where, f"cue {cue!r} of {node_id!r} is given to both {given[said]!r} and {option!r}")
                    )
        answering = {words(cue) for option, cues in options.items() if option != ASK for cue in cues}
        _check_spelt_out(where, node_id, answering, {words(cue) for cue in options.get(ASK, ())}, out)


def _check_spelt_out(
    where: str, node_id: str, cued: set[tuple[str, ...]], asked: set[tuple[str, ...]], out: list[Finding]
) -> None:
    """A cue found inside a spelt-out shorthand ("matchpoints" inside "IMPs", "international matchpoints") reads
    the shorthand as the cue: the whole spelt-out phrase must be cued too (as an option or under ``ask``)."""
    for short, spelt in shorthand().items():
        if len(spelt) < 2 or spelt in cued or spelt in asked:
            continue
        for said in cued:
            if len(said) < len(spelt) and any(spelt[i : i + len(said)] == said for i in range(len(spelt))):
                out.append(
                    Finding(
                        where,
                        f"cue {' '.join(said)!r} of {node_id!r} is found inside {short!r} spelt out "
                        f"({' '.join(spelt)!r}): cue that too",
                    )
                )


def _check_settings(chart: Chart, regulations: Mapping[str, Regulation], out: list[Finding]) -> None:
    """A question names a known regulation (knowledge/authorities.yaml); each value it maps to an answer is one
    of that regulation's values, and each answer one of the question's options."""
    for node in chart.nodes.values():
        if not isinstance(node, Question) or not (node.setting or node.setting_answers):
            continue
        where = _where(chart, node)
        regulation = regulations.get(node.setting or "")
        if regulation is None:
            out.append(Finding(where, f"{node.id!r} names the setting {node.setting!r}, which is not a regulation"))
            continue
        options = {o.id for o in node.options}
        for value, option in node.setting_answers.items():
            if value not in regulation.values:
                out.append(Finding(where, f"{node.id!r}: {value!r} is not a value of the setting {regulation.name!r}"))
            if option not in options:
                out.append(Finding(where, f"{node.id!r}: setting value {value!r} gives {option!r}, not an option"))


def lint_charts(charts: Mapping[str, Chart], book: LawBook) -> LintReport:
    """Every problem in every chart."""
    problems: list[Finding] = []
    regulations = load_regulations()
    for chart in charts.values():
        if not _check_targets(chart, problems):
            continue
        _check_reachable(chart, problems)
        _check_loops(chart, problems)
        _check_node_shapes(chart, charts, book, problems)
        _check_part_of(chart, charts, problems)
        _check_variables(chart, problems)
        _check_players_words(chart, book, problems)
        _check_cues(chart, problems)
        _check_settings(chart, regulations, problems)
    _check_jump_cycles(charts, problems)
    if not problems:  # the walks below need charts that load and end
        _check_laws_applied(charts, problems)
    return LintReport(problems, [])


def _check_laws_applied(charts: Mapping[str, Chart], out: list[Finding]) -> None:
    """No dialogue's "Laws applied" starts with a remedy (Law 12, 72C …): a chart that hands the ruling over to a
    shared chart (an adjusted score) first states its own rectification in a note citing its own law, unless the
    ruling that leads has a ``laws_reason``. Checked on every path a director can start the chart on."""
    engine = Engine(charts)
    for chart in charts.values():
        own = _own_laws(chart)
        reported: set[tuple[str, str]] = set()
        for path in enumerate_paths(charts, chart.id):
            if path.given:
                continue
            walk = engine.walk(chart.id, path.steps)
            laws = engine.ruling_laws(walk)
            first = parse_canonical(laws[0]) if laws else None
            if first is None or _within(first, own) or not _within(first, REMEDY_LAWS):
                continue
            if any(r.laws[:1] == laws[:1] and _reasoned(charts, r.chart, r.node) for r in walk.rulings):
                continue
            last = walk.rulings[-1]
            if (last.chart, last.node) not in reported:
                reported.add((last.chart, last.node))
                out.append(
                    Finding(
                        chart.path,
                        f"a dialogue ending at {last.chart}/{last.node} cites {laws[0]} first: state this chart's "
                        "rectification in a note citing its own law before handing over",
                    )
                )


def _reasoned(charts: Mapping[str, Chart], chart_id: str, node_id: str) -> bool:
    node = charts[chart_id].nodes[node_id]
    return isinstance(node, Ruling) and node.laws_reason is not None
