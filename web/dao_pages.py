"""DAO in the browser: the new-game page, the game page and the join page for a friend's seat.

The pages are plain HTML + JS modules (``templates/dao/``, ``static/dao/``; no build step, no
CDN) that talk to the generic game API (``/api/games``) like any client, so a page never sees more
than its seat's view; the odds helper is the ``helper`` part of that view (``games.dao.odds``).

Strings: every key starts with ``dao.`` and lives in the site catalogues (``i18n/<lang>/dao.json``),
read through the site's ``tr`` / ``i18n_script`` (``web.i18n``); DAO pages hand their scripts the
``dao.`` strings without clue sentences. Element names, symbols and colours come from
``games.dao.cards.ELEMENT_INFO`` (the deck's data file) so the pages and the engine cannot
disagree: templates put them on the page with ``dao_data_script()``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import Blueprint, redirect, render_template
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from games.dao import analysis
from games.dao import cards as C
from web.game_pages import render_game, render_join
from web.game_site import GameSite
from web.i18n import current_lang, script_json, translate

bp = Blueprint("dao_pages", __name__)


@cache
def page_data(lang: str) -> dict[str, Any]:
    """The deck facts the scripts draw with: elements (name, local name, symbol, colour)."""
    return {
        "elements": [
            {
                "name": e["name"],
                "label": translate(lang, f"dao.el_{e['name']}"),
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
    return f'<script type="application/json" id="dao-data">{script_json(page_data(lang))}</script>'


@bp.context_processor
def _inject() -> dict:
    lang = current_lang()
    return {"dao_data_script": lambda: Markup(_data_tag(lang))}


@bp.get("/dao")
def hub() -> ResponseReturnValue:
    return redirect("/dao/new")


@bp.get("/dao/new")
def new_game() -> str:
    return render_template("dao/new.html")


@bp.get("/dao/games/<game_id>")
def game_page(game_id: str) -> str:
    return render_game(SITE, "dao/game.html", game_id)


@bp.get("/dao/games/<game_id>/join/<int:seat>")
def join_page(game_id: str, seat: int) -> str:
    return render_join(SITE, game_id, seat)


SITE = GameSite(
    "dao",
    blueprints=(bp,),
    blurb="dao.home_text",
    play="/dao/new",
    rules=True,
    own_game_page=True,
    stylesheet="dao/dao.css",
    strings=("dao.",),
    data_script=_data_tag,
    join_strings="dao.join_",
    page_class="dao-page",
    review_script="review/dao.js",
    analyst=analysis.ANALYST,
)
