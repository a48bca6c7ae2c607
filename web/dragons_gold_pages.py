"""Dragon's Gold in the browser: the new-game page, the game page and the join page.

Plain HTML + JS modules (the new-game page is every game's, from ``SITE``'s ``new_page``; the
game page ``templates/dragons_gold/game.html`` in the shared frame; ``static/dragons_gold/``; no
build step, no CDN) over the generic game API (``/api/games``), so a page never sees more than its seat's view.
The table facts the scripts draw with (colours, hunters, the dragon table, the magic items) come
from the engine's data files through ``page_data``, so page and engine cannot disagree.

Strings: every key starts with ``dg.`` (``i18n/<lang>/dragons_gold.json``); refusals are worded by
the engine's reasons (``error.dg_*``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.dragons_gold import analysis
from games.dragons_gold import data as D
from web.game_pages import pages_blueprint
from web.game_site import GamePage, GameSite, NewGamePage, OptionField, data_script
from web.i18n import translate

bp = pages_blueprint(__name__, "dragons_gold")
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


SITE = GameSite(
    "dragons_gold",
    blueprints=(bp,),
    blurb="dg.home_text",
    rules=True,
    stylesheet="dragons_gold/dg.css",
    strings=("dg.",),
    data_script=data_script("dg-data", page_data),
    new_page=NewGamePage(
        "dg.",
        seats=("me", "bot:normal", "bot:normal", "bot:easy", "none", "none"),
        options=(
            OptionField("advanced", "check", "dg.opt_advanced"),
            OptionField(
                "negotiation", "radio", "dg.opt_negotiation", ("dg.neg_timed", "dg.neg_division")
            ),
            OptionField(
                "negotiation_seconds",
                "number",
                "dg.opt_negotiation_seconds",
                error="dg.err_seconds",
            ),
            OptionField(
                "market_seconds", "number", "dg.opt_market_seconds", error="dg.err_seconds"
            ),
            OptionField("turn_seconds", "turn"),
        ),
    ),
    game_page=GamePage(
        "dg.",
        "dg",
        slow_ms=1200,
        skip_links={"actions": "#mine", "dragons": "#table", "screen": "#screen", "log": "#log-h"},
        script_strings=("dg.", "error.dg_"),
    ),
    review_script="review/dragons_gold.js",
    analyst=analysis.ANALYST,
    full_view=analysis.full_view,
)
