"""The one step from typed text to what to show, shared by the terminal and Telegram: situations one line per
chart, a triage question for vague words, nothing started by chatter, offers that lead where they say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.answers import Act, Kind, Replies, Reply, build_replies, lint_triage, load_triage
from bot.answers.replies import DECLINE, Offer
from bot.answers.triage import read_triage
from bot.dialogs import load_charts
from bot.laws import load_lawbook
from bot.laws.refs import law_number
from bot.matching import build_matcher, chart_entries


@pytest.fixture(scope="module")
def replies() -> Replies:
    charts = load_charts()
    return build_replies(load_lawbook(), charts, build_matcher(chart_entries()))


def _charts(reply: Reply) -> list[str]:
    return [o.key for o in reply.offers if o.act is Act.CHART]


@pytest.mark.parametrize("text", ["thanks", "Thanks!", "ok", "hello", "lol 😂", "1", "54", "ขอบคุณครับ", "  "])
def test_chatter_and_bare_numbers_start_nothing(replies: Replies, text: str) -> None:
    reply = replies.to_text(text)
    assert reply.kind is Kind.SAY and not reply.offers
    assert reply.text.startswith("Describe what happened at the table") and "\n" not in reply.text


def test_off_topic_text_gets_one_line(replies: Replies) -> None:
    reply = replies.to_text("nice weather today")
    assert reply.kind is Kind.SAY and not reply.offers and "\n" not in reply.text


DATA = Path(__file__).parent / "data"
KNOWLEDGE = Path(__file__).parents[1] / "knowledge"


def _declines() -> list[tuple[str, bool]]:
    rows = (json.loads(line) for line in (DATA / "declines.jsonl").read_text(encoding="utf-8").splitlines())
    return [(row["text"], row["decline"]) for row in rows]


@pytest.mark.parametrize(
    "text", ["what's the best opening lead against 3NT?", "what time does the club open on tuesdays?"]
)
def test_advice_and_club_questions_get_one_polite_line(replies: Replies, text: str) -> None:
    reply = replies.to_text(text)
    assert reply == Reply(Kind.SAY, DECLINE) and "\n" not in reply.text


def test_the_declining_set_is_declined_and_its_law_questions_are_not(replies: Replies) -> None:
    items = _declines()
    assert sum(decline for _text, decline in items) >= 40
    for text, decline in items:
        reply = replies.to_text(text)
        assert (reply.text == DECLINE) is decline, text
        if decline:
            assert reply.kind is Kind.SAY and not reply.offers, text


def test_no_labelled_law_question_or_incident_is_declined(replies: Replies) -> None:
    # The declining set is checked on its own. A held-out set not yet run joins `skipped` until its one run: every
    # held-out set so far (players' questions and real posts, rounds 1-10) is spent, development data, and checked.
    skipped = {"declines.jsonl"}
    files = [f for f in [*DATA.glob("*.jsonl"), *(KNOWLEDGE / "examples").glob("*.jsonl")] if f.name not in skipped]
    texts = [
        row.get("text") or row["query"]
        for f in files
        for row in map(json.loads, f.read_text(encoding="utf-8").splitlines())
        if row.get("kind") != "decline"
    ]
    assert len(texts) > 9000
    assert [t for t in texts if replies.answers.forms.is_declined(t)] == []


@pytest.mark.parametrize("text", ["something weird happened", "there is a problem", "I need help"])
def test_vague_words_get_the_triage_question(replies: Replies, text: str) -> None:
    reply = replies.to_text(text)
    assert reply.kind is Kind.TRIAGE and reply.text == "When did it happen?"
    assert [o.label for o in reply.offers] == [
        "Auction",
        "Opening lead",
        "Play",
        "After play or scoring",
        "Not a table incident",
    ]


def test_the_triage_does_not_ask_when_the_words_already_say_when(replies: Replies) -> None:
    """ "In the middle of the bidding" answers "When did it happen?": the reply starts at the auction's question,
    with a way back to the first question; words naming two times, or none, get the first question."""
    reply = replies.to_text("i dropped my whole hand face up in the middle of the bidding, what happens?")
    assert reply.kind is Kind.TRIAGE and reply.text == "What happened in the auction?"
    assert reply.offers[-1] == Offer("Something else", Act.NONE)
    assert replies.follow(Act.NONE, "").text == "When did it happen?"
    assert replies.triage_start("something weird happened at trick 5").text == "What happened in the play?"
    assert replies.triage_start("weird, during the bidding and again at trick 5").text == "When did it happen?"
    assert replies.triage_start("something weird happened").text == "When did it happen?"


def test_a_triage_branch_asks_once_more_then_offers_its_charts(replies: Replies) -> None:
    play = replies.follow(Act.TRIAGE, "play")
    assert play.kind is Kind.TRIAGE and play.text == "What happened in the play?"
    revoke = next(o for o in play.offers if o.label.startswith("A revoke"))
    charts = replies.follow(revoke.act, revoke.key)
    assert charts.kind is Kind.SITUATIONS and [o.label for o in charts.offers] == ["Revoke — Law 61"]
    assert replies.follow(Act.CHART, "revoke") == Reply(Kind.START, "", (), "revoke")


def test_a_missed_alert_found_after_the_hand_is_offered_misinformation_after_play(replies: Replies) -> None:
    # Walk 48 (log-11b-first): "After play or scoring" offered score, appeal, director's error and adjusted score,
    # but no misinformation, though a missed alert is mostly found after the hand (21B1(a), 75B1).
    after = replies.follow(Act.TRIAGE, "after")
    explained = next(o for o in after.offers if "missed alert" in o.label)
    charts = replies.follow(explained.act, explained.key)
    assert charts.offers[0].label == "Misinformation — Law 75"


def test_partner_revoked_is_one_line_for_the_revoke_chart(replies: Replies) -> None:
    reply = replies.to_text("partner revoked")
    assert reply.kind is Kind.SITUATIONS
    assert _charts(reply) == ["revoke"]
    assert reply.offers[0].label == "Revoke — Law 61 (likely)"
    assert reply.offers[-1].label == "None of these" and reply.offers[-1].act is Act.NONE


def test_a_hesitation_then_a_bid_is_unauthorized_information_first(replies: Replies) -> None:
    # The audit found the tempo chart ranked above Law 16 for this case; the bid after a hesitation is Law 16's.
    reply = replies.to_text("partner hesitated then bid 4♠", "director")
    assert _charts(reply)[0] == "unauthorised-information"


def test_a_lead_out_of_turn_offers_the_opening_lead_first(replies: Replies) -> None:
    reply = replies.to_text("LHO led out of turn")
    charts = _charts(reply)
    assert charts[0] == "opening-lead-out-of-turn" and len(charts) == len(set(charts)) <= 4
    assert reply.offers[0].label == "Opening lead out of turn — Law 54 (possible)"
    assert "lead-out-of-turn" in charts


def test_how_sure_says_likely_only_where_the_held_out_sets_found_it_right_nine_times_in_ten(replies: Replies) -> None:
    # On the sets never used as examples a first score of 80-99 was right first 0.59 of the time when called
    # "likely": it now says so only when the first law clearly leads the next (0.83), else "possible" (0.46).
    clear = replies.to_text("partner revoked")
    assert clear.offers[0].label.endswith("(likely)")
    rivals = replies.to_text("LHO led out of turn")  # an opening lead (54) or one in the play (53, 56)?
    assert all(o.label.endswith("(possible)") for o in rivals.offers if o.act is Act.CHART)


def test_a_defenders_lead_out_of_turn_in_the_play_is_not_offered_under_declarers_law_alone(replies: Replies) -> None:
    # Law 55 rules declarer's lead out of turn, Law 56 a defender's: the chart rules both, and its situation line
    # named only 55 for a defender's lead, as two walks found.
    reply = replies.to_text("declarer led from the wrong hand", "director")
    offer = next(o for o in reply.offers if o.key == "lead-out-of-turn")
    assert offer.label == "Lead out of turn during the play — Laws 55, 56 (likely)"


def test_a_spectator_is_findable_on_the_tempo_and_conduct_line(replies: Replies) -> None:
    # The chart rules tempo (73), conduct (74) and spectators (76): a walk passed it by for a spectator's remark
    # because its line named Law 73 alone.
    reply = replies.to_text("partner hesitated then bid 4S", "director")
    offer = next(o for o in reply.offers if o.key == "tempo-and-conduct")
    assert offer.label.startswith("Tempo and conduct — Laws 73, 74, 76")


def test_a_frown_or_a_grimace_at_partners_lead_finds_the_tempo_and_information_charts(replies: Replies) -> None:
    # Walk 26 #62: "frown" reached no chart, and the four situations offered were L20, L9, L47 and L75.
    for text in ("my partner frowned when I led the king, then I switched", "partner grimaced at my lead"):
        offered = _charts(replies.to_text(text, "director"))[:2]
        assert {"tempo-and-conduct", "unauthorised-information"} & set(offered), (text, offered)


def test_only_situations_near_the_first_are_shown(replies: Replies) -> None:
    for text in ("dummy pointed out a revoke", "forgot to alert", "IB 1♦ over 1♥, not accepted, corrected to 2♦"):
        reply = replies.to_text(text)
        assert reply.kind is Kind.SITUATIONS and 1 <= len(reply.offers) - 1 <= 4
        assert all(o.label.endswith(("(likely)", "(possible)")) for o in reply.offers[:-1])


def test_a_long_time_on_one_board_is_slow_play(replies: Replies) -> None:
    assert _charts(replies.to_text("the opps took 10 minutes on one board"))[0] == "procedural-penalty"


def test_none_of_these_narrows_it_down(replies: Replies) -> None:
    assert replies.follow(Act.NONE, "").text == "When did it happen?"


def test_questions_definitions_and_references(replies: Replies) -> None:
    summary = replies.to_text("what's the penalty for a revoke?")
    assert summary.kind is Kind.SUMMARY and "in plain words" in summary.text
    assert [o.act for o in summary.offers] == [Act.CHART, Act.LAW, Act.RELATED]
    related = replies.follow(Act.RELATED, summary.offers[2].key)
    assert related.kind is Kind.RELATED and all(o.act is Act.TOPIC for o in related.offers)
    assert replies.follow(related.offers[0].act, related.offers[0].key).kind is Kind.SUMMARY
    term = replies.to_text("what is a penalty card?")
    assert term.kind is Kind.DEFINE and term.offers[0].label == "Law 50 — Disposition of Penalty Card"
    law = replies.follow(term.offers[0].act, term.offers[0].key)
    assert law.kind is Kind.LAW and law.text.startswith("Law 50")
    assert replies.to_text("L27B").text.startswith("Law 27 — Insufficient Bid › B.")
    assert "There is no Law 120" in replies.to_text("law 120").text


@pytest.mark.parametrize(
    ("text", "cites"),
    [
        # a term asked "exactly" is still the term; a rule asked without a question mark is still a question
        ("what is a penalty card exactly", "50"),
        ("in a pairs game what is average minus worth in percent", "12C2(a)"),
        ("if you concede a trick by mistake can you get it back", "71"),
        ("in a team match can the td replace a board that went wrong", "86A"),
    ],
)
def test_a_rule_asked_without_a_question_mark_is_answered(replies: Replies, text: str, cites: str) -> None:
    reply = replies.to_text(text)
    assert reply.kind in (Kind.DEFINE, Kind.SUMMARY) and cites in reply.cites, reply


def test_the_mode_decides_over_the_wording(replies: Replies) -> None:
    assert replies.to_text("LHO led out of turn", "player").kind is Kind.SUMMARY
    assert replies.to_text("what's the penalty for a revoke?", "director").kind is Kind.SITUATIONS


@pytest.mark.parametrize(
    ("act", "key"),
    [
        (Act.CHART, "no-such-chart"),
        (Act.LAW, "120"),
        (Act.TOPIC, "c:../../etc"),
        (Act.RELATED, "l:0"),
        (Act.TRIAGE, "play.nothing"),
        (Act.TRIAGE, "x.y.z"),
    ],
)
def test_an_offer_that_leads_nowhere_is_gone(replies: Replies, act: Act, key: str) -> None:
    assert replies.follow(act, key).kind is Kind.GONE


def test_define_answers_or_suggests(replies: Replies) -> None:
    assert replies.define("penalty card").kind is Kind.DEFINE
    assert "Did you mean" in replies.define("penalty crd card").text
    assert "no entry" in replies.define("xyzzy").text
    assert "Which term?" in replies.define(" ").text


def test_the_triage_tree_covers_every_chart() -> None:
    assert lint_triage(load_triage(), load_charts()).problems == []


def test_the_linter_finds_a_missing_chart_and_an_unreachable_one(tmp_path: Path) -> None:
    path = tmp_path / "triage.yaml"
    path.write_text(
        "question: When?\nbranches:\n  - {id: a, label: A, charts: [revoke, nope, restored-card]}\n"
        "  - id: b\n    label: B\n    question: Who?\n    branches:\n"
        "      - {id: c, label: C, question: Deeper?, branches: [{id: d, label: D, charts: [revoke]}]}\n",
        encoding="utf-8",
    )
    problems = [str(p) for p in lint_triage(read_triage(path), load_charts()).problems]
    assert any("no chart 'nope'" in p for p in problems)
    assert any("chart 'claim' cannot be reached" in p for p in problems)
    assert any("more than 2 questions" in p for p in problems)
    # a chart that is part of others is reached through them: the triage neither needs nor offers it
    assert any("'restored-card' is part of wrong-number-of-cards, defective-trick" in p for p in problems)
    assert not any("chart 'restored-card' cannot be reached" in p for p in problems)


@pytest.mark.parametrize(
    "text",
    [
        "i bid out of turn before my rho, whats the penalty",
        "opps didnt alert and i got damaged can i get score back??",
        "i doubled out of turn, forgot RHO hadn't bid yet",
        "both sides revoked on the same board, what now",
        "partner led before me and i had already put my card face down, which lead counts",  # a question, no '?'
        "the director gave them average plus and gave us nothing",  # the Director told of as someone else
        "rho played every card slowly just to wind us up",
        "we noticed afterwards that the board had been turned round at the previous table",
        "lho revoked on trick 4 and declarer wants to know if it is established yet",  # a question told of
        "i say dummy may not warn declarer, pard says he may. who's right",  # a dispute put to the bot, no '?'
        "the opps claimed the rest but i still had a trump!! we objected",  # a player's objection, told with '!!'
        "we only have a scorer at our club, so who decides it then",
        # a question asked without its "?" at the end of a story: "why us", "whats right", "who makes rulings now"
        "we got average minus on a board we never played because we turned up late. the opps got average plus. why us",
        "partner wrote 500 for 2 doubled three off non vulnerable and they said it should be less. whats right",
        "our director went home sick halfway through. who makes rulings now",
        # a table passed on the way is not the writer's table: a player overheard it
        "walking past table 4 i heard someone say 'you make 6nt on 20' and we still have board 20 to play, what now?",
    ],
)
def test_a_players_own_situation_gets_the_answer_first_then_the_chart(replies: Replies, text: str) -> None:
    reply = replies.to_text(text)
    assert reply.kind is Kind.SUMMARY and "in plain words" in reply.text
    assert reply.offers[0].label == "Walk me through it" and reply.offers[0].act is Act.CHART


@pytest.mark.parametrize(
    "text",
    [
        "when a claim is disputed who gets the benefit of the doubt",  # a rule put with "when", in the present
        "when declarer just says 'low' from dummy without naming a card what gets played",
        "if both sides tell the td completely different stories what does he do",
    ],
)
def test_a_rule_asked_with_when_or_if_gets_the_answer_first(replies: Replies, text: str) -> None:
    assert replies.to_text(text).kind is Kind.SUMMARY


@pytest.mark.parametrize(
    "text",
    [
        "LHO led out of turn",
        "table 4, I'm the TD: South heard the result of board 20 walking past, what do I do?",
        "I gave them the wrong ruling earlier in the round and they played on, now I realise it",
        "declarer claimed, trump out, defenders object",
        "dummy asked declarer 'no hearts?' when he showed out",  # the question is someone else's, quoted
        "E led the ♠K, which was the wrong hand, and W followed",  # a relative clause, not a question
    ],
)
def test_a_directors_shorthand_or_own_act_gets_the_situations_first(replies: Replies, text: str) -> None:
    assert replies.to_text(text).kind is Kind.SITUATIONS


def test_a_post_written_after_the_event_gets_the_answer_first_even_from_a_director(replies: Replies) -> None:
    """A forum post tells the whole hand and asks afterwards; nobody types one at the table, so even a director
    asking whether their ruling was right wants the law first, with the chart a tap away."""
    post = (
        "Teams match last night. East opened 1NT and West bid 2C, which East forgot to alert. South passed, and "
        "after the auction West said it was Stayman. I was called and ruled that the result stands because "
        "South would have passed anyway. Do you agree with my ruling?"
    )
    reply = replies.to_text(post)
    assert reply.kind is Kind.SUMMARY and reply.offers[0].label == "Walk me through it"
    assert replies.to_text("I ruled that the result stands, director please").kind is not Kind.SUMMARY


@pytest.mark.parametrize("name", ["routing.jsonl", "routing-l.jsonl"])
def test_players_and_directors_are_routed_apart(replies: Replies, name: str) -> None:
    """Written for this check: players asking about, or telling, their own situation (30, then 20 disputes and
    stories without "?"), directors' shorthand (26, then 20)."""
    rows = [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 40
    wrong = [r["text"] for r in rows if (replies.to_text(r["text"]).kind is Kind.SUMMARY) != (r["route"] == "answer")]
    assert len(wrong) <= 2, wrong


def test_a_special_case_answer_leads_to_its_chart_law_and_related(replies: Replies) -> None:
    reply = replies.to_text("What if I claim and forget a trump?")
    assert reply.kind is Kind.SUMMARY and reply.text.startswith("A claim that forgot a trump — in plain words")
    assert "(Law 70C1, 70C2, 70C3)" in reply.text
    assert [(o.act, o.key) for o in reply.offers] == [
        (Act.CHART, "claim"),
        (Act.LAW, "70"),
        (Act.RELATED, "a:claim-forgot-trump"),
    ]
    related = replies.follow(Act.RELATED, "a:claim-forgot-trump")
    assert related.kind is Kind.RELATED and related.offers and all(o.act is Act.TOPIC for o in related.offers)
    assert replies.follow(Act.TOPIC, "a:claim-forgot-trump") == reply
    assert replies.follow(Act.TOPIC, "a:no-such-case").kind is Kind.GONE


def test_a_story_of_two_incidents_offers_both_charts_first_the_likelier_first(replies: Replies) -> None:
    """Two irregularities in one story are two rulings, not rival guesses: each chart is offered first, with the
    words that told it, the likelier first (the order told put a wrong situation first more often than right)."""
    reply = replies.to_text(
        "The opening bid was insufficient and was not accepted. Later on declarer claimed but a trump was still out."
    )
    lines = reply.text.splitlines()
    assert lines[0].startswith("Two things happened here")
    assert "claimed" in lines[1] and "Claim" in lines[1]
    assert "insufficient" in lines[2] and "Insufficient bid" in lines[2]
    first, second = reply.offers[:2]
    assert (first.act, second.act) == (Act.CHART, Act.CHART)
    assert (first.key, second.key) == ("claim", "insufficient-bid")
    assert replies.to_text("LHO led out of turn").text == "Which situation is it?"  # one incident: the usual list


def test_each_of_a_storys_two_incidents_starts_with_the_other_offered_after_its_ruling(replies: Replies) -> None:
    """After the first chart's ruling the bot returned to a bare prompt and the second incident was forgotten
    (walk 17, 7b): the chart picked from a story of two starts with the other incident, to offer once ruled."""
    reply = replies.to_text(
        "The opening bid was insufficient and was not accepted. Later on declarer claimed but a trump was still out."
    )
    claim, insufficient = reply.offers[:2]
    assert (claim.then, insufficient.then) == ("insufficient-bid", "claim")
    started = replies.follow(claim.act, claim.key, claim.then)
    assert started.kind is Kind.START and started.key == "claim" and started.second is not None
    assert (started.second.chart, started.second.label) == (
        "insufficient-bid",
        "Now the second thing: Insufficient bid — Law 27",
    )
    assert replies.follow(Act.CHART, "claim").second is None  # a chart picked alone (a list, a link) offers nothing
    for forged in ("no-such-chart", "claim"):  # an unknown second chart, or the chart itself: nothing starts
        assert replies.follow(Act.CHART, "claim", forged).kind is Kind.GONE
    assert not any(o.then for o in replies.to_text("LHO led out of turn").offers)  # one incident: as before


def test_a_split_the_best_situation_is_not_part_of_is_not_told_as_two_things(replies: Replies) -> None:
    """The tenth walk: dummy's 'you're in dummy, partner' was split into an opening lead out of turn and a claim,
    neither of which happened, and *Dummy's rights* came third. The best situation now leads the usual list."""
    reply = replies.to_text(
        "I was dummy and I saw declarer reaching to lead from her hand when the lead was on the table, so I said "
        "'you're in dummy, partner'. The defenders said dummy can't say anything at all. I always thought dummy was "
        "allowed to stop partner doing something wrong. Who is right?",
        "director",
    )
    assert reply.text == "Which situation is it?" and reply.offers[0].key == "dummy-rights"


@pytest.mark.parametrize(
    "text",
    [
        "East passed out of turn at South's turn. How does the TD decide the rectification?",
        "We played the wrong board. PP as well?",
    ],
)
def test_one_incident_with_a_question_about_it_is_not_told_as_two_things(replies: Replies, text: str) -> None:
    """The question a director asks about the incident is no second incident: both were shown as "Two things
    happened here; rule on each in turn"."""
    reply = replies.to_text(text, "director")
    assert reply.kind is Kind.SITUATIONS and reply.text == "Which situation is it?"


def test_a_question_whether_saying_something_is_lawful_is_answered_not_triaged(replies: Replies) -> None:
    """A question quoting a first-person phrase ("is it lawful to say, I jumped?") asks about the rule; it got
    the director's "When did it happen?" (the words "I jumped" read as a player telling what they did)."""
    text = "During the auction, if you jump in partner's suit, is it lawful to say, I jumped?"
    assert replies.answers.forms.intent(text) == "question"
    reply = replies.to_text(text)
    assert reply.kind is Kind.SUMMARY and "73B1" in reply.cites


def test_a_player_refusing_a_ruling_is_offered_the_procedural_penalty_chart(replies: Replies) -> None:
    # Walk 29, #48: a refused ruling offered no situation; walking off alone stays Law 74's (no steal).
    assert "procedural-penalty" in _charts(replies.to_text("the player refused to accept the ruling and stormed off"))
    assert "procedural-penalty" not in _charts(replies.to_text("LHO got up and walked off in the middle of the hand"))


def test_a_director_who_read_the_wrong_law_is_offered_the_directors_error_chart(replies: Replies) -> None:
    # Walk 31, #78: Law 82 was not among the situations offered for a director who read the wrong law.
    assert "director-error" in _charts(replies.to_text("the director read the wrong law at our table"))


def test_a_story_told_at_length_gets_the_answer_and_its_other_situations(replies: Replies) -> None:
    """A casebook entry or post reads as a story and is answered first; the other charts its words fit come with
    the answer ("Or: …"), so a director whose incident it is not about starts the right one in one tap."""
    story = (
        "Board 16. In mid-play, with declarer on lead, West's ♥Q slipped from his hand and landed face up on the"
        " table. Declarer led a club to dummy's ace and then a club back, which East won. Before East led,"
        " declarer asked the Director what choices he had."
    )
    reply = replies.to_text(story)
    also = [o for o in reply.offers if o.label.startswith("Or: ")]
    assert reply.kind is Kind.SUMMARY and 1 <= len(also) <= 2 and "penalty-card" in _charts(reply)
    assert all(o.act is Act.CHART and o.key != reply.offers[0].key for o in also)
    asked = replies.to_text("what happens after a lead out of turn?")
    assert asked.kind is Kind.SUMMARY and not any(o.label.startswith("Or: ") for o in asked.offers)


def test_walk_me_through_a_laws_summary_starts_the_chart_about_that_law(replies: Replies) -> None:
    # Walk 63 #100: "Walk me through it" under Law 16's summary started the end-of-the-auction chart (Laws 22,
    # 17D), the first chart to mention Law 16; under Law 50 it started the chart of a card exposed in the auction.
    charts = replies.charts
    for number in (16, 47, 50, 79, 82, 86):
        topic = replies.follow(Act.TOPIC, f"l:{number}")
        walk = next(o for o in topic.offers if o.label == "Walk me through it")
        assert law_number(charts[walk.key].laws[0]) == number, (number, walk.key)


def test_a_card_seen_in_the_deal_answer_offers_the_misdeal_chart(replies: Replies) -> None:
    # Walk 63 #100: the answer stated 6D1 but offered no walk, though the wrong-board chart rules a card seen in
    # the deal before and after the auction began (6D1, 16D).
    reply = replies.to_text("hand dealt w/ card face up, redeal?")
    assert reply.topic == "a:shuffle-and-deal"
    assert reply.offers[0].label == "Walk me through it" and reply.offers[0].key == "wrong-board"


@pytest.mark.parametrize(
    "text",
    [
        "declarer touched the ♥J in dummy, kind of half pulled it, then said 'no, small heart'. is the jack played",
        "We agreed declarer's claim of 10 tricks, but afterwards realised our ♣Q would have won a trick.",
        "Partner said 'club' for dummy while thinking diamonds and fixed it at once. RHO says too late.",
    ],
)
def test_a_players_own_story_without_a_question_mark_gets_the_answer_first(replies: Replies, text: str) -> None:
    # The thirty-fifth players' set B (020, 056, 024): a closing question without its "?", a claim "we agreed", an
    # opponent's "too late" are a player asking; they were given "Which situation is it?".
    assert replies.to_text(text).kind is Kind.SUMMARY
    assert replies.to_text("LHO led out of turn").kind is Kind.SITUATIONS
