"""Waiting clients cost no capacity: the production server (gunicorn's gevent worker, the
default ``make run`` settings: 2 workers) over real HTTP.

With 200 long-polls waiting on a game (there is no per-process cap: each is a greenlet asleep on
the process's watcher), an unrelated request still answers within 1 s, and a move wakes every
one of them within 1 s. With 20 stalled uploads open as well, it still does.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
import requests

from tests.servers import Gunicorn, gunicorn_in

WAITERS = 200


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

    threads = [threading.Thread(target=poll, daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    return threads, results


@pytest.mark.slow
def test_two_hundred_waiting_long_polls_all_wait_and_leave_room_for_other_requests(tmp_path):
    with gunicorn_in(tmp_path) as server:
        body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 3}
        game = requests.post(server.url + "/api/games", json=body, timeout=10).json()
        gid, token = game["id"], game["seats"][0]["token"]
        threads, results = _long_polls(f"{server.url}/api/games/{gid}/events?after=0", WAITERS, 20)
        time.sleep(2.0)  # every long-poll has arrived and waits
        for path in ("/api/games/kinds", f"/api/games/{gid}", "/healthz"):
            started = time.monotonic()
            resp = requests.get(server.url + path, timeout=10)
            assert resp.status_code == 200 and time.monotonic() - started < 1.0, path
        assert results == []  # nobody was sent away
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
        assert len(results) == WAITERS and {r[0] for r in results} == {200}
        assert max(r[4] for r in results) - moved < 1.0  # woken by the move, not the time-out


def _stalled_upload(server: Gunicorn) -> socket.socket:
    """A client that announces a 1,000-byte body, sends two bytes of it and stalls."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    s.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{}"
    )
    return s


@pytest.mark.slow
def test_twenty_stalled_uploads_and_two_hundred_long_polls_leave_room_for_other_requests(
    tmp_path,
):
    with gunicorn_in(tmp_path) as server:
        body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 4}
        gid = requests.post(server.url + "/api/games", json=body, timeout=10).json()["id"]
        uploads = [_stalled_upload(server) for _ in range(20)]
        try:
            threads, results = _long_polls(
                f"{server.url}/api/games/{gid}/events?after=0", WAITERS, 5
            )
            time.sleep(2.0)  # every upload stalls and every long-poll waits
            for path in ("/api/games/kinds", f"/api/games/{gid}", "/healthz"):
                started = time.monotonic()
                resp = requests.get(server.url + path, timeout=10)
                assert resp.status_code == 200 and time.monotonic() - started < 1.0, path
            for t in threads:
                t.join(30)
            assert len(results) == WAITERS and {r[0] for r in results} == {200}
        finally:
            for s in uploads:
                s.close()
