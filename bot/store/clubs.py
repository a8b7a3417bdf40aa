"""Clubs: their settings, members' roles and the invitations that offer them."""

from __future__ import annotations

import json
import time
from typing import Any

from bot.store.database import Database
from bot.store.records import Club, StoreError


class Clubs(Database):
    """A club's row and who holds or is offered which role in it."""

    async def create_club(self, name: str, authority: str, admin: str) -> int:
        club_id = await self._write(
            [("INSERT INTO clubs (name, authority, created) VALUES (?, ?, ?)", (name, authority, time.time()))]
        )
        assert club_id is not None
        await self.set_role(club_id, admin, "admin")
        return club_id

    async def club(self, club_id: int) -> Club | None:
        rows = await self._lookup(
            "SELECT id, name, authority, settings, appeals_chat FROM clubs WHERE id = ?", (club_id,)
        )
        if not rows:
            return None
        cid, name, authority, settings, chat = rows[0]
        return Club(int(cid), str(name), str(authority), json.loads(settings), chat)

    async def update_club(
        self,
        club_id: int,
        *,
        authority: str | None = None,
        settings: dict[str, Any] | None = None,
        appeals_chat: str | None = None,
    ) -> None:
        current = await self.club(club_id)
        if current is None:
            raise StoreError(f"there is no club {club_id}")
        merged = {**current.settings, **(settings or {})}
        await self._write(
            [
                (
                    "UPDATE clubs SET authority = ?, settings = ?, appeals_chat = ? WHERE id = ?",
                    (
                        authority or current.authority,
                        json.dumps(merged, sort_keys=True),
                        appeals_chat if appeals_chat is not None else current.appeals_chat,
                        club_id,
                    ),
                )
            ]
        )

    async def set_role(self, club_id: int, user: str, role: str) -> None:
        await self._write(
            [("INSERT OR IGNORE INTO club_members (club_id, user, role) VALUES (?, ?, ?)", (club_id, user, role))]
        )

    async def invite(self, club_id: int, user: str, role: str, by: str) -> None:
        """Offer a role; it is held only after ``accept_invites``."""
        await self._write(
            [
                (
                    "INSERT OR REPLACE INTO club_invites (club_id, user, role, by, created) VALUES (?, ?, ?, ?, ?)",
                    (club_id, user, role, by, time.time()),
                )
            ]
        )

    async def invites(self, club_id: int, user: str) -> set[str]:
        rows = await self._lookup("SELECT role FROM club_invites WHERE club_id = ? AND user = ?", (club_id, user))
        return {str(r[0]) for r in rows}

    async def invited_to(self, user: str) -> list[int]:
        rows = await self._read("SELECT DISTINCT club_id FROM club_invites WHERE user = ? ORDER BY club_id", (user,))
        return [int(r[0]) for r in rows]

    async def accept_invites(self, club_id: int, user: str) -> None:
        """The offered roles become held, in one transaction."""
        await self._write(
            [
                (
                    "INSERT OR IGNORE INTO club_members (club_id, user, role)"
                    " SELECT club_id, user, role FROM club_invites WHERE club_id = ? AND user = ?",
                    (club_id, user),
                ),
                ("DELETE FROM club_invites WHERE club_id = ? AND user = ?", (club_id, user)),
            ]
        )

    async def decline_invites(self, club_id: int, user: str) -> None:
        await self._write([("DELETE FROM club_invites WHERE club_id = ? AND user = ?", (club_id, user))])

    async def roles(self, club_id: int, user: str) -> set[str]:
        rows = await self._lookup("SELECT role FROM club_members WHERE club_id = ? AND user = ?", (club_id, user))
        return {str(r[0]) for r in rows}

    async def members(self, club_id: int, role: str) -> list[str]:
        """Who holds ``role`` in the club (accepted)."""
        rows = await self._read(
            "SELECT user FROM club_members WHERE club_id = ? AND role = ? ORDER BY user", (club_id, role)
        )
        return [str(r[0]) for r in rows]

    async def clubs_of(self, user: str) -> list[int]:
        rows = await self._lookup("SELECT DISTINCT club_id FROM club_members WHERE user = ? ORDER BY club_id", (user,))
        return [int(r[0]) for r in rows]
