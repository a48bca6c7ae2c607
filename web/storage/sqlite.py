"""``GameStore`` on one SQLite file: the shared SQL (``web.storage.sql``) over WAL (switched on
once, at set-up), a few pooled connections per process for reads and one for its writes, and
writes that wait for the lock without holding up an event loop.

The game tables: ``games`` (one row per game: kind, options, seed and whether it was chosen,
seats with token and invitation hashes, whether it is listed publicly, version, status,
timestamps, the deadlines, the seats to act, the time banks, the lobby's key and settings
(``web.storage.lobby``), the ``seq`` of its last change),
``actions`` (the log: game, version, seat,
action JSON, public events, time; ``(game, version)`` is the primary key, so a version can never
be written twice), ``analyses`` (a finished game's review analysis: status, progress and result,
``web.review``) and ``snapshots`` (each game's newest state snapshot, a cache); besides them the
accounts' tables (``web.storage.accounts``) and the table chat's (``web.storage.chat``). JSON is kept as text. Writes go through ``_writing``: ``BEGIN IMMEDIATE`` takes SQLite's write lock before the
game's row is read, so the version a request checks is still the version when it commits; two
racing requests on one version give one success and one ``StaleVersion`` (409). WAL lets readers
(GETs, streams) go on while a writer holds the lock, across gunicorn's worker processes too. The
writers of one process take a lock of their own before ``BEGIN IMMEDIATE``, so they queue on it
and take turns on one connection; a lock held by another process (as the writing connection
opens or begins) is waited for by sleeping between tries (``_waiting_for_locks``: a gevent sleep
under gevent), not in SQLite's busy handler, which sleeps in C; past ``LOCK_WAIT_S`` the request
is refused with ``DatabaseUnavailable`` (503, ``Retry-After``), as is a read whose new
connection is still locked out past ``READ_BUSY_MS``. Every append (and a
change of what the page shows of the bots) gives the game's row the next ``seq`` of one counter
(``_mark``), so ``SqliteWatcher`` finds every change since its last look with one query. The
schema version is ``PRAGMA user_version``; ``MIGRATIONS`` bring an older file up to date.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

import orjson

from errors import DatabaseUnavailable
from web.storage import storable_json
from web.storage.accounts import account_tables
from web.storage.chat import CHAT_COLUMN, chat_tables
from web.storage.lobby import lobby_columns, lobby_indexes
from web.storage.mail import mail_tables
from web.storage.sql import Connection, SqlStore, Statements, schema_steps
from web.storage.watch import Watcher

T = TypeVar("T")

#: How long opening a file waits for another process that holds it (WAL switch, schema).
BUSY_TIMEOUT_S = 30.0
#: How long a write waits for SQLite's write lock, held by another process, before the request
#: is refused (``DatabaseUnavailable``, 503): writes hold it for a millisecond or two.
LOCK_WAIT_S = 5.0
#: SQLite's own busy handler for reads (it sleeps in C, holding up an event loop): in WAL mode
#: they do not wait for writers, so this is a safety net, never a queue. The writing connection
#: has none (``_waiting_for_locks``).
READ_BUSY_MS = 200
#: Idle connections a process keeps for reuse (more are closed when given back).
POOL_IDLE = 8
#: How often the watcher reads the rows changed since its last look (seconds).
WATCH_TICK_S = 0.05

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    options    TEXT NOT NULL,               -- JSON object, defaults filled in
    seed       INTEGER NOT NULL,
    seats      TEXT NOT NULL,               -- JSON list: index, type, name, level, hashes
    version    INTEGER NOT NULL DEFAULT 0,  -- = number of actions in the log
    status     TEXT NOT NULL CHECK (status IN ('running', 'over')),
    origin     TEXT NOT NULL DEFAULT 'play' CHECK (origin IN ('play', 'import')),
    free_seats INTEGER NOT NULL DEFAULT 0,  -- human seats nobody has claimed yet
    created    REAL NOT NULL,
    updated    REAL NOT NULL,
    deadline   REAL,                        -- the running timed phase's end (service clock)
    seq        INTEGER NOT NULL DEFAULT 0,  -- bumped from one counter by every change
    bot_due    REAL,                        -- from when a table runner may let a bot move
    bot_failed INTEGER NOT NULL DEFAULT 0,  -- the last bot move tried failed (logged)
    seed_chosen INTEGER NOT NULL DEFAULT 0, -- the creator gave the seed
    public     INTEGER NOT NULL DEFAULT 1,  -- in the public lists (not all seats invitations)
    turn_deadlines TEXT,                    -- JSON {seat: when its turn clock runs out}
    to_act     TEXT,                        -- JSON [seats to act] as of the last append
    banks      TEXT,                        -- JSON time banks (web.service.banks), or NULL
    chat       INTEGER NOT NULL DEFAULT 0,  -- lines of its table chat (web.storage.chat)
    rated      INTEGER NOT NULL DEFAULT 1,  -- the host's choice: counts for the ratings
    lobby      TEXT,                        -- an open table's key (web.storage.lobby), or NULL
    lobby_until REAL,                       -- when an open table expires
    fill_at    REAL,                        -- when bots take an open table's free seats
    fill_level TEXT                         -- at which level
);
CREATE INDEX IF NOT EXISTS games_open ON games (status, free_seats, created);
CREATE INDEX IF NOT EXISTS games_seq ON games (seq);
CREATE INDEX IF NOT EXISTS games_bots ON games (bot_due) WHERE bot_due IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_created ON games (created);
CREATE INDEX IF NOT EXISTS games_due ON games (deadline) WHERE deadline IS NOT NULL;
CREATE TABLE IF NOT EXISTS actions (
    game    TEXT NOT NULL REFERENCES games (id),
    version INTEGER NOT NULL CHECK (version >= 1),
    seat    INTEGER,                        -- NULL: the table's own action (a timeout)
    action  TEXT NOT NULL,                  -- JSON object, exactly as the engine accepted it
    events  TEXT NOT NULL,                  -- JSON list of the engine's public events
    time    REAL NOT NULL,
    PRIMARY KEY (game, version)             -- UNIQUE (game, version): no doubled version
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS analyses (
    game    TEXT PRIMARY KEY REFERENCES games (id),
    version INTEGER NOT NULL,               -- games.analysis.ANALYSIS_VERSION it was made with
    status  TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
    done    INTEGER NOT NULL DEFAULT 0,     -- actions replayed so far
    total   INTEGER NOT NULL DEFAULT 0,
    result  TEXT,                           -- JSON, once done
    error   TEXT,
    updated REAL NOT NULL                   -- the service's clock
);
CREATE TABLE IF NOT EXISTS snapshots (
    game    TEXT PRIMARY KEY REFERENCES games (id),
    version INTEGER NOT NULL,               -- the state after this many log entries
    state   TEXT NOT NULL                   -- JSON: the engine's state_to_json
);
"""

ANALYSES_TABLE = (
    "CREATE TABLE analyses (game TEXT PRIMARY KEY REFERENCES games (id),"
    " version INTEGER NOT NULL, status TEXT NOT NULL CHECK (status IN ('running', 'done',"
    " 'failed')), done INTEGER NOT NULL DEFAULT 0, total INTEGER NOT NULL DEFAULT 0,"
    " result TEXT, error TEXT, updated REAL NOT NULL)"
)

SNAPSHOTS_TABLE = (
    "CREATE TABLE snapshots (game TEXT PRIMARY KEY REFERENCES games (id),"
    " version INTEGER NOT NULL, state TEXT NOT NULL)"
)

#: Statements that bring a database from schema version ``v`` to ``v + 1``.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "ALTER TABLE games ADD COLUMN deadline REAL",
        "CREATE INDEX games_due ON games (deadline) WHERE deadline IS NOT NULL",
        "CREATE TABLE actions_v2 (game TEXT NOT NULL REFERENCES games (id),"
        " version INTEGER NOT NULL CHECK (version >= 1), seat INTEGER, action TEXT NOT NULL,"
        " events TEXT NOT NULL, time REAL NOT NULL, PRIMARY KEY (game, version)) WITHOUT ROWID",
        "INSERT INTO actions_v2 SELECT game, version, seat, action, events, time FROM actions",
        "DROP TABLE actions",
        "ALTER TABLE actions_v2 RENAME TO actions",
    ),
    2: (ANALYSES_TABLE,),
    3: (SNAPSHOTS_TABLE,),
    4: (
        "ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX games_seq ON games (seq)",
        "ALTER TABLE games ADD COLUMN bot_due REAL",
        "ALTER TABLE games ADD COLUMN bot_failed INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX games_bots ON games (bot_due) WHERE bot_due IS NOT NULL",
    ),
    5: (
        "ALTER TABLE games ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE games ADD COLUMN turn_deadlines TEXT",
        # a game with a free seat for a friend only (not listed) leaves the public lists
        "UPDATE games SET public = 0 WHERE EXISTS (SELECT 1 FROM json_each(games.seats) AS s"
        " WHERE json_extract(s.value, '$.type') = 'human'"
        " AND json_extract(s.value, '$.token_hash') IS NULL"
        " AND json_extract(s.value, '$.listed') = 0)",
    ),
    # players' accounts (web.storage.accounts); running games say whose turn it is at their
    # next append
    6: ("ALTER TABLE games ADD COLUMN to_act TEXT", *account_tables("REAL", "INTEGER NOT NULL")),
    # the seats' time banks (option time_bank_s, issue 41): none in a game stored before
    7: ("ALTER TABLE games ADD COLUMN banks TEXT",),
    # "your turn" e-mails (web.storage.mail, issue 41)
    8: mail_tables("REAL", "INTEGER", "0"),
    # the table chat (web.storage.chat): stored games start with none
    9: (f"ALTER TABLE games ADD COLUMN {CHAT_COLUMN}", *chat_tables("REAL")),
    # the lobby's open tables and their settings (web.storage.lobby, issue 41)
    10: lobby_columns("REAL", "INTEGER", "1"),
}

SCHEMA_VERSION = max(MIGRATIONS) + 1

#: A run of 19 digits, which orjson may not read exactly (beyond 64 bits: ``SqliteStore._decode``),
#: found as 19 NUL bytes once every ASCII digit of the text's UTF-8 is NUL (a JSON text has no raw
#: NUL; a byte translation and a search are C loops: 10-20 times faster than ``re``'s ``\d{19}``).
_DIGITS_AS_NUL = bytes.maketrans(b"0123456789", b"\0" * 10)
_LONG_NUMBER = b"\0" * 19

#: The next value of ``games.seq`` (written inside the write transaction, which SQLite runs one
#: at a time: so ``seq`` grows in commit order, and a reader never sees a gap filled later).
NEXT_SEQ = "(SELECT COALESCE(MAX(seq), 0) + 1 FROM games)"


def _locked(e: sqlite3.OperationalError) -> bool:
    return "locked" in str(e) or "busy" in str(e)


@contextmanager
def _refusing_locks(conn: sqlite3.Connection) -> Iterator[None]:
    """A "database is locked" in the block is ``DatabaseUnavailable`` (503); a transaction the
    block left open (a failure between BEGIN and COMMIT or ROLLBACK) is rolled back."""
    try:
        yield
    except sqlite3.OperationalError as e:
        if _locked(e):
            raise DatabaseUnavailable(f"the game database is locked: {e}") from e
        raise
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


def _while_locked(step: Callable[[], None]) -> None:
    """Run ``step`` until it gets past "database is locked", for up to ``BUSY_TIMEOUT_S``.
    When several workers open one new file at once, one of them switches it to WAL while the
    others open it: the switch takes a lock for which SQLite does not wait on the busy timeout,
    and a connection opened meanwhile may find the file locked on its first statement; each
    attempt starts again from a fresh connection."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    pause = 0.002
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as e:
            if not _locked(e) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def _waiting_for_locks(step: Callable[[], T]) -> T:
    """Run a step of the writing connection (its opening, its ``BEGIN IMMEDIATE``), whose busy
    handler is off (it sleeps in C, and would hold up every other request of an event loop):
    while another process holds the lock, sleep between tries (1 ms, 2 ms, 4 ms ... 50 ms) for
    up to ``LOCK_WAIT_S``, then refuse the request (``DatabaseUnavailable``). Once SQLite's
    write lock is held, no statement of the transaction waits for another writer."""
    deadline = time.monotonic() + LOCK_WAIT_S
    pause = 0.001
    while True:
        try:
            return step()
        except sqlite3.OperationalError as e:
            if not _locked(e):
                raise
            if time.monotonic() + pause > deadline:
                raise DatabaseUnavailable(
                    f"the game database stayed locked for {LOCK_WAIT_S:g} s"
                ) from e
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _use_wal(conn: sqlite3.Connection, path: str) -> None:
    """Put the file in WAL mode (kept in the file, so later connections need not ask)."""
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    if mode != "wal":
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode != "wal":
        raise RuntimeError(f"{path} cannot use write-ahead logging (mode {mode})")


class SqliteWatcher(Watcher):
    """Every ``WATCH_TICK_S``, one query for the rows changed since the last (``seq`` above the
    highest seen), whatever the number of games followed; their followers are woken and read
    the row (the change may be an append or a bot's mark)."""

    name = "sqlite-watcher"

    def __init__(self, store: SqliteStore) -> None:
        super().__init__()
        self.store = store

    def run(self, closed: threading.Event) -> None:
        with self.store.connection() as conn:
            last = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM games").fetchone()[0]
            self.listening()
            while not closed.wait(WATCH_TICK_S):
                rows = conn.execute(
                    "SELECT id, seq FROM games WHERE seq > ? ORDER BY seq", (last,)
                ).fetchall()
                for game_id, seq in rows:
                    last = seq
                    self.wake(game_id, None)  # an append or a bot's mark: followers look


class SqliteStore(SqlStore):
    """The SQLite store. Thread-safe, and friendly to an event loop (gevent): a statement or a
    transaction borrows one of the process's connections (``connection``; a forked process
    opens its own), and a write waits for another process's lock by sleeping between tries
    (``_waiting_for_locks``), never inside SQLite."""

    # BEGIN IMMEDIATE has locked the database; an append takes the next seq in its own UPDATE
    sql = Statements(
        param="?",
        row_lock="",
        append_mark=f", seq = {NEXT_SEQ}",
        # in the write transaction, which SQLite runs one at a time: numbers in commit order
        next_rated="(SELECT COALESCE(MAX(rated), 0) + 1 FROM rating_changes)",
    )

    def __init__(self, path: str) -> None:
        self.path = path
        self._idle: list[sqlite3.Connection] = []
        self._pool_lock = threading.Lock()
        self._pid = os.getpid()
        self._write_lock = threading.Lock()  # this process's writers queue here, not in SQLite
        self._writer: sqlite3.Connection | None = None  # their connection (``_writing``)
        self._watcher = SqliteWatcher(self)
        parent = os.path.dirname(os.path.abspath(path))
        os.makedirs(parent, exist_ok=True)
        _while_locked(self._prepare_file)

    def _prepare_file(self) -> None:
        """Once per store, on a connection of its own that waits up to ``BUSY_TIMEOUT_S`` on
        SQLite's busy handler (no request is served yet): WAL on, then the schema brought to
        ``SCHEMA_VERSION`` in one write transaction."""
        conn = self._open(busy_s=BUSY_TIMEOUT_S)
        try:
            _use_wal(conn, self.path)
            with self._write_lock:
                conn.execute("BEGIN IMMEDIATE")
                self._set_up(conn)
                conn.execute("COMMIT")
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.close()

    def _set_up(self, conn: sqlite3.Connection) -> None:
        found = conn.execute("PRAGMA user_version").fetchone()[0]
        schema = [statement for statement in SCHEMA.split(";") if statement.strip()]
        schema += [
            *account_tables("REAL", "INTEGER NOT NULL"),
            *mail_tables("REAL", "INTEGER", "0"),
            *chat_tables("REAL"),
            *lobby_indexes(),
        ]
        for statement in schema_steps(found, schema, MIGRATIONS, self.path):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def schema_version(self) -> int:
        row = self._one("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    # --- connections ---------------------------------------------------------------------

    def _open(self, busy_s: float = READ_BUSY_MS / 1000) -> sqlite3.Connection:
        """A new connection whose busy handler waits ``busy_s``. Its set-up statements read the
        schema, so they can meet a lock too (another process's checkpoint as it closes the
        file's last connection, or its WAL switch): the connection is closed and the
        ``OperationalError`` raised for the caller to wait or refuse."""
        conn = sqlite3.connect(
            self.path, timeout=busy_s, isolation_level=None, check_same_thread=False
        )
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    def _own_connections(self) -> None:
        """(Under ``_pool_lock``.) A forked process drops its parent's connections: not ours."""
        if self._pid != os.getpid():
            self._idle, self._writer, self._pid = [], None, os.getpid()

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """One of this process's connections for the block (opened when none is idle). A
        "database is locked" past SQLite's short wait is ``DatabaseUnavailable`` (503)."""
        with self._pool_lock:
            self._own_connections()
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            try:
                conn = self._open()
            except sqlite3.OperationalError as e:  # still locked past the busy handler's wait
                if _locked(e):
                    raise DatabaseUnavailable(f"the game database is locked: {e}") from e
                raise
        try:
            with _refusing_locks(conn):
                yield conn
        finally:
            with self._pool_lock:
                keep = self._pid == os.getpid() and len(self._idle) < POOL_IDLE
                if keep:
                    self._idle.append(conn)
            if not keep:
                conn.close()

    def _reading(self) -> AbstractContextManager[sqlite3.Connection]:
        return self.connection()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: this process's writers take turns (``_write_lock``) on its
        one writing connection, then SQLite's write lock is taken (``_waiting_for_locks``);
        leaving commits, an error rolls back."""
        with self._write_lock:
            with self._pool_lock:
                self._own_connections()
                conn = self._writer
            if conn is None:  # opened outside the pool's lock: it may wait for another process
                conn = _waiting_for_locks(lambda: self._open(busy_s=0))
                with self._pool_lock:
                    self._writer = conn
            with _refusing_locks(conn):
                _waiting_for_locks(lambda: conn.execute("BEGIN IMMEDIATE"))
                try:
                    yield conn
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")

    def watcher(self) -> SqliteWatcher:
        return self._watcher

    def close(self) -> None:
        self._watcher.close()
        with self._write_lock, self._pool_lock:
            idle, self._idle = self._idle, []
            if self._writer is not None and self._pid == os.getpid():
                idle.append(self._writer)
            self._writer = None
        for conn in idle:
            conn.close()

    # --- the shared SQL's layer (web.storage.sql) -------------------------------------------

    def _encode(self, value: Any, field_path: str) -> str:
        return storable_json(value, field_path)

    def _decode(self, value: Any) -> Any:
        """JSON text as its value: by orjson (several columns a move), or by the standard
        library when the text has a number of 19 digits or more, which orjson would read as a
        float where an integer was written."""
        if _LONG_NUMBER not in value.encode().translate(_DIGITS_AS_NUL):
            return orjson.loads(value)
        return json.loads(value)

    def _mark(self, conn: Connection, game_id: str, version: int | None) -> None:
        """The next ``seq`` for the game's row, taken in the write transaction (``NEXT_SEQ``)."""
        conn.execute(f"UPDATE games SET seq = {NEXT_SEQ} WHERE id = ?", (game_id,))
