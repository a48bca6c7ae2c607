"""One place where every JSON endpoint states its schemas, used both to validate and to document.

An API module decorates its view with ``@documented(...)`` naming pydantic models for the request
body and the response; ``validated(Model)`` parses the body against the same model, so the
OpenAPI description (built from ``ROUTES`` by ``web.openapi``) cannot drift from the code.
Pydantic errors become ``InvalidInput`` with a field path like ``maps[0].clues[2]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from errors import InvalidInput
from web.jsonbody import json_body

M = TypeVar("M", bound=BaseModel)


@dataclass
class RouteDoc:
    method: str
    path: str  # OpenAPI style: /api/games/{game_id}
    summary: str
    tag: str
    request: type[BaseModel] | None = None
    response: type[BaseModel] | None = None
    #: Extra responses: status → description (errors use the shared error schema).
    errors: dict[int, str] = field(default_factory=dict)
    #: OpenAPI parameter objects (path and query).
    params: list[dict[str, Any]] = field(default_factory=list)
    #: Non-JSON success content type (e.g. "image/svg+xml"), if any.
    content_type: str | None = None
    status: int = 200


ROUTES: list[RouteDoc] = []


def documented(method: str, path: str, summary: str, tag: str, **kw: Any) -> Callable:
    """Record the route's description; returns the view unchanged."""
    ROUTES.append(RouteDoc(method.lower(), path, summary, tag, **kw))

    def wrap(view: Callable) -> Callable:
        return view

    return wrap


def field_path(loc: tuple[Any, ...]) -> str:
    """``("maps", 0, "clues", 2)`` → ``maps[0].clues[2]`` (pydantic union tags dropped)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and (part.startswith("function-") or "[" in part):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out or "body"


def validated(model: type[M], data: Any | None = None) -> M:
    """Parse ``data`` (default: the JSON body) against ``model``; first error → InvalidInput."""
    if data is None:
        data = json_body()
    try:
        return model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        raise InvalidInput(err["msg"], field_path(tuple(err["loc"]))) from None
