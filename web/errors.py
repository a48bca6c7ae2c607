"""Errors as JSON under ``/api/``: ``{"error": {"code", "reason", "message", "field", "params"}}``.

The only place where domain errors (``errors.ProjectError`` and its subclasses, which know
nothing of HTTP) meet status codes: ``STATUS`` maps each category to one. Flask's own HTTP errors
(404, 405, 413, …) under ``/api/`` get the same shape; on pages they keep Flask's HTML.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from errors import (
    Busy,
    Forbidden,
    IllegalAction,
    InvalidInput,
    NotFound,
    ProjectError,
    StaleVersion,
    TooLarge,
    Unauthorized,
)

#: HTTP status per error class; a subclass not listed takes its nearest listed base's.
STATUS: dict[type[ProjectError], int] = {
    ProjectError: 400,
    InvalidInput: 400,
    TooLarge: 413,
    NotFound: 404,
    IllegalAction: 409,
    StaleVersion: 409,
    Unauthorized: 401,
    Forbidden: 403,
    Busy: 503,
}


def status_of(error: ProjectError) -> int:
    """The HTTP status of a domain error (by its class, nearest base first)."""
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def error_response(
    status: int,
    code: str,
    message: str,
    field: str | None = None,
    reason: str | None = None,
    params: dict[str, Any] | None = None,
    **extra: Any,
) -> Response:
    body = {
        "error": {
            "code": code,
            "reason": reason or code,
            "message": message,
            "field": field,
            "params": params or {},
            **extra,
        }
    }
    resp = jsonify(body)
    resp.status_code = status
    return resp


def domain_error_response(e: ProjectError) -> Response:
    """The JSON response of a domain error (``error.version`` too for a stale version)."""
    extra: dict[str, Any] = {}
    if isinstance(e, StaleVersion):
        extra["version"] = e.current
    resp = error_response(status_of(e), e.code, e.message, e.field, e.reason, e.params, **extra)
    if isinstance(e, Busy):
        resp.headers["Retry-After"] = str(max(1, round(e.retry_after_s)))
    return resp


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/openapi.json"


def register(app: Flask) -> None:
    @app.errorhandler(ProjectError)
    def _project_error(e: ProjectError) -> Response:
        return domain_error_response(e)

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> Any:
        if not _wants_json():
            return e
        code = {
            404: "not_found",
            405: "method_not_allowed",
            413: "too_large",
            415: "unsupported_media_type",
        }.get(e.code or 500, "http_error")
        message = e.description or e.name
        if e.code == 413:
            message = "request body is larger than 1 MiB"
        resp = error_response(
            e.code or 500, code, message, "body" if e.code in (413, 415) else None
        )
        if e.code == 405 and hasattr(e, "valid_methods") and e.valid_methods:
            resp.headers["Allow"] = ", ".join(e.valid_methods)
        return resp
