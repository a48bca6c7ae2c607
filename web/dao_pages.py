"""DAO in the browser: the new-game page, the game page and the join page for a friend's seat.

The pages are plain HTML + JS modules (``templates/dao/``, ``static/dao/``; no build step, no
CDN) that talk to the generic game API (``/api/games``) like any client, so a page never sees more
than its seat's view; the odds helper is the ``helper`` part of that view (``games.dao.odds``).

Strings: every key starts with ``dao.`` and lives in the site catalogues (``web/i18n/<lang>.json``);
an optional ``web/i18n/dao_<lang>.json`` is merged over them (for strings added while the site
files are busy). DAO templates get a ``tr`` that knows both and an ``i18n_script`` that hands the
scripts only the ``dao.`` and ``common.`` strings (a blueprint context processor runs after the
app's, so it overrides those two names for DAO pages only). Element names, symbols and colours come from ``games.dao.cards.ELEMENT_INFO`` (the deck's
data file) so the pages and the engine cannot disagree.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, redirect, render_template
from markupsafe import Markup, escape

from games.dao import cards as C
from web.i18n import DEFAULT_LANG, catalogue, current_lang, normalize

bp = Blueprint("dao_pages", __name__)
PREFIX = "dao."
_DIR = Path(__file__).with_name("i18n")
#: Site keys the DAO scripts use besides their own (shared words such as "Loading…").
_SHARED = ("common.",)
MAX_ID = 64


@cache
def dao_catalogue(lang: str) -> dict[str, str]:
    """Every ``dao.`` string in ``lang``: site catalogue, then ``dao_<lang>.json``; English fills
    whatever the other language lacks."""
    lang = normalize(lang) or DEFAULT_LANG

    def own(code: str) -> dict[str, str]:
        path = _DIR / f"dao_{code}.json"
        data = json.loads(path.read_text("utf-8")) if path.exists() else {}
        site = {k: v for k, v in catalogue(code).items() if k.startswith(PREFIX)}
        return {**site, **{k: v for k, v in data.items() if k.startswith(PREFIX)}}

    base = own(DEFAULT_LANG)
    return base if lang == DEFAULT_LANG else {**base, **own(lang)}


def dao_translate(lang: str, key: str, **params: Any) -> str:
    """``key`` in ``lang`` (DAO strings first, then the site's), ``{name}`` placeholders filled."""
    text = dao_catalogue(lang).get(key)
    if text is None:
        text = catalogue(lang).get(key, key)
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def _script_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


@cache
def _i18n_tag(lang: str) -> str:
    """The strings the DAO scripts read (``static/common/i18n.js`` format, no clue sentences)."""
    site = {k: v for k, v in catalogue(lang).items() if k.startswith(_SHARED)}
    strings = {**site, **dao_catalogue(lang)}
    body = _script_json({"lang": lang, "strings": strings, "clues": {}})
    return f'<script type="application/json" id="i18n-data">{body}</script>'


@cache
def page_data(lang: str) -> dict[str, Any]:
    """The deck facts the scripts draw with: elements (name, local name, symbol, colour)."""
    return {
        "elements": [
            {
                "name": e["name"],
                "label": dao_translate(lang, f"dao.el_{e['name']}"),
                "symbol": e["symbol"],
                "colour": e["colour"],
            }
            for e in C.ELEMENT_INFO
        ],
        "values": list(C.VALUES),
        "bust_above": C.BUST_ABOVE,
        "card_count": C.CARD_COUNT,
        "display_size": C.DISPLAY_SIZE,
    }


@cache
def _data_tag(lang: str) -> str:
    return f'<script type="application/json" id="dao-data">{_script_json(page_data(lang))}</script>'


@bp.context_processor
def _inject() -> dict:
    lang = current_lang()

    def tr(key: str, **params: Any) -> str:
        return dao_translate(lang, key, **params)

    def tr_keys(key: str, **keys: str) -> Markup:
        """``key`` with each placeholder shown as a ``<kbd>`` key (the text itself escaped)."""
        text = dao_catalogue(lang).get(key, key)
        return escape(text).format(
            **{k: Markup("<kbd>{}</kbd>").format(v) for k, v in keys.items()}
        )

    def i18n_script(*_prefixes: str) -> Markup:
        return Markup(_i18n_tag(lang) + _data_tag(lang))

    return {
        "tr": tr,
        "tr_keys": tr_keys,
        "i18n_script": i18n_script,
        "elements": page_data(lang)["elements"],
    }


def _check_id(game_id: str) -> None:
    if len(game_id) > MAX_ID:
        abort(404)


@bp.get("/dao")
def hub():
    return redirect("/dao/new")


@bp.get("/dao/new")
def new_game():
    return render_template("dao/new.html")


@bp.get("/dao/games/<game_id>")
def game_page(game_id: str):
    _check_id(game_id)
    return render_template("dao/game.html", game_id=game_id)


@bp.get("/dao/games/<game_id>/join/<int:seat>")
def join_page(game_id: str, seat: int):
    _check_id(game_id)
    return render_template("dao/join.html", game_id=game_id, seat=seat)
