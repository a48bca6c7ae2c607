"""A gunicorn worker that never lends a thread to a client still sending its request.

gunicorn's ``gthread`` worker hands a connection to a thread as soon as its first byte arrives;
the thread then blocks reading the rest of the headers and the body. A client that announces
``Content-Length: 1000`` and sends ``{}`` (or trickles its headers) holds that thread for as long
as it likes, and 16 such sockets hold every thread of ``make run``.

``BufferedThreadWorker`` (``gunicorn.conf.py`` names it) keeps gthread's threads and its main
loop, and moves request reading into that loop: a connection's bytes are read without blocking
into a buffer until ``RequestScanner`` says the request is whole (headers and the body its
``Content-Length`` or chunked framing announces); only then does a thread take it, and the
parser reads from the buffer, never waiting on the socket. Meanwhile waiting costs a buffer,
not a thread. Limits, each measured by ``bench/slowclient_bench.py`` and tested in
``tests/test_slow_clients.py``:

- ``REQUEST_TIMEOUT_S`` (30 s): from a request's first byte to its last; then ``408`` and close.
- ``IDLE_TIMEOUT_S`` (10 s): a new connection that sends nothing is closed (a kept-alive one
  after gunicorn's ``keepalive``).
- ``MAX_BODY_BYTES`` (1 MiB, the app's ``MAX_CONTENT_LENGTH``): a longer ``Content-Length`` is
  handed over at once (the app answers 413 without reading it); a chunked body is handed over
  once more than that has arrived (the app answers 413 too). Such connections close after the
  answer.
- ``MAX_BUFFERED_BYTES`` (64 MiB) across a worker's waiting connections: the one that would
  pass it is answered ``503`` and closed.
- ``IO_TIMEOUT_S`` (30 s): a thread's socket reads and writes time out (a client that stops
  reading its answer; a read past the buffer, which the scanner's hand-over rules leave only
  for refused requests, cannot wait longer either: the parser reads through ``_TimedSocket``).
- A connection closed after an answer is half-closed and drained by the loop (at most 2 s,
  64 KiB), not by a blocking linger in the loop, which would let a client that never closes
  stall every other connection of the worker.

TLS and HTTP/2 connections take gthread's own path unchanged (neither is configured here).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import selectors
import socket
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gunicorn import http
from gunicorn.http2 import negotiation
from gunicorn.workers.gthread import TConn, ThreadWorker


def _env_seconds(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


REQUEST_TIMEOUT_S = _env_seconds("TOBAGO_REQUEST_TIMEOUT_S", 30.0)
IDLE_TIMEOUT_S = _env_seconds("TOBAGO_IDLE_TIMEOUT_S", 10.0)
IO_TIMEOUT_S = 30.0
MAX_BODY_BYTES = 1024 * 1024
#: Extra chunked body bytes awaited past the limit, so the app's reads up to it never wait.
CHUNKED_SLACK_BYTES = 64 * 1024
MAX_BUFFERED_BYTES = 64 * 1024 * 1024
LINGER_S = 2.0
LINGER_BYTES = 64 * 1024
RECV_BYTES = 256 * 1024

MORE, COMPLETE, OVERFLOW = "more", "complete", "overflow"


class RequestScanner:
    """Where one buffered HTTP/1.x request ends, told incrementally as its bytes arrive.

    ``feed(data)`` is called with the whole buffer so far (always the same buffer, grown) and
    says ``MORE`` (keep reading), ``COMPLETE`` (headers and body are all there, or the request
    is malformed and gunicorn's parser will answer it from what is there) or ``OVERFLOW``
    (over a limit: hand it over now and close after the answer). It only finds boundaries;
    gunicorn's parser still validates everything.
    """

    def __init__(self, head_limit: int, body_limit: int = MAX_BODY_BYTES) -> None:
        self.head_limit = head_limit
        self.body_limit = body_limit
        self.head_end: int | None = None  # index just past the blank line ending the headers
        self.expects_continue = False
        self._searched = 0
        self._length: int | None = None
        self._chunked = False
        self._chunk_pos = 0  # start of the next chunk-size line
        self._decoded = 0  # chunk data bytes seen so far

    def feed(self, data: bytes | bytearray) -> str:
        if self.head_end is None:
            idx = data.find(b"\r\n\r\n", max(0, self._searched - 3))
            if idx < 0:
                self._searched = len(data)
                return OVERFLOW if len(data) > self.head_limit else MORE
            self.head_end = idx + 4
            verdict = self._read_head(bytes(data[:idx]))
            if verdict is not None:
                return verdict
        if self._chunked:
            return self._scan_chunks(data)
        if self._length is None:
            return COMPLETE
        return COMPLETE if len(data) >= self.head_end + self._length else MORE

    def _read_head(self, head: bytes) -> str | None:
        lengths: list[bytes] = []
        codings: list[bytes] = []
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == b"content-length":
                lengths.append(value)
            elif name == b"transfer-encoding":
                codings.extend(c.strip() for c in value.split(b","))
            elif name == b"expect" and value == b"100-continue":
                self.expects_continue = True
        if codings:
            if lengths or codings[-1] != b"chunked":
                return COMPLETE  # refused by the parser (400 or 501)
            self._chunked = True
            self._chunk_pos = self.head_end or 0
            return None
        if not lengths:
            return COMPLETE
        if len(set(lengths)) > 1 or not lengths[0].isdigit():
            return COMPLETE  # refused by the parser
        self._length = int(lengths[0])
        return OVERFLOW if self._length > self.body_limit else None

    def _scan_chunks(self, data: bytes | bytearray) -> str:
        while True:
            line_end = data.find(b"\r\n", self._chunk_pos)
            if line_end < 0:
                return COMPLETE if len(data) - self._chunk_pos > 8192 else MORE
            size_text = bytes(data[self._chunk_pos : line_end]).split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                return COMPLETE  # refused by the parser
            start = line_end + 2
            if size == 0:
                if data[start : start + 2] == b"\r\n" or data.find(b"\r\n\r\n", start) >= 0:
                    return COMPLETE
                return COMPLETE if len(data) - start > self.head_limit else MORE
            if len(data) < start + size + 2:
                seen = self._decoded + max(0, len(data) - start)
                return OVERFLOW if seen > self.body_limit + CHUNKED_SLACK_BYTES else MORE
            self._decoded += size
            if self._decoded > self.body_limit + CHUNKED_SLACK_BYTES:
                return OVERFLOW
            self._chunk_pos = start + size + 2


class _TimedSocket:
    """The connection's socket as gunicorn's parser reads it in a thread: a ``recv`` waits at
    most ``IO_TIMEOUT_S`` (gthread puts the socket back in blocking mode before parsing; a
    timeout set by the parser itself, as when it drains a body, is kept)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def recv(self, size: int) -> bytes:
        if self.sock.gettimeout() is None:
            self.sock.settimeout(IO_TIMEOUT_S)
        return self.sock.recv(size)

    def gettimeout(self) -> float | None:
        return self.sock.gettimeout()

    def settimeout(self, value: float | None) -> None:
        self.sock.settimeout(value)


@dataclass
class _Waiting:
    """A connection the loop is reading a request from (or lingering on before closing)."""

    scanner: RequestScanner | None
    deadline: float
    data: bytearray = field(default_factory=bytearray)
    started: bool = False
    continued: bool = False
    drained: int = 0


def _error_answer(status: int, text: str, code: str, message: str) -> bytes:
    body = json.dumps(
        {"error": {"code": code, "reason": code, "message": message, "field": None, "params": {}}}
    ).encode()
    head = (
        f"HTTP/1.1 {status} {text}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


TIMEOUT_ANSWER = _error_answer(
    408, "Request Timeout", "timeout", f"the request did not arrive within {REQUEST_TIMEOUT_S:g} s"
)
BUSY_ANSWER = _error_answer(503, "Service Unavailable", "busy", "too many requests in flight")


def _receive(conn: TConn) -> bytes | None:
    """What the socket has now: bytes, ``b""`` when the client went away (or the socket
    failed), None when nothing is there yet."""
    try:
        return conn.sock.recv(RECV_BYTES)
    except (BlockingIOError, InterruptedError):
        return None
    except OSError:
        return b""


class BufferedThreadWorker(ThreadWorker):
    """gthread whose main loop reads each request whole before a thread serves it (module doc)."""

    def init_process(self) -> None:
        self.waiting: dict[TConn, _Waiting] = {}
        self.lingering: dict[TConn, _Waiting] = {}
        self.buffered_bytes = 0
        self._next_sweep = 0.0
        cfg = self.cfg
        fields = cfg.limit_request_fields or 100
        # Past what the parser accepts (request line and header block), so it refuses a head
        # this long from the buffer alone.
        self.head_limit = (
            (cfg.limit_request_line or 8190)
            + fields * ((cfg.limit_request_field_size or 8190) + 2)
            + 4
            + 8192
        )
        super().init_process()

    # --- reading a request in the loop --------------------------------------------------------

    def _own_path(self, conn: TConn) -> bool:
        """Whether this connection is read by the loop (not TLS, not HTTP/2 prior knowledge)."""
        return not self.cfg.is_ssl and not negotiation.prior_knowledge_allowed(
            self.cfg, conn.client
        )

    def accept(self, listener: Any) -> None:
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = TConn(self.cfg, client_sock, client_addr, listener.getsockname())
        if self._own_path(conn):
            self._await_request(conn, IDLE_TIMEOUT_S)
        else:
            client_sock.setblocking(True)
            self.enqueue_req(conn)

    def _await_request(self, conn: TConn, idle_s: float) -> None:
        """Read the connection's next request in the loop (bytes read ahead count as sent)."""
        conn.sock.setblocking(False)
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, _TimedSocket(conn.sock), conn.client)
        w = _Waiting(RequestScanner(self.head_limit), time.monotonic() + idle_s)
        self.waiting[conn] = w
        ahead = conn.parser.unreader.take_buffered()
        if ahead and self._take(conn, w, ahead):
            return
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_readable, conn))

    def _on_readable(self, conn: TConn, _sock: Any) -> None:
        w = self.waiting.get(conn)
        chunk = None if w is None else _receive(conn)
        if w is None or chunk is None:
            return
        if not chunk:  # the client went away
            self._forget(conn, w)
            self.poller.unregister(conn.sock)
            self._close(conn)
            return
        if self._take(conn, w, chunk, registered=True):
            return

    def _take(self, conn: TConn, w: _Waiting, chunk: bytes, registered: bool = False) -> bool:
        """Add bytes; dispatch, refuse or keep waiting. True when the connection left the loop."""
        if self.buffered_bytes + len(chunk) > MAX_BUFFERED_BYTES:
            self._forget(conn, w)
            if registered:
                self.poller.unregister(conn.sock)
            self._answer_and_close(conn, BUSY_ANSWER)
            return True
        w.data += chunk
        self.buffered_bytes += len(chunk)
        if not w.started:
            w.started = True
            w.deadline = time.monotonic() + REQUEST_TIMEOUT_S
        assert w.scanner is not None
        verdict = w.scanner.feed(w.data)
        if verdict == MORE:
            if w.scanner.expects_continue and not w.continued:
                w.continued = True
                self._send_quietly(conn, b"HTTP/1.1 100 Continue\r\n\r\n")
            return False
        self._forget(conn, w)
        if registered:
            self.poller.unregister(conn.sock)
        unreader = conn.parser.unreader
        unreader.buf.seek(0, os.SEEK_END)
        unreader.buf.write(bytes(w.data))
        conn.data_ready = True  # gthread's handle() must not wait for data again
        conn.close_after = verdict == OVERFLOW
        conn.continued = w.continued
        self.enqueue_req(conn)
        return True

    def _forget(self, conn: TConn, w: _Waiting) -> None:
        self.waiting.pop(conn, None)
        self.buffered_bytes -= len(w.data)

    def _send_quietly(self, conn: TConn, data: bytes) -> None:
        with contextlib.suppress(OSError):
            conn.sock.send(data)

    # --- serving (in a thread) ------------------------------------------------------------------

    def handle_request(self, req: Any, conn: TConn) -> bool:
        conn.sock.settimeout(IO_TIMEOUT_S)
        if getattr(conn, "close_after", False):
            req.force_close()
        if getattr(conn, "continued", False) and hasattr(req, "_expected_100_continue"):
            req._expected_100_continue = False  # sent by the loop already
        return super().handle_request(req, conn)

    def finish_request(self, conn: TConn, fs: Any) -> None:
        """Back in the loop after a thread served a request: the next request, or a close."""
        if not self._own_path(conn) or conn.is_http2:
            super().finish_request(conn, fs)
            return
        try:
            keep = bool(fs.result()) if not fs.cancelled() else False
        except Exception:
            keep = False
        if keep:
            idle = self.cfg.keepalive if self.alive else min(self.cfg.keepalive, LINGER_S)
            try:
                self._await_request(conn, idle)
            except OSError:
                self.waiting.pop(conn, None)
                self._close(conn)
        else:
            self._linger(conn)

    # --- closing ----------------------------------------------------------------------------------

    def _answer_and_close(self, conn: TConn, answer: bytes) -> None:
        self._send_quietly(conn, answer)
        self._linger(conn)

    def _linger(self, conn: TConn) -> None:
        """Half-close, then drain what the client still sends until it closes (at most
        ``LINGER_S`` and ``LINGER_BYTES``), so the answer is not cut by a reset."""
        try:
            conn.sock.shutdown(socket.SHUT_WR)
            conn.sock.setblocking(False)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_linger, conn))
        except (OSError, ValueError, KeyError):
            self._close(conn)
            return
        self.lingering[conn] = _Waiting(None, time.monotonic() + LINGER_S)

    def _on_linger(self, conn: TConn, _sock: Any) -> None:
        w = self.lingering.get(conn)
        chunk = None if w is None else _receive(conn)
        if w is None or chunk is None:
            return
        w.drained += len(chunk)
        if not chunk or w.drained >= LINGER_BYTES:
            self._end_linger(conn)

    def _end_linger(self, conn: TConn) -> None:
        self.lingering.pop(conn, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(conn.sock)
        self._close(conn)

    def _close(self, conn: TConn) -> None:
        self.nr_conns -= 1
        conn.close()

    # --- timeouts (gthread's loop calls these about once a second) ----------------------------

    def murder_pending(self) -> None:
        super().murder_pending()
        now = time.monotonic()
        for conn, w in [(c, w) for c, w in self.waiting.items() if w.deadline <= now]:
            self._forget(conn, w)
            self.poller.unregister(conn.sock)
            if w.started:
                self._answer_and_close(conn, TIMEOUT_ANSWER)
            else:
                self._close(conn)
        for conn in [c for c, w in self.lingering.items() if w.deadline <= now]:
            self._end_linger(conn)

    def _cap_keepalive(self, deadline: float) -> None:
        """Stopping: idle connections close by ``deadline``; requests being sent may finish."""
        super()._cap_keepalive(deadline)
        for w in self.waiting.values():
            if not w.started:
                w.deadline = min(w.deadline, deadline)

    def murder_keepalived(self, force: bool = False) -> None:
        super().murder_keepalived(force)
        if force:
            for conn, w in list(self.waiting.items()):
                self._forget(conn, w)
                self._end_linger(conn)
            for conn in list(self.lingering):
                self._end_linger(conn)
