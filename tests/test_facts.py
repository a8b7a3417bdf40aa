"""Facts from the description: a question the director's words already answer is not asked, and never guessed."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from conftest import FIXTURES
from fake_telegram import FakeBotAPI, Table, start_bot
from telegram.ext import Application

from bot.dialogs import Chart, Dialogs, load_charts, parse_chart
from bot.dialogs.facts import SOURCE, Description, answer_from
from bot.dialogs.lint import lint_charts
from bot.dialogs.model import Question
from bot.laws import load_lawbook
from bot.matching import ChartEntry, build_matcher
from bot.rulings import Rulings
from bot.rulings.export import export
from bot.store import Store
from bot.terminal import TerminalChat

OLOOT = "opening-lead-out-of-turn"


def every_question() -> Iterator[tuple[str, str]]:
    for chart in load_charts().values():
        for question in chart.cues:
            yield chart.id, question


QUESTIONS = list(every_question())


def _within(small: tuple[str, ...], big: tuple[str, ...]) -> bool:
    return any(big[i : i + len(small)] == small for i in range(len(big) - len(small) + 1))


@pytest.mark.parametrize(("chart_id", "question"), QUESTIONS)
def test_each_cue_gives_its_answer_and_its_negation_does_not(chart_id: str, question: str) -> None:
    cues = load_charts()[chart_id].cues[question]
    for option, phrases in cues.items():
        for cue in phrases:
            assert Description(f"At table 4, {cue}.").answer(cues) == option, cue
            for negated in (f"not {cue}", f"{cue.split()[0]} didn't {cue}", f"never {cue}"):
                assert Description(negated).answer(cues) != option, negated


@pytest.mark.slow
@pytest.mark.parametrize(("chart_id", "question"), QUESTIONS)
def test_a_description_that_states_the_opposite_asks(chart_id: str, question: str) -> None:
    cues = load_charts()[chart_id].cues[question]
    pairs = [(option, cue) for option, phrases in cues.items() for cue in phrases]
    for option, cue in pairs:
        for other, opposite in pairs:
            said, heard = Description(cue).words, Description(opposite).words
            if other == option or _within(said, heard) or _within(heard, said):
                continue
            assert Description(f"{cue}, then {opposite}").answer(cues) is None, (cue, opposite)


def test_negations_reach_only_a_few_words_back_within_the_clause() -> None:
    """Audit findings A1 to A4 and A6: the words that stop a cue."""
    cues = {"yes": ["accepted"], "no": ["not accepted", "refused"]}
    assert Description("LHO accepted the insufficient bid").answer(cues) == "yes"
    assert Description("IB 1♦ over 1♥, not accepted, corrected to 2♦").answer(cues) == "no"
    assert Description("LHO hasn't accepted yet").answer(cues) is None
    assert Description("LHO has not yet accepted").answer(cues) is None
    assert Description("no one had said a word, then LHO accepted").answer(cues) == "yes"
    assert Description("It was never in doubt that the lead was out of turn and LHO accepted").answer(cues) == "yes"
    assert Description("accepted, but later not accepted").answer(cues) is None  # contradicted
    assert (
        Description("decl didnt accept the IB").answer({"yes": ["declarer accepted"], "no": ["did not accept"]}) == "no"
    )
    assert Description("nobody accepted the lead").answer(cues) is None
    assert Description("he says it was not meant as accepted").answer(cues) is None  # four words back
    assert Description("NV declarer accepted the lead").answer(cues) == "yes"  # NV spells "not vulnerable"
    assert Description("in 3 no trumps LHO accepted").answer(cues) == "yes"
    # a question or a supposition states nothing: its cue leaves the question to the director
    assert Description("East asks if it can be accepted.").answer(cues) is None
    assert Description("LHO refused. What happens if he accepted?").answer(cues) is None
    assert Description("Can it be accepted?").answer(cues) is None
    assert Description("LHO accepted, what now?").answer(cues) == "yes"
    assert Description("LHO accepted — is that the end of it?").answer(cues) == "yes"
    # a negation that belongs to another cue does not cancel the next one: both are cued, so it is asked
    revoke = load_charts()["revoke"].cues["what-happened"]
    assert Description("may declarer ask a defender who didn't follow suit whether he has one?").answer(revoke) is None


@pytest.fixture
def real(store: Store) -> Dialogs:
    return Dialogs(store, load_charts())


async def test_a_chart_started_from_a_description_skips_what_it_says(real: Dialogs, store: Store) -> None:
    screen = await real.start("t:1", OLOOT, description="The wrong defender led; declarer hasn't accepted yet")
    assert screen.node_id == "told-to-lead" and screen.step == 1
    assert [(a.step.node, a.step.option, a.source) for a in screen.path] == [("who-led", "defender", SOURCE)]
    assert [a.answer for a in screen.from_description] == ["The defender who was not on lead"]
    events = await store.events(screen.session_id)
    assert events[0].data["description"] == "The wrong defender led; declarer hasn't accepted yet"
    assert [(e.kind, e.data.get("source")) for e in events] == [("start", None), ("answer", SOURCE)]
    # the director's answers move the walk on; the negated "accepted" is asked, not taken
    screen = await real.answer("t:1", screen.session_id, 1, "no")
    assert screen.from_description == ()
    screen = await real.answer("t:1", screen.session_id, 2, "no")
    assert screen.node_id == "began-spreading"


async def test_a_session_and_the_answers_its_description_gave_are_stored_together(
    real: Dialogs, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One transaction: a crash or a full disk can never leave a session whose start is stored without the
    answers its first screen showed as taken from the description."""
    writes: list[int] = []
    write = store._write

    async def counted(statements: Any) -> int | None:
        writes.append(len(statements))
        return await write(statements)

    monkeypatch.setattr(store, "_write", counted)
    screen = await real.start("t:1", OLOOT, description="The wrong defender led; declarer hasn't accepted yet")
    assert len(writes) == 1
    with sqlite3.connect(store.path) as other:  # as another process reads the file
        kinds = other.execute("SELECT kind FROM events WHERE session_id = ? ORDER BY seq", (screen.session_id,))
        assert [kind for (kind,) in kinds] == ["start", "answer"]
        (step,) = other.execute("SELECT step FROM sessions WHERE id = ?", (screen.session_id,)).fetchone()
    assert step == screen.step == 1


async def test_answers_are_taken_again_as_the_walk_moves_on(real: Dialogs, store: Store) -> None:
    screen = await real.start("t:1", OLOOT, description="a defender led out of turn and declarer accepted the lead")
    assert screen.node_id == "told-to-lead"
    screen = await real.answer("t:1", screen.session_id, 1, "no")
    screen = await real.answer("t:1", screen.session_id, 2, "no")
    assert screen.finished and screen.rulings[-1].node == "accept"
    assert [a.source for a in screen.path] == [SOURCE, "", "", SOURCE]
    kinds = [(e.kind, e.data.get("source")) for e in await store.events(screen.session_id)]
    assert kinds[-2:] == [("answer", SOURCE), ("ruling", None)]
    record = await Rulings(store, real).record(screen.session_id)
    text = export(load_lawbook(), record, "text")
    assert "Who faced the opening lead out of turn? → The defender who was not on lead (from your description)" in text
    assert "→ Accepted it, or played a card to it (from your description)" in text
    assert "Could presumed declarer have seen any of dummy's cards? → No\n" in text
    assert "Described as:\n  > a defender led out of turn and declarer accepted the lead\n" in text
    for fmt in ("markdown", "html"):
        assert "from your description" in export(load_lawbook(), record, fmt)


async def test_back_and_change_over_a_prefilled_answer(real: Dialogs) -> None:
    screen = await real.start("t:1", OLOOT, description="dummy led")
    assert screen.finished and [a.source for a in screen.path] == [SOURCE]  # the answer led straight to a ruling
    screen = await real.reopen_ruling("t:1", screen.session_id)
    assert screen.node_id == "who-led" and screen.path == ()  # back over it: the question is asked
    screen = await real.answer("t:1", screen.session_id, 0, "defender")
    assert screen.node_id == "told-to-lead" and [a.source for a in screen.path] == [""]
    screen = await real.start("t:1", OLOOT, description="the wrong defender led, and declarer refused the lead")
    assert screen.node_id == "told-to-lead"
    screen = await real.back("t:1", screen.session_id)
    assert screen.node_id == "who-led" and screen.step == 0
    screen = await real.answer("t:1", screen.session_id, 0, "defender")
    assert screen.node_id == "told-to-lead"
    changed = await real.change("t:1", screen.session_id, 1, "declaring-side")
    assert changed.finished and [(a.step.option, a.source) for a in changed.path] == [("declaring-side", "")]


async def test_every_first_question_with_cues_is_answered_from_its_cue(real: Dialogs) -> None:
    started = 0
    for chart in real.charts.values():
        walk = real.engine.begin(chart.id)
        if walk.finished or walk.node.id not in chart.cues:
            continue
        for option, phrases in chart.cues[walk.node.id].items():
            screen = await real.start("t:1", chart.id, description=phrases[0])
            first = screen.path[0]
            assert (first.step.node, first.step.option, first.source) == (walk.node.id, option, SOURCE), phrases[0]
            started += 1
    assert started > 60


async def test_two_options_cued_or_no_description_asks(real: Dialogs) -> None:
    screen = await real.start("t:1", OLOOT, description="the defender led, or maybe dummy led")
    assert screen.node_id == "who-led" and screen.path == ()
    screen = await real.start("t:1", OLOOT)
    assert screen.node_id == "who-led" and screen.path == ()


def test_the_linter_checks_every_cue(demo_charts: dict[str, Chart]) -> None:
    book = load_lawbook()
    text = (FIXTURES / "dialogs" / "demo-main.yaml").read_text(encoding="utf-8")
    bad = text + (
        "cues:\n"
        "  who:\n"
        "    lho: [LHO exposed, the card]\n"
        "    rho: [the card]\n"
        "    partner: [partner]\n"
        "  nowhere:\n"
        "    lho: [LHO]\n"
        "  reminder:\n"
        '    continue: ["not"]\n'
    )
    charts = {**demo_charts, "demo-main": parse_chart(bad, "dialogs/demo-main.yaml")}
    found = [str(p) for p in lint_charts(charts, book).problems]
    assert any("'the card' of 'who' is given to both 'lho' and 'rho'" in p for p in found)
    assert any("name 'partner', which is not one of its options" in p for p in found)
    assert any("cues for 'nowhere', which is not a question" in p for p in found)
    assert any("cues for 'reminder', which is not a question" in p for p in found)


def test_the_real_charts_cues_are_clean() -> None:
    found = [str(p) for p in lint_charts(load_charts(), load_lawbook()).problems if "cue" in str(p)]
    assert found == []


async def test_the_terminal_passes_what_was_typed(store: Store) -> None:
    charts = load_charts()
    matcher = build_matcher(ChartEntry(c.id, c.title, c.laws, c.keywords) for c in charts.values())
    chat = TerminalChat(Dialogs(store, charts), load_lawbook(), "terminal:t", matcher)
    await chat.handle("mode director")
    listed = await chat.handle("the wrong defender made the opening lead out of turn")
    number = next(line.split(".")[0].strip() for line in listed.splitlines() if "Opening lead out of turn" in line)
    shown = await chat.handle(number)
    assert "From your description: The defender who was not on lead — type 'history'" in shown
    assert "Did the defender lead because" in shown
    assert "→ The defender who was not on lead (from your description)" in await chat.handle("history")


@pytest.fixture
async def bot(store: Store) -> AsyncIterator[tuple[Application, FakeBotAPI]]:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    yield app, api
    await app.shutdown()


async def test_telegram_passes_what_was_typed(bot: tuple[Application, FakeBotAPI]) -> None:
    app, api = bot
    table = Table(app, api)
    await table.send("the wrong defender made the opening lead out of turn")
    calls = await table.press("Opening lead out of turn — Law 54 (likely)")
    text = table.texts(calls)
    assert "From your description: The defender who was not on lead — ✎ Change an answer" in text
    assert "Did the defender lead because" in text


# Descriptions an audit found answered wrongly (finding, chart, question, text, the wrong option once taken): a
# wrong answer taken from the description gives a wrong ruling the director may not notice; asking costs a tap.
MISREAD = [
    (
        "A1",
        OLOOT,
        "began-spreading",
        "Wrong defender led face up; declarer wants to know if he accepts the lead or not",
        "accepted",
    ),
    (
        "A1",
        "lead-out-of-turn",
        "defender-choice",
        "At trick 4 the wrong defender led; nothing has been played since. What happens if declarer accepts?",
        "accept",
    ),
    (
        "A1",
        "call-out-of-rotation",
        "lho-option",
        "North passed out of turn, nobody has called since. East asks if it can be accepted.",
        "accept",
    ),
    (
        "A1",
        "insufficient-bid",
        "lho-accepts",
        "East made an insufficient bid of 1H over 1S, in turn. South asks whether it can be accepted.",
        "accept",
    ),
    ("A1", "insufficient-bid", "lho-accepts", "East bid 1H over 1S. Can it be accepted?", "accept"),
    ("A2", "scoring-error", "from-claim", "Nobody claimed; at the end they disagree on the tricks won", "yes"),
    (
        "A3",
        "claim",
        "faced-for-claim",
        "Declarer dropped her hand face up on the table; she says it was not meant as a claim",
        "yes",
    ),
    (
        "D3",
        "insufficient-bid",
        "lho-accepts",
        "East made an insufficient bid of 1H over 1S; his partner West then bid over it",
        "accept",
    ),
    ("D3", "call-out-of-rotation", "lho-option", "West passed out of turn; his partner accepted it", "accept"),
    (
        "B1",
        "lead-out-of-turn",
        "opening",
        "Declarer won the opening lead in dummy and then led a club from hand",
        "yes",
    ),
    (
        "B1",
        "lead-out-of-turn",
        "opening",
        "RHO won the first trick with the ace, then LHO led a spade before RHO could lead",
        "yes",
    ),
    (
        "B2",
        "lead-out-of-turn",
        "opening",
        "West led before the auction ended, face up, the king of spades; East still had to call",
        "yes",
    ),
    ("B3", "lead-out-of-turn", "last-trick", "Declarer won the last trick in dummy but then led from his hand", "yes"),
    (
        "B4",
        "lead-out-of-turn",
        "told",
        "At trick 6 West led out of turn because his partner said it was his lead",
        "yes",
    ),
    ("B5", OLOOT, "told-to-lead", "East led face up out of turn because his partner said it was his lead", "yes"),
    ("B6", OLOOT, "dummy-seen", "RHO led face up out of turn before dummy was down", "yes"),
    (
        "B6",
        OLOOT,
        "dummy-seen",
        "The wrong defender led face up before dummy put down the cards, declarer has done nothing",
        "yes",
    ),
    (
        "C1",
        "claim",
        "agreed",
        "Declarer claimed the rest; the defenders agreed to play it out and declarer went down",
        "yes",
    ),
    ("C1", "claim", "agreed", "Declarer claimed; defenders agreed to play on", "yes"),
    (
        "C2",
        "claim",
        "agreed",
        "Declarer claimed; the opponents agreed that he had mentioned the trump, but they dispute the claim",
        "yes",
    ),
    (
        "C3",
        "claim",
        "trump-out",
        "Declarer claimed in 4S but forgot the trump in dummy that he needed as an entry",
        "yes",
    ),
    (
        "C5",
        "claim",
        "faced-for-claim",
        "Declarer dropped her hand face up on the table; she says it was not meant as a claim",
        "yes",
    ),
    (
        "C6",
        "declarer-exposes-cards",
        "what",
        "Declarer showed his cards after the opening lead, thinking he was dummy",
        "faced-loot",
    ),
    (
        "C6",
        "declarer-exposes-cards",
        "what",
        "Declarer put his hand face up on the table after the opening lead, he thought he was dummy",
        "faced-loot",
    ),
    (
        "D1",
        "auction-ended",
        "what",
        "North opened 1NT, everyone passed, then West said he wanted to bid 2H",
        "passed-out",
    ),
    (
        "D1",
        "auction-ended",
        "what",
        "1H by North, East and South passed, then West passed out of turn. Is the auction over?",
        "passed-out",
    ),
    (
        "D2",
        "call-out-of-rotation",
        "called-since",
        "East bid out of turn when it was North to call; North then passed over it",
        "lho-over",
    ),
    (
        "D2",
        "call-out-of-rotation",
        "called-since",
        "West bid out of turn when it was his partner East to call; East then passed over it",
        "lho-over",
    ),
    (
        "D3",
        "insufficient-bid",
        "lho-accepts",
        "East made an insufficient bid; his partner West had already called",
        "accept",
    ),
    (
        "D4",
        "insufficient-bid",
        "unintended",
        "North opened 1S, East bid 1H; South didn't notice and passed, then West bid 2H",
        "intended",
    ),
    (
        "D5",
        "change-of-call",
        "intent",
        "North passed, then said he meant to bid 2S, he had not seen partner opened",
        "unintended",
    ),
    ("D5", "insufficient-bid", "unintended", "East bid 1H over 1S; he says he meant to bid 2H", "unintended"),
    ("D5", "change-of-call", "intent", "East bid 1H over 1S; he says he meant to bid 2H", "unintended"),
    (
        "D6",
        "inadmissible-call",
        "double-when",
        "During the auction West doubled his partner's bid; it was only noticed when dummy came down",
        "auction",
    ),
    (
        "D7",
        "card-exposed-during-auction",
        "own-error",
        "North dropped the ace of spades face up on the table during the auction; only the opponents saw it",
        "no",
    ),
    (
        "D8",
        "card-exposed-during-auction",
        "what-exposed",
        "During the auction South dropped the ♣2 and ♣3 face up, partner could see them",
        "low",
    ),
    (
        "D8",
        "card-exposed-during-auction",
        "what-exposed",
        "Over a three-level preempt North dropped a card face up; partner could see it",
        "low",
    ),
    (
        "D9",
        "card-exposed-during-auction",
        "offender-role",
        "North exposed the king of hearts during the auction and partner saw it; East became declarer",
        "declaring",
    ),
    (
        "E1",
        "card-played",
        "whose-card",
        "Declarer played low from dummy and then the defender played the king; now he wants to change it",
        "dummy",
    ),
    (
        "E2",
        "card-from-dummy",
        "what-said",
        "Incomplete designation: declarer said the king of spades, but there is no king of spades in dummy",
        "rank",
    ),
    (
        "E3",
        "penalty-card",
        "which-card",
        "East accidentally dropped the 3 of hearts face up while winning the trick with the ace",
        "honour",
    ),
    (
        "E4",
        "penalty-card",
        "how-many",
        "East already had one penalty card on the table and now dropped another one",
        "one",
    ),
    (
        "E5",
        "defender-exposes-card",
        "partner-could-see",
        "West dropped the queen of spades face up on the table; only declarer saw it",
        "no",
    ),
    (
        "E6",
        "defender-exposes-card",
        "how",
        "Declarer named a card from dummy, and West accidentally dropped the queen of hearts face up",
        "named",
    ),
    (
        "E7",
        "premature-play",
        "what",
        "Dummy led a heart and West played before declarer played, before his partner East had played",
        "rho-turn",
    ),
    (
        "E8",
        "dummy-rights",
        "what-happened",
        "Dummy asked declarer whether he wanted the ace played from dummy",
        "asked-revoke",
    ),
    ("E8", "dummy-rights", "what-happened", "Dummy asked declarer to play the ace from dummy", "asked-revoke"),
    (
        "E9",
        "dummy-rights",
        "what-happened",
        "Dummy had been watching declarer play; then dummy warned declarer about a possible revoke",
        "warned",
    ),
    (
        "E10",
        "irregularity-procedure",
        "who-drew",
        "Declarer led from the wrong hand and his partner pointed it out",
        "own-side",
    ),
    (
        "F1",
        "revoke",
        "established",
        "After declarer had established the clubs, RHO revoked; he noticed it himself before his side played to the "
        "next trick",
        "yes",
    ),
    ("F1", "revoke", "established", "At trick 8 LHO revoked; he corrected it prior to being established", "yes"),
    (
        "F1",
        "revoke",
        "established",
        "At trick 8 LHO revoked; he corrected it before it could become established",
        "yes",
    ),
    ("F2", "revoke", "trick-twelve", "Declarer revoked on the second-last trick; the opening lead was a club", "no"),
    (
        "F3",
        "revoke",
        "kind-of-revoke",
        "East revoked in hearts at trick 3, then West revoked in clubs at trick 7: second revoke on the board, both "
        "noticed at the end of play",
        "repeated",
    ),
    (
        "G1",
        "appeal",
        "in-time",
        "The revoke was noticed in time and I transferred two tricks; the next morning the team wants to appeal",
        "yes",
    ),
    (
        "G2",
        "appeal",
        "subject",
        "Declarer claimed, play was suspended and I ruled on the claim; both partners want to appeal my ruling",
        "discipline",
    ),
    (
        "G3",
        "disputed-facts",
        "facts-agreed",
        "They all agree there was a pause, but disagree about how long it was",
        "yes",
    ),
    (
        "G4",
        "misinformation",
        "agreement",
        "East bid 2D, West explained it as weak; East says he simply misbid, he meant it as strong. No system card.",
        "call",
    ),
    (
        "G5",
        "tempo-and-conduct",
        "what",
        "North hesitated holding a singleton before passing, then South bid 4H",
        "misled",
    ),
    (
        "G5",
        "tempo-and-conduct",
        "what",
        "After a long pause North passed with a singleton and South then bid game",
        "misled",
    ),
    (
        "G6",
        "unauthorised-information",
        "play-ended",
        "Partner hesitated after play of the queen from dummy, then switched to a club",
        "yes",
    ),
    (
        "G7",
        "wrong-number-of-cards",
        "what-wrong",
        "North had 14 HCP but only 12 cards when he sorted his hand",
        "too-many",
    ),
    (
        "G8",
        "scoring-error",
        "from-claim",
        "NS claimed they made 10 tricks, EW say only 9; they disagree on the tricks won",
        "yes",
    ),
    (
        "P1",
        "misinformation",
        "lead-faced",
        "My partner misexplained my 2D bid; I became declarer and forgot to correct it before the opening lead. I "
        "told the opponents when dummy came down.",
        "no",
    ),
    (
        "P1",
        "misinformation",
        "lead-faced",
        "My partner misexplained my 2D bid; I became declarer and neglected to correct it before the opening lead.",
        "no",
    ),
    (
        "P1",
        "misinformation",
        "lead-faced",
        "My partner misexplained my 2D bid; I became declarer and failed to correct it before the opening lead, and "
        "told them later.",
        "no",
    ),
    (
        "P2",
        "card-played",
        "declarer-how",
        "Declarer put the ace of clubs face up on the table in front of him; then LHO dropped the king, and declarer "
        "wants to play the two instead.",
        "dropped",
    ),
    (
        "P2",
        "card-played",
        "declarer-how",
        "After declarer dropped the singleton king with the ace, he pulled the jack of hearts and put it face up on "
        "the table; now he wants to play a spade instead.",
        "dropped",
    ),
    (
        "P2",
        "card-played",
        "declarer-how",
        "Declarer's card: he held the ♠A face up just above the table, then dropped the ♠2 on top of it",
        "dropped",
    ),
    (
        "P3",
        "card-exposed-during-auction",
        "what-exposed",
        "During the auction North dropped a small spade face up, partner could see it, which led South to bid spades.",
        "led",
    ),
    (
        "P3",
        "card-exposed-during-auction",
        "what-exposed",
        "During the auction South dropped a low club face up and partner saw it; nobody noticed until after West led.",
        "led",
    ),
    (
        "P3",
        "card-exposed-during-auction",
        "what-exposed",
        "North exposed a heart during the bidding, partner saw it; this led to a discussion",
        "led",
    ),
    (
        "P4",
        "card-exposed-during-auction",
        "any-call",
        "North dropped the ace of hearts face up while sorting his cards before the bidding, partner saw it; later "
        "during the auction South doubled.",
        "yes",
    ),
    ("P4", "unauthorised-information", "other-when", "North saw a card before the auction ended", "before-call"),
    (
        "P4",
        "wrong-board",
        "misdeal-when",
        "Misdeal: North saw a card of East before the auction ended",
        "before-auction",
    ),
    (
        "P4",
        "card-exposed-during-auction",
        "any-call",
        "North exposed the ace of hearts before the bidding ended, partner saw it",
        "no",
    ),
    (
        "P4",
        "card-exposed-during-auction",
        "any-call",
        "North dropped a card face up; before anyone called the TD partner saw it",
        "no",
    ),
    (
        "P5",
        "card-exposed-during-auction",
        "own-error",
        "During the auction North dropped the queen of spades face up on the table; he says it was not his fault, "
        "the cards were sticky.",
        "no-fault",
    ),
    (
        "P6",
        "two-cards-at-once",
        "next-trick",
        "East played two cards stuck together to trick 5, both faces visible; declarer noticed later in the same "
        "trick, before anyone had led to trick 6.",
        "yes",
    ),
    (
        "P6",
        "two-cards-at-once",
        "next-trick",
        "West played two cards together; it was noticed later, when West was gathering the trick",
        "yes",
    ),
    (
        "P6",
        "two-cards-at-once",
        "next-trick",
        "East played two cards in the same trick; nobody noticed until trick 9",
        "no",
    ),
    (
        "P7",
        "wrong-board",
        "wrong-board-event",
        "They played the wrong board in our Butler pairs, scored at IMPs.",
        "teams",
    ),
    (
        "P7",
        "wrong-board",
        "wrong-board-event",
        "In the Swiss pairs (IMPs) the table was playing the wrong board.",
        "teams",
    ),
    (
        "P8",
        "wrong-board",
        "misdeal-when",
        "The board was misdealt: during the auction North found he had only 12 cards.",
        "seen-later",
    ),
    (
        "P8",
        "wrong-board",
        "misdeal-when",
        "Misdeal: during the auction South noticed she had 14 cards",
        "seen-later",
    ),
    (
        "P9",
        "unauthorised-information",
        "other-when",
        "North saw an opponent's card when East took his hand out of the board, before anyone had called.",
        "opponent-card",
    ),
    (
        "P9",
        "unauthorised-information",
        "other-when",
        "West held his cards carelessly while sorting them before the first call, and North saw the ace of spades.",
        "opponent-card",
    ),
    (
        "P10",
        "call-out-of-rotation",
        "called-since",
        "My RHO opened 1NT out of turn; it was my partner's turn. My partner then bid 2H over it.",
        "correct-player",
    ),
    (
        "P11",
        "revoke",
        "established",
        "It was established that declarer revoked in hearts at trick 8; LHO drew attention to it straight away, and "
        "declarer has not played to trick 9.",
        "yes",
    ),
    (
        "P12",
        "revoke",
        "revoke-trick",
        "East revoked at trick 6 by discarding a club; declarer ruffed and won the trick. Noticed at the end of play.",
        "offender",
    ),
    (
        "P13",
        "penalty-card",
        "which-card",
        "East accidentally exposed the ♥3 while winning the trick with the ace.",
        "honour",
    ),
    (
        "P14",
        "card-exposed-during-auction",
        "what-exposed",
        "During the auction South dropped the ♣2 and the ♦7 face up; partner saw it.",
        "low",
    ),
    (
        "P15",
        "scoring-error",
        "from-claim",
        "Declarer claimed he made 10 tricks, the defenders say only 9; they disagree on the tricks won.",
        "yes",
    ),
    (
        "P16",
        "lead-out-of-turn",
        "opening",
        "West made the opening lead and dummy won with the ace; then declarer led from his hand instead of from dummy.",
        "yes",
    ),
    (
        "P17",
        "insufficient-bid",
        "lho-accepts",
        "East bid 1H over 1S in turn. South pointed it out, then East replaced it with 2H and LHO then passed; now "
        "West wants to bid.",
        "accept",
    ),
    (
        "P17",
        "insufficient-bid",
        "lho-accepts",
        "East bid 1H over 1S in turn. Before anyone else called, East changed it to 2H himself, and LHO then passed",
        "accept",
    ),
    (
        "P17",
        "insufficient-bid",
        "lho-accepts",
        "East bid 1H over 1S, then changed it to 2H; LHO had already called before the Director came",
        "accept",
    ),
    (
        "Q1",
        "revoke",
        "established",
        "It is established that declarer revoked in hearts at trick 8; LHO drew attention to it straight "
        "away and declarer has not played to trick 9.",
        "yes",
    ),
    (
        "Q1",
        "revoke",
        "established",
        "It has been established that declarer revoked in hearts at trick 8; declarer has not played to trick 9.",
        "yes",
    ),
    (
        "Q1",
        "revoke",
        "established",
        "After checking the quitted tricks it's established that declarer revoked at trick 8. Declarer has "
        "not played to trick 9 yet.",
        "yes",
    ),
    (
        "Q2",
        "claim",
        "trump-out",
        "Declarer claimed the rest saying there were no trumps left, but East still held the ♠J.",
        "no",
    ),
    (
        "Q2",
        "claim",
        "trump-out",
        "Declarer claimed in 4♠ thinking trumps were drawn, but East still had the ♠J.",
        "no",
    ),
    (
        "Q2",
        "claim",
        "trump-out",
        "Declarer claimed in 4♠ believing all trumps drawn; West still has the ♠9.",
        "no",
    ),
    (
        "Q3",
        "penalty-card",
        "which-card",
        "Declarer won with the ♦A and West accidentally exposed the ♣4.",
        "honour",
    ),
    (
        "Q3",
        "penalty-card",
        "which-card",
        "West exposed the ♥4 after declarer showed the king.",
        "honour",
    ),
    (
        "Q4",
        "claim",
        "faced-for-claim",
        "West made the opening lead out of turn. Declarer faced his cards, and the defenders treated it as a claim.",
        "yes",
    ),
    (
        "Q4",
        "claim",
        "faced-for-claim",
        "After West's opening lead out of turn declarer spread his hand; East thought declarer had claimed.",
        "yes",
    ),
    (
        "Q5",
        "claim",
        "agreed",
        "Declarer played on to trick 10 and then claimed the rest. The defenders called the director.",
        "played-on",
    ),
    (
        "Q5",
        "claim",
        "agreed",
        "Declarer played on for two tricks, then claimed. East is not happy.",
        "played-on",
    ),
    (
        "Q6",
        "claim",
        "defender-concession",
        "East conceded the rest; partner objected after the board was put away.",
        "yes",
    ),
    (
        "Q6",
        "claim",
        "defender-concession",
        "East conceded the last two tricks. A minute later, after declarer had played to the next trick, "
        "partner objected.",
        "yes",
    ),
    (
        "Q7",
        "call-out-of-rotation",
        "called-since",
        "Before anyone called, West opened 1♠ out of turn. North, the dealer, then bid 1♥.",
        "no-one",
    ),
    (
        "Q7",
        "call-out-of-rotation",
        "called-since",
        "West bid 1♠ out of turn before anyone called, and North (dealer) passed.",
        "no-one",
    ),
    (
        "Q8",
        "insufficient-bid",
        "unintended",
        "South bid 1♥ over 1♠. West did not see the bid and passed.",
        "intended",
    ),
    (
        "Q9",
        "unauthorised-information",
        "ask-source",
        "A spectator made a remark about the hand during the auction, and North heard it.",
        "partner",
    ),
    (
        "Q9",
        "unauthorised-information",
        "ask-source",
        "A kibitzer standing behind South made a gesture when North was deciding what to lead.",
        "partner",
    ),
    (
        "Q9",
        "unauthorised-information",
        "ask-source",
        "The caddie made a remark about board 5 while the players were still bidding it.",
        "partner",
    ),
    (
        "Q10",
        "lead-out-of-turn",
        "opening",
        "Dummy won the ♥A and then the opening leader led a club out of turn.",
        "yes",
    ),
    (
        "Q11",
        "misinformation",
        "agreement",
        "North did not alert South's 2♦. The system card shows 2♦ is natural; South forgot the agreement and "
        "meant it as a transfer.",
        "explanation",
    ),
    (
        "Q11",
        "misinformation",
        "agreement",
        "2♦ was not alerted, which is right: their card says natural. South misbid, intending a transfer.",
        "explanation",
    ),
    (
        "Q12",
        "unauthorised-information",
        "partner-facts",
        "North-South say there was a clear hesitation before West's pass; East-West deny it.",
        "yes",
    ),
    (
        "Q12",
        "unauthorised-information",
        "partner-facts",
        "South claims an unmistakable hesitation by West, but West says he passed in normal tempo.",
        "yes",
    ),
    (
        "Q12",
        "unauthorised-information",
        "partner-facts",
        "East says West made a long pause; West disputes that there was a clear hesitation.",
        "yes",
    ),
    (
        "Q13",
        "insufficient-bid",
        "replacement",
        "South corrected in the same suit, jumping to 3♥ although 2♥ was the lowest sufficient bid.",
        "lowest",
    ),
    (
        "Q14",
        "penalty-card",
        "how-many",
        "West accidentally dropped the ♣5 face up. His partner already had a penalty card, the ♠K.",
        "several",
    ),
    (
        "Q14",
        "penalty-card",
        "how-many",
        "West dropped the ♣5 face up; East already had one penalty card from trick 3.",
        "several",
    ),
    (
        "Q14",
        "penalty-card",
        "how-many",
        "West dropped the ♣5 face up. There is another penalty card on the table, East's ♠K.",
        "several",
    ),
    (
        "Q15",
        "call-out-of-rotation",
        "what-call",
        "East bid out of turn: he passed when it was South's turn to call.",
        "bid",
    ),
    (
        "Q15",
        "call-out-of-rotation",
        "what-call",
        "West bid out of turn, a double of 1♥, while North was still thinking.",
        "bid",
    ),
    (
        "Q15",
        "call-out-of-rotation",
        "what-call",
        "North was dealer, but East opened out of turn with a pass.",
        "bid",
    ),
    (
        "Q16",
        "revoke",
        "established",
        "South revoked on trick 7; North, the dummy, noticed immediately after South had led to trick 8.",
        "no",
    ),
    (
        "Q16",
        "revoke",
        "established",
        "East revoked at trick 4. West had already led to trick 5 when dummy noticed at once and called the director.",
        "no",
    ),
    (
        "Q16",
        "two-cards-at-once",
        "next-trick",
        "At trick 3 East played two cards stuck together; declarer noticed immediately after both sides had "
        "played to trick 4.",
        "no",
    ),
    (
        "Q16",
        "card-from-dummy",
        "next-trick",
        "Dummy played a card declarer didn't name at trick 5. It was noticed at once, but only after West "
        "had led to trick 6 and declarer had followed.",
        "no",
    ),
    (
        "Q17",
        "opening-lead-out-of-turn",
        "dummy-seen",
        "RHO faced the opening lead out of turn. Dummy started to put his hand down but stopped before any "
        "card was turned face up.",
        "yes",
    ),
    (
        "Q17",
        "opening-lead-out-of-turn",
        "dummy-seen",
        "The wrong defender led; dummy began to put the cards down face down, and nobody saw any of them.",
        "yes",
    ),
    (
        "Q18",
        "claim",
        "what-said",
        'Declarer said "I win this trick and the rest too" and stopped playing.',
        "current-trick",
    ),
    (
        "Q18",
        "claim",
        "what-said",
        'West said "this trick is mine, and the last two as well".',
        "current-trick",
    ),
    (
        "Q18",
        "claim",
        "what-said",
        "East said to declarer: you win this one and the remaining tricks are yours.",
        "current-trick",
    ),
    (
        "Q19",
        "call-out-of-rotation",
        "called-since",
        "East passed out of turn at North's turn. The player whose turn it was called the director at once.",
        "correct-player",
    ),
    (
        "Q19",
        "call-out-of-rotation",
        "called-since",
        "North passed out of turn at East's turn. The correct player then called the TD.",
        "correct-player",
    ),
    (
        "Q19",
        "inadmissible-call",
        "double-lho",
        "North doubled his own side's 2♥. LHO has called the director.",
        "yes",
    ),
    (
        "Q19",
        "inadmissible-call",
        "must-pass-lho",
        "South, who must pass, bid 2♣. LHO had called the director immediately.",
        "yes",
    ),
    (
        "Q19",
        "wrong-board",
        "partner-called",
        "South took the cards from the wrong board and opened 1♥. Her partner had called the director straight away.",
        "yes",
    ),
    (
        "Q19",
        "change-of-call",
        "partner-called",
        "North bid 2♠ and immediately tried to change it to 3♠; partner had already called the director.",
        "yes",
    ),
    (
        "Q19",
        "inadmissible-call",
        "seven-lho",
        "South bid 8♠. LHO had called the director immediately.",
        "yes",
    ),
    (
        "Q20",
        "claim",
        "line-stated",
        "Declarer claimed, stating he would take the club finesse; the line needs a finesse, which works.",
        "unstated-finesse",
    ),
    (
        "Q21",
        "defective-trick",
        "when",
        "At trick 4 West did not play to the trick; it was found later in the same trick, before anyone had "
        "led to trick 5.",
        "yes",
    ),
    (
        "Q21",
        "simultaneous-plays",
        "next-trick",
        "Two cards were played to trick 6 at once; it was found later, while West was gathering the trick.",
        "yes",
    ),
    (
        "Q21",
        "defective-trick",
        "when",
        "West forgot to play to trick 4. It was noticed immediately after both sides had played to trick 5.",
        "no",
    ),
    (
        "Q21",
        "simultaneous-plays",
        "next-trick",
        "West played two cards stuck together to trick 5; declarer noticed immediately after both sides had "
        "played to trick 6.",
        "no",
    ),
    (
        "Q22",
        "wrong-number-of-cards",
        "too-many-when",
        "North found he had 14 cards just before the auction ended, after he had bid 2♥.",
        "no-call",
    ),
    (
        "Q22",
        "wrong-number-of-cards",
        "too-many-when",
        "South discovered 14 cards before the bidding was over; he had already opened 1♣.",
        "no-call",
    ),
    (
        "Q23",
        "wrong-number-of-cards",
        "short-when",
        "South forgot to count his cards before the opening lead; at trick 5 he found he had only 12.",
        "no",
    ),
    (
        "Q23",
        "wrong-number-of-cards",
        "short-when",
        "East neglected to count her hand before the lead and discovered at trick 8 that a card was missing.",
        "no",
    ),
    (
        "Q24",
        "claim",
        "agreed",
        "Declarer claimed the rest. East accepted the claim, but West immediately said he had a trump winner.",
        "yes",
    ),
    (
        "Q24",
        "claim",
        "agreed",
        "Declarer claimed; West agreed to the claim, but dummy pointed out that a trick could be lost and "
        "called the director.",
        "yes",
    ),
    (
        "Q24",
        "claim",
        "agreed",
        "East claimed two tricks. Declarer accepted the claim but dummy doubted it straight away.",
        "yes",
    ),
    (
        "Q15",
        "call-out-of-rotation",
        "what-call",
        "East bid out of rotation: he passed when it was South's turn to call.",
        "bid",
    ),
    (
        "Q15",
        "call-out-of-rotation",
        "what-call",
        "North was dealer, but East opened out of rotation with a pass.",
        "bid",
    ),
    (
        "Q15",
        "comparable-call",
        "ask-offence",
        "East bid out of turn: he passed when it was South's turn to call.",
        "bid-oor",
    ),
    (
        "Q16",
        "start-of-play",
        "layout",
        "Dummy hid a card under another; declarer noticed at once, but only after dummy had revoked.",
        "nothing-yet",
    ),
    (
        "Q4",
        "declarer-exposes-cards",
        "intended-claim",
        "Declarer faced his cards after the opening lead out of turn; the defenders treated it as a claim.",
        "claim",
    ),
    (
        "Q19",
        "wrong-board",
        "partner-called",
        "South took the cards from the wrong board and opened 1♥. Her partner had called for the director.",
        "yes",
    ),
    (
        "Q11",
        "misinformation",
        "agreement",
        "2♦ wasn't alerted, which is right: their card says natural. South misbid, intending a transfer.",
        "explanation",
    ),
    (
        "Q14",
        "penalty-card",
        "how-many",
        "West already had one penalty card, the ♠K; now he dropped the ♣5 face up.",
        "one",
    ),
    (
        "Q14",
        "penalty-card",
        "how-many",
        "West dropped the ♣5 face up; East dropped another, his second penalty card.",
        "several",
    ),
    (
        "Q5",
        "claim",
        "agreed",
        "Declarer continued playing to trick 10 and then claimed the rest. The defenders called the director.",
        "played-on",
    ),
]


@pytest.mark.parametrize(("finding", "chart_id", "question", "text", "wrong"), MISREAD, ids=[m[0] for m in MISREAD])
def test_a_description_the_audit_found_misread_no_longer_gives_that_answer(
    finding: str, chart_id: str, question: str, text: str, wrong: str
) -> None:
    chart = load_charts()[chart_id]
    node = chart.nodes[question]
    assert isinstance(node, Question) and wrong in {o.id for o in node.options}, finding
    assert answer_from(Description(text), chart, node) != wrong, finding


async def test_a_jump_does_not_carry_words_about_another_event(real: Dialogs) -> None:
    """Audit finding A5: the description is read again in a chart the walk jumps to, so a word that meant
    something else ("claimed they made 10 tricks", "meant to bid") must not walk into that chart's answers."""
    text = "NS claimed they made 10 tricks, EW say only 9; they disagree on the tricks won"
    screen = await real.start("t:1", "scoring-error", description=text)
    assert screen.where == "scoring-error/from-claim"
    screen = await real.start("t:1", "insufficient-bid", description="East bid 1H over 1S; he says he meant to bid 2H")
    assert screen.where == "insufficient-bid/unintended"
    text = "Declarer showed his cards after the opening lead, thinking he was dummy"
    screen = await real.start("t:1", "declarer-exposes-cards", description=text)
    assert screen.where == "declarer-exposes-cards/what"
