"""Slow and stalled clients cannot take the server's capacity: gunicorn's gevent worker
(``gunicorn.conf.py``) serves each connection as a greenlet, and its own limits end the ones
that stall.

Over real HTTP against gunicorn as ``make run`` starts it, with one worker: uploads that stop
mid-body, headers trickled byte by byte, connections that send nothing and clients that never
close after their answer each wait on the worker's event loop, and an unrelated request is
still answered. The latency itself is measured in ``bench/slowclient_bench.py``; these tests
check that the requests are answered at all and that the limits (408 for a stalled body, the
idle time-out, 413, keep-alive, pipelining, 100-continue) behave as ``gunicorn.conf.py`` states.
"""

from __future__ import annotations

import json
import socket
import time
from contextlib import ExitStack

import pytest
import requests

from tests.servers import Gunicorn, gunicorn_in

GET_KINDS = b"GET /api/games/kinds HTTP/1.1\r\nHost: t\r\n\r\n"


# --- over HTTP --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = {"TOBAGO_REQUEST_TIMEOUT_S": "2", "TOBAGO_IDLE_TIMEOUT_S": "2"}
    with gunicorn_in(tmp_path_factory.mktemp("slow"), workers=1, env=env) as srv:
        yield srv


def connect(server: Gunicorn) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


class Reader:
    """HTTP/1.1 answers read one by one from a raw socket (keep-alive and pipelining)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.data = b""

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed after {self.data!r}")
        self.data += chunk

    def answer(self) -> tuple[int, dict, bytes]:
        """The next final answer (status, headers, body); interim 1xx answers are skipped."""
        while True:
            while b"\r\n\r\n" not in self.data:
                self._more()
            head, _, self.data = self.data.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            if status >= 200:
                break
        pairs = (line.split(":", 1) for line in lines[1:])
        headers = {k.strip().lower(): v.strip() for k, v in pairs}
        length = int(headers.get("content-length", "0"))
        while len(self.data) < length:
            self._more()
        body, self.data = self.data[:length], self.data[length:]
        return status, headers, body


def read_answer(s: socket.socket) -> tuple[int, dict, bytes]:
    return Reader(s).answer()


def stalled_upload(server: Gunicorn) -> socket.socket:
    s = connect(server)
    s.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{}"
    )
    return s


def unrelated_answers(server: Gunicorn, within: float = 8.0) -> float:
    """Seconds an unrelated GET takes (a blocked pool would time out: the test fails)."""
    start = time.perf_counter()
    resp = requests.get(server.url + "/api/games/kinds", timeout=within)
    assert resp.status_code == 200
    return time.perf_counter() - start


def test_stalled_uploads_trickled_headers_and_silent_sockets_take_no_thread(server):
    with ExitStack() as opened:  # every socket closed at the end
        for _ in range(20):
            opened.enter_context(stalled_upload(server))
        for _ in range(10):  # headers that never end
            opened.enter_context(connect(server)).sendall(b"GET /api/games/kinds HTTP/1.1\r\nHo")
        for _ in range(10):  # nothing at all
            opened.enter_context(connect(server))
        time.sleep(0.3)
        for _ in range(3):
            unrelated_answers(server)


def test_a_stalled_upload_that_finishes_is_served(server):
    s = stalled_upload(server)
    unrelated_answers(server)
    s.sendall(b" " * 998)
    status, headers, body = read_answer(s)
    assert status == 400 and json.loads(body)["error"]["field"] == "game"
    s.close()


def test_an_upload_that_never_finishes_gets_408_in_the_error_shape(server):
    s = stalled_upload(server)
    start = time.monotonic()
    status, headers, body = read_answer(s)
    assert status == 408 and json.loads(body)["error"]["code"] == "timeout"
    assert 1.5 < time.monotonic() - start < 6
    assert s.recv(10) == b""  # and closed after the answer
    assert time.monotonic() - start < 6
    s.close()


def test_a_stalled_body_on_the_lean_solve_path_gets_408_too(server):
    """POST /api/tobago/solve is answered from WSGI without Flask (web/lean.py): its body read
    times out the same way, with the same 408 and the connection closed after it."""
    s = connect(server)
    s.sendall(
        b"POST /api/tobago/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b'Content-Length: 500\r\n\r\n{"island":'
    )
    start = time.monotonic()
    status, headers, body = read_answer(s)
    error = json.loads(body)["error"]
    assert status == 408 and error["code"] == "timeout" and error["field"] == "body"
    assert s.recv(10) == b""
    assert time.monotonic() - start < 6
    s.close()
    unrelated_answers(server)


def test_a_silent_connection_is_closed_after_the_idle_timeout(server):
    s = connect(server)
    start = time.monotonic()
    assert s.recv(10) == b""
    assert 1.5 < time.monotonic() - start < 6
    s.close()


def test_keep_alive_and_pipelined_requests_are_each_answered(server):
    s = connect(server)
    answers = Reader(s)
    s.sendall(GET_KINDS)
    assert answers.answer()[0] == 200
    s.sendall(GET_KINDS + b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
    status, _, body = answers.answer()
    assert status == 200 and json.loads(body)["kinds"]
    status, _, body = answers.answer()
    assert status == 200 and json.loads(body) == {"ok": True}
    s.close()


def test_expect_100_continue_gets_one_interim_answer(server):
    s = connect(server)
    s.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"
    )
    assert s.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
    s.sendall(b"{}")
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(65536)
    assert data.startswith(b"HTTP/1.1 400") and b"100 Continue" not in data
    s.close()


def test_a_small_chunked_body_is_read_and_a_large_one_is_413(server):
    body = json.dumps({"game": "dao", "seats": [{"type": "bot"}] * 2, "seed": 3}).encode()
    s = connect(server)
    half = len(body) // 2
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
    s.sendall(b"%x\r\n%s\r\n" % (half, body[:half]))
    unrelated_answers(server)
    s.sendall(b"%x\r\n%s\r\n0\r\n\r\n" % (len(body) - half, body[half:]))
    assert read_answer(s)[0] == 201
    s.close()

    def chunks():
        piece = b"x" * 65536
        yield b'{"game": "'
        for _ in range(20):
            yield piece
        yield b'"}'

    resp = requests.post(server.url + "/api/games", data=chunks(), timeout=20)
    assert resp.status_code == 413 and resp.json()["error"]["code"] == "too_large"


def test_clients_that_never_close_after_their_answer_do_not_stall_the_loop(server):
    """(gthread's own close lingered up to 2 s in its loop per such client.)"""
    with ExitStack() as opened:  # every socket closed at the end
        socks = []
        for _ in range(10):
            s = opened.enter_context(connect(server))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            socks.append(s)
        for s in socks:
            assert read_answer(s)[0] == 200
        unrelated_answers(server)


def test_a_head_past_every_limit_is_refused_from_the_buffer_without_waiting(server):
    s = connect(server)
    s.sendall(b"GET /" + b"a" * 900_000)  # no end of line, and the client stalls
    status, _, _ = read_answer(s)
    assert status in (400, 414, 431)
    s.close()
    unrelated_answers(server)
