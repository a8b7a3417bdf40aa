"""The director's arithmetic (issue 23): microseconds per score, IMP conversion, board of matchpoints and
weighted score (target: microseconds), and seconds per double-dummy table (target: under a second).

Each figure is the median of several timed batches (for a deal, of 7 solves), so one busy moment on a
shared machine does not set it; the first deal, which also loads endplay and its numpy and matplotlib, is
timed on its own.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.scoring import imps, matchpoints, parse_result, score
from bot.scoring.adjusted import outcomes, weighted_imps, weighted_matchpoints
from bot.scoring.deal import analyse, parse_deal
from bot.scoring.service import score_text

BATCHES = 7
DEALS = [
    "N:AKQ2.J98.T87.654 JT98.AKQ.AKQ.T98 7654.T76.J9.AKQJ 3.5432.65432.732",
    "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    "N:K843.T542.J6.A53 Q97.AQ9.KT82.KJ4 AJT65.K8.A97.T72 2.J763.Q543.Q986",
    "N:T7.AK8643.K2.A92 AQ86.Q2.QJ74.K64 KJ432.J95.A96.J5 95.T7.T853.QT873",
]
DEAL_KINDS = ["solid suits, mostly", "four solid suits", "balanced, shared honours", "a long suit each side"]


def per_call(work: Callable[[], object], calls: int) -> float:
    """Median seconds per call over BATCHES batches of ``calls`` calls."""
    times = []
    for _ in range(BATCHES):
        start = time.perf_counter()
        for _ in range(calls):
            work()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def main() -> None:
    made = parse_result("4SX=")
    board = [420, 420, 450, -50, 620, 170, 400, -100, 420, 450, 140, 650]
    weighted = outcomes([(620, 60), (-100, 40)])
    figures = {
        "read a contract (parse 7NTXX-3)": per_call(lambda: parse_result("7NTXX-3"), 20_000),
        "score a result (4SX= vul)": per_call(lambda: score(made, True), 20_000),
        "score as typed, service text (score 4SX= vul)": per_call(lambda: score_text(["4SX=", "vul"]), 20_000),
        "IMPs of a difference (720)": per_call(lambda: imps(720), 20_000),
        "matchpoints of a 12-table board": per_call(lambda: matchpoints(board), 5_000),
        "weighted score at IMPs (60/40)": per_call(lambda: weighted_imps(weighted, 620), 5_000),
        "weighted score at matchpoints (60/40, 11 tables)": per_call(
            lambda: weighted_matchpoints(weighted, board[1:]), 5_000
        ),
    }
    for name, seconds in figures.items():
        print(f"{name:<64} {seconds * 1e6:8.2f} µs")
    deals = [parse_deal(text) for text in DEALS]
    start = time.perf_counter()
    analyse(deals[0])
    print(f"{'first double-dummy table (endplay loaded too)':<64} {time.perf_counter() - start:8.3f} s")
    for number, deal in enumerate(deals, start=1):
        seconds = per_call(lambda deal=deal: analyse(deal), 1)
        cpu = time.process_time()
        analyse(deal)
        cpu = time.process_time() - cpu
        name = f"double-dummy table and par, deal {number} ({DEAL_KINDS[number - 1]})"
        print(f"{name:<64} {seconds:8.3f} s  (CPU, all solver threads: {cpu:.3f} s)")


if __name__ == "__main__":
    main()
