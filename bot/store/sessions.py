"""Sessions and their event logs, and the share links that open a finished ruling."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from bot.store.database import Database, _fetch
from bot.store.records import Event, EventKind, Position, SessionRow, Status, StoreError

_SESSION_COLUMNS = "id, owner, chat, chart_id, chart_version, status, step, node, created, updated, club_id"
_EVENTS_OF = "SELECT seq, kind, data, at FROM events WHERE session_id = ? ORDER BY seq"
_SESSION_AND_LOG = (
    f"SELECT {', '.join(f's.{c}' for c in _SESSION_COLUMNS.split(', '))}, e.seq, e.kind, e.data, e.at"
    " FROM sessions s LEFT JOIN events e ON e.session_id = s.id WHERE s.id = ? ORDER BY e.seq"
)


def _session_and_log(db: sqlite3.Connection, session_id: int) -> tuple[SessionRow, list[Any]] | None:
    """A session's row and its events, read by one statement (one read transaction) so the two agree."""
    rows = _fetch(db, _SESSION_AND_LOG, (session_id,))
    if not rows:
        return None
    width = len(SessionRow.__slots__)
    return SessionRow(*rows[0][:width]), [row[width:] for row in rows if row[width] is not None]


def _events(rows: list[Any]) -> list[Event]:
    return [Event(int(seq), str(kind), json.loads(data), float(at)) for seq, kind, data, at in rows]


class Sessions(Database):
    """Each ruling's session: its row, its append-only log, and its share links."""

    async def create_session(
        self,
        owner: str,
        chat: str | None,
        chart_id: str,
        chart_version: int,
        start: dict[str, Any],
        at: Position,
        then: Sequence[tuple[str, dict[str, Any]]] = (),
    ) -> int:
        """A new session with its start event and the events that follow it at once (the answers its description
        gave), in one transaction; ``at`` is where the session stands after them."""
        now = time.time()
        events = [Event(seq, kind, data, now) for seq, (kind, data) in enumerate([(EventKind.START, start), *then])]
        session_id = await self._write(
            [
                (
                    "INSERT INTO sessions (owner, chat, chart_id, chart_version, status, step, node, created, updated)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (owner, chat, chart_id, chart_version, at.status, at.step, at.node, now, now),
                ),
                *(  # the events table has no rowid: last_insert_rowid() stays the session's
                    (
                        "INSERT INTO events (session_id, seq, kind, data, at) VALUES (last_insert_rowid(), ?, ?, ?, ?)",
                        (event.seq, event.kind, json.dumps(event.data, sort_keys=True), now),
                    )
                    for event in events
                ),
            ]
        )
        assert session_id is not None
        row = SessionRow(session_id, owner, chat, chart_id, chart_version, at.status, at.step, at.node, now, now)
        self._remember(row, events)
        return session_id

    async def append(
        self, session_id: int, seq: int, events: Sequence[tuple[str, dict[str, Any]]], at: Position
    ) -> None:
        """Append events at ``seq``, ``seq + 1``…; Conflict if another writer took ``seq`` first."""
        now = time.time()
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO events (session_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)",
                (session_id, seq + offset, kind, json.dumps(data, sort_keys=True), now),
            )
            for offset, (kind, data) in enumerate(events)
        ]
        statements.append(
            (
                "UPDATE sessions SET status = ?, step = ?, node = ?, updated = ? WHERE id = ?",
                (at.status, at.step, at.node, now, session_id),
            )
        )
        try:
            await self._write(statements)
        except StoreError:
            self._forget_recent(session_id)
            raise
        # The log in memory gains what was just committed, without asking SQLite again whether another process
        # has committed: if one has since that was last asked, the next look at the memory empties it anyway.
        cached = self._recent.get(session_id)
        if cached is not None and len(cached[1]) == seq:
            row, log = cached
            log = [*log, *(Event(seq + i, kind, data, now) for i, (kind, data) in enumerate(events))]
            self._remember(replace(row, status=at.status, step=at.step, node=at.node, updated=now), log)
        else:
            self._forget_recent(session_id)

    async def events(self, session_id: int) -> list[Event]:
        cached = self._recent_session(session_id)
        if cached is not None:
            return list(cached[1])
        rows = await self._lookup(_EVENTS_OF, (session_id,))
        return _events(rows)

    async def session(self, session_id: int) -> SessionRow | None:
        """The session's row; on a cache miss its row and log are read together, in one round trip."""
        found = await self._session_log(session_id)
        return found[0] if found is not None else None

    async def session_log(self, session_id: int) -> tuple[SessionRow, list[Event]] | None:
        """The session's row and its log (a list the caller may keep), as a press needs them: one look at the
        store's memory (and at whether another process has committed since), where asking for the row and then
        the log looked twice."""
        found = await self._session_log(session_id)
        return (found[0], list(found[1])) if found is not None else None

    async def _session_log(self, session_id: int) -> tuple[SessionRow, list[Event]] | None:
        cached = self._recent_session(session_id)
        if cached is not None:
            return cached
        found = await self._run_quick(partial(_session_and_log, session_id=session_id))
        if found is None:
            return None
        row, rows = found
        events = _events(rows)
        self._remember(row, events)
        return row, events

    async def sessions(self, owner: str, statuses: Sequence[Status], limit: int = 20) -> list[SessionRow]:
        """An owner's sessions in the given states, most recently touched first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE owner = ? AND status IN ({marks})"
            " ORDER BY updated DESC, id DESC LIMIT ?",
            (owner, *statuses, limit),
        )
        return [SessionRow(*row) for row in rows]

    async def set_session_club(self, session_id: int, club_id: int | None) -> None:
        await self._write([("UPDATE sessions SET club_id = ? WHERE id = ?", (club_id, session_id))])
        self._forget_recent(session_id)

    async def set_session_owner(self, session_id: int, owner: str) -> None:
        await self._write([("UPDATE sessions SET owner = ? WHERE id = ?", (owner, session_id))])
        self._forget_recent(session_id)

    async def club_sessions(self, club_id: int, since: float, until: float) -> list[SessionRow]:
        rows = await self._read(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE club_id = ? AND created BETWEEN ? AND ? ORDER BY created",
            (club_id, since, until),
        )
        return [SessionRow(*row) for row in rows]

    async def add_share(self, token: str, session_id: int) -> None:
        await self._write(
            [("INSERT INTO shares (token, session_id, created) VALUES (?, ?, ?)", (token, session_id, time.time()))]
        )

    async def shared_session(self, token: str) -> int | None:
        """The session a live (not revoked) share token opens."""
        rows = await self._lookup("SELECT session_id FROM shares WHERE token = ? AND revoked IS NULL", (token,))
        return int(rows[0][0]) if rows else None

    async def shares(self, session_id: int) -> list[tuple[str, float, float | None]]:
        rows = await self._read(
            "SELECT token, created, revoked FROM shares WHERE session_id = ? ORDER BY created", (session_id,)
        )
        return [(str(t), float(c), float(r) if r is not None else None) for t, c, r in rows]

    async def revoke_shares(self, session_id: int) -> int:
        await self._write(
            [("UPDATE shares SET revoked = ? WHERE session_id = ? AND revoked IS NULL", (time.time(), session_id))]
        )
        return len([s for s in await self.shares(session_id) if s[2] is not None])
