"""The end screens of Isla Dorada and Dragon's Gold on a 390 px phone: each player's total is
read beside their name, inside the score table's box, without scrolling it or the page sideways
(Isla Dorada's stood last, behind Bonuses, Destiny and Curses); both languages, axe 0."""

from __future__ import annotations

import pytest

from tests.browser_support import OUT, axe_violations, new_page, open_as
from tests.game_states import game_at

pytestmark = pytest.mark.browser

#: How far right each row's total ends, and how far right the table's box shows, in px.
EDGES = """(sel) => {
  const table = document.querySelector(sel);
  let box = table.parentElement;
  while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
  const shown = Math.min(box ? box.getBoundingClientRect().right : innerWidth, innerWidth);
  return { shown, totals: [...table.querySelectorAll('tbody td.total')].map(
    (td) => td.getBoundingClientRect().right), head: table.querySelector('thead th.total') !== null,
    first: [...table.querySelectorAll('tbody tr')].map((tr) => tr.querySelector('td').className) };
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("state", "handle", "table"),
    [("isla-over", "islaGame", "#score-table"), ("dg-over", "dgGame", ".dg-scores")],
)
def test_the_total_beside_the_name_at_390_px(browser, live_server, state, handle, table, lang):
    game, seat = game_at(live_server, state)
    kind = "isla_dorada" if state.startswith("isla") else "dragons_gold"
    page = new_page(browser, viewport={"width": 390, "height": 844})
    open_as(page, live_server, kind, game, seat, f"?lang={lang}")
    page.wait_for_function(
        f"() => window.{handle} && window.{handle}.snap && !window.{handle}.busy"
    )
    page.wait_for_selector(f"#end:not([hidden]) {table}")
    page.locator(table).scroll_into_view_if_needed()
    edges = page.evaluate(EDGES, table)
    assert edges["head"] and edges["totals"], edges
    assert all(c == "total" for c in edges["first"]), edges  # the first cell after the name
    assert all(right <= edges["shown"] + 0.5 for right in edges["totals"]), edges
    overflow = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert page.evaluate(overflow) <= 0
    page.screenshot(path=str(OUT / f"end-total-{state}-390-{lang}.png"))
    assert axe_violations(page) == []
    assert not page.js_errors, page.js_errors
