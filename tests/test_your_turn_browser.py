"""'Your turn' on a game page, in a real Chromium: the title starts with the mark and the words
and the icon gains a dot while this browser's seat may act, and both go back while the others
play (a spectator's page never); the sound and notification choices sit in the settings bar,
kept across reloads, and the page has no axe violation with them (both languages)."""

from __future__ import annotations

import pytest

from tests.browser_support import api, axe_violations, new_page, open_as

pytestmark = pytest.mark.browser


def _dao_against_a_bot(server: str) -> dict:
    """A DAO game: Ana (seat 0) against an easy bot."""
    seats = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "easy"}]
    return api(server, "POST", "/api/games", {"game": "dao", "seats": seats})


def test_the_title_and_icon_say_your_turn_and_the_choices_are_kept(browser, live_server):
    game = _dao_against_a_bot(live_server)
    page = new_page(browser)
    open_as(page, live_server, "dao", game, 0)
    page.wait_for_function("() => window.daoGame && window.daoGame.snap")
    page.wait_for_function("() => document.title.startsWith('● Your turn')")
    icon = page.locator('link[rel="icon"][type="image/svg+xml"]')
    assert icon.get_attribute("href").endswith("favicon-turn.svg")
    assert page.locator("#turn-sound").is_visible() and not page.locator("#turn-sound").is_checked()
    page.locator("#turn-sound").check()  # the tone plays once, as a sample
    page.locator("#take").click()  # a move (the bot answers at once): my turn again after it
    page.wait_for_function("() => window.daoGame.snap.version > 0 && !window.daoGame.busy")
    assert page.title().startswith("● Your turn") or page.evaluate("window.daoGame.snap.over")
    page.reload()
    page.wait_for_function("() => window.daoGame && window.daoGame.snap")
    assert page.locator("#turn-sound").is_checked()  # kept
    assert not axe_violations(page)
    page.goto(page.url + ("&" if "?" in page.url else "?") + "lang=zh")
    page.wait_for_function("() => document.title.startsWith('● 輪到你')")
    assert not axe_violations(page)
    assert not page.js_errors
    page.context.close()


def test_a_spectator_gets_no_signal(browser, live_server):
    game = _dao_against_a_bot(live_server)
    page = new_page(browser)
    page.goto(f"{live_server}/dao/games/{game['id']}")
    page.wait_for_function("() => window.daoGame && window.daoGame.snap")
    assert not page.title().startswith("●")
    assert page.locator("#turn-sound").count() == 0
    page.context.close()
