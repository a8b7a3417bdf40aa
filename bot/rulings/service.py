"""The rulings service: filing, annotating, sharing, handing over, reopening, appealing and deciding a ruling.

Each of these is an event in the session's append-only log, so the history of a ruling is never overwritten.
Who may do what is decided here; front ends only render."""

from __future__ import annotations

import re
import secrets
import time
from collections import Counter

from bot.dialogs import ChartChanged, DialogError, Dialogs, NotFound, Screen, Second
from bot.dialogs.regulations import Setting
from bot.ids import parse_id
from bot.laws.refs import law_number
from bot.rulings.record import (
    ANNOTATIONS,
    APPEAL_REASON_LIMIT,
    DEPOSITS,
    FILING_ROLES,
    NAME_LIMIT,
    NOT_DESCRIBER,
    OUTCOMES,
    ROLES,
    SEATS,
    SIDES,
    BadScore,
    RulingError,
    RulingRecord,
    build_record,
    score_usage,
)
from bot.rulings.settings import authorities, check_setting, club_settings, regulation_settings
from bot.scoring import ScoringError
from bot.scoring.service import ruling_score_text
from bot.store import Club, EventKind, Forgotten, Status, Store

__all__ = ["authorities", "club_settings"]  # kept importable from here: the settings moved to bot.rulings.settings


class Rulings:
    """Records, sharing, reopening, appeals and club logs over the dialog service."""

    def __init__(self, store: Store, dialogs: Dialogs, admins: frozenset[str] = frozenset()) -> None:
        self.store = store
        self.dialogs = dialogs
        self.admins = admins  # the bot's administrators (owner ids): may decide appeals anywhere

    async def record(self, session_id: int) -> RulingRecord:
        """The record of any session (callers decide who may see it)."""
        try:
            row, walk, events = await self.dialogs.inspect(session_id)
            screen = self.dialogs.screen_of(row, walk)
        except ChartChanged:  # a finished ruling is kept as it was given; an open one must start again
            row, screen, events = await self.dialogs.as_given(session_id)
        club = await self.store.club(row.club_id) if row.club_id else None
        return build_record(self.dialogs, row.chart_id, events, screen, club, row.owner, row.chart_version)

    async def own(self, owner: str, session_id: int) -> RulingRecord:
        record = await self.record(session_id)
        if record.director != owner:
            raise NotFound(f"There is no session {session_id} of yours.")
        return record

    async def annotate(self, owner: str, session_id: int, **fields: str | None) -> RulingRecord:
        """Board, offender's seat, non-offending side, note, event, table: checked, then logged."""
        await self.own(owner, session_id)
        clean: dict[str, str] = {}
        for name, value in fields.items():
            if value is None:
                continue
            if name not in ANNOTATIONS:
                raise RulingError(f"Unknown detail {name!r}.")
            text = str(value).strip()
            if name == "board" and not re.fullmatch(r"[1-9]\d{0,2}", text):
                raise RulingError("The board is a number from 1 to 999.")
            if name == "offender" and text.upper() not in SEATS:
                raise RulingError("The offender's seat is N, E, S or W.")
            if name == "non_offenders" and text.upper() not in SIDES:
                raise RulingError("The non-offending side is NS or EW.")
            if len(text) > 1000:
                raise RulingError("A note holds at most 1,000 characters.")
            clean[name] = text.upper() if name in ("offender", "non_offenders") else text
        if clean:
            await self.dialogs.note(session_id, EventKind.ANNOTATE, clean)
        return await self.record(session_id)

    async def start(
        self,
        owner: str,
        chart_id: str,
        chat: str | None = None,
        description: str | None = None,
        *,
        described_by: str | None = None,
        second: Second | None = None,
    ) -> Screen:
        """Start a chart for a director (from what they typed, if any, so its facts are not asked again); a
        director of exactly one club files the ruling under that club.

        ``described_by`` is who described the incident the situation was offered for (in a group): only they
        may pick it, and so direct the ruling; they can hand the ruling over once it has started. ``second``
        is the other incident the description told, offered when this ruling is given, unless that incident's
        ruling was started first from the same story (the director went back to the situations): then each is
        started, and neither offers the other."""
        if described_by is not None and described_by != owner:
            raise RulingError(NOT_DESCRIBER)
        first = await self._first_of_two(owner, chart_id, second, description) if second else None
        clubs = await self.filing_clubs(owner)
        club = await self.store.club(clubs[0]) if len(clubs) == 1 else None
        kept = None if first is not None else second
        screen = await self.dialogs.start(owner, chart_id, chat, description, regulation_settings(club), kept)
        if club is not None:
            await self.attach_club(owner, screen.session_id, club.id)
        if first is not None:
            await self.dialogs.note(first, EventKind.SECOND, {"session": screen.session_id})
        return screen

    async def _first_of_two(self, owner: str, chart_id: str, second: Second, description: str | None) -> int | None:
        """The director's session on ``second``'s chart, from the same story, that still offers ``chart_id``."""
        for session in await self.dialogs.sessions(owner, (Status.OPEN, Status.PARKED, Status.FINISHED)):
            if session.chart_id != second.chart:
                continue
            try:
                kept, story = await self.dialogs.second_thing(owner, session.id)
            except DialogError:  # it offers nothing now, or its chart is gone
                continue
            if kept.chart == chart_id and story == (description or "").strip():
                return session.id
        return None

    async def start_second(self, owner: str, session_id: int, chat: str | None = None) -> Screen:
        """Start the second incident the story of the director's session ``session_id`` told, with the same
        story (so what it already says is answered), and mark it started there: it is offered no more. Started
        before it is marked, so a crash in between offers it again rather than losing it."""
        second, description = await self.dialogs.second_thing(owner, session_id)
        screen = await self.start(owner, second.chart, chat, description)
        await self.dialogs.note(session_id, EventKind.SECOND, {"session": screen.session_id})
        return screen

    async def filing_clubs(self, user: str) -> list[int]:
        """The clubs a user's rulings may be filed under: those where they direct or administer."""
        return [c for c in await self.store.clubs_of(user) if await self.store.roles(c, user) & FILING_ROLES]

    async def score(self, owner: str, session_id: int, typed: str) -> tuple[RulingRecord, str]:
        """The director's score for their finished ruling, worked out as its chart says (the tricks its answers
        transfer, a weighted adjusted score) and filed on the record; input that cannot be scored gets the one
        line that says why, and nothing is filed."""
        record = await self.own(owner, session_id)
        if not record.finished:
            raise RulingError(f"Ruling {session_id} is not finished yet: score it once it is.")
        if record.score is None:
            raise RulingError(f"Ruling {session_id} does not end in a score to work out (type score 4SX= vul alone).")
        words = typed.split()
        if not words:
            raise BadScore(f"Type score {session_id} followed, on the same line, by {score_usage(record.score)}.")
        try:
            said = ruling_score_text(record.score.kind, int(record.score.tricks), words)
        except ScoringError as exc:
            raise BadScore(str(exc)) from None
        await self.dialogs.note(session_id, EventKind.SCORE, {"typed": " ".join(words)[:400], "said": said})
        return await self.record(session_id), said

    async def hand_over(self, owner: str, session_id: int, to: str) -> None:
        """Give a ruling to another director: from now on only they can press its buttons (logged)."""
        await self.own(owner, session_id)
        if to == owner:
            raise RulingError("That ruling is already yours.")
        await self.dialogs.note(session_id, EventKind.HANDOVER, {"from": owner, "to": to})
        await self.store.set_session_owner(session_id, to)

    async def filing_club_list(self, user: str) -> list[Club]:
        clubs = [await self.store.club(c) for c in await self.filing_clubs(user)]
        return [c for c in clubs if c is not None]

    async def attach_club(self, owner: str, session_id: int, club_id: int | None) -> RulingRecord:
        """File the owner's ruling under one of their clubs (where they direct or administer), or under none."""
        await self.own(owner, session_id)
        if club_id is not None and not await self.store.roles(club_id, owner) & FILING_ROLES:
            raise RulingError("You do not direct for that club.")
        await self.store.set_session_club(session_id, club_id)
        return await self.record(session_id)

    # --- clubs ----------------------------------------------------------------------------------

    async def create_club(self, user: str, name: str) -> int:
        """A new club (under the WBF's defaults until its authority is set); its creator administers it."""
        name = " ".join(name.split())[:80]
        if not name:
            raise RulingError("Give the club a name: /club new NAME.")
        return await self.store.create_club(name, "WBF", user)

    async def clubs_of(self, user: str) -> list[int]:
        return await self.store.clubs_of(user)

    async def invited_to(self, user: str) -> list[int]:
        """The clubs whose invitations the user has not answered yet."""
        return await self.store.invited_to(user)

    async def _administer(self, user: str, club_id: int) -> None:
        if "admin" not in await self.store.roles(club_id, user):
            raise RulingError("Only the club's administrators can change it.")

    async def set_authority(self, user: str, club_id: int, authority: str) -> None:
        await self._administer(user, club_id)
        if authority not in authorities():
            raise RulingError(f"The authority is one of {', '.join(authorities())}.")
        await self.store.update_club(club_id, authority=authority)

    async def set_deadline(self, user: str, club_id: int, minutes: str) -> None:
        await self._administer(user, club_id)
        if not (5 <= (parse_id(minutes) or 0) <= 24 * 60):
            raise RulingError("The appeal deadline is a number of minutes from 5 to 1440.")
        await self.store.update_club(club_id, settings={"appeal_minutes": int(minutes)})

    async def set_club_setting(self, user: str, club_id: int, key: str, value: str) -> None:
        """One setting the club follows instead of its authority's (``bot/rulings/settings.py``)."""
        await self._administer(user, club_id)
        await self.store.update_club(club_id, settings={key: check_setting(key, value)})

    async def rules_for(self, user: str) -> dict[str, Setting]:
        """The regulations a user's next ruling follows: their one club's, else the WBF's (saying so)."""
        clubs = await self.filing_clubs(user)
        return regulation_settings(await self.store.club(clubs[0]) if len(clubs) == 1 else None)

    async def club_rules(self, user: str, club_id: int) -> tuple[Club, dict[str, Setting]]:
        """The regulations a club's rulings follow, each with what it says and its source (its members only)."""
        club = await self.store.club(club_id)
        if club is None or not await self.store.roles(club_id, user):
            raise NotFound(f"You are not a member of club {club_id}.")
        return club, regulation_settings(club)

    async def set_appeals_chat(self, user: str, club_id: int, chat: str) -> None:
        await self._administer(user, club_id)
        await self.store.update_club(club_id, appeals_chat=chat)

    async def set_panel_chat(self, user: str, club_id: int, chat: str) -> None:
        """The chat where the club's polls of players (Law 16B1) are posted."""
        await self._administer(user, club_id)
        await self.store.update_club(club_id, settings={"panel_chat": chat})

    async def grant(self, user: str, club_id: int, member: str, role: str) -> Club:
        """Invite someone to a role: it takes effect only when they accept, so nobody's rulings are filed
        under (and read by) a club they did not agree to join."""
        await self._administer(user, club_id)
        if role not in ROLES:
            raise RulingError(f"A role is one of {', '.join(ROLES)}.")
        club = await self.store.club(club_id)
        assert club is not None  # it has an administrator
        if role not in await self.store.roles(club_id, member):
            await self.store.invite(club_id, member, role, user)
        return club

    async def accept(self, user: str, club_id: int) -> tuple[Club, set[str]]:
        """Take up the roles a club offered; from then on the club's rules apply to the user's new rulings."""
        club, roles = await self._invitation(user, club_id)
        await self.store.accept_invites(club_id, user)
        return club, roles

    async def decline(self, user: str, club_id: int) -> Club:
        club, _roles = await self._invitation(user, club_id)
        await self.store.decline_invites(club_id, user)
        return club

    async def _invitation(self, user: str, club_id: int) -> tuple[Club, set[str]]:
        roles = await self.store.invites(club_id, user)
        club = await self.store.club(club_id) if roles else None
        if club is None:
            raise RulingError(f"There is no invitation for you from club {club_id}.")
        return club, roles

    async def share(self, owner: str, session_id: int) -> str:
        """A new unguessable token (256 bits) that opens a read-only view of the ruling."""
        record = await self.own(owner, session_id)
        if not record.finished:
            raise RulingError("Share a ruling once it is finished.")
        token = secrets.token_urlsafe(32)
        await self.store.add_share(token, session_id)
        await self.dialogs.note(session_id, EventKind.SHARE, {"token_prefix": token[:6]})
        return token

    async def revoke(self, owner: str, session_id: int) -> int:
        await self.own(owner, session_id)
        count = await self.store.revoke_shares(session_id)
        await self.dialogs.note(session_id, "unshare", {})
        return count

    async def shared(self, token: str) -> RulingRecord | None:
        """The ruling a share link opens, or None for an unknown or revoked token."""
        if not re.fullmatch(r"[A-Za-z0-9_-]{20,64}", token or ""):
            return None
        session_id = await self.store.shared_session(token)
        return await self.record(session_id) if session_id is not None else None

    async def reopen(self, owner: str, session_id: int) -> Screen:
        return await self.dialogs.reopen_ruling(owner, session_id)

    async def may_appeal(self, user: str, session_id: int, token: str | None) -> bool:
        """The director's own ruling, or one the user opened through a live share link (a player at the table)."""
        record = await self.record(session_id)
        return record.director == user or (token is not None and await self.store.shared_session(token) == session_id)

    async def appeal(
        self,
        user: str,
        session_id: int,
        reason: str,
        token: str | None = None,
        now: float | None = None,
        name: str = "",
    ) -> RulingRecord:
        """Lodge an appeal (Law 92) with a reason, within the club's deadline; ``name`` is how the committee
        knows the appellant (kept with the appeal, since a bare id tells them nothing)."""
        record = await self.record(session_id)
        if not record.finished or record.appeal_deadline is None:
            raise RulingError("There is no ruling to appeal yet.")
        if not await self.may_appeal(user, session_id, token):
            raise NotFound("Only players who were given this ruling can appeal it.")
        moment = time.time() if now is None else now
        if moment > record.appeal_deadline:
            deadline = time.strftime("%H:%M", time.localtime(record.appeal_deadline))
            raise RulingError(
                f"The time to appeal ended at {deadline} ({record.appeal_minutes} minutes after the ruling)."
            )
        reason = reason.strip()
        if len(reason) > APPEAL_REASON_LIMIT:
            raise RulingError(
                f"An appeal's reason holds at most {APPEAL_REASON_LIMIT:,} characters (yours has {len(reason):,}):"
                " shorten it and send it again."
            )
        if len(reason) < 3:
            raise RulingError("Give the reason for the appeal in a few words.")
        lodged: dict[str, str] = {"by": user, "reason": reason}
        name = " ".join(name.split())[:NAME_LIMIT]
        if name:
            lodged["name"] = name
        await self.dialogs.note(session_id, EventKind.APPEAL, lodged)
        return await self.record(session_id)

    async def may_decide(self, user: str, record: RulingRecord) -> bool:
        if user in self.admins:
            return True
        return record.club is not None and "committee" in await self.store.roles(record.club.id, user)

    async def decide(self, user: str, session_id: int, outcome: str, deposit: str, text: str) -> RulingRecord:
        """A committee member records the decision on an appeal (Law 93).

        Anyone else gets the same answer whatever the id, so /decide cannot tell an outsider whether a ruling
        exists or was appealed."""
        outsider = NotFound("Only the club's appeals committee can decide an appeal.")
        try:
            record = await self.record(session_id)
        except (NotFound, OverflowError) as exc:
            raise outsider from exc
        if not await self.may_decide(user, record):
            raise outsider
        if not record.appeals:
            raise RulingError("This ruling has not been appealed.")
        if outcome not in OUTCOMES or deposit not in DEPOSITS:
            raise RulingError(f"The decision is one of {', '.join(OUTCOMES)}; the deposit {', '.join(DEPOSITS)}.")
        await self.dialogs.note(
            session_id,
            EventKind.DECISION,
            {"by": user, "outcome": outcome, "deposit": deposit, "text": text.strip()[:2000]},
        )
        return await self.record(session_id)

    async def club_log(
        self, user: str, club_id: int, since: float, until: float
    ) -> tuple[list[RulingRecord], Counter[int]]:
        """A club's rulings over a period and a count per law (club admins only)."""
        if "admin" not in await self.store.roles(club_id, user) and user not in self.admins:
            raise NotFound("Only the club's administrators can read its ruling log.")
        records = [await self.record(row.id) for row in await self.store.club_sessions(club_id, since, until)]
        per_law: Counter[int] = Counter()
        for record in records:
            if record.current:
                per_law.update({law_number(ref) for ref in record.current.laws})
        return records, per_law

    async def forget(self, user: str) -> Forgotten:
        """Forget a user. A club keeps its record of what happened (a ruling filed under it, appeals and
        decisions), naming nobody and holding none of their words; everything else of theirs is deleted and
        a club they administered alone is dissolved (``bot.store.Forgotten`` lists exactly what)."""
        return await self.store.forget(user)
