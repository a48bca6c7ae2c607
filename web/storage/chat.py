"""A game's table chat in the store: its table, its record and its statements, written once in
SQL over the game store's layer (``web.storage.sql``), so SQLite and PostgreSQL keep it alike.

The chat is stored with the game, never in its action log: an engine never sees a line, a replay
or a record (``GET .../record``) never holds one, and an imported game has none.

- ``chat`` (``chat_tables``): one row per line, keyed ``(game, n)``: line ``n`` is the game's
  ``n``-th, so a follower reads on after the last line it has; the seat that wrote it, the text,
  the time on the service's clock and ``full_at``, the seat's rate allowance after the line (when
  the seat could write its whole burst again: ``web.service.chat``), so the limit is the stored
  lines' own and holds across workers and servers;
- ``games.chat``: the game's line count, set in the write that adds a line, with the game's
  change mark (SQLite: the next ``seq``; PostgreSQL: ``pg_notify`` without a version), so the
  watcher wakes the game's streams and long-polls on every server (``web.storage.watch``) and a
  woken follower knows from the row whether there are lines it has not read.

A line is added in the game's write transaction (``GameStore.transaction``: its row locked), so
two lines never take one number and the count, the lines and a seat's allowance agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from web.storage.dialect import Connection, Dialect


def chat_tables(real: str) -> tuple[str, ...]:
    """The chat's table and index, ``real`` the database's floating-point type."""
    return (
        f"""CREATE TABLE chat (
            game    TEXT NOT NULL REFERENCES games (id),
            n       INTEGER NOT NULL CHECK (n >= 1),
            seat    INTEGER NOT NULL,
            text    TEXT NOT NULL,
            time    {real} NOT NULL,
            full_at {real} NOT NULL,
            PRIMARY KEY (game, n)
        )""",
        # a seat's last line (its rate allowance) without reading the game's other lines
        "CREATE INDEX chat_seat ON chat (game, seat, n)",
    )


#: The column that counts a game's lines (one line in each database's ``games`` table).
CHAT_COLUMN = "chat INTEGER NOT NULL DEFAULT 0"


@dataclass
class ChatLine:
    """Line ``n`` of a game's chat: written by ``seat`` at ``time`` (the service's clock);
    ``full_at``: when that seat's whole burst of lines is allowed again (``web.service.chat``)."""

    n: int
    seat: int
    text: str
    time: float
    full_at: float = 0.0


class ChatStatements:
    """The chat's statements in one database's words (its parameter mark; ``append_mark``: what
    an update of a game's row sets besides when the change mark is a column)."""

    def __init__(self, sql: Dialect, append_mark: str) -> None:
        say = sql.say
        self.lines = say(
            "SELECT n, seat, text, time, full_at FROM chat WHERE game = ? AND n > ?"
            " ORDER BY n LIMIT ?"
        )
        self.last_of_seat = say(
            "SELECT n, seat, text, time, full_at FROM chat WHERE game = ? AND seat = ?"
            " ORDER BY n DESC LIMIT 1"
        )
        self.new_line = sql.insert("chat", ("game", "n", "seat", "text", "time", "full_at"))
        self.counted = say(f"UPDATE games SET chat = ?{append_mark} WHERE id = ?")


def line_from_row(row: Mapping[str, Any]) -> ChatLine:
    return ChatLine(row["n"], row["seat"], row["text"], row["time"], row["full_at"])


def last_of_seat(sql: ChatStatements, conn: Connection, game_id: str, seat: int) -> ChatLine | None:
    """The last line ``seat`` wrote in the game (in the game's write transaction)."""
    row = conn.execute(sql.last_of_seat, (game_id, seat)).fetchone()
    return None if row is None else line_from_row(row)


def add_line(sql: ChatStatements, conn: Connection, game_id: str, line: ChatLine) -> None:
    """Insert ``line`` and set the game's count to its number (in the game's write transaction;
    the caller marks the change where the mark is not a column)."""
    conn.execute(sql.new_line, (game_id, line.n, line.seat, line.text, line.time, line.full_at))
    conn.execute(sql.counted, (line.n, game_id))
