"""The measure of players' answers: a question is right when the first thing shown cites a section that
decides it; routing and declining are measured on the same shared step the front ends use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.answers import Replies, build_replies
from bot.answers.evaluate import covers, measure_file, read_rows
from bot.dialogs import load_charts
from bot.laws import load_lawbook
from bot.matching import build_matcher, chart_entries


@pytest.fixture(scope="module")
def replies() -> Replies:
    return build_replies(load_lawbook(), load_charts(), build_matcher(chart_entries()))


@pytest.mark.parametrize(
    ("cited", "deciding", "right"),
    [
        ("16B1", "16B1", True),
        ("16B1(a)", "16B1", True),  # a part of the deciding section
        ("64B", "64B4", True),  # the lettered section that holds it
        ("77", "77", True),
        ("40B2(a)(iii)", "40B", True),
        ("16", "16B1", False),  # the whole law says nothing of which part
        ("16B2", "16B1", False),
        ("61A", "16B1", False),
        ("Definitions", "definitions", True),
        ("Definitions", "16B1", False),
    ],
)
def test_a_cited_section_covers_its_parts_and_a_lettered_section_its_subsections(
    cited: str, deciding: str, right: bool
) -> None:
    assert covers(cited, deciding) is right


def _file(tmp_path: Path, name: str, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_each_kind_of_file_is_measured_as_what_it_holds(replies: Replies, tmp_path: Path) -> None:
    questions = _file(
        tmp_path,
        "q.jsonl",
        [
            {
                "id": "q-1",
                "text": "my partner hesitated, am I barred from bidding?",
                "deciding": ["16B1"],
                "kind": "ui",
            },
            {"id": "q-2", "text": "what happens after a lead out of turn?", "deciding": ["12C"], "kind": "lead"},
            {"id": "q-3", "text": "LHO led out of turn", "deciding": ["54A"], "kind": "lead"},
        ],
    )
    measure = measure_file(replies, "q.jsonl", read_rows(questions))
    assert measure.measure == "questions" and [o.right for o in measure.outcomes] == [True, False, False]
    assert measure.by_group() == {"lead": (0, 2), "ui": (1, 1)}
    assert measure.by_half() == {"odd": (1, 2), "even": (0, 1)}  # tuned on one half, checked on the other
    assert [o.special for o in measure.outcomes] == [True, False, False]  # the hesitation's own answer
    assert [o.chart_fits for o in measure.outcomes] == [False, False, True]  # the situations, the lead's chart first
    routing = _file(
        tmp_path,
        "r.jsonl",
        [
            {"text": "I led out of turn, what's the penalty?", "route": "answer"},
            {"text": "LHO led out of turn", "route": "chart"},
        ],
    )
    assert measure_file(replies, "r.jsonl", read_rows(routing)).right == 1.0
    declines = _file(
        tmp_path,
        "d.jsonl",
        [{"text": "what's the best opening lead against 3NT?"}, {"text": "can I lead out of turn?", "decline": False}],
    )
    measured = measure_file(replies, "d.jsonl", read_rows(declines))
    assert measured.measure == "declines" and [o.right for o in measured.outcomes] == [True, True]


def test_the_command_prints_a_figure_per_file_and_refuses_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    routing = _file(tmp_path, "r.jsonl", [{"text": "LHO led out of turn", "route": "chart"}])
    assert main(["answers-eval", str(routing)]) == 0
    assert "r.jsonl: 1 routing, routed right 1.000" in capsys.readouterr().out
    bad = _file(tmp_path, "bad.jsonl", [{"text": "x", "deciding": []}])
    assert main(["answers-eval", str(bad)]) == 2
    assert '"deciding" must be a non-empty list' in capsys.readouterr().err
    assert main(["answers-eval", str(tmp_path / "none.jsonl")]) == 2


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("name", "floor"),
    # First answer citing a deciding section: 0.925 on the blind development set (0.535 before issue 26's
    # work), 0.947 on our own 471 questions (126 of them written blind in the seventh round, 38 before the eighth
    # round's changes, 38 in the ninth and 29 in the tenth, so lower than the 0.979 of the first 238), 0.960 on
    # the second development set; the ten spent holdouts, now development data, 0.833 / 0.840 / 0.930 / 0.833 /
    # 0.833 / 0.833 / 0.767 / 0.733 / 0.633 / 0.733 after the tenth round (first runs: 0.633 / 0.580 / 0.630 /
    # 0.733 / 0.583 / 0.533 / 0.650 / 0.600 / 0.600 / 0.733); 0.911 on the eleventh round's 180 players' own
    # situations (in sample; 0.828 before that round's changes); 0.850 on the twelfth holdout, written blind
    # (first run 0.838); the thirteenth, written blind, 0.925 and 0.775 on their first runs (0.975 and 0.850 after
    # the thirteenth round, in sample); the thirteenth round's 30 of our own (in sample; 0.700 before its changes).
    # The fourteenth, written blind and run once: 0.830 and 0.860; the fifteenth, at the session's end, 0.800. The
    # fourteenth round's 30 of our own: 0.833 before its changes, 1.000 after (in sample). The fifteenth round's
    # 40 stories of our own: 0.500 before its changes, 0.900 after (in sample). The sixteenth round's 20 of
    # our own, on the kinds a strict reading of the sixteenth blind set found: 0.750 before its changes (10 right
    # read strictly), 1.000 after (in sample). The seventeenth round's 20 of our own, on the kinds the strict
    # reading of the seventeenth blind set found: 0.600 before its changes, 1.000 after (in sample). The
    # twentieth round's 40 of our own, on the kinds both strict readings left incomplete or off the point: 0.800
    # before its changes, 1.000 after (in sample); the sixteenth and seventeenth blind sets, spent, 1.000 and 0.980
    # after that round (in sample). The twenty-third round's 25 of our own (own-y), on the kinds of the
    # twenty-first blind set's misses: 0.840 before its changes, 1.000 after (in sample); the twenty-first set,
    # spent, 0.810 before and 0.990 after (in sample). The twenty-fourth round's 25 of our own (own-a2), on the
    # kinds of the twenty-second blind set's misses and its strict reading: 0.560 before its changes, 1.000 after
    # (in sample); the twenty-second set, spent, 0.810 before and 1.000 after (in sample). The twenty-fifth
    # round's 25 of our own (own-b2), on the kinds of the twenty-third set's strict reading: 0.640 before its
    # changes, 1.000 after (in sample); the twenty-third set, spent, 0.900 before and 1.000 after (in sample).
    # The twenty-sixth round's 25 of our own (own-c), on the kinds of the twenty-fourth set's strict reading: 0.840
    # before its changes, 1.000 after (in sample); the twenty-fourth set, spent, 0.900 before and 0.980 after.
    # The twenty-seventh round's 20 of our own (own-d), on the kinds of the twenty-fifth sets' strict readings: 0.750
    # before its changes, 1.000 after (in sample); the twenty-fifth sets, spent, 0.880 and 0.850 before and 0.950
    # and 0.940 after (in sample).
    # The twenty-eighth round's 10 of our own (own-e), on the WRONG kinds of the twenty-sixth sets' strict readings,
    # written after the mends (in sample): 1.000.
    # The twenty-ninth round's 20 of our own (own-f), on the kinds of the twenty-seventh sets' strict readings,
    # written before the mends: 0.650 before, 1.000 after (in sample).
    # The thirtieth round's 20 of our own (own-g), on the kinds of the twenty-eighth sets' strict readings, written
    # before the mends: 0.700 before, 1.000 after (in sample).
    # The thirty-first round's 20 of our own (own-h), on the kinds of the thirtieth sets' strict readings, written
    # before the mends: 0.600 before, 1.000 after (in sample).
    # The thirty-second round's 27 of our own (own-z3), on the kinds of the thirty-third set B's strict reading,
    # written before the mends: 0.630 before, 1.000 after (in sample); the thirty-third set B, spent, 0.840 before
    # and 0.950 after (in sample).
    # The thirty-second round's 30 of our own (own-z2), on the kinds of the thirty-third set's strict reading
    # (its nine WRONG ideas and 28B, each with a look-alike probe), written before the mends: 0.700 before, 1.000
    # after (in sample); the thirty-third set, spent, 0.800 before and 0.990 after (in sample).
    # The thirty-third round's 30 of our own (own-z5), on the kinds of the thirty-fourth set B's strict reading
    # (its nine WRONG ideas and 45D2, each twice in other voices with a look-alike probe), written before the
    # mends: 0.700 before, 1.000 after (in sample); the thirty-fourth set B, spent, 0.760 before and 0.930 after
    # (in sample).
    # The thirty-fourth round's 24 of our own (own-z6), on the kinds of the thirty-fifth set's strict reading (its
    # four WRONG ideas, 28A, 17D3, 9A1, 90B2, and four OFF POINT ones, 10C2, 21B1(b), 9A5, 54B1, each twice in other
    # voices with a look-alike probe), written before the mends: 0.625 before, 1.000 after (in sample); the
    # thirty-fifth set, spent, 0.760 before and 0.940 after (in sample).
    # The thirty-fourth round's 27 of our own (own-z7), on the kinds of the thirty-fifth set B's strict reading
    # (nine ideas, each twice in other voices with a look-alike probe), written before the mends: 0.815 before,
    # 1.000 after (in sample); the thirty-fifth set B, spent, 0.720 before and 0.860 after (in sample), 0.920 with
    # eight labels the audit found wrong set to the deciding sections (0.780 before under those labels).
    # The floors sit a little under, so a regression fails.
    [
        ("player-questions.jsonl", 0.88),
        ("player-questions-own.jsonl", 0.93),
        ("player-questions-own-k.jsonl", 0.88),
        ("player-questions-own-m.jsonl", 0.85),
        ("player-questions-own-n.jsonl", 0.9),
        ("player-questions-own-s.jsonl", 0.85),
        ("player-questions-own-t.jsonl", 0.9),
        ("player-questions-own-u.jsonl", 0.9),
        ("player-questions-own-v.jsonl", 0.92),
        ("player-questions-own-w.jsonl", 0.9),
        ("player-questions-own-x.jsonl", 0.85),
        ("player-questions-own-y.jsonl", 0.9),
        ("player-questions-own-a2.jsonl", 0.92),
        ("player-questions-own-b2.jsonl", 0.92),
        ("player-questions-own-c.jsonl", 0.92),
        ("player-questions-own-d.jsonl", 0.95),
        ("player-questions-own-e.jsonl", 0.9),
        ("player-questions-own-f.jsonl", 0.95),
        ("player-questions-own-g.jsonl", 0.95),
        ("player-questions-own-h.jsonl", 0.95),
        ("player-questions-own-z3.jsonl", 0.95),
        ("player-questions-own-z2.jsonl", 0.97),
        ("player-questions-own-z4.jsonl", 0.95),
        ("player-questions-own-z5.jsonl", 0.97),
        ("player-questions-own-z6.jsonl", 0.95),
        ("player-questions-own-z7.jsonl", 0.96),
        ("player-questions-dev2.jsonl", 0.92),
        ("player-questions-holdout.jsonl", 0.78),
        ("player-questions-holdout2.jsonl", 0.79),
        # 0.89 → 0.88: a skip-bid story ("LHO immediately bids. Partner raises to 5") reached Law 16 only on the word
        # "raises"; with "raised her eyebrows" a tempo-and-conduct keyword (walk 26, #62) that luck is gone.
        ("player-questions-holdout3.jsonl", 0.88),
        ("player-questions-holdout4.jsonl", 0.82),
        ("player-questions-holdout5.jsonl", 0.80),
        ("player-questions-holdout6.jsonl", 0.78),
        ("player-questions-holdout7.jsonl", 0.72),
        ("player-questions-holdout8.jsonl", 0.67),
        ("player-questions-holdout9.jsonl", 0.58),
        ("player-questions-holdout10.jsonl", 0.71),
        ("player-questions-holdout12.jsonl", 0.83),
        ("player-questions-holdout13.jsonl", 0.95),
        ("player-questions-holdout13b.jsonl", 0.83),
        ("player-questions-holdout14.jsonl", 0.81),
        ("player-questions-holdout14b.jsonl", 0.84),
        ("player-questions-holdout15.jsonl", 0.78),
        ("player-questions-holdout16.jsonl", 0.97),
        ("player-questions-holdout17.jsonl", 0.95),
        ("player-questions-holdout19.jsonl", 0.85),
        ("player-questions-holdout20.jsonl", 0.87),
        ("player-questions-holdout21.jsonl", 0.95),
        ("player-questions-holdout22.jsonl", 0.95),
        ("player-questions-holdout23.jsonl", 0.95),
        ("player-questions-holdout24.jsonl", 0.95),
        ("player-questions-holdout25.jsonl", 0.93),
        ("player-questions-holdout25b.jsonl", 0.92),
        ("player-questions-holdout26.jsonl", 0.86),
        ("player-questions-holdout26b.jsonl", 0.82),
        ("player-questions-holdout27.jsonl", 0.87),
        ("player-questions-holdout27b.jsonl", 0.89),
        ("player-questions-holdout28.jsonl", 0.97),
        ("player-questions-holdout28b.jsonl", 0.97),
        ("player-questions-holdout30.jsonl", 0.97),
        ("player-questions-holdout30b.jsonl", 0.97),
        ("player-questions-holdout32.jsonl", 0.84),
        ("player-questions-holdout32b.jsonl", 0.89),
        ("player-questions-holdout33.jsonl", 0.98),
        ("player-questions-holdout33b.jsonl", 0.94),
        ("player-questions-holdout34.jsonl", 0.97),
        ("player-questions-holdout34b.jsonl", 0.92),
        ("player-questions-holdout35.jsonl", 0.93),
        ("player-questions-holdout35b.jsonl", 0.91),
        ("player-questions-holdout36.jsonl", 0.78),
        ("player-questions-holdout36b.jsonl", 0.75),
    ],
)
def test_players_questions_get_a_deciding_rule_first(replies: Replies, name: str, floor: float) -> None:
    measure = measure_file(replies, name, read_rows(DATA / name))
    assert measure.right >= floor, [o.text for o in measure.outcomes if not o.right]


def test_every_special_case_answers_a_question_of_our_own(replies: Replies) -> None:
    """Each case's conditions are met by at least one question written for it, beside the blind sets."""
    reached = {
        topic.key
        for name in (
            "player-questions-own.jsonl",
            "player-questions-own-k.jsonl",
            "player-questions-own-m.jsonl",
            "player-questions-own-n.jsonl",
            "player-questions-own-s.jsonl",
            "player-questions-own-t.jsonl",
            "player-questions-own-u.jsonl",
            "player-questions-own-v.jsonl",
            "player-questions-own-w.jsonl",
            "player-questions-own-x.jsonl",
            "player-questions-own-y.jsonl",
            "player-questions-own-a2.jsonl",
            "player-questions-own-b2.jsonl",
            "player-questions-own-c.jsonl",
            "player-questions-own-d.jsonl",
            "player-questions-own-e.jsonl",
            "player-questions-own-f.jsonl",
            "player-questions-own-g.jsonl",
            "player-questions-own-h.jsonl",
            "player-questions-own-z3.jsonl",
            "player-questions-own-z2.jsonl",
            "player-questions-own-z4.jsonl",
            "player-questions-own-z5.jsonl",
            "player-questions-own-z6.jsonl",
        )
        for row in read_rows(DATA / name)
        if (topic := replies.answers.read(row.text).topic) is not None and topic.kind == "answer"
    }
    assert {case.id for case in replies.answers.cases} - reached == set()


def test_no_message_to_decline_starts_anything(replies: Replies) -> None:
    for name in ("declines.jsonl", "player-declines.jsonl"):
        assert measure_file(replies, name, read_rows(DATA / name)).right == 1.0
