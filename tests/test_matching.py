"""The matcher: table language to the right law, explained; bad input answered; quality held above a floor."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.laws import load_lawbook
from bot.laws.book import KNOWLEDGE_DIR as KNOWLEDGE
from bot.matching import Matcher, build_matcher, chart_entries, token_cache
from bot.matching.actions import lint_actions
from bot.matching.compass import load_compass
from bot.matching.deciders import decide, lint_deciders, load_deciders
from bot.matching.evaluate import evaluate, run_eval
from bot.matching.examples import EXAMPLES_DIR, Labelled, lint_examples, read_labelled, same_query
from bot.matching.turns import TURNS_FILE, heard, lint_turns, load_relations

DATA = Path(__file__).parent / "data" / "queries.jsonl"
BLIND = DATA.with_name("queries-blind.jsonl")
# Written blind like the examples and kept out of them: the first runs were the honest measure.
HELD_OUT = {name: DATA.with_name(f"queries-{name}.jsonl") for name in ("indep-l", "indep-m", "indep-n")}
INDEPENDENT = {path.stem: path for path in sorted(EXAMPLES_DIR.glob("*.jsonl"))}  # worked examples
# Real questions from public forums and columns kept out of the examples (queries-real-*.jsonl), measured only on
# their first runs (bench/RESULTS.md), so no floor is asserted on them. The first three, once measured, became
# worked examples (real-forums-6, -7 and -8).
REAL_HELD_OUT = tuple(sorted(DATA.parent.glob("queries-real-*.jsonl")))
_MATCHER = build_matcher(chart_entries())  # one for the property test (hypothesis does not mix with fixtures)
# Floors a little under what the matcher reaches with all 44 charts installed on 2026-11-23 (dev, the held-out
# slices, each set of worked examples measured with its own queries left out, and indep-l, -m and -n, written
# blind like the examples but never among them: 0.844/0.969, 0.847/0.955 and 0.839/0.959 on their first
# runs; bench/RESULTS.md has every figure). Chart keywords and new examples shift word weights, so leave a
# margin: a regression fails.
FLOORS = {
    "dev": (0.92, 0.97),
    "holdout": (0.88, 0.96),
    "holdout2": (0.92, 0.96),
    "indep-a": (0.88, 0.96),
    "indep-b": (0.84, 0.94),
    "indep-c": (0.75, 0.86),  # raised with the weighted naive Bayes (2026-11-26): 0.788 / 0.912
    "indep-d": (0.84, 0.93),
    "indep-e": (0.67, 0.80),
    "indep-f": (0.74, 0.86),  # the same: 0.771 / 0.886
    "indep-g": (0.80, 0.89),
    "indep-h": (0.71, 0.85),
    "indep-i": (0.77, 0.89),  # the same: 0.787 / 0.914
    "indep-j": (0.84, 0.91),
    "indep-k": (0.66, 0.80),
    "indep-l": (0.82, 0.95),
    "indep-m": (0.82, 0.94),
    "indep-n": (0.81, 0.94),
    "real-forums": (0.57, 0.80),
    "real-forums-2": (0.53, 0.74),
    "real-forums-3": (0.60, 0.78),  # its first run, left out: 0.609 / 0.826; weighted naive Bayes 0.652 / 0.826
    "real-forums-4": (0.55, 0.73),  # first run, left out (with -5 among the examples): 0.600 / 0.778
    "real-forums-5": (0.60, 0.84),  # first run, left out (with -4 among the examples): 0.622 / 0.889; now 0.667 / 0.911
    "real-forums-6": (0.58, 0.81),  # the spent held-out sets as examples, each left out on its first run
    "real-forums-7": (0.45, 0.58),  # as one: 0.674 / 0.860, 0.467 / 0.600 and 0.591 / 0.795 (their held-out
    "real-forums-8": (0.60, 0.78),  # runs, as never-examples: 0.605 / 0.861, 0.567 / 0.667 and 0.636 / 0.841)
    # real-forums-6 at 0.58: 0.628 → 0.605 (one post) with the written sets below as examples (twenty-fifth round),
    # → 0.581 / 0.907 with written-23 (a wrong explanation put right at the lead now reads 75 first, 20/21 third).
    # The spent written held-out sets as worked examples (2026-11-27, twenty-fifth round), each left out by file,
    # the other nine among the examples: a little under 0.833 / 0.925, 0.892 / 0.975, 0.892 / 0.942, 0.875 / 0.912,
    # 0.890 / 0.960, 0.820 / 0.920, 0.890 / 0.960, 0.820 / 0.920, 0.900 / 1.000 and 0.810 / 0.960.
    "written-12": (0.80, 0.89),
    "written-13": (0.86, 0.94),
    "written-14": (0.86, 0.91),
    "written-15": (0.84, 0.88),
    "written-16": (0.86, 0.93),
    "written-17": (0.79, 0.89),
    "written-19": (0.86, 0.93),
    "written-20": (0.79, 0.89),
    "written-21": (0.87, 0.97),
    "written-22": (0.78, 0.93),
    "written-23": (0.82, 0.94),  # first run 0.780 / 0.910, never an example until spent (0.860 / 0.960)
    "written-24": (0.82, 0.93),  # first run 0.840 / 0.950, never an example until spent (0.850 / 0.950)
    "written-25": (0.87, 0.90),  # first run 0.890 / 0.920 and again at a895737, never an example until spent
}  # -7 and -8 raised with the weighted naive Bayes (2026-11-26): 0.500 / 0.633 and 0.659 / 0.841


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return build_matcher(chart_entries())


@pytest.mark.parametrize(
    ("text", "law"),
    [
        ("LHO led out of turn", 54),
        ("he claimed but trumps are out", 70),
        ("dummy says I revoked", 61),
        ("their 2NT was unalerted and partner led the wrong suit", 21),  # a missing alert, however said
        ("bid too low", 27),
        ("can I change my bid", 25),
        ("what if I play from the wrong hand", 55),
        ("การเปิดนำผิดคน", 54),
        ("insuficient bid", 27),
        ("UI from pd's BIT", 16),
        ("N had 14, S had 12", 13),
    ],
)
def test_table_language_finds_the_law(matcher: Matcher, text: str, law: int) -> None:
    result = matcher.match(text)
    assert result.confident and law in [c.law for c in result.candidates]


@pytest.mark.parametrize(
    ("text", "law"),
    [
        ("the first hand was passed in, what now", 22),
        ("my opponent used bad language at the table", 74),
        ("partner hitched before passing and I bid on", 16),
    ],
)
def test_directors_words_and_british_ones_find_the_law(matcher: Matcher, text: str, law: int) -> None:
    top = matcher.match(text).candidates
    assert top and top[0].law == law, top


@pytest.mark.parametrize(
    ("american", "british"),
    [
        ("he was penalized for his behavior", "he was penalised for his behaviour"),
        (
            "is it an offense to defend slowly? the defense took ages",
            "is it an offence to defend slowly? the defence took ages",
        ),
        ("partner emphasized the double", "partner emphasised the double"),
    ],
)
def test_american_and_british_spellings_are_read_alike(matcher: Matcher, american: str, british: str) -> None:
    assert [(c.law, c.score) for c in matcher.match(american).candidates] == [
        (c.law, c.score) for c in matcher.match(british).candidates
    ]


@pytest.mark.parametrize(
    ("symbol", "words"),
    [
        ("he led the ♦K", "he led the ♦ king"),
        ("North cashed the ♠A, then the ♣ Q", "North cashed the ♠ ace, then the ♣ queen"),
    ],
)
def test_a_card_written_with_its_suits_symbol_keeps_its_rank(matcher: Matcher, symbol: str, words: str) -> None:
    read = [t.text for t in matcher.normaliser.tokens(symbol)]
    assert read == [t.text for t in matcher.normaliser.tokens(words)] and "honour" in read


@pytest.mark.parametrize(
    ("diagram", "words"),
    [
        ("dummy came down with K 10 x x in spades", "dummy came down with in spades"),
        ("I held AQ10xx and Kx and opened", "I held and and opened"),
    ],
)
def test_a_holding_written_out_is_no_double(matcher: Matcher, diagram: str, words: str) -> None:
    read = [t.text for t in matcher.normaliser.tokens(diagram)]
    assert read == [t.text for t in matcher.normaliser.tokens(words)] and "doubl" not in read


@pytest.mark.parametrize("auction", ["1NT X XX 2♠", "2♠ x 3♣ xx", "he bid 4♥ and I said X"])
def test_an_x_among_calls_is_still_a_double(matcher: Matcher, auction: str) -> None:
    assert "doubl" in [t.text for t in matcher.normaliser.tokens(auction)]


@pytest.mark.parametrize(
    ("short", "words"),
    [
        ("decl claimed w/o a statement", "declarer claimed without a statement"),
        ("lho led b4 the auction ended", "lho led before the auction ended"),
        ("pd xx'd out of turn", "partner redoubled out of turn"),
        ("revoke est, td called late", "revoke established, director called late"),
    ],
)
def test_shorthand_typed_at_the_table_reads_as_its_words(matcher: Matcher, short: str, words: str) -> None:
    assert [t.text for t in matcher.normaliser.tokens(short)] == [t.text for t in matcher.normaliser.tokens(words)]


def test_a_seat_told_by_its_place_in_the_auction_is_no_play_to_a_trick(matcher: Matcher) -> None:
    assert matcher.match("4th seat opened, was 2nd seat's turn").candidates[0].law == 31


def test_candidates_say_why_and_which_chart(matcher: Matcher) -> None:
    top = matcher.match("partner made an insufficient bid").candidates[0]
    assert top.law == 27 and top.title == "Insufficient Bid"
    assert top.charts[0] == "insufficient-bid" and any("insufficient" in m for m in top.matched)
    assert 0 < top.score <= 100


@pytest.mark.parametrize(
    ("text", "law", "why"),
    [
        ("partner tanked then bid 4♠", 16, "tanked"),
        ("he bid 1♦ over my 1♥", 27, "1♦ … 1♥"),
        ("opponent bid 8NT", 38, "8NT"),
        ("revoke on trick twelve", 62, "trick twelve"),
        ("ดัมมี่ดูไพ่ของฉัน", 43, "ดัมมี่"),
    ],
)
def test_the_why_is_what_the_user_typed(matcher: Matcher, text: str, law: int, why: str) -> None:
    top = matcher.match(text).candidates[0]
    assert top.law == law and any(why.lower() in m.lower() for m in top.matched), top


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        # written-12's own row (labelled 28, now a worked example) in other words: 28B or the call out of turn
        ("It was my turn but my LHO bid 1 spade ahead of me. I ignored it and bid 1 heart.", {28, 31}),
        ("LHO bid 1S out of turn and I bid 1H", {31}),
        ("west bid 2 diamonds ahead of me and I bid 1 heart", {31}),
        ("1S over 1NT", {27}),
        ("RHO opened 1NT and I bid 1S", {27}),
        ("LHO bid out of turn, then partner bid 1H over RHO's 1S", {27}),  # the 1S is not the call out of turn
        ("LHO bid 1S and I bid 1H out of turn", {27}),  # the lower bid out of turn is still insufficient
    ],
)
def test_a_lower_bid_over_a_bid_out_of_turn_is_not_insufficient(matcher: Matcher, text: str, laws: set[int]) -> None:
    """A call by the player whose turn it was over an opponent's call out of turn is in rotation (Law 28B): the
    lower bid is no insufficient bid, and the call out of turn ranks first; a lower bid over a call in turn is."""
    top = matcher.match(text).candidates[0]
    assert top.law in laws and (27 in laws) == any("…" in m for m in top.matched), top


@pytest.mark.parametrize(
    "text",
    [
        "partner bid 2S at LHO's turn and LHO bid 3C over it. Does partner's 2S still count?",
        "RHO opened 2C, I passed, LHO bid 2H and then said their 2C was strong. Can I change my pass?",
    ],
)
def test_a_bid_told_again_is_no_new_lower_bid(matcher: Matcher, text: str) -> None:
    """'Does partner's 2♠ still count' names the 2♠ already told, not a new call below the 3♣: no insufficient bid."""
    result = matcher.match(text)
    assert not any("…" in m for c in result.candidates for m in c.matched), result.candidates


@pytest.mark.parametrize(
    "text",
    [
        "At trick 9 N noticed that her card from trick 6 was pointed the wrong way.",
        "On board 3 S dropped a card on the floor.",
    ],
)
def test_a_trick_or_board_number_before_a_seat_is_no_bid(matcher: Matcher, text: str) -> None:
    """'At trick 9 N' is North at trick nine, not a bid of 9NT above the seven level (Law 38)."""
    assert 38 not in [c.law for c in matcher.match(text).candidates]


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("nobody touched the blue card when LHO bid 2D, it showed hearts", {20, 21, 40}),  # no alert
        ("partner put the blue card on my double", {19, 32, 36}),  # a redouble
    ],
)
def test_the_blue_card_touched_is_an_alert_and_put_out_a_redouble(matcher: Matcher, text: str, laws: set[int]) -> None:
    assert matcher.match(text).candidates[0].law in laws


@pytest.mark.slow
def test_chart_keywords_go_to_the_law_they_fit_and_zero_charts_work() -> None:
    with_charts = build_matcher(chart_entries()).match("revoke on trick twelve").candidates[0]
    assert with_charts.law == 62 and "revoke" in with_charts.charts
    bare = build_matcher().match("revoke on trick twelve").candidates[0]
    assert bare.law == 62 and bare.charts == ()


@pytest.mark.parametrize(
    ("text", "law", "not_first"),
    [
        ("dummy revoked", 64, None),
        ("dummy says I revoked", 61, 64),  # dummy speaks; someone else revoked
        ("declarer dropped a card face up", 48, 49),
        ("defender dropped a card face up", 49, 48),
    ],
)
def test_who_did_it_decides_the_law(matcher: Matcher, text: str, law: int, not_first: int | None) -> None:
    ranked = [c.law for c in matcher.match(text).candidates]
    assert law in ranked and ranked[0] != not_first, ranked


@pytest.mark.parametrize(("text", "ref"), [("law 27", "27"), ("L27B1", "27B1"), ("27b", "27B"), ("Law 54 A", "54A")])
def test_a_reference_goes_straight_to_the_law(matcher: Matcher, text: str, ref: str) -> None:
    result = matcher.match(text)
    assert result.direct_ref == ref and result.candidates[0].law == int(re.sub(r"\D.*", "", ref))


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "Tell me what happened"),
        ("   \n\t ", "Tell me what happened"),
        ("🙂🙂🙂", "a bridge situation"),
        ("\x00\x07\x1b[31m", "a bridge situation"),
        ("law 120", "There is no Law 120"),
        ("the weather is nice today", "a bridge situation"),
        ("my car will not start", "not sure"),
        ("2c", "not sure"),
    ],
)
def test_bad_input_gets_a_clear_answer(matcher: Matcher, text: str, says: str) -> None:
    result = matcher.match(text)
    assert not result.confident and result.message and says in result.message


def test_very_long_and_mixed_script_text_is_handled(matcher: Matcher) -> None:
    assert matcher.match("revoke " * 2000).candidates[0].law == 61
    assert matcher.match("x" * 10_000).message
    assert matcher.match("dummy ดัมมี่ 看 revoke ♠♠ Ω").candidates


@pytest.mark.slow
@given(st.text(max_size=600))
@settings(max_examples=min(300, settings.default.max_examples), deadline=None)  # fewer outside CI (conftest)
def test_any_text_gets_an_answer_never_an_exception(text: str) -> None:
    result = _MATCHER.match(text)
    assert result.confident or result.message
    assert all(0 <= c.score <= 100 for c in result.candidates)


def test_every_curated_phrase_belongs_to_one_law(matcher: Matcher) -> None:
    owners: dict[frozenset[str], set[int]] = {}
    for phrase in matcher.phrases:
        if phrase.weight == 1.0 and phrase.chart is None:
            owners.setdefault(frozenset(phrase.tokens), set()).add(phrase.law)
    assert not {" ".join(sorted(k)): v for k, v in owners.items() if len(v) > 1}


@pytest.mark.parametrize("name", ["keywords.yaml", "abbreviations.yaml", "thai.yaml", "matching-synonyms.yaml"])
def test_knowledge_files_carry_their_edition(name: str) -> None:
    assert yaml.safe_load((KNOWLEDGE / name).read_text(encoding="utf-8"))["edition"] == "2017"


def test_thai_decomposed_sara_am_is_repaired(matcher: Matcher) -> None:
    decomposed = "การเปิดน\u0e4d\u0e32ผิดคน"  # as seed 002's OCR writes it; NFC leaves it decomposed
    assert matcher.match(decomposed).candidates[0].law == 54


def _items(split: str) -> list[Labelled]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [
        Labelled(r["query"], frozenset(int(re.sub(r"\D.*", "", law)) for law in r["laws"]))
        for r in rows
        if r.get("split") == split
    ]


def test_the_labelled_set_covers_what_directors_say() -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 400
    per_law = {n: sum(str(n) in r["laws"] for r in rows) for n in range(6, 94)}
    assert min(per_law.values()) >= 3, {n: c for n, c in per_law.items() if c < 3}
    assert sum(bool(re.search(r"[\u0e00-\u0e7f]", r["query"])) for r in rows) >= 20


@pytest.mark.slow
@pytest.mark.parametrize("split", ["dev", "holdout", "holdout2", *HELD_OUT])
def test_recall_stays_above_its_floor(matcher: Matcher, split: str) -> None:
    result = evaluate(matcher, read_labelled(HELD_OUT[split]) if split in HELD_OUT else _items(split))
    at1, at3 = FLOORS[split]
    assert result.recall_at_1 >= at1 and result.recall_at_3 >= at3, result.as_dict()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(INDEPENDENT))
def test_each_set_of_examples_is_recognised_when_left_out(name: str) -> None:
    """Leave-one-set-out: the examples written by others teach the matcher how this set's writers talk."""
    items = read_labelled(INDEPENDENT[name])
    left_out = build_matcher(chart_entries(), leave_out=[i.query for i in items])
    assert not {e.query for e in left_out.examples.examples} & {i.query for i in items}
    result = evaluate(left_out, items)
    at1, at3 = FLOORS[name]
    assert result.recall_at_1 >= at1 and result.recall_at_3 >= at3, result.as_dict()


def test_no_held_out_query_is_a_worked_example(matcher: Matcher) -> None:
    examples = {same_query(e.query) for e in matcher.examples.examples}
    held_out = [i for i in read_labelled(DATA) if i.split != "dev"]
    held_out += read_labelled(BLIND) if BLIND.exists() else []
    held_out += [item for path in [*HELD_OUT.values(), *REAL_HELD_OUT] for item in read_labelled(path)]
    assert not [i.query for i in held_out if same_query(i.query) in examples]


@pytest.mark.slow
def test_examples_written_by_others_raise_recall_on_a_set_never_seen() -> None:
    """Players texting mid-dispute (indep-c) talk unlike our keywords: the other sets' examples teach it."""
    items = read_labelled(INDEPENDENT["indep-c"])
    without = evaluate(Matcher(load_lawbook(), chart_entries(), [], None), items)
    left_out = evaluate(build_matcher(chart_entries(), leave_out=[i.query for i in items]), items)
    assert left_out.recall_at_1 >= without.recall_at_1 + 0.05 and left_out.recall_at_3 >= without.recall_at_3 + 0.03


CHATTER = (
    "what's the weather like today",
    "who won the football",
    "thanks a lot",
    "see you next week",
    "the room is too cold",
    "please call me back",
    "my credit card was declined",
    "where are the toilets",
    "I forgot my glasses at home",
    "the air conditioning is broken",
    "who is cooking tonight",
    "tell me a joke",
    "how old are you",
    "the music is too loud",
    "we need more biscuits",
)


@pytest.mark.parametrize("text", CHATTER)
def test_chatter_is_never_vouched_for_by_the_examples(matcher: Matcher, text: str) -> None:
    assert not matcher.match(text).confident


@pytest.mark.slow
def test_examples_that_agree_make_a_weak_phrase_match_an_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Players texting mid-dispute: where the phrases alone were unsure, examples that agree give the answer."""
    import bot.matching.matcher

    items = read_labelled(INDEPENDENT["indep-c"])
    left_out = build_matcher(chart_entries(), leave_out=[i.query for i in items])
    vouched = evaluate(left_out, items)
    monkeypatch.setattr(bot.matching.matcher, "AGREED", 1.01)  # never
    phrases_only = evaluate(left_out, items)
    assert vouched.recall_at_3 >= phrases_only.recall_at_3 + 0.005
    assert vouched.recall_at_1 >= phrases_only.recall_at_1


@pytest.mark.slow
def test_a_matcher_reading_its_examples_on_a_thread_answers_at_once_and_then_as_the_full_one(
    matcher: Matcher,
) -> None:
    text = "she took her card back and played a different one"
    background = build_matcher(chart_entries(), background=True)
    assert background.match("LHO led out of turn").candidates  # answers while the examples are read
    assert background.learned.wait(timeout=60)
    assert background.match(text) == matcher.match(text)
    assert len(background.examples.examples) == len(matcher.examples.examples)


@pytest.mark.slow
def test_the_start_up_cache_is_used_ignores_damage_and_never_holds_a_query(tmp_path: Path) -> None:
    book, charts = load_lawbook(), chart_entries()
    first = Matcher(book, charts, [Labelled("dummy pointed out a revoke", frozenset({61}))], tmp_path)
    files = list(tmp_path.glob("tokens-*.marshal"))
    assert len(files) == 1 and not first.cache.changed
    again = Matcher(book, charts, [Labelled("dummy pointed out a revoke", frozenset({61}))], tmp_path)
    assert not again.cache.changed and again.phrases == first.phrases  # everything came from the file
    query = "zanzibar quokka revoked"
    assert again.match(query).candidates == first.match(query).candidates
    again.cache.save()
    assert b"zanzibar" not in files[0].read_bytes()
    files[0].write_bytes(b"not a cache")
    damaged = Matcher(book, charts, [], tmp_path)
    led = "LHO led out of turn"
    assert damaged.match(led).candidates[0].law == first.match(led).candidates[0].law


def test_the_cache_key_is_the_code_this_process_runs_not_the_files_edited_since(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that started before the matching code was edited must not file its tokens under the edited
    code's key: a later run would read tokens the edited code never made."""
    key = token_cache.knowledge_key(["chart"])
    edited = tmp_path / "matching"
    edited.mkdir()
    (edited / "normalise.py").write_text("# edited after this process started\n", encoding="utf-8")
    monkeypatch.setattr(token_cache, "CODE_DIR", edited)
    assert token_cache.knowledge_key(["chart"]) == key
    assert key != token_cache.knowledge_key(["another chart"])


def test_lint_names_a_bad_example(tmp_path: Path) -> None:
    (tmp_path / "set.jsonl").write_text(
        '{"query": "he bid 8 spades", "laws": ["120"]}\n{"query": "LHO led", "laws": ["54"]}\n'
        '{"query": "lho  LED", "laws": ["54"]}\n',
        encoding="utf-8",
    )
    problems = [str(f) for f in lint_examples(load_lawbook(), tmp_path).problems]
    assert any("Law 120" in p for p in problems) and any("appears 2 times" in p for p in problems)
    (tmp_path / "broken.jsonl").write_text('{"query": "x"}\n', encoding="utf-8")
    assert "broken.jsonl:1" in str(lint_examples(load_lawbook(), tmp_path).problems[0])


PADDING = (  # three sentences that name no irregularity: a long post's preamble
    "This was a friendly club pairs on a Tuesday evening with eleven tables, and our opponents were a new pair "
    "who had only joined the club last month, so everybody was being very polite about everything. "
) * 3


def test_the_sentence_that_asks_is_read_even_past_the_first_500_characters(matcher: Matcher) -> None:
    """A long post whose question comes last: the whole is read up to 500 characters, the asking sentence too."""
    story = (
        PADDING + "Near the end West revoked and nobody noticed until the last trick. Is the revoke established now?"
    )
    assert len(story) > 500
    laws = [c.law for c in matcher.match(story).candidates]
    # A revoke law among the three shows the end was read; 62 or 63 until the written sets joined the examples
    # (then Law 40 came first, for the preamble's "new pair", 6 and 61 next: bench/RESULTS.md, twenty-fifth round).
    assert {61, 62, 63} & set(laws), laws
    assert not {61, 62, 63} & {c.law for c in matcher.match(story[:500]).candidates}


@pytest.mark.parametrize(
    ("story", "first", "second"),
    [
        (
            "South bid out of turn before the director came. Later in the play West revoked and it was established.",
            63,
            31,
        ),
        (
            "The opening bid was insufficient and was not accepted. "
            "Later on declarer claimed but a trump was still out.",
            70,
            27,
        ),
    ],
)
def test_two_incidents_in_one_story_are_both_offered_with_their_charts(
    matcher: Matcher, story: str, first: int, second: int
) -> None:
    result = matcher.match(story)
    assert result.confident and result.incidents == (first, second)
    assert len(result.told) == 2 and all(sentence in story for sentence in result.told)  # what each incident was
    assert result.told[0] != result.told[1]
    offered = {c.law: c for c in result.candidates}
    assert {first, second} <= offered.keys() and offered[first].charts and offered[second].charts
    assert matcher.match("South bid out of turn before the director came.").incidents == ()  # one sentence


def test_two_incidents_told_in_one_sentence_that_moves_on_in_time_are_both_offered(matcher: Matcher) -> None:
    """One sentence can tell two rulings (", and later …", ", and at the end …"); a follow-up of the same incident
    joined by "then" stays one incident (a lead out of turn and the other defender's lead after it)."""
    for story in (
        "The opening bid was insufficient and was not accepted, and at the end declarer claimed, a trump still out.",
        "The opening bid was insufficient and was not accepted, and later on declarer claimed with a trump still out.",
    ):
        result = matcher.match(story)
        assert (
            result.incidents == (70, 27) and result.told[1] == "The opening bid was insufficient and was not accepted"
        )
    assert (
        matcher.match("LHO led out of turn, then the correct defender led his card before anyone came.").incidents == ()
    )
    assert matcher.match("declarer revoked on trick 5, and later it was established").incidents == ()


def test_the_event_the_directors_ruling_or_a_sentence_that_finishes_the_last_is_not_a_second_incident(
    matcher: Matcher,
) -> None:
    """The event ("Knockout teams", Law 86), the ruling ("Opps called the TD", Law 9), the play going on ("East
    wins trick 6", Law 44) or a sentence opening "As …" says where the incident happened, what followed it or how
    it ended: told as "Two things happened here", the false second incident was offered first to walk."""
    for text in (
        "Teams of four, second round. A card is missing from the pack when North counts her hand before the "
        "auction; the director is asked whether to redeal.",
        "Claim with no statement — declarer just put his cards down and said nothing. Opps called the TD.",
        "All four players pass on board 9. As she puts her cards back into the board, North says she had mis-sorted "
        "her hand and had a king among her diamonds.",  # "As …" finishes the sentence before: no revoke after it
        "West has two penalty cards, the king and the four of hearts, lying face up. East wins trick 6 and is on lead.",
    ):
        assert matcher.match(text).incidents == ()
    two = matcher.match(
        "West led out of turn at trick 1 and declarer accepted the lead. Later in the hand South revoked in clubs "
        "and the revoke was established."
    )
    assert len(two.incidents) == 2  # a lead out of turn, then a revoke: two incidents still


@pytest.mark.parametrize(
    "story",
    [
        "Declarer in 2 hearts said 'queen' from dummy, meaning to play it, and I played my jack on it. Then she said "
        "'oh no, I meant the king'. The director let her change it and let me take my jack back. My partner thinks "
        "declarer had just changed her mind. Was that right?",  # a comment on the same card, not a change of call
        "The first card was already face up on the table when South realised she was holding only 12 cards. The 6 "
        "of clubs has just turned up on the floor under her chair.",  # the opening lead dates the missing card
        "last round EW counted the cards in front of them and say they took 5 tricks, our cards say 4, one card was "
        "turned the wrong way. the next round has already been called",  # when the trick count was disputed
        "Board 5, North dealer, N-S vulnerable. North 1♠, East 2♥, South 2♦. Before West calls, South notices and "
        "replaces the 2♦ card with 3♦. E-W call the director. Ruling?",  # the board's heading is no marking error
        "Dealer South. West opens 1D out of rotation at South's turn; before anyone calls the director, South bids "
        "1S. The director arrives after North has also called. Ruling?",  # the call over it, not a play irregularity
        "Declarer claimed ten tricks and we agreed and wrote it on the bridgemate. When we looked at the hands after "
        "the round, we saw that there was no way declarer could make the tenth trick, our diamond was always a "
        "winner. The next round has started but the session isn't over. Can we still go back on our agreement?",
    ],
)
def test_a_sentence_that_dates_comments_on_or_sets_the_scene_of_an_incident_is_not_a_second_one(
    matcher: Matcher, story: str
) -> None:
    """Walks 33–35, 39 and 42 were offered "Now the second thing: …" for a timing clause, a board's heading or a
    partner's opinion, each walking a chart about nothing that happened."""
    assert matcher.match(story).incidents == ()


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("the board was turned round before the cards went back in", {87, 15}),
        ("we found out the same board was played twice", {15}),
        ("a card fell from the board as it was being passed to the next table", {16, 7}),
        ("the bidding cards from the previous board were still on the table", {17}),
        ("the ace went back into South's hand", {55, 47}),
        ("the tray came back under the screen very slowly", {73, 16}),
        ("two cards stuck together and fell on the table", {58, 67}),
        ("dummy card was hidden under the bidding box", {41, 64}),
        ("my partner went into a long huddle and then passed, and I bid game", {16, 73}),
        ("she rolled her eyes when her partner opened", {73, 16}),
        ("dummy pulled the wrong card and nobody noticed until the next trick", {45}),
        ("declarer knocked the card out of his hand and it landed face up", {49, 50}),
        ("they had looked at the traveller before playing the board", {16}),
        ("two boards with the same cards in our set tonight", {87, 6}),
        ("she took back the discard and followed suit before the next lead", {62}),
        ("dummy had only twelve cards and nobody noticed", {14}),
        ("declarer peeked at his played cards before the last trick", {66}),
        ("dummy muted the microphone and phoned partner during the hand", {73, 74}),
        ("she had mis-sorted her hand and a spade was hidden among the clubs in dummy", {41, 64}),
        ("a defender lifted a card as if to play it, to make declarer think he had it", {73, 16}),
        ("the three of diamonds was never in the deck at all", {14}),
        ("the dealer handed out the cards two at a time", {6}),
        ("everyone put their bidding cards away and then west said she had not passed", {22, 17}),
        ("east lost the last trick but led the next one anyway", {56, 53}),
        ("declarer said play a club but he could not play the card he was told to", {59}),
        ("i caught sight of her cards while she was sorting them", {16}),
        ("he did not play the card lying on the table when he had to", {52, 50}),
        ("south was dealer but west put the green card out", {30}),  # a call told by seat and turn, in colours
        ("west bid 2 diamonds ahead of me", {31}),
        ("there was a joker among the cards in the south hand", {13}),
        ("i had already played my card to the next trick before partner had played to this one", {57}),
        ("his 5 of clubs was lying face up from earlier and he played another club", {52, 50}),
        ("she found a club hiding behind her other cards before the next lead", {62}),
        ("lho led when it was not his lead and i played from dummy on top of it", {53}),
        ("he called me an idiot in front of the whole table", {74}),
        ("west put the double card down when it was not his turn", {32}),
        ("the jack slipped out while we were still bidding and everyone saw it", {24}),
        ("a card slid out of declarer's hand and landed face up", {48}),
    ],
)
def test_what_physically_happened_finds_the_law_it_signals(matcher: Matcher, text: str, laws: set[int]) -> None:
    result = matcher.match(text)
    assert result.confident and laws & {c.law for c in result.candidates[:2]}, result.candidates


@pytest.mark.parametrize(
    ("text", "law"),
    [
        ("my rho opened 1 heart and before i had called, my partner slapped the red x card on the table", 32),
        ("after north's 1 diamond, south put down the green card before east had even touched his bidding box", 30),
        ("the auction was over with three passes, then the player about to lead took a double card out of the box", 39),
        ("i faced the first card of the hand, but my partner was the one who should have led", 54),
        ("my opponent flung his cards across the table when the board went off", 74),
    ],
)
def test_a_call_or_lead_told_by_its_card_and_turn_gets_its_own_law_first(matcher: Matcher, text: str, law: int) -> None:
    """The bidding card's colour is the call and the call decides the law (a double out of rotation is Law 32
    whatever bid came before it); a call by the player on lead after three passes is Law 39."""
    result = matcher.match(text)
    assert result.confident and result.candidates[0].law == law, result.candidates


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("south had the first call, but west beat him to it with a pass", {30}),
        ("my partner was dealer, but rho put out 2 clubs before he had called; i bid 2 hearts over it", {29, 31}),
        ("dummy won trick 3 and then my partner, not dummy, led the queen of spades", {56, 53}),
        ("the declarer took trick 7 with the king in her own hand and then led from dummy", {55}),
        ("partner had won the last trick but declarer told me it was my lead, so i led a diamond", {47}),
        ("a woman sitting behind my chair gasped when my partner played the king", {76}),
        ("the queen of spades slipped out of declarer's hand and fell face up on the table at trick 5", {48}),
        ("lho stared at his cards for a minute then passed, and his partner came in with 3 clubs", {16, 73}),
        ("dummy had taken trick 6 but lho led a spade, and declarer played low from dummy on it", {53}),
        ("declarer required my partner to lead a heart; she had none, so she showed him her hand", {59}),
        ("my 10 of clubs was a major penalty card, but when clubs were led i forgot and played the 3", {52}),
        ("while declaring i pulled out a small heart and the ace came out with it face up", {48}),
        ("halfway through the hand rho's king slid out of his hand face up", {49, 50}),
        (
            "lho put a small spade on my club lead early on; at trick 9 he played a club and i pointed back at trick 3",
            {63, 64},
        ),
        ("east was dealer, but south opened 1 club before east had called; west, not noticing, bid 1 heart", {29}),
    ],
)
def test_a_call_or_lead_told_by_seats_and_turns_finds_its_law(matcher: Matcher, text: str, laws: set[int]) -> None:
    """Who was to act, who acted and what (``knowledge/turns.yaml``): a pass made while the seat with the first
    call had not called is Law 30, a lead after another seat won the trick 56, one an opponent said was the
    player's turn 47; a spectator's reaction 76; declarer's own card fallen 48, not a penalty card (49); a long
    pause then a call 16 or 73; a lead out of turn played to 53; a required suit the player had none of 59; a penalty
    card forgotten 52; a card faced in the play 49 or 50; a revoke found by pointing back at a trick 63 or 64; a call
    over a call out of rotation by the offender's left-hand opponent 29."""
    result = matcher.match(text)
    assert laws & {c.law for c in result.candidates[:2]}, result.candidates


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("declarer faced his cards and said i'll take nine tricks, you get a spade; the defenders objected", {68, 70}),
        ("two hearts for me and the rest is yours, said east, showing his cards", {68, 70}),
        ("declarer led the king from her hand and dummy said no, you are in dummy", {55}),
        ("while north was still thinking about his bid, east faced the jack of clubs", {24}),
        ("the auction was not over when my lho put a card on the table as if to lead", {24}),
        ("a low club went to the queen and my rho hesitated for ages before he played the ace", {73}),
        ("declarer thought he was in a spade contract and called for a ruff; can the dummy tell him?", {42, 43}),
    ],
)
def test_a_post_that_tells_a_law_without_its_words_gets_it_first(matcher: Matcher, text: str, laws: set[int]) -> None:
    """Real posts tell a claim by its statement ("I'll take nine tricks": Law 68A), a lead from the wrong hand by
    dummy's warning (55), a lead made while the auction was on (24), a pause in the play (73D, not a pause before a
    call, 16) and ask what dummy may do (42, 43) inside a story of something else, rarely in the law's own words
    (``knowledge/turns.yaml``; issue 22, twenty-sixth round)."""
    result = matcher.match(text)
    assert result.confident and result.candidates[0].law in laws, result.candidates


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("partner hesitated for ages, then passed", "a pause in the play, and a card played to the trick"),
        ("during the auction she led me to think she was strong", "a lead made while the auction was still on"),
    ],
)
def test_a_pause_before_a_call_or_a_lead_in_the_play_keeps_its_own_law(text: str, told: str) -> None:
    """A pause before a call is Law 16, not a pause in the play; a lead told after "during the auction" needs no
    card: these relations stay silent on a story they do not tell."""
    relations = [r for r in load_relations() if r.told == told]
    assert relations and not any(r.laws(heard(text)) for r in relations)


def test_a_lead_after_ones_own_side_won_the_trick_is_not_a_lead_out_of_turn() -> None:
    """Winning a trick and leading to the next is the normal course of play: the relation needs a word against
    the turn ("but", "before", "instead")."""
    said = heard("partner won the trick with the ace and led a small club back")
    assert not any(r.laws(said) for r in load_relations())


@pytest.mark.parametrize(
    ("text", "law"),
    [
        ("Board 3, dealer West. North says '2 clubs' before West has called. East calls the director.", 31),
        ("Dealer South. South 1C, West pass, North 1S; West, before East has called, passes again.", 30),
        ("Board 9. North 1H, East 1S, and then South, before West has called, doubles. Ruling?", 32),
        ("East deals. South passes before East has called; East, unaware, opens 1NT. Director!", 28),
        ("West deals. South opens 1D before West has called; North, his partner, then passes.", 31),
        ("Dealer North. East bids 1S before North has called. South, not seeing it, passes.", 29),
        ("Dealer East. East 1S, South 2H, West 2D. North calls the director. Ruling?", 27),
    ],
)
def test_a_casebook_auction_told_by_compass_seats_finds_its_law(matcher: Matcher, text: str, law: int) -> None:
    """A director's casebook tells the auction by seats (``bot.matching.compass``): a call while another seat was
    said not to have called yet is out of rotation (a pass 30, a bid 31, a double 32); the next call by the player
    whose turn it was (28) or by the offender's left-hand opponent (29) calls over it, unless the offender's
    partner makes it; a bid no higher than the last is insufficient (27)."""
    result = matcher.match(text)
    assert result.confident and result.candidates[0].law == law, result.candidates


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("5D by West. South faces the 7 of hearts to start; North says it was his lead. Ruling?", {54}),
        ("North declares 3NT. West takes trick 8 with the spade ace, and then East leads a heart.", {56, 53}),
        ("East is declarer. Dummy won trick 2 with the queen; East now leads a club from his hand.", {55}),
        ("2S by North. At trick 4 dummy leads a heart and West plays the ace before East has played.", {57}),
        ("N declares 2S. E wins trick 5 with the king, but W then leads a heart.", {56, 53}),
    ],
)
def test_a_play_told_by_compass_seats_finds_its_law(matcher: Matcher, text: str, laws: set[int]) -> None:
    """The play told by seats: declarer's left-hand opponent leads first (another defender's opening lead is 54),
    the seat that won a trick leads to the next (a defender's lead otherwise 56 or 53, declarer's from the other
    hand 55), and a defender who plays before the seat before him is 57."""
    result = matcher.match(text)
    assert result.confident and result.candidates[0].law in laws, result.candidates


@pytest.mark.parametrize(
    "text",
    [
        "North opens 1H, South responds 2C and North rebids 2H.",  # the opponents' passes are left out
        "South declares 4S. West claimed 6 diamonds, 5 spades and 2 clubs.",  # tricks, not calls
        "North, declarer in 3NT (1NT - 2C - 2D - 3NT), leads from dummy.",  # the contract, then its auction
        "South opened 1NT and North bid 2D. South wants to bid 2D again.",  # a call wanted is not made
        "West 1S, North pass, East 2S. North's pass was slow; after 2S the director came.",  # a bid named again
        "South is in 3NT. West won trick 3 with the king, and South faces his hand and claims.",  # a claim
        "East declares 4H. West wins trick 5 and leads a spade; dummy wins and East leads from dummy.",  # in turn
        "West bid 3D just as North, whose turn it was, put down 3C.",  # two calls at once (Law 33)
        "S declares 4S. S ruffs trick 6, S then leads a club and W plays low.",  # the seat that won leads
        "West declares 3NT. East took his card back and North led a spade.",  # a card handled, not a trick won
        "West declares 3NT. East took the 2C card out of the box, then North led a spade.",
    ],
)
def test_an_auction_or_play_in_order_signals_nothing(text: str) -> None:
    """A story that leaves out the opponents' passes, counts tricks by suit, or names a bid again after it was
    made tells no call out of rotation and no insufficient bid; a claim after a trick, leads by the seats that
    won the tricks, or a seat that "took" a card (back, from the box) rather than a trick, no lead out of turn."""
    assert load_compass(TURNS_FILE).signals(text) == ()


@pytest.mark.parametrize(
    ("text", "law"),
    [
        ("West passed before South had called, and North, not noticing, also passed.", 29),  # the phrase follows West's
        ("North, before South has called, passes; East then bids 1H.", 29),  # set off: the call after it
        (
            "West doubled at North's turn; North then passed. West's new call was not comparable to the withdrawn one.",
            32,
        ),
    ],
)
def test_the_seat_due_is_bound_to_its_call(text: str, law: int) -> None:
    """ "Before South had called" after a call tells that call's turn, and set off by commas the call after it; a
    story that goes on to the withdrawn call's own rectification is that call's law, not the call over it."""
    assert set(load_compass(TURNS_FILE).signals(text)) == {law}


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("at trick 3 west put down the jack of hearts, then picked it up again and played the 2 in its place", {47}),
        ("when we gathered trick 10 it had five cards: north had dropped another card onto it", {45, 50}),
        ("as dummy she kept tapping the king of clubs in her own hand while declarer thought", {43}),
        ("the td said east must pass for the rest of the auction; at her next turn she bid 3 spades anyway", {37}),
        ("rho revoked and my partner told him you have to play the club now; we went on without the td", {9, 10, 11}),
        ("we agreed declarer had the rest, but later saw our ace of trumps would have won a trick", {69, 71}),
        ("lho's 2d was a transfer and rho never put out the alert card", {21, 40}),
        ("after the round the td admitted he'd got the ruling wrong on board 4", {82, 12}),
        ("we played it out as the td said; then she checked the book and came back to say she had got it wrong", {82}),
        ("our pair card said north-south but we sat the wrong way round for the whole round", {5}),
    ],
)
def test_an_act_told_without_its_name_finds_its_law(matcher: Matcher, text: str, laws: set[int]) -> None:
    """What happened to the card and who did it, without the law's word (``knowledge/turns.yaml``): a card taken
    back and another played is Law 47, a second card on a trick 45 (a defender's a penalty card, 50), dummy
    touching her own card 43, a call by a player barred from the auction 37, players who rule without the
    director 9-11, tricks conceded then found 69 and 71, an alert card not put out 21 and 40, the director's own
    error 82 (adjusted under 12), pairs in the wrong seats 5."""
    result = matcher.match(text)
    assert laws & {c.law for c in result.candidates[:2]}, result.candidates


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("she discarded a diamond, then picked it up again and played a heart instead", "taken back"),
        ("rho put two cards on the same trick at once", "a second card"),
        ("declarer touched the queen in dummy, then dummy pointed at it", "dummy touched"),
    ],
)
def test_a_relation_is_not_read_where_another_law_decides(text: str, told: str) -> None:
    """A card that did not follow suit put right is a corrected revoke (Law 62), not a played card taken back;
    two cards put on a trick at once are Law 58, not a second card; declarer's own touching is his play."""
    relations = [r for r in load_relations() if told in r.told]
    assert relations and not any(r.laws(heard(text)) for r in relations)


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("N 3NT, E pass, S pass, W pass. S then takes out the double card before the lead.", {39}),  # by seats
        ("W 1S, N pass, E pass, S pass; N then places the redouble card.", {39}),
        ("East trumped my diamond lead although she held the diamond 9, and followed with it at trick 8", {63, 64}),
        ("I'm declarer in 4H and the wrong opponent put down the first card, face up", {54}),
        ("the board itself says EW vul but the traveller has love all on it", {2}),
        ("our td moved the pair to the wrong table in round 2, the td's fault, they missed a board", {82, 12}),
        ("south doubled her own partner's 2 heart bid", {36}),
        ("rho kept slamming his cards on the table and called me an idiot", {74}),
    ],
)
def test_the_kinds_left_find_their_law(matcher: Matcher, text: str, laws: set[int]) -> None:
    """A call after a bid and three passes told by seats is Law 39; a ruff or discard while holding the suit a
    revoke (63, 64); the wrong defender's first card 54; the board's markings against the record 2; the director
    sending a pair to the wrong table his own error (82, 12); a double of partner's call 36; cards slammed and an
    insult 74."""
    result = matcher.match(text)
    assert laws & {c.law for c in result.candidates[:2]}, result.candidates


@pytest.mark.parametrize(
    "text",
    [
        "North opens 1H, pass, pass, pass. South leads the king of spades.",  # the lead after the auction
        "1H, pass, pass, double, then all pass.",  # a balancing double in the auction
        "W 1S, N pass, E pass, S double, W pass, N 2H.",  # the fourth seat's double reopens the auction
    ],
)
def test_a_call_in_the_auction_is_not_a_call_after_the_final_pass(text: str) -> None:
    """Only a call after a bid and three passes in a row comes after the final pass; a double in fourth seat
    after two passes is part of the auction."""
    assert 39 not in load_compass(TURNS_FILE).signals(text)


def test_a_revoke_noticed_in_time_is_not_read_as_established() -> None:
    """A ruff while holding the suit, noticed before anyone played to the next trick, is corrected (Law 62)."""
    relations = load_relations()
    said = heard("partner ruffed a club while holding one, noticed before anyone played to the next trick")
    signals = {law for r in relations for law in r.laws(said)}
    assert 62 in signals and not {63, 64} & signals


def test_lint_checks_the_turns(tmp_path: Path) -> None:
    assert not lint_turns(load_lawbook()).problems
    bad = tmp_path / "turns.yaml"
    bad.write_text(
        'edition: "2017"\nwords:\n  a pass: [pass]\nrelations:\n'
        '  - told: a pass\n    why: Law 30.\n    all: [a pass, a bid]\n    laws: ["30"]\n',
        encoding="utf-8",
    )
    assert "no group of words named 'a bid'" in str(lint_turns(load_lawbook(), bad).problems)


def test_lint_checks_the_physical_actions(tmp_path: Path) -> None:
    assert not lint_actions(load_lawbook()).problems
    bad = tmp_path / "actions.yaml"
    bad.write_text(
        'edition: "2017"\nactions:\n  - happened: a card on the floor\n    laws: ["14", "120"]\n'
        "    phrases: [card on the floor, floor]\n"
        "  - happened: again\n    laws: [14]\n    phrases: [card on the floor]\n",
        encoding="utf-8",
    )
    problems = " | ".join(str(f) for f in lint_actions(load_lawbook(), bad).problems)
    assert "Law 120" in problems and "'floor' has fewer than two words" in problems and "appears 2 times" in problems
    bad.write_text('edition: "2017"\nactions:\n  - happened: x\n', encoding="utf-8")
    assert "entry 1" in str(lint_actions(load_lawbook(), bad).problems[0])


def test_a_decider_orders_the_two_neighbours_the_matcher_ranks_first(matcher: Matcher) -> None:
    """Dummy playing a card other than the one named is Law 45, not an incomplete designation (46): the decider
    swaps the matcher's first two and adds nothing; without its words the order stands."""
    plain = copy.copy(matcher)
    plain.deciders = ()
    told = "declarer called for the queen but dummy played the king"
    decided, undecided = [c.law for c in matcher.match(told).candidates], [c.law for c in plain.match(told).candidates]
    assert decided[:2] == [45, 46] and undecided[:2] == [46, 45] and set(decided) == set(undecided)
    elsewhere = "partner hesitated for a long time before the opening lead"  # "opening lead" decides 54 from 53 only
    assert matcher.match(elsewhere).candidates == plain.match(elsewhere).candidates


def test_a_call_put_down_at_the_same_moment_as_the_call_in_turn_is_offered_as_law_33_first(matcher: Matcher) -> None:
    """Law 33 deems the call made after the call in turn: offered first as a call out of rotation, a director
    cancelled it and barred partner (walk 17)."""
    told = "I opened 1C at the same moment my RHO, the dealer, opened 1S"
    assert [c.law for c in matcher.match(told).candidates][:2] == [33, 31]
    assert decide(load_deciders(), 30, 33, "his green card and my 1 heart landed simultaneously") == 33
    assert decide(load_deciders(), 31, 33, "LHO opened out of turn, then I passed") is None


def test_deciders_speak_only_for_their_pair() -> None:
    deciders = load_deciders()
    assert decide(deciders, 46, 45, "Declarer says diamond and then: \u201cwait, I mean club\u201d") == 45
    assert decide(deciders, 45, 70, "wait, I mean club") is None
    assert decide(deciders, 62, 63, "is the revoke established?") == 63
    assert decide(deciders, 62, 63, "the revoke was corrected at once") is None


def test_lint_checks_the_deciders(tmp_path: Path) -> None:
    assert not lint_deciders(load_lawbook()).problems
    bad = tmp_path / "deciders.yaml"
    entry = '  - pair: ["45", "{other}"]\n    favours: "{favours}"\n    why: w\n    law: t\n    phrases: [i mean]\n'
    bad.write_text(
        'edition: "2017"\ndeciders:\n'
        + entry.format(other=46, favours=45)
        + entry.format(other=46, favours=46)
        + entry.format(other=120, favours=45),
        encoding="utf-8",
    )
    problems = " | ".join(str(f) for f in lint_deciders(load_lawbook(), bad).problems)
    assert "Law 120" in problems and "'i mean' speaks for both Laws 45 and 46" in problems
    bad.write_text('edition: "2017"\ndeciders:\n' + entry.format(other=46, favours=70), encoding="utf-8")
    assert "entry 1" in str(lint_deciders(load_lawbook(), bad).problems[0])


def test_words_gathered_from_public_pages_keep_their_source(tmp_path: Path) -> None:
    """A gathered file (``real-*``) names the page of each line; the loader and lint refuse one that does not."""
    line = {"query": "East leads his spade queen out of turn", "laws": ["54"]}
    gathered = tmp_path / "real-club.jsonl"
    gathered.write_text(json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"real-club\.jsonl:1"):
        read_labelled(gathered)
    assert "real-club.jsonl:1" in str(lint_examples(load_lawbook(), tmp_path).problems[0])
    page = "https://forums.example.org/discussion/1"
    gathered.write_text(json.dumps({**line, "source": page}) + "\n", encoding="utf-8")
    assert read_labelled(gathered)[0].source == page and not lint_examples(load_lawbook(), tmp_path).problems
    written = tmp_path / "indep-z.jsonl"  # written for the project, not gathered: no source needed
    written.write_text(json.dumps({**line, "query": "lead out of turn"}) + "\n", encoding="utf-8")
    assert read_labelled(written)[0].source is None
    for path in [*EXAMPLES_DIR.glob("real-*.jsonl"), *DATA.parent.glob("queries-real-*.jsonl")]:
        assert all(item.source for item in read_labelled(path)), path


@pytest.mark.slow
def test_eval_command_prints_one_json_object(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run_eval(DATA, as_json=True) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"n", "recall_at_1", "recall_at_3", "mrr", "p50_ms", "p99_ms"}
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "x"}\n', encoding="utf-8")
    assert run_eval(bad, as_json=True) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err
    assert run_eval(tmp_path / "missing.jsonl", as_json=False) == 2


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("at trick 8 rho was rearranging his hand and his king of spades tumbled out face up", {49, 50}),
        ("declarer was fumbling with her cards and the ten of hearts dropped onto the table", {48}),
        ("my partner opened 1 club and at my turn i put the red x card on top of my partner's bid", {36}),
        ("at trick 2 she put a spade on my diamond lead; at trick 9 she followed to a diamond", {63, 64}),
        ("the bidding is over and the defender on declarer's right put the six of clubs face up to start", {54}),
        ("dummy took the trick with the king, but declarer led the four from her own hand", {55}),
        ("the trick already had four cards on it when north put another card on it", {45, 50}),
    ],
)
def test_a_physical_telling_is_read_by_its_class(matcher: Matcher, text: str, laws: set[int]) -> None:
    """What people and cards did, read by its class (``knowledge/turns.yaml``, ``deciders.yaml``): a card fallen
    while the auction is on is Law 24, in the play a defender's is 49 (a penalty card, 50) and declarer's 48; a
    card faced after the auction ended is an opening lead (54); a defender's play while partner is still to play
    57; a double card on partner's call 36; a revoke told by the suit put on another's lead and a later card of
    it 63 and 64; a lead from declarer's own hand after dummy won 55; a card on a trick of four 45 and 50."""
    result = matcher.match(text)
    assert result.confident and result.candidates[0].law in laws, result.candidates


def test_a_card_fallen_in_the_play_is_a_defenders_only_when_declarer_did_not_drop_it() -> None:
    """The time in the hand says auction or play; who held the card says 48 or 49: a card declarer knocked over
    in the play is not read as a defender's."""
    said = heard("at trick 4 declarer knocked his ace onto the table and it landed face up")
    told = {r.told for r in load_relations() if r.laws(said)}
    assert "a defender's card fell or slipped out face up during the play" not in told
    assert "declarer's own card fell or slipped out" in told


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("partner frowned at my lead and I switched to spades", {16, 73}),
        ("my pd tutted at my heart lead so I shifted to clubs next trick", {16, 73}),
        ("does a 2C response that denies a major need to be alerted?", {40}),
        ("the TD ruled misbid, not misinformation, and the score stood: was that right?", {75, 21}),
        ("their 1NT was announced as 12-14 but opener turned up with 17 points", {40, 75}),
        ("2D was explained as 6-10 but we saw their card, they actually play 10-13", {21, 75}),
    ],
)
def test_an_alert_an_explanation_or_a_mannerism_told_in_passing_finds_its_law(
    matcher: Matcher, text: str, laws: set[int]
) -> None:
    """A frown or a tut at partner's lead is a mannerism (16B1, 73C), not a lead out of turn; whether a call needs
    an alert is disclosure (40B2); a director's ruling of misbid is 75C against 21B1(b); a point range announced
    or explained ("12-14") is 40 or 75, or 21 against the card, never Law 13's fourteen cards (issue 22,
    twenty-seventh round)."""
    result = matcher.match(text)
    assert result.confident and result.candidates[0].law in laws, result.candidates


def test_an_alert_or_explanation_gone_wrong_is_not_read_as_partners_information() -> None:
    """Law 16's "partner alert" phrases meet any post that says "alerted": an alert not given or an explanation
    that was wrong puts 20, 21, 40 or 75 before 16, while partner's information used ("woke me up", "unauthorized")
    speaks for 16, and a story that tells both moves nothing."""
    deciders = load_deciders()
    assert decide(deciders, 16, 21, "the opponents forgot to alert their transfer and I doubled") == 21
    assert decide(deciders, 16, 40, "does this double need to be alerted?") == 40
    assert decide(deciders, 16, 75, "the explanation was wrong, it was a splinter") == 75
    assert decide(deciders, 20, 16, "partner's explanation woke me up, so I bid on") == 16
    assert decide(deciders, 16, 21, "partner didn't alert, so I knew he had forgotten the transfer") is None
    assert decide(deciders, 16, 75, "partner alerted but told them it was weak in diamonds") is None


def test_declarers_own_cards_and_a_second_revoke_are_told_from_their_neighbours() -> None:
    """Declarer's own cards knocked face up are Law 48 (no penalty card), not a defender's penalty card (50); a
    player who revoked twice has a second revoke (64B2), not a card played twice to a trick (45)."""
    deciders = load_deciders()
    assert decide(deciders, 50, 48, "declarer knocked his hand over and two trumps lay face up") == 48
    assert decide(deciders, 45, 64, "the same defender revoked twice in clubs") == 64
    assert decide(deciders, 45, 64, "declarer played the same card twice") is None


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        ("dealer was still sorting his cards when LHO pulled the 2D card out of the box and put it down", {31}),
        ("west pulled out the red X card and put it down while it was still north's turn to call", {32}),
        ("RHO won the trick, then declarer told me 'your turn to start', so I led a spade", {47}),
        ("we were defending and my partner dropped the ace of clubs face up on the table", {49, 50}),
        ("RHO revoked and declarer told him he had to give up two tricks; nobody called the director", {9, 10, 11}),
        ("the TD gave us a ruling and twenty minutes later said he had got it wrong", {82}),
    ],
)
def test_a_card_or_call_at_the_border_of_two_laws_finds_its_own(matcher: Matcher, text: str, laws: set[int]) -> None:
    """A bidding card put out while another seat was still to call is out of rotation (31, 32), not a change of
    call (25); a lead on declarer's "your turn" is 47E1; a defender's card in the play is 49 and 50, not the
    auction's 24; players who rectify alone are read by the director's laws (9B1, 10A, 11A) over the
    irregularity's own; the director's error is 82 (issue 22, twenty-eighth round)."""
    result = matcher.match(text)
    assert result.confident and result.candidates[0].law in laws, result.candidates


def test_the_player_who_did_not_see_the_bid_is_insufficient_and_dummys_question_is_dummys() -> None:
    """A bid below the last by a player who "thought she was opening" is insufficient (27), not out of rotation
    (31); dummy who asks a defender "none left?" breaks 42B1's "but not a defender" (43), while dummy who asks
    declarer moves nothing; declarer's own dropped card is 48, not a played card (45)."""
    deciders = load_deciders()
    assert decide(deciders, 31, 27, "LHO opened 1S and partner bid 1H, she hadn't seen the opening") == 27
    assert decide(deciders, 61, 43, "dummy asked east if he had any clubs") == 43
    assert decide(deciders, 61, 43, "dummy asked declarer whether he had any clubs") is None
    assert decide(deciders, 45, 48, "i was declarer and dropped the king face up") == 48
    said = heard("dummy asked declarer 'no spades?' when he showed out")
    told = {r.told for r in load_relations() if r.laws(said)}
    assert "dummy asked a defender whether he had a card of the suit" not in told


def test_declarers_own_named_card_fallen_is_law_48_before_a_defenders_card(matcher: Matcher) -> None:
    """Walk 41, 29b: "declarer's 7 of hearts fell out of his hand" tied Laws 48 and 49, and the defender's chart
    offered first made declarer's card a penalty card (48A: none of declarer's cards ever is)."""
    result = matcher.match("declarer's queen of spades slipped out of his hand face up while he was playing to trick 4")
    assert result.candidates[0].law == 48


@pytest.mark.parametrize(
    ("text", "laws"),
    [
        (
            "three passes, the opening lead face down, and the player who will be declarer says 'hold on, I want "
            "to bid 4 hearts'",
            {39},
        ),
        ("a lady standing behind me keeps groaning each time my partner leads a card", {76}),
        ("that couple always place their bidding cards slanted with a good hand, I have watched it all night", {73}),
        (
            "after north's 3♥ and three passes, WEST put the king of clubs face up on the table and north immediately "
            "started laying his own cards out face up",
            {54},
        ),
        (
            "I led from my hand, my LHO followed, and before I had picked anything from dummy my RHO already put the "
            "king of clubs on the table",
            {57},
        ),
    ],
)
def test_a_moment_after_the_auction_or_at_the_tables_edge_finds_its_law(
    matcher: Matcher, text: str, laws: set[int]
) -> None:
    """The future declarer's call after the final pass is cancelled (39A, 39B), a spectator who reacts is Law 76, a
    manner of putting calls down that tells partner something is 73B1, declarer spreading his hand after a faced
    lead out of turn is 54A, and a defender's card before declarer named dummy's is premature (57A): each was
    offered under a neighbour (41 or 54, 16, 40 or 74, 50, 45) before the twenty-ninth round of issue 22."""
    result = matcher.match(text)
    assert result.confident and result.candidates[0].law in laws, result.candidates


def test_an_agreement_a_found_card_a_tempo_and_two_exposed_cards_are_told_from_their_neighbours() -> None:
    """Agreement with a claim taken back is 69B, not the claim (68); a card found in the pocket is 14B2, among the
    played cards it is 67 (14B1); the tempo asked for itself is 73A2, not partner's pause (16); two cards exposed at
    once are both major (50B), which Law 49 does not say; a lead out of turn "not the opening lead" is 56."""
    deciders = load_deciders()
    assert (
        decide(deciders, 68, 69, "we accepted the claim but found a trump trick; can we take back our agreement?") == 69
    )
    assert decide(deciders, 67, 14, "at trick 11 the missing card was still in the board pocket") == 14
    assert decide(deciders, 67, 14, "a trick had three cards in it at the end") is None
    assert decide(deciders, 16, 73, "must everyone bid at a steady tempo?") == 73
    assert decide(deciders, 49, 50, "as a defender I dropped two cards face up") == 50
    assert decide(deciders, 54, 56, "a defender led out of turn at trick 5, not the opening lead") == 56


def test_three_passes_with_a_player_still_to_call_do_not_end_the_auction(matcher: Matcher) -> None:
    """Three passes while a player still had to call do not end the auction (17D3, 34); read as calls after the
    final pass (39) it was answered with "calls after the final pass are cancelled" (pq28b-095, WRONG)."""
    result = matcher.match(
        "i opened 1h, lho passed, partner passed and i passed too, forgetting rho still had to call. td gave rho his "
        "turn back. shouldnt the auction have been over after three passes?"
    )
    assert result.candidates[0].law in {17, 34}, result.candidates


def test_a_lead_before_declarer_chose_against_partners_penalty_card_is_law_50(matcher: Matcher) -> None:
    """A defender whose partner has a major penalty card may not lead until declarer has stated his option (50D2),
    and one who leads too soon is subject to Law 49: read as a lead out of turn (56), it was answered with the lead
    out of turn's rectifications for a lead made in turn (pq28-048, and pq27-039, pq23-071, pq22-021 before it)."""
    result = matcher.match(
        "partner had a major penalty card out (the ♠q, from a lead out of turn). i won the next trick and led a club "
        "straight away before declarer had said anything about making me lead spades or not. does my club count?"
    )
    assert result.candidates[0].law in {49, 50}, result.candidates


def test_a_sentence_that_only_gives_the_contract_and_the_auction_is_no_incident(matcher: Matcher) -> None:
    """Walk 46, #58: a first sentence giving only the contract and the auction ("defending 4♥ after 1♥ - 2♣ - 2♦ -
    4♥") was offered as a second incident, "Revoke", its calls counted as words of a story; they set the scene."""
    story = (
        "My partner and I were defending 5♥ after 1♥ - 2♣ - 3♦ - 5♥. During the auction my partner asked what 3♦ "
        "meant and then passed. I led a diamond and we beat it. Declarer says the question suggested my lead. Is he "
        "right?"
    )
    assert matcher.match(story).incidents == ()
