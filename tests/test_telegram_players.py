"""Telegram end to end for players: a question's summary and its three buttons, /define, /settings."""

from __future__ import annotations

import pytest
from fake_telegram import FakeBotAPI, Table, start_bot

from bot.dialogs import load_charts
from bot.store import Store


def _buttons(message: dict) -> list[str]:  # type: ignore[type-arg]
    return [b["text"] for row in message.get("reply_markup", {}).get("inline_keyboard", []) for b in row]


@pytest.mark.slow
async def test_a_question_gets_the_summary_and_its_buttons(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    calls = await table.send("what's the penalty for a revoke?")
    (reply,) = [c for c in calls if c.method == "sendMessage"]
    assert "in plain words" in reply.params["text"] and "(Law 6" in reply.params["text"]
    summary = table.last_message()
    assert _buttons(summary) == ["Walk me through it", "Show the law (Law 64)", "Related"]  # the penalty is in 64

    law = await table.press("Show the law", summary)
    assert "Law 6" in table.texts(law)
    walked = await table.press("Walk me through it", summary)
    question = [c for c in walked if c.method == "sendMessage"]
    assert question and question[0].params["reply_markup"]["inline_keyboard"]
    related = await table.press("Related", summary)
    assert "Related to" in table.texts(related)
    other = await table.press_data(table.last_message()["reply_markup"]["inline_keyboard"][0][0]["callback_data"])
    assert "in plain words" in table.texts(other)
    await app.shutdown()


@pytest.mark.slow
async def test_an_incident_still_starts_with_the_situations(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    calls = await Table(app, api).send("dummy pointed out a revoke")
    assert "Which situation is it?" in Table(app, api).texts(calls)
    await app.shutdown()


@pytest.mark.slow
async def test_a_story_told_at_length_offers_its_other_situations_as_buttons(store: Store) -> None:
    """A casebook entry is answered first; an "Or:" button under the answer starts that situation's chart."""
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    await table.send(
        "Board 16. In mid-play, with declarer on lead, West's ♥Q slipped from his hand and landed face up on the"
        " table. Declarer led a club to dummy's ace and then a club back, which East won. Before East led,"
        " declarer asked the Director what choices he had."
    )
    answer = table.last_message()
    also = [label for label in _buttons(answer) if label.startswith("Or: ")]
    assert "in plain words" in answer["text"] and also and "Law 49" in " ".join(also)
    started = await table.press(also[0], answer)
    question = [c for c in started if c.method == "sendMessage"]
    assert question and question[0].params["reply_markup"]["inline_keyboard"]  # the chart's first question
    await app.shutdown()


async def test_define_quotes_the_definition_and_offers_the_laws(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    calls = await table.send("/define penalty card")
    assert "A card subject to disposition under Law 50." in table.texts(calls)
    assert "Law 50 — Disposition of Penalty Card" in _buttons(table.last_message())
    shown = await table.press("Law 50")
    assert "Penalty Card Remains Exposed" in table.texts(shown)
    assert "Did you mean" in table.texts(await table.send("/define penalty crd card"))
    assert "no entry" in table.texts(await table.send("/define xyzzy"))
    assert "Which term?" in table.texts(await table.send("/define"))
    await app.shutdown()


@pytest.mark.slow
async def test_settings_change_what_a_question_gets_and_survive_a_restart(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    await table.send("/settings")
    pressed = await table.press("Director: always the chart first")
    assert any("Saved" in alert for alert in table.alerts(pressed))
    assert "✅ Director: always the chart first" in _buttons(table.last_message())
    await app.shutdown()

    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    calls = await table.send("what's the penalty for a revoke?")
    assert "Which situation is it?" in table.texts(calls)
    await app.shutdown()


@pytest.mark.slow
async def test_forged_player_buttons_change_nothing(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, load_charts(), api)
    table = Table(app, api)
    await table.send("/help")
    for data in ("o:t:c:no-such-chart", "o:t:l:120", "o:r:l:0", "g:root", "g:", "o:t:", "o:r:c:../../etc"):
        calls = await table.press_data(data)
        assert not [c for c in calls if c.method == "sendMessage"], data
        assert table.alerts(calls), data
    assert await store.setting("tg:1", "answers") is None
    await app.shutdown()
