"""What only the SQLite store has, on a real file: its pragmas (WAL, busy timeout), the raw
table's refusal of a doubled version, tokens absent from the file's bytes, and its schema
migrations (``PRAGMA user_version``, ``MIGRATIONS``). The store suite both stores pass is
``tests/test_storage.py``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.testgame import BlindAuction
from web.storage import RUNNING, ActionRecord, GameRecord, Seat
from web.storage.sessions import GameSessions
from web.storage.sqlite import SCHEMA_VERSION, SqliteStore


@pytest.fixture(autouse=True)
def _registered(monkeypatch):
    import games.base

    games.base.kinds()
    monkeypatch.setitem(games.base._REGISTRY, "blind_auction", BlindAuction())


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def store(db):
    s = SqliteStore(db)
    yield s
    s.close()


def test_schema_pragmas_wal_and_busy_timeout(store, db):
    conn = store._conn()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "actions", "analyses", "snapshots"} <= tables
    cols = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    assert {"kind", "options", "seed", "seats", "version", "status", "created", "updated"} <= cols
    cols = {r[1] for r in conn.execute("PRAGMA table_info(actions)")}
    assert {"game", "version", "seat", "action", "time"} <= cols
    assert store.schema_version == SCHEMA_VERSION == 4


def test_a_version_cannot_be_written_twice(store):
    store.create(GameRecord("g1", "blind_auction", {}, 5, [Seat(0, "human")]), [])
    conn = store._conn()
    conn.execute(
        "INSERT INTO actions (game, version, seat, action, events, time) VALUES ('g1', 1, 0, '{}', '[]', 0)"
    )
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO actions (game, version, seat, action, events, time) VALUES ('g1', 1, 1, '{}', '[]', 0)"
        )


def test_tokens_are_not_in_the_file(db):
    sessions = GameSessions(SqliteStore(db))
    humans = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]
    _, tokens, _ = sessions.create("blind_auction", humans, None, 1)
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


def test_a_version_3_database_gains_the_snapshots_table(db):
    with sqlite3.connect(db) as conn:
        conn.executescript(V1_SCHEMA)
    SqliteStore(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE snapshots")
        conn.execute("PRAGMA user_version = 3")
    store = SqliteStore(db)
    store.save_snapshot("g1", 1, {"x": 1})
    assert store.snapshot("g1").state == {"x": 1} and store.schema_version == SCHEMA_VERSION


def test_a_database_from_newer_code_is_refused(db):
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match="schema version 99"):
        SqliteStore(db)
