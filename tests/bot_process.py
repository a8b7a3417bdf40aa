"""A bot process for crash tests: the real Application and handlers over the fake Bot API and a real
SQLite file. It reads updates as JSON lines on stdin and prints "done N" after each, so a test can kill
it (kill -9) between or during updates and start it again on the same database.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_telegram import TOKEN, FakeBotAPI
from telegram import Update

from bot.dialogs import Dialogs, read_charts
from bot.laws import load_lawbook
from bot.matching import build_matcher, chart_entries
from bot.store import Store
from bot.telegram.app import TelegramFrontEnd, build_application

CHARTS = Path(__file__).resolve().parent / "fixtures" / "dialogs"


async def main(database: str) -> None:
    charts = read_charts(CHARTS)
    store = await Store.open(database)
    matcher = build_matcher(chart_entries(charts))
    api = FakeBotAPI()
    app = build_application(TOKEN, TelegramFrontEnd(Dialogs(store, charts), load_lawbook(), matcher), request=api)
    await app.initialize()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        update = json.loads(line)
        await app.process_update(Update.de_json(update, app.bot))
        texts = [c.params.get("text", "") for c in api.calls if c.method in ("sendMessage", "editMessageText")]
        print(
            json.dumps({"done": update["update_id"], "last": texts[-1] if texts else ""}, ensure_ascii=False),
            flush=True,
        )
    await app.shutdown()
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
