"""Many directors at once, over a modelled network: the real ``python -m bot telegram`` process (long polling, or
its webhook with ``--webhook``) against the Bot API stand-in on loopback (tests/botapi_standin.py), which answers
every call after ``--delay`` (Telegram's round trip; default 80 ms).

N simulated directors start together; each does a whole ruling in its private chat: it describes the incident,
picks the first situation offered, then taps an answer to every question until the ruling arrives. Each waits
for the bot's reply before its next tap, as a person does (no thinking time: the worst case). Printed per run:
updates handled per second, press latency p50 / p95 / max (from the update reaching the bot's side — handed to
getUpdates or POSTed — until the stand-in has answered the call that shows its result: the next question edited
in, or the ruling's last message), the spinner's latency (until the press's answerCallbackQuery is answered),
rulings completed, and errors (a notice, "Something went wrong", no reply in 120 s). Also the bot process's own
CPU time an update (read from /proc, apart from the stand-in's and the directors', which share this process; with
``--workers`` the router's and its workers' together, the router's also apart) and the share of a core it had: on a
machine shared with other work, updates/s is that share over the CPU an update. ``--warm-up`` has every director do
one ruling first, unmeasured: a bot that has served for a while (each process's code paths and connections warm),
where a run without it includes the first taps a freshly started bot serves.

The stand-in enforces no flood limits, so the bot's own rate limiter is lifted (``BOT_FLOOD_LIMIT=0``) unless
``--flood-limit`` gives one: at Telegram's 30 calls a second, edits of a hundred directors tapping without pause
queue behind the limiter, which is what Telegram would impose on them.

    python3 bench/bench_load.py                      # 10 and 100 directors, at 80 ms and at 0 ms
    python3 bench/bench_load.py --directors 10,100,300,1000 --delays 80
    python3 bench/bench_load.py --floor              # bench/floor_bot.py: python-telegram-bot with nothing behind
    python3 bench/bench_load.py --workers 2 --warm-up  # BOT_WORKERS=2, after one unmeasured ruling each
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import aiohttp  # noqa: E402
from botapi_standin import Answered, BotAPIStandIn, buttons, press, private_chat, text_message  # noqa: E402
from fake_telegram import TOKEN  # noqa: E402
from processes import PROC, processes  # noqa: E402

DESCRIPTIONS = (
    "LHO led out of turn",
    "declarer revoked on trick 5",
    "insufficient bid 1S over 1NT",
    "he claimed but trumps are still out",
    "bid out of turn by the dealer's partner",
    "hesitation then 4S by partner",
    "dummy pointed out a revoke",
)
try:  # the stand-in and the directors model Telegram and phones: their CPU is not the bot's, so it is kept low
    from uvloop import run as LOOP_RUN
except ImportError:  # uvloop is not built for Windows
    LOOP_RUN = asyncio.run
WAIT = 120.0  # seconds a director waits for a reply before counting an error (slow is measured, not an error)
SECRET = "bench-webhook-secret-0123456789"


@dataclass
class Tally:
    presses: list[float] = field(default_factory=list)  # seconds, until the result is shown
    spinners: list[float] = field(default_factory=list)  # seconds, until the press is answered
    messages: list[float] = field(default_factory=list)  # seconds, a description until the situations
    updates: int = 0
    rulings: int = 0
    errors: list[str] = field(default_factory=list)


class Director:
    def __init__(self, number: int, standin: BotAPIStandIn, send: Any, tally: Tally, rng: random.Random) -> None:
        self.user, self.chat = private_chat(100_000 + number, f"TD{number}")
        self.inbox = standin.inbox(self.chat["id"])
        self.send, self.tally, self.rng = send, tally, rng
        self.description = DESCRIPTIONS[number % len(DESCRIPTIONS)]
        self.backlog: list[Answered] = []
        self.pressed = 0.0
        self.waiting = "the description"

    async def rule(self) -> None:
        try:
            await self._rule()
        except TimeoutError:
            self.tally.errors.append(f"no reply in time to {self.waiting}")
        except AssertionError as exc:
            self.tally.errors.append(str(exc))

    async def _rule(self) -> None:
        started = time.perf_counter()
        await self.send(text_message(self.user, self.chat, self.description))
        self.tally.updates += 1
        offer = await self._expect(lambda c: c.method == "sendMessage")
        self.tally.messages.append(offer.answered - started)
        situation = next((data for _label, data in buttons(offer.result) if data.startswith(("s:", "o:c:"))), None)
        assert situation, f"no situation offered for {self.description!r}"
        shown = await self._press(offer.result, situation, lambda c: c.method == "sendMessage")
        for _step in range(80):
            answers = [data for _label, data in buttons(shown.result) if data.startswith("a:")]
            assert answers, f"a question without answers: {shown.params.get('text', '')[:60]!r}"
            data = self.rng.choice(answers)
            message = shown.result
            edited = await self._press(message, data, lambda c, m=message: _edits(c, m))
            if not str(edited.params.get("text", "")).startswith("✅"):
                shown = edited
                continue
            self.waiting = "the ruling"
            ruling = await self._expect(_ruling_sent)  # the last press is shown when the ruling is
            self.tally.presses[-1] = ruling.answered - self.pressed
            self.tally.rulings += 1
            return
        raise AssertionError("no ruling after 80 answers")

    async def _press(self, message: dict[str, Any], data: str, shows: Any) -> Answered:
        self.waiting = f"a press of {data}"
        payload = press(self.user, message, data)
        query_id = payload["callback_query"]["id"]
        started = self.pressed = time.perf_counter()
        await self.send(payload)
        self.tally.updates += 1
        result = await self._expect(shows)
        answer = await self._expect(
            lambda c: c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == query_id
        )
        notice = answer.params.get("text")
        assert not notice, f"press refused: {notice}"
        self.tally.presses.append(result.answered - started)
        self.tally.spinners.append(answer.answered - started)
        return result

    async def _expect(self, wanted: Any) -> Answered:
        """The first call in this chat that ``wanted`` accepts; calls it passes over are kept for later."""
        for index, call in enumerate(self.backlog):
            if wanted(call):
                return self.backlog.pop(index)
        while True:
            async with asyncio.timeout(WAIT):  # not wait_for: that makes a task for every call awaited
                call = await self.inbox.get()
            if call.method == "sendMessage" and "went wrong" in str(call.params.get("text", "")):
                raise AssertionError("Something went wrong")
            if wanted(call):
                return call
            self.backlog.append(call)


def _edits(call: Answered, message: dict[str, Any]) -> bool:
    return call.method == "editMessageText" and int(call.params.get("message_id", 0)) == message["message_id"]


def _ruling_sent(call: Answered) -> bool:
    return call.method == "sendMessage" and any(data.startswith("rb:") for _l, data in buttons(call.result))


def _bot_processes(pid: int) -> list[tuple[Path, list[str], bool]]:
    """The bot's processes: its own and, with BOT_WORKERS above 1, its workers; each as its /proc folder, the
    fields of its stat after the name, and whether it is the bot's own process."""
    mine = [(found, fields) for found, fields in processes() if found == pid or fields[1] == str(pid)]
    return [(PROC / str(found), fields, found == pid) for found, fields in mine]


def _cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU time of the bot: its own process's, and its worker processes' (with BOT_WORKERS above 1)."""
    own = workers = 0.0
    for _folder, fields, is_own in _bot_processes(pid):
        seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        if is_own:
            own += seconds
        else:
            workers += seconds
    return own, workers


def _memory_mb(pid: int) -> float:
    """The bot's proportional set size in MB: its process and its workers together, each shared page counted
    once across them (from /proc/PID/smaps_rollup)."""
    total = 0.0
    for folder, _fields, _own in _bot_processes(pid):
        try:
            rollup = (folder / "smaps_rollup").read_text()
            total += next(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:")) / 1024
        except (OSError, StopIteration):
            continue
    return total


async def _settled(pid: int) -> None:
    """Wait until the bot has finished loading (its worked examples are read on a thread after it starts
    serving): its CPU time stops growing."""
    before = sum(_cpu_seconds(pid))
    while True:
        await asyncio.sleep(0.5)
        now = sum(_cpu_seconds(pid))
        if now - before < 0.02:
            return
        before = now


def _still_running(process: asyncio.subprocess.Process) -> None:
    """Stop the run, rather than wait for ever, when the bot has exited before it started serving."""
    if process.returncode is not None:
        raise SystemExit(f"the bot exited with {process.returncode} before serving (its error is above)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def run(
    directors: int,
    delay: float,
    webhook: bool,
    flood_limit: float,
    seed: int,
    floor: bool = False,
    workers: int = 1,
    warm_up: bool = False,
) -> dict[str, Any]:
    standin = await BotAPIStandIn(delay=0.0).start()
    folder = tempfile.mkdtemp(prefix="bench-load-")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "BOT_API_URL": standin.base_url,
        "BOT_DB": str(Path(folder) / "bot.sqlite3"),
        "BOT_LOG_LEVEL": "WARNING",
        "BOT_FLOOD_LIMIT": str(flood_limit),
        "BOT_WORKERS": str(workers),
    }
    port = _free_port()
    args = [str(ROOT / "bench" / "floor_bot.py")] if floor else ["-m", "bot", "telegram"]
    if webhook:
        args += ["--webhook", "https://bench.example.org/hook", "--port", str(port), "--secret-token", SECRET]
    process = await asyncio.create_subprocess_exec(sys.executable, *args, env=env, cwd=folder)
    # The driver's own HTTP client is aiohttp too, for the same reason as the bot's: it is cheap per request,
    # so the figures are the bot's and not the driver's.
    http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT), connector=aiohttp.TCPConnector(limit=64))
    try:
        if webhook:
            while standin.webhook is None:
                _still_running(process)
                await asyncio.sleep(0.05)

            async def send(payload: dict[str, Any]) -> None:
                update = standin.update(payload)
                async with http.post(
                    f"http://127.0.0.1:{port}/hook", json=update, headers={"X-Telegram-Bot-Api-Secret-Token": SECRET}
                ) as response:
                    response.raise_for_status()
        else:
            while not standin.polled.is_set():
                _still_running(process)
                await asyncio.sleep(0.05)

            async def send(payload: dict[str, Any]) -> None:
                standin.push(payload)

        await _settled(process.pid)
        standin.delay = delay
        rng = random.Random(seed)
        if warm_up:  # the same crowd does a whole ruling first, not measured: each process's paths run once
            warming = [Director(n, standin, send, Tally(), random.Random(rng.random())) for n in range(directors)]
            await asyncio.gather(*(d.rule() for d in warming))
            await asyncio.sleep(1.0)
            for director in warming:
                while not director.inbox.empty():
                    director.inbox.get_nowait()
        tally = Tally()
        crowd = [Director(n, standin, send, tally, random.Random(rng.random())) for n in range(directors)]
        (router, cpu), own, started = _cpu_seconds(process.pid), time.process_time(), time.perf_counter()
        await asyncio.gather(*(d.rule() for d in crowd))
        own = time.process_time() - own  # before reading /proc, which is the bench's measuring, not Telegram's
        elapsed, after = time.perf_counter() - started, _cpu_seconds(process.pid)
        memory = _memory_mb(process.pid)
        router, cpu = after[0] - router, after[1] - cpu
        if workers == 1:
            router, cpu = 0.0, router
    finally:
        await http.close()
        if process.returncode is None:
            process.terminate()
            await process.wait()
        await standin.stop()
    return {
        "directors": directors,
        "delay_ms": round(delay * 1000),
        "updates_per_s": tally.updates / elapsed,
        "press": _spread(tally.presses),
        "spinner": _spread(tally.spinners),
        "message": _spread(tally.messages),
        "rulings": tally.rulings,
        "errors": tally.errors,
        "seconds": elapsed,
        "updates": tally.updates,
        "cpu_ms_per_update": (cpu + router) * 1000 / max(1, tally.updates),
        "router_ms_per_update": router * 1000 / max(1, tally.updates),
        "core_share": (cpu + router) / elapsed,
        "driver_ms_per_update": own * 1000 / max(1, tally.updates),
        "load": os.getloadavg()[0],
        "memory_mb": memory,
    }


def _spread(values: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max in milliseconds."""
    if not values:
        return (float("nan"),) * 3
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000, ordered[-1] * 1000


def report(result: dict[str, Any]) -> str:
    press, spinner, message = result["press"], result["spinner"], result["message"]
    errors = result["errors"]
    kinds = sorted({e for e in errors})[:3]
    return (
        f"{result['directors']:>5} directors  delay {result['delay_ms']:>3} ms  "
        f"{result['updates_per_s']:7.1f} updates/s  "
        f"press p50 {press[0]:6.0f} p95 {press[1]:6.0f} max {press[2]:6.0f} ms  "
        f"spinner p95 {spinner[1]:6.0f} ms  description p95 {message[1]:6.0f} ms  "
        f"rulings {result['rulings']}/{result['directors']}  errors {len(errors)}"
        + (f" ({'; '.join(kinds)})" if kinds else "")
        + f"  [{result['updates']} updates in {result['seconds']:.1f} s; CPU an update: the bot "
        f"{result['cpu_ms_per_update']:.2f} ms"
        + (f" (its router {result['router_ms_per_update']:.2f} ms)" if result["router_ms_per_update"] else "")
        + f", stand-in and directors {result['driver_ms_per_update']:.2f} ms; "
        f"the bot had {result['core_share']:.0%} of a core, {1000 / result['cpu_ms_per_update']:.0f} updates/s on a "
        f"whole one; memory (PSS) after {result['memory_mb']:.0f} MB; load average {result['load']:.1f}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--directors", default="10,100", help="comma-separated crowd sizes (default 10,100)")
    parser.add_argument("--delays", default="80,0", help="the stand-in's answer delays in ms (default 80,0)")
    parser.add_argument("--webhook", action="store_true", help="updates POSTed to the webhook, not long polling")
    parser.add_argument("--flood-limit", type=float, default=0.0, help="BOT_FLOOD_LIMIT (default 0: lifted)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="BOT_WORKERS: the bot's worker processes (default 1)")
    parser.add_argument(
        "--warm-up", action="store_true", help="every director does one ruling first, not measured (a warm bot)"
    )
    parser.add_argument(
        "--floor", action="store_true", help="run bench/floor_bot.py (PTB and the transport, nothing of the bot)"
    )
    options = parser.parse_args()
    if options.floor and options.webhook:
        parser.error("--floor runs with long polling only")
    what = "the floor bot" if options.floor else "bot"
    print(
        f"{what} in {'webhook' if options.webhook else 'long polling'} mode, flood limit "
        f"{options.flood_limit or 'lifted'}, {options.workers} worker(s)"
        f"{', after a warm-up ruling each' if options.warm_up else ''}; "
        f"load average before: {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    for delay in (int(d) / 1000 for d in options.delays.split(",")):
        for directors in (int(n) for n in options.directors.split(",")):
            result = LOOP_RUN(
                run(
                    directors,
                    delay,
                    options.webhook,
                    options.flood_limit,
                    options.seed,
                    options.floor,
                    options.workers,
                    options.warm_up,
                )
            )
            print(report(result), flush=True)


if __name__ == "__main__":
    main()
