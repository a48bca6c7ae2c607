"""The OpenAPI 3.1 description of every JSON endpoint, built from ``web.apidoc.ROUTES``.

Each API module declares its routes with ``@api.get(...)``, ``@api.post(...)``
(``web.apidoc.ApiRoutes``: pydantic request/response models, extra error statuses, parameters,
whether a seat token is read); this module turns that registry into one document. Schemas come from
``pydantic.json_schema.models_json_schema`` (requests in validation mode, responses in serialization
mode) and land under ``components/schemas``; a route may replace its request schema with a sharper
one (``request_schema``: one variant per game kind). Every error status refers to the shared
``Error`` schema.

Filled in for every route without being declared: 400 and 413 where there is a request body,
404 where there is a path parameter, 414 (gunicorn's own HTML page, before the app) where there
are parameters that can make the request line longer than ``MAX_REQUEST_LINE`` bytes.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from games.base import kinds
from web.accounts.credentials import COOKIE
from web.apidoc import ROUTES, RouteDoc

TITLE = "Tobago study API"
VERSION = "1.0.0"
DESCRIPTION = (
    "Play and study Tobago and other board games. Every 4xx answer is "
    '`{"error": {"code", "reason", "message", "field", "params"}}` (`code` the category, `reason` '
    "the precise stable cause, `params` the values its sentence names, for clients that word "
    "errors in their own language); request bodies are JSON objects of at most "
    "1 MiB. Seat tokens travel as `Authorization: Bearer <token>`; a signed-in account acts for "
    "the seats it holds by its session cookie (writes with `X-CSRF-Token`) or a personal "
    "access token (`Authorization: Bearer tbp_...`)."
)
REF = "#/components/schemas/{model}"
#: gunicorn's limit on the request line (method, path and query), answered 414 above it.
MAX_REQUEST_LINE = 4094


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")

    code: str = Field(
        description="The category: invalid, not_found, illegal, unauthorized, forbidden, "
        "stale_version, too_large, busy, unavailable, rate_limited"
    )
    reason: str = Field(
        description="The precise, stable cause within the category (the category itself when "
        "nothing more precise is known), e.g. removes_no_candidate, not_your_turn"
    )
    message: str = Field(description="The error in English")
    field: str | None = Field(description="Path of the input at fault, e.g. maps[0].clues[2]")
    params: dict[str, Any] = Field(
        default_factory=dict, description="The values the reason's sentence names"
    )
    version: int | None = Field(
        default=None, description="stale_version only: the game's current version"
    )


class Error(BaseModel):
    error: ErrorDetail


_STATUS_TEXT = {
    400: "Malformed request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    409: "Conflict",
    429: "Too many requests (Retry-After says when to ask again)",
    413: "Body larger than 1 MiB",
    414: f"Request line (path and query) longer than {MAX_REQUEST_LINE} bytes: refused by the "
    "HTTP server (an HTML page) before the app",
}


def _routes() -> list[RouteDoc]:
    """The documented routes, the last declaration of a (method, path) winning."""
    seen: dict[tuple[str, str], RouteDoc] = {}
    for r in ROUTES:
        seen[(r.method, r.path)] = r
    return sorted(seen.values(), key=lambda r: (r.tag, r.path, r.method))


def _schemas(routes: list[RouteDoc]) -> tuple[dict, dict]:
    """``(refs, components)``: refs[(model, mode)] is the ``$ref`` object for that model."""
    wanted: list[tuple[type[BaseModel], Any]] = [(Error, "serialization")]
    for r in routes:
        if r.request is not None:
            wanted.append((r.request, "validation"))
        if r.response is not None:
            wanted.append((r.response, "serialization"))
    wanted = list(dict.fromkeys(wanted))
    refs, top = models_json_schema(wanted, ref_template=REF)
    return refs, top.get("$defs", {})


def _params(route: RouteDoc) -> list[dict]:
    params = [dict(p) for p in route.params]
    named = {p["name"] for p in params if p.get("in") == "path"}
    for name in re.findall(r"{(\w+)}", route.path):
        if name not in named:
            params.append(
                {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            )
    return params


def operation_id(method: str, path: str) -> str:
    """``get``, ``/api/games/{game_id}`` → ``get_api_games_game_id``."""
    return re.sub(r"\W+", "_", f"{method.lower()}{path}").strip("_")


def _operation(route: RouteDoc, refs: dict, components: dict) -> dict:
    op: dict[str, Any] = {
        "operationId": operation_id(route.method, route.path),
        "summary": route.summary,
        "tags": [route.tag],
    }
    params = _params(route)
    if params:
        op["parameters"] = params
    if route.request is not None:
        op["requestBody"] = _request_body(route, route.request, refs, components)
    op["responses"] = _responses(route, params, refs)
    ways: list[dict[str, list]] = [{"bearerAuth": []}] if route.bearer is not None else []
    ways += [{"cookieAuth": []}] if route.cookie is not None else []
    if ways:  # either credential; none at all where one is optional
        anyone = "optional" in (route.bearer, route.cookie)
        op["security"] = ways + ([{}] if anyone else [])
    return op


def _request_body(route: RouteDoc, request: type[BaseModel], refs: dict, components: dict) -> dict:
    """The body a route takes: its own schema (its parts added to ``components``) or its
    model's; required when a field of the model is."""
    required = any(f.is_required() for f in request.model_fields.values())
    if route.request_schema is not None:
        body_schema = dict(route.request_schema())
        components.update(body_schema.pop("$defs", {}))
    else:
        body_schema = refs[(request, "validation")]
    return {"required": required, "content": {"application/json": {"schema": body_schema}}}


def _responses(route: RouteDoc, params: list[dict], refs: dict) -> dict[str, Any]:
    """A route's answers: its success (with its links), its errors (400 and 413 where it takes a
    body, 404 where its path names something) and 414 where its path has parameters."""
    if route.content_type is not None:
        success = {route.content_type: {"schema": {"type": "string"}}}
    elif route.response is not None:
        success = {"application/json": {"schema": refs[(route.response, "serialization")]}}
    else:
        success = {"application/json": {"schema": {"type": "object"}}}
    responses: dict[str, Any] = {str(route.status): {"description": "OK", "content": success}}
    if route.status == 204:
        responses = {"204": {"description": "Done (no body)"}}
    if route.links:
        responses[str(route.status)]["links"] = {
            name: {"operationId": operation_id(*target.split(" ", 1)), "parameters": params}
            for name, (target, params) in route.links.items()
        }
    errors = dict(route.errors)
    if route.request is not None:
        errors.setdefault(400, _STATUS_TEXT[400])
        errors.setdefault(413, _STATUS_TEXT[413])
    if any(p.get("in") == "path" for p in params):
        errors.setdefault(404, _STATUS_TEXT[404])
    error_ref = refs[(Error, "serialization")]
    for status in sorted(errors):
        responses[str(status)] = {
            "description": errors[status] or _STATUS_TEXT.get(status, "Error"),
            "content": {"application/json": {"schema": error_ref}},
        }
    if params:
        responses["414"] = {
            "description": _STATUS_TEXT[414],
            "content": {"text/html": {"schema": {"type": "string"}}},
        }
    return responses


def build_openapi() -> dict:
    """The OpenAPI 3.1 document for every route in ``web.apidoc.ROUTES``."""
    routes = _routes()
    refs, components = _schemas(routes)
    paths: dict[str, dict] = {}
    for route in routes:
        paths.setdefault(route.path, {})[route.method] = _operation(route, refs, components)
    for name, kind in sorted(kinds().items()):
        view = kind.view_schema()
        if view is not None:  # each game's view shape, named by kind (see GameStateOut.view)
            components[f"View_{name}"] = {k: v for k, v in view.items() if k != "$schema"}
        # each game's actions with their bounds (see ActionIn.action), parts as components
        actions = kind.action_schema(REF.format(model=f"Action_{name}_{{model}}"))
        parts = actions.pop("$defs", {})
        components.update({f"Action_{name}_{part}": s for part, s in parts.items()})
        components[f"Actions_{name}"] = actions
    tags = sorted({r.tag for r in routes})
    return {
        "openapi": "3.1.0",
        "info": {"title": TITLE, "version": VERSION, "description": DESCRIPTION},
        "tags": [{"name": t} for t in tags],
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token from POST /api/games or a seat claim, or an "
                    "account's personal access token (tbp_..., POST /api/me/tokens)",
                },
                "cookieAuth": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": COOKIE,
                    "description": "A signed-in browser's session (POST /api/session); its "
                    "writes need the session's X-CSRF-Token header",
                },
            },
        },
    }
