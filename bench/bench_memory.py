"""Resident memory of the bot's process with 10,000 live sessions (target ≤ 200 MB), and its growth per session.

Each session is started and answered twice through the Dialogs service on a real SQLite file, as the
Telegram front end does; the baseline is the same process with everything loaded but no session.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from bot.dialogs import Dialogs, load_charts
from bot.laws import load_lawbook
from bot.matching import build_matcher, chart_entries
from bot.store import Store
from bot.telegram.app import TelegramFrontEnd

SESSIONS = 10_000


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def main() -> None:
    book = load_lawbook()
    charts = load_charts()
    matcher = build_matcher(chart_entries())
    with tempfile.TemporaryDirectory() as directory:
        store = await Store.open(Path(directory) / "bench.sqlite3")
        dialogs = Dialogs(store, charts)
        TelegramFrontEnd(dialogs, book, matcher)  # the whole bot is loaded, as in production
        chart = "opening-lead-out-of-turn"
        baseline = rss_mb()
        marks = {}
        for n in range(1, SESSIONS + 1):
            screen = await dialogs.start(f"tg:{n}", chart)
            screen = await dialogs.answer(f"tg:{n}", screen.session_id, 0, 0)
            await dialogs.answer(f"tg:{n}", screen.session_id, 1, 1)
            if n in (1_000, 5_000, SESSIONS):
                marks[n] = rss_mb()
        await store.close()
    print(f"loaded, no session : {baseline:7.1f} MB resident")
    for n, mb in marks.items():
        print(f"{n:>6} sessions    : {mb:7.1f} MB resident")
    per = (marks[SESSIONS] - marks[1_000]) / (SESSIONS - 1_000) * 1024
    print(f"growth: {per:.2f} kB per session beyond the first 1,000 (the in-memory cache holds the 2,048 most recent)")
    print(f"target ≤ 200 MB with {SESSIONS} sessions: {'met' if marks[SESSIONS] <= 200 else 'NOT met'}")


if __name__ == "__main__":
    asyncio.run(main())
