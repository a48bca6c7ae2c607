"""The rules pages in Chromium, every game in both languages, on a 390 px phone and a 1280 px
screen: axe-core finds no violation, the page is no wider than the screen, no picture spills out
of its list, every picture is painted by the game's stylesheet and the pictures' colours (a DAO
card has its element's colour, a token chip its colour), the page's headings go in order, and
nothing the policy refuses (an inline style) is asked for. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

import pytest

from games.dao import cards as dao_cards
from tests.browser_support import OUT, axe_violations, new_page

pytestmark = pytest.mark.browser

GAMES = ("tobago", "dao", "dragons_gold", "isla_dorada")
SCREENS = [(390, "en"), (390, "zh"), (1280, "en"), (1280, "zh")]


def _rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.parametrize("game", GAMES)
def test_rules_page_reads_at_both_widths(browser, live_server, game):
    for width, lang in SCREENS:
        page = new_page(browser, viewport={"width": width, "height": 900})
        page.goto(f"{live_server}/rules/{game}?lang={lang}")
        where = (game, width, lang)
        assert axe_violations(page) == [], where
        assert page.js_errors == [], where
        wider = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wider <= 0, (where, f"the page is {wider} px wider than the screen")
        spill = page.evaluate(
            """() => [...document.querySelectorAll('.rules-pics > li, .rules-pics svg')]
                 .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
                 .length"""
        )
        assert spill == 0, (where, f"{spill} pictures reach past the screen's edge")
        levels = page.eval_on_selector_all(
            "#rules h1, #rules h2, #rules h3", "(hs) => hs.map((h) => Number(h.tagName[1]))"
        )
        assert levels[0] == 1 and all(
            b - a <= 1 for a, b in zip(levels, levels[1:], strict=False)
        ), where
        pictures = page.locator('#rules [role="img"]')
        assert pictures.count() >= 3, where
        unnamed = page.eval_on_selector_all(
            '#rules [role="img"]', "(ps) => ps.filter((p) => !p.getAttribute('aria-label')).length"
        )
        assert unnamed == 0, where
        page.screenshot(path=str(OUT / f"rules-{game}-{width}-{lang}.png"), full_page=True)
        page.context.close()


def test_pictures_wear_the_games_colours(browser, live_server):
    page = new_page(browser, viewport={"width": 390, "height": 900})
    page.goto(f"{live_server}/rules/dao?lang=en")
    for info in dao_cards.ELEMENT_INFO:
        border = page.eval_on_selector(
            f".rules-pics .dcard.el-{info['name']}", "(c) => getComputedStyle(c).borderTopColor"
        )
        assert border == _rgb(info["colour"]), info["name"]
    page.goto(f"{live_server}/rules/dragons_gold?lang=zh")
    from web.dragons_gold_pages import COLOUR_HEX

    for colour, paint in COLOUR_HEX.items():
        background = page.eval_on_selector(
            f".rules-pics .dg-chip.c-{colour}", "(c) => getComputedStyle(c).backgroundColor"
        )
        assert background == _rgb(paint), colour
    assert page.js_errors == []
    page.context.close()
