"""Streams and long-polls over a client's cap refused before Flask (``web.client_limits``).

A greedy client's burst is mostly requests the stream cap refuses: thousands of them, each
through Flask's request machinery (contexts, URL matching, the before- and after-request hooks,
a response object, the error handler) only to be told 429. ``StreamGuard`` is a thin WSGI layer
in front of the app (inside werkzeug's ``ProxyFix`` behind trusted proxies, so it sees the
forwarded address) that answers those itself, with the same status, JSON and headers as Flask's
error handler gives (``StreamSlots.refusal`` written by ``web.errors.domain_error``, the security
headers of ``web.security``, ``Retry-After``), written once at start-up.

- ``GET /api/games/<id>/stream`` from a client holding all its places: refused here. Otherwise
  it goes on to Flask, whose view takes the place (and still refuses one that lost a race).
  The guard looks only at the method, the path and the count: a stream that is both over the cap
  and malformed is answered 429 here, not 400.
- ``GET /api/games/<id>/events`` with a ``wait`` above 0 (a long-poll, which holds its
  connection as a stream does): counted here with the client's streams, the same cap and the
  same refusal, its place given back once its answer is sent. A ``wait`` that is not a number
  is left to Flask (a 400 that counts nothing).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qsl

import orjson
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.wsgi import ClosingIterator

from web.errors import domain_error
from web.security import security_headers

if TYPE_CHECKING:
    from errors import ProjectError


class StreamSlots(Protocol):
    """What the guard asks of the app's stream counts (``web.client_limits.StreamSlots``; a
    protocol here, so that module may build the guard without the two importing each other)."""

    def take(self, client: str) -> bool: ...
    def give(self, client: str) -> None: ...
    def full(self, client: str) -> bool: ...
    def refusal(self) -> ProjectError: ...


#: The paths the guard looks at: a game's stream, and its events (a long-poll with ``wait``).
_PATH = re.compile(r"/api/games/[^/]+/(stream|events)")

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def long_poll_wait(query: str) -> bool:
    """Whether an events query asks to wait (``wait`` a number above 0)."""
    for name, value in parse_qsl(query):
        if name == "wait":
            try:
                return float(value) > 0
            except ValueError:
                return False
    return False


class StreamGuard:
    """The WSGI layer (module doc): ``app`` behind it, ``slots`` the app's stream counts."""

    def __init__(self, app: WsgiApp, slots: StreamSlots) -> None:
        self.app = app
        self.slots = slots
        status, body, extra = domain_error(slots.refusal())
        self.payload = orjson.dumps(body, option=orjson.OPT_APPEND_NEWLINE)
        self.status = f"{status} {HTTP_STATUS_CODES[status]}"
        self.headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(self.payload))),
            *extra.items(),
            *security_headers(),
        ]

    def refuse(self, start_response: Callable[..., Any]) -> list[bytes]:
        start_response(self.status, list(self.headers))
        return [self.payload]

    def raw_refusal(self, close: bool) -> bytes:
        """The whole HTTP/1.1 answer of a refusal, for a server that writes it itself
        (``web.gevent_worker``): the same status, headers and JSON; ``close``: the connection
        closes after it."""
        lines = [f"HTTP/1.1 {self.status}", *(f"{k}: {v}" for k, v in self.headers)]
        lines.append("Connection: close" if close else "Connection: keep-alive")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + self.payload

    def kind(self, method: str, path: str, query: str) -> str | None:
        """``"stream"``, ``"poll"`` (a long-poll) or None (neither: not the guard's)."""
        found = _PATH.fullmatch(path)
        if found is None or method != "GET":
            return None
        if found.group(1) == "stream":
            return "stream"
        return "poll" if long_poll_wait(query) else None

    def over_cap(self, method: str, path: str, query: str, client: str) -> bool:
        """Whether this request is a stream or a long-poll ``client`` has no place left for."""
        return self.kind(method, path, query) is not None and self.slots.full(client)

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        kind = self.kind(
            environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", "")
        )
        if kind is None:
            return self.app(environ, start_response)
        client = environ.get("REMOTE_ADDR") or "unknown"
        if kind == "stream":
            if self.slots.full(client):
                return self.refuse(start_response)
            return self.app(environ, start_response)
        if not self.slots.take(client):
            return self.refuse(start_response)
        try:
            answer = self.app(environ, start_response)
        except BaseException:
            self.slots.give(client)
            raise
        return ClosingIterator(answer, lambda: self.slots.give(client))
