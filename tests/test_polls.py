"""Polling players for a logical alternative (Law 16B1): drafted by the ruling's director at the question,
asked neutrally, closed by votes or time or the director, recorded with the ruling and shown at the question."""

from __future__ import annotations

import pytest

from bot.dialogs import Dialogs, NotFound, Screen, load_charts
from bot.dialogs.paths import enumerate_paths
from bot.laws import load_lawbook
from bot.matching import build_matcher, chart_entries
from bot.rulings import RulingError, Rulings
from bot.rulings.export import export
from bot.rulings.polls import PollError, Polls, next_step, poll_question, result_line
from bot.store import Store
from bot.terminal import TerminalChat

CHARTS = load_charts()
CHART, NODE = "unauthorised-information", "logical-alternative"


async def at_the_question(dialogs: Dialogs, owner: str = "tg:1") -> Screen:
    """A ruling of ``owner`` standing at the logical-alternative question."""
    steps = next(
        list(path.steps[:index])
        for path in enumerate_paths(CHARTS, CHART)
        for index, step in enumerate(path.steps)
        if step.node == NODE
    )
    screen = await dialogs.start(owner, CHART)
    for step in steps:
        screen = await dialogs.answer(owner, screen.session_id, screen.step, step.option)
    assert screen.where == f"{CHART}/{NODE}" and screen.poll == "What would you do?"
    return screen


def test_the_result_names_the_calls_that_reach_the_clubs_share() -> None:
    assert result_line(("Pass", "4♠"), (6, 3), 20) == (
        "6 of 9 would choose Pass, 3 of 9 would choose 4♠: Pass and 4♠ may each be a logical alternative"
        " (chosen by at least 20%); the decision is yours."
    )
    assert result_line(("Pass", "4♠", "Double"), (8, 1, 0), 20).startswith(
        "8 of 9 would choose Pass, 1 of 9 would choose 4♠: Pass is a possible logical alternative"
    )
    assert result_line(("Pass", "4♠"), (0, 0), 20).startswith("Nobody voted")


async def test_a_poll_is_drafted_asked_neutrally_closed_and_recorded(store: Store) -> None:
    dialogs = Dialogs(store, CHARTS)
    polls = Polls(store, dialogs)
    screen = await at_the_question(dialogs)
    poll = await polls.draft("tg:1", screen.session_id)
    assert next_step(poll) == "hand" and poll.max_votes == 9 and poll.minutes == 10
    with pytest.raises(PollError, match="2 to 10 different calls"):
        await polls.fill("tg:1", poll.id, "calls", "Pass")
    await polls.fill("tg:1", poll.id, "hand", "♠KQ8765 ♥3 ♦A92 ♣K54")
    await polls.fill("tg:1", poll.id, "auction", "1♠ (2♥) 2♠ (3♥) ?")
    poll = await polls.fill("tg:1", poll.id, "calls", "Pass, 3♠, 4♠, Pass")
    assert poll.calls == ("Pass", "3♠", "4♠") and next_step(poll) is None
    question = poll_question(poll, polls.ending(poll))
    assert question == "You hold ♠KQ8765 ♥3 ♦A92 ♣K54. The auction: 1♠ (2♥) 2♠ (3♥) ?. What would you do?"
    assert "hesitat" not in question.lower() and "unauthori" not in question.lower()
    poll = await polls.opened("tg:1", poll.id, "terminal")
    with pytest.raises(NotFound):
        await polls.close("tg:2", poll.id, [1, 1, 1])  # someone else's ruling: neither closed nor read
    with pytest.raises(NotFound):
        await polls.read("tg:2", poll.id)
    assert not polls.due(poll) and polls.due(poll, now=(poll.opened or 0) + 601)
    poll, said = await polls.close("tg:1", poll.id, [6, 3, 0])
    assert said.startswith("6 of 9 would choose Pass, 3 of 9 would choose 3♠") and poll.closed
    again = await Dialogs(store, CHARTS).screen("tg:1", screen.session_id)  # a new process reads the log
    assert again.polled == (said,)
    recorded = (await store.events(screen.session_id))[-1]
    assert recorded.kind == "poll" and recorded.data["options"] == ["Pass", "3♠", "4♠"]
    assert recorded.data["counts"] == [6, 3, 0] and recorded.data["question"] == question
    with pytest.raises(PollError, match="closed already"):
        await polls.close("tg:1", poll.id, [1, 1, 1])
    record = await Rulings(store, dialogs).record(screen.session_id)
    assert [(p.options, p.counts, p.said) for p in record.polls] == [(("Pass", "3♠", "4♠"), (6, 3, 0), said)]
    for fmt in ("text", "markdown", "html"):
        exported = export(load_lawbook(), record, fmt)
        assert "Poll of players" in exported and "Pass 6 · 3♠ 3 · 4♠ 0" in exported and "KQ8765" in exported


async def test_players_are_polled_only_where_the_chart_says(store: Store) -> None:
    dialogs = Dialogs(store, CHARTS)
    screen = await dialogs.start("tg:1", "appeal")
    with pytest.raises(PollError, match="logical alternative"):
        await Polls(store, dialogs).draft("tg:1", screen.session_id)
    with pytest.raises(NotFound):
        await Polls(store, dialogs).draft("tg:2", (await at_the_question(dialogs)).session_id)


async def test_a_clubs_poll_limits_and_share_apply(store: Store) -> None:
    dialogs = Dialogs(store, CHARTS)
    rulings = Rulings(store, dialogs)
    club_id = await rulings.create_club("tg:1", "Riverside")
    await rulings.set_club_setting("tg:1", club_id, "poll_votes", "5")
    await rulings.set_club_setting("tg:1", club_id, "poll_share", "50")
    screen = await at_the_question(dialogs)
    await rulings.attach_club("tg:1", screen.session_id, club_id)
    polls = Polls(store, dialogs)
    poll = await polls.draft("tg:1", screen.session_id)
    assert poll.max_votes == 5
    for step, text in (("hand", "♠AK ♥2"), ("auction", "1NT ?"), ("calls", "Pass, 2♣")):
        await polls.fill("tg:1", poll.id, step, text)
    await polls.opened("tg:1", poll.id, "terminal")
    _poll, said = await polls.close("tg:1", poll.id, [3, 2])
    assert ": Pass is a possible logical alternative (chosen by at least 50%)" in said


async def test_the_terminal_prints_the_question_and_takes_typed_counts(store: Store) -> None:
    dialogs = Dialogs(store, CHARTS)
    chat = TerminalChat(dialogs, load_lawbook(), "tg:1", build_matcher(chart_entries()))
    screen = await at_the_question(dialogs)
    shown = await chat.handle(f"resume {screen.session_id}")
    assert "type 'poll HAND | AUCTION | CALL, CALL' to poll players" in shown
    assert (
        await chat.handle("votes 1 2")
        == "No poll is open on this ruling: type 'poll HAND | AUCTION | CALL, CALL' first."
    )
    printed = await chat.handle("poll ♠AK ♥2 | 1NT (2♠) ? | Pass, Double, 3NT")
    assert "You hold ♠AK ♥2. The auction: 1NT (2♠) ?. What would you do?" in printed and "3. 3NT" in printed
    assert await chat.handle("votes 4 x 1") == "Type one whole number for each call, in order: votes 6 3"
    assert "one count for each of the 3 calls" in await chat.handle("votes 4 1")
    recorded = await chat.handle("votes 4 1 0")
    assert recorded.startswith("Poll recorded: 4 of 5 would choose Pass, 1 of 5 would choose Double")
    assert "Poll: 4 of 5 would choose Pass" in recorded  # the question again, with the result under it


async def test_the_panel_is_the_members_who_accepted_and_a_poll_follows_its_ruling(store: Store) -> None:
    """Only members who accepted the role panel are polled (never the director polling); the posts' counts are
    summed; after a handover the new director owns the poll and is told its result privately, the old one not."""
    dialogs = Dialogs(store, CHARTS)
    rulings, polls = Rulings(store, dialogs), Polls(store, dialogs)
    club_id = await rulings.create_club("tg:1", "Riverside")
    with pytest.raises(RulingError, match="A role is one of admin, director, committee, panel"):
        await rulings.grant("tg:1", club_id, "tg:3", "panellist")
    for member in ("tg:1", "tg:3", "tg:4", "tg:5"):
        await rulings.grant("tg:1", club_id, member, "panel")
    for member in ("tg:1", "tg:3", "tg:4"):  # tg:5 has not accepted: not on the panel yet
        await rulings.accept(member, club_id)
    sid = (await at_the_question(dialogs)).session_id
    await rulings.attach_club("tg:1", sid, club_id)
    poll = await polls.draft("tg:1", sid, "1")
    assert await polls.panel_members(poll) == ["tg:3", "tg:4"]
    for step, text in (("hand", "♠AK ♥2"), ("auction", "1NT (2♠) ?"), ("calls", "Pass, Double")):
        poll = await polls.fill("tg:1", poll.id, step, text)
    await polls.opened("tg:1", poll.id, "3", 10, "p3")
    await polls.posted("tg:1", poll.id, "4", 11, "p4")
    await polls.counted("p3", [2, 1])
    summed = await polls.counted("p4", [1, 0])
    assert summed is not None and summed.counts == (3, 1)
    assert await polls.told(summed) == "1"
    await rulings.hand_over("tg:1", sid, "tg:7")
    with pytest.raises(NotFound):
        await polls.read("tg:1", poll.id)
    _poll, said = await polls.read("tg:7", poll.id)
    assert said.startswith("3 of 4 would choose Pass") and await polls.told(summed) == "7"
    closed, _said = await polls.close("tg:7", poll.id)
    assert closed.closed is not None and closed.counts == (3, 1)
