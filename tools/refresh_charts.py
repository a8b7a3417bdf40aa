"""Rewrite the ruling snapshots (tests/snapshots/) and the chart index (dialogs/README.md) from the charts.

Run after changing a chart, review the diff (it shows exactly which rulings changed), commit both.
``--check`` writes nothing and exits 1 when a generated file is out of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.dialogs import ChartError, read_charts
from bot.dialogs.report import INDEX_FILE, SNAPSHOT_DIR, chart_index_markdown, snapshot_text


def expected_files() -> dict[Path, str]:
    charts = read_charts()
    files = {SNAPSHOT_DIR / f"{chart_id}.txt": snapshot_text(charts, chart_id) for chart_id in charts}
    files[INDEX_FILE] = chart_index_markdown(charts)
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report files that are out of date")
    args = parser.parse_args()
    try:
        expected = expected_files()
    except ChartError as exc:
        print(f"cannot read the charts: {exc}", file=sys.stderr)
        return 1
    stale = [path for path, text in expected.items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    orphans = [p for p in SNAPSHOT_DIR.glob("*.txt") if p not in expected]
    if args.check:
        for path in [*stale, *orphans]:
            print(f"out of date: {path}")
        return 1 if stale or orphans else 0
    SNAPSHOT_DIR.mkdir(parents=True, exist_ok=True)
    for path in stale:
        path.write_text(expected[path], encoding="utf-8")
        print(f"wrote {path}")
    for path in orphans:
        path.unlink()
        print(f"removed {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
