"""The bot's database as one object: each part stores one kind of thing over the shared connection."""

from __future__ import annotations

from bot.store.clubs import Clubs
from bot.store.people import People
from bot.store.polls import Polls
from bot.store.sessions import Sessions


class Store(Sessions, Clubs, Polls, People):
    """The bot's SQLite database. Open with ``await Store.open(path)``; close with ``await store.close()``."""
