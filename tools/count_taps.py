"""Screens a director passes before the ruling, over every path of every chart (issue 19: lean screens).

Each step of a path is one screen and one tap: a question answered, a note's Continue, a park's Resume,
a repeat's choice. Prints the median, p90 and maximum over all paths and over the charts (each chart's
median), and how many of the taps were a note's bare Continue. ``--json`` prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.dialogs import read_charts
from bot.dialogs.model import Note
from bot.dialogs.paths import enumerate_paths


def _p90(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def figures() -> dict[str, float]:
    charts = read_charts()
    taps: list[int] = []
    continues: list[int] = []
    medians: list[float] = []
    for chart_id in sorted(charts):
        own: list[int] = []
        for path in enumerate_paths(charts, chart_id):
            own.append(len(path.steps))
            continues.append(sum(isinstance(charts[s.chart].nodes[s.node], Note) for s in path.steps))
        taps += own
        medians.append(statistics.median(own))
    return {
        "paths": len(taps),
        "median_taps": statistics.median(taps),
        "p90_taps": _p90(taps),
        "max_taps": max(taps),
        "chart_median_taps": statistics.median(medians),
        "continue_taps": sum(continues),
        "paths_with_continue": sum(1 for c in continues if c),
        "note_nodes": sum(isinstance(n, Note) for c in charts.values() for n in c.nodes.values()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    found = figures()
    if args.json:
        print(json.dumps(found))
    else:
        for name, value in found.items():
            print(f"{name:>20}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
