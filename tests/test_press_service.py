"""A press replays nothing: the service keeps each recent session's walk, and a kept walk is used only for the
very log it was made from."""

from __future__ import annotations

import pytest

from bot.dialogs import Dialogs, Stale
from bot.dialogs.engine import Engine, Step
from bot.store import Position, Store


@pytest.fixture
def replays(dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the engine walked a chart from its start."""
    count = [0]
    walk = Engine.walk

    def counted(self: Engine, *args: object, **kwargs: object) -> object:
        count[0] += 1
        return walk(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Engine, "walk", counted)
    return count


async def test_answers_in_a_row_replay_the_log_once(dialogs: Dialogs, replays: list[int]) -> None:
    screen = await dialogs.start("alice", "demo-main")
    for step, option in enumerate(["lho", "honour", "continue"]):
        screen = await dialogs.answer("alice", screen.session_id, step, option)
    assert replays[0] == 1  # the first press read the log; the others moved the kept walk on
    assert [a.answer for a in screen.path] == ["LHO", "Yes, an honour", "No — continue"]
    again = await dialogs.screen("alice", screen.session_id)
    assert (again.node_id, again.step, again.path) == (screen.node_id, screen.step, screen.path)


async def test_a_refused_press_leaves_the_kept_walk_as_it_was(dialogs: Dialogs, store: Store) -> None:
    screen = await dialogs.start("alice", "demo-main")
    await dialogs.answer("alice", screen.session_id, 0, "lho")
    for step, option in ((0, "rho"), (1, "no-such-option"), (1, 7)):
        with pytest.raises(Stale):
            await dialogs.answer("alice", screen.session_id, step, option)
    moved = await dialogs.answer("alice", screen.session_id, 1, "honour")
    assert [a.answer for a in moved.path] == ["LHO", "Yes, an honour"] and moved.node_id == "another"
    assert [e.kind for e in await store.events(screen.session_id)] == ["start", "answer", "answer"]


async def test_a_note_or_another_writer_makes_the_next_press_read_the_log(
    dialogs: Dialogs, store: Store, replays: list[int]
) -> None:
    screen = await dialogs.start("alice", "demo-main")
    await dialogs.answer("alice", screen.session_id, 0, "rho")
    await dialogs.note(screen.session_id, "annotate", {"note": "board 7"})
    await store.append(screen.session_id, 3, [("back", {})], Position("open", 0, "demo-main/who"))
    replays[0] = 0
    now = await dialogs.screen("alice", screen.session_id)
    assert replays[0] == 1 and now.step == 0 and now.node_id == "who"  # the Back stored elsewhere counts


async def test_a_reused_session_id_never_gets_the_old_walk(dialogs: Dialogs, store: Store) -> None:
    first = await dialogs.start("alice", "demo-main")
    await dialogs.screen("alice", first.session_id)  # alice's walk is kept
    await store.forget("alice")
    second = await dialogs.start("bob", "demo-sub")
    assert second.session_id == first.session_id  # SQLite gives the freed id out again
    shown = await dialogs.screen("bob", second.session_id)
    assert (shown.chart_id, shown.node_id) == ("demo-sub", second.node_id)


def test_a_copied_walk_moves_on_alone(engine: Engine) -> None:
    walk = engine.walk("demo-main", [])
    copy = walk.copy()
    engine.take(copy, Step("demo-main", "who", "lho"))
    assert (walk.node.id, walk.steps, walk.answered, walk.notes, walk.frames[-1].values) == ("who", [], [], [], {})
    assert copy.node.id == "card" and copy.frames[-1].values == {"offender": "lho"} and copy.notes


async def test_a_parks_message_answers_the_question_resuming_leads_to(dialogs: Dialogs, store: Store) -> None:
    """Called back at the end of the hand, the director answers the waiting question from the park's own
    message: one tap, and the record still shows the session parked, then resumed, then answered."""
    screen = await dialogs.start("alice", "demo-main")
    for step, option in enumerate(["lho", "honour", "continue"]):
        screen = await dialogs.answer("alice", screen.session_id, step, option)
    assert screen.kind == "park" and screen.after is not None
    assert screen.after.text == "Was the non-offending side damaged?"
    assert [c.id for c in screen.options] == ["yes", "no"] and screen.question == screen.after.question
    with pytest.raises(Stale):  # a button of an earlier step is refused, nothing stored
        await dialogs.answer("alice", screen.session_id, screen.step - 1, 1, question=screen.question)
    done = await dialogs.answer("alice", screen.session_id, screen.step, 1, question=screen.question)
    assert done.finished and done.path[-1].answer == "No"
    kinds = [e.kind for e in await store.events(screen.session_id)]
    assert kinds[-4:] == ["park", "resume", "answer", "ruling"]


async def test_resuming_a_parked_session_still_shows_its_question(dialogs: Dialogs) -> None:
    screen = await dialogs.start("alice", "demo-main")
    for step, option in enumerate(["lho", "honour", "continue"]):
        screen = await dialogs.answer("alice", screen.session_id, step, option)
    resumed = await dialogs.resume("alice", screen.session_id)
    assert resumed.kind == "question" and resumed.text == "Was the non-offending side damaged?"
    assert resumed.after is None
