"""The game store written once in SQL: ``SqlStore`` (every ``GameStore`` method) and
``SqlTransaction`` (the writes of a locked game), over a small layer per database that
``web.storage.sqlite`` and ``web.storage.postgres`` give.

Both databases keep the same tables (``games``, ``actions``, ``analyses``, ``snapshots``, the
accounts' in ``web.storage.accounts`` and the table chat's in ``web.storage.chat``), so the
statements (``Statements``, written here with ``?`` for a parameter), how a record becomes a row
and back, the checks of an append and the steps that bring a schema up to date
(``schema_steps``) are here. A database's layer gives:

- ``sql``: the statements in its words (its parameter mark; its row lock, ``FOR UPDATE``);
- ``_reading()``: a connection for reads (rows read by column name);
- ``_writing()``: a write transaction that commits when its block ends and rolls back when the
  block fails (SQLite: the process's writers take turns, then ``BEGIN IMMEDIATE`` is waited for
  without SQLite's busy handler; PostgreSQL: a pipeline). Both, and ``_reading``, turn a
  database that cannot answer into ``DatabaseUnavailable`` (503);
- ``_encode`` / ``_decode``: JSON in and out (SQLite: text; PostgreSQL: JSONB), refused by both
  alike where a store could not keep it (``storable_json``);
- ``_mark(conn, game, version)``: the change mark by which every process learns that a game
  changed (``web.storage.watch``: SQLite gives the row the next ``seq`` of one counter inside the
  write transaction, so marks come in commit order, an append's in its own ``UPDATE``
  (``Statements.append_mark``); PostgreSQL sends ``pg_notify``, delivered at the commit and
  never for a rolled-back write).

Booleans go in as Python's (both drivers write them: SQLite as 0 and 1, which its ``WHERE
public`` reads as true and false) and come out by ``bool``.

Versions are checked in the transaction: ``transaction`` reads the game's row under the write
lock (SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's row lock), so the version a caller checks is
still the version when ``append`` writes, and two racing requests on one version give one
success and one ``StaleVersion``; ``PRIMARY KEY (game, version)`` refuses a doubled version in
any case.

**A column more** in ``games``: its field in ``GameRecord`` (``web.storage``), its name in
``GAME_COLUMNS`` and ``SqlStore.game_from_row``, its value in ``SqlStore._new_game`` (or in the
write that sets it), and in each database's module its line in ``SCHEMA`` and one ``MIGRATIONS``
entry (``SCHEMA_VERSION`` follows from it).
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, closing, contextmanager
from typing import Any

from errors import NotFound
from web.storage import (
    OVER,
    RUNNING,
    ActionRecord,
    AnalysisRecord,
    GameRecord,
    GameStore,
    Progress,
    Seat,
    Snapshot,
    Transaction,
    turn_deadlines_from_json,
)
from web.storage.accounts import (
    AccountsSql,
    AccountStatements,
    AccountTransaction,
    held,
    sync_players,
)
from web.storage.chat import ChatLine, ChatStatements, add_line, last_of_seat, line_from_row
from web.storage.dialect import Connection, Dialect
from web.storage.lobby import LobbySql, LobbyStatements, lobby_key
from web.storage.mail import MailSql, MailStatements

#: The columns of a game's row that make its ``GameRecord`` (``SqlStore.game_from_row``).
GAME_COLUMNS = (
    "id",
    "kind",
    "options",
    "seed",
    "seats",
    "version",
    "status",
    "origin",
    "seed_chosen",
    "public",
    "created",
    "updated",
    "deadline",
    "turn_deadlines",
    "bot_due",
    "bot_failed",
    "to_act",
    "banks",
    "chat",
    "rated",
    "lobby_until",
    "fill_at",
    "fill_level",
)
ANALYSIS_COLUMNS = ("game", "version", "status", "done", "total", "result", "error", "updated")


class Statements(Dialect):
    """Every statement of the shared store, written once with ``?`` for a parameter, in one
    database's words: its parameter mark (``param``) and what follows the read of a game's row
    in a write transaction to lock it (``row_lock``) and, where the change mark is a column, what
    an append sets besides (``append_mark``: then ``append`` needs no ``_mark`` of its own); the
    next number of a rating change (``next_rated``: a sequence's ``DEFAULT``, or a query); the
    statement that takes a lock named by a text for the rest of a write transaction
    (``key_lock``: none where a write transaction already holds the whole database's)."""

    def __init__(
        self,
        param: str,
        row_lock: str,
        append_mark: str = "",
        next_rated: str = "DEFAULT",
        key_lock: str = "",
    ) -> None:
        super().__init__(param)
        self.append_mark = append_mark
        #: The accounts' statements (``web.storage.accounts``) and their e-mails'
        #: (``web.storage.mail``).
        self.accounts = AccountStatements(self, row_lock, GAME_COLUMNS, next_rated)
        self.mail = MailStatements(self)
        #: The table chat's statements (``web.storage.chat``).
        self.chat = ChatStatements(self, append_mark)
        game = f"SELECT {', '.join(GAME_COLUMNS)} FROM games"
        newest = "ORDER BY created DESC LIMIT ?"
        self.game = self.say(f"{game} WHERE id = ?")
        self.locked_game = self.game + row_lock
        self.games = self.say(f"{game} WHERE public {newest}")
        self.open_games = self.say(
            f"{game} WHERE public AND status = 'running' AND free_seats > 0 {newest}"
        )
        self.version = self.say("SELECT version FROM games WHERE id = ?")
        self.game_ids = "SELECT id FROM games ORDER BY created"
        self.due = self.say(
            "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= ?"
            " AND status = 'running' ORDER BY deadline LIMIT ?"
        )
        self.bots_due = self.say(
            "SELECT id FROM games WHERE bot_due IS NOT NULL AND bot_due <= ?"
            " AND status = 'running' ORDER BY bot_due LIMIT ?"
        )
        self.appended = self.say(
            "UPDATE games SET version = ?, status = ?, updated = ?, deadline = ?, bot_due = ?,"
            " turn_deadlines = ?, bot_failed = ?, to_act = ?, banks = ?, lobby = ?"
            f"{append_mark} WHERE id = ?"
        )
        self.set_bot = self.say("UPDATE games SET bot_due = ?, bot_failed = ? WHERE id = ?")
        self.set_seats = self.say(
            "UPDATE games SET seats = ?, free_seats = ?, updated = ?, lobby = ? WHERE id = ?"
        )
        #: The lobby's statements (``web.storage.lobby``).
        self.lobby = LobbyStatements(self, GAME_COLUMNS, key_lock)
        self.new_actions = self.insert(
            "actions", ("game", "version", "seat", "action", "events", "time")
        )
        self.actions = self.say(
            "SELECT version, seat, action, events, time FROM actions"
            " WHERE game = ? AND version > ? AND version <= ? ORDER BY version"
        )
        self.moves = self.say(  # the log without its events (a replay's)
            "SELECT version, seat, action, time FROM actions"
            " WHERE game = ? AND version > ? AND version <= ? ORDER BY version"
        )
        self.snapshot = self.say("SELECT version, state FROM snapshots WHERE game = ?")
        self.save_snapshot = self.say(
            "INSERT INTO snapshots (game, version, state) VALUES (?, ?, ?)"
            " ON CONFLICT (game) DO UPDATE SET version = excluded.version,"
            " state = excluded.state WHERE excluded.version > snapshots.version"
        )
        self.analysis = self.say(
            f"SELECT {', '.join(ANALYSIS_COLUMNS)} FROM analyses WHERE game = ?"
        )
        replaced = ", ".join(f"{c} = excluded.{c}" for c in ANALYSIS_COLUMNS[1:])
        self.save_analysis = (
            self.insert("analyses", ANALYSIS_COLUMNS)
            + f" ON CONFLICT (game) DO UPDATE SET {replaced}"
        )


def listed_free_seats(seats: list[Seat]) -> int:
    """The ``free_seats`` column: seats anyone may take from the open-games list (a link-only
    seat is free but not listed)."""
    return sum(s.free_listed for s in seats)


def turn_deadlines_json(deadlines: dict[int, float]) -> dict[str, float] | None:
    """The ``turn_deadlines`` column (``None``: no turn clock runs)."""
    return {str(seat): t for seat, t in sorted(deadlines.items())} or None


def schema_steps(
    found: int, schema: Sequence[str], migrations: Mapping[int, Sequence[str]], where: str
) -> list[str]:
    """The statements that bring a database at schema version ``found`` (0: a new one) up to
    date: the whole ``schema`` for a new database, else the ``migrations`` from ``found`` on
    (``migrations[v]`` goes from ``v`` to ``v + 1``; the newest version is one past the last).
    A database from newer code is refused (``RuntimeError``)."""
    latest = max(migrations) + 1
    if found > latest:
        raise RuntimeError(f"{where} has schema version {found}; this code knows up to {latest}")
    if found == 0:
        return list(schema)
    return [statement for v in range(found, latest) for statement in migrations[v]]


class SqlTransaction(Transaction):
    """A game locked for writing on one connection of its store (``GameStore.transaction``)."""

    def __init__(self, store: SqlStore, conn: Connection, game: GameRecord) -> None:
        self.store = store
        self.conn = conn
        self.game = game

    def _append(self, actions: list[ActionRecord], progress: Progress) -> None:
        rows = self._action_rows(actions)
        game, store, p = self.game, self.store, progress
        version = game.version + len(rows)
        clocks = turn_deadlines_json(p.turn_deadlines)
        if rows:
            with closing(self.conn.cursor()) as cur:
                cur.executemany(store.sql.new_actions, rows)
        now = time.time()
        self.conn.execute(
            store.sql.appended,
            (
                version,
                p.status,
                now,
                p.deadline,
                p.bot_due,
                None if clocks is None else store._encode(clocks, "turn_deadlines"),
                False,
                store._encode(p.to_act, "to_act") if p.to_act else None,
                None if p.banks is None else store._encode(p.banks, "banks"),
                None if p.status == OVER else lobby_key(game),
                game.id,
            ),
        )
        if not store.sql.append_mark:
            store._mark(self.conn, game.id, version)
        game.version, game.status, game.deadline, game.updated = version, p.status, p.deadline, now
        game.turn_deadlines, game.to_act, game.banks = p.turn_deadlines, p.to_act, p.banks
        game.bot_due, game.bot_failed = p.bot_due, False  # a failure mark goes with any append

    def _action_rows(self, actions: list[ActionRecord]) -> list[tuple]:
        """The ``actions`` rows ``(game, version, seat, action, events, time)`` of ``actions``,
        which must continue the log at ``game.version`` (``ValueError`` otherwise: a bug, not
        an input)."""
        encode = self.store._encode
        rows = []
        for version, a in enumerate(actions, self.game.version + 1):
            if a.version != version:
                raise ValueError(f"action version {a.version} breaks the log at {version}")
            action, events = encode(a.action, "action"), encode(a.events, "events")
            rows.append((self.game.id, a.version, a.seat, action, events, a.time))
        return rows

    def set_bot(self, bot_due: float | None, failed: bool) -> None:
        shown = self.game.bot
        self.game.bot_due, self.game.bot_failed = bot_due, failed
        self.conn.execute(self.store.sql.set_bot, (bot_due, failed, self.game.id))
        if self.game.bot != shown:  # followers look again (no version: it is the same)
            self.store._mark(self.conn, self.game.id, None)

    def set_seats(self, seats: list[Seat]) -> None:
        data = self.store._encode([s.to_json() for s in seats], "seats")
        now = time.time()
        self.game.seats, self.game.updated = seats, now
        key = lobby_key(self.game)
        self.conn.execute(
            self.store.sql.set_seats, (data, listed_free_seats(seats), now, key, self.game.id)
        )
        if held(seats):
            sync_players(self.store, self.conn, self.game, now)

    def accounts(self) -> AccountTransaction:
        return AccountTransaction(self.store, self.conn)

    def last_chat(self, seat: int) -> ChatLine | None:
        return last_of_seat(self.store.sql.chat, self.conn, self.game.id, seat)

    def add_chat(self, line: ChatLine) -> None:
        if line.n != self.game.chat + 1:
            raise ValueError(f"chat line {line.n} breaks the chat at {self.game.chat + 1}")
        store = self.store
        add_line(store.sql.chat, self.conn, self.game.id, line)
        if not store.sql.append_mark:
            store._mark(self.conn, self.game.id, None)
        self.game.chat = line.n


class SqlStore(AccountsSql, MailSql, LobbySql, GameStore):
    """``GameStore`` in SQL over one database's layer (module doc): a subclass gives ``sql``,
    ``_reading``, ``_writing``, ``_encode``, ``_decode`` and ``_mark``, besides the watcher,
    the schema version and ``close``."""

    sql: Statements

    @property
    def account_sql(self) -> AccountStatements:
        return self.sql.accounts

    @property
    def lobby_sql(self) -> LobbyStatements:
        return self.sql.lobby

    @property
    def mail_sql(self) -> MailStatements:
        return self.sql.mail

    # --- the database's layer ----------------------------------------------------------------

    @abstractmethod
    def _reading(self) -> AbstractContextManager[Connection]:
        """A connection for the block's reads."""

    @abstractmethod
    def _writing(self) -> AbstractContextManager[Connection]:
        """A write transaction: leaving the block commits, an error rolls back."""

    @abstractmethod
    def _encode(self, value: Any, field_path: str) -> Any:
        """A JSON value as the parameter of a JSON column (checked by ``storable_json``)."""

    @abstractmethod
    def _decode(self, value: Any) -> Any:
        """A JSON column as read, as its value."""

    @abstractmethod
    def _mark(self, conn: Connection, game_id: str, version: int | None) -> None:
        """Mark the game changed in the write transaction on ``conn`` (module doc), now at
        ``version`` (``None``: only what the page shows of its bots changed)."""

    # --- GameStore -------------------------------------------------------------------------

    def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        with self._reading() as conn:
            return conn.execute(sql, args).fetchone()

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._reading() as conn:
            return conn.execute(sql, args).fetchall()

    def game_from_row(self, row: Mapping[str, Any]) -> GameRecord:
        """A ``games`` row (``GAME_COLUMNS``, by name) as a record."""
        turns = row["turn_deadlines"]
        return GameRecord(
            id=row["id"],
            kind=row["kind"],
            options=self._decode(row["options"]),
            seed=row["seed"],
            seats=[Seat.from_json(s) for s in self._decode(row["seats"])],
            version=row["version"],
            status=row["status"],
            origin=row["origin"],
            seed_chosen=bool(row["seed_chosen"]),
            public=bool(row["public"]),
            created=row["created"],
            updated=row["updated"],
            deadline=row["deadline"],
            turn_deadlines={} if turns is None else turn_deadlines_from_json(self._decode(turns)),
            bot_due=row["bot_due"],
            bot_failed=bool(row["bot_failed"]),
            to_act=[] if row["to_act"] is None else list(self._decode(row["to_act"])),
            banks=None if row["banks"] is None else dict(self._decode(row["banks"])),
            chat=row["chat"],
            rated=bool(row["rated"]),
            lobby_until=row["lobby_until"],
            fill_at=row["fill_at"],
            fill_level=row["fill_level"],
        )

    def _new_game(self, game: GameRecord, now: float) -> dict[str, Any]:
        """A new game's row, column by column, as it stands before its first append (which sets
        the version, the status, the deadlines and the bot marks)."""
        return {
            "id": game.id,
            "kind": game.kind,
            "options": self._encode(game.options, "options"),
            "seed": game.seed,
            "seats": self._encode([s.to_json() for s in game.seats], "seats"),
            "version": 0,
            "status": RUNNING,
            "origin": game.origin,
            "free_seats": listed_free_seats(game.seats),
            "created": now,
            "updated": now,
            "seed_chosen": game.seed_chosen,
            "public": game.public,
            "rated": game.rated,
            "lobby": lobby_key(game),
            "lobby_until": game.lobby_until,
            "fill_at": game.fill_at,
            "fill_level": game.fill_level,
        }

    def create(self, game: GameRecord, actions: list[ActionRecord]) -> None:
        row = self._new_game(game, time.time())  # refused input is refused before the write
        with self._writing() as conn:
            now = self.lobby_created(conn, row["lobby"])
            game.created = game.updated = row["created"] = row["updated"] = now
            conn.execute(self.sql.insert("games", row), tuple(row.values()))
            final_status, deadline = game.status, game.deadline
            game.version, game.status = 0, RUNNING
            tx = SqlTransaction(self, conn, game)
            tx.append(
                actions,
                final_status,
                deadline,
                game.bot_due,
                game.turn_deadlines,
                game.to_act,
                game.banks,
            )
            if held(game.seats):
                sync_players(self, conn, game, now)

    def get(self, game_id: str) -> GameRecord:
        row = self._one(self.sql.game, (game_id,))
        if row is None:
            raise NotFound(f"no game {game_id!r}", "id")
        return self.game_from_row(row)

    def version(self, game_id: str) -> int:
        row = self._one(self.sql.version, (game_id,))
        if row is None:
            raise NotFound(f"no game {game_id!r}", "id")
        return int(row["version"])

    def actions(
        self, game_id: str, after: int = 0, upto: int | None = None, events: bool = True
    ) -> list[ActionRecord]:
        last = upto if upto is not None else 2**31 - 1  # the column is a 32-bit INTEGER
        decode = self._decode
        if not events:
            rows = self._all(self.sql.moves, (game_id, after, last))
            return [
                ActionRecord(r["version"], r["seat"], decode(r["action"]), [], r["time"])
                for r in rows
            ]
        return [
            ActionRecord(
                r["version"], r["seat"], decode(r["action"]), decode(r["events"]), r["time"]
            )
            for r in self._all(self.sql.actions, (game_id, after, last))
        ]

    def chat(self, game_id: str, after: int = 0, limit: int = 500) -> list[ChatLine]:
        rows = self._all(self.sql.chat.lines, (game_id, after, limit))
        return [line_from_row(r) for r in rows]

    def snapshot(self, game_id: str) -> Snapshot | None:
        row = self._one(self.sql.snapshot, (game_id,))
        return None if row is None else Snapshot(row["version"], self._decode(row["state"]))

    def save_snapshot(self, game_id: str, version: int, state: dict[str, Any]) -> None:
        data = self._encode(state, "state")
        with self._writing() as conn:
            conn.execute(self.sql.save_snapshot, (game_id, version, data))

    def list_games(self, open_only: bool, limit: int) -> list[GameRecord]:
        rows = self._all(self.sql.open_games if open_only else self.sql.games, (limit,))
        return [self.game_from_row(r) for r in rows]

    def due(self, now: float, limit: int = 100) -> list[str]:
        return [r["id"] for r in self._all(self.sql.due, (now, limit))]

    def bots_due(self, now: float, limit: int = 100) -> list[str]:
        return [r["id"] for r in self._all(self.sql.bots_due, (now, limit))]

    @contextmanager
    def transaction(self, game_id: str) -> Iterator[Transaction]:
        with self._writing() as conn:
            row = conn.execute(self.sql.locked_game, (game_id,)).fetchone()
            if row is None:
                raise NotFound(f"no game {game_id!r}", "id")
            yield SqlTransaction(self, conn, self.game_from_row(row))

    def game_ids(self) -> Iterator[str]:
        for row in self._all(self.sql.game_ids):
            yield row["id"]

    def analysis(self, game_id: str) -> AnalysisRecord | None:
        row = self._one(self.sql.analysis, (game_id,))
        if row is None:
            return None
        found = {c: row[c] for c in ANALYSIS_COLUMNS}
        if found["result"] is not None:
            found["result"] = self._decode(found["result"])
        return AnalysisRecord(**found)

    def save_analysis(self, record: AnalysisRecord) -> None:
        values = {c: getattr(record, c) for c in ANALYSIS_COLUMNS}
        if record.result is not None:
            values["result"] = self._encode(record.result, "result")
        with self._writing() as conn:
            conn.execute(self.sql.save_analysis, tuple(values.values()))
