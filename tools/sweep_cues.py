"""What a change to the cues or to their reading does to the answers descriptions give, before a reviewer reads it.

Every labelled text of the project (the queries, players' questions, taps scenarios and misread rows under
``tests/``, and the worked examples) is read as a description and run through every cued question of every
chart, at ``--base`` (a git revision, checked out into a temporary folder) and in this working tree. Printed: how
many answers switched to another option (each is a ruling that may turn: read every one), were gained (an
answer where the question was asked) and were lost (now asked). ``--show N`` lists up to N of each kind.

    python3 tools/sweep_cues.py --base main
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
Answers = dict[str, str]  # "chart/question\ttext" -> option


def texts(root: Path) -> list[str]:
    """Every labelled text under ``root/tests`` and the worked examples (always this tree's, so both sides read
    the same texts)."""
    found: set[str] = set()
    for path in sorted([*(root / "tests").rglob("*.jsonl"), *(root / "knowledge" / "examples").glob("*.jsonl")]):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                found.update(row[key] for key in ("query", "text") if isinstance(row.get(key), str))
    for path in sorted((root / "tests" / "data" / "misread").glob("*.yaml")):
        found.update(row["text"] for row in yaml.safe_load(path.read_text(encoding="utf-8")) or [])
    for path in sorted((root / "tests" / "taps").glob("*.yaml")):
        found.update(row["description"] for row in yaml.safe_load(path.read_text(encoding="utf-8")) or [])
    return sorted(found)


def dump(tree: Path, corpus: list[str]) -> Answers:
    """The answers ``tree``'s charts and reading give (run in a child process so each tree imports its own bot)."""
    program = (
        "import json, sys\n"
        "from bot.dialogs import read_charts\n"
        "from bot.dialogs.facts import answer_from, read_description\n"
        "corpus = json.load(sys.stdin)\n"
        "charts = read_charts()\n"
        "out = {}\n"
        "for text in corpus:\n"
        "    description = read_description(text)\n"
        "    for chart in charts.values():\n"
        "        for node_id in chart.cues:\n"
        "            option = answer_from(description, chart, chart.node(node_id))\n"
        "            if option is not None:\n"
        "                out[chart.id + '/' + node_id + '\\t' + text] = option\n"
        "json.dump(out, sys.stdout)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        input=json.dumps(corpus),
        capture_output=True,
        text=True,
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    if done.returncode:
        sys.exit(f"reading the charts of {tree} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="main", help="the git revision to compare with (default: main)")
    parser.add_argument("--show", type=int, default=20, help="how many of each kind to list (default 20)")
    args = parser.parse_args()
    corpus = texts(ROOT)
    with tempfile.TemporaryDirectory() as folder:
        base_tree = Path(folder) / "base"
        archive = subprocess.run(["git", "archive", args.base], cwd=ROOT, capture_output=True, check=False)
        if archive.returncode:
            sys.exit(f"no such revision: {args.base}")
        base_tree.mkdir()
        subprocess.run(["tar", "-x", "-C", str(base_tree)], input=archive.stdout, check=True)
        before = dump(base_tree, corpus)
    after = dump(ROOT, corpus)
    switched = sorted(k for k in before.keys() & after.keys() if before[k] != after[k])
    gained = sorted(after.keys() - before.keys())
    lost = sorted(before.keys() - after.keys())
    print(f"{len(corpus)} texts; answers at {args.base}: {len(before)}, here: {len(after)}")
    for name, keys in (("switched", switched), ("gained", gained), ("lost", lost)):
        print(f"{name}: {len(keys)}")
        for key in keys[: args.show]:
            question, text = key.split("\t", 1)
            was = before.get(key, "asked")
            now = after.get(key, "asked")
            print(f"  {question}: {was} -> {now}  | {text[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
