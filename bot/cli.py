"""The command line: chat in the terminal (default), look up a law, lint the data.

Every command returns an exit status; errors a user can cause print one clear line, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import ConfigError, load_config
from bot.dialogs import ChartError, load_charts
from bot.dialogs.lint import lint_charts
from bot.dialogs.loader import DIALOGS_DIR
from bot.dialogs.report import coverage_map, coverage_nodes
from bot.laws import KnowledgeError, load_lawbook
from bot.laws.book import KNOWLEDGE_DIR
from bot.laws.glossary import load_glossary
from bot.laws.lint import Finding, LintReport, lint_lawbook, lint_players_words, lint_repeated_keys
from bot.laws.text import describe_lookup, format_term
from bot.matching.actions import lint_actions
from bot.matching.deciders import lint_deciders
from bot.matching.examples import lint_examples
from bot.matching.turns import lint_turns
from bot.rulings.settings import lint_authorities


def run_law(args: argparse.Namespace) -> int:
    found, text = describe_lookup(load_lawbook(), " ".join(args.ref))
    (sys.stdout if found else sys.stderr).write(text)
    return 0 if found else 1


def run_define(args: argparse.Namespace) -> int:
    """The glossary entry, as the terminal chat shows it; an unknown term suggests the nearest (exit 1)."""
    asked = " ".join(args.term)
    glossary = load_glossary()
    term = glossary.lookup(asked)
    if term is None:
        near = glossary.suggest(asked)
        print(f"No entry for {asked!r}." + (f" Did you mean: {', '.join(near)}?" if near else ""), file=sys.stderr)
        return 1
    print(format_term(term))
    return 0


def collect_lint() -> LintReport:
    """Everything ``lint`` checks, as one report: the knowledge base, then every chart, then the triage tree."""
    from bot.answers.triage import lint_triage, load_triage

    book = load_lawbook()
    report = lint_lawbook(book)
    report.extend(lint_players_words(book))
    report.extend(lint_examples(book))
    report.extend(lint_actions(book))
    report.extend(lint_deciders(book))
    report.extend(lint_turns(book))
    report.extend(lint_repeated_keys(KNOWLEDGE_DIR, DIALOGS_DIR))
    try:
        charts = load_charts()
    except ChartError as exc:
        report.problems.append(Finding(f"{exc.path}:{exc.line}", exc.message))
        return report
    report.extend(lint_charts(charts, book))
    report.extend(lint_triage(load_triage(), charts))
    report.extend(lint_authorities(charts, book))
    return report


def run_lint(_args: argparse.Namespace) -> int:
    report = collect_lint()
    for finding in report.known_gaps:
        print(f"note  {finding}")
    for finding in report.problems:
        print(f"ERROR {finding}")
    if report.problems:
        print(f"{len(report.problems)} problem(s) found.")
        return 1
    print(f"OK: knowledge base and charts clean ({len(report.known_gaps)} known gap(s) recorded).")
    return 0


def run_coverage(args: argparse.Namespace) -> int:
    """Which charts cite each law 1–93 (``--json``: law number → sorted chart ids)."""
    book, charts = load_lawbook(), load_charts()
    cover = coverage_map(charts, book)
    if args.json:
        print(json.dumps(cover, sort_keys=False))
        return 0
    places = coverage_nodes(charts)
    for number, ids in cover.items():
        law = book.laws.get(int(number))
        title = law.title if law else "?"
        print(f"Law {number:>2} {title}: {', '.join(ids) if ids else '— no chart'}")
        for place in places.get(int(number), []):
            print(f"         {place}")
    uncovered = [n for n, ids in cover.items() if not ids]
    print(f"\n{len(cover) - len(uncovered)} of {len(cover)} laws cited by at least one chart.")
    return 0


def run_render(args: argparse.Namespace) -> int:
    """Print a chart as DOT (or Mermaid), with a stored session's path highlighted."""
    from bot.dialogs.render import path_in_chart, to_dot, to_mermaid

    charts = load_charts()
    chart = charts.get(args.chart)
    if chart is None:
        print(f"There is no chart {args.chart!r}. Charts: {', '.join(sorted(charts))}", file=sys.stderr)
        return 1
    visited: set[str] = set()
    taken: set[tuple[str, str]] = set()
    if args.path is not None:
        trail = asyncio.run(_session_trail(args.path))
        if trail is None:
            return 1
        chart_id, steps = trail
        if chart_id != chart.id:
            print(f"Session {args.path} used the chart {chart_id!r}, not {chart.id!r}.", file=sys.stderr)
            return 1
        visited, taken = path_in_chart(chart.id, steps)
    print((to_mermaid if args.mermaid else to_dot)(chart, visited, taken), end="")
    return 0


async def _session_trail(session_id: int) -> tuple[str, list[tuple[str, str]]] | None:
    from bot.dialogs import DialogError, Dialogs
    from bot.store import Store, StoreError

    try:
        store = await Store.open(load_config().database)
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return None
    try:
        row, walk, _events = await Dialogs(store, load_charts()).inspect(session_id)
    except DialogError as exc:
        print(str(exc), file=sys.stderr)
        return None
    finally:
        await store.close()
    return row.chart_id, walk.trail


def run_eval(args: argparse.Namespace) -> int:
    from bot.matching.evaluate import run_eval as evaluate_file

    return evaluate_file(Path(args.file), args.json)


def run_answers_eval(args: argparse.Namespace) -> int:
    from bot.answers.evaluate import run_answers_eval as evaluate_answers

    return evaluate_answers([Path(f) for f in args.files], args.json)


def run_taps(args: argparse.Namespace) -> int:
    """Walk scenario files from description to ruling and report the taps (exit 1 if one missed its ruling)."""
    from bot.taps import TapsError, figures, measure, read_scenarios, table

    try:
        scenarios = read_scenarios([Path(p) for p in args.paths], load_charts())
    except TapsError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    outcomes = asyncio.run(measure(scenarios))
    print(json.dumps(figures(outcomes)) if args.json else table(outcomes))
    return 0 if all(outcome.reached for outcome in outcomes) else 1


def run_health(args: argparse.Namespace) -> int:
    """Exit 0 when the database is reachable and writable and the bot has beaten recently."""
    from bot.store.maintenance import check_health

    health = check_health(load_config().database, args.max_age)
    for line in health.lines:
        print(line)
    print("healthy" if health.ok else "UNHEALTHY")
    return 0 if health.ok else 1


def run_backup(args: argparse.Namespace) -> int:
    """Back up to a file, or into a folder as ``bot-YYYY-MM-DD.sqlite3`` (then ``--keep-days`` rotates)."""
    from bot.store.maintenance import MaintenanceError, backup, backup_into

    target = Path(args.file)
    into_folder = target.is_dir() or args.file.endswith(("/", os.sep))
    if args.keep_days is not None and not into_folder:
        print("--keep-days needs a folder to back up into (end its name with /)", file=sys.stderr)
        return 2
    try:
        if into_folder:
            done = backup_into(load_config().database, target, args.keep_days)
            target, version = done.file, done.version
            for old in done.removed:
                print(f"removed {old} (older than {args.keep_days} days)")
        else:
            version = backup(load_config().database, target)
    except MaintenanceError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    print(f"backed up to {target} (schema {version}, integrity ok)")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from bot.store.maintenance import MaintenanceError, restore

    try:
        done = restore(Path(args.file), load_config().database)
    except MaintenanceError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    kept = f"; the database it replaced is kept at {done.kept}" if done.kept else ""
    print(f"restored {args.file} (schema {done.version}){kept}; the bot migrates it on its next start")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Print (or write) a ruling as text, Markdown or a self-contained HTML page; never onto the database."""
    from bot.store.maintenance import MaintenanceError, refuse_onto_database

    if args.output:
        try:
            refuse_onto_database(Path(args.output), load_config().database)
        except MaintenanceError as exc:
            print(str(exc), file=sys.stderr)
            return 1
    text = asyncio.run(_export(args.ruling, args.format))
    if text is None:
        return 1
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"cannot write {args.output}: {exc.strerror}", file=sys.stderr)
            return 1
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


async def _export(session_id: int, fmt: str) -> str | None:
    from bot.dialogs import DialogError, Dialogs
    from bot.rulings import Rulings
    from bot.rulings.export import export
    from bot.store import Store, StoreError

    try:
        store = await Store.open(load_config().database)
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return None
    try:
        record = await Rulings(store, Dialogs(store, load_charts())).record(session_id)
        return export(load_lawbook(), record, fmt)
    except DialogError as exc:
        print(str(exc), file=sys.stderr)
        return None
    finally:
        await store.close()


def run_arithmetic(args: argparse.Namespace) -> int:
    """score, imps, mp, adjust, deal: the text the scoring service returns, or its one line on stderr (exit 1)."""
    from bot.scoring import ScoringError

    try:
        print(args.compute(args.words))
    except ScoringError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


def add_arithmetic(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The director's arithmetic (Laws 77, 78, 12C) and the deal: each command hands its words to
    ``bot.scoring.service``."""
    from bot.scoring import service

    for name, compute, about, words in (
        ("score", service.score_text, "the score of a contract: score 4SX= vul", "contract and vul|nv"),
        ("imps", service.imps_text, "IMPs between two tables' scores: imps 620 -100", "scores"),
        ("mp", service.mp_text, "matchpoints for every score on a board: mp 420 420 450 -50", "scores"),
        ("adjust", service.adjust_text, "a weighted score: adjust 60%% 4S= 40%% 4S-1 vul imps 620", "outcomes"),
        (
            "deal",
            service.deal_text,
            'double-dummy tricks and par: deal "N:AKQ2.J98.T87.654 …"',
            "a PBN deal or 4 hands",
        ),
    ):
        command = commands.add_parser(name, help=about)
        command.add_argument("words", nargs="*", metavar="WORD", help=words)
        command.set_defaults(handler=run_arithmetic, compute=compute)


def run_chat(_args: argparse.Namespace) -> int:
    from bot.terminal import run_terminal

    return run_terminal()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="The tournament director's companion.")
    parser.set_defaults(handler=run_chat)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    law = commands.add_parser("law", help='print a law, a section or a definition (law 27B1, law "Penalty Card")')
    law.add_argument("ref", nargs="+", help="a reference such as 27, 27B1, 27B1(a); 'definitions'; a defined term")
    law.set_defaults(handler=run_law)
    define = commands.add_parser("define", help="explain a bridge-law term for players (define penalty card)")
    define.add_argument("term", nargs="+", help="a term: penalty card, logical alternative, established revoke…")
    define.set_defaults(handler=run_define)
    lint = commands.add_parser("lint", help="validate the knowledge base and every flowchart")
    lint.set_defaults(handler=run_lint)
    coverage = commands.add_parser("coverage", help="list, for each law 1–93, the charts and nodes that cite it")
    coverage.add_argument("--json", action="store_true", help="one JSON object: law number -> chart ids")
    coverage.set_defaults(handler=run_coverage)
    render = commands.add_parser("render", help="print a chart as Graphviz DOT (or Mermaid)")
    render.add_argument("chart", help="the chart id")
    render.add_argument("--mermaid", action="store_true", help="Mermaid instead of DOT")
    render.add_argument("--path", type=int, metavar="SESSION", help="highlight the path a stored session took")
    render.set_defaults(handler=run_render)
    evaluation = commands.add_parser("eval", help="matching quality on a labelled JSONL file")
    evaluation.add_argument("file", help='JSONL lines: {"query": "...", "laws": ["54", ...]}')
    evaluation.add_argument("--json", action="store_true", help="print one JSON object of figures")
    evaluation.set_defaults(handler=run_eval)
    answering = commands.add_parser(
        "answers-eval", help="players' answers on labelled files: right first answer, routing, declining"
    )
    answering.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help='JSONL: {"text": ..., "deciding": ["16B1"]}, {"text": ..., "route": "answer"}, {"text": ...} to decline',
    )
    answering.add_argument("--json", action="store_true", help="print one JSON list of figures, one per file")
    answering.set_defaults(handler=run_answers_eval)
    taps = commands.add_parser("taps", help="taps from a description to its ruling, over scenario files")
    taps.add_argument("paths", nargs="+", metavar="PATH", help="scenario files (YAML) or folders of them")
    taps.add_argument("--json", action="store_true", help="print one JSON object of figures")
    taps.set_defaults(handler=run_taps)
    exporting = commands.add_parser("export", help="a stored ruling as text, Markdown or HTML")
    exporting.add_argument("ruling", type=int, help="the ruling's number (its session)")
    exporting.add_argument("--format", choices=("text", "markdown", "html"), default="text")
    exporting.add_argument("--output", "-o", help="write to this file instead of printing")
    exporting.set_defaults(handler=run_export)
    health = commands.add_parser("health", help="exit 0 if the database is writable and the bot is alive")
    health.add_argument("--max-age", type=float, default=120.0, help="seconds since the last heartbeat (120)")
    health.set_defaults(handler=run_health)
    backup = commands.add_parser("backup", help="checked, consistent online copy of the database (SQLite backup API)")
    backup.add_argument("file", help="where to write the copy: a file, or a folder (ending in /) for bot-DATE.sqlite3")
    backup.add_argument(
        "--keep-days", type=int, metavar="DAYS", help="after a good backup into a folder, remove its older ones"
    )
    backup.set_defaults(handler=run_backup)
    restore = commands.add_parser(
        "restore", help="bring back a checked backup (refused while the bot runs; the old database is kept)"
    )
    restore.add_argument("file", help="the backup to restore")
    restore.set_defaults(handler=run_restore)
    add_arithmetic(commands)
    from bot.telegram import add_parser as add_telegram

    add_telegram(commands)
    chat = commands.add_parser("chat", help="chat in the terminal (the default)")
    chat.set_defaults(handler=run_chat)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except KnowledgeError as exc:
        print(f"The knowledge base could not be read: {exc}", file=sys.stderr)
        return 2
    except ChartError as exc:
        print(f"A chart could not be read: {exc}", file=sys.stderr)
        return 2
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader (head, less) went away: not an error worth a traceback
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
