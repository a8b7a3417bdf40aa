"""The database's schema as a list of migrations, applied in order through ``PRAGMA user_version``."""

from __future__ import annotations

# Each entry moves the schema from version i to i + 1. Never edit a shipped entry: append a new one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        owner TEXT NOT NULL,
        chart_id TEXT NOT NULL,
        chart_version INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE events (
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (session_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX sessions_by_owner ON sessions(owner, status, updated);
    """,
    # Version 2: the chat a session belongs to (a group can hold several directors' sessions) and
    # its position (step, node) so lists can be shown without replaying every log.
    """
    ALTER TABLE sessions ADD COLUMN chat TEXT;
    ALTER TABLE sessions ADD COLUMN step INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sessions ADD COLUMN node TEXT NOT NULL DEFAULT '';
    """,
    # Version 3: the running bot's heartbeat, so `python -m bot health` can tell it is alive.
    """
    CREATE TABLE heartbeat (name TEXT PRIMARY KEY, at REAL NOT NULL);
    """,
    # Version 4: rulings that last — share tokens, clubs with their settings and members' roles, and the
    # club a session belongs to.
    """
    CREATE TABLE shares (
        token TEXT PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        created REAL NOT NULL,
        revoked REAL
    );
    CREATE INDEX shares_by_session ON shares(session_id);
    CREATE TABLE clubs (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        authority TEXT NOT NULL DEFAULT 'WBF',
        settings TEXT NOT NULL DEFAULT '{}',
        appeals_chat TEXT,
        created REAL NOT NULL
    );
    CREATE TABLE club_members (
        club_id INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
        user TEXT NOT NULL,
        role TEXT NOT NULL,
        PRIMARY KEY (club_id, user, role)
    ) WITHOUT ROWID;
    ALTER TABLE sessions ADD COLUMN club_id INTEGER REFERENCES clubs(id);
    """,
    # Version 5: a user's own settings (whether a question gets the players' summary or the director's chart).
    """
    CREATE TABLE user_settings (
        user TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (user, key)
    ) WITHOUT ROWID;
    """,
    # Version 6: a club role is offered first and held only once the person accepts it.
    """
    CREATE TABLE club_invites (
        club_id INTEGER NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
        user TEXT NOT NULL,
        role TEXT NOT NULL,
        by TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (club_id, user, role)
    ) WITHOUT ROWID;
    """,
    # Version 7: polls of players about a ruling's question (Law 16B1): what was asked, where, and the counts,
    # so a poll outlives a restart; its result also goes into the ruling's log when it closes.
    """
    CREATE TABLE polls (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        node TEXT NOT NULL,
        owner TEXT NOT NULL,
        hand TEXT NOT NULL DEFAULT '',
        auction TEXT NOT NULL DEFAULT '',
        calls TEXT NOT NULL DEFAULT '[]',
        counts TEXT NOT NULL DEFAULT '[]',
        max_votes INTEGER NOT NULL,
        minutes INTEGER NOT NULL,
        reply_chat TEXT,
        chat TEXT,
        message_id INTEGER,
        telegram_id TEXT UNIQUE,
        created REAL NOT NULL,
        opened REAL,
        closed REAL
    );
    CREATE INDEX polls_by_session ON polls(session_id);
    """,
    # Version 8: a poll may be posted in several chats (the panel's chat and each panel member's private chat
    # with the bot): each post is counted on its own and the poll's counts are their sum.
    """
    CREATE TABLE poll_posts (
        telegram_id TEXT PRIMARY KEY,
        poll_id INTEGER NOT NULL REFERENCES polls(id) ON DELETE CASCADE,
        chat TEXT NOT NULL,
        message_id INTEGER NOT NULL,
        counts TEXT NOT NULL DEFAULT '[]'
    );
    CREATE INDEX poll_posts_by_poll ON poll_posts(poll_id);
    INSERT INTO poll_posts (telegram_id, poll_id, chat, message_id, counts)
        SELECT telegram_id, id, chat, message_id, counts FROM polls
        WHERE telegram_id IS NOT NULL AND chat IS NOT NULL AND message_id IS NOT NULL;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
