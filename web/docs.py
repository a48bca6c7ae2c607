"""``GET /openapi.json`` (built from the schema registry) and ``GET /api/docs`` (a page showing it).

The page (``templates/apidocs.html``, its script and stylesheet in ``static/apidocs/``) has the
site's header and its own words in the reader's language (``apidocs.*`` in
``i18n/<lang>/apidocs.json``); its script renders the document in the browser. The document is
written in English (``/openapi.json`` stays so); the page shows each operation's summary and its
parameters' and responses' descriptions in the reader's language: ``apidocs.doc.<slug>`` holds
each such text, in English exactly as the document says it (``tests/test_apidocs_words.py``
holds the two together) and in the other language, and the page is given the English → reader's
language pairs (``doc_words``). Nothing is loaded from outside the app.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template
from markupsafe import Markup

from i18n import DEFAULT_LANG, catalogue
from web.apidoc import ROUTES
from web.i18n import current_lang, script_json
from web.openapi import build_openapi

#: The catalogue keys of the document's texts (see the module doc).
DOC_PREFIX = "apidocs.doc."

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


def doc_words(lang: str) -> dict[str, str]:
    """The document's texts in ``lang``: English text → its words in ``lang`` (empty for
    English, which the document is written in)."""
    if lang == DEFAULT_LANG:
        return {}
    english, other = catalogue(DEFAULT_LANG), catalogue(lang)
    return {str(english[k]): str(other[k]) for k in english if k.startswith(DOC_PREFIX)}


@bp.get("/api/docs")
def api_docs() -> str:
    words = script_json(doc_words(current_lang()))
    tag = Markup(f'<script type="application/json" id="apidocs-words">{words}</script>')
    return render_template("apidocs.html", doc_words=tag)
