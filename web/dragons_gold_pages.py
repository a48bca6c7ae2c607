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

from markupsafe import Markup

from games.dragons_gold import analysis
from games.dragons_gold import data as D
from web.game_pages import pages_blueprint
from web.game_site import GamePage, GameSite, NewGamePage, OptionField, data_script
from web.i18n import translate
from web.rules_pictures import captioned, counted, picture_list

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


def _chip(lang: str, colour: str, n: int | None) -> Markup:
    """A token chip as ``static/dragons_gold/tokens.js``'s ``chip`` builds it."""
    name = translate(lang, f"dg.c_{colour}")
    label = name if n is None else translate(lang, "dg.n_tokens", n=n, colour=name)
    return Markup('<span class="dg-chip c-{}" role="img" aria-label="{}">{}</span>').format(
        colour, label, "" if n is None else n
    )


def rules_tokens(lang: str, args: str) -> Markup:
    """The rules page's bag: every token colour with how many there are."""
    return picture_list(
        "rules-dg",
        translate(lang, "rules.pic_dg_tokens"),
        (
            captioned(
                _chip(lang, c, None),
                translate(
                    lang,
                    "rules.pic_tokens",
                    count=D.TOKEN_COUNTS[c],
                    colour=translate(lang, f"dg.c_{c}"),
                ),
            )
            for c in D.COLOURS
        ),
    )


def rules_hoard(lang: str, args: str) -> Markup:
    """An example's hoard, ``gold-2 silver-3``, as chips with their counts (within a sentence)."""
    chips = []
    for colour, n in counted(args):
        if not 0 < n <= D.TOKEN_COUNTS.get(colour, 0):
            raise ValueError(f"no Dragon's Gold tokens {colour}-{n}")
        chips.append(_chip(lang, colour, n))
    return Markup('<span class="dg-chips rules-hoard">{}</span>').format(Markup("").join(chips))


def rules_hunters(lang: str, args: str) -> Markup:
    """A player's hunters with their attack, as the game page's hunter cards."""
    card = Markup(
        '<span class="dg-hunter-card" role="img" aria-label="{}"><strong aria-hidden="true">{}'
        '</strong> <span aria-hidden="true">{}</span></span>'
    )
    return picture_list(
        "rules-dg",
        translate(lang, "rules.pic_dg_hunters"),
        (
            card.format(
                translate(
                    lang,
                    "rules.pic_hunter",
                    hunter=translate(lang, f"dg.h_{h}"),
                    attack=D.ATTACK[h],
                ),
                D.ATTACK[h],
                translate(lang, f"dg.h_{h}"),
            )
            for h in D.HUNTERS
        ),
    )


def rules_dragons(lang: str, args: str) -> Markup:
    """The dragons as small cards: strength, tokens when it comes out and when it is slain."""
    card = Markup(
        '<div class="dg-dragon rules-dragon" role="img" aria-label="{}">'
        '<span class="rules-dragon-name" aria-hidden="true">{} <span class="dg-strength">{}</span>'
        '</span><span class="rules-dragon-loot" aria-hidden="true">{}</span></div>'
    )
    return picture_list(
        "rules-dg rules-dragons",
        translate(lang, "rules.pic_dg_dragons"),
        (
            card.format(
                translate(
                    lang,
                    "rules.pic_dragon",
                    n=n,
                    **{k: d[k] for k in ("strength", "visible", "hidden")},
                ),
                translate(lang, "dg.dragon_n", n=n),
                translate(lang, "dg.strength", n=d["strength"]),
                translate(lang, "rules.pic_dragon_loot", visible=d["visible"], hidden=d["hidden"]),
            )
            for n, d in D.DRAGONS.items()
        ),
    )


def rules_items(lang: str, args: str) -> Markup:
    """The magic items: each kind's name, how many cards and what it does."""
    entry = Markup(
        '<span class="dg-item" role="img" aria-label="{}">{}</span>'
        '<span class="rules-pic-caption">{} · {}</span>'
    )
    return picture_list(
        "rules-dg rules-items",
        translate(lang, "rules.pic_dg_items"),
        (
            entry.format(
                translate(lang, f"dg.i_{i['item']}"),
                translate(lang, f"dg.i_{i['item']}"),
                translate(lang, "rules.pic_cards", count=i["count"]),
                translate(lang, f"dg.i_{i['item']}_effect"),
            )
            for i in D.ITEM_KINDS
        ),
    )


def rules_css() -> str:
    """The token colours, which ``chip`` sets inline, for the rules page's chips."""
    return "".join(
        f".rules-pics .c-{c}, .rules-hoard .c-{c} {{ --c: {COLOUR_HEX[c]}; }}\n" for c in D.COLOURS
    )


SITE = GameSite(
    "dragons_gold",
    blueprints=(bp,),
    blurb="dg.home_text",
    rules=True,
    rules_pictures={
        "dg-hunters": rules_hunters,
        "dg-tokens": rules_tokens,
        "dg-dragons": rules_dragons,
        "dg-items": rules_items,
        "tokens": rules_hoard,
    },
    rules_css=rules_css,
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
