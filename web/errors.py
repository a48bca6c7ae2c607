"""Errors as JSON under ``/api/``: ``{"error": {"code", "reason", "message", "field", "params"}}``.

The only place where domain errors (``errors.ProjectError`` and its subclasses, which know
nothing of HTTP) meet status codes: ``STATUS`` maps each category to one. Flask's own HTTP errors
(404, 405, 413, …) under ``/api/`` get the same shape. On pages every error, domain or HTTP, is
``templates/error.html``: the site's layout, a sentence in the reader's language (``error.<reason>``
for a domain error) and links back.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from errors import (
    Busy,
    Forbidden,
    IllegalAction,
    InvalidInput,
    NotFound,
    ProjectError,
    RequestTimeout,
    StaleVersion,
    TooLarge,
    TooManyRequests,
    Unauthorized,
)
from i18n import catalogue, translate
from web.i18n import current_lang

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
    RequestTimeout: 408,
    Busy: 503,
    TooManyRequests: 429,
}


def status_of(error: ProjectError) -> int:
    """The HTTP status of a domain error (by its class, nearest base first)."""
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


#: The integers an error's JSON holds as numbers: what orjson, the answers' writer, writes
#: (64 bits, signed or not).
JSON_INTS = range(-(2**63), 2**64)


def writable(value: Any) -> Any:
    """``value`` as JSON any writer takes (an error's params, echoed from a request, may hold
    anything): an integer outside ``JSON_INTS``, or a value of no JSON type, becomes
    its text; containers are copied with string keys. An error's answer is never lost to a value
    the writer refuses (a 500 in place of a 400)."""
    if value is None or isinstance(value, bool | str | float):
        return value
    if isinstance(value, int):
        return value if value in JSON_INTS else str(value)
    if isinstance(value, dict):
        return {str(k): writable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [writable(v) for v in value]
    return str(value)


def error_body(
    code: str,
    message: str,
    field: str | None = None,
    reason: str | None = None,
    params: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The JSON of an error answer (``reason`` defaults to ``code``; ``params`` and ``extra``
    made ``writable``)."""
    return {
        "error": {
            "code": code,
            "reason": reason or code,
            "message": message,
            "field": field,
            "params": writable(params or {}),
            **writable(extra),
        }
    }


def error_response(
    status: int,
    code: str,
    message: str,
    field: str | None = None,
    reason: str | None = None,
    params: dict[str, Any] | None = None,
    **extra: Any,
) -> Response:
    resp = jsonify(error_body(code, message, field, reason, params, **extra))
    resp.status_code = status
    return resp


def domain_error(e: ProjectError) -> tuple[int, dict[str, Any], dict[str, str]]:
    """A domain error's answer: status, JSON (``error.version`` too for a stale version) and
    extra headers (``Retry-After`` when busy)."""
    extra: dict[str, Any] = {}
    if isinstance(e, StaleVersion):
        extra["version"] = e.current
    body = error_body(e.code, e.message, e.field, e.reason, e.params, **extra)
    headers = {"Retry-After": str(max(1, round(e.retry_after_s)))} if isinstance(e, Busy) else {}
    return status_of(e), body, headers


def domain_error_response(e: ProjectError) -> Response:
    """The JSON response of a domain error (``domain_error``)."""
    status, body, headers = domain_error(e)
    resp = jsonify(body)
    resp.status_code = status
    resp.headers.update(headers)
    return resp


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/openapi.json"


def error_page(status: int, reason: str | None = None, params: dict | None = None) -> Any:
    """The page for an error (``templates/error.html``) with ``status``, in the request's language:
    the sentence of ``reason`` when the catalogue has one, else the status's."""
    lang = current_lang()
    cat = catalogue(lang)
    heading = translate(lang, "errorpage.title_404" if status == 404 else "errorpage.title")
    if reason and f"error.{reason}" in cat:
        text = translate(lang, f"error.{reason}", **(params or {}))
    elif status == 404:
        text = translate(lang, "errorpage.not_found")
    else:
        text = translate(lang, "error.generic")
    return render_template("error.html", heading=heading, text=text), status


def register(app: Flask) -> None:
    @app.errorhandler(ProjectError)
    def _project_error(e: ProjectError) -> Any:
        if not _wants_json():
            return error_page(status_of(e), e.reason, e.params)
        return domain_error_response(e)

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> Any:
        if not _wants_json():
            if (e.code or 500) >= 400 and e.code != 405:
                return error_page(e.code or 500)
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
