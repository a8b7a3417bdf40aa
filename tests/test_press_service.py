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
