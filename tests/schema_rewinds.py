"""The store schemas taken back, step by step, to what older code left (the migration tests of
``tests/test_storage_sqlite.py`` and ``tests/test_storage_postgres.py``): each step undoes one
schema version's additions, after the steps of the versions since. Both stores' schemas grew
alike; they differ in their version numbers and in indexes: SQLite refuses to drop a column an
index uses, so on SQLite its indexes go first (PostgreSQL drops them with the column)."""

from __future__ import annotations

import sqlite3
from typing import Any

#: The accounts' tables, children first.
ACCOUNT_TABLES = (
    "rating_changes",
    "ratings",
    "players",
    "attempts",
    "access_tokens",
    "web_sessions",
    "accounts",
)
#: The lobby's columns of ``games`` and (SQLite's names) their indexes.
LOBBY_COLUMNS = ("rated", "lobby", "lobby_until", "fill_at", "fill_level")
LOBBY_INDEXES = ("games_lobby_kind", "games_lobby_key")


def _drop_indexes(conn: Any, *names: str) -> None:
    """On SQLite, drop the indexes ``names`` (module doc); on PostgreSQL nothing."""
    if isinstance(conn, sqlite3.Connection):
        for name in names:
            conn.execute(f"DROP INDEX {name}")


def before_lobby(conn: Any) -> None:
    """No lobby's columns."""
    _drop_indexes(conn, *LOBBY_INDEXES)
    for column in LOBBY_COLUMNS:
        conn.execute(f"ALTER TABLE games DROP COLUMN {column}")


def before_chat(conn: Any) -> None:
    """No lobby, no table chat, no ``games.chat``."""
    before_lobby(conn)
    conn.execute("DROP TABLE chat")
    conn.execute("ALTER TABLE games DROP COLUMN chat")


def before_mail(conn: Any) -> None:
    """No table chat, no turn e-mails (their table, the accounts' columns)."""
    before_chat(conn)
    conn.execute("DROP TABLE turn_mails")
    _drop_indexes(conn, "accounts_mail")
    for column in ("email", "mail_off", "mail_token"):
        conn.execute(f"ALTER TABLE accounts DROP COLUMN {column}")


def before_banks(conn: Any) -> None:
    """No turn e-mails, no ``games.banks``."""
    before_mail(conn)
    conn.execute("ALTER TABLE games DROP COLUMN banks")


def before_accounts(conn: Any) -> None:
    """No time banks, no accounts' tables, no ``games.to_act``."""
    before_banks(conn)
    for table in ACCOUNT_TABLES:
        conn.execute(f"DROP TABLE {table}")
    conn.execute("ALTER TABLE games DROP COLUMN to_act")
