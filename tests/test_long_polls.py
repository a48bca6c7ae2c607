"""Waiting clients cannot take every thread: the production server (gunicorn, the default
``make run`` settings: 2 workers x 8 threads, ``TOBAGO_LONG_POLLS`` 6 per worker) over real HTTP.

With 20 long-polls waiting on a game, an unrelated request still answers within 1 s: at most 6
long-polls wait per worker, the others are answered at once with 503 ``too_many_waiting`` and a
``Retry-After``; a move wakes the waiting ones. With 20 stalled uploads open as well (they cost
the buffered worker of ``gunicorn_worker.py`` a buffer, not a thread), it still does.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
import requests

from tests.servers import Gunicorn
from web.storage.sessions import LONG_POLLS

WAITERS = 20


def _long_polls(url: str, n: int, wait: float) -> tuple[list[threading.Thread], list[tuple]]:
    """``n`` threads each waiting on ``url`` (events with ``wait``); results as (status, seconds
    taken, Retry-After, reason, monotonic end) once each returns."""
    results: list[tuple] = []
    lock = threading.Lock()

    def poll() -> None:
        started = time.monotonic()
        resp = requests.get(f"{url}&wait={wait:g}", timeout=wait + 20)
        body = resp.json()
        reason = body["error"]["reason"] if resp.status_code != 200 else None
        with lock:
            ended = time.monotonic()
            retry = resp.headers.get("Retry-After")
            results.append((resp.status_code, ended - started, retry, reason, ended))

    threads = [threading.Thread(target=poll) for _ in range(n)]
    for t in threads:
        t.start()
    return threads, results


@pytest.mark.slow
def test_twenty_waiting_long_polls_leave_room_for_other_requests(tmp_path):
    with Gunicorn(tmp_path / "games.sqlite3", log=tmp_path / "gunicorn.log") as server:
        body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 3}
        game = requests.post(server.url + "/api/games", json=body, timeout=10).json()
        gid, token = game["id"], game["seats"][0]["token"]
        threads, results = _long_polls(f"{server.url}/api/games/{gid}/events?after=0", WAITERS, 6)
        time.sleep(1.0)  # every long-poll has arrived and waits (or was told to retry)
        for path in ("/api/games/kinds", f"/api/games/{gid}", "/healthz"):
            started = time.monotonic()
            resp = requests.get(server.url + path, timeout=10)
            assert resp.status_code == 200 and time.monotonic() - started < 1.0, path
        refused = [r for r in results if r[0] == 503]
        assert len(refused) >= WAITERS - server.workers * LONG_POLLS
        assert all(
            r[2] is not None and int(r[2]) >= 1 and r[3] == "too_many_waiting" for r in refused
        )
        assert all(r[1] < 1.0 for r in refused)  # told at once, not after waiting
        me = requests.get(
            f"{server.url}/api/games/{gid}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        ).json()
        moved = time.monotonic()
        resp = requests.post(
            f"{server.url}/api/games/{gid}/actions",
            json={"version": 0, "action": me["legal_actions"][0]},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert resp.status_code == 200
        for t in threads:
            t.join(30)
        waited = [r for r in results if r[0] == 200]
        assert len(waited) + len(refused) == WAITERS and waited
        assert all(r[4] - moved < 1.0 for r in waited)  # woken by the move, not the time-out


def _stalled_upload(server: Gunicorn) -> socket.socket:
    """A client that announces a 1,000-byte body, sends two bytes of it and stalls."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    s.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{}"
    )
    return s


@pytest.mark.slow
def test_twenty_stalled_uploads_and_twenty_long_polls_leave_room_for_other_requests(tmp_path):
    with Gunicorn(tmp_path / "games.sqlite3", log=tmp_path / "gunicorn.log") as server:
        body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 4}
        gid = requests.post(server.url + "/api/games", json=body, timeout=10).json()["id"]
        uploads = [_stalled_upload(server) for _ in range(WAITERS)]
        try:
            threads, results = _long_polls(
                f"{server.url}/api/games/{gid}/events?after=0", WAITERS, 5
            )
            time.sleep(1.0)  # every upload stalls and every long-poll waits (or was refused)
            for path in ("/api/games/kinds", f"/api/games/{gid}", "/healthz"):
                started = time.monotonic()
                resp = requests.get(server.url + path, timeout=10)
                assert resp.status_code == 200 and time.monotonic() - started < 1.0, path
            for t in threads:
                t.join(30)
            assert len(results) == WAITERS and {r[0] for r in results} <= {200, 503}
        finally:
            for s in uploads:
                s.close()
