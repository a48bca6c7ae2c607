"""gunicorn's gevent worker with a cap on each client's connections (``gunicorn.conf.py``'s
``worker_class``; the limits and their settings: ``web.client_limits``).

A connection is counted from the moment the worker hands it to its greenlet until it closes,
whatever it does meanwhile (an idle keep-alive connection, a request, a stream), per peer
address. Beyond ``client_connections(worker_connections)`` one client's next connection is
answered at once with ``429 Too Many Requests`` (the API's error shape, ``rate_limited`` /
``too_many_connections``, ``Retry-After``) and closed, before its request is read: it costs the
worker a few writes and reads, and never takes a place the others need. Behind trusted proxies
(``TOBAGO_TRUSTED_PROXIES``) every connection is a proxy's and nothing is counted.

The answer is written, the sending side shut, and what the client sent is read (for at most
``DRAIN_S``) before closing: a socket closed with unread bytes sends a reset, which can reach
the client before the answer it has not read yet and lose it.
"""

from __future__ import annotations

import socket
import time
from typing import Any

import orjson
from gunicorn.workers.ggevent import GeventWorker

#: How long a refused connection's request is read before it is closed (seconds).
DRAIN_S = 1.0


def refusal(limit: int, retry_after_s: float) -> bytes:
    """The whole answer to a connection over its client's cap."""
    body = orjson.dumps(
        {
            "error": {
                "code": "rate_limited",
                "reason": "too_many_connections",
                "message": f"too many open connections from your address: at most {limit} to "
                "each server process; close some or try again later",
                "field": None,
                "params": {"limit": limit, "retry_after": retry_after_s},
            }
        }
    )
    head = (
        "HTTP/1.1 429 Too Many Requests\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"Retry-After: {round(retry_after_s)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def refuse(client: socket.socket, answer: bytes) -> None:
    """Send ``answer``, read what the client sends for at most ``DRAIN_S``, close (module doc)."""
    try:
        client.settimeout(DRAIN_S)
        client.sendall(answer)
        client.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + DRAIN_S
        while time.monotonic() < deadline and client.recv(65536):
            pass
    except OSError:  # gone, or silent past the drain: closed all the same
        pass
    finally:
        client.close()


class ClientLimitedWorker(GeventWorker):
    """gunicorn's gevent worker, with each client's connections counted and capped."""

    def run(self) -> None:
        # (here, not at import: the worker has patched threading by now, so the lock is gevent's)
        from web.client_limits import RETRY_AFTER_S, Counts, client_connections, setting

        limit = client_connections(self.worker_connections)
        self.trusted = setting({}, "TRUSTED_PROXIES", 0) > 0
        self.connections = Counts(limit)
        self.refusal = refusal(limit, RETRY_AFTER_S)
        super().run()

    def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
        who = addr[0] if isinstance(addr, tuple) and not self.trusted else None
        if who is None:  # a Unix socket, or behind trusted proxies: not counted
            super().handle(listener, client, addr)
            return
        if not self.connections.take(who):
            refuse(client, self.refusal)
            return
        try:
            super().handle(listener, client, addr)
        finally:
            self.connections.give(who)
