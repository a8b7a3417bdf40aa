"""Polls of players on Telegram (Law 16B1): the *Poll players* button at a logical-alternative question, the
three prompts (hand, auction, calls), the anonymous native poll in the club's panel chat (or this chat), and the
``poll`` updates that count it until it closes. Every step's state is in the store or in the prompt the director
replies to, so a restart loses nothing; who may close or read a poll is decided by ``bot.rulings.polls``."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from telegram import ForceReply, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.dialogs import DialogError
from bot.rulings.polls import PROMPTS, STEPS, PollError, Polls, next_step, poll_question
from bot.store import PollRow
from bot.telegram.callbacks import PollClose, PollPlayers, PollRead, Press
from bot.telegram.render import esc
from bot.telegram.replies import answered_prompt
from bot.telegram.updates import answer_now

if TYPE_CHECKING:
    from bot.telegram.app import TelegramFrontEnd

log = logging.getLogger(__name__)
POLL_PROMPT = "Poll {poll} for ruling {sid}, step {number} of 3 ({step}): {prompt}"
_PROMPT = re.compile(r"^Poll (\d+) for ruling (\d+), step \d of 3 \((hand|auction|calls)\):")
OPEN_PERIOD_LIMIT = 600  # seconds: the longest a Telegram poll closes by itself


class PollHandlers:
    """Buttons, prompts and poll updates for polls of players."""

    def __init__(self, front: TelegramFrontEnd, polls: Polls) -> None:
        self.front = front
        self.polls = polls

    def press_handlers(self) -> dict[type[Press], Callable[[Update, Any], Awaitable[str | None]]]:
        return {PollPlayers: self._start, PollClose: self._close, PollRead: self._read}

    async def _start(self, update: Update, press: PollPlayers) -> None:
        owner = self.front.owner(update)
        screen = await self.front.dialogs.screen(owner, press.session)
        if screen.step != press.step or screen.question != press.question:
            raise DialogError("That button is from an earlier question.")
        poll = await self.polls.draft(owner, press.session, self.front.chat(update))
        await self._ask(update, poll)

    async def _ask(self, update: Update, poll: PollRow) -> None:
        step = next_step(poll) or "calls"
        text = POLL_PROMPT.format(
            poll=poll.id, sid=poll.session_id, number=STEPS.index(step) + 1, step=step, prompt=PROMPTS[step]
        )
        await self.front.reply(update, esc(text), ForceReply(selective=True))

    async def on_reply(self, update: Update) -> bool:
        """A reply to one of the poll's prompts; True when it was one."""
        answered = answered_prompt(update, _PROMPT)
        if answered is None:
            return False
        message, found = answered
        owner = self.front.owner(update)
        try:
            poll = await self.polls.fill(owner, int(found.group(1)), found.group(3), message.text or "")
        except DialogError as exc:
            await self.front.reply(update, esc(str(exc)))
            if isinstance(exc, PollError):  # asked again, so the next reply goes to the prompt
                await self._ask(update, await self.polls.own(owner, int(found.group(1))))
            return True
        if next_step(poll) is not None:
            await self._ask(update, poll)
        else:
            await self._send(update, poll)
        return True

    async def _send(self, update: Update, poll: PollRow) -> None:
        """Post the poll, anonymous, where the club's panel reads it: its panel chat, and each member with the role
        panel privately (only those who have started a chat with the bot can be reached); else in this chat."""
        panel = await self.polls.panel_chat(poll)
        members = [m.removeprefix("tg:") for m in await self.polls.panel_members(poll) if m.startswith("tg:")]
        targets = ([panel] if panel else []) + members or [poll.reply_chat or self.front.chat(update) or "0"]
        owner, seconds = self.front.owner(update), poll.minutes * 60
        reached: list[str] = []
        for target in targets:
            try:
                sent = await update.get_bot().send_poll(
                    int(target),
                    poll_question(poll, self.polls.ending(poll)),
                    list(poll.calls),
                    is_anonymous=True,
                    open_period=seconds if seconds <= OPEN_PERIOD_LIMIT else None,
                )
            except TelegramError:
                log.info("a poll could not be posted in one chat")
                continue
            assert sent.poll is not None
            if reached:
                await self.polls.posted(owner, poll.id, str(sent.chat_id), sent.message_id, sent.poll.id)
            else:
                await self.polls.opened(owner, poll.id, str(sent.chat_id), sent.message_id, sent.poll.id)
            reached.append(target)
        missed = [f"tg:{m}" for m in members if m not in reached]
        if not reached:
            where = (
                "in the panel's chat (am I a member there?)"
                if panel
                else "to the panel's members"
                if members
                else "in this chat"
            )
            await self.front.reply(
                update, esc(f"I cannot post poll {poll.id} {where}. Nothing was sent.{_missed(missed)}")
            )
            return
        keyboard = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton("📊 Results so far", callback_data=PollRead(poll.id).encode()),
                    InlineKeyboardButton("⏹ Close now", callback_data=PollClose(poll.id).encode()),
                ]
            ]
        )
        privately = sum(1 for m in members if m in reached)
        places = [
            *(["the club's panel chat" if members else "the club's panel"] if panel in reached else []),
            *(
                [f"{privately} panel members' private chats" if privately > 1 else "a panel member's private chat"]
                if privately
                else []
            ),
        ]
        where = " and ".join(places) or "this chat"
        cannot = " I cannot post in the panel's chat (am I a member there?)." if panel and panel not in reached else ""
        await self.front.reply(
            update,
            esc(
                f"📊 Poll {poll.id} is in {where}; it closes after {poll.max_votes} votes or {poll.minutes} minutes. "
                f"The players read only the hand, the auction and the calls.{cannot}{_missed(missed)}"
            ),
            keyboard,
        )

    async def _stop(self, bot: Any, poll: PollRow, native_closed: str | None = None) -> list[int]:
        """Stop every post of the poll still open and sum their final counts (a post that cannot be stopped
        counts what it had; ``native_closed`` is one Telegram closed itself)."""
        total = [0] * len(poll.calls)
        for post in await self.polls.posts(poll):
            counts = list(post.counts)
            if post.telegram_id != native_closed and post.chat:
                try:
                    stopped = await bot.stop_poll(int(post.chat), post.message_id)
                    counts = [option.voter_count for option in stopped.options]
                except TelegramError:
                    log.info("a poll could not be stopped; its counts so far are recorded")
            for index, n in enumerate(counts[: len(total)]):
                total[index] += n
        return total

    async def on_poll(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """New counts of one post of a poll (Telegram sends them to the bot that posted it); close the poll, every
        post of it, when it is due."""
        native = update.poll
        if native is None:
            return
        poll = await self.polls.counted(native.id, [option.voter_count for option in native.options])
        if poll is None or poll.closed is not None or not (native.is_closed or self.polls.due(poll)):
            return
        counts = await self._stop(context.bot, poll, native.id if native.is_closed else None)
        try:
            closed, said = await self.polls.close(None, poll.id, counts)
        except PollError:  # another update closed it a moment ago
            return
        told = await self.polls.told(closed)
        if told:
            await context.bot.send_message(
                int(told), esc(f"📊 Poll {closed.id} for ruling {closed.session_id} closed: {said}")
            )

    async def _close(self, update: Update, press: PollClose) -> str:
        owner = self.front.owner(update)
        poll = await self.polls.own(owner, press.poll)
        counts = list(poll.counts)
        if poll.opened is not None and poll.closed is None:
            counts = await self._stop(update.get_bot(), poll) if await self.polls.posts(poll) else counts
        _poll, said = await self.polls.close(owner, press.poll, counts)
        answer_now("Poll closed.")  # ahead of the message, which would otherwise answer the press without it
        await self.front.reply(update, esc(f"📊 Poll {press.poll} closed: {said}"))
        return "Poll closed."

    async def _read(self, update: Update, press: PollRead) -> str:
        _poll, said = await self.polls.read(self.front.owner(update), press.poll)
        return said[:190]


def _missed(members: list[str]) -> str:
    """One line naming the panel members the bot could not message (they never started a chat with it)."""
    if not members:
        return ""
    return f" Not reached (they have not started a chat with me): {', '.join(members)}."
