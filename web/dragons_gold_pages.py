"""Dragon's Gold in the browser: the new-game page, the game page and the join page.

Plain HTML + JS modules (``templates/dragons_gold/``, ``static/dragons_gold/``; no build step, no
CDN) over the generic game API (``/api/games``), so a page never sees more than its seat's view.
The table facts the scripts draw with (colours, hunters, the dragon table, the magic items) come
from the engine's data files through ``page_data``, so page and engine cannot disagree.

Strings: every key starts with ``dg.`` (``i18n/<lang>/dragons_gold.json``); refusals are worded by
the engine's reasons (``error.dg_*``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import Blueprint, redirect, render_template
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from games.dragons_gold import analysis
from games.dragons_gold import data as D
from web.game_pages import render_game, render_join
from web.game_site import GameSite
from web.i18n import current_lang, script_json, translate

bp = Blueprint("dragons_gold_pages", __name__)
#: Token colours as the pages paint them.
COLOUR_HEX = {
    "gold": "#d4a017",
    "silver": "#9ea3a8",
    "red": "#c0392b",
    "black": "#1d1d1f",
    "yellow": "#f2d024",
    "blue": "#2e6fd1",
    "green": "#2e9e4f",
    "purple": "#8e44ad",
    "white": "#f7f7f2",
}


@cache
def page_data(lang: str) -> dict[str, Any]:
    """Colours (name, label, paint), hunters (name, label, attack), dragons, items (label,
    effect), gems."""
    return {
        "colours": [
            {"name": c, "label": translate(lang, f"dg.c_{c}"), "hex": COLOUR_HEX[c]}
            for c in D.COLOURS
        ],
        "gems": list(D.GEMS),
        "hunters": [
            {"name": h, "label": translate(lang, f"dg.h_{h}"), "attack": D.ATTACK[h]}
            for h in D.HUNTERS
        ],
        "dragons": {str(k): v for k, v in D.DRAGONS.items()},
        "items": {
            i["item"]: {
                "label": translate(lang, f"dg.i_{i['item']}"),
                "effect": translate(lang, f"dg.i_{i['item']}_effect"),
            }
            for i in D.ITEM_KINDS
        },
    }


@cache
def _data_tag(lang: str) -> str:
    return f'<script type="application/json" id="dg-data">{script_json(page_data(lang))}</script>'


@bp.context_processor
def _inject() -> dict:
    lang = current_lang()
    return {"dg_data_script": lambda: Markup(_data_tag(lang))}


@bp.get("/dragons_gold")
def hub() -> ResponseReturnValue:
    return redirect("/dragons_gold/new")


@bp.get("/dragons_gold/new")
def new_game() -> str:
    return render_template("dragons_gold/new.html")


@bp.get("/dragons_gold/games/<game_id>")
def game_page(game_id: str) -> str:
    return render_game(SITE, "dragons_gold/game.html", game_id)


@bp.get("/dragons_gold/games/<game_id>/join/<int:seat>")
def join_page(game_id: str, seat: int) -> str:
    return render_join(SITE, game_id, seat)


SITE = GameSite(
    "dragons_gold",
    blueprints=(bp,),
    blurb="dg.home_text",
    play="/dragons_gold/new",
    rules=True,
    own_game_page=True,
    stylesheet="dragons_gold/dg.css",
    strings=("dg.",),
    data_script=_data_tag,
    join_strings="dg.join_",
    page_class="dg-page",
    review_script="review/dragons_gold.js",
    analyst=analysis.ANALYST,
    full_view=analysis.full_view,
)
