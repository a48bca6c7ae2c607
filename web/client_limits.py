"""Per-client limits: no one client can take every stream or every connection of a worker.

A client is an address: the peer's (``REMOTE_ADDR``), or, behind ``TRUSTED_PROXIES`` reverse
proxies (``TOBAGO_TRUSTED_PROXIES``, default 0), the address the nearest of them was asked
from: ``X-Forwarded-For``'s value that many places from its right, read by werkzeug's
``ProxyFix`` (``install`` wraps the app in it, so the sign-in limits of ``web.accounts.limits``
see the same address). A client that forges the header moves only its own place in the
counts, never past the proxies' own entries.

Two limits, both counted per worker process (each gevent worker is a process with its own
listening socket, ``reuse_port``: the kernel spreads a client's connections over the workers,
so a client holds at most ``workers`` times each cap, and every worker keeps the rest of its
connections for the others):

- **Streams** (``CLIENT_STREAMS``, ``TOBAGO_CLIENT_STREAMS``): open event streams
  (``GET /api/games/<id>/stream``) and long-polls (``GET .../events`` with a ``wait``) per
  client. One more is refused with 429 ``rate_limited`` / ``too_many_streams`` in the error
  shape, with ``Retry-After`` (``StreamSlots.refusal``), before Flask: by the gevent worker
  (``web.gevent_worker``) or the WSGI layer in front of the app (``web.stream_guard``).
  Default: half the per-client connections, so a client at its stream cap still has
  connections left for its moves and reads.
- **Connections** (``TOBAGO_CLIENT_CONNECTIONS``): a client's open connections to one worker
  (idle keep-alive ones too, which never reach Flask), counted where gunicorn's gevent worker
  hands a new connection to its greenlet (``web.gevent_worker``). One more is answered at once
  with 429 ``too_many_connections`` and closed. Default: a quarter of the worker's
  ``worker_connections`` (``TOBAGO_CONNECTIONS``): 2,500 of 10,000, so three quarters of every
  worker stay free for other clients whatever one client opens. Behind trusted proxies every
  connection comes from a proxy, so this cap is off there: the proxy limits its clients'
  connections (nginx's ``limit_conn``) and the stream cap still counts the forwarded address.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, request
from werkzeug.middleware.proxy_fix import ProxyFix

from errors import TooManyRequests
from web.config import from_environment

#: The share of a worker's connections one client may hold (``CLIENT_CONNECTIONS``' default).
CONNECTION_SHARE = 4
#: What a refused stream or connection is told to wait before trying again (seconds).
RETRY_AFTER_S = 10.0


def client_connections(worker_connections: int) -> int:
    """The connections one client may hold open to one worker of ``worker_connections``:
    ``CLIENT_CONNECTIONS`` (a process setting: read through ``web.config.from_environment``,
    as the gunicorn worker class has no app), else a quarter of them."""
    configured: int | None = from_environment("CLIENT_CONNECTIONS")
    if configured is None:
        configured = worker_connections // CONNECTION_SHARE
    return max(1, configured)


def client_streams(config: Mapping[str, Any]) -> int:
    """The streams one client may hold open in one worker (module doc): the app's
    ``CLIENT_STREAMS`` (``web.config`` put the environment's there), else half the client's
    connections to a worker of ``CONNECTIONS``."""
    configured: int | None = config.get("CLIENT_STREAMS")
    if configured is None:
        configured = client_connections(from_environment("CONNECTIONS")) // 2
    return max(1, configured)


class Counts:
    """How many of something each client holds open in this process, at most ``limit`` each
    (thread-safe: gevent's lock under gunicorn, a thread lock under werkzeug's server)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> bool:
        """Count one more for ``client``; False (nothing counted) when it holds ``limit``."""
        with self._lock:
            n = self.open.get(client, 0)
            if n >= self.limit:
                return False
            self.open[client] = n + 1
            return True

    def give(self, client: str) -> None:
        """One of ``client``'s ended."""
        with self._lock:
            n = self.open.get(client, 0) - 1
            if n > 0:
                self.open[client] = n
            else:
                self.open.pop(client, None)

    def total(self) -> int:
        with self._lock:
            return sum(self.open.values())


class StreamSlots(Counts):
    """The open streams per client of one app in this process."""

    def full(self, client: str) -> bool:
        """Whether ``client`` holds all its places (a new stream would be refused)."""
        return self.open.get(client, 0) >= self.limit

    def refusal(self) -> TooManyRequests:
        """The error a stream over the cap is answered with (429 ``too_many_streams``)."""
        refused = TooManyRequests(
            f"too many open streams from your address: at most {self.limit} in each "
            "server process; close a game page or try again later",
            RETRY_AFTER_S,
            reason="too_many_streams",
        )
        refused.params["limit"] = self.limit
        return refused

    def take_for(self, client: str) -> None:
        """Count a stream for ``client``, or refuse it (429 ``too_many_streams``)."""
        if not self.take(client):
            raise self.refusal()


def client_address() -> str:
    """The current request's client (module doc: after ``ProxyFix``, the forwarded one)."""
    return request.remote_addr or "unknown"


def stream_slots(app: Flask | None = None) -> StreamSlots:
    """The stream counts of ``app`` (the current one by default)."""
    slots: StreamSlots = (app or current_app).extensions["client_streams"]
    return slots


def install(app: Flask) -> None:
    """Read the settings; refuse streams over the cap before Flask (``web.stream_guard``,
    right in front of Flask, behind the lean path whose routes are never streams); behind
    trusted proxies, take the client's address from them (outermost, so the guard counts the
    forwarded address)."""
    from web.lean import LeanApi
    from web.stream_guard import StreamGuard

    slots = app.extensions["client_streams"] = StreamSlots(client_streams(app.config))
    guard = app.extensions["stream_guard"] = StreamGuard(app.wsgi_app, slots)
    lean = app.wsgi_app
    if isinstance(lean, LeanApi):
        guard.app = lean.wsgi_app
        lean.wsgi_app = guard
    else:
        app.wsgi_app = guard  # type: ignore[method-assign]
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
