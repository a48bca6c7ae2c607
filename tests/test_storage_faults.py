"""SQLite's storage faults are answered in words, never a 500 (``web.storage.sqlite_faults``).

- A full disk: the file's size capped (``TOBAGO_SQLITE_MAX_SIZE``: SQLite's ``max_page_count``,
  which gives the ``SQLITE_FULL`` a full disk gives, without root or a mount). Over real HTTP
  (gunicorn as ``make run`` starts it) many writes, concurrent ones too: no 500, 503
  ``storage_full`` with ``Retry-After``, nothing of a refused move kept, reads 200,
  ``/healthz`` 503 ``storage_full``; with room again, writes go on.
- A read-only database: by the setting (``TOBAGO_DATABASE_READ_ONLY``) and on a read-only
  volume (a read-only bind mount where this process may mount, as root; a file and directory
  without write permission otherwise: root writes through those): the server starts, serves
  reads, refuses writes 503 ``storage_read_only``; a read-only file that needs migrating is
  refused at start-up in words.
- SQLite's write lock held by another process longer than ``LOCK_WAIT_S``
  (``TOBAGO_SQLITE_LOCK_WAIT_S``) while concurrent moves arrive at one worker: each is answered
  within ``LOCK_WAIT_S`` + 1 s, however many queue (the store's writers' queue has the same
  deadline); in plain threads too, at the store.
- SQLite's errors stand for their refusals: read-only, an I/O error (``storage_full`` when its
  disk has no room left), and the code's own errors stay errors (a 500 says a bug).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from errors import DatabaseUnavailable, StorageFull, StorageReadOnly
from web.storage import RUNNING, ActionRecord, GameRecord, Seat
from web.storage.sqlite import SCHEMA_VERSION, SqliteStore
from web.storage.sqlite_faults import FULL_HOLD_S

NEW_GAME = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 3}


def _game(url: str) -> tuple[str, dict[str, str], dict]:
    """A new two-player DAO game: its id, its first seat's auth header and its first move."""
    game = requests.post(f"{url}/api/games", json=NEW_GAME, timeout=10).json()
    auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    view = requests.get(f"{url}/api/games/{game['id']}", headers=auth, timeout=10).json()
    return game["id"], auth, {"version": 0, "action": view["legal_actions"][0]}


def _refused(resp: requests.Response, reason: str) -> bool:
    """A 503 with ``reason`` and a ``Retry-After`` in whole seconds."""
    if resp.status_code != 503:
        return False
    error = resp.json()["error"]
    return error["reason"] == reason and int(resp.headers["Retry-After"]) >= 1


def _file_bytes(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        return pages * conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()


# --- a full disk -----------------------------------------------------------------------------


def _create(url: str) -> requests.Response:
    return requests.post(f"{url}/api/games", json=NEW_GAME, timeout=10)


@pytest.mark.slow
def test_a_full_disk_refuses_writes_in_words_and_reads_go_on(tmp_path):
    from tests.servers import gunicorn_in

    db = tmp_path / "games.sqlite3"
    SqliteStore(str(db)).close()  # the schema, then room for a few dozen games
    cap = {"TOBAGO_SQLITE_MAX_SIZE": str(_file_bytes(db) + 32 * 1024)}
    with gunicorn_in(tmp_path, env=cap) as server:
        url = server.url
        games = [_game(url) for _ in range(3)]  # their moves are made once it is full
        answers = [_create(url) for _ in range(150)]
        assert any(_refused(r, "storage_full") for r in answers)  # it filled up
        with ThreadPoolExecutor(8) as pool:  # and concurrent writes once full
            answers += list(pool.map(lambda _: _create(url), range(100)))
        assert {r.status_code for r in answers} == {201, 503}  # never a 500
        refused = [r for r in answers if r.status_code == 503]
        assert len(refused) >= 100 and all(_refused(r, "storage_full") for r in refused)
        for gid, auth, move in games:  # a move fits in the room left, or is refused whole
            resp = requests.post(f"{url}/api/games/{gid}/actions", json=move, headers=auth)
            assert resp.status_code == 200 or _refused(resp, "storage_full")
            game = requests.get(f"{url}/api/games/{gid}", headers=auth, timeout=10)
            assert game.status_code == 200  # reads go on
            assert game.json()["version"] == (1 if resp.status_code == 200 else 0)
            assert requests.get(f"{url}/api/games/{gid}/events?after=0", timeout=10).ok
        for _ in range(4):  # every worker refused writes within FULL_HOLD_S
            health = requests.get(f"{url}/healthz", timeout=10)
            assert health.status_code == 503 and int(health.headers["Retry-After"]) >= 1
            assert health.json() == {"ok": False, "writes": False, "reason": "storage_full"}
        assert "Traceback" not in server.log_tail(100_000)
    with gunicorn_in(tmp_path) as server:  # room again (no cap): writes go on
        assert _create(server.url).status_code == 201
        assert requests.get(f"{server.url}/healthz", timeout=10).json() == {"ok": True}


@contextmanager
def _mounted(folder: Path, *options: str) -> Iterator[None]:
    """``mount options... folder`` for the block (as root, where mounting is allowed; else the
    test is skipped), unmounted after."""
    mount = shutil.which("mount")
    if os.geteuid() != 0 or mount is None:
        pytest.skip("mounting needs root")
    if subprocess.run([mount, *options, folder], capture_output=True).returncode != 0:
        pytest.skip("mounting is not allowed here")
    try:
        yield
    finally:
        subprocess.run([shutil.which("umount") or "umount", folder])


@pytest.mark.slow
def test_a_real_full_disk_refuses_writes_in_words(tmp_path):
    """A tmpfs of 1 MiB filled by concurrent new games: SQLite meets the full disk as it
    writes the log at COMMIT (where the size cap meets it at a statement)."""
    from tests.servers import Gunicorn

    folder = tmp_path / "disk"
    folder.mkdir()
    with _mounted(folder, "-t", "tmpfs", "-o", "size=1m", "tmpfs"):
        log = tmp_path / "gunicorn.log"
        with Gunicorn(folder / "games.sqlite3", log=log) as server:
            url = server.url
            gid, auth, _ = _game(url)
            with ThreadPoolExecutor(8) as pool:
                answers = list(pool.map(lambda _: _create(url), range(300)))
            assert {r.status_code for r in answers} == {201, 503}  # never a 500
            refused = [r for r in answers if r.status_code == 503]
            assert len(refused) >= 200 and all(_refused(r, "storage_full") for r in refused)
            assert requests.get(f"{url}/api/games/{gid}", headers=auth, timeout=10).ok
            assert requests.get(f"{url}/healthz", timeout=10).json()["reason"] == "storage_full"
            assert "Traceback" not in server.log_tail(100_000)
        with Gunicorn(folder / "games.sqlite3", log=log) as server:  # started on a full disk
            assert requests.get(f"{server.url}/api/games/{gid}", headers=auth, timeout=10).ok
            assert _refused(_create(server.url), "storage_full")


def test_a_write_refused_as_full_is_rolled_back_whole_and_healthz_tells_it(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    SqliteStore(db).close()
    store = SqliteStore(db, max_bytes=_file_bytes(Path(db)) + 16 * 1024)
    try:
        store.create(GameRecord("g1", "dao", {}, 5, [Seat(0, "human")]), [])
        big = {"type": "x", "pad": "y" * 3000}
        with pytest.raises(StorageFull) as err:
            for _ in range(100):
                with store.transaction("g1") as tx:
                    v = tx.game.version + 1
                    tx.append([ActionRecord(v, 0, big), ActionRecord(v + 1, 0, big)], RUNNING, None)
        assert err.value.reason == "storage_full" and err.value.retry_after_s >= 1
        kept = store.get("g1").version
        assert [a.version for a in store.actions("g1")] == list(range(1, kept + 1))
        with store.transaction("g1") as tx:  # a write that needs no more room goes through
            tx.set_bot(None, False)
        assert store.write_refusal() == "storage_full"  # told for FULL_HOLD_S all the same
    finally:
        store.close()


def test_healthz_tells_a_full_store_for_a_while_then_looks_healthy_again(app, client, monkeypatch):
    import web.storage.sqlite_faults as faults

    store = app.extensions["game_sessions"].store
    store.health.refused(StorageFull("full"))
    resp = client.get("/healthz")
    assert resp.status_code == 503 and resp.get_json()["reason"] == "storage_full"
    now = time.monotonic()
    monkeypatch.setattr(faults.time, "monotonic", lambda: now + FULL_HOLD_S + 1)
    assert client.get("/healthz").get_json() == {"ok": True}


# --- a read-only database --------------------------------------------------------------------


def _stored_game(folder: Path) -> tuple[str, dict[str, str], dict]:
    """A game with one move made, stored in ``folder/games.sqlite3`` by a server since stopped:
    its id, and the second seat's auth header and legal move at version 1."""
    from tests.servers import gunicorn_in

    with gunicorn_in(folder) as server:
        url = server.url
        game = requests.post(f"{url}/api/games", json=NEW_GAME, timeout=10).json()
        gid, seats = game["id"], game["seats"]
        first = {"Authorization": f"Bearer {seats[0]['token']}"}
        view = requests.get(f"{url}/api/games/{gid}", headers=first, timeout=10).json()
        move = {"version": 0, "action": view["legal_actions"][0]}
        assert requests.post(f"{url}/api/games/{gid}/actions", json=move, headers=first).ok
        second = {"Authorization": f"Bearer {seats[1]['token']}"}
        view = requests.get(f"{url}/api/games/{gid}", headers=second, timeout=10).json()
        assert view["version"] == 1 and view["legal_actions"]
    return gid, second, {"version": 1, "action": view["legal_actions"][0]}


def _serves_read_only(url: str, gid: str, auth: dict[str, str], move: dict) -> None:
    """The server at ``url`` serves the stored game and refuses its writes in words."""
    game = requests.get(f"{url}/api/games/{gid}", headers=auth, timeout=10)
    assert game.status_code == 200 and game.json()["version"] == 1
    assert requests.get(f"{url}/api/games/{gid}/events?after=0", timeout=10).ok
    assert requests.get(f"{url}/api/games?limit=5", timeout=10).ok
    moved = requests.post(f"{url}/api/games/{gid}/actions", json=move, headers=auth, timeout=10)
    assert _refused(moved, "storage_read_only"), moved.text
    created = requests.post(f"{url}/api/games", json=NEW_GAME, timeout=10)
    assert _refused(created, "storage_read_only"), created.text
    health = requests.get(f"{url}/healthz", timeout=10)
    assert health.status_code == 503 and int(health.headers["Retry-After"]) >= 1
    assert health.json() == {"ok": False, "writes": False, "reason": "storage_read_only"}
    assert requests.get(f"{url}/api/games/{gid}", timeout=10).json()["version"] == 1


@pytest.mark.slow
def test_a_database_opened_read_only_by_the_setting_serves_reads_and_refuses_writes(tmp_path):
    from tests.servers import gunicorn_in

    gid, auth, move = _stored_game(tmp_path)
    env = {"TOBAGO_DATABASE_READ_ONLY": "1"}
    with gunicorn_in(tmp_path, env=env, ready="/api/games/kinds") as server:
        _serves_read_only(server.url, gid, auth, move)
        assert "Traceback" not in server.log_tail(100_000)


@contextmanager
def _read_only_volume(folder: Path) -> Iterator[None]:
    """``folder`` made read-only for the server: a read-only bind mount of it on itself (root,
    where mounting is allowed), or no write permission on it and its files (anyone else);
    skipped where neither stops a write."""
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.iterdir()]}
        for p in modes:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    with _mounted(folder, "--bind", str(folder)):
        remount = ["mount", "-o", "remount,bind,ro", folder, folder]
        if subprocess.run(remount, capture_output=True).returncode != 0:
            pytest.skip("a read-only bind mount is not allowed here")
        yield


@pytest.mark.slow
@pytest.mark.parametrize("wal", [True, False], ids=["with-wal", "checkpointed"])
def test_a_database_on_a_read_only_volume_serves_reads_and_refuses_writes(tmp_path, wal):
    """With its ``-wal`` and ``-shm`` as the server left them, or without (checkpointed: SQLite
    cannot make a ``-shm`` there, so the file is opened ``immutable``)."""
    from tests.servers import Gunicorn

    folder = tmp_path / "db"
    folder.mkdir()
    gid, auth, move = _stored_game(folder)
    if not wal:
        conn = sqlite3.connect(folder / "games.sqlite3")
        conn.execute("SELECT COUNT(*) FROM games").fetchone()
        conn.close()  # the last connection checkpoints the file: no -wal, -shm left
        assert not (folder / "games.sqlite3-wal").exists()
    log = tmp_path / "gunicorn.log"
    with _read_only_volume(folder):
        with pytest.raises(OSError):
            (folder / "probe").write_text("x")  # writes are refused there, even to root
        with Gunicorn(folder / "games.sqlite3", log=log, ready="/api/games/kinds") as server:
            _serves_read_only(server.url, gid, auth, move)
            assert "Traceback" not in server.log_tail(100_000)


def test_a_read_only_file_that_needs_migrating_is_refused_in_words(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    SqliteStore(db).close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    with pytest.raises(RuntimeError, match="open it writable once"):
        SqliteStore(db, read_only=True)
    conn = sqlite3.connect(db)  # (as a migration would leave it)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.close()
    store = SqliteStore(db, read_only=True)  # up to date: served
    try:
        assert store.write_refusal() == "storage_read_only"
        with pytest.raises(StorageReadOnly):
            store.create(GameRecord("g1", "dao", {}, 5, [Seat(0, "human")]), [])
        assert list(store.game_ids()) == []
    finally:
        store.close()


# --- the write lock held by another process ----------------------------------------------------

HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("ROLLBACK")
"""


@contextmanager
def _lock_held(db: Path, seconds: float) -> Iterator[None]:
    """SQLite's write lock on ``db`` held by another process for ``seconds`` (from the block's
    start)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.wait(seconds + 10)


@pytest.mark.slow
def test_writes_queued_behind_another_process_lock_are_each_answered_within_the_wait(tmp_path):
    from tests.servers import gunicorn_in

    wait_s = 1.0
    settings = {"env": {"TOBAGO_SQLITE_LOCK_WAIT_S": str(wait_s)}, "workers": 1}
    with gunicorn_in(tmp_path, **settings) as server:
        url = server.url
        games = [_game(url) for _ in range(8)]

        def move(game: tuple[str, dict[str, str], dict]) -> tuple[float, requests.Response]:
            gid, auth, body = game
            started = time.monotonic()
            resp = requests.post(f"{url}/api/games/{gid}/actions", json=body, headers=auth)
            return time.monotonic() - started, resp

        asked = games + [games[0]] * 3  # four moves on one game: its own queue too
        with _lock_held(tmp_path / "games.sqlite3", 4 * wait_s), ThreadPoolExecutor(11) as pool:
            answered = list(pool.map(move, asked))
        assert max(seconds for seconds, _ in answered) < wait_s + 1
        assert all(_refused(resp, "database_unavailable") for _, resp in answered)
        reads = [requests.get(f"{url}/api/games/{gid}", timeout=10) for gid, _, _ in games]
        assert all(r.status_code == 200 and r.json()["version"] == 0 for r in reads)
        after = [resp for _, resp in map(move, games)]  # the lock gone: the moves go through
        assert [r.status_code for r in after] == [200] * len(games)


def test_a_store_writers_queue_has_the_same_deadline_in_threads(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    store = SqliteStore(db, lock_wait_s=0.4)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    took: list[float] = []

    def write() -> None:
        started = time.monotonic()
        with pytest.raises(DatabaseUnavailable), store.transaction("g1"):
            pass
        took.append(time.monotonic() - started)

    try:
        threads = [threading.Thread(target=write) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert len(took) == 6 and max(took) < 0.4 + 0.3  # not 6 x 0.4 s in a queue
    finally:
        other.execute("ROLLBACK")
        other.close()
        store.close()


# --- what a SQLite error stands for ------------------------------------------------------------


def _error_of(db: Path, statement: str, uri: str | None = None) -> sqlite3.Error:
    conn = sqlite3.connect(uri or str(db), uri=uri is not None, isolation_level=None)
    try:
        conn.execute(statement)
    except sqlite3.Error as e:
        return e
    finally:
        conn.close()
    raise AssertionError(f"{statement} went through")


def test_sqlite_errors_stand_for_their_refusals(tmp_path, monkeypatch):
    import web.storage.sqlite_faults as faults

    db = tmp_path / "games.sqlite3"
    SqliteStore(str(db)).close()
    read_only = _error_of(db, "CREATE TABLE t (x)", f"file:{db}?mode=ro")
    assert isinstance(faults.refusal(read_only, str(db)), StorageReadOnly)
    bug = _error_of(db, "SELECT * FROM no_such_table")
    assert faults.refusal(bug, str(db)) is None  # the code's error: a 500, not a 503
    io = sqlite3.OperationalError("disk I/O error")
    io.sqlite_errorcode = 778  # SQLITE_IOERR_WRITE
    assert not faults.low_space(str(db))  # (this machine's temporary files have room)
    found = faults.refusal(io, str(db))
    assert type(found) is DatabaseUnavailable and found.reason == "database_unavailable"
    monkeypatch.setattr(faults, "low_space", lambda path: True)  # no room left on its disk
    assert isinstance(faults.refusal(io, str(db)), StorageFull)
