"""Reading a JSON request body with a clear 400 for anything that is not a JSON object."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from errors import InvalidInput


def json_body(require_object: bool = True) -> Any:
    """The parsed JSON body. Not JSON (or not an object): ``InvalidInput`` on field ``body``."""
    raw = request.get_data(cache=True)
    if not raw:
        raise InvalidInput("the request body must be JSON, got an empty body", "body")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise InvalidInput(f"the request body is not valid JSON: {e}", "body") from None
    if require_object and not isinstance(data, dict):
        raise InvalidInput(
            f"the request body must be a JSON object, got {type(data).__name__}", "body"
        )
    return data
