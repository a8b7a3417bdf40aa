"""The director's arithmetic (issue 23): Law 77 scores, Law 78 IMPs and matchpoints, Law 12C adjusted scores."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.laws import KnowledgeError, load_lawbook
from bot.scoring import ScoringError, imps, make_result, matchpoints, parse_result, parse_vulnerability, percentages
from bot.scoring.adjusted import artificial, outcomes, weighted_imps, weighted_matchpoints, weighted_percentage
from bot.scoring.conversion import parse_imp_scale
from bot.scoring.score import score

# --- an independent reading of Law 77, table-driven: every figure is a row of the printed table ----------

ODD_TRICK = {"C": [20] * 7, "D": [20] * 7, "H": [30] * 7, "S": [30] * 7, "NT": [40] + [30] * 6}
# Total penalty for 1, 2, 3 … 13 undertricks, (doubling, vulnerable) → list, from the first, additional and
# fourth-and-later rows.
FIRST = {(0, False): 50, (0, True): 100, (1, False): 100, (1, True): 200, (2, False): 200, (2, True): 400}
ADDITIONAL = {(0, False): 50, (0, True): 100, (1, False): 200, (1, True): 300, (2, False): 400, (2, True): 600}
FOURTH_ON = {(0, False): 0, (0, True): 0, (1, False): 100, (1, True): 0, (2, False): 200, (2, True): 0}
PENALTY = {
    key: list(
        itertools.accumulate([FIRST[key]] + [ADDITIONAL[key] + (FOURTH_ON[key] if n >= 3 else 0) for n in range(1, 13)])
    )
    for key in FIRST
}


def reference(level: int, strain: str, doubled: int, over: int, vulnerable: bool) -> int:
    if over < 0:
        return -PENALTY[doubled, vulnerable][-over - 1]
    factor = (1, 2, 4)[doubled]
    trick_score = sum(ODD_TRICK[strain][:level]) * factor
    total = trick_score
    if trick_score >= 100:
        total += 500 if vulnerable else 300
    else:
        total += 50
    if level == 6:
        total += 750 if vulnerable else 500
    if level == 7:
        total += 1500 if vulnerable else 1000
    total += (0, 50, 100)[doubled]
    each_over = {0: ODD_TRICK[strain][1], 1: 200 if vulnerable else 100, 2: 400 if vulnerable else 200}[doubled]
    return total + over * each_over


def printed_rows(heading: str, count: int) -> list[list[int]]:
    """The figures of the ``count`` lines after a heading in Law 77's text, as the 2017 Laws print them."""
    lines = load_lawbook().section("77").text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(heading))
    rows = lines[start + 1 : start + 1 + count]
    return [[int(word) for word in line.split() if word.isdigit()][-4:] for line in rows]


def test_the_independent_reading_is_law_77s_printed_table() -> None:
    assert printed_rows("For each odd trick bid and made", 3) == [
        [20, 20, 30, 30],
        [40, 40, 60, 60],
        [80, 80, 120, 120],
    ]
    suits = [[ODD_TRICK[strain][1] * 2**doubled for strain in "CDHS"] for doubled in range(3)]
    assert printed_rows("For each odd trick bid and made", 3) == suits
    assert printed_rows("For first odd trick bid and made", 3) == [[ODD_TRICK["NT"][0] * 2**d] for d in range(3)]
    assert printed_rows("For each additional odd trick", 3) == [[ODD_TRICK["NT"][1] * 2**d] for d in range(3)]
    for heading, table in (
        ("For first undertrick", FIRST),
        ("For each additional undertrick", ADDITIONAL),
        ("Bonus for the fourth", FOURTH_ON),
    ):
        assert printed_rows(heading, 3) == [[table[d, False], table[d, True]] for d in range(3)], heading
    assert printed_rows("(tricks made in excess of contract)", 3)[1:] == [[100, 200], [200, 400]]
    assert printed_rows("For making a slam", 1) == [[500, 750]]  # Small Slam (12 tricks)
    assert printed_rows("bid and made", 1)[0][-2:] == [1000, 1500]  # Grand Slam (all 13 tricks)


results = st.integers(1, 7).flatmap(
    lambda level: st.tuples(
        st.just(level),
        st.sampled_from(["C", "D", "H", "S", "NT"]),
        st.integers(0, 2),
        st.integers(-6 - level, 7 - level),
    )
)


@pytest.mark.slow  # fuzzing: 10,000 examples in CI
@given(results, st.booleans())
def test_every_score_matches_an_independent_reading_of_law_77(result, vulnerable) -> None:
    level, strain, doubled, over = result
    assert score(make_result(level, strain, doubled, over), vulnerable) == reference(
        level, strain, doubled, over, vulnerable
    )


def test_the_whole_scoring_table_matches_it_too() -> None:
    for level, strain, doubled, vulnerable in itertools.product(range(1, 8), ODD_TRICK, range(3), (False, True)):
        for over in range(-6 - level, 8 - level):
            made = make_result(level, strain, doubled, over)
            assert score(made, vulnerable) == reference(level, strain, doubled, over, vulnerable), made


@pytest.mark.slow  # fuzzing: 10,000 examples in CI
@given(results, st.booleans(), st.sampled_from(["{l}{s}{x}{r}", "{l}{S}{x}{r}", " {l} {s} {x} {r} "]))
def test_what_is_shown_reads_back(result, lower, form) -> None:
    level, strain, doubled, over = result
    symbol = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}[strain]
    text = form.format(l=level, s=strain, S=symbol, x="X" * doubled, r="=" if over == 0 else f"{over:+d}")
    assert parse_result(text.lower() if lower else text) == make_result(level, strain, doubled, over)


@pytest.mark.parametrize(
    ("typed", "vulnerable", "expected"),
    [
        ("4SX=", "vul", 790),  # the examples
        ("3NT+1", "nv", 430),
        ("6H-2", "vul", -200),
        ("4♠X=", "v", 790),
        ("7NTXX-3", "non", -1000),
        # one row of the printed table at a time
        ("1C=", "nv", 70),  # 20 a trick in ♣, part-score 50
        ("1HX=", "nv", 160),  # 60 doubled in a major, 50 part-score, 50 for making it doubled
        ("1SXX=", "vul", 720),  # 120 redoubled is a game: 500, and 100 for making it redoubled
        ("1NT=", "nv", 90),  # 40 for the first no-trump trick
        ("2NT=", "nv", 120),  # 30 for each after it
        ("3NT=", "vul", 600),
        ("5D=", "nv", 400),
        ("6C=", "nv", 920),  # small slam 500 not vulnerable
        ("6C=", "vul", 1370),  # 750 vulnerable
        ("7S=", "vul", 2210),  # grand slam 1500
        ("7NT=", "nv", 1520),  # 1000 not vulnerable
        ("2HX+1", "nv", 570),  # overtrick doubled 100
        ("2HX+1", "vul", 870),  # 200 vulnerable
        ("2HXX+1", "nv", 840),  # redoubled 200
        ("2HXX+1", "vul", 1240),  # 400 vulnerable
        ("3NT-1", "nv", -50),
        ("3NT-2", "vul", -200),
        ("3NTX-3", "nv", -500),  # 100, 200, 200
        ("3NTX-4", "nv", -800),  # and 300 from the fourth on
        ("3NTX-4", "vul", -1100),  # 200, 300 each
        ("3NTXX-4", "nv", -1600),
        ("7NTX-13", "vul", -3800),
        ("pass", "nv", 0),  # Law 77: all four pass, each side scores zero
    ],
)
def test_law_77s_printed_rows(typed, vulnerable, expected) -> None:
    assert score(parse_result(typed), parse_vulnerability(vulnerable)) == expected


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("7NT+1", "7NT+1 is impossible: that is 14 tricks and a deal has 13."),
        ("1NT-8", "1NT-8 is impossible: 1NT can go at most 7 down."),
        ("8S=", "Level 8 does not exist: a contract is from 1 to 7."),
        ("0S=", "Level 0 does not exist: a contract is from 1 to 7."),
        ("4Z=", "Unknown strain 'Z': use C, D, H, S or NT (or ♣ ♦ ♥ ♠)."),
        ("4X=", "'4X=' has no strain: use C, D, H, S or NT (or ♣ ♦ ♥ ♠)."),
        ("4S+0", "+0 is not a result: write = for a contract made exactly."),
        (
            "four spades",
            "Cannot read 'four spades' as a contract: write level, strain, X or XX, result (4SX=, 3NT+1, 6H-2).",
        ),
    ],
)
def test_an_impossible_or_malformed_contract_gets_one_line(typed, says) -> None:
    with pytest.raises(ScoringError) as raised:
        parse_result(typed)
    assert str(raised.value) == says


def test_an_unknown_vulnerability_gets_one_line() -> None:
    with pytest.raises(ScoringError, match=r"^Vulnerability 'red' not understood: write vul or nv\.$"):
        parse_vulnerability("red")


# --- Law 78 ---------------------------------------------------------------------------------------------

BOUNDARIES = [(0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (80, 2), (90, 3), (120, 3), (130, 4), (160, 4), (170, 5)]
BOUNDARIES += [(210, 5), (220, 6), (260, 6), (270, 7), (310, 7), (320, 8), (360, 8), (370, 9), (420, 9), (430, 10)]
BOUNDARIES += [(490, 10), (500, 11), (590, 11), (600, 12), (740, 12), (750, 13), (890, 13), (900, 14), (1090, 14)]
BOUNDARIES += [(1100, 15), (1290, 15), (1300, 16), (1490, 16), (1500, 17), (1740, 17), (1750, 18), (1990, 18)]
BOUNDARIES += [(2000, 19), (2240, 19), (2250, 20), (2490, 20), (2500, 21), (2990, 21), (3000, 22), (3490, 22)]
BOUNDARIES += [(3500, 23), (3990, 23), (4000, 24), (7600, 24)]


@pytest.mark.parametrize(("difference", "won"), BOUNDARIES)
def test_each_imp_band_starts_and_ends_where_law_78b_prints_it(difference, won) -> None:
    assert imps(difference) == won
    assert imps(-difference) == -won


def test_the_imp_scale_is_read_from_the_law_text() -> None:
    text = load_lawbook().section("78B").text
    scale = parse_imp_scale(text)
    assert len(scale) == 25 and scale[12] == 600
    assert all(f"{low}–" in text or f"{low}+" in text for low in scale)


def test_a_garbled_imp_scale_fails_loudly() -> None:
    text = load_lawbook().section("78B").text
    with pytest.raises(KnowledgeError, match="gap or overlap"):
        parse_imp_scale(text.replace("600–740", "610–740"))
    with pytest.raises(KnowledgeError, match="each IMP once"):
        parse_imp_scale(text.replace("600–740   12", "600–740   13"))
    with pytest.raises(KnowledgeError, match="end open"):
        parse_imp_scale(text.replace("4000+   24", ""))


def test_matchpoints_share_ties_two_per_score_beaten() -> None:
    assert matchpoints([420, 420, 450, -50]) == [3, 3, 6, 0]
    assert percentages([420, 420, 450, -50]) == [50.0, 50.0, 100.0, 0.0]
    assert matchpoints([100, 100, 100]) == [2, 2, 2]
    assert matchpoints([-50, 620]) == [0, 2]
    with pytest.raises(ScoringError, match="at least two scores"):
        matchpoints([])


# --- Law 12C ----------------------------------------------------------------------------------------------


def test_a_weighted_score_weights_each_outcomes_imps_and_matchpoints() -> None:
    # 60 % of 4♠= and 40 % of 4♠-1, vulnerable: +620 and -100 to declarer's side.
    made, down = score(parse_result("4S="), True), score(parse_result("4S-1"), True)
    weighted = outcomes([(made, 60), (down, "40%")])
    # Other table +620: 0 IMPs 60 % of the time, -12 (720) 40 %: -4.8. Other table -100: +12 × 60 % = +7.2.
    assert weighted_imps(weighted, 620) == pytest.approx(-4.8)
    assert weighted_imps(weighted, -100) == pytest.approx(7.2)
    # Field 620, 650, 170, -100: +620 beats two and ties one (5 of 8), -100 ties one (1 of 8).
    assert weighted_matchpoints(weighted, [620, 650, 170, -100]) == pytest.approx(0.6 * 5 + 0.4 * 1)
    assert weighted_percentage(weighted, [620, 650, 170, -100]) == pytest.approx(42.5)


def test_thirds_add_up_exactly() -> None:
    assert weighted_imps(outcomes([(620, "100/3"), (-100, "100/3"), (170, "100/3")]), 620) == pytest.approx(
        (0 - 12 - 10) / 3
    )


@pytest.mark.parametrize(
    ("pairs", "says"),
    [
        ([(620, 60), (-100, 30)], "The weights add up to 90 %, not 100 %."),
        ([], "A weighted score needs at least one outcome."),
        ([(620, 0), (-100, 100)], "Weight 0 % is not above zero: leave that outcome out."),
        ([(620, "lots"), (-100, 100)], "Weight 'lots' is not a percentage."),
    ],
)
def test_bad_weights_get_one_line(pairs, says) -> None:
    with pytest.raises(ScoringError) as raised:
        outcomes(pairs)
    assert str(raised.value) == says


def test_artificial_scores_are_law_12c2s() -> None:
    assert (artificial("pairs", "plus"), artificial("pairs", "average"), artificial("pairs", "minus")) == (60, 50, 40)
    assert (artificial("teams", "plus"), artificial("teams", "minus")) == (3, -3)
    with pytest.raises(ScoringError, match="pairs or teams"):
        artificial("individual", "plus")


# --- whatever is typed: a ScoringError's one line, or an answer; never another exception ---------------------

TYPED = (
    st.text(alphabet="0123456789+-=XxNTSHDCnt♠♥♦♣ .:*vulAKQJ%/", max_size=30)
    | st.sampled_from(["imps", "mp", "vul", "nv", "60%", "40%", "4S=", "plus", "pairs", "-100"])
    | st.text(max_size=30)
)


@pytest.mark.slow  # fuzzing: 10,000 examples in CI
@given(st.lists(TYPED, max_size=5))
def test_anything_typed_after_a_command_answers_or_says_why_in_one_line(words) -> None:
    from bot.scoring.deal import parse_deal
    from bot.scoring.service import adjust_text, imps_text, mp_text, score_text

    for compute in (score_text, imps_text, mp_text, adjust_text, lambda typed: parse_deal(" ".join(typed)).pbn()):
        try:
            assert compute(words)
        except ScoringError as exc:
            assert str(exc) and "\n" not in str(exc)
