"""``GameStore`` on PostgreSQL (psycopg 3 and its connection pool): the shared SQL
(``web.storage.sql``) for several app servers on one database.

The tables are the SQLite store's (``web.storage.sqlite``) with JSONB where that store keeps
JSON text: ``games`` (one row per game), ``actions`` (the log, ``PRIMARY KEY (game, version)``:
a version is never written twice), ``analyses`` (finished games' review analyses,
``web.review``), ``snapshots`` (each game's newest state snapshot, a cache), the accounts' tables
(``web.storage.accounts``), the table chat's (``web.storage.chat``) and ``schema_version`` (one
row). Opening the store creates the schema or runs ``MIGRATIONS`` under
an advisory lock, so app servers starting together on an empty database do not race.

A write is one transaction that begins with ``SELECT ... FROM games WHERE id = %s FOR UPDATE``:
the row lock (instead of SQLite's database lock) holds every other writer of this game until the
commit, so the version a request checks is still the version when it commits; two racing
requests on one version give one success and one ``StaleVersion`` (409), whichever server they
reached. Games other than the locked one are not held up. The transaction is one pipeline
(``_writing``): ``BEGIN`` goes with the ``SELECT``, ``COMMIT`` with the writes, two round trips
for a move (the row is locked for one); a new game, a snapshot or an analysis is one.

Events without polling: every append also runs ``pg_notify('tobago_games', '<id> <version>')``,
which PostgreSQL delivers at commit (never for a rolled-back write) to every listening
connection. Each process keeps one such connection (``PgWatcher``, ``web.storage.watch``) whose
thread wakes the streams and long-polls following that game; it reconnects after a lost
connection and then wakes every follower, so none misses a move made meanwhile.

A lost database is answered in words: pooled connections are checked on checkout (when idle for
more than ``CHECK_AFTER_S``), a request waits at most ``POOL_WAIT_S`` for one, and a database
that cannot be reached is ``DatabaseUnavailable`` (503 with ``Retry-After``), never a 500 or a
long wait; requests that need no database do not wait at all (under gevent, waiting yields).
When the database answers again, the pool connects within a second or so: its failed
reconnections give up after ``RECONNECT_S``, and a request that finds the pool short starts a
new one at once.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from errors import DatabaseUnavailable, StorageFull, StorageReadOnly
from web.storage import storable_json
from web.storage.accounts import account_tables
from web.storage.chat import CHAT_COLUMN, chat_tables
from web.storage.lobby import lobby_columns, lobby_indexes
from web.storage.mail import mail_tables
from web.storage.sql import Connection, SqlStore, Statements, schema_steps
from web.storage.watch import Watcher

log = logging.getLogger(__name__)

#: What a lost or unreachable database raises (``DatabaseUnavailable`` then).
_LOST = (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout, PoolClosed)

#: The channel of change notifications; the payload is ``"<game id> <version>"`` after an
#: append, ``"<game id>"`` when the log did not move (what the page shows of the bots changed,
#: or a chat line was added).
CHANNEL = "tobago_games"
#: Connections per process (each thread holds one only while it runs a statement or a write).
POOL_SIZE = 10
#: How long a request waits for a pooled connection before it is refused (503).
POOL_WAIT_S = 1.0
#: A new connection gives up after this long (libpq's ``connect_timeout``, seconds).
CONNECT_TIMEOUT_S = 2
#: A pooled connection that cannot be made again gives up after this long (seconds): the pool
#: then tries anew as soon as a request needs one, instead of waiting out its back-off (1, 2,
#: 4, 8 s ...), so the first good answer follows the database's return within a second or so.
RECONNECT_S = 2.0
#: A pooled connection idle longer than this is checked before it is handed out (seconds).
CHECK_AFTER_S = 1.0
#: A constant key for ``pg_advisory_xact_lock``: one schema set-up at a time.
_SETUP_LOCK = 0x70B460

SCHEMA = (
    """CREATE TABLE games (
        id         TEXT PRIMARY KEY,
        kind       TEXT NOT NULL,
        options    JSONB NOT NULL,
        seed       BIGINT NOT NULL,
        seats      JSONB NOT NULL,
        version    INTEGER NOT NULL DEFAULT 0,
        status     TEXT NOT NULL CHECK (status IN ('running', 'over')),
        origin     TEXT NOT NULL DEFAULT 'play' CHECK (origin IN ('play', 'import')),
        free_seats INTEGER NOT NULL DEFAULT 0,
        created    DOUBLE PRECISION NOT NULL,
        updated    DOUBLE PRECISION NOT NULL,
        deadline   DOUBLE PRECISION,
        bot_due    DOUBLE PRECISION,
        bot_failed BOOLEAN NOT NULL DEFAULT FALSE,
        seed_chosen BOOLEAN NOT NULL DEFAULT FALSE,
        public     BOOLEAN NOT NULL DEFAULT TRUE,
        turn_deadlines JSONB,
        to_act     JSONB,
        banks      JSONB,
        chat       INTEGER NOT NULL DEFAULT 0,
        rated      BOOLEAN NOT NULL DEFAULT TRUE,
        lobby      TEXT,
        lobby_until DOUBLE PRECISION,
        fill_at    DOUBLE PRECISION,
        fill_level TEXT
    )""",
    "CREATE INDEX games_open ON games (status, free_seats, created)",
    "CREATE INDEX games_bots ON games (bot_due) WHERE bot_due IS NOT NULL",
    "CREATE INDEX games_created ON games (created)",
    "CREATE INDEX games_due ON games (deadline) WHERE deadline IS NOT NULL",
    """CREATE TABLE actions (
        game    TEXT NOT NULL REFERENCES games (id),
        version INTEGER NOT NULL CHECK (version >= 1),
        seat    INTEGER,
        action  JSONB NOT NULL,
        events  JSONB NOT NULL,
        time    DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, version)
    )""",
    """CREATE TABLE analyses (
        game    TEXT PRIMARY KEY REFERENCES games (id),
        version INTEGER NOT NULL,
        status  TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        done    INTEGER NOT NULL DEFAULT 0,
        total   INTEGER NOT NULL DEFAULT 0,
        result  JSONB,
        error   TEXT,
        updated DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE snapshots (
        game    TEXT PRIMARY KEY REFERENCES games (id),
        version INTEGER NOT NULL,
        state   JSONB NOT NULL
    )""",
    *account_tables("DOUBLE PRECISION", "BIGSERIAL"),
    *mail_tables("DOUBLE PRECISION", "BOOLEAN", "FALSE"),
    *chat_tables("DOUBLE PRECISION"),
    *lobby_indexes(),
)

#: Statements that bring a database from schema version ``v`` to ``v + 1``.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "ALTER TABLE games ADD COLUMN bot_due DOUBLE PRECISION",
        "ALTER TABLE games ADD COLUMN bot_failed BOOLEAN NOT NULL DEFAULT FALSE",
        "CREATE INDEX games_bots ON games (bot_due) WHERE bot_due IS NOT NULL",
    ),
    2: (
        "ALTER TABLE games ADD COLUMN seed_chosen BOOLEAN NOT NULL DEFAULT FALSE",
        "ALTER TABLE games ADD COLUMN public BOOLEAN NOT NULL DEFAULT TRUE",
        "ALTER TABLE games ADD COLUMN turn_deadlines JSONB",
        # a game with a free seat for a friend only (not listed) leaves the public lists
        "UPDATE games SET public = FALSE WHERE EXISTS (SELECT 1 FROM"
        " jsonb_array_elements(games.seats) AS s WHERE s->>'type' = 'human'"
        " AND s->>'token_hash' IS NULL AND s->'listed' = 'false'::jsonb)",
    ),
    # players' accounts (web.storage.accounts); running games say whose turn it is at their
    # next append
    3: (
        "ALTER TABLE games ADD COLUMN to_act JSONB",
        *account_tables("DOUBLE PRECISION", "BIGSERIAL"),
    ),
    # the seats' time banks (option time_bank_s, issue 41): none in a game stored before
    4: ("ALTER TABLE games ADD COLUMN banks JSONB",),
    # "your turn" e-mails (web.storage.mail, issue 41)
    5: mail_tables("DOUBLE PRECISION", "BOOLEAN", "FALSE"),
    # the table chat (web.storage.chat): stored games start with none
    6: (f"ALTER TABLE games ADD COLUMN {CHAT_COLUMN}", *chat_tables("DOUBLE PRECISION")),
    # the lobby's open tables and their settings (web.storage.lobby, issue 41)
    7: lobby_columns("DOUBLE PRECISION", "BOOLEAN", "TRUE"),
}

SCHEMA_VERSION = max(MIGRATIONS) + 1

#: A connection of the pool: autocommit, rows by column name.
PgConnection = psycopg.Connection[DictRow]
#: Where a write transaction that did not commit is left (then rolled back).
_UNFINISHED = (TransactionStatus.INTRANS, TransactionStatus.INERROR)


def _as_is(text: Any) -> str:
    return str(text)


class PgWatcher(Watcher):
    """One ``LISTEN`` connection per process: each notification wakes that game's followers;
    after a lost connection it reconnects (every ``RECONNECT_S``) and wakes every follower."""

    name = "pg-watcher"
    RECONNECT_S = 0.5

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def run(self, closed: threading.Event) -> None:
        connected_once = False
        while not closed.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=2) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if connected_once:
                        self.wake_all()  # whatever happened meanwhile: look again
                    connected_once = True
                    self.listening()
                    while not closed.is_set():
                        for note in conn.notifies(timeout=1.0):
                            game_id, _, version = note.payload.partition(" ")
                            self.wake(game_id, int(version) if version.isdigit() else None)
            except psycopg.Error as e:  # a lost connection; a bug is the watcher's guard's to log
                if closed.is_set():
                    return
                log.warning("PostgreSQL watcher lost its connection (%r); reconnecting", e)
                closed.wait(self.RECONNECT_S)


class PostgresStore(SqlStore):
    """The PostgreSQL store for a ``postgresql://`` URL. Thread-safe (a connection pool); a
    forked process opens its own pool and listener on first use."""

    sql = Statements(
        param="%s",
        row_lock=" FOR UPDATE",
        key_lock="SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
    )

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self.pool_size = pool_size
        self._pid = -1
        self._pool_obj: ConnectionPool[PgConnection] | None = None
        self._watcher = PgWatcher(url)
        self._open_lock = threading.Lock()
        self._used: weakref.WeakKeyDictionary[PgConnection, float] = weakref.WeakKeyDictionary()
        with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S) as conn:
            self._set_up(conn)

    # --- schema ----------------------------------------------------------------------------

    @staticmethod
    def _set_up(conn: psycopg.Connection) -> None:
        """Create or migrate the schema, once however many servers start together. An
        up-to-date database is only read (a standby, or one set read-only, serves reads)."""
        if conn.execute("SELECT to_regclass('schema_version')").fetchone() != (None,):
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            if row is not None and row[0] == SCHEMA_VERSION:
                return
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (one BOOLEAN PRIMARY KEY DEFAULT TRUE"
                " CHECK (one), version INTEGER NOT NULL)"
            )
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            found = 0 if row is None else row[0]
            for statement in schema_steps(found, SCHEMA, MIGRATIONS, "the database"):
                conn.execute(statement)
            if found == 0:
                conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (SCHEMA_VERSION,))
            elif found < SCHEMA_VERSION:
                conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION,))

    @property
    def schema_version(self) -> int:
        row = self._one("SELECT version FROM schema_version")
        assert row is not None
        return int(row["version"])

    # --- connections -----------------------------------------------------------------------

    def _pool(self) -> ConnectionPool[PgConnection]:
        pool = self._pool_obj
        if pool is not None and self._pid == os.getpid():
            return pool
        with self._open_lock:
            if self._pool_obj is None or self._pid != os.getpid():
                self._pool_obj = ConnectionPool(
                    self.url,
                    connection_class=PgConnection,
                    min_size=self.pool_size,  # ready for a rush (a restart's reconnecting pages)
                    max_size=self.pool_size,
                    kwargs={
                        "autocommit": True,
                        "connect_timeout": CONNECT_TIMEOUT_S,
                        "row_factory": dict_row,
                    },
                    check=self._check,
                    timeout=POOL_WAIT_S,
                    reconnect_timeout=RECONNECT_S,
                    open=True,
                    name="tobago",
                )
                self._pid = os.getpid()
            return self._pool_obj

    @contextmanager
    def _connection(self) -> Iterator[PgConnection]:
        """A pooled connection (checked on checkout) for the block. A database that cannot be
        reached (lost, restarting, no connection within ``POOL_WAIT_S``) is
        ``DatabaseUnavailable`` (503, ``Retry-After``), never a 500 or a long wait; a full
        disk is ``StorageFull``, a database that takes no writes ``StorageReadOnly``."""
        try:
            with self._pool().connection() as conn:
                yield conn
                self._used[conn] = time.monotonic()
        except psycopg.errors.DiskFull as e:  # (an OperationalError: before _LOST)
            raise StorageFull(f"the game database's disk is full: {e}") from e
        except psycopg.errors.ReadOnlySqlTransaction as e:  # a standby, or read-only by setting
            raise StorageReadOnly(f"the game database takes no writes: {e}") from e
        except _LOST as e:
            raise DatabaseUnavailable(f"the game database cannot be reached: {e}") from e

    def _check(self, conn: PgConnection) -> None:
        """The pool's check of a connection it hands out: one used within ``CHECK_AFTER_S`` is
        taken as it is (a round trip saved on every statement of a busy server: a fault since
        then fails its statement, a 503, and the pool drops it), an older one is asked first."""
        if time.monotonic() - self._used.get(conn, 0.0) > CHECK_AFTER_S:
            ConnectionPool.check_connection(conn)

    def _reading(self) -> AbstractContextManager[PgConnection]:
        return self._connection()

    @contextmanager
    def _writing(self) -> Iterator[PgConnection]:
        """A write transaction in one pipeline: ``BEGIN`` is sent with the block's first read
        (a transaction's ``SELECT ... FOR UPDATE``), ``COMMIT`` with its last writes, so a move
        takes two round trips and a new game one. psycopg's ``transaction()`` would sync the
        pipeline at its start and its end (more round trips); here the block's failure queues a
        ``ROLLBACK`` instead, and a transaction the pipeline left open (a statement refused
        by the database) is rolled back before the connection goes back to the pool."""
        with self._connection() as conn:
            try:
                with conn.pipeline():
                    conn.execute("BEGIN")
                    try:
                        yield conn
                    except BaseException:
                        with suppress(psycopg.Error):  # the block's error is the one to raise
                            conn.execute("ROLLBACK")
                        raise
                    conn.execute("COMMIT")
            finally:
                if conn.info.transaction_status in _UNFINISHED:
                    conn.rollback()

    def watcher(self) -> PgWatcher:
        return self._watcher

    def close(self) -> None:
        self._watcher.close()
        with self._open_lock:
            if self._pool_obj is not None and self._pid == os.getpid():
                self._pool_obj.close()
            self._pool_obj = None

    # --- the shared SQL's layer (web.storage.sql) -------------------------------------------

    def _encode(self, value: Any, field_path: str) -> Jsonb:
        """A JSONB parameter, its text written (and checked) once by ``storable_json``."""
        return Jsonb(storable_json(value, field_path), dumps=_as_is)

    def _decode(self, value: Any) -> Any:
        """A JSONB column as psycopg gives it: already decoded."""
        return value

    def _mark(self, conn: Connection, game_id: str, version: int | None) -> None:
        """A notification on ``CHANNEL`` (``"<id> <version>"``, or ``"<id>"``), which
        PostgreSQL delivers to every listener at the commit."""
        payload = game_id if version is None else f"{game_id} {version}"
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
