"""Errors as JSON under ``/api/``: ``{"error": {"code", "message", "field"}}``.

Domain errors (``hexmap.errors.ProjectError`` and subclasses) carry their own status, code and
field. Flask's own HTTP errors (404, 405, 413, …) under ``/api/`` get the same shape; on pages
they keep Flask's HTML.
"""

from __future__ import annotations

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from hexmap.errors import ProjectError


def error_response(
    status: int, code: str, message: str, field: str | None = None, **extra
) -> Response:
    body = {"error": {"code": code, "message": message, "field": field, **extra}}
    resp = jsonify(body)
    resp.status_code = status
    return resp


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/openapi.json"


def register(app: Flask) -> None:
    @app.errorhandler(ProjectError)
    def _project_error(e: ProjectError):
        return error_response(e.status, e.code, e.message, e.field)

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException):
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
