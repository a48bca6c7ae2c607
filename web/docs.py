"""``GET /openapi.json`` (built from the schema registry) and ``GET /api/docs`` (a page showing it).

The page (``templates/apidocs.html``, its script and stylesheet in ``static/apidocs/``) has the
site's header and its own words in the reader's language (``apidocs.*`` in
``i18n/<lang>/apidocs.json``); its script renders the document in the browser, whose operation
descriptions are in English. Nothing is loaded from outside the app.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

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
def api_docs() -> str:
    return render_template("apidocs.html")
