"""One greedy client against the others, over real gunicorn (issue 44, item 4;
``web/stream_guard.py``, ``web/gevent_worker.py``'s turns).

Each client is a loopback address of its own (``127.0.0.2`` greedy, ``127.0.0.3`` another): a
stream over the cap is answered 429 in words before Flask (the app's request hook never sees
it); a long-poll holds a stream place, with the same cap and refusal; while one client holds
its cap and keeps hammering the worker with streams, another client's reads and streams are
still answered. Latencies are the bench's (``bench/greedy_client_bench.py``), not asserted here.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time

from tests.servers import gunicorn_in
from tests.test_client_limits import GREEDY, OTHER, Stream, _answer_head, _body, _get, _new_game

COUNTING_APP = "tests.counting_app:create_counting_app()"


def test_a_stream_over_the_cap_is_refused_before_flask_in_words(tmp_path):
    seen = tmp_path / "seen.txt"
    env = {"TOBAGO_CLIENT_STREAMS": "2", "TOBAGO_TEST_SEEN": str(seen)}
    with gunicorn_in(tmp_path, COUNTING_APP, workers=1, env=env) as server:
        gid = _new_game(server.url)
        held = [Stream(server.port, gid, GREEDY) for _ in range(2)]
        assert [s.status for s in held] == [200, 200]
        refused = [Stream(server.port, gid, GREEDY) for _ in range(5)]
        for r in refused:
            assert r.status == 429 and int(r.headers["retry-after"]) >= 1
            assert r.headers["content-type"] == "application/json"
            assert "nosniff" in r.headers["x-content-type-options"]  # the security headers
            assert (r.error["code"], r.error["reason"], r.error["params"]["limit"]) == (
                "rate_limited",
                "too_many_streams",
                2,
            )
            assert "at most 2" in r.error["message"]
        streams_seen = [p for p in seen.read_text().split() if p.endswith("/stream")]
        assert len(streams_seen) == 2  # the held ones: the refused never reached Flask
        assert Stream(server.port, gid, OTHER).status == 200  # another client's is its own
        for s in held:
            s.close()


def _long_poll(port: int, gid: str, wait: float) -> socket.socket:
    """A long-poll from the greedy client, sent (its answer not read yet)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(GREEDY, 0))
    sock.sendall(f"GET /api/games/{gid}/events?wait={wait:g} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    return sock


def test_a_long_poll_holds_a_stream_place(tmp_path):
    with gunicorn_in(tmp_path, workers=1, env={"TOBAGO_CLIENT_STREAMS": "2"}) as server:
        gid = _new_game(server.url)
        polls = [_long_poll(server.port, gid, 8) for _ in range(2)]
        deadline = time.monotonic() + 5
        while (s := Stream(server.port, gid, GREEDY)).status == 200:  # until both wait
            s.close()
            assert time.monotonic() < deadline, "the long-polls never took their places"
        assert s.error["reason"] == "too_many_streams"  # streams and polls: one count
        third = _long_poll(server.port, gid, 8)
        status, headers, rest = _answer_head(third)
        assert (status, _body(third, headers, rest)["error"]["reason"]) == (
            429,
            "too_many_streams",
        )
        third.close()
        assert _get(server.port, f"/api/games/{gid}/events", GREEDY) == 200  # no wait: no place
        assert _get(server.port, f"/api/games/{gid}/events?wait=x", GREEDY) == 400
        for sock in polls:  # answered when their wait is over: the places come back
            status, headers, rest = _answer_head(sock)
            assert status == 200 and _body(sock, headers, rest)["events"] == []
            sock.close()
        again = Stream(server.port, gid, GREEDY)
        assert again.status == 200
        again.close()


class Hammer(threading.Thread):
    """The greedy client: ``width`` threads opening streams over and over until stopped (the
    refused ones answered 429 and closed at once)."""

    def __init__(self, port: int, gid: str) -> None:
        super().__init__(daemon=True)
        self.port, self.gid = port, gid
        self.statuses: dict[int, int] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                s = Stream(self.port, self.gid, GREEDY)
            except OSError:
                continue
            self.statuses[s.status] = self.statuses.get(s.status, 0) + 1
            s.close()


def test_another_client_is_answered_while_one_holds_its_cap_and_hammers(tmp_path):
    env = {"TOBAGO_CLIENT_STREAMS": "20"}
    with gunicorn_in(tmp_path, workers=1, env=env) as server:
        gid = _new_game(server.url)
        held = [Stream(server.port, gid, GREEDY) for _ in range(20)]
        hammers = [Hammer(server.port, gid) for _ in range(16)]
        for h in hammers:
            h.start()
        time.sleep(0.5)
        kept = http.client.HTTPConnection(
            "127.0.0.1", server.port, timeout=10, source_address=(OTHER, 0)
        )
        answered = []
        for _ in range(20):
            kept.request("GET", f"/api/games/{gid}")
            resp = kept.getresponse()
            resp.read()
            answered.append(resp.status)
            answered.append(_get(server.port, "/healthz", OTHER))  # a fresh connection
        other = Stream(server.port, gid, OTHER)
        for h in hammers:
            h.stop.set()
        for h in hammers:
            h.join(10)
        kept.close()
        assert answered == [200] * 40 and other.status == 200
        refused = sum(h.statuses.get(429, 0) for h in hammers)
        assert refused > 0 and sum(h.statuses.get(200, 0) for h in hammers) == 0
        for s in [*held, other]:
            s.close()


def _app(tmp_path, streams: int):
    from app import create_app

    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"), "CLIENT_STREAMS": streams}
    )


def test_the_guard_answers_as_flask_does(tmp_path):
    from werkzeug.test import Client

    app = _app(tmp_path, 1)
    client = app.test_client()
    humans = [{"type": "human"}, {"type": "human"}]
    gid = client.post("/api/games", json={"game": "dao", "seats": humans}).get_json()["id"]
    held = client.get(f"/api/games/{gid}/stream")
    assert held.status_code == 200
    guard = app.extensions["stream_guard"]
    ours = client.get(f"/api/games/{gid}/stream")
    flasks = Client(guard.app).get(  # Flask alone: its view refuses
        f"/api/games/{gid}/stream", environ_base={"REMOTE_ADDR": "127.0.0.1"}
    )
    assert ours.status_code == flasks.status_code == 429
    assert ours.get_json() == flasks.get_json()
    assert ours.get_json()["error"]["reason"] == "too_many_streams"
    for name in ("Retry-After", "Content-Type", "Content-Security-Policy", "X-Frame-Options"):
        assert ours.headers[name] == flasks.headers[name]
    # a long-poll is refused the same way; a read that does not wait is not counted
    assert client.get(f"/api/games/{gid}/events?wait=0.1").get_json() == ours.get_json()
    assert client.get(f"/api/games/{gid}/events").status_code == 200
    held.close()
    poll = client.get(f"/api/games/{gid}/events?wait=0.1")
    assert poll.status_code == 200 and app.extensions["client_streams"].open == {"127.0.0.1": 1}
    poll.close()  # (a server closes the answer once sent: WSGI)
    assert app.extensions["client_streams"].open == {}  # its place given back
