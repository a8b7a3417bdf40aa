"""Start-up costs, each in a fresh process: the knowledge base (target < 200 ms), the charts, and the whole
bot ready to serve — knowledge, charts, matcher and store (target ≤ 1 s), both as every restart finds it
and on the first start after the knowledge changed, when the matcher's token cache is empty; and when the
matcher's worked examples, read on a thread while the bot already answers, are in too.

Prints the median of several cold loads, and the ratio against a baseline measured in the same run:
the time to start Python and read the same files' bytes without parsing them.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7

READY = "ready: knowledge, charts, matcher, store"
FIRST = "ready, first start (start-up cache empty)"
LEARNED = "worked examples read too (on a thread, while serving)"

_READY = """
import asyncio, pathlib, tempfile, time
t = time.perf_counter()
from bot.laws import load_lawbook
from bot.dialogs import Dialogs, load_charts
from bot.matching import build_matcher, chart_entries
from bot.store import Store
from bot.telegram.app import TelegramFrontEnd

async def ready():
    store = await Store.open(pathlib.Path(tempfile.mkdtemp()) / "b.sqlite3")
    matcher = build_matcher(chart_entries(), background=True)
    TelegramFrontEnd(Dialogs(store, load_charts()), load_lawbook(), matcher)
    ms = (time.perf_counter() - t) * 1000
    await store.close()
    if LEARNED:
        matcher.learned.wait()
        ms = (time.perf_counter() - t) * 1000
    return ms

print(asyncio.run(ready()))
"""

PROBES = {
    "baseline: python + read the bytes": (
        "import time, pathlib; t = time.perf_counter();"
        "[p.read_bytes() for p in pathlib.Path('knowledge').rglob('*.json')];"
        "[p.read_bytes() for p in pathlib.Path('dialogs').glob('*.yaml')];"
        "print((time.perf_counter() - t) * 1000)"
    ),
    "knowledge base (93 laws, definitions)": (
        "import time; t = time.perf_counter(); from bot.laws import load_lawbook; load_lawbook();"
        "print((time.perf_counter() - t) * 1000)"
    ),
    "charts (strict load of dialogs/)": (
        "import time; t = time.perf_counter(); from bot.dialogs import load_charts; load_charts();"
        "print((time.perf_counter() - t) * 1000)"
    ),
    READY: "LEARNED = False" + _READY,
    LEARNED: "LEARNED = True" + _READY,
    "knowledge + charts + lint": (
        "import time; t = time.perf_counter(); from bot.cli import collect_lint; collect_lint();"
        "print((time.perf_counter() - t) * 1000)"
    ),
}


def cold(code: str, empty_cache: bool = False) -> float:
    """Milliseconds reported by a fresh interpreter (imports included, interpreter start excluded); with
    ``empty_cache``, as on the first start after the knowledge changed (the matcher's token cache empty)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache} if empty_cache else None
        command = [sys.executable, "-c", code]
        out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, env=env)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    cold(PROBES[READY])  # fills the start-up cache, as the first start does
    results = {name: statistics.median(cold(code) for _ in range(RUNS)) for name, code in PROBES.items()}
    results[FIRST] = statistics.median(cold(PROBES[READY], empty_cache=True) for _ in range(RUNS))
    base = results["baseline: python + read the bytes"]
    for name, ms in results.items():
        print(f"{name:<40} {ms:8.1f} ms   ({ms / base:6.1f}× baseline)")
    print(json.dumps({k: round(v, 1) for k, v in results.items()}))


if __name__ == "__main__":
    main()
