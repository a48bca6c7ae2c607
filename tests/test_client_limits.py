"""Per-client limits and the ends of streams (``web/client_limits.py``, ``web/gevent_worker.py``,
``web/streams.py``).

Over real HTTP (gunicorn as ``make run`` starts it, one worker, small caps), each client a
loopback address of its own (``127.0.0.2``, ``127.0.0.3``: the whole of ``127/8`` is this
machine): one client beyond its share of streams gets 429 in the error shape while another's
``/healthz``, reads and streams are served; one beyond its share of connections is answered 429
before its request is read; a stream whose client closes gives its place back within a
heartbeat (at once under gevent), however many streams the client opened and dropped; a stream
on a game whose rows were deleted ends. In-process: the forwarded address counts behind
trusted proxies, and without gevent a gone client is noticed at the next heartbeat.
"""

from __future__ import annotations

import http.client
import json
import socket
import sqlite3
import time

import pytest
import requests

from app import create_app
from i18n import catalogue
from tests.servers import gunicorn_in
from web.streams import EventStream

HUMANS = [{"type": "human"}, {"type": "human"}]
GREEDY, OTHER = "127.0.0.2", "127.0.0.3"
#: The streams' heartbeat on the servers of these tests (seconds).
HEARTBEAT_S = 3.0


def _new_game(url: str) -> str:
    body = {"game": "dao", "seats": HUMANS, "seed": 3}
    return requests.post(f"{url}/api/games", json=body, timeout=10).json()["id"]


def _answer_head(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read an answer's head: its status, headers and the bytes read past it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed after {data!r}")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split(" ")[1]), {k.lower(): v for k, v in headers.items()}, rest


def _body(sock: socket.socket, headers: dict[str, str], rest: bytes) -> dict:
    while len(rest) < int(headers["content-length"]):
        rest += sock.recv(65536)
    return json.loads(rest)


class Stream:
    """``GET /api/games/<gid>/stream`` from ``source`` over a raw socket: ``status``, and the
    error (``error``, ``headers``) when refused; held open until ``close``."""

    def __init__(self, port: int, gid: str, source: str, extra: str = "") -> None:
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=10, source_address=(source, 0)
        )
        self.sock.sendall(
            f"GET /api/games/{gid}/stream HTTP/1.1\r\nHost: t\r\n{extra}\r\n".encode()
        )
        self.status, self.headers, rest = _answer_head(self.sock)
        self.error: dict = {}
        if self.status == 200:
            while b"retry:" not in rest:  # the stream is held
                rest += self.sock.recv(65536)
            self.text = rest
        else:
            self.error = _body(self.sock, self.headers, rest)["error"]
            self.close()

    def read_until(self, marker: bytes, timeout: float) -> bytes:
        """What the stream sent until ``marker`` came (or the stream closed, or ``timeout``)."""
        self.sock.settimeout(timeout)
        deadline = time.monotonic() + timeout
        while marker not in self.text and time.monotonic() < deadline:
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self.text += chunk
        return self.text

    def close(self) -> None:
        self.sock.close()


def _get(port: int, path: str, source: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def _server(tmp_path, **env: str):
    settings = {"TOBAGO_HEARTBEAT_S": str(HEARTBEAT_S), **env}
    return gunicorn_in(tmp_path, workers=1, env=settings)


def test_a_client_beyond_its_streams_gets_429_in_words_while_another_is_served(tmp_path):
    with _server(tmp_path, TOBAGO_CLIENT_STREAMS="3") as server:
        gid = _new_game(server.url)
        held = [Stream(server.port, gid, GREEDY) for _ in range(3)]
        assert [s.status for s in held] == [200] * 3
        refused = Stream(server.port, gid, GREEDY)
        assert refused.status == 429 and int(refused.headers["retry-after"]) >= 1
        assert (refused.error["code"], refused.error["reason"]) == (
            "rate_limited",
            "too_many_streams",
        )
        assert refused.error["params"]["limit"] == 3 and "3" in refused.error["message"]
        for lang in ("en", "zh"):
            assert "{limit}" in catalogue(lang)["error.too_many_streams"]
        assert _get(server.port, "/healthz", OTHER) == 200
        assert _get(server.port, f"/api/games/{gid}", OTHER) == 200
        assert _get(server.port, f"/api/games/{gid}", GREEDY) == 200  # its reads go on too
        other = Stream(server.port, gid, OTHER)
        assert other.status == 200
        for s in [*held, other]:
            s.close()


def _released_after(port: int, gid: str, closed: float) -> float:
    """Seconds from ``closed`` until ``GREEDY`` is given a stream again (it holds its share)."""
    while time.monotonic() - closed < 4 * HEARTBEAT_S:
        again = Stream(port, gid, GREEDY)
        if again.status == 200:
            elapsed = time.monotonic() - closed
            again.close()
            return elapsed
        time.sleep(0.05)
    raise AssertionError("the closed stream's place never came back")


def test_a_stream_whose_client_leaves_is_released_within_a_heartbeat(tmp_path):
    with _server(tmp_path, TOBAGO_CLIENT_STREAMS="2") as server:
        gid = _new_game(server.url)
        held = [Stream(server.port, gid, GREEDY) for _ in range(2)]
        assert Stream(server.port, gid, GREEDY).status == 429
        held[0].close()
        elapsed = _released_after(server.port, gid, time.monotonic())
        print(f"a closed stream's place came back after {elapsed * 1000:.0f} ms")
        assert elapsed < HEARTBEAT_S
        held[1].close()
        # Opening and dropping streams leaves nothing held: both places come back.
        for _ in range(30):
            Stream(server.port, gid, GREEDY).close()
        closed = time.monotonic()
        _released_after(server.port, gid, closed)
        both = [Stream(server.port, gid, GREEDY) for _ in range(2)]
        assert [s.status for s in both] == [200, 200] and time.monotonic() - closed < HEARTBEAT_S
        for s in both:
            s.close()


def test_a_client_beyond_its_connections_is_answered_429_before_its_request(tmp_path):
    env = {"TOBAGO_CONNECTIONS": "40", "TOBAGO_IDLE_TIMEOUT_S": "30"}  # a client: 10 of them
    with _server(tmp_path, **env) as server:
        idle = [
            socket.create_connection(("127.0.0.1", server.port), source_address=(GREEDY, 0))
            for _ in range(10)
        ]
        time.sleep(0.3)  # all ten taken by the worker
        extra = socket.create_connection(
            ("127.0.0.1", server.port), timeout=5, source_address=(GREEDY, 0)
        )
        extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        status, headers, rest = _answer_head(extra)
        error = _body(extra, headers, rest)["error"]
        assert status == 429 and headers["connection"] == "close" and "retry-after" in headers
        assert (error["code"], error["reason"], error["params"]["limit"]) == (
            "rate_limited",
            "too_many_connections",
            10,
        )
        assert extra.recv(1) == b""  # and closed
        extra.close()
        assert _get(server.port, "/healthz", OTHER) == 200
        for s in idle:
            s.close()
        time.sleep(0.3)
        assert _get(server.port, "/healthz", GREEDY) == 200


def test_a_stream_on_a_game_whose_rows_were_deleted_ends(tmp_path):
    with _server(tmp_path) as server:
        gid = _new_game(server.url)
        stream = Stream(server.port, gid, OTHER)
        with sqlite3.connect(tmp_path / "games.sqlite3") as db:
            db.execute("DELETE FROM actions WHERE game = ?", (gid,))
            db.execute("DELETE FROM games WHERE id = ?", (gid,))
        deleted = time.monotonic()
        text = stream.read_until(b"deleted", 3 * HEARTBEAT_S)
        assert time.monotonic() - deleted < HEARTBEAT_S + 1.0
        assert b'event: end\ndata: {"version":0,"deleted":true}' in text
        assert stream.read_until(b"\r\n0\r\n\r\n", 5).endswith(b"\r\n0\r\n\r\n")  # the last chunk
        stream.close()


def test_behind_trusted_proxies_the_forwarded_address_is_the_client(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "t.sqlite3"),
            "TRUSTED_PROXIES": 1,
            "CLIENT_STREAMS": 1,
        }
    )
    client = app.test_client()
    gid = client.post("/api/games", json={"game": "dao", "seats": HUMANS}).get_json()["id"]

    def stream(forwarded: str):
        headers = {"X-Forwarded-For": forwarded}
        return client.get(f"/api/games/{gid}/stream", headers=headers)

    first = stream("203.0.113.7")
    second = stream("198.51.100.1, 203.0.113.8")  # the proxy's entry is the rightmost
    refused = stream("203.0.113.7")
    assert (first.status_code, second.status_code, refused.status_code) == (200, 200, 429)
    assert refused.get_json()["error"]["reason"] == "too_many_streams"
    first.close()
    assert stream("203.0.113.7").status_code == 200  # its place given back on close


def test_without_gevent_a_gone_client_is_noticed_at_the_next_heartbeat(app, monkeypatch):
    import web.streams

    monkeypatch.setattr(web.streams, "HEARTBEAT_S", 0.2)
    client = app.test_client()
    gid = client.post("/api/games", json={"game": "dao", "seats": HUMANS}).get_json()["id"]
    ours, theirs = socket.socketpair()
    released: list[bool] = []
    stream = EventStream(
        app.extensions["game_sessions"],
        gid,
        0,
        sock=ours,
        release=lambda: released.append(True),
    )
    events = iter(stream)
    assert next(events).startswith(b"retry:")
    assert next(events) == b": heartbeat\n\n"  # the client is there
    theirs.close()
    started = time.monotonic()
    with pytest.raises(StopIteration):
        next(events)
    assert time.monotonic() - started < 1.0
    stream.close()
    assert released == [True]
    ours.close()
