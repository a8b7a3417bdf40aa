"""Polls of players about a ruling's question (Law 16B1), kept so they outlive a restart."""

from __future__ import annotations

import json
import time
from typing import Any

from bot.store.database import Database
from bot.store.records import PollRow, StoreError

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
        rows = await self._read(f"SELECT {_POLL_COLUMNS} FROM polls WHERE id = ?", (poll_id,))
        return _poll(rows[0]) if rows else None

    async def poll_by_telegram(self, telegram_id: str) -> PollRow | None:
        rows = await self._read(f"SELECT {_POLL_COLUMNS} FROM polls WHERE telegram_id = ?", (telegram_id,))
        return _poll(rows[0]) if rows else None

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
