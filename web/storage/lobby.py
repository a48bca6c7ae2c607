"""The lobby's side of the game store: which games are open tables, found by game kind and by
what a player asks to play, and which tables are due to be filled by bots or to expire.

A game is an **open table** while it runs, is in the public lists and has a listed free seat
(``GameRecord.free_listed``): its row's ``lobby`` column then holds its key (``lobby_key``:
``<kind>/<seats>/<time control>``, e.g. ``<kind>/2/bank:600+5``), and ``NULL`` otherwise. The key
is written by the store itself with every write that can change it (a new game, its seats, an
append that ends it), so it never disagrees with the seats. Besides it, the table's settings:
``lobby_until`` (when it expires if still not full), ``fill_at`` and ``fill_level`` (when its
free seats become bots of that level, if the host asked for it) and ``rated`` (the host's
choice: a casual table is never rated, ``web.accounts.results``).

The statements are written once for both stores (``web.storage.sql``); the indexes are partial
(``WHERE lobby IS NOT NULL``), so the lobby costs the same with 10 or 10 million finished
games.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.turns import time_control
from web.storage import GameRecord
from web.storage.dialect import Connection, Dialect, StoreLayer


def lobby_columns(real: str, boolean: str, true: str) -> tuple[str, ...]:
    """``ALTER TABLE`` statements adding the lobby's columns, and its indexes."""
    return (
        f"ALTER TABLE games ADD COLUMN rated {boolean} NOT NULL DEFAULT {true}",
        "ALTER TABLE games ADD COLUMN lobby TEXT",
        f"ALTER TABLE games ADD COLUMN lobby_until {real}",
        f"ALTER TABLE games ADD COLUMN fill_at {real}",
        "ALTER TABLE games ADD COLUMN fill_level TEXT",
        *lobby_indexes(),
    )


def lobby_indexes() -> tuple[str, ...]:
    return (
        "CREATE INDEX games_lobby_kind ON games (kind, created) WHERE lobby IS NOT NULL",
        "CREATE INDEX games_lobby_key ON games (lobby, created) WHERE lobby IS NOT NULL",
    )


def lobby_key(game: GameRecord) -> str | None:
    """The game's key as an open table (module doc), or ``None`` when it is none."""
    if game.over or not game.public or not any(s.free_listed for s in game.seats):
        return None
    return f"{game.kind}/{len(game.seats)}/{time_control(game.options)}"


class LobbyStatements:
    """The lobby's statements in one database's words."""

    def __init__(self, sql: Dialect, game_columns: Sequence[str], key_lock: str = "") -> None:
        say = sql.say
        #: The lock of one key's new tables, for the rest of the write ("": the database's).
        self.key_lock = say(key_lock)
        self.newest = say("SELECT MAX(created) AS t FROM games WHERE lobby = ?")
        game = f"SELECT {', '.join(game_columns)} FROM games"
        self.tables = say(f"{game} WHERE kind = ? AND lobby IS NOT NULL ORDER BY created LIMIT ?")
        self.count = say("SELECT COUNT(*) AS n FROM games WHERE kind = ? AND lobby IS NOT NULL")
        self.matching = say(f"{game} WHERE lobby = ? ORDER BY created LIMIT ?")
        self.due = say(
            "SELECT id FROM games WHERE lobby IS NOT NULL"
            " AND (lobby_until <= ? OR fill_at <= ?) ORDER BY created LIMIT ?"
        )


class LobbySql(StoreLayer):
    """The lobby's reads over a ``SqlStore``'s layer (mixed into ``SqlStore``)."""

    if TYPE_CHECKING:

        @property
        def lobby_sql(self) -> LobbyStatements: ...

    def lobby_created(self, conn: Connection, key: str | None) -> float:
        """The creation time of a new game, in its write transaction ``conn``: now, and for an
        open table (``key``) also after every open table of its key, that key's lock taken first
        (PostgreSQL's advisory lock; SQLite's write transaction holds the database's). So the
        open tables of a key are older in the order they were stored, whatever the clocks of
        the servers, and two players who open tables at once agree on which is older ("Play
        now", ``web.service.lobby``: by time alone, each could miss the other's table)."""
        if key is None:
            return time.time()
        if self.lobby_sql.key_lock:
            conn.execute(self.lobby_sql.key_lock, (key,)).fetchone()  # waits for the lock
        now = time.time()
        newest = conn.execute(self.lobby_sql.newest, (key,)).fetchone()["t"]
        return now if newest is None or newest < now else newest + 1e-6

    def open_tables(self, kind: str, limit: int) -> list[GameRecord]:
        """The open tables of ``kind``, the longest waiting first."""
        return [self.game_from_row(r) for r in self._all(self.lobby_sql.tables, (kind, limit))]

    def open_table_count(self, kind: str) -> int:
        return int(self._one(self.lobby_sql.count, (kind,))["n"])

    def tables_keyed(self, key: str, limit: int) -> list[GameRecord]:
        """The open tables whose key is ``key`` (``lobby_key``), the longest waiting first."""
        return [self.game_from_row(r) for r in self._all(self.lobby_sql.matching, (key, limit))]

    def lobby_due(self, now: float, limit: int = 100) -> list[str]:
        """Open tables whose bots are due to fill them, or whose time in the lobby is up."""
        return [r["id"] for r in self._all(self.lobby_sql.due, (now, now, limit))]
