"""A lean path for the JSON API's busiest routes: answered from WSGI, without Flask's
per-request machinery.

For every request Flask builds a request and an app context, binds the URL map, opens a
session, runs the before- and after-request hooks and builds a response object: 50-90 µs of
CPU, more than a solve's own work (reading the body, validating it, writing the answer). A route
whose answer depends on its body alone (no cookie, language, session, seat token or database)
is registered here too with ``lean_route(method, path, handler)``: ``handler(body) -> str`` gives
the answer's JSON text from the body's bytes, or raises a domain error. A route with path
parameters whose answer reads only them, its headers, the body and the app's own objects (no
language and no Flask session; a move: ``web.games_api``, which reads its credentials, the
session cookie among them, from the environment) is registered with
``lean_pattern(method, pattern, handler)``: ``pattern`` a regular expression its whole path
matches (named groups: the parameters), ``handler(LeanRequest) -> str``.

``install(app)`` wraps the app's ``wsgi_app`` in ``LeanApi``. A request whose method and path
match a lean route exactly and whose ``Content-Length`` is within ``MAX_CONTENT_LENGTH`` is
answered here: its body read from ``wsgi.input`` (a body that stalls past the socket's timeout:
408, as on Flask's path, ``web.jsonbody.read_within_timeout``), the handler's text with status 200, a domain
error as the JSON and status Flask's handler gives it (``web.errors.domain_error``), every answer
with the security headers (``web.security``). Anything else (another route, a chunked body, one
over the limit) goes to Flask, which serves the lean routes as well, its view calling the same
handler: the two paths give the same answers (``tests/test_lean.py``).

``/healthz`` stays on Flask's full path: it is the benches' baseline, what the cheapest request
through the framework costs (``bench/solver_bench.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Flask
from werkzeug.exceptions import InternalServerError
from werkzeug.http import HTTP_STATUS_CODES

from errors import ProjectError
from web.errors import domain_error, error_body
from web.jsonbody import read_within_timeout
from web.security import security_headers

Handler = Callable[[bytes], str]
#: The lean routes: (method, path) → handler.
ROUTES: dict[tuple[str, str], Handler] = {}


@dataclass(frozen=True)
class LeanRequest:
    """What a lean route with parameters reads: the app, the path's parameters, the WSGI
    environment (its headers) and the body's bytes."""

    app: Flask
    params: dict[str, str]
    environ: dict[str, Any]
    body: bytes


PatternHandler = Callable[[LeanRequest], str]
#: The lean routes with parameters: (method, the path's pattern, handler), tried in order.
PATTERNS: list[tuple[str, re.Pattern[str], PatternHandler]] = []


def lean_route(method: str, path: str, handler: Handler) -> None:
    """Answer ``method path`` (an exact path, no parameters) with ``handler`` on the lean path."""
    ROUTES[(method.upper(), path)] = handler


def lean_pattern(method: str, pattern: str, handler: PatternHandler) -> None:
    """Answer ``method`` on the paths that match ``pattern`` whole (its named groups: the
    parameters) with ``handler`` on the lean path."""
    PATTERNS.append((method.upper(), re.compile(pattern), handler))


def _handler(method: str, path: str) -> Callable[[Flask, dict[str, Any], bytes], str] | None:
    """The lean handler of ``method path``, as a function of the app, the environment and the
    body (``None``: not a lean route)."""
    exact = ROUTES.get((method, path))
    if exact is not None:
        return lambda _app, _environ, body: exact(body)
    for m, pattern, handler in PATTERNS:
        found = pattern.fullmatch(path) if m == method else None
        if found is not None:
            params = found.groupdict()
            return lambda app, environ, body: handler(LeanRequest(app, params, environ, body))
    return None


def _json(data: Any) -> str:
    """An error's JSON text (``web.errors.error_body`` makes its values writable; should one
    still be refused, the standard library writes it, as Flask's provider falls back)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE).decode()
    except TypeError:
        return json.dumps(data, separators=(",", ":"), default=str) + "\n"


class LeanApi:
    """The WSGI app: lean routes answered here, every other request passed to ``wsgi_app``."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.headers = list(security_headers())

    def _length(self, environ: dict[str, Any]) -> int | None:
        """The body's length when this path may read it (known, and within the limit)."""
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:  # none (chunked) or malformed: Flask decides
            return None
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        return length if length >= 0 and (limit is None or length <= limit) else None

    def _propagate(self) -> bool:
        found = self.app.config.get("PROPAGATE_EXCEPTIONS")
        return bool(self.app.testing or self.app.debug) if found is None else bool(found)

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
        handler = _handler(method, path)
        length = None if handler is None else self._length(environ)
        if handler is None or length is None:
            return self.wsgi_app(environ, start_response)
        extra: dict[str, str] = {}
        try:
            raw = read_within_timeout(environ, lambda: environ["wsgi.input"].read(length))
            status, text = 200, handler(self.app, environ, raw)
        except ProjectError as e:
            status, body, extra = domain_error(e)
            text = _json(body)
        except Exception:
            if self._propagate():
                raise
            self.app.logger.error("Exception on %s [%s]", path, method, exc_info=True)
            status = 500
            text = _json(error_body("http_error", InternalServerError.description))
        payload = text.encode()
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(payload))),
            *extra.items(),
            *self.headers,
        ]
        start_response(f"{status} {HTTP_STATUS_CODES[status]}", headers)
        return [payload]


def install(app: Flask) -> None:
    """Serve ``app``'s lean routes on the lean path (once its blueprints are registered)."""
    app.wsgi_app = LeanApi(app, app.wsgi_app)  # type: ignore[method-assign]
