"""Sessions as append-only event logs in SQLite, with clubs, polls and people's settings: nothing a director
answered is ever lost. How the connection works is told in ``bot/store/database.py``."""

from bot.store.database import (
    BUSY_TIMEOUT_MS,
    CHECKPOINT_EVERY,
    DEFAULT_DB,
    JOURNAL_SIZE_LIMIT,
    RECENT_SESSIONS,
    checkpoint,
    lock_path,
    take_lock,
)
from bot.store.people import FORGOTTEN, REMOVED
from bot.store.polls import POLL_FIELDS
from bot.store.records import (
    Club,
    Conflict,
    DatabaseInUse,
    Event,
    EventKind,
    Forgotten,
    PollPost,
    PollRow,
    Position,
    SessionRow,
    Status,
    StoreBusy,
    StoreError,
)
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION
from bot.store.store import Store

__all__ = [
    "BUSY_TIMEOUT_MS",
    "CHECKPOINT_EVERY",
    "DEFAULT_DB",
    "FORGOTTEN",
    "JOURNAL_SIZE_LIMIT",
    "MIGRATIONS",
    "POLL_FIELDS",
    "RECENT_SESSIONS",
    "REMOVED",
    "SCHEMA_VERSION",
    "Club",
    "Conflict",
    "DatabaseInUse",
    "Event",
    "EventKind",
    "Forgotten",
    "PollPost",
    "PollRow",
    "Position",
    "SessionRow",
    "Status",
    "Store",
    "StoreBusy",
    "StoreError",
    "checkpoint",
    "lock_path",
    "take_lock",
]
