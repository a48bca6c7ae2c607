"""``GET /openapi.json`` (built from the schema registry) and ``GET /api/docs`` (a page showing it).

The page is static (``static/apidocs/``: HTML, one readable script, one stylesheet) and renders the
document in the browser; nothing is loaded from outside the app.
"""

from __future__ import annotations

import os

from flask import Blueprint, Response, current_app, jsonify, send_from_directory

from web.apidoc import ROUTES
from web.openapi import build_openapi

bp = Blueprint("docs", __name__)
_cache: dict[int, dict] = {}


def openapi_document() -> dict:
    """The document, built once per process (rebuilt if more routes were declared since)."""
    key = len(ROUTES)
    if key not in _cache:
        _cache.clear()
        _cache[key] = build_openapi()
    return _cache[key]


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return jsonify(openapi_document())


@bp.get("/api/docs")
def api_docs() -> Response:
    folder = os.path.join(current_app.static_folder or "static", "apidocs")
    resp = send_from_directory(folder, "index.html")
    resp.headers["Content-Type"] = "text/html; charset=utf-8"
    return resp
