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

from markupsafe import Markup

from games.dao import analysis
from games.dao import cards as C
from web.game_pages import pages_blueprint
from web.game_site import GamePage, GameSite, NewGamePage, OptionField, data_script
from web.i18n import translate
from web.rules_pictures import captioned, counted, picture_list

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


def _card(lang: str, element: str, value: int | None) -> Markup:
    """A face-up card as ``static/dao/cards.js``'s ``cardFace`` builds it (``value`` None: the
    element alone, no corners)."""
    info = C.ELEMENT_INFO[C.ELEMENT_INDEX[element]]
    name = translate(lang, f"dao.el_{element}")
    label = name if value is None else translate(lang, "dao.card", element=name, value=value)
    corner = Markup('<span class="dcard-corner{}" aria-hidden="true">{}</span>')
    start = Markup("") if value is None else corner.format("", value)
    end = Markup("") if value is None else corner.format(" end", value)
    shown = (
        Markup('<span class="dcard-name" aria-hidden="true">{}</span>').format(name)
        if lang != "zh" or name != info["symbol"]
        else Markup("")
    )
    return Markup(
        '<span class="dcard el-{}" role="img" aria-label="{}">{}'
        '<span class="dcard-sym" aria-hidden="true">{}</span>{}{}</span>'
    ).format(element, label, start, info["symbol"], shown, end)


def rules_elements(lang: str, args: str) -> Markup:
    """The rules page's five elements, one card each, with how many cards an element has."""
    return picture_list(
        "rules-dao",
        translate(lang, "rules.pic_dao_elements"),
        (
            captioned(_card(lang, e, None), translate(lang, "rules.pic_cards", count=C.PER_ELEMENT))
            for e in C.ELEMENTS
        ),
    )


def rules_values(lang: str, args: str) -> Markup:
    """The values of the first element, each with its count (the same in every element)."""
    return picture_list(
        "rules-dao",
        translate(lang, "rules.pic_dao_values"),
        (
            captioned(_card(lang, C.ELEMENTS[0], v), translate(lang, "rules.pic_cards", count=n))
            for v, n in zip(C.VALUES, C.VALUE_COUNTS, strict=True)
        ),
    )


def rules_cards(lang: str, args: str) -> Markup:
    """The cards of an example, ``fire-4 water-2``; a card the deck lacks raises."""
    cards = []
    for element, value in counted(args):
        if element not in C.ELEMENT_INDEX or value not in C.VALUE_INDEX:
            raise ValueError(f"no DAO card {element}-{value}")
        cards.append(_card(lang, element, value))
    return picture_list("rules-dao rules-hand", translate(lang, "rules.pic_example"), cards)


def rules_css() -> str:
    """The elements' colours, which ``cardFace`` sets inline, for the rules page's cards."""
    return "".join(
        f".rules-pics .el-{e['name']} {{ --el: {e['colour']}; }}\n" for e in C.ELEMENT_INFO
    )


SITE = GameSite(
    "dao",
    blueprints=(bp,),
    blurb="dao.home_text",
    rules=True,
    rules_pictures={
        "dao-elements": rules_elements,
        "dao-values": rules_values,
        "cards": rules_cards,
    },
    rules_css=rules_css,
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
