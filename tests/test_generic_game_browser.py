"""Playing a game the site has never heard of on the generic game page, in Chromium: Blind
Auction (``tests/testgame.py``), registered for this module's server only, against the greedy
bot. The page shows the seat's view, the legal actions as buttons (by keyboard too, focus kept
on the next choice), the clock of a timed round, the log, the end with the scores and the
review link; axe-core finds nothing in play and at the end, in both languages, on a wide screen
and a phone; the review page of the finished game steps through it.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from app import create_app
from tests.browser_support import OUT, api, new_page
from tests.servers import serve_in_thread
from tests.test_axe_browser import SCREENS
from tests.test_axe_browser import _check as check_page  # axe, width, Chinese separators
from tests.testgame import NAME, registered

pytestmark = pytest.mark.browser

HUMAN = {"type": "human"}
FRIEND = {"type": "human", "open": True}
GREEDY = {"type": "bot", "level": "greedy"}


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """The app with Blind Auction registered (and its strings), on 127.0.0.1, its table
    runner on (the bot moves as on a real server)."""
    db = tmp_path_factory.mktemp("generic-db") / "games.sqlite3"
    with registered():
        app = create_app({"TESTING": True, "DATABASE": str(db), "TABLE_RUNNER": True})
        with serve_in_thread(app) as url:
            yield url
        app.extensions["game_sessions"].stop_runner()


def _new_game(server: str) -> dict:
    body = {"game": NAME, "seats": [HUMAN, GREEDY], "options": {"rounds": 3, "bid_seconds": 60}}
    return api(server, "POST", "/api/games", body)


def _open(browser, server: str, game: dict, lang: str, width: int = 1280):
    """The game's page as seat 0 (its token in localStorage, others' moves instant)."""
    page = new_page(browser, viewport={"width": width, "height": 900})
    page.goto(f"{server}/healthz")
    page.evaluate(
        "([k, v, s]) => { localStorage.setItem(k, v); localStorage.setItem(s, '0'); }",
        [
            f"tobago.tokens.{game['id']}",
            json.dumps({"0": game["seats"][0]["token"]}),
            f"{NAME}.speed",
        ],
    )
    page.goto(f"{server}/{NAME}/games/{game['id']}?lang={lang}")
    _settled(page)
    return page


def _settled(page) -> None:
    """Until the page is caught up, and no bot is thinking (the table's replies have come)."""
    page.wait_for_function(
        "() => window.playGame && window.playGame.snap && !window.playGame.busy"
        " && window.playGame.snap.bot !== 'thinking'"
    )


def test_the_generic_page_plays_the_game_to_its_end_by_keyboard(browser, live_server):
    game = _new_game(live_server)
    page = _open(browser, live_server, game, "en")
    expect(page.locator("h1")).to_have_text("Blind Auction")
    expect(page.locator("#status")).to_have_text("Your turn")
    buttons = page.locator("#action-list button")
    expect(buttons).to_have_count(4)  # rounds + 1 cards in hand
    expect(buttons.first).to_contain_text("Bid card ")
    expect(page.locator("#clock")).to_contain_text("seconds left")
    expect(page.locator("#position .rv-generic")).to_contain_text("prize")
    for left in (4, 3, 2):
        expect(buttons).to_have_count(left)
        before = page.evaluate("() => window.playGame.snap.version")
        buttons.first.focus()
        page.keyboard.press("Enter")  # my bid, then the bot's bid of the next round
        page.wait_for_function(f"() => window.playGame.snap.version > {before}")
        _settled(page)
        if left > 2:  # the next choice has the focus
            assert page.evaluate("() => document.activeElement.closest('#action-list') !== null")
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#end-scores li")).to_have_count(2)
    expect(page.locator("#clock")).to_be_hidden()
    expect(page.locator("#action-list button")).to_have_count(0)
    log = page.locator("#log li")
    assert log.count() >= 3 * 2  # every bid and every reveal, in the renderer's words
    assert not page.js_errors, page.js_errors
    page.screenshot(path=str(OUT / "generic-over.png"), full_page=True)
    page.click("#review-link")
    page.wait_for_function("() => window.tobagoReview && window.tobagoReview.ready")
    page.keyboard.press("End")
    page.wait_for_function("() => window.tobagoReview.step === 6")  # 3 rounds of 2 bids
    expect(page.locator("#position .rv-generic")).to_contain_text("unused_prizes")
    expect(page.locator("#moves li")).to_have_count(1 + 6)  # the start, then every move
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_the_generic_page_has_no_axe_violation_in_play_and_at_the_end(browser, live_server):
    playing = _new_game(live_server)
    over = api(
        live_server,
        "POST",
        "/api/games",
        {"game": NAME, "seats": [GREEDY, GREEDY], "options": {"rounds": 3}},
    )
    invite = api(live_server, "POST", "/api/games", {"game": NAME, "seats": [HUMAN, FRIEND]})
    for width, lang in SCREENS:
        page = _open(browser, live_server, playing, lang, width)
        check_page(page, ("generic-play", width, lang))
        page.screenshot(path=str(OUT / f"generic-play-{width}-{lang}.png"), full_page=True)
        page.goto(f"{live_server}/{NAME}/games/{over['id']}?lang={lang}")
        _settled(page)
        expect(page.locator("#end")).to_be_visible()
        check_page(page, ("generic-over", width, lang))
        secret = invite["seats"][1]["invite"]  # the share link's
        page.goto(f"{live_server}/{NAME}/games/{invite['id']}/join/1?lang={lang}#invite={secret}")
        expect(page.locator("#join-form")).to_be_visible()
        check_page(page, ("generic-join", width, lang))
        page.context.close()
