"""Isla Dorada in the browser: the new-game page, the game page and the join page for a friend.

Plain HTML + JS modules (``templates/isla_dorada/``, ``static/isla_dorada/``; no build step, no
CDN) that talk to the generic game API like any client, so a page never sees more than its seat's
view. Strings start with ``isla.`` (``i18n/<lang>/isla_dorada.json``); the card kinds' facts
(value, gold, the route types they pay, lightning or special) come from the cards' data file
through ``isla_data_script()`` so the pages and the engine cannot disagree. The map itself is
in every view (``view.map``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import Blueprint, redirect, render_template
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from games.isla_dorada import analysis
from games.isla_dorada import tables as T
from web.game_pages import render_game, render_join
from web.game_site import GameSite
from web.i18n import current_lang, script_json

bp = Blueprint("isla_dorada_pages", __name__)


@cache
def page_data() -> dict[str, Any]:
    """What the scripts draw with besides the view: the adventure card kinds and the rules'
    numbers."""
    return {
        "kinds": [
            {
                "kind": k["kind"],
                "value": k.get("value", 0),
                "gold": k.get("gold", 0),
                "pays": list(k.get("pays", [])),
                "wild": bool(k.get("wild")),
                "special": bool(k.get("special")),
                "lightning": bool(k.get("lightning")),
            }
            for k in T.ADVENTURE_KINDS
        ],
        "route_types": list(T.ROUTE_TYPES),
        "shaman_kinds": list(T.SHAMAN_KINDS),
        "hand_limit": T.HAND_LIMIT,
        "ovetos_min": T.OVETOS_MIN,
        "buy_cost": T.BUY_COST,
        "width": T.MAP_DATA["width"],
        "height": T.MAP_DATA["height"],
    }


@cache
def _data_tag() -> str:
    return f'<script type="application/json" id="isla-data">{script_json(page_data())}</script>'


@bp.context_processor
def _inject() -> dict:
    current_lang()
    return {"isla_data_script": lambda: Markup(_data_tag())}


@bp.get("/isla_dorada")
def hub() -> ResponseReturnValue:
    return redirect("/isla_dorada/new")


@bp.get("/isla_dorada/new")
def new_game() -> str:
    return render_template("isla_dorada/new.html")


@bp.get("/isla_dorada/games/<game_id>")
def game_page(game_id: str) -> str:
    return render_game(SITE, "isla_dorada/game.html", game_id)


@bp.get("/isla_dorada/games/<game_id>/join/<int:seat>")
def join_page(game_id: str, seat: int) -> str:
    return render_join(SITE, game_id, seat)


SITE = GameSite(
    "isla_dorada",
    blueprints=(bp,),
    blurb="home.isla_text",
    play="/isla_dorada/new",
    rules=True,
    own_game_page=True,
    stylesheet="isla_dorada/isla.css",
    strings=("isla.",),
    data_script=lambda lang: _data_tag(),
    join_strings="isla.join_",
    page_class="isla-page",
    review_script="review/isla_dorada.js",
    analyst=analysis.ANALYST,
    full_view=analysis.full_view,
)
