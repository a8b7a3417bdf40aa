"""Updates handled concurrently, in order per conversation; a button press answered before anything else.

A press costs about a millisecond of CPU but waits tens of milliseconds for each Bot API call; handled one at a
time, every director's tap queued behind every other's. Here updates of different chats, and of different people
in one group, run at once; the updates of one person in one chat run one after the other, in the order Telegram
sent them, so a quick double tap or a message typed right after a press is seen in order. There is no global
queue: each (chat, user) pair has its own lock, made when its first update arrives and dropped when its last
one is done.

A press's callback query is answered (the phone's spinner stops) before any other Bot API call the press
makes, and without waiting for that answer to come back: the edit or message that follows may wait in the
rate limiter's queue (group chats: twenty a minute), the answer never does (it names no chat, so the limiter
lets it through).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from contextvars import ContextVar
from typing import Any

from telegram import CallbackQuery, Update
from telegram.ext import BaseUpdateProcessor, ContextTypes

log = logging.getLogger("bot.telegram")

MAX_CONCURRENT_UPDATES = 1024  # updates in flight at once; more wait in PTB's semaphore (memory, not order)


def conversation(update: object) -> Hashable | None:
    """The key whose updates must keep their order: the chat and the person (None: no order to keep)."""
    if not isinstance(update, Update):
        return None
    chat = update.effective_chat.id if update.effective_chat else None
    user = update.effective_user.id if update.effective_user else None
    if chat is None and user is None:
        return None
    return (chat, user)


class PerConversation(BaseUpdateProcessor):
    """PTB's update processor with one FIFO lock per (chat, user).

    PTB starts one task per update in the order it received them, and a task reaches ``do_process_update``
    without waiting unless ``MAX_CONCURRENT_UPDATES`` are already in flight (then it waits its turn in a FIFO
    semaphore); the lock is taken before any other wait, and asyncio's locks wake waiters first come first
    served, so a conversation's updates run in the order they arrived.
    """

    __slots__ = ("_locks",)

    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT_UPDATES) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = conversation(update)
        if key is None:
            await coroutine
            return
        lock, users = self._locks.get(key) or (asyncio.Lock(), 0)
        self._locks[key] = (lock, users + 1)
        try:
            try:
                await lock.acquire()
            except BaseException:  # cancelled while waiting (shutdown): the update's coroutine never starts
                if isinstance(coroutine, Coroutine):
                    coroutine.close()
                raise
            try:
                await coroutine
            finally:
                lock.release()
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    @property
    def conversations(self) -> int:
        """Conversations with an update in flight or waiting (for tests: none are left behind)."""
        return len(self._locks)

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None


Deliver = Callable[..., Awaitable[Any]]
Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[None]]


class Press:
    """A callback query being handled: answered once, by the first of ``answer`` or ``before_call``."""

    def __init__(self, query: CallbackQuery, deliver: Deliver) -> None:
        self.query = query
        self.deliver = deliver
        self.answering: asyncio.Future[Any] | None = None

    def answer(self, notice: str | None = None, alert: bool = False) -> asyncio.Future[Any]:
        """Start answering (if not started yet); the returned future completes when Telegram has the answer."""
        if self.answering is None:
            query = self.query
            self.answering = asyncio.ensure_future(
                self.deliver(lambda: query.answer(notice, show_alert=alert), idempotent=True)
            )
        return self.answering


_PRESS: ContextVar[Press | None] = ContextVar("press", default=None)


def answered_first(callback: Handler, deliver: Deliver) -> Handler:
    """Wrap the press handler: while it runs, its first Bot API call answers the press first (see ``before_call``);
    if it fails, the press is answered all the same; when it is done, the answer has reached Telegram (or failed,
    logged)."""

    async def handle(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.callback_query is None:
            await callback(update, context)
            return
        press = Press(update.callback_query, deliver)
        token = _PRESS.set(press)
        try:
            await callback(update, context)
        except Exception:
            press.answer()  # the spinner stops even when handling failed; the error handler says what happened
            raise
        finally:
            _PRESS.reset(token)
            if press.answering is not None:
                (failure,) = await asyncio.gather(press.answering, return_exceptions=True)
                if isinstance(failure, Exception):
                    log.warning("a press could not be answered: %s", type(failure).__name__)

    return handle


async def before_call() -> None:
    """Called before each Bot API call: a press not answered yet is answered now, ahead of the call (one turn
    of the event loop lets the answer's request go out first; the call does not wait for its reply)."""
    press = _PRESS.get()
    if press is not None and press.answering is None:
        press.answer()
        await asyncio.sleep(0)


def answer_now(notice: str) -> None:
    """Answer the press being handled with ``notice`` now, ahead of the message that follows it."""
    press = _PRESS.get()
    if press is not None:
        press.answer(notice)


async def answer_press(query: CallbackQuery, deliver: Deliver, notice: str | None, alert: bool = False) -> None:
    """Answer the press with ``notice`` — unless it was answered already, ahead of a message: a handler that
    sends a message and has a notice too gives it with ``answer_now`` before sending."""
    press = _PRESS.get()
    if press is None or press.query is not query:
        press = Press(query, deliver)
    await press.answer(notice, alert)
