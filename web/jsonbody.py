"""Reading a JSON request body with a clear 4xx for anything that is not a small, shallow object.

JSON has one kind of number: ``7``, ``7.0`` and ``7e0`` are the same integer (as JSON Schema
says too), so a number written with a fraction or an exponent that has an integral value is
read as an ``int``; ``7.5`` stays a ``float``. Strings and booleans are never numbers (the
request models are strict). Three limits, each an ``errors`` domain error with the field
``body``:

- not JSON, or not an object: ``InvalidInput`` (400);
- nested deeper than ``MAX_DEPTH`` arrays and objects, whatever the depth (a body of a million
  ``[`` included, which would otherwise raise ``RecursionError`` in the parser or in the code
  that walks it): ``InvalidInput`` with reason ``too_deep`` (400);
- larger than the app's ``MAX_CONTENT_LENGTH`` (1 MiB): Werkzeug refuses a ``Content-Length``
  over it (413) before reading; a chunked body has no length, so Werkzeug's stream stops at the
  limit and this module looks one byte further: ``TooLarge`` (413) if the body goes on.

``json_body()`` reads the request's body (``request_bytes``: the size checks) and parses it;
``parse_json(raw)`` reads JSON text under these rules without Flask (``web.lean`` answers a route
from its body bytes). The depth of the parsed value is walked only when the text has more than
``MAX_DEPTH`` opening brackets, which its depth can never exceed.

A body that stops arriving for longer than the connection's socket timeout (gunicorn.conf.py,
``TOBAGO_REQUEST_TIMEOUT_S``) is ``RequestTimeout`` (408), and the connection is closed after
that answer (``read_body``).
"""

from __future__ import annotations

import contextlib
import json
import socket
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import current_app, request
from werkzeug.exceptions import ClientDisconnected

from errors import InvalidInput, RequestTimeout, TooLarge

#: The deepest nesting of arrays and objects a body may have (the top-level object is depth 1).
MAX_DEPTH = 32


#: Integral numbers up to this many digits become ``int`` (past it: ``float``, range-checked).
MAX_INT_DIGITS = 20


def _number(text: str) -> int | float:
    """A JSON number with a fraction or an exponent: an ``int`` when its value is integral."""
    try:
        d = Decimal(text)
    except InvalidOperation:  # not reached: the parser only passes JSON numbers
        return float(text)
    if d.is_finite() and d.adjusted() < MAX_INT_DIGITS and d == d.to_integral_value():
        return int(d)
    return float(text)


def depth_exceeds(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``data`` nests arrays and objects deeper than ``limit`` (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def _refuse_unterminated_overflow(raw: bytes) -> None:
    """A body without ``Content-Length`` (chunked) that reached the size limit: 413 if more
    follows (Werkzeug's limited stream stops at the limit without saying so)."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is None or request.content_length is not None or len(raw) < limit:
        return
    if request.environ["wsgi.input"].read(1):
        raise TooLarge(f"request body is larger than {limit / 2**20:g} MiB", "body")


def _too_deep() -> InvalidInput:
    return InvalidInput(
        f"the request body nests arrays and objects deeper than {MAX_DEPTH} levels",
        "body",
        reason="too_deep",
        params={"limit": MAX_DEPTH},
    )


def read_body() -> bytes:
    """The request's body (read once, then cached). A read that timed out (Werkzeug reports it
    as a client that went away) is ``RequestTimeout``, and the socket is shut for reading, so
    the server closes the connection once the 408 is sent instead of waiting on the rest."""
    try:
        return request.get_data(cache=True)
    except ClientDisconnected as e:
        if not isinstance(e.__context__, TimeoutError):
            raise
        sock = request.environ.get("gunicorn.socket")
        if sock is not None:
            with contextlib.suppress(OSError):  # gone already
                sock.shutdown(socket.SHUT_RD)
        raise RequestTimeout("the request body stopped arriving", "body") from None


def request_bytes() -> bytes:
    """The request's body (a chunked body over the size limit: ``TooLarge``; a stalled one:
    ``RequestTimeout``)."""
    raw = read_body()
    _refuse_unterminated_overflow(raw)
    return raw


def json_body(require_object: bool = True) -> Any:
    """The parsed JSON body. Not JSON (or not an object), or too deep: ``InvalidInput`` on
    field ``body``; a chunked body over the size limit: ``TooLarge``; a stalled one:
    ``RequestTimeout``."""
    return parse_json(request_bytes(), require_object)


def parse_json(raw: bytes, require_object: bool = True) -> Any:
    """``raw`` parsed as JSON under the module's rules (``InvalidInput`` on field ``body``)."""
    if not raw:
        raise InvalidInput("the request body must be JSON, got an empty body", "body")
    try:
        data = json.loads(raw, parse_float=_number)
    except RecursionError:
        raise _too_deep() from None
    except (ValueError, UnicodeDecodeError) as e:
        raise InvalidInput(f"the request body is not valid JSON: {e}", "body") from None
    if require_object and not isinstance(data, dict):
        raise InvalidInput(
            f"the request body must be a JSON object, got {type(data).__name__}", "body"
        )
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and depth_exceeds(data):
        raise _too_deep()
    return data
