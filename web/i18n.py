"""Site-wide languages: English and Traditional Chinese, for pages, scripts and the rules.

Every UI string lives in the message catalogues of the ``i18n`` package (``i18n/<lang>/*.json``,
flat keys such as ``game.play`` → ``"Play"``), loaded once; this module adds what the web needs. Clue sentences come from ``solver.describe_clue`` so the
solver and the pages never disagree.

The language of a request is, in order: ``?lang=`` (which also sets the ``lang`` cookie for a
year), the ``lang`` cookie, the browser's ``Accept-Language``, English. Pages remember it in
``localStorage`` too (``static/common/i18n.js``), so a lost cookie is restored.

For templates (any blueprint, via a context processor): ``ui_lang`` (``en``/``zh``), ``html_lang``
(``en``/``zh-Hant``, for the ``lang`` attribute), ``tr(key, **params)``, ``tr_keys(key, **keys)``
(the string with each placeholder shown as a ``<kbd>`` key), ``lang_url(code)`` (the current URL
in another language) and ``i18n_script(*prefixes, clues=True)`` (a ``<script type=
"application/json" id="i18n-data">`` carrying the strings the page's scripts need and, unless
``clues=False``, every clue sentence; pages of games without clues leave those out) and
``i18n_more(*prefixes)`` (the strings under ``prefixes`` alone, for a part of a page that brings
its words with it, e.g. the table chat of ``templates/chat.html``: ``static/common/i18n.js``
merges every ``<script class="i18n-more">`` into the page's strings).

Other Python code: ``current_lang()``, ``translate(lang, key, **params)``, ``catalogue(lang)``,
``clue_sentences(lang)``.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any
from urllib.parse import quote, urlencode

from flask import Blueprint, Response, g, request
from markupsafe import Markup, escape

from i18n import DEFAULT_LANG, LANGS, SHARED, catalogue, lookup, normalize, translate, version
from solver.clues import all_clues, describe_clue

#: ``lang`` attribute values (BCP 47) per UI language.
HTML_LANG = {"en": "en", "zh": "zh-Hant"}
COOKIE = "lang"
COOKIE_AGE = 365 * 86400

bp = Blueprint("i18n", __name__)


def current_lang() -> str:
    """The request's UI language (see the module doc for the order), worked out once a
    request."""
    if "ui_lang" not in g:
        g.ui_lang = _request_lang()
    return g.ui_lang


def _request_lang() -> str:
    for raw in (request.args.get("lang"), request.cookies.get(COOKIE)):
        lang = normalize(raw)
        if lang:
            return lang
    best = request.accept_languages.best_match(["en", "zh", "zh-TW", "zh-Hant", "zh-HK"])
    return normalize(best) or DEFAULT_LANG


@cache
def clue_sentences(lang: str) -> dict[str, str]:
    """Notation → readable sentence for every valid clue, in ``lang``."""
    return {c.notation: describe_clue(c, lang) for c in all_clues()}


def script_data(lang: str, prefixes: tuple[str, ...] = (), clues: bool = True) -> dict:
    """What a page's scripts need: the language, the strings under ``prefixes`` (all of them when
    none is given) with the shared page words their keys fall back to (``i18n.SHARED``) and,
    with ``clues``, the clue sentences."""
    cat = catalogue(lang)
    always = ("common.", "terrain.", "map.", "error.", SHARED)
    wanted = {k: v for k, v in cat.items() if not prefixes or k.startswith((*always, *prefixes))}
    return {"lang": lang, "strings": wanted, "clues": clue_sentences(lang) if clues else {}}


def script_json(data: Any) -> str:
    """``data`` as JSON safe inside a ``<script type="application/json">`` element."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


@cache
def _script_tag(lang: str, prefixes: tuple[str, ...], clues: bool, changes: int) -> str:
    """The page's strings as a JSON script element, built once per language and page kind (and
    catalogues' ``changes``, ``i18n.version``)."""
    body = script_json(script_data(lang, prefixes, clues))
    return f'<script type="application/json" id="i18n-data">{body}</script>'


@cache
def _more_tag(lang: str, prefixes: tuple[str, ...], changes: int) -> str:
    """The strings under ``prefixes`` only, as a JSON script element ``i18n.js`` merges."""
    strings = {k: v for k, v in catalogue(lang).items() if k.startswith(prefixes)}
    body = script_json({"strings": strings})
    return f'<script type="application/json" class="i18n-more">{body}</script>'


def keys_markup(lang: str, key: str, **keys: str) -> Markup:
    """``key`` in ``lang`` with each placeholder shown as a ``<kbd>`` key (the text escaped)."""
    found = lookup(lang, key)
    text = key if found is None else str(found)
    return escape(text).format(**{k: Markup("<kbd>{}</kbd>").format(v) for k, v in keys.items()})


def _lang_url(code: str) -> str:
    """The current page's URL with ``lang=code`` (other query arguments kept)."""
    if not request.query_string:  # every page's language switch: the plain case first
        return f"{quote(request.path)}?lang={code}"
    args = request.args.to_dict(flat=False)
    args["lang"] = [code]
    query = urlencode([(k, v) for k, vs in args.items() for v in vs])
    return quote(request.path) + "?" + query


@bp.app_context_processor
def _inject() -> dict:
    lang = current_lang()

    def tr(key: str, **params: Any) -> str:
        return translate(lang, key, **params)

    def tr_keys(key: str, **keys: str) -> Markup:
        return keys_markup(lang, key, **keys)

    def i18n_script(*prefixes: str, clues: bool = True) -> Markup:
        return Markup(_script_tag(lang, tuple(prefixes), clues, version()))

    def i18n_more(*prefixes: str) -> Markup:
        return Markup(_more_tag(lang, tuple(prefixes), version()))

    return {
        "ui_lang": lang,
        "html_lang": HTML_LANG[lang],
        "tr": tr,
        "tr_keys": tr_keys,
        "lang_url": _lang_url,
        "i18n_script": i18n_script,
        "i18n_more": i18n_more,
        "langs": LANGS,
    }


@bp.after_app_request
def _remember(resp: Response) -> Response:
    """``?lang=`` on a page sets the cookie, so the choice follows the user around the site."""
    lang = normalize(request.args.get("lang"))
    if lang and request.cookies.get(COOKIE) != lang and not request.path.startswith("/api/"):
        resp.set_cookie(COOKIE, lang, max_age=COOKIE_AGE, samesite="Lax")
    return resp
