"""One place where every JSON endpoint states its route and schemas, used to serve, validate and
document it.

An API module names its blueprint and OpenAPI tag once (``api = ApiRoutes(bp, "games")``) and
decorates each view once, in Flask's own shape: ``@api.get(path, summary, ...)``. The path is
written once, OpenAPI style (``/api/games/{game_id}``), and the decorator both registers the Flask
rule on the blueprint and records the description in ``ROUTES`` (built into ``/openapi.json`` by
``web.openapi``), so the served route, its parameters and its description cannot drift apart. A path
parameter whose schema has a ``pattern`` is matched by that pattern in the route itself
(``PatternConverter``, installed by ``install_converters``), so ``/api/games/import`` can never be
read as a game id; ``converters`` names others (``int``, or ``string`` for a view that checks its
pattern itself and names the field). ``validated(Model)`` parses the body against the same pydantic
model that documents it; pydantic errors become ``InvalidInput`` with a field path like
``maps[0].clues[2]`` (a model's validator that raises a domain error keeps its reason and params,
with that path).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from flask import Blueprint, Flask
from pydantic import BaseModel, ConfigDict, ValidationError
from werkzeug.routing import BaseConverter, Map

from errors import InvalidInput, ProjectError
from games.actions import range_refusal
from hexmap.seeds import SEED_LIMIT
from web.jsonbody import json_body

M = TypeVar("M", bound=BaseModel)
V = TypeVar("V", bound=Callable[..., Any])


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
    #: A seat token or an access token: ``"required"``, ``"optional"`` (spectators too) or
    #: ``None`` (not read). Every route that reads one takes a signed-in session's cookie too.
    bearer: Literal["required", "optional"] | None = None
    #: The session cookie of a signed-in browser (``web.accounts.credentials``): ``"required"``
    #: (a bearer token, where ``bearer`` is set, or the cookie), ``"optional"`` (a guest too)
    #: or ``None`` (not read).
    cookie: Literal["required", "optional"] | None = None
    #: Replaces the request model's schema in the document (e.g. one variant per game kind),
    #: for what a static model cannot say; the model still validates. ``$defs`` in it become
    #: components.
    request_schema: Callable[[], dict[str, Any]] | None = None
    #: Flask converters of path parameters by name (``{"index": "int"}``), besides patterns.
    converters: dict[str, str] = field(default_factory=dict)
    #: OpenAPI links of the success response: name → ``("get /api/games/{game_id}",
    #: {"game_id": "$response.body#/id"})`` (the operation by method and path).
    links: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)


ROUTES: list[RouteDoc] = []


#: The schema of a seed (``hexmap.seeds.check_seed``'s range).
SEED_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": SEED_LIMIT - 1}


def path_param(name: str, schema: dict[str, Any], description: str = "") -> dict[str, Any]:
    """An OpenAPI path parameter (required, as every path parameter is)."""
    param = {"name": name, "in": "path", "required": True, "schema": schema}
    return {**param, "description": description} if description else param


#: The path parameter of a route by game kind (``/api/lobby/{kind}``), and its 404.
P_KIND = path_param("kind", {"type": "string", "maxLength": 40})
E404_KIND = "No such game kind"


def query_param(name: str, schema: dict[str, Any], description: str = "") -> dict[str, Any]:
    """An OpenAPI query parameter (optional)."""
    param = {"name": name, "in": "query", "required": False, "schema": schema}
    return {**param, "description": description} if description else param


class PatternConverter(BaseConverter):
    """A path segment matching a regular expression: ``<pattern("[a-z]{3}"):name>``."""

    def __init__(self, url_map: Map, regex: str) -> None:
        super().__init__(url_map)
        self.regex = regex


def install_converters(app: Flask) -> None:
    """Make the converters ``ApiRoutes`` writes known to ``app`` (before any blueprint)."""
    app.url_map.converters["pattern"] = PatternConverter


def flask_rule(path: str, params: list[dict[str, Any]], converters: dict[str, str]) -> str:
    """``/api/games/{game_id}/seats/{index}`` → ``/api/games/<pattern("…"):game_id>/seats/
    <int:index>``: a parameter named in ``converters`` takes that converter, one whose schema
    has a ``pattern`` is matched by it, any other is one path segment."""
    schemas = {p["name"]: p.get("schema", {}) for p in params if p.get("in") == "path"}

    def rule(m: re.Match) -> str:
        name = m.group(1)
        pattern = schemas.get(name, {}).get("pattern")
        if name in converters:
            return f"<{converters[name]}:{name}>"
        if pattern:
            regex = pattern.removeprefix("^").removesuffix("$")
            if '"' in regex or ")" in regex:
                raise ValueError(f"path pattern {pattern!r} cannot be a rule argument")
            return f'<pattern("{regex}"):{name}>'
        return f"<{name}>"

    return re.sub(r"{(\w+)}", rule, path)


@dataclass(frozen=True)
class ApiRoutes:
    """A blueprint's documented routes under one OpenAPI tag, in Flask's shape:
    ``@api.get(path, summary, **doc)`` serves the view at ``path`` (OpenAPI style) on the
    blueprint and describes it in ``ROUTES`` (``doc``: the ``RouteDoc`` fields as keywords:
    ``request``, ``response``, ``errors``, ``params``, ``content_type``, ``status``, ``bearer``,
    ``cookie``, ``request_schema``, ``converters``, ``links``)."""

    bp: Blueprint
    tag: str

    def route(self, method: str, path: str, summary: str, **doc: Any) -> Callable[[V], V]:
        described = RouteDoc(method.lower(), path, summary, self.tag, **doc)
        ROUTES.append(described)
        rule = flask_rule(path, described.params, described.converters)

        def wrap(view: V) -> V:
            self.bp.add_url_rule(rule, view_func=view, methods=[method.upper()])
            return view

        return wrap

    def get(self, path: str, summary: str, **doc: Any) -> Callable[[V], V]:
        return self.route("GET", path, summary, **doc)

    def post(self, path: str, summary: str, **doc: Any) -> Callable[[V], V]:
        return self.route("POST", path, summary, **doc)

    def put(self, path: str, summary: str, **doc: Any) -> Callable[[V], V]:
        return self.route("PUT", path, summary, **doc)

    def delete(self, path: str, summary: str, **doc: Any) -> Callable[[V], V]:
        return self.route("DELETE", path, summary, **doc)


class StrictIn(BaseModel):
    """The base of every request body's model (``validated``): a field it does not name, or a
    value of another JSON type (``"3"`` for ``3``), is refused rather than dropped or coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)


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
        path = field_path(tuple(err["loc"]))
        context = err.get("ctx") or {}
        cause = context.get("error")
        name = str(err["loc"][-1]) if err["loc"] else "body"
        out_of_range = range_refusal(err["type"], context, path, name)
        if out_of_range is not None:
            raise out_of_range from None
        if isinstance(cause, ProjectError):  # a validator's own refusal: its reason stays
            raise InvalidInput(
                cause.message, path, reason=cause.reason, params=cause.params
            ) from None
        raise InvalidInput(err["msg"], path) from None
