"""Game pages follow their game live (``static/common/gameclient.js``), in a real Chromium: by an
``EventSource`` on the events stream, or by the long-poll where the browser has none; while the
table's bot thinks the page says so under its status, and a bot that failed is told, in both
languages. Played on DAO (the shared client is the same on every game's page), with a slow and
a crashing bot level added to it for the test, on the browser tests' threaded server, whose
table runner plays the bots as a real server's does.
"""

from __future__ import annotations

import time

import pytest

from games.base import get_kind
from tests.browser_support import api, axe_violations, new_page, open_as, shots_dir

expect = pytest.importorskip("playwright.sync_api").expect
SHOTS = shots_dir("live")


def slow_bot(view, legal, rng):
    time.sleep(1.5)
    return legal[0]


def crashing_bot(view, legal, rng):
    raise ZeroDivisionError("a bot bug")


def late_crashing_bot(view, legal, rng):
    time.sleep(3)
    raise ZeroDivisionError("a bot bug, after a while")


@pytest.fixture
def dao_bots(monkeypatch):
    """DAO with the bot levels ``slow``, ``crash`` and ``late_crash`` for this test."""
    bots = get_kind("dao").bots
    monkeypatch.setitem(bots, "slow", slow_bot)
    monkeypatch.setitem(bots, "crash", crashing_bot)
    monkeypatch.setitem(bots, "late_crash", late_crashing_bot)


def requests_of(page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    return urls


def my_turn(page) -> None:
    page.wait_for_function(
        "() => window.daoGame && window.daoGame.snap && !window.daoGame.busy"
        " && window.daoGame.snap.legal_actions.length > 0"
    )


@pytest.mark.browser
def test_a_move_answered_with_the_bots_replies_asks_the_server_nothing_more(browser, live_server):
    """The move's answer carries the entries it appended (the bot's reply too, for a bot that
    answers in the player's write): the page replays them from it, with no ``/events`` GET."""
    seats = [{"type": "human"}, {"type": "bot", "level": "easy"}]
    game = api(live_server, "POST", "/api/games", {"game": "dao", "seats": seats, "seed": 3})
    page = new_page(browser)
    open_as(page, live_server, "dao", game, 0, "?lang=en")
    my_turn(page)
    version = page.evaluate("() => window.daoGame.snap.version")
    urls = requests_of(page)
    page.click("#take")
    page.wait_for_function(f"() => window.daoGame.snap.version > {version} && !window.daoGame.busy")
    my_turn(page)
    posts = [u for u in urls if u.endswith("/actions")]
    assert len(posts) == 1, urls
    assert not any("/events" in u for u in urls), urls
    assert not [u for u in urls if u.endswith(f"/api/games/{game['id']}")], urls
    assert page.evaluate("() => window.daoGame.snap.version") >= version + 2  # its reply came
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.usefixtures("dao_bots")
def test_a_page_follows_by_event_source_and_says_the_bot_is_thinking(browser, live_server):
    seats = [{"type": "human"}, {"type": "bot", "level": "slow"}]
    game = api(live_server, "POST", "/api/games", {"game": "dao", "seats": seats, "seed": 3})
    page = new_page(browser)
    urls = requests_of(page)
    open_as(page, live_server, "dao", game, 0, "?lang=en")
    my_turn(page)
    version = page.evaluate("() => window.daoGame.snap.version")
    page.click("#take")
    thinking = page.locator("#bot-status")
    expect(thinking).to_be_visible()
    expect(thinking).to_contain_text("Bot 2")  # the page names the seat its way
    expect(thinking).to_contain_text("is thinking…")
    page.screenshot(path=str(SHOTS / "bot-thinking.png"))
    assert axe_violations(page) == []
    expect(thinking).to_be_hidden(timeout=15_000)  # its move came as an event
    my_turn(page)
    assert page.evaluate("() => window.daoGame.snap.version") >= version + 2
    assert any("/stream?after=" in u for u in urls)
    assert not any("wait=" in u for u in urls)  # no long-poll while the stream works
    assert page.js_errors == []


@pytest.mark.browser
def test_without_event_source_the_page_follows_by_long_poll(browser, live_server):
    seats = [{"type": "human"}, {"type": "human"}]
    game = api(live_server, "POST", "/api/games", {"game": "dao", "seats": seats, "seed": 4})
    page = new_page(browser)
    page.add_init_script("delete window.EventSource")
    urls = requests_of(page)
    open_as(page, live_server, "dao", game, 0, "?lang=en")
    my_turn(page)
    page.click("#take")
    page.wait_for_function("() => window.daoGame.snap.version === 1")
    import json
    import urllib.request

    token = game["seats"][1]["token"]
    req = urllib.request.Request(  # the friend's move, made elsewhere
        f"{live_server}/api/games/{game['id']}",
        headers={"Authorization": f"Bearer {token}"},
    )
    friend = json.loads(urllib.request.urlopen(req, timeout=10).read())
    move = {"version": friend["version"], "action": friend["legal_actions"][0]}
    req = urllib.request.Request(
        f"{live_server}/api/games/{game['id']}/actions",
        data=json.dumps(move).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    urllib.request.urlopen(req, timeout=10).read()
    page.wait_for_function("() => window.daoGame.snap.version === 2", timeout=15_000)
    assert any("wait=20" in u for u in urls) and not any("/stream" in u for u in urls)
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.usefixtures("dao_bots")
def test_by_long_poll_a_bot_that_fails_with_no_entry_is_told(browser, live_server):
    """The long-poll ends when the bots' mark changes with no new entry (thinking, then
    failed): the page, which follows by long-poll alone here, asks again and says so."""
    seats = [{"type": "bot", "level": "late_crash"}, {"type": "human"}]
    game = api(live_server, "POST", "/api/games", {"game": "dao", "seats": seats, "seed": 5})
    page = new_page(browser)
    page.add_init_script("delete window.EventSource")
    urls = requests_of(page)
    open_as(page, live_server, "dao", game, 1, "?lang=en")
    # within the long-poll's 20 s: its answer came with the mark's change, not at its end
    expect(page.locator("#bot-status")).to_contain_text("could not make its move", timeout=15_000)
    assert page.evaluate("() => window.daoGame.snap.version") == 0
    assert any("wait=20" in u and "&bot=" in u for u in urls)
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.usefixtures("dao_bots")
def test_a_bot_that_fails_is_told_on_the_page_in_both_languages(browser, live_server):
    seats = [{"type": "bot", "level": "crash"}, {"type": "human"}]
    game = api(live_server, "POST", "/api/games", {"game": "dao", "seats": seats, "seed": 5})
    for lang, words in (("en", "could not make its move"), ("zh", "無法走這一步")):
        page = new_page(browser)
        open_as(page, live_server, "dao", game, 1, f"?lang={lang}")
        expect(page.locator("#bot-status")).to_contain_text(words, timeout=15_000)
        page.screenshot(path=str(SHOTS / f"bot-failed-{lang}.png"))
        assert axe_violations(page) == []
        assert page.js_errors == []
