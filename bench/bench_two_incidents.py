"""Two incidents in one story: does what a description shows first offer both, in the order they happened?

`python -m bot eval` counts a story right when either labelled law ranks, so it cannot tell a reply that offers
both incidents from one that offers only one. This bench goes through the step the terminal and Telegram share
(``Replies.to_text``) and reads what is shown first: the numbered situations (or a summary's chart and law).

Two-incident set: the rows of ``queries-written-holdout12.jsonl`` of kind "two" (the first incident's law
first; spent, read). No other labelled file holds a set of such stories: of its rows with two laws no one chart
serves, told with "later", "then", "also" (41), nearly all are one incident with two laws (bench/RESULTS.md). A
labelled law counts as offered when a shown chart serves it (the law is among the chart's laws, as the matcher
maps laws to charts) or a shown law is it; "both" needs two different offers, one for each. "Told as two": the
reply opens "Two things happened here" (``MatchResult.incidents``). "In order": of the stories offering both,
those whose first incident's offer comes first. "Second kept": of the stories told as two, those whose first offer,
followed as a director picks it, starts its chart with the other offer's chart kept for after its ruling ("Now the
second thing: …"); "labelled" when that chart serves a labelled law.

Single-incident sets: the rows of ``queries-indep-l``, ``-m`` and ``-n`` with one law; a reply told as two
there is a spurious second incident. Every labelled message (``queries-*.jsonl``): of those whose match holds two
incidents, how often the first offer serves a labelled law as shown, and as it would be shown were the split not
told (the cost or gain of telling it). ``queries-split-u`` (written for issue 22's false second incidents, in sample):
20 stories of one incident whose second sentence finishes the first, and 10 of two (kind "two").

    PYTHONPATH=. python3 bench/bench_two_incidents.py [--misses]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, replace
from pathlib import Path

from bot.answers import Act, Kind, Replies, Reply, build_replies
from bot.dialogs import load_charts
from bot.laws import load_lawbook
from bot.laws.refs import law_number
from bot.matching import build_matcher, chart_entries

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
TWO = "Two things happened here"
MODES = ("director", "auto")  # chart first (a director describing), and by how it reads (the default)
SINGLE = ("queries-indep-l.jsonl", "queries-indep-m.jsonl", "queries-indep-n.jsonl")
OWN = "queries-split-u.jsonl"  # 20 stories of one incident told in two or three sentences, 10 of two (in sample)


@dataclass(frozen=True, slots=True)
class Row:
    text: str
    laws: tuple[int, ...]  # the first incident's law first


@dataclass(frozen=True, slots=True)
class Shown:
    """What a reply offers first, for one story."""

    told: bool  # opens "Two things happened here"
    offered: int  # how many of the story's two incidents a shown offer serves (two different offers for both)
    in_order: bool  # both offered and the first incident's offer comes first


def rows_of(path: Path, kind: str | None = None) -> list[Row]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [
        Row(r["query"], tuple(law_number(str(n)) for n in r["laws"])) for r in rows if kind in (None, r.get("kind"))
    ]


def serves(replies: Replies, offer_act: Act, key: str, law: int) -> bool:
    if offer_act is Act.CHART and key in replies.charts:
        return law in {law_number(ref) for ref in replies.charts[key].laws}
    return offer_act is Act.LAW and law_number(key) == law


def shown(replies: Replies, reply: Reply, first: int, second: int) -> Shown:
    """Which of the two incidents the reply's first offers serve, each by an offer of its own."""
    offers = (
        [o for o in reply.offers if o.act in (Act.CHART, Act.LAW)]
        if reply.kind in (Kind.SITUATIONS, Kind.SUMMARY)
        else []
    )
    at = {law: [i for i, o in enumerate(offers) if serves(replies, o.act, o.key, law)] for law in (first, second)}
    pairs = [(i, j) for i in at[first] for j in at[second] if i != j]
    told = reply.kind is Kind.SITUATIONS and reply.text.startswith(TWO)
    if pairs:
        i, j = min(pairs, key=lambda p: (max(p), p[0] + p[1]))
        return Shown(told, 2, i < j)
    return Shown(told, 1 if at[first] or at[second] else 0, False)


def report(replies: Replies, name: str, rows: list[Row], misses: bool) -> None:
    """One line per mode: stories, both offered, one, none, in order, told as two; then each miss if asked."""
    for mode in MODES:
        replied = [(row, replies.to_text(row.text, mode)) for row in rows]
        seen = [(row, reply, shown(replies, reply, *row.laws[:2])) for row, reply in replied]
        both = [s for _r, _reply, s in seen if s.offered == 2]
        one, none = (sum(s.offered == n for _r, _reply, s in seen) for n in (1, 0))
        told, told_both = sum(s.told for *_, s in seen), sum(s.told and s.offered == 2 for *_, s in seen)
        kept, labelled = kept_counts(replies, [(row, reply) for row, reply, s in seen if s.told])
        print(
            f"{name} [{mode}]: {len(rows)} stories; both offered {len(both)}, one {one}, none {none}; "
            f"first incident first {sum(s.in_order for s in both)} of {len(both)}; told as two {told} "
            f"(both right {told_both}; second kept {kept}, labelled {labelled})"
        )
        for row, reply, s in seen if misses and mode == "director" else ():
            if s.offered < 2 or not s.in_order:
                offers = [o.key for o in reply.offers if o.key]
                print(f"    {row.laws} offered {s.offered} in order {s.in_order} told {s.told} {offers}: {row.text}")


def second_kept(replies: Replies, reply: Reply) -> str | None:
    """The chart the first offer's ruling offers next when picked (a story told as two), or None."""
    first = reply.offers[0]
    started = replies.follow(first.act, first.key, first.then)
    return started.second.chart if started.second is not None else None


def kept_counts(replies: Replies, told: list[tuple[Row, Reply]]) -> tuple[int, int]:
    """Of replies told as two: the first offer keeps the second's chart for after its ruling; that chart is labelled."""
    kept = [(row, reply, second_kept(replies, reply)) for row, reply in told]
    right = [(row, chart) for row, reply, chart in kept if chart is not None and chart == reply.offers[1].key]
    return len(right), sum(any(serves(replies, Act.CHART, chart, law) for law in row.laws) for row, chart in right)


def first_offer_serves(replies: Replies, reply: Reply, laws: tuple[int, ...]) -> bool:
    offers = [o for o in reply.offers if o.act in (Act.CHART, Act.LAW)]
    return bool(offers) and any(serves(replies, offers[0].act, offers[0].key, law) for law in laws)


def split_cost(replies: Replies) -> None:
    """Over every labelled message whose match holds two incidents: the first offer as shown, and without the split."""
    rows = [row for path in sorted(DATA.glob("queries-*.jsonl")) for row in rows_of(path)]
    matcher = replies.answers.matcher
    results = [(row, matcher.match(row.text)) for row in rows]
    split = [(row, result) for row, result in results if len(result.incidents) >= 2]
    shown = [(row, replies.situations(result)) for row, result in split]
    shown_now = sum(first_offer_serves(replies, reply, row.laws) for row, reply in shown)
    unsplit = sum(
        first_offer_serves(replies, replies.situations(replace(result, incidents=(), told=())), row.laws)
        for row, result in split
    )
    told = [(row, reply) for row, reply in shown if reply.text.startswith(TWO)]
    kept, labelled = kept_counts(replies, told)
    print(
        f"all labelled messages: {len(rows)}; two incidents matched {len(split)}, told as two {len(told)} "
        f"(second kept {kept}, labelled {labelled}); first offer labelled {shown_now} as shown, {unsplit} were the "
        "split not told"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print each two-incident story not offered both")
    misses = parser.parse_args().misses
    written = rows_of(DATA / "queries-written-holdout12.jsonl")  # an example file now (written-12): left out
    matcher = build_matcher(chart_entries(), leave_out=[r.text for r in written])
    replies = build_replies(load_lawbook(), load_charts(), matcher)
    report(replies, "written-holdout12, kind two", rows_of(DATA / "queries-written-holdout12.jsonl", "two"), misses)
    report(replies, "split-u, kind two", rows_of(DATA / OWN, "two"), misses)
    for mode in MODES:
        told = [r.text for r in rows_of(DATA / OWN) if r not in rows_of(DATA / OWN, "two")]
        told = [t for t in told if replies.to_text(t, mode).text.startswith(TWO)]
        print(f"{OWN}, one incident [{mode}]: 20 stories; told as two incidents {len(told)}")
        for text in told if misses else ():
            print(f"    {text}")
    for file in SINGLE:
        rows = [r for r in rows_of(DATA / file) if len(r.laws) == 1]
        for mode in MODES:
            told = sum(replies.to_text(r.text, mode).text.startswith(TWO) for r in rows)
            print(f"{file}, one law [{mode}]: {len(rows)} messages; told as two incidents {told}")
    split_cost(replies)


if __name__ == "__main__":
    main()
