"""Polls of players about a ruling's question (Law 16B1), kept so they outlive a restart."""

from __future__ import annotations

import json
import time
from typing import Any

from bot.store.database import Database
from bot.store.records import PollPost, PollRow, StoreError

POLL_FIELDS = ("hand", "auction", "calls", "counts", "chat", "message_id", "telegram_id", "opened", "closed")
_POLL_COLUMNS = (
    "id, session_id, node, owner, hand, auction, calls, counts, max_votes, minutes, reply_chat, chat, message_id,"
    " telegram_id, created, opened, closed"
)


def _poll(row: Any) -> PollRow:
    values = list(row)
    values[6], values[7] = tuple(json.loads(values[6])), tuple(json.loads(values[7]))
    return PollRow(*values)


class Polls(Database):
    """A ruling's polls: drafted, sent, counted and closed."""

    async def create_poll(
        self, session_id: int, node: str, owner: str, max_votes: int, minutes: int, reply_chat: str | None
    ) -> int:
        poll_id = await self._write(
            [
                (
                    "INSERT INTO polls (session_id, node, owner, max_votes, minutes, reply_chat, created)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (session_id, node, owner, max_votes, minutes, reply_chat, time.time()),
                )
            ]
        )
        assert poll_id is not None
        return poll_id

    async def poll(self, poll_id: int) -> PollRow | None:
        rows = await self._lookup(f"SELECT {_POLL_COLUMNS} FROM polls WHERE id = ?", (poll_id,))
        return _poll(rows[0]) if rows else None

    async def poll_by_telegram(self, telegram_id: str) -> PollRow | None:
        """The poll one Telegram poll (any of its posts) belongs to."""
        rows = await self._lookup(
            f"SELECT {_POLL_COLUMNS} FROM polls WHERE id = (SELECT poll_id FROM poll_posts WHERE telegram_id = ?)",
            (telegram_id,),
        )
        return _poll(rows[0]) if rows else None

    async def add_poll_post(self, poll_id: int, chat: str, message_id: int, telegram_id: str, calls: int) -> None:
        """One chat the poll was posted in, counted from nothing."""
        await self._write(
            [
                (
                    "INSERT INTO poll_posts (telegram_id, poll_id, chat, message_id, counts) VALUES (?, ?, ?, ?, ?)",
                    (telegram_id, poll_id, chat, message_id, json.dumps([0] * calls)),
                )
            ]
        )

    async def poll_posts(self, poll_id: int) -> list[PollPost]:
        rows = await self._read(
            "SELECT telegram_id, chat, message_id, counts FROM poll_posts WHERE poll_id = ? ORDER BY rowid",
            (poll_id,),
        )
        return [PollPost(str(r[0]), str(r[1]), int(r[2]), tuple(json.loads(r[3]))) for r in rows]

    async def count_poll_post(self, telegram_id: str, counts: list[int]) -> tuple[int, ...]:
        """New counts of one post; the poll's counts become the sum over its posts, which are returned."""
        rows = await self._lookup("SELECT poll_id FROM poll_posts WHERE telegram_id = ?", (telegram_id,))
        if not rows:
            return ()
        poll_id = int(rows[0][0])
        await self._write(
            [("UPDATE poll_posts SET counts = ? WHERE telegram_id = ?", (json.dumps(counts), telegram_id))]
        )
        total = [0] * len(counts)
        for post in await self.poll_posts(poll_id):
            for index, n in enumerate(post.counts[: len(total)]):
                total[index] += n
        await self.update_poll(poll_id, counts=total)
        return tuple(total)

    async def polls_of(self, session_id: int) -> list[PollRow]:
        """A ruling's polls, oldest first."""
        rows = await self._read(f"SELECT {_POLL_COLUMNS} FROM polls WHERE session_id = ? ORDER BY id", (session_id,))
        return [_poll(row) for row in rows]

    async def update_poll(self, poll_id: int, **fields: Any) -> None:
        """Set some of a poll's fields (``POLL_FIELDS``); lists are stored as JSON."""
        if not fields or not set(fields) <= set(POLL_FIELDS):
            raise StoreError(f"a poll's fields are {', '.join(POLL_FIELDS)}")
        names = ", ".join(f"{name} = ?" for name in fields)
        values = tuple(json.dumps(list(v)) if isinstance(v, (list, tuple)) else v for v in fields.values())
        await self._write([(f"UPDATE polls SET {names} WHERE id = ?", (*values, poll_id))])
