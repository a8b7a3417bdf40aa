"""Several worker processes (BOT_WORKERS): each chat always handled by one worker, in order; the real
``python -m bot telegram`` process end to end against the Bot API stand-in, polling and webhook alike; a
stop loses no update in flight, and a worker or router that dies takes the others down with it, so the
service manager starts the bot again whole and no process is left behind."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from botapi_standin import BotAPIStandIn, buttons, press, private_chat, text_message
from hypothesis import given
from hypothesis import strategies as st
from processes import processes, stat_fields
from test_webhook import (
    HEADER,
    SECRET,
    bot_env,
    calls,
    free_port,
    listening,
    next_call,
    stop_with_updates_in_flight,
)

from bot.telegram.workers import shard


def message_in(chat: int, user: int) -> dict:
    return {"update_id": 1, "message": {"message_id": 1, "chat": {"id": chat}, "from": {"id": user}, "text": "x"}}


def press_in(chat: int, user: int) -> dict:
    return {"update_id": 2, "callback_query": {"id": "1", "from": {"id": user}, "message": {"chat": {"id": chat}}}}


@given(st.integers(-(10**13), 10**13), st.integers(1, 10**10), st.integers(1, 10**10), st.integers(1, 16))
def test_a_chat_always_goes_to_the_same_worker_whoever_writes_or_presses(
    chat: int, user: int, other: int, workers: int
) -> None:
    chosen = shard(message_in(chat, user), workers)
    assert 0 <= chosen < workers
    assert shard(message_in(chat, other), workers) == chosen
    assert shard(press_in(chat, other), workers) == chosen
    edited = {"update_id": 3, "edited_message": message_in(chat, user)["message"]}
    assert shard(edited, workers) == chosen


def test_an_update_without_a_chat_goes_by_its_sender_and_one_without_either_to_the_first() -> None:
    answer = {"update_id": 4, "poll_answer": {"poll_id": "p", "user": {"id": 7}, "option_ids": [0]}}
    assert shard(answer, 4) == 7 % 4
    assert shard({"update_id": 5}, 4) == 0
    assert shard({"update_id": 6, "something_new": {"field": 1}}, 4) == 0
    assert shard({"update_id": 7, "message": {"chat": "not a chat", "from": {"id": "x"}}}, 4) == 0


def processes_of(parent: int) -> list[int]:
    """The live child processes of ``parent``."""
    return [pid for pid, fields in processes() if fields[1] == str(parent) and fields[0] != "Z"]


async def gone(pids: list[int], timeout: float = 30) -> bool:
    """Whether every process in ``pids`` has ended within ``timeout`` seconds."""
    for _ in range(int(timeout * 20)):
        if not [pid for pid in pids if _alive(pid)]:
            return True
        await asyncio.sleep(0.05)
    return False


def _alive(pid: int) -> bool:
    fields = stat_fields(pid)
    return fields is not None and fields[0] != "Z"


@pytest.fixture
async def standin() -> AsyncIterator[BotAPIStandIn]:
    server = await BotAPIStandIn().start()
    yield server
    await server.stop()


@pytest.fixture
async def polling(standin: BotAPIStandIn, tmp_path: Path) -> AsyncIterator[asyncio.subprocess.Process]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "bot", "telegram", "--workers", "2"),
        env=bot_env(standin, tmp_path),
        cwd=tmp_path,
    )
    await asyncio.wait_for(standin.polled.wait(), 60)
    for _ in range(600):
        if len(processes_of(process.pid)) == 2:
            break
        await asyncio.sleep(0.05)
    yield process
    if process.returncode is None:
        process.kill()
        await process.wait()


@pytest.mark.slow
async def test_two_workers_share_the_chats_each_answered_in_order_through_to_a_ruling(
    standin: BotAPIStandIn, polling: asyncio.subprocess.Process
) -> None:
    workers = processes_of(polling.pid)
    assert len(workers) == 2
    chats = [private_chat(900 + n) for n in range(8)]
    laws = ["12", "16", "25", "27", "40", "64", "70", "85"]
    for law in laws:  # a storm: every chat asks for eight laws, interleaved across the chats
        for user, chat in chats:
            standin.push(text_message(user, chat, f"/law {law}"))
    for _user, chat in chats:
        headings: list[str] = []  # a long law comes in several messages: its first one has the heading
        while len(headings) < len(laws):
            text = (await next_call(standin, chat["id"], "sendMessage")).params["text"]
            headings += re.findall(r"^(?:<pre>)?Law (\d+) —", text)
        assert headings == laws
    assert {shard({"message": {"chat": chat}}, 2) for _u, chat in chats} == {0, 1}, "one worker had every chat"

    ann, chat = private_chat(940)  # an update python-telegram-bot cannot read is skipped; the next is answered
    standin.push({"message": {"message_id": 1, "chat": {"id": 940}, "date": "not a date", "from": "nobody"}})
    standin.push(text_message(ann, chat, "/law 64"))
    assert "Law 64" in (await next_call(standin, 940, "sendMessage")).params["text"]
    assert {shard({"message": {"chat": chat}}, 2) for _u, chat in chats} == {0, 1}, "one worker had every chat"

    ann, chat = private_chat(950)  # and a whole ruling, walked through its worker
    standin.push(text_message(ann, chat, "/charts"))
    listing = await next_call(standin, 950, "sendMessage")
    chart = next(data for _label, data in buttons(listing.result) if data.startswith(("s:", "o:c:")))
    standin.push(press(ann, listing.result, chart))
    _answered, question = await calls(standin, 950, "answerCallbackQuery", "sendMessage")
    message = question.result
    for _step in range(20):
        answer = [data for _label, data in buttons(message) if data.startswith("a:")][-1]  # "again" comes first
        standin.push(press(ann, message, answer))
        shown = await next_call(standin, 950, "editMessageText")
        if str(shown.params["text"]).startswith("✅"):
            break
        message = shown.result
    else:
        pytest.fail("no ruling after 20 answers")

    standin.push(text_message(ann, chat, "/settings"))  # a worker leaves a pressed message's keyboard unread
    settings = (await next_call(standin, 950, "sendMessage")).result
    player = next(data for label, data in buttons(settings) if label.startswith("Player"))
    standin.push(press(ann, settings, player))
    standin.push(press(ann, settings, player))  # the same again: nothing to edit
    standin.push(text_message(ann, chat, "/law 12"))  # answered after both presses are done
    await next_call(standin, 950, "sendMessage")
    edits = [c for c in standin.sent("editMessageText") if "How should I answer" in str(c.params["text"])]
    assert [int(c.params["chat_id"]) for c in edits] == [950]

    bob, group = {"id": 961, "is_bot": False, "first_name": "Bob"}, {"id": -960, "type": "group", "title": "club"}
    standin.push(text_message(bob, group, "/charts"))  # in a group the listing quotes Bob's message, and the
    offers = (await next_call(standin, -960, "sendMessage")).result  # question his press starts quotes the listing
    situation = next(data for _label, data in buttons(offers) if data.startswith(("s:", "o:c:")))
    standin.push(press(bob, offers, situation))
    _answered, question = await calls(standin, -960, "answerCallbackQuery", "sendMessage")
    assert question.params["reply_parameters"]["message_id"] == offers["message_id"]

    cath = {"id": 962, "is_bot": False, "first_name": "Cath"}  # only the one who asked picks the situation
    standin.push(text_message(bob, group, "/charts"))
    offers = (await next_call(standin, -960, "sendMessage")).result
    situation = next(data for _label, data in buttons(offers) if data.startswith(("s:", "o:c:")))
    standin.push(press(cath, offers, situation))
    refused = await next_call(standin, -960, "answerCallbackQuery")
    assert str(refused.params["text"]).startswith("Only the person who described this")
    standin.push(press(bob, offers, situation))  # the same message pressed again, by the one who described it
    answered, question = await calls(standin, -960, "answerCallbackQuery", "sendMessage")
    assert not answered.params.get("text")
    assert question.params["reply_parameters"]["message_id"] == offers["message_id"]


@pytest.mark.slow
async def test_stopping_waits_for_every_workers_updates_and_confirms_them(
    standin: BotAPIStandIn, polling: asyncio.subprocess.Process
) -> None:
    workers = processes_of(polling.pid)
    await stop_with_updates_in_flight(standin, polling, range(800, 808))
    assert await gone(workers)


@pytest.mark.slow
async def test_a_worker_that_dies_stops_the_bot_so_it_is_started_again_whole(
    standin: BotAPIStandIn, polling: asyncio.subprocess.Process
) -> None:
    first, second = processes_of(polling.pid)
    os.kill(first, signal.SIGKILL)
    assert await asyncio.wait_for(polling.wait(), 30) != 0
    assert await gone([second])


@pytest.mark.slow
async def test_a_router_that_dies_leaves_no_worker_behind(
    standin: BotAPIStandIn, polling: asyncio.subprocess.Process
) -> None:
    workers = processes_of(polling.pid)
    polling.kill()
    await polling.wait()
    assert await gone(workers)


@pytest.mark.slow
async def test_the_webhook_with_two_workers_takes_only_updates_with_the_secret(
    standin: BotAPIStandIn, tmp_path: Path
) -> None:
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "bot", "telegram", "--workers", "2", "--webhook", "https://bot.example.org/td-hook"),
        *("--listen", "127.0.0.1", "--port", str(port), "--secret-token", SECRET),
        env=bot_env(standin, tmp_path),
        cwd=tmp_path,
    )
    url = f"http://127.0.0.1:{port}/td-hook"
    try:
        for _ in range(600):
            if (standin.webhook is not None and await listening(port)) or process.returncode is not None:
                break
            await asyncio.sleep(0.05)
        async with httpx.AsyncClient(timeout=10) as http:
            ann, chat = private_chat(990)
            forged = standin.update(text_message(ann, chat, "/help"))
            for headers in ({HEADER: "wrong-secret-of-the-same-sort"}, {}):
                assert (await http.post(url, json=forged, headers=headers)).status_code == 403
            garbled = {HEADER: SECRET, "Content-Type": "application/json"}
            assert (await http.post(url, content=b"{not json", headers=garbled)).status_code == 400
            assert standin.webhook is not None
            assert (standin.webhook["url"], standin.webhook["secret_token"]) == (
                "https://bot.example.org/td-hook",
                SECRET,
            )
            chats = [private_chat(991 + n) for n in range(4)]
            for user, chat in chats:
                update = standin.update(text_message(user, chat, "/law 64"))
                assert (await http.post(url, json=update, headers={HEADER: SECRET})).status_code == 200
            for _user, chat in chats:
                assert "Law 64" in (await next_call(standin, chat["id"], "sendMessage")).params["text"]
        assert [c for c in standin.sent("sendMessage") if int(c.params["chat_id"]) == 990] == []
        workers = processes_of(process.pid)
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 30) == 0
        assert await gone(workers)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.slow
async def test_a_refused_token_stops_the_start_with_one_line_before_any_worker_is_forked(
    standin: BotAPIStandIn, tmp_path: Path
) -> None:
    env = {**bot_env(standin, tmp_path), "TELEGRAM_BOT_TOKEN": "123456:" + "A" * 35}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "bot", "telegram", "--workers", "2"),
        env=env,
        cwd=tmp_path,
        stderr=asyncio.subprocess.PIPE,
    )
    _out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    assert err.decode().strip() == "Telegram refused the token: check TELEGRAM_BOT_TOKEN with @BotFather."
