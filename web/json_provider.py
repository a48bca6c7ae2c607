"""The service's JSON answers, written by orjson: the same JSON as the standard library's, faster.

Every API answer is a ``dict`` turned into text once per request, and the big ones (a game
snapshot: the seat's view with each map's candidates, the legal actions, the events) cost more
to write with ``json.dumps`` than the engine spends on the move (a Tobago snapshot about 125 µs
of a POST's 830 µs in process; orjson writes it in a tenth of that). ``OrjsonProvider`` replaces
Flask's default provider for writing only; reading stays with ``web/jsonbody.py``, which checks
depth and size before it parses.

What stays as it was: keys in the order each object was built (sorted only when
``JSON_SORT_KEYS`` asks), compact output, a trailing newline, ``int`` keys written as strings. What orjson does differently and is still
valid JSON: non-ASCII characters are written as UTF-8, not ``\\uXXXX`` escapes (the answers are
``application/json``, whose encoding is UTF-8). Dates and times are handed to Flask's
``default`` (HTTP dates), as before. Anything orjson refuses (an integer beyond
64 bits, an object it does not know) falls back to Flask's own provider, so an answer is never
lost to the faster path.
"""

from __future__ import annotations

from typing import Any, cast

import orjson
from flask import Response as FlaskResponse
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider with orjson behind ``response`` and argument-free ``dumps``."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """``obj`` as compact JSON text; with keyword arguments (indent, separators, ...) the
        standard library writes it as Flask's provider would."""
        if kwargs:
            return super().dumps(obj, **kwargs)
        try:
            return orjson.dumps(obj, default=self.default, option=self._options()).decode()
        except TypeError:
            return super().dumps(obj, separators=(",", ":"))

    def _options(self) -> int:
        """orjson's options for this provider: string keys from ints, dates to ``default``,
        keys sorted when asked."""
        sort = orjson.OPT_SORT_KEYS if self.sort_keys else 0
        return orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | sort

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON response, as ``jsonify`` and a view returning a ``dict`` give it."""
        obj = self._prepare_response_obj(args, kwargs)
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(obj)  # indented for a reader: the standard library
        try:
            body = orjson.dumps(
                obj, default=self.default, option=self._options() | orjson.OPT_APPEND_NEWLINE
            )
        except TypeError:
            return super().response(obj)
        response_class = cast(type[FlaskResponse], self._app.response_class)
        return response_class(body, mimetype=self.mimetype)
