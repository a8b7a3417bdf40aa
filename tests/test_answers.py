"""Answers for players: a question gets a cited summary first, an incident the chart; /define knows every
defined term; the player/director setting is kept; our own words stay consistent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.answers import Answers, Replies, build_answers, load_triage
from bot.answers.reading import asking_part, backed
from bot.dialogs import Dialogs, load_charts
from bot.laws import load_lawbook
from bot.laws.book import KnowledgeError
from bot.laws.lint import lint_players_words, lint_repeated_keys
from bot.laws.summaries import (
    SUMMARY_WORDS,
    Case,
    Sentence,
    Summary,
    find_case,
    led_by,
    load_cases,
    load_exceptions,
    load_law_summaries,
    read_cases,
    read_concepts,
    read_exceptions,
    read_general_laws,
    summary_problems,
    unnamed_concepts,
)
from bot.laws.wording import wording_problems
from bot.matching import Candidate, build_matcher, chart_entries
from bot.store import Store
from bot.terminal import TerminalChat

DATA = Path(__file__).parent / "data"
# Question or incident, per labelled set (questions / incidents). Blind first runs: intents-blind 0.882 /
# 0.899, queries-blind's "kind" labels 0.846 / 0.946. After general rules drawn from the misses of
# intents.jsonl and intents-blind.jsonl: 0.968 / 0.968, 0.974 / 0.964, and queries-blind (never looked at
# query by query) 0.868 / 0.931. Floors sit a little under, so a regression fails.
FLOORS = {
    "intents.jsonl": {"question": 0.93, "incident": 0.94},
    "intents-blind.jsonl": {"question": 0.94, "incident": 0.93},
    "queries-blind.jsonl": {"question": 0.82, "incident": 0.90},
}


@pytest.fixture(scope="module")
def answers() -> Answers:
    return build_answers(load_lawbook(), load_charts(), build_matcher(chart_entries()))


def _labelled(name: str) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r.get("text") or r["query"], r.get("intent") or r["kind"]) for r in rows]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FLOORS))
def test_questions_and_incidents_are_told_apart(answers: Answers, name: str) -> None:
    items = _labelled(name)
    for intent, floor in FLOORS[name].items():
        texts = [text for text, label in items if label == intent]
        assert len(texts) >= 60 or name == "queries-blind.jsonl"
        right = sum(answers.forms.intent(text) == intent for text in texts) / len(texts)
        assert right >= floor, f"{name}: {intent}s recognised {right:.3f} < {floor}"


@pytest.mark.parametrize(
    ("question", "laws"),
    [
        ("what's the penalty for a revoke?", range(61, 65)),
        ("can my partner change his bid?", (25,)),
        ("if declarer claims and we disagree, who decides?", range(68, 72)),
        ("what happens if someone bids out of turn?", range(28, 33)),
        ("is it legal to ask what a bid means?", (20,)),
    ],
)
def test_a_question_gets_a_summary_that_leads_to_the_chart(answers: Answers, question: str, laws: range) -> None:
    reading = answers.read(question)
    assert reading.intent == "question"
    topic = reading.topic
    assert topic is not None and topic.law in laws
    assert topic.summary.words <= SUMMARY_WORDS and all(s.laws for s in topic.summary.sentences)
    if topic.kind == "chart":
        assert topic.chart == topic.key


@pytest.mark.parametrize("incident", ["LHO led out of turn", "partner hesitated then bid 4♠", "RHO bid 1♥ over my 1♠"])
def test_an_incident_goes_straight_to_the_situations(answers: Answers, incident: str) -> None:
    reading = answers.read(incident)
    assert reading.intent == "incident" and reading.topic is None
    assert reading.match is not None and reading.match.candidates


def test_the_setting_decides_over_the_wording(answers: Answers) -> None:
    assert answers.read("LHO led out of turn", "player").topic is not None
    as_director = answers.read("what's the penalty for a revoke?", "director")
    assert as_director.intent == "incident" and as_director.topic is None
    assert answers.read("what is a penalty card?", "director").term is None


def test_every_definition_can_be_looked_up(answers: Answers) -> None:
    for definition in answers.book.definitions.values():
        term = answers.glossary.lookup(definition.term)
        assert term is not None and term.definition == definition, definition.term


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("what is a penalty card?", "Penalty card"),
        ("What's a logical alternative", "Logical alternative"),
        ("what does logical alternative mean?", "Logical alternative"),
        ("define penalty crad", "Penalty card"),
    ],
)
def test_what_is_a_term_is_a_definition(answers: Answers, text: str, term: str) -> None:
    reading = answers.read(text)
    assert reading.intent == "define" and reading.term is not None and reading.term.term == term


def test_logical_alternative_forbids_the_suggested_action_not_the_alternative(answers: Answers) -> None:
    """Law 16B1(a): the call or play the information suggests is barred when another is a logical alternative;
    the old line barred choosing a logical alternative, the opposite."""
    term = answers.glossary.lookup("logical alternative")
    assert term is not None and term.explain is not None
    plain = term.explain.text
    assert "over another call or play that is a logical alternative" in plain
    assert "may not choose a logical alternative" not in plain


def test_a_question_about_a_rule_is_not_taken_for_a_term(answers: Answers) -> None:
    assert answers.read("what is the penalty for a revoke?").intent == "question"


def test_every_summary_has_its_related_topics(answers: Answers) -> None:
    for chart_id, chart in answers.charts.items():
        topic = answers.chart_topic(chart_id)
        if chart.part_of:  # never shown to players: its callers' summaries speak for it
            assert topic is None and answers.topic(f"c:{chart_id}") is None
            continue
        assert topic is not None, f"chart {chart_id} has no summary"
        for other in answers.related(topic):
            assert other.token != topic.token and answers.topic(other.token) == other
    for number in range(6, 94):
        topic = answers.law_topic(number)
        assert topic is not None and topic.law == number and number in load_law_summaries()


def test_a_charts_related_topics_read_through_a_chart_it_is_made_of(answers: Answers) -> None:
    # wrong-number-of-cards reaches the revoke chart through restored-card, which players are never shown
    topic = answers.chart_topic("wrong-number-of-cards")
    assert topic is not None
    tokens = [other.token for other in answers.related(topic)]
    assert "c:revoke" in tokens and "c:restored-card" not in tokens


def test_forged_topic_tokens_find_nothing(answers: Answers) -> None:
    for token in ("c:no-such-chart", "l:120", "l:x", "z:54", "", "l:", "c:"):
        assert answers.topic(token) is None


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("If he leads, declarer may accept.", "'he'"),
        ("Call the director.", "'the director'"),
        ("The NOS is damaged.", "'NOS'"),
        ("Partner has UI from the hesitation.", "'UI'"),
        ("Information is unauthorised.", "'unauthorised'"),
        ("Check this first (seed 001 line 2032).", "'seed'"),
    ],
)
def test_our_words_keep_to_the_term_list(text: str, flagged: str) -> None:
    assert any(flagged in problem for problem in wording_problems(text))


def test_quoted_law_text_and_the_right_terms_pass() -> None:
    assert (
        wording_problems('The Laws say "he must accept the lead"; the Director rules for the non-offending side.') == []
    )


async def _chat(store: Store, answers: Answers) -> TerminalChat:
    replies = Replies(answers, load_triage())
    return TerminalChat(Dialogs(store, answers.charts), answers.book, "terminal:player", answers.matcher, replies)


async def test_terminal_question_summary_then_walk_through(store: Store, answers: Answers) -> None:
    chat = await _chat(store, answers)
    reply = await chat.handle("what's the penalty for a revoke?")
    assert "in plain words" in reply and "(Law 6" in reply
    assert "1. Walk me through it" in reply and "Show the law" in reply
    walked = await chat.handle("1")
    # a question states nothing: the walk asks what happened, with the revoke among the answers
    assert walked.startswith("[Revoke · session 1") and "From your description" not in walked
    assert "What has happened?" in walked and "1. A player revoked" in walked


async def test_terminal_define_every_definition(store: Store, answers: Answers) -> None:
    chat = await _chat(store, answers)
    for definition in answers.book.definitions.values():
        reply = await chat.handle(f"define {definition.term}")
        assert definition.text.split("\n")[0][:40] in reply, definition.term
    assert "Related laws" in await chat.handle("define penalty card")
    assert (await chat.handle("1")).startswith("Law 50")
    assert "no entry" in await chat.handle("define xyzzy")


async def test_terminal_mode_is_kept_across_a_restart(store: Store, answers: Answers) -> None:
    chat = await _chat(store, answers)
    assert "Choose one of" in await chat.handle("mode sometimes")
    assert "Mode: player" in await chat.handle("mode player")
    again = await _chat(store, answers)
    assert "Mode: player" in await again.handle("mode")
    assert "in plain words" in await again.handle("LHO led out of turn")
    await again.handle("mode director")
    assert "Which situation is it?" in await again.handle("what's the penalty for a revoke?")


def test_define_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    assert main(["define", "penalty", "card"]) == 0
    assert "A card subject to disposition under Law 50." in capsys.readouterr().out
    assert main(["define", "xyzzy"]) == 1
    assert "No entry for 'xyzzy'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("question", "case", "cites"),
    [
        ("am I barred from bidding after partner hesitated?", "hesitation-may-bid", "16B1(a)"),
        ("if partner huddles, can I still bid?", "hesitation-may-bid", "73C1"),
        ("What if I claim and forget a trump?", "claim-forgot-trump", "70C1"),
        (
            "what happens if declarer claims with a trump still out and says nothing about it?",
            "claim-forgot-trump",
            "70C3",
        ),
        ("if a revoke is found on a later board, what happens?", "revoke-found-later", "64B4"),
        ("what happens when a revoke is only noticed after the round has ended?", "revoke-found-later", "64B5"),
        ("as dummy, can I ask declarer if he has no more of the suit led?", "dummy-asks-failure-to-follow", "42B1"),
        ("who is allowed to call the director?", "who-calls-director", "9B1(b)"),
        ("can dummy call the director?", "dummy-calls-director", "43A1(a)"),
        ("can dummy point out that a defender revoked during the play?", "dummy-and-irregularities", "43A1(b)"),
        ("who decides which calls have to be alerted?", "alerts-are-regulated", "40B2(a)(iii)"),
        ("how much is a doubled overtrick worth?", "scoring-made", "77"),
        ("how much do we get for going two down doubled not vulnerable?", "scoring-undertricks", "77"),
        ("what is the penalty for a revoke?", "revoke-penalty", "64A1"),  # the transfers first, not the definition
        ("do we have to make the opening lead face down?", "opening-lead-face-down", "41A"),
        ("when is a revoke established?", "revoke-established", "63A1"),
        (
            "I pulled 2NT instead of 2S by mistake and only realised when partner alerted it. Can I change it?",
            "unintended-call-noticed-late",
            "25A3",
        ),
        ("is it lawful to say 'I jumped' when I jump in partner's suit?", "remark-to-partner", "73B1"),
        (
            "after a correct opening lead declarer spread his hand before dummy came down. penalty cards?",
            "declarer-faces-hand",
            "48A",
        ),
        ("we lost at the appeals committee. can we appeal further, to the national body?", "appeal-further", "93C1"),
        (
            "the TD explained the options after an irregularity; can I discuss with my partner which to pick?",
            "choosing-an-option-alone",
            "10C2",
        ),
        ("our opponents play very slowly every round. can the TD penalise slow play?", "slow-play", "90B2"),
        ("must a player tell the opponents that his call was not systemically correct?", "misbid-must-tell", "40C1"),
        (
            "the defender led the ace but pulled another card out below it. which is played?",
            "two-cards-at-once",
            "58B1",
        ),
        ("we played a board that wasn't ours this round. does our score stand?", "board-played-by-wrong-pairs", "15B2"),
        ("may I write down the bidding so I remember it during the play?", "memory-aids", "40B2(d)"),
        ("are we allowed to psych our strong artificial 2C opening?", "conventions-regulated", "40B2(a)(v)"),
        (
            "i led after a wrong explanation of their 4D bid and dummy is down now. can i take the lead back?",
            "card-played-after-misinformation",
            "47E2(a)",
        ),
        (
            "i said 'the rest are yours' as a defender and my partner said no at once. is it a concession?",
            "concession-partner-objects",
            "68B2",
        ),
        ("lho x'd pd's 2♠, pd + rho passed, can i still xx", "whose-double", "19B1"),  # walk 59, #86
    ],
)
def test_a_question_stating_a_special_case_gets_its_answer_first(
    answers: Answers, question: str, case: str, cites: str
) -> None:
    topic = answers.read(question).topic
    assert topic is not None and topic.kind == "answer" and topic.key == case
    assert cites in topic.summary.laws
    assert topic.summary.words <= SUMMARY_WORDS and all(s.laws for s in topic.summary.sentences)
    assert topic.chart in answers.charts and answers.topic(topic.token) == topic
    assert answers.related(topic) and all(other.kind in ("chart", "law") for other in answers.related(topic))


@pytest.mark.parametrize(
    ("question", "law"),
    [("what if someone revokes?", 61), ("what happens if partner hesitates?", 16), ("can I claim?", 68)],
)
def test_a_question_without_the_special_conditions_gets_the_general_summary(
    answers: Answers, question: str, law: int
) -> None:
    topic = answers.read(question).topic
    assert topic is not None and topic.kind != "answer" and topic.law == law


@pytest.mark.parametrize(
    ("question", "law"),
    [
        ("how long do we have to ask for a score correction?", 79),
        ("what happens if dummy exposes a card?", 43),
        ("can I look at the last trick?", 66),
        ("the opening lead was out of turn but dummy had put down some cards before anyone noticed", 54),
    ],
)
def test_a_near_miss_of_a_special_case_is_not_taken_for_it(answers: Answers, question: str, law: int) -> None:
    topic = answers.read(question).topic
    assert topic is not None and topic.kind != "answer", topic


@pytest.mark.parametrize("case", load_cases(), ids=lambda case: case.id)
def test_every_special_case_is_short_and_cites_every_sentence(case: Case) -> None:
    assert case.answer.words <= SUMMARY_WORDS and all(sentence.laws for sentence in case.answer.sentences)
    assert summary_problems(case.answer, load_lawbook()) == []


def test_a_long_or_uncited_special_case_is_reported(tmp_path: Path) -> None:
    long = " ".join(["word"] * SUMMARY_WORDS)
    (tmp_path / "cases.yaml").write_text(
        'edition: "2017"\nconcepts: {x: [x]}\ncases:\n  - {id: x, title: X, law: 16, when: [x], answer: '
        f'[{{text: "{long}.", laws: ["16B1"]}}, {{text: "Uncited.", laws: []}}]}}\n',
        encoding="utf-8",
    )
    (case,) = read_cases(tmp_path)
    assert summary_problems(case.answer, load_lawbook()) == [
        f"summary has {SUMMARY_WORDS + 1} words; at most {SUMMARY_WORDS}",
        "summary sentence 2 cites no law section",
    ]


def test_a_case_names_its_conditions_as_shared_concepts(tmp_path: Path) -> None:
    """The ways players say an idea live once, in a concept; a case's topic is met by its words or by the
    matcher ranking the case's law first, its other conditions only by their words."""
    (tmp_path / "concepts.yaml").write_text(
        'edition: "2017"\nconcepts:\n  revoke: [revok, reneg]\n  later: [next board]\n', encoding="utf-8"
    )
    (tmp_path / "cases.yaml").write_text(
        'edition: "2017"\ncases:\n  - {id: late, title: Late, law: 64, topic: revoke, when: [later], answer: '
        '[{text: "No tricks are transferred.", laws: ["64B4"]}]}\n',
        encoding="utf-8",
    )
    (case,) = read_cases(tmp_path)
    assert find_case((case,), "partner reneged, we found it on the next board") == case
    assert find_case((case,), "we found it on the next board", [64, 61]) == case  # the matcher reads it as Law 64
    assert find_case((case,), "we found it on the next board", [61, 64]) is None
    assert find_case((case,), "partner reneged", [64]) is None  # no special condition: the general summary
    (tmp_path / "cases.yaml").write_text(
        'edition: "2017"\ncases:\n  - {id: x, title: X, law: 64, when: [sooner], '
        'answer: [{text: "X.", laws: ["64"]}]}\n',
        encoding="utf-8",
    )
    with pytest.raises(KnowledgeError, match="no concept 'sooner'"):
        read_cases(tmp_path)
    assert unnamed_concepts((case,), read_concepts(tmp_path)) == []
    assert unnamed_concepts((), read_concepts(tmp_path)) == ["later", "revoke"]  # lint reports them


def test_a_case_is_ruled_out_by_a_narrower_situation_stated(tmp_path: Path) -> None:
    """Partner's explanation of a call made by a mechanical error is Law 25A's question, not a mistaken
    explanation: a case's `unless` concepts, stated, rule it out."""
    (tmp_path / "cases.yaml").write_text(
        'edition: "2017"\nconcepts:\n  explained: [partner explained]\n  slip: [mechanical error]\n'
        "cases:\n  - {id: mi, title: MI, law: 75, when: [explained], unless: [slip], "
        'answer: [{text: "Say nothing now.", laws: ["20F5(a)"]}]}\n',
        encoding="utf-8",
    )
    (case,) = read_cases(tmp_path)
    assert find_case((case,), "partner explained my 2NT as natural") == case
    assert find_case((case,), "partner explained my 2NT, which was a mechanical error") is None
    assert unnamed_concepts((case,), read_concepts(tmp_path)) == []  # a concept named only in `unless` is used


@pytest.mark.parametrize(
    ("text", "case"),
    [
        (
            "North meant 2S but made a mechanical error pulling 2NT; her partner's explanation made her realise it. "
            "May she still change it?",
            "partners-mistaken-explanation",
        ),
        (
            "the TD said the cards a spectator knocked out were not penalty cards. is the information UI?",
            "penalty-card-information",
        ),
        ("East failed to follow suit and corrected it at once. what is the penalty?", "revoke-penalty"),
        (
            "we played a board that wasn't ours this round and got 22%, worse than average minus. is that right?",
            "average-plus",
        ),
        ("dummy here. when am I allowed to say something about a revoke?", "remark-to-partner"),
        ("LHO bid out of turn and I said 'not your turn!'. was that allowed?", "remark-to-partner"),
        ("RHO hesitated for a long time before passing. Can I still bid?", "hesitation-may-bid"),
        ("My LHO hesitated and then passed; am I barred from bidding now?", "hesitation-may-bid"),
        (
            "Declarer revoked and the next hand had already played to the trick. Can it be corrected?",
            "revoke-found-later",
        ),
        ("My RHO opened out of turn. Is it treated as an opening bid?", "artificial-call-out-of-turn"),
        # Asking whether partner is barred does not say partner had to pass: a bid at partner's turn is Law 31.
        ("I was dealer and partner bid 1S before I called. May I bid, and is he barred?", "barred-player-calls"),
        ("RHO bid out of turn and then LHO bid too. Will LHO be barred?", "barred-player-calls"),
        # the twenty-fourth reading: a change of mind passed over with the Director not called is 25B, and a
        # double of partner's call is 36A, however the words tell that nobody called the Director
        (
            "LHO bid 2S, then said no, make that 3S. I didn't call the TD and passed. Does 3S stand?",
            "settled-without-director",
        ),
        (
            "my LHO doubled her own partner's 1NT by mistake and before anyone said anything I bid 2C. what now?",
            "called-over-out-of-turn",
        ),
        # a bid equal to the last one, passed over unnoticed, is an insufficient bid, not a call in rotation
        ("RHO bid 2S and I bid 2S as well without noticing. what happens?", "called-over-out-of-turn"),
    ],
)
def test_a_special_answer_is_not_given_where_a_narrower_situation_is_told(
    answers: Answers, text: str, case: str
) -> None:
    """Each of these took a special answer whose words fitted the story but whose rule does not decide it."""
    topic = answers.read(text).topic
    assert topic is None or topic.key != case


def test_a_case_is_taken_only_when_the_matcher_backs_it(tmp_path: Path) -> None:
    """A condition's words alone turn up in questions about other things ("who may call the Director" in a
    post about an insufficient bid replaced before anyone called): the case needs its law, or a law it cites,
    among the matcher's first two, or its topic named in words, or no law found at all."""
    (tmp_path / "cases.yaml").write_text(
        'edition: "2017"\nconcepts:\n  director: [director]\n  who: [anyone]\n  dummy: [dummy]\n'
        "cases:\n  - {id: who, title: Who, law: 9, when: [director, who], "
        'answer: [{text: "Anyone may.", laws: ["9A1"]}]}\n'
        "  - {id: dummy, title: Dummy, law: 43, topic: dummy, when: [director], "
        'answer: [{text: "Dummy may not.", laws: ["43A1(b)", "9A4"]}]}\n',
        encoding="utf-8",
    )
    who, dummy = read_cases(tmp_path)
    text = "he corrected before anyone could call the director"
    assert backed(who, text, [27, 9, 25]) and backed(who, text, [])
    assert not backed(who, text, [27, 25, 9])
    assert backed(dummy, "can dummy call the director?", [27, 25, 16])  # its topic named in words
    assert backed(dummy, "can he call the director?", [27, 9, 16])  # a law it cites ranked second
    assert not backed(dummy, "can he call the director?", [27, 25, 9])


def test_a_long_post_gets_the_law_it_names_over_a_general_first_law(answers: Answers, tmp_path: Path) -> None:
    """A forum post tells a whole story, so the matcher may rank first Law 16 for "partner", "bid" and "pass"
    when the post names its irregularity further down: the named law among the next two is answered instead."""
    post = (
        "North opened 2H. West, who had not seen the opening, bid 2C and I was called to the table. That is an "
        "insufficient bid and she could not think of a comparable call, so I said she could pass but her partner "
        "would then have to pass. Was I right?"
    )
    assert answers.forms.is_post(post) and not answers.forms.is_post("partner bid 2C over 2H, insufficient")

    def law(number: int) -> Candidate:
        return Candidate(number, "", (), 90.0, ())

    assert answers.named_over_general(post, (law(16), law(20), law(27))) == law(27)
    assert answers.named_over_general(post + " Partner had hesitated.", (law(16), law(27))) is None  # 16 named
    assert answers.named_over_general(post, (law(64), law(27))) is None  # a first law that is not general
    assert answers.named_over_general(post, (law(16), law(20), law(79), law(27))) is None  # named too far down
    (tmp_path / "general.yaml").write_text('edition: "2017"\ngeneral: [16]\nnamed: {27: "insufficient"}\n')
    with pytest.raises(KnowledgeError, match="'named' maps a law number"):
        read_general_laws(tmp_path)


def test_a_question_gets_the_law_its_asking_words_name_over_the_storys_first_law(
    answers: Answers, tmp_path: Path
) -> None:
    """A player tells a story and then asks about one rule in it: "can I take my card back?" asks about
    retraction (Law 47) even when the story's words rank another law first. Only the asking sentences count,
    and a first law the asking words also name is kept."""
    question = "Partner hesitated and I played the 3 of clubs. Next player hasn't played yet. Can I take my card back?"
    assert asking_part(question) == "can i take my card back?"
    assert asking_part("I took my card back.\nPartner had hesitated? Or not") == "partner had hesitated?"
    assert asking_part("she redoubled before her turn") == ""

    def law(number: int) -> Candidate:
        return Candidate(number, "", (), 90.0, ())

    assert answers.asked_over_first(question, (law(16), law(25), law(47))) == law(47)
    assert answers.asked_over_first(question, (law(45), law(47))) is None  # "was it played?" decides it too
    assert answers.asked_over_first(question, (law(16), law(25), law(7), law(47))) is None  # too far down
    told = "I took my card back after partner hesitated. What now?"  # the story's words, not the asking ones
    assert answers.asked_over_first(told, (law(16), law(47))) is None
    (tmp_path / "asking.yaml").write_text('edition: "2017"\nasked: {47: "take my card back"}\n')
    with pytest.raises(KnowledgeError, match="'asked' maps a law number"):
        read_general_laws(tmp_path)


def test_a_law_named_by_number_is_answered_when_the_matcher_ranks_it(answers: Answers) -> None:
    """A poster who names the law ("under Law 24B", "L82C") asks about it, even when the story's words rank
    another law first; a law named that the matcher does not rank at all is not taken on the number alone."""
    text = "Partner must pass for one round under Law 24B. Can I change my last call to place the contract?"
    assert answers.forms.laws_cited(text) == [24]
    assert answers.forms.laws_cited("the TD applied L82C, not l25a") == [82, 25]

    def law(number: int) -> Candidate:
        return Candidate(number, "", (), 90.0, ())

    named = answers.forms.laws_cited(text)
    assert answers.cited(named, (law(25), law(21), law(24))) == law(24)
    assert answers.cited(named, (law(25), law(21))) is None
    assert answers.cited(answers.forms.laws_cited("can I change my last call?"), (law(25), law(24))) is None


@pytest.mark.parametrize(
    ("question", "case"),
    [
        ("can dummy call the director when declarer revokes?", "dummy-calls-director"),
        ("how much do we score for 4 spades doubled going one down vulnerable?", "scoring-undertricks"),
    ],
)
def test_the_case_stating_the_most_conditions_wins(answers: Answers, question: str, case: str) -> None:
    topic = answers.read(question).topic
    assert topic is not None and topic.key == case


def test_the_barred_answer_says_the_player_may_bid() -> None:
    """The old answer, Law 37's, said partner must pass for the rest of the auction: the opposite of 16B1."""
    case = next(c for c in load_cases() if c.id == "hesitation-may-bid")
    assert case.answer.sentences[0].text.startswith("Partner's hesitation does not bar you from bidding")
    assert "must pass" not in case.answer.text


def test_the_inadmissible_call_answer_says_what_stands_once_the_next_player_has_called() -> None:
    """It said only that "other rules apply" once left-hand opponent had called, and then that both partners
    must pass throughout: a barred player's 3NT called over stands (37A), and a late-found double is left out
    of the score (36C)."""
    summary = load_charts()["inadmissible-call"].summary
    first = summary.sentences[0]
    assert "stands with all later calls" in first.text and first.laws[0] == "37A"
    assert "other rules apply" not in summary.text
    assert "36C" in summary.laws


def test_dummy_who_points_out_an_irregularity_learns_of_the_penalty() -> None:
    """A dummy asked "is there a penalty for me?" after announcing a revoke: Law 43B1 makes dummy liable for
    breaking 43A1 too, not only after exchanging hands or looking at a defender's cards."""
    case = next(c for c in load_cases() if c.id == "dummy-and-irregularities")
    first = case.answer.sentences[0]
    assert "procedural penalty" in first.text and "43B1" in first.laws


def test_a_player_whose_own_hesitation_partner_used_is_told_their_side_is_adjusted() -> None:
    """16B3 adjusts against the side that gained from the unauthorized information: the asker's own. The answer
    said "the opponents gain", so a player whose side gained read that nothing happens."""
    case = next(c for c in load_cases() if c.id == "own-tempo")
    assert "your side gains" in case.answer.text and "opponents gain" not in case.answer.text


def test_summaries_keep_the_conditions_their_laws_state() -> None:
    """Read against the 2017 text: no lead restrictions once the next player called over a bid above seven
    (38D); a repeated call out of turn is free of rectification only if legal (31A1, 32A1); a wrong explanation
    found in the play is still corrected (75B2); a low card is minor only when it is a defender's single penalty
    card (50B); partner's mistaken explanation bars the call it suggests over a logical alternative (16B1(a))."""
    charts = load_charts()
    assert "unless the next player" in charts["inadmissible-call"].summary.text
    assert "if it is legal" in charts["call-out-of-rotation"].summary.text
    assert "75B2" in charts["explanation-of-calls"].summary.laws
    for chart in ("defender-exposes-card", "penalty-card"):
        assert "two or more penalty cards" in charts[chart].summary.text
    explained = next(case for case in load_cases() if case.id == "partners-mistaken-explanation")
    assert "logical alternative" in explained.answer.sentences[0].text


@pytest.mark.parametrize(
    "question",
    [
        "Declarer told me it was my lead, so I led the jack. It was his lead. Is my jack a penalty card?",
        "rho said 'your lead' so i led, but partner had won the trick",
    ],
)
def test_a_lead_an_opponent_called_for_is_taken_back_without_penalty(answers: Answers, question: str) -> None:
    """47E1: the card goes back without further rectification; the penalty-card answer told the asker the
    opposite."""
    topic = answers.read(question).topic
    assert topic is not None and topic.key == "told-it-was-my-lead"


@pytest.mark.parametrize(
    "question",
    [
        "declarer led a spade from dummy, i had no spades so i played a small diamond; declarer says i had to trump it",
        "do i have to ruff if i can't follow suit?",
    ],
)
def test_a_player_asking_whether_they_must_trump_is_told_there_is_no_such_duty(answers: Answers, question: str) -> None:
    """44D: a player unable to follow suit may play any card. The story got the dummy, revoke or inability answer."""
    topic = answers.read(question).topic
    assert topic is not None and topic.key == "no-duty-to-trump"
    assert topic.summary.sentences[0].laws == ("44D",)


def test_a_claimer_who_needs_to_ruff_is_not_asking_about_a_duty_to_trump() -> None:
    assert not read_concepts()["must-trump"].stated("claimed and then said oh wait i need to ruff a club first")


def test_partner_telling_me_it_was_my_lead_is_not_an_opponent_misinforming() -> None:
    concept = read_concepts()["told-my-turn"]
    assert concept.stated("rho told me it was my lead")
    assert not concept.stated("partner told me it was my lead")


def test_the_players_knowledge_lints_clean() -> None:
    assert lint_players_words(load_lawbook()).problems == []


def test_a_concept_named_twice_is_reported_not_silently_dropped(tmp_path: Path) -> None:
    """YAML keeps the last of two keys of one name: a second concept 'redeal-asked' would hide the first."""
    (tmp_path / "knowledge").mkdir()
    (tmp_path / "knowledge" / "concepts.yaml").write_text(
        "concepts:\n  redeal-asked: ['redeal']\n  late: ['later']\n  redeal-asked: ['shuffle again']\n",
        encoding="utf-8",
    )
    (tmp_path / "knowledge" / "broken.yaml").write_text("concepts: [unclosed\n", encoding="utf-8")
    problems = [str(p) for p in lint_repeated_keys(tmp_path / "knowledge").problems]
    assert problems[0].startswith("knowledge/broken.yaml: not valid YAML")
    assert problems[1:] == ["knowledge/concepts.yaml: key given twice: line 4: redeal-asked"]


def test_a_law_named_by_number_keeps_special_answers_about_other_laws_away(answers: Answers) -> None:
    """A poster who asks "does Law 68D let us play on?" asks about Law 68D, however well a claim that forgot a
    trump fits the story; a case whose sections refer to the law named still counts (41B names 20F2)."""
    cases = {c.id: c for c in answers.cases}
    assert not answers.about_named(cases["claim-forgot-trump"], {68})
    assert answers.about_named(cases["claim-doubted"], {68})
    assert answers.about_named(cases["opening-lead-face-down"], {20})
    assert answers.about_named(cases["claim-forgot-trump"], set())
    text = (
        "Declarer claimed the rest but had forgotten East's small trump. We asked to play it out instead of "
        "calling the TD. Under Law 68D can we do that?"
    )
    topic = answers.read(text).topic
    assert topic is not None and topic.key != "claim-forgot-trump"


@pytest.mark.parametrize(
    ("question", "case"),
    [
        # Law 2: a board used as marked is bid, played and scored as marked; a score asked with the marking in
        # dispute is about the marking, not the scoring table.
        ("board 7 was marked none vulnerable but i thought board 7 is both vul? which counts", "board-markings"),
        ("the board says west dealer but we think it should be north, does it matter?", "board-markings"),
        # a board's number asked for its dealer and vulnerability is a question of Law 2, not an incident
        ("whos dealer on board 23 and who's vul?", "board-markings"),
        ("which boards are north-south vulnerable?", "board-markings"),
        # A spectator's reaction is Law 76, not the players' manners (Law 74).
        ("my husband was watching behind me and pulled a face when partner bid 6nt. is there a rule?", "spectators"),
        # The asker's side of the table: partner hesitated, so the opponents' tempo answers do not fit.
        (
            "partner thought for a very long time and passed; opps said i used his slow pass. am i not allowed to bid?",
            "hesitation-may-bid",
        ),
        ("if an opponent hesitates and i read something into it and i'm wrong, bad luck?", "opponents-tempo"),
        # the twenty-first reading: an opponent's tempo that fooled the asker, a board one of us had played
        # already, cards stuck together, a board passed out by all four, a card seen before anyone called
        ("rho paused ages then played low, i assumed he had the king and he fooled me. redress?", "opponents-tempo"),
        ("we had already played this board in an earlier round. what score do we get?", "board-played-by-wrong-pairs"),
        ("two of my hearts came out together, both face up. which one is played?", "two-cards-at-once"),
        ("all four of us passed board 9; can we shuffle and redeal it?", "passed-out"),
        (
            "I saw LHO's queen of clubs as he took his cards out, before anyone had bid. What now?",
            "extraneous-information",
        ),
        # the twenty-third reading: the special answer in the player's own words (a kibitzer, partner who
        # "explains" my bid, rolled eyes, a card dropped while defending, a bid swapped "before the director came",
        # a claim played out instead)
        ("can someone watching our table tell us we miscounted the tricks?", "spectators"),
        (
            "my partner explains my bids wrongly sometimes; may I use that I now know he misread my bid?",
            "partners-mistaken-explanation",
        ),
        ("is it rude to roll my eyes at partner's lead?", "manners-at-the-table"),
        ("as a defender I dropped the 6 of hearts face up. must I play it next?", "defender-dropped-card"),
        (
            "RHO bid 1H over my 1S, then said sorry and put out 2H instead before the director came. Does 2H stand?",
            "insufficient-bid-replaced-early",
        ),
        (
            "we disputed declarer's claim and all agreed to play it out instead of calling the director. can declarer "
            "still ask for a ruling on the claim?",
            "claim-doubted",
        ),
        # the twenty-fourth reading: the special answer in other words and tenses (an opponent's call put out
        # before I had a chance, waiting "for ages", an opponent berating me, an alert missing, a waiver said to
        # the offender, declarer saying I "had to lead", "expected to", a board "previously played", "can anybody")
        (
            "the opponent on my right opened 1C before I'd had a chance; I didn't notice and passed. does "
            "their 1C still count?",
            "called-over-out-of-turn",
        ),
        (
            "declarer sat waiting for ages before playing from his hand, though he had a singleton, so I ducked "
            "thinking he had the ace. is that fair?",
            "opponents-tempo",
        ),
        ("an opponent kept berating me about my defence after every board. what can I do?", "manners-at-the-table"),
        (
            "RHO's 2C wasn't alerted, so I doubled; then I learnt it was Stayman. partner hasn't called. can I "
            "change my double?",
            "call-changed-after-misinformation",
        ),
        (
            "the opponents revoked and we told them never mind and played on. can we still ask for the tricks later?",
            "settled-without-director",
        ),
        ("declarer told me I had to lead a diamond but I haven't got any. What do I do?", "cannot-comply"),
        ("are we expected to shuffle the cards before they go back in the board?", "shuffling-cards-back"),
        (
            "we previously played board 14 against another pair and it came to us again. what's our score?",
            "board-played-by-wrong-pairs",
        ),
        ("can anybody revoke on purpose if they're happy to give up the tricks?", "infraction-on-purpose"),
        # a practice asked about with a word put in ("even") is a question, not a director's incident
        ("opps psyched against us last night. is psyching even legal?", "conventions-regulated"),
    ],
)
def test_the_rule_that_decides_the_askers_case_is_answered(answers: Answers, question: str, case: str) -> None:
    topic = answers.read(question).topic
    assert topic is not None and topic.key == case, topic


def test_a_points_difference_is_answered_with_its_imps(answers: Answers) -> None:
    """ "What's a 450 point difference worth?" got a scale that stops at 420 and 620; the IMPs come from the
    78B scale in the scoring code, and a question naming two scores is left to the scale."""
    topic = answers.read("how do imps work, like whats a 450 point difference worth?").topic
    assert topic is not None and topic.key == "imps"
    assert topic.summary.sentences[0].text == "A difference of 450 points is 10 IMPs."
    assert topic.summary.sentences[0].laws == ("78B",)
    one = answers.read("is a 20 point swing worth anything in imps?").topic
    assert one is not None and one.summary.sentences[0].text == "A difference of 20 points is 1 IMP."
    two = answers.read("we scored 620 and they scored 100 points on board 5, how many imps is that?").topic
    assert two is not None and two.summary == next(c.answer for c in answers.cases if c.id == "imps")


@pytest.mark.parametrize(
    ("question", "first"),
    [
        # the same exception whichever answer of the topic the question reached (53A's footnote)
        (
            "At the very end of the hand my LHO led his last card when it was really partner's lead. Can I accept it?",
            "53A",
        ),
        ("final trick of the board, declarer led from the wrong hand and we said we accept it. why can't we?", "53A"),
        ("In the middle of trick 8 I said 'this one's mine' and showed my king. Is that a claim?", "68"),
        ("Defending, I said 'we've got this trick' while the trick was still going. Is my card a penalty card?", "68"),
        ("from dummy declarer called for the 9 of clubs and dummy has no clubs at all. what card is played?", "46B4"),
        ("Declarer revoked and the revoke trick was won by a ruff in dummy. Is that two tricks to us?", "64A1"),
        ("Dummy kept pointing at the card he thought declarer should play. What can we do?", "45F"),
        (
            "I led a club, then before dummy came down they corrected their explanation. Can I take my lead back?",
            "47E2(a)",
        ),
        ("how long after the scores are posted can a wrong score still be corrected?", "79C1"),
        ("As dummy I got up to watch declarer and told him he was in the wrong hand. What happens now?", "43A2(b)"),
        ("RHO revoked in clubs and later I revoked in hearts, both established. Do we get tricks?", "64B7"),
        ("I paused for ages holding a singleton club before I played it. Did I break a rule?", "73D2"),
        ("Dummy had a heart hidden behind the spades and showed out of hearts at trick 3. Tricks to us?", "64B3"),
        ("I said 'double four spades' when RHO had actually bid four hearts. What have I doubled?", "19A3"),
        ("LHO opened 1H before the dealer had called, and the dealer bid 1S anyway. Is the 1H cancelled?", "28B"),
        ("RHO bid 2C, I bid 1D by mistake and then put out 2D before anyone called the TD. Does 2D stand?", "27C"),
        # a story decided by what was done or noticed afterwards, whatever its first sentence told
        (
            "Partner opened 1♠, RHO bid 1♦, and my partner told him he could just change it to 2♦. Is that all right?",
            "10A",
        ),
        (
            "At trick 10 my LHO found the queen of clubs under her chair; she had thrown a heart on a club lead "
            "earlier. Revoke?",
            "14B4",
        ),
        (
            "We agreed to declarer's claim and scored it, but later we noticed our jack of hearts was still good. "
            "Can we have it back?",
            "69B2",
        ),
        (
            "Dummy saw me discard a club on a spade lead and then follow to a spade later, and the director said he "
            "had been wrong to let dummy speak. What now?",
            "82C",
        ),
        ("The director adjusted our score after a hesitation and I think she got it wrong. What can I do?", "92B"),
        # the rule a strict reading found missing from the answer of the topic (the sixteenth round)
        ("Wrong defender led; I began putting my hand down and a couple of cards showed. Can I stop?", "54A"),
        ("Partner's penalty card is the 5 of clubs. Declarer required a club lead. Does it go back?", "50D2(a)"),
        ("as declarer i dropped the queen of hearts on the table, do i have to play it now?", "48A"),
        ("I reneged and it was never noticed. Should I tell the opponents?", "72B2"),
        ("Dummy never followed to the second round of spades although it had one. Any tricks for us?", "64B3"),
        ("We played the wrong board, nobody had played it before. Do we also play our own one?", "15B2"),
        ("RHO hesitated a long time, then passed. Can I act on that?", "73D1"),
        ("Could the next table hear us discussing the last hand? Is that a penalty?", "90B3"),
        # the seventeenth round's kinds
        ("At trick 9 declarer said 'I'm going to lose two more hearts'. Has declarer conceded them?", "68B1"),
        ("A defender claimed the rest; it only works if their partner discards the right card. Allowed?", "70D2"),
        ("Can I take into account that my opponent is a known wild overcaller when I choose my bid?", "16A2"),
        ("We disagreed about 8 or 9 tricks, and dummy had already gathered up all the cards. Who wins?", "66D"),
        ("After the ruling on our insufficient bid, partner made the call that suited us best. Allowed?", "10C4"),
        (
            "declarer forbade a club lead, my partner's club queen penalty card was picked up, and I later led a club "
            "knowing partner had the queen. was that legal?",
            "50E2",
        ),
        # the twentieth round's kinds: what the strict readings left incomplete or off the point
        (
            "LHO led when it was RHO's lead and I followed from dummy; only then did RHO say it had been his lead. "
            "Does it stand?",
            "53A",
        ),
        ("If my partner reneges, do I have to tell the opponents?", "72B2"),
        ("Our 4H making was entered as 4H down and I saw it on the club website three days later. Fixable?", "79C1"),
        ("whats the definition of a comparable call when someone bids out of turn?", "23A"),
        ("RHO's 2D transfer wasn't alerted, and we only found out in the play. What can the TD do?", "21B1(a)"),
        ("I had misexplained partner's bid and corrected it; the TD allowed LHO to change her bid. Right?", "21B1(a)"),
        # the twenty-first round's kinds: the nineteenth strict reading's
        ("Defending, I told declarer the last two were his; my partner said no at once. Penalty cards?", "68B2"),
        ("Must the TD tell players that they are entitled to appeal?", "83"),
        ("Is it an offence to compare results with a pair at another table halfway through the evening?", "90B4"),
        ("Partner doubled our own 1NT by mistake and LHO then bid 2H. Does the double stand?", "36A"),
        ("Declarer claimed; she had to guess who held the king of spades and never mentioned it. Our trick?", "70E1"),
        ("Declarer simply faced his cards at trick 11. Was that a claim?", "68A"),
        ("LHO corrected her revoke before the next trick. Can dummy's card be changed too?", "62C1"),
        ("RHO said they had no agreement about 2S, but their system card says it's weak. Redress?", "75B1"),
        ("Should I tell the opps about partner's habits, like pre-empting on thin suits, when they ask?", "40B5(a)"),
        ("LHO laid his 1C on the table before my partner had called; partner didn't notice and bid 1H. Now?", "28B"),
        # the twentieth strict reading's wrong answers: a misbid explained right (75C), a revoke on trick 12
        # (62D1, 64B6), a meaning assumed without asking (21A)
        (
            "We play Stayman but I bid 2C meaning clubs; partner alerted and said Stayman. Do the opps get redress?",
            "75C",
        ),
        (
            "Declarer discarded at trick 12 holding a heart and the TD had him correct it. Do we get a trick too?",
            "62D1",
        ),
        ("their 1NT response wasn't alerted, I just assumed it was forcing and passed. Can I get redress?", "21A"),
        ("my deal, but RHO opened 1S before I had called; I didn't notice and opened 1H. Is RHO's 1S punished?", "28B"),
        # the twentieth reading's siblings: the spectator, the harsh rectification
        ("As declarer I nearly led from hand; partner, dummy, said 'you're on the table'. Was that allowed?", "42B2"),
        ("Something went wrong with board 4 in our teams match. Can the director just redeal it?", "6D3"),
        ("The pair at the next table were talking about board 9 loudly. Will they be penalised for that?", "90B3"),
        ("Declarer claimed and a kibitzer behind him said 'the trump is still out'. What now?", "76B5"),
        ("The revoke cost us two tricks, far more than the slip deserved. Can the TD reduce it as too severe?", "12B2"),
        # the twenty-first reading's siblings: dummy asking declarer, a dummy card re-named, a refused lead's
        # penalty card with its lead option, a double said with its bid, uncounted cards and a procedural penalty
        (
            "Declarer ruffed a heart and I, as dummy, said 'no hearts?'. LHO said dummy must keep quiet. Who's right?",
            "42B1",
        ),
        (
            "Declarer called the queen from dummy, RHO followed, then declarer said he misspoke. Can he change it?",
            "45C4(b)",
        ),
        ("My lead out of turn became a penalty card and now partner may not lead spades. Both? Really?", "50D2(a)"),
        ("Partner said 'double 2 hearts' and RHO says that's not the correct form. Is that right?", "19A2"),
        ("I held twelve cards through the auction and the TD added a procedural penalty. Why?", "90B7"),
        (
            "As defender I pulled the 8 and the 3 of clubs together, both face up; what does the penalty card mean?",
            "50C",
        ),
        # the twenty-first strict reading's wrong and incomplete answers, in other words: a misbid whose
        # explanation was the agreement (75C), a score entered for the wrong side found the next day (79C2), an
        # opponent's question that told partner what to lead (16B1(a)), a ban that lasts while partner keeps the lead
        (
            "I opened 2C forgetting we play it as strong; partner explained it as strong, which is our system. Now?",
            "75C",
        ),
        (
            "Our 3NT= was entered the wrong way round, as if the opps made it; we saw it next day. Can it be fixed?",
            "79C1",
        ),
        (
            "LHO asked about our 2D and I think the question told his partner to lead a diamond. Can we do anything?",
            "16B1(a)",
        ),
        (
            "Partner's ace is a major penalty card and declarer banned hearts; I won the trick. May I lead a heart?",
            "50D2(a)",
        ),
        # players waiving a rectification themselves; the innocent side choosing its best option
        ("Our opponents revoked but we said we'd rather waive the penalty, it's only a club night. OK?", "10A"),
        ("When LHO made an irregularity, may I choose the option that helps us most?", "10C3"),
        # the twenty-second strict reading's kinds, in other words
        ("It was my turn to call but RHO had already bid 2S. I didn't even notice and passed. Any penalty?", "28B"),
        ("The club entered our 4S as -620 and I only saw it on the results online a week later. Too late?", "79C2"),
        ("Declarer laid all his cards face up on the table at trick 8 and said nothing. Is that a claim?", "68A"),
        ("We argued over the trick count, and dummy had gathered his cards up. Who gets the doubtful trick?", "66D"),
        ("My hand had twelve cards in the bidding, and I found the missing one in the board. Must we redeal?", "14A3"),
        ("At the end declarer had one card too many; I think he never played to trick 7. What happens?", "67B1(b)"),
        ("RHO says my partner hesitated, we say she didn't. How does the director decide who is right?", "85A1"),
        ("Is it OK to fold my cards up when I know the rest of the tricks are theirs?", "74C6"),
        ("I took my cards from board 4 instead of board 3 and bid. Can partner use what I bid then?", "15A2(c)"),
        ("Do I have to tell opponents inferences any bridge player would work out from the auction?", "40B5(a)"),
        ("Can I bid more aggressively because the opps are weak players and we need tops?", "16A2"),
        # a natural call assumed without asking is the player's own, an artificial one's missing alert is not
        ("their 2NT wasn't alerted and I assumed it showed the minors, but it was natural. Any redress?", "21A"),
        ("LHO's 2D wasn't alerted; we took it as natural but it turned out to be a transfer. Anything for us?", "21B3"),
        # the twenty-third reading: a session percentage above 60% kept, playing on needlessly, the opponent who
        # called over partner's call out of turn, a double of partner's call, twelve cards and "reshuffle", the
        # suit of a refused lead required, declarer's spread begun when declarer is "my partner"
        (
            "we'd scored 64% all session, then a board couldn't be played through no fault of ours. stuck with 60%?",
            "12C2(c)",
        ),
        ("lho keeps playing every card out when all the remaining tricks are obviously his. is that allowed?", "74B4"),
        (
            "partner bid 1S when it was RHO's turn, and RHO then bid 2C without noticing. what happens to 1S?",
            "28B",
        ),
        ("I doubled partner's 2H thinking LHO had bid it, and then LHO bid 3C. what now?", "36A"),
        # the twenty-fourth reading: dummy nudging a card, told as declarer
        (
            "when I'm declarer my dummy keeps nudging the card she wants me to play; the director said play on. "
            "is that allowed?",
            "45F",
        ),
        ("I had only twelve cards before the opening lead. Do we have to reshuffle?", "14A1"),
        (
            "partner has a penalty spade on the table and a heart was led. must she follow or play the spade?",
            "50D1(b)",
        ),
        (
            "partner led out of turn, declarer made her pick it up, and later he forced me to lead that suit. legal?",
            "50D2(a)",
        ),
        (
            "RHO led out of turn and my partner, who was declarer, began laying his hand down, then stopped. Can he?",
            "54A",
        ),
        # a barred player who doubled an opponent's bid "without thinking" broke 37, not 19A1: the calls stand (37A),
        # they are not cancelled (36A)
        ("my partner was barred but doubled their 2h without thinking and lho bid 3h over it. what now?", "37A"),
        # the twenty-eighth reading: damage added afterwards told as "something crazy" or "we blundered"
        (
            "if the opps break a rule but then we do something crazy ourselves afterwards, do we still get redress",
            "12C1(e)",
        ),
        ("after their infraction we blundered in the play. can the td still adjust?", "12C1(e)"),
        # the twenty-eighth readings' wordings: a seat in an aside, a card with its suit symbol first, a negation,
        # an adverb or an object between the words a concept was written for
        ("partner dropped the ♥6 face up. declarer says i must lead a heart now. is that so?", "50B"),
        (
            "i led out of turn at trick 7 (not the opening lead), declarer made me take it back. is it a penalty card?",
            "56B",
        ),
        ("partner has a penalty card and i led a club straight away when i won the trick. was that wrong?", "50D2"),
        (
            "i had forgotten to alert partner's transfer. the opponents were damaged; will the td adjust the score?",
            "21B3",
        ),
        ("i was dummy and told rho 'no hearts?'. he found one. does the revoke get corrected?", "62A"),
        ("in the bidding lho asked about my 3c, then her partner led a club. was the question a hint?", "16B1(a)"),
        ("is there really a rule that you must call at a steady tempo?", "73D1"),
        ("i called for the 8 of spades from dummy but there was not one. what now?", "46B4"),
        ("dummy shouted out that lho had revoked. is that allowed?", "43A1(b)"),
        # the thirty-fourth reading B's WRONG kinds, in other words: who did what, and when
        (
            "we conceded the last trick and only realised a week later it was a sure winner. can the td still give "
            "it back?",
            "71",
        ),
        (
            "declarer claimed the rest and dummy objected that a heart was still to lose. lho said dummy must keep "
            "quiet. who is right?",
            "68D2",
        ),
        (
            "on trick 9, partner was still thinking about what to play when i said 'don't worry, i've got the queen' "
            "and showed it. penalty card?",
            "68",
        ),
        (
            "declarer made me lead a club, so partner's penalty ♣J went back into his hand. may I defend knowing "
            "partner has it?",
            "50E2",
        ),
        (
            "dummy led a spade, partner played low and i threw my king down before declarer played from hand. "
            "penalty card?",
            "57D",
        ),
        (
            "a revoke we spotted only after the round was called and we had moved tables - do we still get a trick?",
            "64B5",
        ),
        (
            "on trick 5 lho ruffed though he had a diamond and declarer discarded though she had one too. rho had "
            "already led to trick 6 but declarer hadn't played. what now?",
            "62C3",
        ),
        (
            "declarer led from dummy though it was my lead, since i had won the last trick, and i then led my own ace "
            "of spades. what happens to the card from dummy?",
            "53B",
        ),
        (
            "could I change my opening lead after dummy came down, when declarer then corrected his explanation?",
            "47E2(a)",
        ),
        (
            "I named the four of hearts from dummy but partner put out the jack instead, and we only noticed three "
            "tricks later. Does it stand?",
            "45D2",
        ),
        # a change of mind passed over: 25B's rule (cancelled unless LHO calls over it, then it stands), not 10A's
        ("I bid 3NT, then changed my mind to 4S; nobody called the TD and LHO passed. Does 4S stand?", "25B1"),
    ],
)
def test_the_exception_a_question_names_leads_its_answer(answers: Answers, question: str, first: str) -> None:
    """A question naming an exception's trigger gets that rule first, whichever answer of the topic was picked:
    the trick-13 lead was in one lead answer only, the trick in progress in the defender's-card answer only."""
    topic = answers.read(question, "player").topic
    assert topic is not None and first in topic.summary.sentences[0].laws, topic
    assert topic.summary.words <= SUMMARY_WORDS


def test_an_exception_stays_out_of_questions_that_do_not_name_it(answers: Answers) -> None:
    """ "Dummy won the last trick" is the trick before, not trick thirteen; dummy pointing out a revoke is not
    dummy indicating a card; a side that bid over a call out of turn, a card found before the lead and the
    Director's own instruction are not what the later stories' exceptions are about."""
    sentences = {e.sentence for e in load_exceptions()}
    for question in [
        "LHO led out of turn, dummy won the last trick so it was declarer's lead. Can we accept it?",
        "dummy pointed out a defender's revoke during the play, is she allowed to?",
        # a singleton held in the auction is not the 73D2 pause; two revokes by one side are not 64B7
        "partner tanked over 3S, then passed. I had a singleton spade so I bid 4H. Was I allowed to?",
        "my partner revoked and then I revoked too on the same board, what happens?",
        # partner's own call out of turn, a correctly stated double and a sufficient bid changed are not these
        "my partner bid out of turn before me and then I bid anyway, what happens now?",
        "I said 'double 3 spades' over RHO's 3 spades. Can partner bid on?",
        "RHO opened 1NT and I bid 2S, then changed it to 3S before the director came. Does 3S stand?",
        # calling over an irregularity accepts it under its own law: not the players putting it right (10A)
        "I bid 1♥ before my LHO, the dealer, had called; nobody called the director and LHO simply bid over it. "
        "What happens?",
        # a card found before the opening lead is restored under 14A, not 14B
        "I found a card on the floor before the opening lead, the auction was over. What now?",
        # the Director, not a player, telling the offender what to do
        "The director told the defender to pick up her card and put it back. Was that right?",
        # declarer showing out is no exposed card; partner's hesitation is not an opponent's tempo (73D1)
        "declarer showed out of hearts at trick 3 and later produced one. what happens?",
        "partner hesitated for ages before passing. may I use that?",
        # information a player overheard from another table is Law 16D's, not the talkers' penalty
        "I overheard the next table discussing board 5 before we played it. What should I do?",
        # dummy spreading after a lead out of turn is not declarer's spread begun (54A)
        "wrong defender led, and dummy had already started putting his cards down. can i still refuse the lead?",
        # a claim of tricks won, a declarer's claim, and a need for a top with partner's hesitation are not these
        "declarer said 'I'll win the rest' and showed the hand. Is that a claim?",
        "declarer claimed, but it depends on the club finesse. Do we get a trick?",
        "partner hesitated and then I bid a slam because we needed a top. Was I allowed to?",
        # a lead made because an opponent said it was the player's turn is 47E1's, even after dummy played to it;
        # one's own side's missing alert is 20F5's; whether to alert is the regulations'; a comparable call used
        "RHO told me it was my lead, so I led, and declarer played from dummy. Can I take it back?",
        "my partner didn't alert my 2D transfer. what should I do?",
        # a spectator only present, a revoke penalty not called harsh, a claim disputed and not played out
        "my friend was watching behind me when declarer claimed with a trump still out. what happens?",
        "partner revoked and the TD gave them two tricks. is that right?",
        "do I have to alert a transfer over 1NT?",
        "after my insufficient bid I made a comparable call. is partner barred?",
        # declarer's own concession; how to appeal; a revoke's own card; an opponent doubling partner's bid
        "declarer conceded the last trick and dummy objected straight away. does the concession stand?",
        "the TD told us we can appeal. how long do we have?",
        "I revoked and corrected it before the next trick. Can I change my card?",
        "RHO doubled my partner's 1NT, and I bid 2C. Is that Stayman?",
        # forgetting to alert is not forgetting the agreement; a revoke on trick 3 is not the twelfth trick's
        "I forgot to alert partner's transfer and the opponents were misled. What now?",
        "LHO revoked at trick 3 and we noticed at the end. How many tricks do we get?",
        # a card of declarer's own hand named wrongly is not dummy's (45C4(b)); a count in the auction is no form
        "I played the king from my own hand but I meant the queen. Can I change it?",
        "LHO doubled 4 hearts and I wasn't sure whether to redouble. Is it ever right?",
        # dummy's card not played is 64B3's (a change of mind passed over is 25B's, whose own exception leads it:
        # see test_the_exception_a_question_names_leads_its_answer)
        "dummy never played to trick 4 and we found out at the end. Is a trick transferred?",
        # a weighted score in a session is no artificial score (12C2(c)); partner's own call out of turn passed over
        # by the asker is not the opponent calling in turn (28B); a head shaken by partner is not the manners answer
        "the td gave us 60% of 4S making and 40% of 4S down one in the evening session. how does that work?",
        "partner opened out of turn and then I passed. what now?",
        # a card "sitting behind" a holding is no spectator
        "the declarer claimed saying she would finesse, but the jack was sitting behind her KQ10 and it lost. do "
        "we get a trick?",
        # declarer pushing a dummy card aside to reach another is not dummy indicating one (45F)
        "i touched the king in dummy just to push it aside to reach the ten, is the king played?",
    ]:
        topic = answers.read(question, "player").topic
        assert topic is not None and topic.summary.sentences[0] not in sentences, topic


def test_an_exception_leads_and_the_answer_stays_short() -> None:
    """The sentence it states the rule of gives way to it, the rest follow, and the end is left off past 120 words."""
    old = Sentence("Old rule.", ("68",))
    long = Sentence(" ".join(["word"] * 60) + ".", ("50",))
    summary = Summary((old, long, Sentence("More " + long.text, ("50",))))
    first = Sentence("The exception.", ("68",))
    led = led_by(summary, first)
    assert led.sentences[0] == first and old not in led.sentences
    assert led.words <= SUMMARY_WORDS and len(led.sentences) == 2
    assert led_by(summary, first, give_way=False).sentences[1] == old


def test_every_exception_is_cited_and_names_known_concepts(tmp_path: Path) -> None:
    assert {e.id for e in load_exceptions()} >= {"lead-at-trick-thirteen", "trick-in-progress", "card-not-in-dummy"}
    (tmp_path / "x.yaml").write_text(
        'edition: "2017"\nexceptions:\n  - {id: x, laws: [53], when: [nowhere], '
        'sentence: {text: "X.", laws: ["53A"]}}\n',
        encoding="utf-8",
    )
    with pytest.raises(KnowledgeError, match="no concept 'nowhere'"):
        read_exceptions(tmp_path)


def test_a_word_boundary_written_in_double_quotes_is_refused(tmp_path: Path) -> None:
    """YAML reads "\\b" in double quotes as a backspace: two of the twentieth round's triggers never matched."""
    (tmp_path / "x.yaml").write_text('concepts:\n  asked:\n    - "\\bnever asked\\b"\n', encoding="utf-8")
    with pytest.raises(KnowledgeError, match="control character"):
        read_concepts(tmp_path)


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("We made two spades doubled with an overtrick, vulnerable. We wrote 670. Is that right?", "870"),
        ("They went two down in 4 spades doubled and vulnerable. How many points do we get?", "500"),
        ("what do we score for 4hxx= vul?", "1080"),
    ],
)
def test_a_contract_and_its_result_are_scored_for_the_asker(answers: Answers, question: str, first: str) -> None:
    """Law 77's table is worked for the contract the player names, by bot.scoring, and shown first."""
    topic = answers.read(question, "player").topic
    assert topic is not None and topic.key in {"scoring-made", "scoring-undertricks"}, topic
    assert first in topic.summary.sentences[0].text and topic.summary.sentences[0].laws == ("77",)
    assert topic.summary.words <= SUMMARY_WORDS


def test_a_score_is_not_guessed_when_the_vulnerability_would_change_it(answers: Answers) -> None:
    topic = answers.read("we made 4 hearts exactly, what is our score?", "player").topic
    assert topic is not None and not topic.summary.sentences[0].text[0].isdigit()


@pytest.mark.parametrize(
    ("question", "section"),
    [
        # putting a card on the table because an opponent said it was my lead is 47E1's, not a declarer beginning
        # to spread the hand after an opening lead out of turn (54A)
        (
            "Dummy told me it was my lead so I put the queen of hearts on the table, but it was declarer's lead. "
            "Is my queen a penalty card?",
            "54A",
        ),
        # 43B2(b) is about a play from declarer's hand; a defender's revoke an absent dummy asks about is 43B3's
        (
            "as dummy i went round behind to watch and saw rho discard while holding a spade, so i said "
            "'no spades?'. what happens?",
            "43B2(b)",
        ),
        # a plain lead from dummy with a defender playing before partner is 57A, not declarer's lead from the wrong
        # hand (53C); a defender's own lead out of turn refused is 56, not 60B; a defender's partner objecting to
        # 'we lose the rest' undoes the concession (68B2), so 68B1's line does not lead
        (
            "declarer led a diamond from dummy and before my partner had played i put my queen down. what can "
            "declarer do?",
            "53C",
        ),
        ("i led out of turn as a defender and declarer made me take it back. is my card a penalty card?", "60B"),
        ("defending, i said 'we lose the last two' and my partner objected at once. is that a concession?", "68B1"),
        # the thirty-fourth reading B's probes: a concession objected to at once never happened (68B2, not 71); a
        # remark while partner thinks about a lead is no trick in progress (49, not 68); the next hand following
        # to declarer's lead when no defender was on lead accepts it (53A, not 53B); dummy's wrong card noticed at
        # once is withdrawn (45D1, not 45D2); two revokes on different tricks, both established, are 64B7's; a
        # score entered wrong is no concession (79C2)
        ("i conceded the last trick but partner objected straight away and said 'no wait'. too late?", "71"),
        (
            "partner, on lead, was thinking about what to lead when i said 'i've still got the ace of trumps'. "
            "penalty card?",
            "68",
        ),
        (
            "declarer won in dummy but led from his hand, and lho followed with a low card. can we still make him "
            "lead from dummy?",
            "53B",
        ),
        (
            "dummy put out the jack instead of the three declarer called, and i noticed at once. can it be changed?",
            "45D2",
        ),
        (
            "on the same board both me and lho revoked, on different tricks, and both were established. any tricks?",
            "62C3",
        ),
        ("our 450 went in as 420 and we saw it after the correction period had run out. can it be fixed?", "71"),
    ],
)
def test_a_neighbouring_exception_does_not_lead_the_answer(answers: Answers, question: str, section: str) -> None:
    """An exception whose words the question shares but whose fact it does not state never comes first."""
    topic = answers.read(question, "player").topic
    assert topic is not None and section not in topic.summary.sentences[0].laws, topic


@pytest.mark.parametrize(
    ("question", "section"),
    [
        # a suit named to dummy without its rank is its lowest card (46B2), not an unnamed card dummy played (45D1)
        ("I told dummy 'club' meaning the ace but dummy played the two. Do I get the ace?", "46B2"),
        # a score found wrong after the Correction Period may still be corrected (79C2), not only 79C1's period
        (
            "the score went in as 140 not 170 and we only saw it two days later on the website, can it be corrected?",
            "79C2",
        ),
        # a dummy who left the seat and then warned declarer lets the defenders choose the hand (43B2(a))
        (
            "my partner, as dummy, came round behind me to look at my hand and then he said 'you're in hand "
            "partner'. can the defenders pick the hand now?",
            "43B2(a)",
        ),
        # reserving rights is allowed (16B2), whoever calls it rude
        ("after LHO's long pause I said I'd reserve my rights and RHO said I was being rude, was that ok?", "16B2"),
        # each side's revoke on one board transfers no tricks (64B7), told with any two players
        ("LHO and partner both revoked on the board, which tricks go across?", "64B7"),
        # a ruling the Director found wrong (82C), not the scoring of a contract "made us pass"
        (
            "i made an insufficient bid, the td made us pass throughout, later he said he had got it wrong. "
            "what do we get?",
            "82C",
        ),
        # a revoke found while a later board was being bid transfers no trick (64B4)
        (
            "declarer revoked on board 4 and nobody saw it. during the auction of board 6 my partner remembered. "
            "can we still get a trick?",
            "64B4",
        ),
        # a defender's concession that partner objected to at once, in the player's own shout, never happened (68B2)
        (
            "as a defender i said 'the rest are yours' and partner shouted 'hold on!' straight away. "
            "is my concession final?",
            "68B2",
        ),
        # a barred player's call that the next player called over stands, with no lead restrictions (37A)
        (
            "after my call out of turn my partner had to pass throughout, but he forgot and bid 3h, and lho "
            "passed over it before anyone noticed. what happens?",
            "37A",
        ),
        # a revoke by each side, told "both X and Y revoked", transfers no tricks (64B7)
        ("both declarer and I revoked on that board, both established. how many tricks go across?", "64B7"),
        # a dummy out of the seat who asks declarer about a revoke makes it count as established (43B2(b))
        (
            "i was dummy, got up to watch partner play, and asked 'no spades?' when he discarded. he had one. "
            "what happens now?",
            "43B2(b)",
        ),
        # the incomplete kinds: a refused lead out of turn while partner has the lead gives declarer 50D2's options
        (
            "i led out of turn but it was my partner's lead, and declarer told me to put it back. what now?",
            "50D2(a)",
        ),
        # an irregularity that saved the offenders a bad board: 72C's test, not only "may adjust"
        (
            "rho bid out of turn and had to pass after that. his bid out of turn saved them from a bad board "
            "in the end. can the td do anything?",
            "72C",
        ),
        # the twenty-seventh readings: a lower bid told as if partner were opening is insufficient (27B2)
        (
            "lho opened 2h and partner bid 1s by mistake, then passed when the td came. do i have to pass for "
            "the rest of the auction?",
            "27B2",
        ),
        # an opponent named with an aside told the player it was their lead (47E1)
        (
            "declarer, on my left, told me it was my lead, so i led. partner was on lead. is my card a penalty card?",
            "47E1",
        ),
        # a revoke found after the round had changed transfers no trick (64B5)
        (
            "we found out in the bar that lho had not followed to a heart, the round had long changed. any tricks?",
            "64B5",
        ),
        # partner's pass at the asker's left-hand opponent's turn bars partner, not the asker (30A)
        ("my partner passed when it was lho's turn, nobody had called. can i still bid?", "30A"),
        # the asker's call out of turn called over by the player whose turn it was (28B)
        ("i passed before my lho, who was dealer, and she then opened 1h. am i barred?", "28B"),
        # part of the auction restated is a partial review (20B), not a question about one call (20F3)
        ("can i have just the last few bids repeated?", "20B"),
        # a low card dropped by a defender is a minor penalty card: no lead restriction for partner (50C)
        ("i dropped the 5 of hearts face up in the play. declarer says partner may not lead hearts now. right?", "50C"),
        # the deciding sentences written for the twenty-seventh readings: 50D2's wait and 75D2's guess
        ("partner has a penalty card and i won the trick and led straight away. was i supposed to wait?", "50D2"),
        (
            "partner explained my 3c as a transfer but we never discussed it, he was guessing. why did the td adjust?",
            "75D2",
        ),
        # the thirtieth reading's WRONG kinds: a review after the lead is faced (41B) and a fouled board (87B)
        ("once the opening lead is faced can i still hear the bidding again?", "41B"),
        ("board 9 turned out to be fouled. how is it scored, do we get an average?", "87B"),
        # the thirty-second readings' WRONG kinds: dummy's card revoked (64B3), a dummy who saw a defender's hand
        # asks declarer (43B2(b)), partner's double of the asker's bid (36B1), a defender's concession objected to
        (
            "dummy had a heart left, yet declarer pitched a club from dummy on the heart lead. we found it later in "
            "the play. how many tricks do we get?",
            "64B3",
        ),
        (
            "i was dummy and went to the loo; coming back i glimpsed rho's hand. then declarer discarded on a club "
            "and i asked 'no clubs?'. what follows?",
            "43B2(b)",
        ),
        ("my 1s opening was doubled by my partner, he was miles away. nobody has called since. what now?", "36B1"),
        (
            "as a defender i told declarer 'have the rest' and showed my hand, but my partner objected straight "
            "away. are my cards penalty cards?",
            "68B2",
        ),
        # the twenty-eighth readings: two low cards a defender lets fall are both major, declarer picks (50B, 51A)
        ("while defending i dropped the 4 and the 9 of spades face up. are both minor penalty cards?", "50B"),
        ("in the play two of partner's small cards fell out face up at trick 4. which one must she play?", "51A"),
        # three passes with one out of rotation do not end the auction (17D3)
        (
            "pass, pass, pass went the bidding after my 2h, but rho had not yet called. was the auction over?",
            "17D3",
        ),
        # the thirtieth readings' INCOMPLETE kinds: the clause the story turns on, stated, in other words
        (
            "after i accepted their opening lead out of turn i played from dummy by mistake. can i take dummy's card "
            "back?",
            "54B2",
        ),
        (
            "i (dummy) played the ace before declarer named a card and lho followed. can lho take his card back?",
            "45D1",
        ),
        (
            "rho led out of turn and instead of calling the td my partner told him to lead a spade. it gave us the "
            "contract. do we keep it?",
            "11A",
        ),
        (
            "partner's double after the final pass was cancelled and declarer banned my heart lead. partner never "
            "bid hearts, can he?",
            "26B",
        ),
        ("what does 'could have been aware' mean in the laws?", "72C"),
        ("my wife was watching and gasped when declarer revoked, then partner noticed. do we lose the tricks?", "76C2"),
        ("declarer claimed and partner accepted, but i said no. what now?", "68D2(a)"),
        ("as declarer i put two cards on the same trick from my hand, what now?", "45E2"),
        (
            "i took my hand from the previous board still on the table and bid 1h; partner answered 2h. what now?",
            "15A2(a)",
        ),
        ("i had 12 cards and found the 13th in the board before the lead. does the auction stand?", "14A3"),
        ("lho hesitated and rho bid, so i said 'we might need the director later'. was that ok?", "16B2"),
        ("the cards got mixed before we agreed the tricks; we say 10, they say 9. who is right?", "66D"),
        ("i put my cards face up to show the rest were mine and the td treated it as a claim, why?", "68A"),
        ("declarer called for the 'jack' from dummy, which has two jacks that can follow. which is played?", "46B3(b)"),
        ("declarer calls for a card that is not actually in dummy, what happens?", "46B4"),
        ("is it still possible to have the auction read out again once dummy is down?", "41B"),
        # the thirty-second readings (b): a psych not disclosed (40C2), a double said with the wrong bid (19A3),
        # dummy stating the law before the Director (42A1), a card faced before the first call (16D1), a watching
        # dummy who asked (43B2(b)), quitted tricks looked at for a revoke (66C)
        ("if i open a bluff bid with nothing, must i tell the opponents afterwards that i deviated?", "40C2"),
        ("lho opened 3s and i announced 'double three hearts' in error. is it a double of 3s?", "19A3"),
        (
            "the director was present and dummy stated the law on revokes for the table. rho says dummy must keep "
            "quiet. who is correct?",
            "42A1",
        ),
        (
            "before the bidding started, partner's king of clubs flipped face up onto the table. should we have "
            "called the td?",
            "16D1",
        ),
        (
            "dummy stood behind me to watch my play; when i ruffed a spade he asked 'none?' but i held one. ruling?",
            "43B2(b)",
        ),
        ("halfway through play may we turn back the earlier tricks to check whether declarer reneged?", "66C"),
        ("the opps scored a trick for us that we actually lost. must i tell them?", "79A2"),
        # the thirty-third readings B: an unstated finesse after a show-out (70E1), a deliberate revoke asked as a
        # tactic (72B1), the wrong defender playing to declarer's lead from the wrong hand (53C), a defender's card
        # before declarer's corrected lead (60B) or at dummy's turn (57D), an opening lead after a wrong explanation
        # once dummy is down (47E2(a)), declarer's corrected revoke (48A), a defender's claim needing partner (70D2)
        (
            "i claimed in 6h with the lead in hand, kq10 of diamonds in dummy, saying nothing about diamonds. rho "
            "had already shown out of diamonds. lho had the jack. do they get it?",
            "70E1",
        ),
        ("is it a legit tactic to revoke deliberately on the twelfth trick when it only gets put right?", "72B1"),
        (
            "as declarer i won in hand but then led the 3 of spades from dummy. before my rho did anything, my lho "
            "put the king on it. what now?",
            "53C",
        ),
        (
            "declarer was made to take back his lead from the wrong hand, and before he led again my partner "
            "dropped the 5 of hearts face up. is it a penalty card?",
            "60B",
        ),
        (
            "dummy led a club, rho played low, and before declarer played from his hand lho threw the ace on the "
            "table. is the ace a penalty card?",
            "57D",
        ),
        (
            "we were told 2d was a weak two, so i led a diamond. after dummy was spread it turned out 2d was a "
            "multi. can i change my opening lead?",
            "47E2(a)",
        ),
        (
            "i was declarer and trumped a club though i had one, then put the club on instead. must my trump stay "
            "out as a penalty card?",
            "48A",
        ),
        (
            "i was defending and claimed two tricks but it depends on my partner keeping his heart. the td refused. "
            "why?",
            "70D2",
        ),
    ],
)
def test_the_rule_that_reverses_the_general_one_is_stated(answers: Answers, question: str, section: str) -> None:
    """The twenty-fifth and twenty-sixth readings' WRONG kinds, in other words: the answer states the rule that
    decides."""
    topic = answers.read(question, "player").topic
    assert topic is not None and any(section in s.laws for s in topic.summary.sentences[:3]), topic
    assert topic.summary.words <= SUMMARY_WORDS


@pytest.mark.parametrize(
    ("question", "not_key"),
    [
        (
            "dummy peeked at my hand from behind me, and the td said no penalty for now and to play on. is that right?",
            "revoke-exceptions",
        ),
        (
            "i made an insufficient bid and rho bid over it without calling the td, does it stand?",
            "insufficient-bid-replaced-early",
        ),
        (
            "i made an insufficient bid, the td made us pass throughout, later he said he had got it wrong. "
            "what do we get?",
            "scoring-made",
        ),
        (
            "after LHO's long pause I said I'd reserve my rights and RHO said I was being rude, was that ok?",
            "manners-at-the-table",
        ),
        # the asker's own question whether a concession stands is no trick that could not be lost
        ("i conceded the last two tricks to declarer. does my concession stand?", "concession-cancelled"),
        # a call over it "before anyone called the director" is no replacement of an insufficient bid
        (
            "partner had to pass after my insufficient bid but doubled 3s, and rho raised to 4s before anyone "
            "called the director. what now?",
            "insufficient-bid-replaced-early",
        ),
        # the twenty-seventh readings: partner's call at an opponent's turn is not one at the asker's turn
        ("partner passed out of turn when it was my lho's turn. am i barred now?", "partner-called-out-of-turn"),
        # the asker forgetting the auction is no wrong review
        (
            "it's trick 3 and i'm defending, i forgot the bidding. can i ask for it to be repeated?",
            "review-of-auction-wrong",
        ),
        # part of the auction restated is no question about a single call
        ("can i ask for just the last two calls to be repeated?", "asking-about-one-call"),
        # the thirtieth reading: a review asked for once the lead is faced (41B: at the first turn to play), and a
        # fouled board's score (87B: grouped, not an average) were answered with a neighbour that misled
        (
            "after the opening lead is face up, can i still ask to hear the whole auction again?",
            "opening-lead-face-down",
        ),
        ("the td said our board was fouled. how does that get scored, do we just get average?", "average-plus"),
        # the thirty-second readings: 'noticed later' in the same deal is no later board; a claimer's "i'll take
        # the rest" is no defender's concession
        (
            "we noticed later in the hand that lho had revoked on trick 5. the td was called at trick 9. how many "
            "tricks?",
            "revoke-found-later",
        ),
        (
            "declarer said 'i'll take the rest' and showed his cards, partner objected at once. what now?",
            "concession-partner-objects",
        ),
        # the twenty-eighth readings: a reservation of rights over partner's hesitation, dummy calling the
        # Director after a claim played out, a deal found wrong by the count, a question in the auction called a
        # signal, the asker's own card played before dummy's was named
        (
            "partnr hesitated and passed, i bid on, and lho reserved his rights and called the td. was i allowed?",
            "hesitation-when-to-call",
        ),
        (
            "declarer claimed, we all agreed to play it out, then dummy called the td: the claim stands. who wins?",
            "dummy-calls-director",
        ),
        (
            "after play i had 12 and lho had 14, the board was dealt wrong. why was our result cancelled?",
            "shuffle-and-deal",
        ),
        (
            "in the auction rho asked what 2c meant and lho then led a club. was the question a signal?",
            "asking-in-the-play",
        ),
        ("i played my card before declarer had named one from dummy. does my card count?", "dummy-indicates-card"),
        # the thirty-second readings (b): the opponents' claim that the asker was barred and a hypothetical
        # "regardless" are no barred call; a psych's "not what i said" is no explanation of an agreement
        (
            "i bid out of turn at partner's turn and it was cancelled; later i bid what i would have bid regardless. "
            "lho insists i was barred. is he right?",
            "barred-player-calls",
        ),
        (
            "when i psych an opening, must i tell the opponents it wasn't what i said it meant?",
            "own-mistaken-explanation",
        ),
        # the thirtieth readings: the opponents' speech is no remark by partner
        (
            "i bid out of turn, the td cancelled it and partner then bid 2h. opps said she used my cancelled bid. "
            "allowed?",
            "partners-remark",
        ),
        (
            "i bid 1nt, partner alerted it and explained it wrongly. opps say i cant use the alert. what was i "
            "supposed to do?",
            "partners-remark",
        ),
    ],
)
def test_a_word_of_another_story_does_not_trigger_a_special(answers: Answers, question: str, not_key: str) -> None:
    """'td said no penalty', 'without calling the td' said of LHO, 'made us pass', 'rude' said of a reservation of
    rights, 'does my concession stand', 'without thinking': words of the question, of another actor or of another
    story, not the fact the special is about."""
    topic = answers.read(question, "player").topic
    assert topic is not None and topic.key != not_key, topic
