"""What the store hands back: rows as frozen records, and the errors a caller tells a user about."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """Where a session stands, kept beside its log so lists need no replay (stored as its text)."""

    OPEN = "open"
    PARKED = "parked"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EventKind(StrEnum):
    """What an event in a session's log records (stored as its text). The walk's own events move the
    dialogue; the others annotate the ruling without moving it."""

    START = "start"
    ANSWER = "answer"
    RESUME = "resume"
    BACK = "back"
    RESTART = "restart"
    CHANGE = "change"
    REOPEN = "reopen"
    PARK = "park"
    CANCEL = "cancel"
    ANNOTATE = "annotate"
    HANDOVER = "handover"
    SHARE = "share"
    APPEAL = "appeal"
    DECISION = "decision"
    POLL = "poll"
    SCORE = "score"
    SECOND = "second"  # the second incident the story told was started, as the session in the data


class StoreError(Exception):
    """The store could not do what was asked; the message is fit for a user."""


class StoreBusy(StoreError):
    """The database stayed locked (another writer, a backup): try again shortly."""


class DatabaseInUse(StoreError):
    """A restore is replacing the database file right now (it holds the lock exclusively)."""


class Conflict(StoreError):
    """Another event was stored first (a double press, two devices): the caller's view is stale."""


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: int
    owner: str
    chat: str | None
    chart_id: str
    chart_version: int
    status: Status
    step: int
    node: str
    created: float
    updated: float
    club_id: int | None = None


@dataclass(frozen=True, slots=True)
class Position:
    """Where a session stands after an event, kept beside the log so lists need no replay."""

    status: Status
    step: int
    node: str


@dataclass(frozen=True, slots=True)
class Club:
    id: int
    name: str
    authority: str
    settings: dict[str, Any]
    appeals_chat: str | None


@dataclass(frozen=True, slots=True)
class PollRow:
    """A poll of players about one question of a ruling: a draft until its calls are known, open once sent."""

    id: int
    session_id: int
    node: str  # chart/node of the question polled
    owner: str
    hand: str
    auction: str
    calls: tuple[str, ...]
    counts: tuple[int, ...]
    max_votes: int
    minutes: int
    reply_chat: str | None  # where the director asked for it (told there when it closes)
    chat: str | None  # where it was posted
    message_id: int | None
    telegram_id: str | None
    created: float
    opened: float | None
    closed: float | None


@dataclass(frozen=True, slots=True)
class PollPost:
    """One chat a poll was posted in (the panel's chat, or a panel member's private chat) and its own counts."""

    telegram_id: str
    chat: str
    message_id: int
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forgetting a user did.

    Sessions filed under no club are deleted with their log and share links. A ruling filed under a club
    stays in the club's log (with others' appeals and decisions on it) but its director becomes FORGOTTEN,
    its chat is cleared, the notes, event and table they typed are removed and its share links deleted.
    Their appeals and committee decisions on anyone's rulings keep their place and outcome, with the author
    FORGOTTEN and the text removed, and so does a handover of a ruling to or from them. A club they
    administered alone is dissolved (its rulings stay with their
    directors, filed under no club) and so are their roles, invitations and settings."""

    deleted: int
    anonymised: int
    dissolved: int
