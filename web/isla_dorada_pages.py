"""Isla Dorada in the browser: the new-game page, the game page and the join page for a friend.

Plain HTML + JS modules (the new-game page is every game's, from ``SITE``'s ``new_page``; the
game page ``templates/isla_dorada/game.html`` in the shared frame; ``static/isla_dorada/``; no
build step, no CDN) that talk to the generic game API like any client, so a page never sees more than its seat's
view. Strings start with ``isla.`` (``i18n/<lang>/isla_dorada.json``); the card kinds' facts
(value, gold, the route types they pay, lightning or special) come from the cards' data file
in the data script ``#isla-data`` so the pages and the engine cannot disagree. The map itself is
in every view (``view.map``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from markupsafe import Markup

from games.isla_dorada import analysis
from games.isla_dorada import tables as T
from web.game_pages import pages_blueprint
from web.game_site import GamePage, GameSite, NewGamePage, OptionField, data_script
from web.i18n import translate
from web.rules_pictures import captioned, picture_list

bp = pages_blueprint(__name__, "isla_dorada")


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


def _card(lang: str, kind: dict[str, Any]) -> Markup:
    """An adventure card kind as ``static/isla_dorada/cards.js``'s ``cardChip`` draws it."""
    name = translate(lang, f"isla.kind_{kind['kind']}")
    label = name
    if kind.get("value"):
        label = translate(lang, "isla.card_value", kind=name, value=kind["value"])
    if kind.get("gold"):
        label += " · " + translate(lang, "isla.costs_gold", n=kind["gold"])
    classes = kind["kind"] + "".join(f" {f}" for f in ("lightning", "special") if kind.get(f))
    parts = [Markup('<span class="icard-name" aria-hidden="true">{}</span>').format(name)]
    if kind.get("lightning"):
        parts.insert(0, Markup('<span class="icard-bolt" aria-hidden="true">⚡</span>'))
    if kind.get("value"):
        parts.append(Markup('<span class="icard-value">{}</span>').format(kind["value"]))
    if kind.get("gold"):
        parts.append(Markup('<span class="icard-gold">{}g</span>').format(kind["gold"]))
    return Markup('<span class="icard big k-{}" role="img" aria-label="{}">{}</span>').format(
        classes, label, Markup("").join(parts)
    )


def rules_cards(lang: str, args: str) -> Markup:
    """The rules page's adventure cards: one per kind, with how many the deck holds."""
    return picture_list(
        "rules-isla",
        translate(lang, "rules.pic_isla_cards"),
        (
            captioned(_card(lang, k), translate(lang, "rules.pic_cards", count=k["count"]))
            for k in T.ADVENTURE_KINDS
        ),
    )


SITE = GameSite(
    "isla_dorada",
    blueprints=(bp,),
    blurb="home.isla_text",
    rules=True,
    rules_pictures={"isla-cards": rules_cards},
    stylesheet="isla_dorada/isla.css",
    strings=("isla.",),
    data_script=data_script("isla-data", lambda lang: page_data()),
    new_page=NewGamePage(
        "isla.",
        seats=("me", "bot:normal", "bot:normal", "bot:easy", "none", "none"),
        options=(OptionField("turn_seconds", "turn"),),
    ),
    game_page=GamePage(
        "isla.",
        "isla",
        slow_ms=1200,
        skip_links={"actions": "#actions", "map": "#map-box", "hand": "#hand-box", "log": "#log-h"},
    ),
    review_script="review/isla_dorada.js",
    analyst=analysis.ANALYST,
    full_view=analysis.full_view,
)
