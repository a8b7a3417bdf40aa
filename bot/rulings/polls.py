"""Polls of players for a logical alternative (Law 16B1): the director gives the hand, the auction and the
candidate calls; the players are asked neutrally (nothing about the unauthorized information); the poll closes
after a number of votes or minutes, and its result goes into the ruling's log, shown at the question. The
director still decides. Who may do what is decided here; front ends only post, count and render.
"""

from __future__ import annotations

import time

from bot.dialogs import DialogError, Dialogs, NotFound
from bot.dialogs.model import Question
from bot.rulings.settings import club_settings
from bot.store import EventKind, PollPost, PollRow, Store

HAND_LIMIT = 120
AUCTION_LIMIT = 120
CALL_LIMIT = 100  # characters of a poll option (Telegram's limit)
PANEL_ROLE = "panel"  # a club role: players the club's directors may poll privately
CALLS = (2, 10)  # how many candidate calls a poll offers (Telegram's limits)
QUESTION_LIMIT = 300  # characters of a poll's question (Telegram's limit)
STEPS = ("hand", "auction", "calls")
PROMPTS = {
    "hand": "the hand the player held (for example ♠AQ74 ♥K2 ♦J983 ♣Q6)",
    "auction": "the auction up to the player's call (for example 1♠ (2♥) 2♠ (3♥) ?)",
    "calls": "the candidate calls, separated by commas (for example Pass, 3♠, Double)",
}


class PollError(DialogError):
    """A poll that cannot be made or changed; the message is one line fit for the user."""


def poll_question(poll: PollRow, ending: str) -> str:
    """What the players read: the hand, the auction and the chart's neutral question; nothing about why."""
    return f"You hold {poll.hand}. The auction: {poll.auction}. {ending}"[:QUESTION_LIMIT]


def result_line(calls: tuple[str, ...], counts: tuple[int, ...], share: int) -> str:
    """ "6 of 9 would choose Pass, 3 of 9 would choose 3♠: Pass and 3♠ may be logical alternatives (each chosen by
    at least 20%); the decision is yours." — the counts, most chosen first, and which reach the club's share."""
    total = sum(counts)
    if total == 0:
        return "Nobody voted: the poll gives no answer; the decision is yours."
    ranked = sorted(zip(calls, counts, strict=True), key=lambda pair: -pair[1])
    said = ", ".join(f"{n} of {total} would choose {call}" for call, n in ranked if n)
    reached = [call for call, n in ranked if n * 100 >= share * total]
    names = " and ".join(reached) if len(reached) < 3 else ", ".join(reached[:-1]) + f" and {reached[-1]}"
    verb = "is a possible logical alternative" if len(reached) == 1 else "may each be a logical alternative"
    return f"{said}: {names} {verb} (chosen by at least {share}%); the decision is yours."


class Polls:
    """Drafts, opens, counts and closes polls over the store; results go into the ruling's log."""

    def __init__(self, store: Store, dialogs: Dialogs) -> None:
        self.store = store
        self.dialogs = dialogs

    async def draft(self, owner: str, session_id: int, reply_chat: str | None = None) -> PollRow:
        """A new poll for the question the owner's ruling stands at, if players may be polled there."""
        screen = await self.dialogs.screen(owner, session_id)  # NotFound for someone else's ruling
        if not screen.poll:
            raise PollError("Players are polled only at a question about a logical alternative.")
        row = await self.store.session(session_id)
        settings = club_settings(await self.store.club(row.club_id) if row and row.club_id else None)
        poll_id = await self.store.create_poll(
            session_id, screen.where, owner, int(settings["poll_votes"]), int(settings["poll_minutes"]), reply_chat
        )
        return await self._poll(poll_id)

    async def _poll(self, poll_id: int) -> PollRow:
        poll = await self.store.poll(poll_id)
        if poll is None:
            raise NotFound(f"There is no poll {poll_id}.")
        return poll

    async def own(self, owner: str, poll_id: int) -> PollRow:
        """A poll of a ruling the user directs now: a poll follows its ruling when it is handed over. Anyone else
        gets the same answer as for a poll that does not exist."""
        poll = await self.store.poll(poll_id)
        row = await self.store.session(poll.session_id) if poll else None
        if poll is None or row is None or row.owner != owner:
            raise NotFound(f"There is no poll {poll_id} of yours.")
        return poll

    async def told(self, poll: PollRow) -> str | None:
        """Where the ruling's director hears that the poll closed: the chat it was asked from, or, once the ruling
        was handed over, the new director's private chat with the bot (a Telegram user's id)."""
        row = await self.store.session(poll.session_id)
        if row is None or row.owner == poll.owner:
            return poll.reply_chat
        return row.owner.removeprefix("tg:") if row.owner.startswith("tg:") else None

    async def fill(self, owner: str, poll_id: int, step: str, text: str) -> PollRow:
        """One of the director's answers (the hand, the auction, the calls), checked; the next step is the
        first still empty (``next_step``)."""
        poll = await self.own(owner, poll_id)
        if poll.opened is not None:
            raise PollError(f"Poll {poll_id} has been sent already.")
        text = " ".join(text.split())
        if step == "calls":
            calls = tuple(dict.fromkeys(c.strip() for c in text.split(",") if c.strip()))
            low, high = CALLS
            if not low <= len(calls) <= high or any(len(c) > CALL_LIMIT for c in calls):
                raise PollError(f"Give {low} to {high} different calls, separated by commas (Pass, 3♠, Double).")
            await self.store.update_poll(poll_id, calls=calls)
        elif step in ("hand", "auction"):
            limit = HAND_LIMIT if step == "hand" else AUCTION_LIMIT
            if not text or len(text) > limit:
                raise PollError(f"Give {PROMPTS[step].split(' (')[0]} in at most {limit} characters.")
            await self.store.update_poll(poll_id, **{step: text})
        else:
            raise PollError(f"A poll's steps are {', '.join(STEPS)}.")
        return await self._poll(poll_id)

    async def panel_chat(self, poll: PollRow) -> str | None:
        """The chat of the panel of players the ruling's club polls, if it named one."""
        row = await self.store.session(poll.session_id)
        club = await self.store.club(row.club_id) if row and row.club_id else None
        chat = club.settings.get("panel_chat") if club else None
        return str(chat) if chat else None

    async def panel_members(self, poll: PollRow) -> list[str]:
        """The ruling club's members who accepted the role ``panel`` (not the director polling them): each gets
        the poll in a private chat with the bot."""
        row = await self.store.session(poll.session_id)
        members = await self.store.members(row.club_id, PANEL_ROLE) if row and row.club_id else []
        return [m for m in members if m != row.owner] if row else []

    def ending(self, poll: PollRow) -> str:
        """The chart's neutral words that end the poll's question."""
        chart_id, node_id = poll.node.split("/", 1)
        node = self.dialogs.charts[chart_id].nodes[node_id]
        return node.poll if isinstance(node, Question) and node.poll else "What would you do?"

    async def opened(
        self, owner: str, poll_id: int, chat: str, message_id: int | None = None, telegram_id: str | None = None
    ) -> PollRow:
        """The poll was posted (or, in the terminal, read out): it runs from now. ``chat`` is where it was posted
        first; ``posted`` adds each chat it was posted in on Telegram."""
        poll = await self.own(owner, poll_id)
        if next_step(poll) is not None:
            raise PollError(f"Poll {poll_id} needs {PROMPTS[next_step(poll) or 'calls']} first.")
        await self.store.update_poll(
            poll_id,
            chat=chat,
            message_id=message_id,
            telegram_id=telegram_id,
            opened=time.time(),
            counts=[0] * len(poll.calls),
        )
        if message_id is not None and telegram_id is not None:
            await self.store.add_poll_post(poll_id, chat, message_id, telegram_id, len(poll.calls))
        return await self._poll(poll_id)

    async def posted(self, owner: str, poll_id: int, chat: str, message_id: int, telegram_id: str) -> None:
        """One more chat the open poll was posted in (a panel member's): its votes are added to the others'."""
        poll = await self.own(owner, poll_id)
        if poll.opened is None or poll.closed is not None:
            raise PollError(f"Poll {poll_id} is not open.")
        await self.store.add_poll_post(poll_id, chat, message_id, telegram_id, len(poll.calls))

    async def posts(self, poll: PollRow) -> list[PollPost]:
        """Every chat the poll was posted in, with its own counts."""
        return await self.store.poll_posts(poll.id)

    async def counted(self, telegram_id: str, counts: list[int]) -> PollRow | None:
        """New counts from Telegram for one post of our polls; the poll counts the sum over its posts (None for
        a poll that is not ours)."""
        poll = await self.store.poll_by_telegram(telegram_id)
        if poll is None or poll.closed is not None or len(counts) != len(poll.calls):
            return poll
        await self.store.count_poll_post(telegram_id, counts)
        return await self._poll(poll.id)

    def due(self, poll: PollRow, now: float | None = None) -> bool:
        """Whether an open poll should close: enough votes, or its time is up."""
        if poll.opened is None or poll.closed is not None:
            return False
        moment = time.time() if now is None else now
        return sum(poll.counts) >= poll.max_votes or moment >= poll.opened + poll.minutes * 60

    async def close(self, user: str | None, poll_id: int, counts: list[int] | None = None) -> tuple[PollRow, str]:
        """Close a poll and put its result into the ruling's log; ``user`` None is the bot itself (the vote
        count or the time was reached). Only the ruling's director may close it early."""
        poll = await self._poll(poll_id) if user is None else await self.own(user, poll_id)
        if poll.opened is None:
            raise PollError(f"Poll {poll_id} has not been sent yet.")
        if poll.closed is not None:
            raise PollError(f"Poll {poll_id} is closed already.")
        final = tuple(counts) if counts is not None else poll.counts
        if len(final) != len(poll.calls) or any(n < 0 for n in final):
            raise PollError(f"Give one count for each of the {len(poll.calls)} calls, in order.")
        said = result_line(poll.calls, final, await self._share(poll))
        now = time.time()
        await self.store.update_poll(poll_id, counts=final, closed=now)
        await self.dialogs.note(
            poll.session_id,
            EventKind.POLL,
            {
                "node": poll.node,
                "question": poll_question(poll, self.ending(poll)),
                "options": list(poll.calls),
                "counts": list(final),
                "opened": poll.opened,
                "closed": now,
                "said": said,
            },
        )
        return await self._poll(poll_id), said

    async def read(self, user: str, poll_id: int) -> tuple[PollRow, str]:
        """The counts so far, for the ruling's director only (nobody else reads a poll before it closes)."""
        poll = await self.own(user, poll_id)
        return poll, result_line(poll.calls, poll.counts or (0,) * len(poll.calls), await self._share(poll))

    async def _share(self, poll: PollRow) -> int:
        """The share of votes (per cent) the ruling's club counts as a possible logical alternative."""
        row = await self.store.session(poll.session_id)
        club = await self.store.club(row.club_id) if row and row.club_id else None
        return int(club_settings(club)["poll_share"])


def next_step(poll: PollRow) -> str | None:
    """The first of the hand, the auction and the calls still missing."""
    for step, value in (("hand", poll.hand), ("auction", poll.auction), ("calls", poll.calls)):
        if not value:
            return step
    return None
