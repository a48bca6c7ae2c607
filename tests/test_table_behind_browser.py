"""A game page says when the table is behind (its deadline or a bot's move overdue by more than
``web.service.table.BEHIND_S``), in both languages, as a status (axe passes), and stops saying
so once the table caught up: on a server whose clock the test moves and whose table (bots) it
runs, so the table is late exactly when the test leaves it so."""

from __future__ import annotations

import pytest

from tests.browser_support import OUT, api, axe_violations, new_page, open_as, raw_keys, served
from tests.conftest import FakeClock

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser

WORDS = {"en": "The table is running late", "zh": "牌桌進度落後"}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A server without a runner, on a clock the test moves: ``(url, app, clock)``."""
    clock = FakeClock()
    with served(tmp_path_factory.mktemp("behind-db"), runner=False, clock=clock) as (url, app):
        yield url, app, clock


def bot_first(url: str) -> dict:
    """A DAO game whose bot (``normal``: never a quick one) is to move first: due at once."""
    seats = [{"type": "bot", "level": "normal"}, {"type": "human", "name": "Ana"}]
    return api(url, "POST", "/api/games", {"game": "dao", "seats": seats, "seed": 2})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_says_the_table_is_behind_until_it_catches_up(browser, table, lang):
    url, app, clock = table
    game = bot_first(url)
    clock.advance(12)  # nobody played the bot: the state says the table is 12 s late
    page = new_page(browser)
    open_as(page, url, "dao", game, 1, f"?lang={lang}")
    notice = page.locator("#table-behind")
    expect(notice).to_be_visible(timeout=10_000)
    expect(notice).to_contain_text(WORDS[lang])
    expect(notice).to_have_attribute("role", "status")
    found = axe_violations(page)
    assert not found, found
    assert not raw_keys(page)
    page.screenshot(path=str(OUT / f"table-behind-{lang}.png"), full_page=True)
    app.extensions["game_sessions"].play_due_bots(game["id"])  # the table catches up
    expect(notice).to_be_hidden(timeout=10_000)  # (the move came by the stream)
    assert not page.js_errors


def test_a_page_that_hears_nothing_counts_the_lateness_on_by_itself(browser, table):
    """The server's clock stands still and no event comes: the page counts on from the state's
    ``now`` by its own clock, and says the table is behind once ``table_due`` is 5 s past."""
    url, app, _clock = table
    game = bot_first(url)
    page = new_page(browser)
    open_as(page, url, "dao", game, 1, "?lang=en")
    notice = page.locator("#table-behind")
    page.wait_for_function("() => window.daoGame && window.daoGame.snap")
    expect(notice).to_be_hidden()
    expect(notice).to_be_visible(timeout=12_000)
    app.extensions["game_sessions"].play_due_bots(game["id"])
    expect(notice).to_be_hidden(timeout=10_000)
    assert not page.js_errors
