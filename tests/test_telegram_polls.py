"""Polling players on Telegram, end to end through the fake Bot API: the button at the logical-alternative
question, the three prompts, the anonymous poll in the club's panel chat, votes as ``poll`` updates across a
restart, the close by vote count, the result at the question and in the record; other people's presses refused."""

from __future__ import annotations

import pytest
from fake_telegram import FakeBotAPI, Table, start_bot
from test_polls import at_the_question

from bot.dialogs import Dialogs, load_charts
from bot.rulings import Rulings
from bot.store import Store
from bot.telegram.callbacks import Resume

CHARTS = load_charts()


@pytest.mark.slow
async def test_a_poll_of_players_from_the_button_to_the_record(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, CHARTS, api)
    director = Table(app, api, user_id=1, chat_id=1)
    panel = Table(app, api, user_id=1, chat_id=-500)
    assert "Club 1 created" in director.texts(await director.send("/club new Riverside"))
    assert "updated" in panel.texts(await panel.send("/club 1 panel here"))
    dialogs = Dialogs(store, CHARTS)
    sid = (await at_the_question(dialogs)).session_id
    await Rulings(store, dialogs).attach_club("tg:1", sid, 1)
    await director.press_data(Resume(sid).encode())
    calls = await director.press("Poll players")
    assert "Poll 1 for ruling" in director.texts(calls) and "step 1 of 3 (hand)" in director.texts(calls)
    calls = await director.send("♠KQ8765 ♥3 ♦A92 ♣K54", reply_to_bot=True)
    assert "step 2 of 3 (auction)" in director.texts(calls)
    calls = await director.send("1♠ (2♥) 2♠ (3♥) ?", reply_to_bot=True)
    assert "step 3 of 3 (calls)" in director.texts(calls)
    assert "2 to 10 different calls" in director.texts(await director.send("Pass", reply_to_bot=True))
    calls = await director.send("Pass, 3♠, 4♠", reply_to_bot=True)
    posted = next(c for c in calls if c.method == "sendPoll")
    assert int(posted.params["chat_id"]) == -500 and str(posted.params["is_anonymous"]) == "true"
    assert int(posted.params["open_period"]) == 600
    question = str(posted.params["question"])
    assert question == "You hold ♠KQ8765 ♥3 ♦A92 ♣K54. The auction: 1♠ (2♥) 2♠ (3♥) ?. What would you do?"
    assert "Poll 1 is in the club's panel" in director.texts(calls)
    poll_id = next(iter(api.polls))

    stranger = Table(app, api, user_id=2, chat_id=1)
    message = director.last_message(with_button="Close now")
    for label in ("Close now", "Results so far"):
        calls = await stranger.press(label, message=message)
        assert stranger.alerts(calls) and "closed" not in stranger.alerts(calls)[0]
        assert not [c for c in calls if c.method == "stopPoll"]
    assert not [c for c in await director.poll_update(api.vote(poll_id, [3, 1, 0])) if c.method == "stopPoll"]
    read = director.alerts(await director.press("Results so far", message=message))
    assert read[0].startswith("3 of 4 would choose Pass")
    await app.shutdown()  # a restart between votes: the poll's state is in the store
    app = await start_bot(store, CHARTS, api)
    director = Table(app, api, user_id=1, chat_id=1)
    calls = await director.poll_update(api.vote(poll_id, [6, 3, 0]))
    assert [int(c.params["message_id"]) for c in calls if c.method == "stopPoll"] == [posted_message(api, poll_id)]
    closed = director.texts(calls)
    assert "Poll 1 for ruling" in closed and "closed: 6 of 9 would choose Pass, 3 of 9 would choose 3♠" in closed
    assert not [c for c in await director.poll_update(api.vote(poll_id, [7, 3, 0])) if c.method == "sendMessage"]

    calls = await director.press_data(Resume(sid).encode())
    assert "📊 <b>Poll:</b> 6 of 9 would choose Pass" in director.texts(calls)
    recorded = [e for e in await store.events(sid) if e.kind == "poll"]
    assert len(recorded) == 1 and recorded[0].data["counts"] == [6, 3, 0] and recorded[0].data["question"] == question
    await app.shutdown()


def posted_message(api: FakeBotAPI, poll_id: str) -> int:
    return int(api.polls[poll_id]["_at"][1])


@pytest.mark.slow
async def test_a_poll_telegram_closed_at_its_time_is_recorded_and_an_unreachable_panel_says_so(store: Store) -> None:
    api = FakeBotAPI()
    app = await start_bot(store, CHARTS, api)
    director = Table(app, api, user_id=1, chat_id=1)
    dialogs = Dialogs(store, CHARTS)
    sid = (await at_the_question(dialogs)).session_id
    await director.send("/resume")
    await director.press_data(Resume(sid).encode())
    await director.press("Poll players")
    for text in ("♠AK ♥2", "1NT (2♠) ?"):
        await director.send(text, reply_to_bot=True)
    api.fail("sendPoll", status=400, description="Bad Request: chat not found")
    calls = await director.send("Pass, Double", reply_to_bot=True)
    assert "I cannot post poll 1" in director.texts(calls) and not api.polls
    await director.press_data(Resume(sid).encode())
    await director.press("Poll players")
    for text in ("♠AK ♥2", "1NT (2♠) ?", "Pass, Double"):
        calls = await director.send(text, reply_to_bot=True)
    assert "Poll 2 is in this chat" in director.texts(calls)  # no club, no panel: the director's own chat
    poll_id = next(iter(api.polls))
    calls = await director.poll_update(api.vote(poll_id, [2, 1], closed=True))  # Telegram closed it at its time
    assert not [c for c in calls if c.method == "stopPoll"]
    assert "closed: 2 of 3 would choose Pass, 1 of 3 would choose Double" in director.texts(calls)

    await director.press_data(Resume(sid).encode())
    await director.press("Poll players")
    for text in ("♠AK ♥2", "1NT (2♠) ?", "Pass, Double"):
        await director.send(text, reply_to_bot=True)
    api.vote(f"poll{max(int(p[4:]) for p in api.polls)}", [1, 0])  # a vote the bot has not been told of yet
    calls = await director.press("Close now")
    assert [c.method for c in calls if c.method == "stopPoll"] == ["stopPoll"]
    assert director.alerts(calls) == ["Poll closed."] and "Poll 3 closed: 1 of 1 would choose Pass" in director.texts(
        calls
    )
    await app.shutdown()


@pytest.mark.slow
async def test_a_poll_goes_privately_to_the_clubs_panel_and_follows_its_ruling_when_handed_over(store: Store) -> None:
    """Members with the role panel (invited, and counting once they accept) each get the poll in a private chat;
    one who never started the bot is named in one line; the counts of every chat are summed; after /handover the
    new director closes it and reads the result, and the old one no longer can."""
    api = FakeBotAPI()
    app = await start_bot(store, CHARTS, api)
    director = Table(app, api, user_id=1, chat_id=1)
    assert "Club 1 created" in director.texts(await director.send("/club new Riverside"))
    for member in (3, 4, 5):
        await director.send(f"/club 1 grant {member} panel")
    for member, chat in ((3, 3), (4, 4), (5, -600)):  # 5 accepts in a group and never starts a private chat
        player = Table(app, api, user_id=member, chat_id=chat)
        assert "You are now panel of club 1" in player.texts(await player.send("/club 1 accept"))
    api.unreachable.add(5)
    dialogs = Dialogs(store, CHARTS)
    sid = (await at_the_question(dialogs)).session_id
    await Rulings(store, dialogs).attach_club("tg:1", sid, 1)
    await director.press_data(Resume(sid).encode())
    await director.press("Poll players")
    for text in ("♠KQ8765 ♥3 ♦A92 ♣K54", "1♠ (2♥) 2♠ (3♥) ?", "Pass, 3♠"):
        calls = await director.send(text, reply_to_bot=True)
    assert sorted(int(c.params["chat_id"]) for c in calls if c.method == "sendPoll") == [3, 4, 5]
    told = director.texts(calls)
    assert "Poll 1 is in 2 panel members' private chats" in told
    assert "Not reached (they have not started a chat with me): tg:5." in told and len(api.polls) == 2
    first, second = api.polls
    await director.poll_update(api.vote(first, [1, 1]))
    await director.poll_update(api.vote(second, [2, 0]))
    message = director.last_message(with_button="Close now")

    calls = await director.send(f"/handover {sid} 7")
    heir = Table(app, api, user_id=7, chat_id=7)
    assert director.alerts(await director.press("Results so far", message=message)) != []
    assert "3 of 4" not in " ".join(director.alerts(await director.press("Results so far", message=message)))
    assert heir.alerts(await heir.press("Results so far", message=message))[0].startswith("3 of 4 would choose Pass")
    calls = await heir.poll_update(api.vote(second, [2, 0], closed=True))  # Telegram closed one post at its time
    assert [int(c.params["chat_id"]) for c in calls if c.method == "stopPoll"] == [3]  # the other is stopped
    result = [c for c in calls if c.method == "sendMessage"]
    assert [int(c.params["chat_id"]) for c in result] == [7]  # told to the director who has the ruling now
    assert "closed: 3 of 4 would choose Pass, 1 of 4 would choose 3♠" in director.texts(result)
    recorded = [e for e in await store.events(sid) if e.kind == "poll"]
    assert len(recorded) == 1 and recorded[0].data["counts"] == [3, 1]
    await app.shutdown()
