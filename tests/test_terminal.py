"""The terminal conversation: commands, answering by number, navigation, resume — and a crash mid-dialogue."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FIXTURES

from bot.dialogs import Chart, Dialogs, load_charts
from bot.laws import load_lawbook
from bot.matching import ChartEntry, build_matcher
from bot.rulings import Rulings
from bot.rulings.export import export
from bot.store import Status, Store
from bot.terminal import TerminalChat

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def chat(store: Store, demo_charts: dict[str, Chart]) -> TerminalChat:
    entries = [ChartEntry(c.id, c.title, c.laws, c.keywords) for c in demo_charts.values()]
    return TerminalChat(Dialogs(store, demo_charts), load_lawbook(), "terminal:tester", build_matcher(entries))


@pytest.mark.slow
async def test_help_law_and_quit(chat: TerminalChat) -> None:
    assert "law REF" in await chat.handle("help")
    reply = await chat.handle("law 54A")
    assert reply.startswith("Law 54 — ") and "A. Declarer Spreads His Hand" in reply
    assert "no '120'" in (await chat.handle("law 120")).lower()
    assert "Goodbye" in await chat.handle("quit") and chat.finished


@pytest.mark.slow
async def test_a_whole_dialogue_by_numbers(chat: TerminalChat) -> None:
    assert "demo-main" in await chat.handle("charts")
    first = await chat.handle("chart demo-main")
    assert "Who exposed a card?" in first and "1. LHO" in first and "Law 50 (type 'more'" in first
    assert "prematurely exposed" not in first  # the law is named on the screen, its text is one 'more' away
    assert "A card prematurely exposed" in await chat.handle("more")
    second = await chat.handle("2")  # a note asks nothing: its line goes above the next question
    assert "» The card of the right-hand opponent stays face up" in second and "Was it an honour?" in second
    assert "Continue" not in second
    ruling = await chat.handle("2")
    assert ruling.startswith("RULING — Demo of every node kind")
    assert "A minor penalty card for the right-hand opponent." in ruling
    assert (
        "Law 50 — Disposition of Penalty Card › C. Disposition of Minor Penalty Card" in ruling
    )  # the section quoted with its heading path
    assert "1. Who exposed a card? → RHO" in ruling


async def test_more_quotes_the_law_and_never_a_reviewers_note(store: Store) -> None:
    """A node's basis says where its logic comes from, for reviewers, and names the documents we built from:
    'more' shows the director the law, not that note."""
    charts = load_charts()
    entries = [ChartEntry(c.id, c.title, c.laws, c.keywords) for c in charts.values()]
    chat = TerminalChat(Dialogs(store, charts), load_lawbook(), "terminal:tester", build_matcher(entries))
    assert charts["insufficient-bid"].nodes["unintended"].basis  # the first question has a reviewer's note
    await chat.handle("chart insufficient-bid")
    more = await chat.handle("more")
    assert "Law 25" in more and "basis" not in more and "seed" not in more.lower()


async def test_a_directors_own_step_just_before_the_ruling_is_shown_with_it(store: Store) -> None:
    """A note for the director alone ("consider whether the card is then a lead out of turn") was passed on the
    way to the ruling and shown nowhere; it is shown on the ruling's screen but not read aloud."""
    charts = load_charts()
    entries = [ChartEntry(c.id, c.title, c.laws, c.keywords) for c in charts.values()]
    chat = TerminalChat(Dialogs(store, charts), load_lawbook(), "terminal:tester", build_matcher(entries))
    await chat.handle("chart premature-play")
    await chat.handle("1")  # a defender led or played before their partner
    await chat.handle("1")  # declarer had played from both hands
    ruling = await chat.handle("1")  # a card played to this trick, not a lead (walks 62 #65, 63 #97)
    assert ruling.startswith("RULING — ")
    assert "(for you, not to read aloud) If the card was in fact led to the next trick" in ruling


async def test_a_note_just_before_the_ruling_is_shown_with_it(store: Store) -> None:
    charts = load_charts()
    entries = [ChartEntry(c.id, c.title, c.laws, c.keywords) for c in charts.values()]
    chat = TerminalChat(Dialogs(store, charts), load_lawbook(), "terminal:tester", build_matcher(entries))
    await chat.handle("chart change-of-call")
    for number in ("1", "1"):  # an unintended call; partner has not called
        await chat.handle(number)
    ruling = await chat.handle("1")  # LHO had not called over it
    assert ruling.startswith("RULING — ") and "» The player substitutes the call they intended" in ruling
    assert ruling.index("» The player substitutes") < ruling.index("• There are no lead restrictions")


async def test_a_changed_answer_shows_the_later_answers_it_kept_before_the_ruling_rests_on_them(store: Store) -> None:
    """Sixth walk, #84: answer 1 changed from "the opponent whose turn it was to lead" to "the offender's LHO"
    kept answer 2 ("Yes, their own proper lead"), given for the other player, and went straight to a ruling; the
    ruling now shows the kept answer above what is read aloud, with how to answer it again."""
    charts = load_charts()
    entries = [ChartEntry(c.id, c.title, c.laws, c.keywords) for c in charts.values()]
    chat = TerminalChat(Dialogs(store, charts), load_lawbook(), "terminal:tester", build_matcher(entries))
    await chat.handle("chart play-after-illegal-play")
    await chat.handle("2")  # the opponent whose turn it was to lead
    first = await chat.handle("1")  # their own proper lead
    assert first.startswith("RULING — ") and "Kept from before" not in first
    await chat.handle("change 1")
    ruling = await chat.handle("1")  # the offender's LHO
    assert ruling.startswith("RULING — ")
    kept = "Kept from before — check them: 2. Was it that player's own turn to lead"
    assert kept in ruling and "→ Yes, their own proper lead (type 'change N' to answer one again)" in ruling
    assert ruling.index(kept) < ruling.index("• The proper lead stands")
    await chat.handle("change 2")
    assert "Kept from before" not in await chat.handle("2")  # the last answer changed: nothing after it was kept


@pytest.mark.slow
async def test_back_history_change_and_restart(chat: TerminalChat) -> None:
    await chat.handle("chart demo-main")
    await chat.handle("1")
    await chat.handle("1")
    history = await chat.handle("history")
    assert "1. Who exposed a card? → LHO" in history and "2. Was it an honour? → Yes, an honour" in history
    assert "stays face up" in await chat.handle("back")
    reopened = await chat.handle("change 1")
    assert "Changing answer 1" in reopened and "Who exposed a card?" in reopened
    assert "right-hand opponent" in await chat.handle("2")
    assert "Who exposed a card?" in await chat.handle("restart")


@pytest.mark.slow
async def test_bad_input_gets_a_clear_answer(chat: TerminalChat) -> None:
    assert "No chart is open" in await chat.handle("1")
    assert "There is no chart 'nope'" in await chat.handle("chart nope")
    await chat.handle("chart demo-main")
    assert "Choose a number from 1 to 2" in await chat.handle("7")
    assert "There is no answer 5" in await chat.handle("change 5")
    assert "nothing to undo" in await chat.handle("back")
    assert "Describe what happened at the table" in await chat.handle("\x00\x1b[2J 🙂")
    assert await chat.handle("   ") == ""


@pytest.mark.slow
async def test_a_description_offers_situations_and_a_number_starts_one(chat: TerminalChat) -> None:
    reply = await chat.handle("what do I do with a major penalty card")
    assert reply.startswith("Which situation is it?")
    assert "1. Demo of every node kind — Law 50 (likely)" in reply and reply.endswith(". None of these")
    assert "Who exposed a card?" in await chat.handle("1")


@pytest.mark.slow
async def test_a_situation_without_a_chart_shows_its_law(chat: TerminalChat) -> None:
    reply = await chat.handle("the score is wrong")
    assert "1. Law 79 — Tricks Won (" in reply
    assert (await chat.handle("1")).startswith("Law 79 — Tricks Won")


async def test_chatter_starts_nothing_and_a_bare_number_answers_nothing(chat: TerminalChat, store: Store) -> None:
    for line in ("thanks", "ok!", "hello"):
        assert (await chat.handle(line)).startswith("Describe what happened at the table"), line
    assert "No chart is open" in await chat.handle("1")
    assert await store.sessions("terminal:tester", ("open", "parked", "finished")) == []


async def test_vague_words_are_narrowed_down_by_questions(chat: TerminalChat) -> None:
    first = await chat.handle("something weird happened")
    assert first.startswith("When did it happen?") and "3. Play" in first
    assert (await chat.handle("3")).startswith("What happened in the play?")
    assert "Choose a number from 1 to" in await chat.handle("42")


async def test_none_of_these_asks_when_it_happened(chat: TerminalChat) -> None:
    reply = await chat.handle("what do I do with a major penalty card")
    last = reply.splitlines()[-1].split(".")[0].strip()
    assert (await chat.handle(last)).startswith("When did it happen?")


@pytest.mark.slow
async def test_references_in_a_description_go_straight_to_the_law(chat: TerminalChat) -> None:
    assert (await chat.handle("L27B")).startswith("Law 27 — Insufficient Bid › B.")
    reply = await chat.handle("law 120")
    assert "There is no" in reply


@pytest.mark.slow
async def test_parked_sessions_are_listed_and_resumed(chat: TerminalChat) -> None:
    await chat.handle("chart demo-main")
    for key in ("1", "1", "2"):
        reply = await chat.handle(key)
    assert "PARKED — Play continues" in reply
    assert "When you are called back: Was the non-offending side damaged?" in reply and reply.endswith("2. No")
    listing = await chat.handle("parked")
    assert "Demo of every node kind — parked" in listing
    number = listing.split("\n")[1].split()[0]
    assert "Was the non-offending side damaged?" in await chat.handle(f"resume {number}")
    assert "No sessions waiting" in await chat.handle("parked")


def _start(db: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "BOT_DB": str(db), "BOT_DIALOGS": str(FIXTURES / "dialogs"), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    )


def _say(process: subprocess.Popen[str], line: str, expect: str, timeout: float = 20) -> str:
    """Type a line and read until the expected text appears (bounded in time)."""
    assert process.stdin and process.stdout
    process.stdin.write(line + "\n")
    process.stdin.flush()
    seen = b""
    deadline = time.monotonic() + timeout
    descriptor = process.stdout.fileno()
    while expect.encode() not in seen:
        assert time.monotonic() < deadline, f"no {expect!r} in {seen!r}"
        ready, _, _ = select.select([descriptor], [], [], 0.1)
        if ready:
            chunk = os.read(descriptor, 65536)
            assert chunk, f"the bot exited; it printed {seen!r}"
            seen += chunk
    return seen.decode()


@pytest.mark.slow
def test_kill_minus_nine_mid_dialogue_loses_no_answer(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    first = _start(db)
    try:
        _say(first, "chart demo-main", "Who exposed a card?", timeout=90)  # the first reply builds the matcher
        _say(first, "2", "Was it an honour?")
        _say(first, "1", "Was another card exposed?")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    second = _start(db)
    try:
        listing = _say(second, "resume", "answer(s)", timeout=90)
        assert "Demo of every node kind — open, 2 answer(s)" in listing
        number = listing.split("type 'resume N':")[1].split()[0]
        shown = _say(second, f"resume {number}", "Was another card exposed?")
        assert "answer 3]" in shown
        _say(second, "history", "1. Who exposed a card? → RHO")
        _say(second, "quit", "Goodbye")
        assert second.wait(timeout=10) == 0
    finally:
        if second.poll() is None:
            second.kill()
    import sqlite3

    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_a_club_directors_terminal_ruling_is_filed_under_the_club(chat: TerminalChat, store: Store) -> None:
    club = await store.create_club("Riverside", "WBF", "tg:1")
    await store.set_role(club, "terminal:tester", "director")
    await chat.handle("chart demo-main")
    assert chat.screen is not None
    session = await store.session(chat.screen.session_id)
    assert session is not None and session.club_id == club  # the same service call as on Telegram


async def _finish(chat: TerminalChat) -> int:
    """Walk the demo chart to a ruling; its number."""
    await chat.handle("chart demo-main")
    await chat.handle("2")  # RHO; the note passes with the next question
    assert (await chat.handle("2")).startswith("RULING")  # a small card: a minor penalty card
    assert chat.screen is not None
    return chat.screen.session_id


async def test_the_record_commands_complete_a_ruling_and_its_export(chat: TerminalChat, store: Store) -> None:
    sid = await _finish(chat)
    assert await chat.handle("board 12") == f"Ruling {sid}: board 12."
    await chat.handle("table 4")
    await chat.handle("offender s")
    await chat.handle("side ew")
    assert await chat.handle("event Tuesday pairs") == (
        f"Ruling {sid}: event Tuesday pairs · board 12 · table 4 · offender S · non-offending side EW."
    )
    assert await chat.handle("note Both sides agree the card was seen.") == f"Note saved on ruling {sid}."
    listing = await chat.handle("rulings")
    assert f"{sid}  Demo of every node kind — " in listing and "board 12 · table 4" in listing
    assert "Appeal lodged on ruling" in await chat.handle(f"appeal {sid} The card was not seen by partner.")
    again = await chat.handle(f"ruling {sid}")
    assert again.startswith("RULING — Demo of every node kind") and "Details: event Tuesday pairs" in again
    # read first, before the ruling: who the roles it names are at this table
    seats = "South is the offender: North is the offender's partner, West the left-hand opponent (LHO)"
    assert again.splitlines()[2].startswith(seats) and again.index(seats) < again.index("» The card of")

    # what 'python3 -m bot export RULING' prints: the same record, every detail filled in
    text = export(load_lawbook(), await Rulings(store, chat.dialogs).record(sid), "text")
    for line in (
        "Event: Tuesday pairs",
        "Board: 12",
        "Table: 4",
        "Offender: S",
        "Non-offending side: EW",
        "  > Both sides agree the card was seen.",
        "  > The card was not seen by partner.",
    ):
        assert line in text.splitlines(), line
    blank = [line for line in text.splitlines() if line.endswith(": —")]
    assert blank == ["Club: —"]  # filed under no club; nothing else left blank


async def test_the_record_commands_refuse_bad_details_in_one_line(chat: TerminalChat, store: Store) -> None:
    assert "No chart is open" in await chat.handle("board 12")
    assert "No rulings yet" in await chat.handle("rulings")
    sid = await _finish(chat)
    assert await chat.handle("board 0") == "The board is a number from 1 to 999."
    assert await chat.handle("offender X") == "The offender's seat is N, E, S or W."
    assert await chat.handle("side N") == "The non-offending side is NS or EW."
    assert "for example: board 12" in await chat.handle("board")
    assert "Use: appeal RULING REASON" in await chat.handle("appeal soon")
    assert "Give the reason" in await chat.handle(f"appeal {sid} no")
    assert "There is no session 999" in await chat.handle("appeal 999 it was wrong")
    assert "Which ruling?" in await chat.handle("ruling x")
    await chat.handle("chart demo-main")
    assert chat.screen is not None
    assert "is not finished yet: type 'resume" in await chat.handle(f"ruling {chat.screen.session_id}")
    record = await Rulings(store, chat.dialogs).record(sid)
    assert record.annotations == {} and record.appeals == ()  # nothing refused was recorded


async def test_a_description_that_starts_with_a_command_word_is_described(chat: TerminalChat) -> None:
    """ "Board 10, North dealt …" was read as the board command and answered "No chart is open": a line that goes
    on past a short argument is an incident, whatever its first word."""
    for line in ("Board 10, North dealt and East bid before him. Ruling?", "Table 5: East dropped the SK"):
        reply = await chat.handle(line)
        assert "No chart is open" not in reply and "board number" not in reply, reply
    assert "No chart is open" in await chat.handle("board 12")
    # the seventh walk: "Club pairs, …" was the club command; "Deal 12, …" and "Poll …" the deal and poll commands
    for line in (
        "Club pairs, board 5: East led before the auction had ended. Ruling?",
        "Deal 12, North dealer, East passed before North had called.",
        "Poll of the other tables says everyone bid game.",
        "Appeal committee changed our score last week, can they do that?",
    ):
        reply = await chat.handle(line)
        assert not reply.startswith("Use:") and "A deal is four hands" not in reply, reply
    assert (await chat.handle("club pairs")).startswith("Use: club")  # two words: still the command, with its help
    assert "A deal is four hands" in await chat.handle("deal N:AKQ2.J98")
    assert (await chat.handle("appeal x")).startswith("Use: appeal")


@pytest.mark.slow
async def test_another_directors_ruling_cannot_be_changed_or_appealed_from_here(
    chat: TerminalChat, store: Store
) -> None:
    other = TerminalChat(chat.dialogs, chat.book, "terminal:other", build_matcher([]), replies=chat.replies)
    sid = await _finish(other)
    assert f"There is no session {sid} of yours" in await chat.handle(f"ruling {sid}")
    assert "Only players who were given this ruling" in await chat.handle(f"appeal {sid} it was wrong")
    assert "No rulings yet" in await chat.handle("rulings")


async def test_a_ruling_whose_chart_was_removed_is_still_listed(
    chat: TerminalChat, store: Store, demo_charts: dict[str, Chart]
) -> None:
    sid = await _finish(chat)
    await chat.handle("board 3")
    others = {k: v for k, v in demo_charts.items() if k != "demo-main"}
    later = TerminalChat(Dialogs(store, others), chat.book, chat.owner, build_matcher([]), replies=chat.replies)
    assert f"{sid}  demo-main — " in await later.handle("rulings")
    assert "which no longer exists" in await later.handle(f"ruling {sid}")


TWO_THINGS = (
    "The opening bid was insufficient and was not accepted. Later on declarer claimed but a trump was still out."
)


def _real_chat(store: Store) -> TerminalChat:
    charts = load_charts()
    entries = [ChartEntry(c.id, c.title, c.laws, c.keywords) for c in charts.values()]
    return TerminalChat(Dialogs(store, charts), load_lawbook(), "terminal:tester", build_matcher(entries))


async def _rule(chat: TerminalChat, screen: str) -> str:
    """Answer 1 to every question until the ruling."""
    for _ in range(12):
        if screen.startswith("RULING"):
            return screen
        screen = await chat.handle("1")
    raise AssertionError(screen)


async def test_the_second_of_a_storys_two_incidents_is_offered_after_the_first_ruling(tmp_path: Path) -> None:
    """Walk 17 (7b): after the first of "two things" was ruled the terminal returned to a bare prompt and the
    director had to type the story again. The ruling now offers the other incident as choice 1, also after a
    restart of the bot, with the same story; once it is started it is offered no more."""
    store = await Store.open(tmp_path / "bot.sqlite3")
    chat = _real_chat(store)
    assert "Two things happened here" in await chat.handle(TWO_THINGS)
    ruling = await _rule(chat, await chat.handle("1"))  # the claim first
    assert ruling.startswith("RULING — Claim") and ruling.endswith(
        "\n\n  1. Now the second thing: Insufficient bid — Law 27"
    )
    assert (await chat.handle("change 4")).startswith("Changing answer 4")
    assert (await chat.handle("1")).endswith("1. Now the second thing: Insufficient bid — Law 27")  # changed: kept
    await store.close()

    store = await Store.open(tmp_path / "bot.sqlite3")  # the bot restarted between the two rulings
    chat = _real_chat(store)
    assert (await chat.handle("ruling 1")).count("Now the second thing: Insufficient bid") == 1
    second = await chat.handle("1")
    assert second.startswith("[Insufficient bid · session 2")
    record = await chat.rulings.record(2)
    assert record.description == TWO_THINGS  # the same story: what it says is answered from it, as usual
    assert "second thing" not in await chat.handle("ruling 1")
    assert (await chat.handle("1")).startswith("This ruling is complete")  # nothing more: nothing started
    assert [s.id for s in await chat.dialogs.sessions("terminal:tester", (Status.OPEN,))] == [2]
    assert "second thing" not in await _rule(chat, await chat.handle("resume 2"))  # the second offers nothing
    await store.close()


async def test_a_ruling_on_a_story_of_one_incident_offers_nothing_after_it(store: Store) -> None:
    chat = _real_chat(store)
    await chat.handle("mode director")
    assert (await chat.handle("LHO led out of turn")).startswith("Which situation is it?")
    ruling = await _rule(chat, await chat.handle("1"))
    assert "second thing" not in ruling and ruling.rstrip().splitlines()[-1].startswith("  ")
    assert (await chat.handle("1")).startswith("This ruling is complete")


async def test_the_second_incident_picked_from_the_story_again_is_not_offered_twice(store: Store) -> None:
    """A director who types the story again (or, on Telegram, scrolls up to its situations) and picks the other
    incident has started it: the first ruling offers it no more, and the second does not offer the first back."""
    chat = _real_chat(store)
    await chat.handle(TWO_THINGS)
    assert "Now the second thing" in await _rule(chat, await chat.handle("1"))
    assert "Two things happened here" in await chat.handle(TWO_THINGS)
    assert "second thing" not in await _rule(chat, await chat.handle("2"))  # the insufficient bid, ruled
    assert "second thing" not in await chat.handle("ruling 1")
