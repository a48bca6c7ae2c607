"""What only the PostgreSQL store has, on a real server (``pg_cluster``, ``tests/pg_support.py``):
JSONB columns, the raw table's refusal of a doubled version, tokens absent from every row, its
recorded schema version and a safe set-up by servers starting together, and long-polls woken
by ``LISTEN/NOTIFY`` (at the commit, only for committed writes, again after a lost
connection; the 100 ms figure is checked across two servers in ``tests/test_pg_servers.py``),
and the round trips of a write (libpq's trace: a move takes two, a new game one). The store
suite both stores pass is ``tests/test_storage.py``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import psycopg
import pytest
from psycopg import pq
from psycopg.types.json import Jsonb

from errors import Forbidden, StorageReadOnly
from tests import schema_rewinds as back
from web.service.sessions import GameSessions
from web.storage import RUNNING, ActionRecord, GameRecord, Seat, VersionMoved
from web.storage.chat import ChatLine
from web.storage.postgres import SCHEMA_VERSION, PostgresStore

pytestmark = pytest.mark.usefixtures("blind_auction")


@pytest.fixture
def url(pg_cluster):
    return pg_cluster.new_database()


@pytest.fixture
def stores(url):
    opened: list[PostgresStore] = []

    def opener() -> PostgresStore:
        opened.append(PostgresStore(url))
        return opened[-1]

    yield opener
    for s in opened:
        s.close()


def _game(game_id: str = "g1") -> GameRecord:
    return GameRecord(
        game_id, "blind_auction", {"rounds": 3}, 5, [Seat(0, "human"), Seat(1, "human")]
    )


def test_json_columns_are_jsonb_and_the_schema_version_is_recorded(stores, url):
    store = stores()
    with psycopg.connect(url) as conn:
        types = dict(
            conn.execute(
                "SELECT table_name || '.' || column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = 'public'"
            ).fetchall()
        )
        recorded = conn.execute("SELECT version FROM schema_version").fetchall()
    for column in (
        "games.options",
        "games.seats",
        "actions.action",
        "actions.events",
        "snapshots.state",
        "games.banks",
    ):
        assert types[column] == "jsonb", column
    assert types["games.seed"] == "bigint"
    assert recorded == [(SCHEMA_VERSION,)] and store.schema_version == SCHEMA_VERSION


def test_a_version_cannot_be_written_twice(stores, url):
    stores().create(_game(), [])
    insert = (
        "INSERT INTO actions (game, version, seat, action, events, time)"
        " VALUES ('g1', 1, %s, '{}', '[]', 0)"
    )
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(insert, (0,))
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute(insert, (1,))


def test_tokens_are_in_no_row(stores, url):
    sessions = GameSessions(stores())
    _, tokens, _, _ = sessions.create(
        "blind_auction", [{"type": "human"}, {"type": "human"}], None, 1
    )
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT g::text FROM games g").fetchall()
        rows += conn.execute("SELECT a::text FROM actions a").fetchall()
    text = "".join(r[0] for r in rows)
    assert tokens and all(token not in text for token in tokens.values())


def test_a_database_that_takes_no_writes_serves_reads_and_refuses_writes_in_words(stores, url):
    """A standby, or a database set read-only: reads go on, a write is ``StorageReadOnly``
    (503 ``storage_read_only`` with Retry-After), nothing of it kept."""
    stores().create(_game(), [])
    with psycopg.connect(url, autocommit=True) as conn:
        name = conn.info.dbname
        conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    store = stores()  # its connections are opened after the change
    assert store.get("g1").version == 0
    with pytest.raises(StorageReadOnly) as refused:
        store.create(_game("g2"), [])
    assert refused.value.reason == "storage_read_only" and refused.value.retry_after_s > 0
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (1,)


def test_servers_starting_together_set_the_schema_up_once(url):
    opened: list[PostgresStore] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(6)

    def start() -> None:
        barrier.wait()
        try:
            opened.append(PostgresStore(url))
        except BaseException as e:  # noqa: BLE001 - the failure this test looks for, asserted after
            errors.append(e)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == [] and len(opened) == 6
        assert {s.schema_version for s in opened} == {SCHEMA_VERSION}
    finally:
        for s in opened:
            s.close()


def test_a_database_from_newer_code_is_refused(stores, url):
    stores()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(RuntimeError, match="schema version 99"):
        PostgresStore(url)


def test_a_version_2_database_gains_chosen_seeds_public_games_and_turn_deadlines(stores, url):
    """As the SQLite file's migration (``tests/test_storage_sqlite.py``): a stored game whose
    free seat is for a friend only leaves the public lists, and that seat, with no secret to its
    link, can no longer be claimed; a listed one stays anyone's; seeds count as not chosen."""
    stores().close()
    human = {"type": "human", "name": "Ana", "token_hash": "ab" * 32, "listed": False}
    rows = {
        "friend": [human, {"type": "human", "listed": False}],
        "listed": [human, {"type": "human", "listed": True}],
        "older": [{"type": "human"}, {"type": "human"}],  # before the listed flag
        "claimed": [human, human],
    }
    with psycopg.connect(url, autocommit=True) as conn:  # back to version 2
        for column in ("seed_chosen", "public", "turn_deadlines"):
            conn.execute(f"ALTER TABLE games DROP COLUMN {column}")
        back.before_accounts(conn)
        for game_id, seats in rows.items():
            indexed = [{"index": i, **s} for i, s in enumerate(seats)]
            conn.execute(
                "INSERT INTO games (id, kind, options, seed, seats, version, status, origin,"
                " free_seats, created, updated) VALUES (%s, 'blind_auction', '{}', 3, %s, 0,"
                " 'running', 'play', 0, 1.0, 1.0)",
                (game_id, Jsonb(indexed)),
            )
        conn.execute("UPDATE schema_version SET version = 2")
    store = stores()
    assert store.schema_version == SCHEMA_VERSION == 8
    public = {game_id: store.get(game_id).public for game_id in rows}
    assert public == {"friend": False, "listed": True, "older": True, "claimed": True}
    friend = store.get("friend")
    assert not friend.seed_chosen and friend.turn_deadlines == {} and friend.deadline is None
    assert {g.id for g in store.list_games(False, 10)} == {"listed", "older", "claimed"}
    sessions = GameSessions(store)
    with pytest.raises(Forbidden) as refused:
        sessions.claim("friend", 1, None, "any secret at all")
    assert refused.value.reason == "invite_required"
    assert sessions.claim("listed", 1, "Bo", None)[0].seats[1].name == "Bo"


def old_database(
    stores: Callable[[], PostgresStore],
    url: str,
    version: int,
    rewind: Callable[[psycopg.Connection], None],
) -> PostgresStore:
    """A store on a database as code of schema ``version`` left it: game ``g1`` stored by
    today's code, the schema taken back by ``rewind`` and marked ``version``; opening it
    migrates it."""
    first = stores()
    first.create(_game(), [])
    first.close()
    with psycopg.connect(url, autocommit=True) as conn:
        rewind(conn)
        conn.execute(f"UPDATE schema_version SET version = {version}")
    return stores()


def test_a_version_6_database_gains_the_table_chat(stores, url):
    """As the SQLite file's: games stored before the chat have none, and take lines."""
    store = old_database(stores, url, 6, back.before_chat)
    assert store.schema_version == SCHEMA_VERSION and store.get("g1").chat == 0
    with store.transaction("g1") as tx:
        tx.add_chat(ChatLine(1, 1, "hello", 5.0, 6.0))
    assert store.get("g1").chat == 1 and [x.seat for x in store.chat("g1")] == [1]


def test_a_version_4_database_gains_the_time_banks(stores, url):
    """As the SQLite file's: games stored before time banks (issue 41) have none, and play on."""
    store = old_database(stores, url, 4, back.before_banks)
    assert store.schema_version == SCHEMA_VERSION and store.get("g1").banks is None
    banks = {"left": {"0": 170.0, "1": 180.0}, "start": {"1": 5.0}, "opened": 1.0}
    with store.transaction("g1") as tx:
        tx.append([ActionRecord(1, None, {"type": "timeout"})], RUNNING, 9.5, banks=banks)
    assert store.get("g1").banks == banks


def test_a_version_7_database_gains_the_lobby(stores, url):
    """As the SQLite file's: games stored before the lobby are rated, none an open table."""
    store = old_database(stores, url, 7, back.before_lobby)
    assert store.schema_version == SCHEMA_VERSION and store.get("g1").rated
    assert store.open_tables("blind_auction", 10) == []


def test_a_version_5_database_gains_the_turn_e_mails(stores, url):
    """As the SQLite file's: accounts stored before turn e-mails have no address."""
    store = old_database(stores, url, 5, back.before_mail)
    assert store.schema_version == SCHEMA_VERSION and store.waiting(10) == []


def _append(store: PostgresStore, version: int, fail: bool = False) -> None:
    with store.transaction("g1") as tx:
        tx.append([ActionRecord(version, 0, {"type": "x"})], RUNNING, None)
        if fail:
            raise RuntimeError("refused after writing")


def test_a_waiting_read_is_woken_by_the_commit(stores):
    waiter, writer = stores(), stores()
    writer.create(_game(), [])
    woke: list[float] = []
    committed: list[float] = []

    def wait() -> None:
        waiter.wait("g1", 0, 10)
        woke.append(time.monotonic())

    thread = threading.Thread(target=wait)
    thread.start()
    time.sleep(0.3)  # the waiter is asleep on its notification by now
    _append(writer, 1)
    committed.append(time.monotonic())
    thread.join(10)
    assert woke and woke[0] - committed[0] < 1.0  # the notification, not the 10 s time-out


def test_a_rolled_back_write_wakes_nobody(stores):
    waiter, writer = stores(), stores()
    writer.create(_game(), [])
    with pytest.raises(RuntimeError):
        _append(writer, 1, fail=True)
    started = time.monotonic()
    assert waiter.wait("g1", 0, 0.5) == 0
    assert time.monotonic() - started >= 0.45


def _kill_listeners(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        killed = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE query LIKE 'LISTEN%%' AND datname = current_database()"
        ).fetchall()
    assert killed


def _waiting(store: PostgresStore, after: int) -> tuple[threading.Thread, list[float]]:
    woke: list[float] = []

    def run() -> None:
        store.wait("g1", after, 10)
        woke.append(time.monotonic())

    thread = threading.Thread(target=run)
    thread.start()
    return thread, woke


def test_a_move_made_while_the_listener_reconnects_still_wakes_the_waiter(stores, url):
    waiter, writer = stores(), stores()
    writer.create(_game(), [])
    thread, woke = _waiting(waiter, 0)
    time.sleep(0.3)
    _kill_listeners(url)
    _append(writer, 1)  # its notification is lost with the connection
    committed = time.monotonic()
    thread.join(10)
    assert woke and woke[0] - committed < 3  # woken by the reconnection, not the time-out
    thread, woke = _waiting(waiter, 1)  # and notifications flow again afterwards
    time.sleep(0.3)
    _append(writer, 2)
    committed = time.monotonic()
    thread.join(10)
    assert woke and woke[0] - committed < 1.0  # woken by the notification (time-out: 10 s)


def _round_trips(store: PostgresStore, work: Callable[[], object], tmp_path) -> int:
    """How often ``work()`` waits for the server on the store's one pooled connection: in
    libpq's trace of it, each turn from the client's messages (``F``) to the server's (``B``)."""
    trace = tmp_path / "trace.txt"
    with open(trace, "w") as out:
        with store._pool().connection() as conn:
            conn.pgconn.trace(out.fileno())
            conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        work()
        with store._pool().connection() as conn:
            conn.pgconn.untrace()  # flushes the trace
    sides = [line.split("\t", 1)[0] for line in trace.read_text().splitlines()]
    assert sides and set(sides) <= {"F", "B"}
    return sum(1 for a, b in zip(sides, sides[1:], strict=False) if (a, b) == ("F", "B"))


def test_a_move_takes_two_round_trips_and_a_new_game_one(url, tmp_path, monkeypatch):
    import web.storage.postgres as postgres_module

    monkeypatch.setattr(postgres_module, "CHECK_AFTER_S", float("inf"))  # no checkout check
    store = PostgresStore(url, pool_size=1)
    try:
        new_game = lambda: store.create(_game(), [ActionRecord(1, 0, {"type": "x"})])  # noqa: E731
        assert _round_trips(store, new_game, tmp_path) == 1

        def move() -> None:
            with store.transaction("g1") as tx:  # BEGIN and the row lock's SELECT: one
                tx.append([ActionRecord(2, 1, {"type": "x"})], RUNNING, None)  # with COMMIT
                tx.set_bot(1.0, False)

        assert _round_trips(store, move, tmp_path) == 2
        assert store.version("g1") == 2 and store.get("g1").bot_due == 1.0

        def lost_race() -> None:  # the version moved: nothing written, the lock let go
            with pytest.raises(VersionMoved), store.transaction("g1"):
                raise VersionMoved(2)

        assert _round_trips(store, lost_race, tmp_path) == 2
        snapshot = lambda: store.save_snapshot("g1", 2, {"turn": 2})  # noqa: E731
        assert _round_trips(store, snapshot, tmp_path) == 1
        with pytest.raises(psycopg.errors.UniqueViolation):  # refused in the pipeline
            store.create(_game(), [ActionRecord(1, 0, {"type": "x"})])
        with store._pool().connection() as conn:
            assert conn.info.transaction_status == pq.TransactionStatus.IDLE
        assert store.version("g1") == 2 and store.snapshot("g1") is not None
    finally:
        store.close()
