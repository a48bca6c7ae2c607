"""What only the SQLite store has, on a real file: its pragmas (WAL, busy timeout), the raw
table's refusal of a doubled version, tokens absent from the file's bytes, its schema
migrations (``PRAGMA user_version``, ``MIGRATIONS``), the change counter its watcher reads, and
a write lock held by another process past ``LOCK_WAIT_S`` (503, never a hang), and a file held
whole by another process as a connection opens (waited for, or 503: never a 500). The store suite
both stores pass is ``tests/test_storage.py``."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from errors import DatabaseUnavailable, Forbidden
from tests import schema_rewinds as back
from web.service.sessions import GameSessions
from web.storage import RUNNING, ActionRecord, GameRecord, Seat
from web.storage.chat import ChatLine
from web.storage.sqlite import READ_BUSY_MS, SCHEMA_VERSION, SqliteStore

pytestmark = pytest.mark.usefixtures("blind_auction")


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def store(db):
    s = SqliteStore(db)
    yield s
    s.close()


def test_schema_pragmas_wal_and_busy_timeout(store, db):
    _schema_checked(store)
    assert store.schema_version == SCHEMA_VERSION == 11


def _check_schema(conn: sqlite3.Connection) -> None:
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == READ_BUSY_MS
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "actions", "analyses", "snapshots"} <= tables
    cols = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    assert {"kind", "options", "seed", "seats", "version", "status", "created", "seq"} <= cols
    assert {"bot_due", "bot_failed", "seed_chosen", "public", "turn_deadlines"} <= cols
    indexes = {r[1] for r in conn.execute("PRAGMA index_list(games)")}
    assert {"games_seq", "games_bots"} <= indexes
    cols = {r[1] for r in conn.execute("PRAGMA table_info(actions)")}
    assert {"game", "version", "seat", "action", "time"} <= cols
    assert set(back.ACCOUNT_TABLES) <= tables and "chat" in tables
    games = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    assert {"to_act", "banks", "chat", *back.LOBBY_COLUMNS} <= games
    assert set(back.LOBBY_INDEXES) <= {r[1] for r in conn.execute("PRAGMA index_list(games)")}


def test_a_version_cannot_be_written_twice(store):
    store.create(GameRecord("g1", "blind_auction", {}, 5, [Seat(0, "human")]), [])
    with store.connection() as conn:
        conn.execute(
            "INSERT INTO actions (game, version, seat, action, events, time) VALUES ('g1', 1, 0, '{}', '[]', 0)"
        )
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(
                "INSERT INTO actions (game, version, seat, action, events, time) VALUES ('g1', 1, 1, '{}', '[]', 0)"
            )


def _seq(db: str, game_id: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT seq FROM games WHERE id = ?", (game_id,)).fetchone()[0]


def test_every_append_takes_the_next_change_number(store, db):
    for gid in ("g1", "g2"):
        store.create(GameRecord(gid, "blind_auction", {}, 5, [Seat(0, "human")]), [])
    first, second = _seq(db, "g1"), _seq(db, "g2")
    assert second == first + 1
    with store.transaction("g1") as tx:
        tx.append([ActionRecord(1, 0, {"type": "x"})], RUNNING, None)
    assert _seq(db, "g1") == second + 1


def test_a_write_lock_held_past_the_wait_is_a_503_and_reads_go_on(store, db, monkeypatch):
    import web.storage.sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "LOCK_WAIT_S", 0.5)
    store.create(GameRecord("g1", "blind_auction", {}, 5, [Seat(0, "human")]), [])
    other = sqlite3.connect(db, isolation_level=None)  # another process's writer
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(DatabaseUnavailable) as err, store.transaction("g1"):
            pass
        assert 0.4 < time.monotonic() - started < 2
        assert err.value.reason == "database_unavailable" and err.value.retry_after_s > 0
        assert store.get("g1").version == 0  # WAL: readers do not wait for the writer
    finally:
        other.execute("ROLLBACK")
        other.close()
    with store.transaction("g1") as tx:  # free again
        tx.append([ActionRecord(1, 0, {"type": "x"})], RUNNING, None)


def test_a_file_held_whole_as_a_connection_opens_is_waited_for_or_refused(db):
    """Another process may hold the whole file for a moment (its checkpoint as it closes the
    file's last connection, its WAL switch). A process's first read or write opens a connection
    then, whose set-up statements read the schema: the read is refused past its short wait (503)
    and the write waits for the lock to go; neither is a raw SQLite error (a 500)."""
    SqliteStore(db).close()
    store = SqliteStore(db)  # no connection open yet: its set-up closed its own
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("PRAGMA locking_mode = EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    released = threading.Event()

    def release() -> None:
        other.execute("COMMIT")
        other.close()
        released.set()

    try:
        with pytest.raises(DatabaseUnavailable):
            store.get("g1")
        threading.Timer(0.3, release).start()
        store.create(GameRecord("g1", "blind_auction", {}, 5, [Seat(0, "human")]), [])
        assert released.is_set()  # it waited for the lock, and wrote once it was free
        assert store.get("g1").version == 0
    finally:
        released.wait(5)
        store.close()


def test_tokens_are_not_in_the_file(db):
    sessions = GameSessions(SqliteStore(db))
    humans = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]
    _, tokens, _, _ = sessions.create("blind_auction", humans, None, 1)
    raw = b"".join(Path(p).read_bytes() for p in (db, db + "-wal") if Path(p).exists())
    for token in tokens.values():
        assert token.encode() not in raw


V1_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL, seats TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL, origin TEXT NOT NULL DEFAULT 'play',
    free_seats INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE actions (game TEXT NOT NULL REFERENCES games (id),
    version INTEGER NOT NULL CHECK (version >= 1), seat INTEGER NOT NULL, action TEXT NOT NULL,
    events TEXT NOT NULL, time REAL NOT NULL, PRIMARY KEY (game, version)) WITHOUT ROWID;
INSERT INTO games VALUES ('g1', 'blind_auction', '{"rounds": 3, "tie": "discard"}', 7,
    '[{"index": 0, "type": "human"}, {"index": 1, "type": "human"}]', 1, 'running', 'play', 0,
    1.0, 2.0);
INSERT INTO actions VALUES ('g1', 1, 0, '{"type": "bid", "card": 3}', '[]', 2.0);
PRAGMA user_version = 1;
"""


def test_a_version_1_database_is_migrated_keeping_every_game(db):
    with sqlite3.connect(db) as conn:
        conn.executescript(V1_SCHEMA)
    store = SqliteStore(db)
    game = store.get("g1")
    assert (game.version, game.deadline) == (1, None)
    assert [(a.version, a.seat, a.action) for a in store.actions("g1")] == [
        (1, 0, {"type": "bid", "card": 3})
    ]
    with store.transaction("g1") as tx:  # the new schema takes the table's own entries
        tx.append([ActionRecord(2, None, {"type": "timeout"})], RUNNING, 9.5)
    assert store.actions("g1", after=1)[0].seat is None and store.get("g1").deadline == 9.5
    assert store.snapshot("g1") is None and store.analysis("g1") is None  # versions 3 and 4
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    _schema_checked(store)
    assert _seq(db, "g1") > 0  # the append of version 2 numbered the change


def old_database(
    db: str, version: int, rewind: Callable[[sqlite3.Connection], None]
) -> SqliteStore:
    """The store on a file as code of schema ``version`` left it: version 1's schema brought up
    to date, then taken back by ``rewind`` and marked ``version``; opening it migrates it."""
    with sqlite3.connect(db) as conn:
        conn.executescript(V1_SCHEMA)
    SqliteStore(db).close()
    with sqlite3.connect(db) as conn:
        rewind(conn)
        conn.execute(f"PRAGMA user_version = {version}")
    return SqliteStore(db)


def _schema_checked(store: SqliteStore) -> None:
    """The migrated schema is today's (``_check_schema``)."""
    with store.connection() as conn:
        _check_schema(conn)


def _before_snapshots(conn: sqlite3.Connection) -> None:
    """Back to schema version 3: no snapshots, seq or bot marks."""
    conn.execute("DROP TABLE snapshots")
    for index, column in (("games_seq", "seq"), ("games_bots", "bot_due")):
        conn.execute(f"DROP INDEX {index}")
        conn.execute(f"ALTER TABLE games DROP COLUMN {column}")
    for column in ("bot_failed", "seed_chosen", "public", "turn_deadlines"):
        conn.execute(f"ALTER TABLE games DROP COLUMN {column}")
    back.before_accounts(conn)


def test_a_version_3_database_gains_the_snapshots_table_and_the_change_counter(db):
    store = old_database(db, 3, _before_snapshots)
    store.save_snapshot("g1", 1, {"x": 1})
    assert store.snapshot("g1").state == {"x": 1} and store.schema_version == SCHEMA_VERSION
    _schema_checked(store)


def test_a_version_9_database_gains_the_table_chat(db):
    """Games stored before the chat have none, and take lines from then on."""
    store = old_database(db, 9, back.before_chat)
    assert store.schema_version == SCHEMA_VERSION and store.get("g1").chat == 0
    assert store.chat("g1") == []
    with store.transaction("g1") as tx:
        tx.add_chat(ChatLine(1, 0, "hello", 5.0, 6.0))
    assert store.get("g1").chat == 1 and [x.text for x in store.chat("g1")] == ["hello"]
    _schema_checked(store)
    store.close()


def _seats(*seats: dict) -> str:
    return json.dumps([{"index": i, **s} for i, s in enumerate(seats)])


def test_a_version_5_database_gains_chosen_seeds_public_games_and_turn_deadlines(db):
    """Games stored before invitations: one whose free seat is for a friend only leaves the
    public lists (and that seat, with no secret to its link, can no longer be claimed); a listed
    seat stays anyone's; seeds count as not chosen; no turn clock runs."""
    human = {"type": "human", "name": "Ana", "token_hash": "ab" * 32, "listed": False}
    rows = {
        "friend": _seats(human, {"type": "human", "listed": False}),
        "listed": _seats(human, {"type": "human", "listed": True}),
        "older": _seats({"type": "human"}, {"type": "human"}),  # before the listed flag
        "claimed": _seats(human, human),
    }

    def rewind(conn: sqlite3.Connection) -> None:  # version 5, and games it stored
        for column in ("seed_chosen", "public", "turn_deadlines"):
            conn.execute(f"ALTER TABLE games DROP COLUMN {column}")
        back.before_accounts(conn)
        for game_id, seats in rows.items():
            conn.execute(
                "INSERT INTO games (id, kind, options, seed, seats, version, status, origin,"
                " free_seats, created, updated) VALUES (?, 'blind_auction', '{}', 3, ?, 0,"
                " 'running', 'play', 0, 1.0, 1.0)",
                (game_id, seats),
            )

    store = old_database(db, 5, rewind)
    assert store.schema_version == SCHEMA_VERSION
    public = {game_id: store.get(game_id).public for game_id in [*rows, "g1"]}
    assert public == {"friend": False, "listed": True, "older": True, "claimed": True, "g1": True}
    friend = store.get("friend")
    assert not friend.seed_chosen and friend.turn_deadlines == {} and friend.deadline is None
    assert "friend" not in {g.id for g in store.list_games(False, 10)}
    sessions = GameSessions(store)
    with pytest.raises(Forbidden) as refused:
        sessions.claim("friend", 1, None, "any secret at all")
    assert refused.value.reason == "invite_required"
    assert sessions.claim("listed", 1, "Bo", None)[0].seats[1].name == "Bo"
    _schema_checked(store)


def test_a_version_7_database_gains_the_time_banks(db):
    """Games stored before time banks (issue 41) have none, and play on."""
    store = old_database(db, 7, back.before_banks)
    assert store.schema_version == SCHEMA_VERSION and store.get("g1").banks is None
    banks = {"left": {"0": 170.0, "1": 180.0}, "start": {"1": 5.0}, "opened": 1.0}
    with store.transaction("g1") as tx:
        tx.append([ActionRecord(2, None, {"type": "timeout"})], RUNNING, 9.5, banks=banks)
    assert store.get("g1").banks == banks
    _schema_checked(store)


def test_a_database_from_newer_code_is_refused(db):
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match="schema version 99"):
        SqliteStore(db)


def test_a_version_8_database_gains_the_turn_e_mails(db):
    """Accounts stored before turn e-mails (issue 41) have no address, and games play on."""
    store = old_database(db, 8, back.before_mail)
    assert store.schema_version == SCHEMA_VERSION and store.waiting(10) == []
    assert store.email_of("nobody") == (None, False)
    _schema_checked(store)


def test_a_version_10_database_gains_the_lobby(db):
    """Games stored before the lobby (issue 41) are rated tables, none open in the lobby."""
    store = old_database(db, 10, back.before_lobby)
    game = store.get("g1")
    assert store.schema_version == SCHEMA_VERSION and game.rated and game.lobby_until is None
    assert store.open_tables("blind_auction", 10) == []
    _schema_checked(store)
    store.close()
