"""DAO in the browser: the new-game page, the game page and the join page for a friend's seat.

The pages are plain HTML + JS modules (the new-game page is every game's, from ``SITE``'s
``new_page``; the game page ``templates/dao/game.html`` in the shared frame; ``static/dao/``; no
build step, no CDN) that talk to the generic game API (``/api/games``) like any client, so a page never sees more
than its seat's view; the odds helper is the ``helper`` part of that view (``games.dao.odds``).

Strings: every key starts with ``dao.`` and lives in the site catalogues (``i18n/<lang>/dao.json``),
read through the site's ``tr`` / ``i18n_script`` (``web.i18n``); DAO pages hand their scripts the
``dao.`` strings without clue sentences. Element names, symbols and colours come from
``games.dao.cards.ELEMENT_INFO`` (the deck's data file) so the pages and the engine cannot
disagree: the pages carry them in the data script ``#dao-data``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.dao import analysis
from games.dao import cards as C
from web.game_pages import pages_blueprint
from web.game_site import GamePage, GameSite, NewGamePage, OptionField, data_script
from web.i18n import translate

bp = pages_blueprint(__name__, "dao")


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


SITE = GameSite(
    "dao",
    blueprints=(bp,),
    blurb="dao.home_text",
    rules=True,
    stylesheet="dao/dao.css",
    strings=("dao.",),
    data_script=data_script("dao-data", page_data),
    new_page=NewGamePage(
        "dao.",
        seats=("me", "bot:strong", "bot:normal", "bot:easy", "none", "none"),
        seat_types=("me", "friend", "anyone", "bot", "none"),
        level="strong",
        options=(
            OptionField(
                "bust_match", "radio", "dao.opt_bust_match", ("dao.bust_previous", "dao.bust_first")
            ),
            OptionField(
                "two_rounds",
                "select",
                "dao.opt_two_rounds",
                ("dao.two_auto", "dao.two_on", "dao.two_off"),
            ),
            OptionField("turn_seconds", "turn"),
        ),
    ),
    game_page=GamePage("dao.", "dao"),
    review_script="review/dao.js",
    analyst=analysis.ANALYST,
)
