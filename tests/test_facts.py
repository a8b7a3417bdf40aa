"""Facts from the description: a question the director's words already answer is not asked, and never guessed."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import FIXTURES
from fake_telegram import FakeBotAPI, Table, start_bot
from telegram.ext import Application

from bot.dialogs import Chart, Dialogs, load_charts, parse_chart
from bot.dialogs.facts import ASK, SOURCE, Description, answer_from
from bot.dialogs.lint import lint_charts
from bot.dialogs.model import Question
from bot.laws import load_lawbook
from bot.matching import ChartEntry, build_matcher
from bot.rulings import Rulings
from bot.rulings.export import export
from bot.store import Store
from bot.terminal import TerminalChat

REVOKE = "revoke"
REVOKED = "declarer revoked on trick 5"  # answers what happened, and that it was not the twelfth trick
DATA = Path(__file__).parent / "data"


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
    answering = [Description(c).words for o, phrases in cues.items() if o != ASK for c in phrases]
    for option, phrases in cues.items():
        for cue in phrases:
            assert Description(f"At table 4, {cue}.").answer(cues) == option, cue
            for negated in (f"not {cue}", f"{cue.split()[0]} didn't {cue}", f"never {cue}"):
                if option != ASK:
                    assert Description(negated).answer(cues) != option, negated
                elif not any(_within(said, Description(negated).words) for said in answering):
                    assert Description(negated).answer(cues) == ASK, negated  # negated or not, it asks


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
            assert Description(f"{cue}, then {opposite}").answer(cues) in (None, ASK), (cue, opposite)


def test_negations_reach_only_a_few_words_back_within_the_clause() -> None:
    """Audit findings A1 to A4 and A6: the words that stop a cue."""
    cues = {"yes": ["accepted"], "no": ["not accepted", "refused"]}
    assert Description("LHO accepted the insufficient bid").answer(cues) == "yes"
    assert Description("IB 1♦ over 1♥, not accepted, corrected to 2♦").answer(cues) == "no"
    assert Description("LHO hasn't accepted yet").answer(cues) is None
    assert Description("LHO has not yet accepted").answer(cues) is None
    assert Description("declarer touched nothing").answer({"touched": ["declarer touched"]}) is None
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
    # a belief, a party's claim or what should have happened states no fact of the table: asked
    assert Description("South says LHO accepted the lead").answer(cues) is None
    assert Description("East insists LHO accepted it").answer(cues) is None
    assert Description("declarer, thinking LHO accepted, played on").answer(cues) is None
    assert Description("LHO should have accepted it").answer(cues) is None
    # a short part beside the cue's that says whose account it is reports it too (audits ak, am, an)
    assert Description("LHO accepted, South says").answer(cues) is None
    assert Description("LHO accepts, says RHO, but LHO himself wants it corrected.").answer(cues) is None
    assert Description("East says, LHO accepted the lead").answer(cues) is None
    assert Description("LHO accepted, or so West claims; East disagrees").answer(cues) is None
    assert Description("LHO accepted, then South led").answer(cues) == "yes"
    assert Description("According to South, LHO accepted").answer(cues) is None
    assert Description("West said LHO accepted the lead").answer(cues) is None
    assert Description("declarer said 'small club' and LHO accepted").answer(cues) == "yes"  # a designation
    # an `ask` cue names no option: found with an option's cue, the question is asked
    asked = {"yes": ["accepted"], "ask": ["accepted yet"]}
    assert Description("LHO accepted").answer(asked) == "yes"
    assert Description("LHO hasn't accepted yet").answer(asked) == ASK  # a word that asks, negated, still asks
    # "non-offender" is one word to a director, not "offender" after "non"
    role = {"declaring": ["offender became declarer"], "defending": ["offender became a defender"]}
    assert Description("the non-offender became declarer").answer(role) is None
    assert Description("the offender became declarer").answer(role) == "declaring"
    # a negation that belongs to another cue does not cancel the next one: both are cued, so it is asked
    revoke = load_charts()["revoke"].cues["what-happened"]
    assert Description("may declarer ask a defender who didn't follow suit whether he has one?").answer(revoke) is None


def test_words_of_another_event_an_appearance_a_correction_or_a_choice_for_now_ask() -> None:
    """The second shared rules: a cue of another table or day, of how it only looked, taken back, not yet done, for
    now or after "none of" states nothing of this table; plain table words still answer."""
    cues = {"yes": ["declarer accepted the lead"], "no": ["declarer refused the lead"]}
    # another table, room, board, round or match; another day only beside this one ("tonight")
    assert Description("At the other table declarer accepted the lead").answer(cues) is None
    assert Description("At the other table, declarer accepted the lead.").answer(cues) is None
    assert Description("On the previous board declarer accepted the lead; here East led").answer(cues) is None
    assert Description("Last night declarer accepted the lead; tonight West led out of turn").answer(cues) is None
    assert Description("Last night declarer accepted the lead").answer(cues) == "yes"  # when the story happened
    assert Description("At trick 7 declarer accepted the lead").answer(cues) == "yes"
    assert Description("On the previous trick declarer accepted the lead").answer(cues) == "yes"
    assert Description("The other table has a result, but declarer accepted the lead").answer(cues) == "yes"
    # how it only looked; a correction; what was about to happen or will happen; a choice for now
    assert Description("It looked like declarer accepted the lead, but he was thinking").answer(cues) is None
    assert Description("At first declarer accepted the lead").answer(cues) is None
    assert Description("declarer accepted the lead. Correction: he refused it").answer(cues) is None
    assert Description("declarer accepted the lead, no, sorry, he wants time").answer(cues) is None
    claims = {"claim": ["claim", "claimed", "claims"]}
    assert Description("Declarer was about to claim when West revoked").answer(claims) is None
    assert Description("Declarer will claim at trick 10").answer(claims) is None
    assert Description("Next time declarer claims with a trump out I will adjust").answer(claims) is None
    assert Description("Declarer claimed, so I will rule on it").answer(claims) == "claim"
    assert Description("declarer accepted the lead for now").answer(cues) is None
    assert Description("declarer accepted the lead; nobody noticed until trick 9").answer(cues) == "yes"
    assert Description("declarer accepted the lead; it turned out West was on lead").answer(cues) == "yes"
    # "none of" reaches eight words, not the whole part
    seen = {"yes": ["saw another player's card"]}
    assert Description("None of the four players saw another player's card").answer(seen) is None
    revoked = {"dummy": ["dummy revoked"]}
    assert Description("nobody at the table had noticed during the play that dummy revoked").answer(revoked) == "dummy"


@pytest.fixture
def real(store: Store) -> Dialogs:
    return Dialogs(store, load_charts())


async def test_a_chart_started_from_a_description_skips_what_it_says(real: Dialogs, store: Store) -> None:
    screen = await real.start("t:1", REVOKE, description=REVOKED)
    assert screen.node_id == "established" and screen.step == 2
    assert [(a.step.node, a.step.option, a.source) for a in screen.path] == [
        ("what-happened", "revoke", SOURCE),
        ("trick-twelve", "no", SOURCE),
    ]
    assert [a.answer for a in screen.from_description] == ["A player revoked", "No"]
    events = await store.events(screen.session_id)
    assert events[0].data["description"] == REVOKED
    assert [(e.kind, e.data.get("source")) for e in events] == [("start", None), ("answer", SOURCE), ("answer", SOURCE)]
    # the director's answer moves the walk on, and the next question the words answer is taken too
    screen = await real.answer("t:1", screen.session_id, 2, "no")
    assert screen.finished and [a.source for a in screen.path] == [SOURCE, SOURCE, "", SOURCE]


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
    screen = await real.start("t:1", REVOKE, description=REVOKED)
    assert len(writes) == 1
    with sqlite3.connect(store.path) as other:  # as another process reads the file
        kinds = other.execute("SELECT kind FROM events WHERE session_id = ? ORDER BY seq", (screen.session_id,))
        assert [kind for (kind,) in kinds] == ["start", "answer", "answer"]
        (step,) = other.execute("SELECT step FROM sessions WHERE id = ?", (screen.session_id,)).fetchone()
    assert step == screen.step == 2


async def test_answers_are_taken_again_as_the_walk_moves_on(real: Dialogs, store: Store) -> None:
    screen = await real.start("t:1", REVOKE, description=REVOKED)
    screen = await real.answer("t:1", screen.session_id, 2, "no")
    assert screen.finished and screen.rulings[-1].node == "replace"
    kinds = [(e.kind, e.data.get("source")) for e in await store.events(screen.session_id)]
    assert kinds[-2:] == [("answer", SOURCE), ("ruling", None)]
    record = await Rulings(store, real).record(screen.session_id)
    text = export(load_lawbook(), record, "text")
    assert "Who revoked? → Declarer (from your description)" in text
    assert "Has the revoke been established? → No, not yet established\n" in text
    assert f"Described as:\n  > {REVOKED}\n" in text
    for fmt in ("markdown", "html"):
        assert "from your description" in export(load_lawbook(), record, fmt)


async def test_back_and_change_over_a_prefilled_answer(real: Dialogs) -> None:
    screen = await real.start("t:1", REVOKE, description=REVOKED)
    screen = await real.answer("t:1", screen.session_id, 2, "no")
    assert screen.finished and screen.path[-1].source == SOURCE  # the answer taken last led straight to a ruling
    screen = await real.reopen_ruling("t:1", screen.session_id)
    assert screen.node_id == "who-revoked" and len(screen.path) == 3  # back over it: the question is asked
    screen = await real.answer("t:1", screen.session_id, 3, "defender")
    assert screen.node_id != "who-revoked" and screen.path[-1].source == ""
    screen = await real.start("t:1", REVOKE, description=REVOKED)
    screen = await real.back("t:1", screen.session_id)
    assert screen.node_id == "trick-twelve" and screen.step == 1
    screen = await real.answer("t:1", screen.session_id, 1, "no")
    assert screen.node_id == "established" and screen.path[-1].source == ""
    changed = await real.change("t:1", screen.session_id, 2, "yes")
    assert changed.node_id == "twelve-hands" and [(a.step.option, a.source) for a in changed.path] == [
        ("revoke", SOURCE),
        ("yes", ""),
    ]


async def test_every_first_question_with_cues_is_answered_from_its_cue(real: Dialogs) -> None:
    started = 0
    for chart in real.charts.values():
        walk = real.engine.begin(chart.id)
        if walk.finished or walk.node.id not in chart.cues:
            continue
        for option, phrases in chart.cues[walk.node.id].items():
            if option == ASK:  # words that leave the question to the director answer nothing
                continue
            screen = await real.start("t:1", chart.id, description=phrases[0])
            first = screen.path[0]
            assert (first.step.node, first.step.option, first.source) == (walk.node.id, option, SOURCE), phrases[0]
            started += 1
    assert started > 60


async def test_two_options_cued_or_no_description_asks(real: Dialogs) -> None:
    screen = await real.start("t:1", REVOKE, description="declarer revoked, or maybe dummy only asked about a revoke")
    assert screen.node_id == "what-happened" and screen.path == ()
    screen = await real.start("t:1", REVOKE)
    assert screen.node_id == "what-happened" and screen.path == ()


def test_the_linter_checks_every_cue(demo_charts: dict[str, Chart]) -> None:
    book = load_lawbook()
    text = (FIXTURES / "dialogs" / "demo-main.yaml").read_text(encoding="utf-8")
    bad = text + (
        "cues:\n"
        "  who:\n"
        "    lho: [LHO exposed, the card, matchpoints]\n"
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
    # "IMPs" spelt out is "international matchpoints": a bare "matchpoints" cue would read a teams event as pairs
    assert any("'matchpoints' of 'who' is found inside 'imps' spelt out" in p for p in found)


def test_the_real_charts_cues_are_clean() -> None:
    found = [str(p) for p in lint_charts(load_charts(), load_lawbook()).problems if "cue" in str(p)]
    assert found == []


async def test_the_terminal_passes_what_was_typed(store: Store) -> None:
    charts = load_charts()
    matcher = build_matcher(ChartEntry(c.id, c.title, c.laws, c.keywords) for c in charts.values())
    chat = TerminalChat(Dialogs(store, charts), load_lawbook(), "terminal:t", matcher)
    await chat.handle("mode director")
    listed = await chat.handle(REVOKED)
    number = next(line.split(".")[0].strip() for line in listed.splitlines() if "Revoke" in line)
    shown = await chat.handle(number)
    assert "From your description: A player revoked · Did the revoke happen on the twelfth trick" in shown
    assert "Has the revoke been established?" in shown
    assert "→ A player revoked (from your description)" in await chat.handle("history")


@pytest.fixture
async def bot(store: Store) -> AsyncIterator[tuple[Application, FakeBotAPI]]:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    yield app, api
    await app.shutdown()


async def test_telegram_passes_what_was_typed(bot: tuple[Application, FakeBotAPI]) -> None:
    app, api = bot
    table = Table(app, api)
    await table.send(REVOKED)
    calls = await table.press("Revoke")
    text = table.texts(calls)
    assert "From your description: A player revoked · Did the revoke happen on the twelfth trick" in text
    assert "Has the revoke been established?" in text


# Descriptions an audit found answered wrongly (finding, chart, question, text, the wrong option once taken), one
# file per reading in tests/data/misread/: a wrong answer taken from the description gives a wrong ruling the
# director may not notice; asking costs a tap.
MISREAD = [
    (row["finding"], row["chart"], row["question"], row["text"], row["wrong"])
    for path in sorted((DATA / "misread").glob("*.yaml"))
    for row in yaml.safe_load(path.read_text(encoding="utf-8"))
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
