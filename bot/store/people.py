"""What the store keeps about a person: their own settings, and forgetting them when they ask."""

from __future__ import annotations

import sqlite3
from functools import partial
from typing import Any

from bot.store.database import Database, _is_busy, _rollback
from bot.store.records import Forgotten, StoreBusy, StoreError

FORGOTTEN = "a forgotten user"  # who a forgotten user's kept records name (never a real id: those have a prefix)
REMOVED = "(removed: its writer asked the bot to forget them)"


def _forget(db: sqlite3.Connection, user: str) -> Forgotten:
    alone = (
        "SELECT club_id FROM club_members WHERE user = ? AND role = 'admin' AND club_id NOT IN"
        " (SELECT club_id FROM club_members WHERE role = 'admin' AND user != ?)"
    )
    try:
        db.execute("BEGIN IMMEDIATE")  # read inside the write transaction: the figures are what was done
    except sqlite3.OperationalError as exc:
        raise (StoreBusy("the record is busy") if _is_busy(exc) else StoreError(str(exc))) from exc
    try:
        dissolved = [int(r[0]) for r in db.execute(alone, (user, user)).fetchall()]
        return _forget_in(db, user, dissolved)
    except sqlite3.Error as exc:
        _rollback(db)
        if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
            raise StoreBusy("the record is busy") from exc
        raise StoreError(f"the record could not be written: {exc}") from exc


def _forget_in(db: sqlite3.Connection, user: str, dissolved: list[int]) -> Forgotten:
    """The statements of ``_forget``, inside its transaction; commits."""
    own = "SELECT id FROM sessions WHERE owner = ?"
    marks = ", ".join("?" for _ in dissolved)  # SQLite accepts an empty IN ()
    statements: list[tuple[str, tuple[Any, ...]]] = [
        (f"UPDATE sessions SET club_id = NULL WHERE club_id IN ({marks})", tuple(dissolved)),
        (f"DELETE FROM clubs WHERE id IN ({marks})", tuple(dissolved)),
        ("DELETE FROM sessions WHERE owner = ? AND club_id IS NULL", (user,)),
        (
            "UPDATE events SET data = json_remove(data, '$.note', '$.event', '$.table')"
            f" WHERE kind = 'annotate' AND session_id IN ({own})",
            (user,),
        ),
        (f"DELETE FROM shares WHERE session_id IN ({own})", (user,)),
        ("UPDATE sessions SET owner = ?, chat = NULL WHERE owner = ?", (FORGOTTEN, user)),
        (
            "UPDATE events SET data = json_set(json_remove(data, '$.name'), '$.by', ?, '$.reason', ?)"
            " WHERE kind = 'appeal' AND json_extract(data, '$.by') = ?",
            (FORGOTTEN, REMOVED, user),
        ),
        (
            "UPDATE events SET data = json_set(data, '$.by', ?, '$.text', ?)"
            " WHERE kind = 'decision' AND json_extract(data, '$.by') = ?",
            (FORGOTTEN, REMOVED, user),
        ),
        *(
            (
                f"UPDATE events SET data = json_set(data, '$.{end}', ?)"
                f" WHERE kind = 'handover' AND json_extract(data, '$.{end}') = ?",
                (FORGOTTEN, user),
            )
            for end in ("from", "to")
        ),
        ("DELETE FROM club_members WHERE user = ?", (user,)),
        ("DELETE FROM club_invites WHERE user = ?", (user,)),
        ("UPDATE club_invites SET by = ? WHERE by = ?", (FORGOTTEN, user)),
        ("DELETE FROM user_settings WHERE user = ?", (user,)),
        ("UPDATE polls SET owner = ?, reply_chat = NULL WHERE owner = ?", (FORGOTTEN, user)),
        # a panel member's private chat with the bot is their Telegram id: their poll's counts stay, not the chat
        ("UPDATE poll_posts SET chat = '' WHERE ? = 'tg:' || chat", (user,)),
    ]
    kept = f"SELECT count(*) FROM sessions WHERE owner = ? AND club_id IS NOT NULL AND club_id NOT IN ({marks})"
    total = int(db.execute("SELECT count(*) FROM sessions WHERE owner = ?", (user,)).fetchone()[0])
    anonymised = int(db.execute(kept, (user, *dissolved)).fetchone()[0])
    for sql, params in statements:
        db.execute(sql, params)
    db.execute("COMMIT")
    return Forgotten(total - anonymised, anonymised, len(dissolved))


def _truncate_wal(db: sqlite3.Connection) -> None:
    """Copy the WAL into the database and empty it, so deleted text is left in neither (secure_delete zeroes
    the freed space in the database itself); a reader holding the WAL makes this wait ``busy_timeout``."""
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except sqlite3.OperationalError as exc:
        raise (StoreBusy("the record is busy") if _is_busy(exc) else StoreError(str(exc))) from exc


class People(Database):
    """A user's settings, and forgetting a user (see ``Forgotten``)."""

    async def forget(self, user: str) -> Forgotten:
        """Forget a user in one transaction, then push the deleted text out of the WAL (see ``Forgotten``)."""
        forgotten = await self._run(partial(_forget, user=user))
        self._forget_recent()
        await self._run(_truncate_wal)
        return forgotten

    async def setting(self, user: str, key: str) -> str | None:
        rows = await self._lookup("SELECT value FROM user_settings WHERE user = ? AND key = ?", (user, key))
        return str(rows[0][0]) if rows else None

    async def set_setting(self, user: str, key: str, value: str) -> None:
        await self._write(
            [("INSERT OR REPLACE INTO user_settings (user, key, value) VALUES (?, ?, ?)", (user, key, value))]
        )
