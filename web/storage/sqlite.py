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
opens or begins) is waited for by sleeping between tries (``waiting_for_locks``: a gevent sleep
under gevent), not in SQLite's busy handler, which sleeps in C. The queue and that wait have one
deadline, ``LOCK_WAIT_S`` from when the write asked: past it the request is refused with
``DatabaseUnavailable`` (503, ``Retry-After``), as is a read whose new connection is still locked
out past ``READ_BUSY_MS``. A full disk, a file at the size it may take (``max_bytes``) or a
read-only file refuses a write whole (503 ``storage_full``, ``storage_read_only``:
``web.storage.sqlite_faults``), and reads go on; a file that cannot be written is served
read-only when its schema is up to date. Every append (and a
change of what the page shows of the bots) gives the game's row the next ``seq`` of one counter
(``_mark``), so ``SqliteWatcher`` finds every change since its last look with one query. The
schema version is ``PRAGMA user_version``; ``MIGRATIONS`` bring an older file up to date.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any
from urllib.parse import quote

import orjson

from errors import DatabaseUnavailable, StorageReadOnly
from web.storage import storable_json, write_deadline
from web.storage.accounts import account_tables
from web.storage.chat import CHAT_COLUMN, chat_tables
from web.storage.lobby import lobby_columns, lobby_indexes
from web.storage.mail import mail_tables
from web.storage.sql import Connection, SqlStore, Statements, schema_steps
from web.storage.sqlite_faults import (
    OPEN_WAIT_S,
    SQLITE_CANTOPEN,
    SQLITE_IOERR,
    SQLITE_READONLY,
    WriteHealth,
    primary_code,
    refusal,
    roll_back,
    waiting_for_locks,
    while_locked,
)
from web.storage.watch import Watcher

log = logging.getLogger(__name__)

#: How long a write waits, from when it asks, for this process's other writers and then for
#: SQLite's write lock held by another process, before the request is refused
#: (``DatabaseUnavailable``, 503): writes hold it for a millisecond or two. The app's
#: ``SQLITE_LOCK_WAIT_S`` setting (``TOBAGO_SQLITE_LOCK_WAIT_S``) gives a store another.
LOCK_WAIT_S = 5.0
#: SQLite's own busy handler for reads (it sleeps in C, holding up an event loop): in WAL mode
#: they do not wait for writers, so this is a safety net, never a queue. The writing connection
#: has none (``waiting_for_locks``).
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
    (``waiting_for_locks``), never inside SQLite.

    ``lock_wait_s``: how long a write may wait for the locks (``LOCK_WAIT_S`` when ``None``);
    ``max_bytes``: the size the file may grow to (``PRAGMA max_page_count`` on the writing
    connection: past it writes are refused as for a full disk, 503 ``storage_full``);
    ``read_only``: serve the file without ever writing it. A file that cannot be written (a
    read-only volume or file) is served read-only too, when its schema is up to date
    (``_open_read_only``); every write is then refused, 503 ``storage_read_only``."""

    # BEGIN IMMEDIATE has locked the database; an append takes the next seq in its own UPDATE
    sql = Statements(
        param="?",
        row_lock="",
        append_mark=f", seq = {NEXT_SEQ}",
        # in the write transaction, which SQLite runs one at a time: numbers in commit order
        next_rated="(SELECT COALESCE(MAX(rated), 0) + 1 FROM rating_changes)",
    )

    def __init__(
        self,
        path: str,
        lock_wait_s: float | None = None,
        max_bytes: int | None = None,
        read_only: bool = False,
    ) -> None:
        self.path = path
        self.lock_wait_s = lock_wait_s
        self.max_bytes = max_bytes
        self._target, self._uri = path, False  # what connections open (a URI when read-only)
        self._idle: list[sqlite3.Connection] = []
        self._pool_lock = threading.Lock()
        self._pid = os.getpid()
        self._write_lock = threading.Lock()  # this process's writers queue here, not in SQLite
        self._writer: sqlite3.Connection | None = None  # their connection (``_writing``)
        self._watcher = SqliteWatcher(self)
        if not read_only:
            read_only = self._prepare()
        if read_only:
            self._open_read_only()
        self.health = WriteHealth(read_only)

    def _prepare(self) -> bool:
        """Make the file ready (``_prepare_file``); whether it turned out not to be writable
        (an existing file on a read-only volume, or read-only itself: then served read-only)."""
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        try:
            while_locked(self._prepare_file)
        except sqlite3.OperationalError as e:
            cannot_write = primary_code(e) in (SQLITE_READONLY, SQLITE_CANTOPEN)
            if not (cannot_write and os.path.isfile(self.path)):
                raise
            log.warning("%s cannot be written (%s): serving it read-only", self.path, e)
            return True
        if not os.access(self.path, os.W_OK):  # SQLite opened it read-only by itself
            log.warning("%s cannot be written: serving it read-only", self.path)
            return True
        return False

    def _prepare_file(self) -> None:
        """Once per store, on a connection of its own that waits up to ``OPEN_WAIT_S`` on
        SQLite's busy handler (no request is served yet): WAL on, then the schema brought to
        ``SCHEMA_VERSION`` in one write transaction."""
        conn = self._open(busy_s=OPEN_WAIT_S)
        try:
            _use_wal(conn, self.path)
            with self._write_lock:
                conn.execute("BEGIN IMMEDIATE")
                self._set_up(conn)
                conn.execute("COMMIT")
        finally:
            roll_back(conn)
            conn.close()

    def _open_read_only(self) -> None:
        """Serve the file without writing it: connections open it with ``mode=ro``. A WAL file
        whose directory cannot be written (no ``-shm`` can be made) is opened ``immutable``
        (nobody can change it there), when it has no ``-wal`` with content SQLite would then
        not read. A file whose schema is not ``SCHEMA_VERSION`` cannot be served: the
        ``RuntimeError`` says so (it must be opened writable once, to be migrated)."""
        where = "file:" + quote(os.path.abspath(self.path))
        self._target, self._uri = f"{where}?mode=ro", True
        try:
            found = self._read_version()
        except sqlite3.OperationalError as e:
            wal = self.path + "-wal"
            if primary_code(e) != SQLITE_CANTOPEN or (
                os.path.exists(wal) and os.path.getsize(wal) > 0
            ):
                raise RuntimeError(f"{self.path} cannot be read: {e}") from e
            self._target = f"{where}?mode=ro&immutable=1"
            found = self._read_version()
        if found != SCHEMA_VERSION:
            raise RuntimeError(
                f"{self.path} is read-only at schema version {found}, and this code needs"
                f" version {SCHEMA_VERSION}: open it writable once, so that it is migrated"
            )

    def _read_version(self) -> int:
        conn = self._open(busy_s=OPEN_WAIT_S)
        try:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
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
        if found != SCHEMA_VERSION:  # an up-to-date file is not written: it may be full
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def schema_version(self) -> int:
        row = self._one("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    @property
    def write_wait_s(self) -> float:  # type: ignore[override]
        return LOCK_WAIT_S if self.lock_wait_s is None else self.lock_wait_s

    def write_refusal(self) -> str | None:
        return self.health.refusal()

    # --- connections ---------------------------------------------------------------------

    def _open(self, busy_s: float = READ_BUSY_MS / 1000) -> sqlite3.Connection:
        """A new connection whose busy handler waits ``busy_s``. Its set-up statements read the
        schema, so they can meet a lock too (another process's checkpoint as it closes the
        file's last connection, or its WAL switch): the connection is closed and the
        ``OperationalError`` raised for the caller to wait or refuse."""
        conn = sqlite3.connect(
            self._target,
            timeout=busy_s,
            isolation_level=None,
            check_same_thread=False,
            uri=self._uri,
        )
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_writer(self) -> sqlite3.Connection:
        """The writing connection: no busy handler (``waiting_for_locks``), and the file's
        size capped at ``max_bytes`` when given."""
        conn = self._open(busy_s=0)
        if self.max_bytes is not None:
            page = conn.execute("PRAGMA page_size").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {max(1, self.max_bytes // page)}")
        return conn

    def _own_connections(self) -> None:
        """(Under ``_pool_lock``.) A forked process drops its parent's connections: not ours."""
        if self._pid != os.getpid():
            self._idle, self._writer, self._pid = [], None, os.getpid()

    @contextmanager
    def _refusing(self, conn: sqlite3.Connection) -> Iterator[None]:
        """A fault of the database in the block is the 503 it stands for
        (``web.storage.sqlite_faults.refusal``; other SQLite errors are the code's, and stay
        themselves); a transaction the block left open is rolled back. A connection that
        met an I/O error, or could not roll back, is closed (``conn`` is then unfit)."""
        try:
            yield
        except sqlite3.Error as e:
            found = refusal(e, self.path)
            fit = roll_back(conn) and primary_code(e) != SQLITE_IOERR
            if not fit:
                self._drop(conn)
            if found is None:
                raise
            raise found from e
        except BaseException:
            if not roll_back(conn):
                self._drop(conn)
            raise

    def _drop(self, conn: sqlite3.Connection) -> None:
        """Close ``conn``, this process's writing connection or one of its pool: it will not
        be used again."""
        with self._pool_lock:
            if self._writer is conn:
                self._writer = None
            if conn in self._idle:
                self._idle.remove(conn)
        conn.close()

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """One of this process's connections for the block (opened when none is idle). A
        "database is locked" past SQLite's short wait, or another fault of the database, is
        ``DatabaseUnavailable`` (503)."""
        with self._pool_lock:
            self._own_connections()
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            try:
                conn = self._open()
            except sqlite3.Error as e:  # still locked past the busy handler's wait, say
                found = refusal(e, self.path)
                if found is None:
                    raise
                raise found from e
        fit = False
        try:
            with self._refusing(conn):
                yield conn
            fit = True
        finally:
            with self._pool_lock:
                keep = fit and self._pid == os.getpid() and len(self._idle) < POOL_IDLE
                if keep:
                    self._idle.append(conn)
            if not keep:
                conn.close()

    def _reading(self) -> AbstractContextManager[sqlite3.Connection]:
        return self.connection()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: this process's writers take turns (``_write_lock``) on its
        one writing connection, then SQLite's write lock is taken (``waiting_for_locks``);
        leaving commits, an error rolls back. The wait for both has one deadline,
        ``write_wait_s`` from when the write asked (``write_deadline``: the game's lock in
        this process, ``GameSessions``, counts too): a writer queued behind others that wait
        for another process is refused as promptly as the first (503). A fault (a full disk, a
        read-only file) is its 503 (``_refusing``), remembered for ``/healthz`` (``health``)."""
        if self.health.read_only:
            raise StorageReadOnly(f"{self.path} is served read-only: no write is taken")
        wait_s = self.write_wait_s
        with write_deadline(wait_s) as deadline:
            if not self._write_lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
                raise DatabaseUnavailable(
                    f"this process's writes waited {wait_s:g} s for the game database"
                )
        try:
            yield from self._transaction(deadline, wait_s)
        except DatabaseUnavailable as e:
            self.health.refused(e)
            raise
        finally:
            self._write_lock.release()

    def _transaction(self, deadline: float, wait_s: float) -> Iterator[sqlite3.Connection]:
        """(Under ``_write_lock``.) ``_writing``'s transaction on the writing connection."""
        with self._pool_lock:
            self._own_connections()
            conn = self._writer
        if conn is None:  # opened outside the pool's lock: it may wait for another process
            try:
                conn = waiting_for_locks(self._open_writer, deadline, wait_s)
            except sqlite3.Error as e:
                found = refusal(e, self.path)
                if found is None:
                    raise
                raise found from e
            with self._pool_lock:
                self._writer = conn
        with self._refusing(conn):
            waiting_for_locks(lambda: conn.execute("BEGIN IMMEDIATE"), deadline, wait_s)
            yield conn
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
