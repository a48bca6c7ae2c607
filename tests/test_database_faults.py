"""Database faults are answered in words: 503 ``database_unavailable`` with ``Retry-After``,
promptly, never a 500 and never a stalled server.

- SQLite: a write lock held by another process past ``LOCK_WAIT_S`` refuses the write with the
  503, while reads (WAL) and requests that need no database answer as usual.
- PostgreSQL over real HTTP (its own throw-away cluster, stopped for 4 s and started again while
  clients keep asking): no 500; requests that need the database are told 503 within 2 s, with a
  ``Retry-After`` of at most 2 s; ``/healthz`` and the islands API keep answering; the first
  good answer of a game read comes within 3 s of the database's return.
"""

from __future__ import annotations

import sqlite3
import time

import pytest
import requests

from tests.askers import Askers
from tests.pg_support import PostgresCluster
from tests.servers import Gunicorn


def test_a_sqlite_write_lock_past_its_wait_is_a_503_and_reads_go_on(app, client, monkeypatch):
    import web.storage.sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "LOCK_WAIT_S", 0.3)
    body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 3}
    game = client.post("/api/games", json=body).get_json()
    auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    me = client.get(f"/api/games/{game['id']}", headers=auth).get_json()
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)  # another process
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        move = {"version": 0, "action": me["legal_actions"][0]}
        resp = client.post(f"/api/games/{game['id']}/actions", json=move, headers=auth)
        assert resp.status_code == 503 and time.monotonic() - started < 2
        err = resp.get_json()["error"]
        assert (err["code"], err["reason"]) == ("unavailable", "database_unavailable")
        assert 1 <= int(resp.headers["Retry-After"]) <= 2
        assert client.get(f"/api/games/{game['id']}").status_code == 200  # WAL: reads go on
        assert client.get("/healthz").status_code == 200
    finally:
        other.execute("ROLLBACK")
        other.close()
    resp = client.post(f"/api/games/{game['id']}/actions", json=move, headers=auth)
    assert resp.status_code == 200  # the lock is gone: the same move goes through


@pytest.mark.slow
def test_a_postgresql_outage_is_answered_in_words_and_the_first_good_answer_is_prompt(tmp_path):
    with PostgresCluster() as cluster:
        url = cluster.new_database()
        with Gunicorn(url, log=tmp_path / "gunicorn.log", start_timeout=60) as server:
            body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 3}
            gid = requests.post(server.url + "/api/games", json=body, timeout=10).json()["id"]
            game, events = f"/api/games/{gid}", f"/api/games/{gid}/events?after=0"
            free = ["/healthz", "/api/tobago/islands/classic-1"]
            with Askers(server.url, [game, events, *free]) as clients:
                time.sleep(1.5)
                down = time.monotonic()
                cluster.pause()
                time.sleep(4.0)
                cluster.resume()
                up = time.monotonic()
                time.sleep(5.0)
    log = clients.log
    assert [x for x in log if x.status is None] == []  # every request was answered
    assert [x for x in log if x.status == 500] == []
    assert {x.status for x in log} <= {200, 503}
    refused = [x for x in log if x.status == 503]
    assert refused and {x.path for x in refused} <= {game, events}  # what needs the database
    assert all(x.reason == "database_unavailable" and 1 <= int(x.retry_after) <= 2 for x in refused)
    assert max(x.seconds for x in refused) < 2.0  # told within 2 s
    during = [x for x in log if x.path in free and down < x.sent < up]
    assert during and max(x.seconds for x in during) < 1.0  # no database, no waiting
    good = [x.sent + x.seconds for x in log if x.path == game and x.status == 200 and x.sent > up]
    assert min(good) - up < 3.0
