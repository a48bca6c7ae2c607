"""One name for a seat everywhere (issue 43, item 5), in every game and both languages: a bot is
"Bot 2 (easy)" and my own seat "Ana (you)" in the game page's log, players and end screen, in the
review's moves list, its seat chooser and the chart legend the server draws, and in the review
hub's list of finished games, an account's games lists (running and finished) and its profile;
a watcher's pages name nobody "you". Screenshots in
``test-output/names/``; axe finds nothing on the pages looked at."""

from __future__ import annotations

import re
import urllib.error

import pytest

from tests.browser_support import (
    api,
    axe_violations,
    new_page,
    open_as,
    player_with_games,
    shots_dir,
    signed_in_page,
)

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
SHOTS = shots_dir("names")

#: The seats of each game: Ana (me) and easy bots, as few as the game takes.
SEATS = {"dao": 2, "tobago": 2, "isla_dorada": 3, "dragons_gold": 3}
BOT = {"en": "Bot 2 (easy)", "zh": "電腦 2（簡單）"}
ME = {"en": "Ana (you)", "zh": "Ana（你）"}


def _played_out(server: str, kind: str) -> dict:
    """A game of ``kind`` between Ana (seat 0, her first legal action each time) and easy bots,
    played to its end; the ``POST /api/games`` answer (Ana's token in it)."""
    seats = [{"type": "human", "name": "Ana"}]
    seats += [{"type": "bot", "level": "easy"}] * (SEATS[kind] - 1)
    game = api(server, "POST", "/api/games", {"game": kind, "seats": seats, "seed": 5})
    token = game["seats"][0]["token"]
    for _ in range(3000):
        me = api(server, "GET", f"/api/games/{game['id']}", token=token)
        if me["over"]:
            return game
        if me["legal_actions"]:
            body = {"version": me["version"], "action": me["legal_actions"][0]}
            try:
                api(server, "POST", f"/api/games/{game['id']}/actions", body, token)
            except urllib.error.HTTPError as e:  # a bot moved first (stale version): look again
                assert e.code == 409, e
        else:  # the bots play: wait for their move
            api(server, "GET", f"/api/games/{game['id']}/events?after={me['version']}&wait=5")
    raise AssertionError(f"{kind} did not end")


class _Games(dict):
    """The finished game of each kind, played the first time a test asks for it."""

    def __init__(self, server: str) -> None:
        super().__init__()
        self.server = server

    def __missing__(self, kind: str) -> dict:
        self[kind] = _played_out(self.server, kind)
        return self[kind]


@pytest.fixture(scope="module")
def games(live_server):
    return _Games(live_server)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", list(SEATS))
def test_one_name_for_a_seat_on_the_game_page_and_its_review(
    browser, live_server, games, kind, lang
):
    game = games[kind]
    gid = game["id"]
    page = new_page(browser)
    open_as(page, live_server, kind, game, 0, f"?lang={lang}")
    end = page.locator("#end")
    expect(end).to_be_visible(timeout=20_000)
    for box in ("#log", "#end"):
        expect(page.locator(box)).to_contain_text(ME[lang])
    expect(page.locator("#log")).to_contain_text(BOT[lang])
    if kind != "tobago":  # Tobago's end screen lists the winners and the scores by seat marker
        expect(end).to_contain_text(BOT[lang])
    page.screenshot(path=str(SHOTS / f"{kind}-end-{lang}.png"), full_page=True)
    assert axe_violations(page) == []

    # the review, from the same browser (its token: seat 0 is mine)
    page.goto(f"{live_server}/{kind}/games/{gid}/review?lang={lang}")
    page.wait_for_function("() => window.tobagoReview && window.tobagoReview.ready")
    moves = page.locator("#moves")
    expect(moves).to_contain_text(BOT[lang])
    expect(moves).to_contain_text(ME[lang])
    expect(page.locator("#seat option").nth(1)).to_contain_text(ME[lang])
    expect(page.locator("#seat option").nth(2)).to_contain_text(BOT[lang])
    if kind in ("tobago", "isla_dorada"):  # the game page's own players panel, reused
        expect(page.locator("#rv-players")).to_contain_text(ME[lang])
    legend = page.locator("#chart svg .legend text")
    expect(legend).to_have_count(SEATS[kind], timeout=120_000)  # once the analysis is done
    expect(legend.nth(0)).to_have_text(ME[lang])
    expect(legend.nth(1)).to_have_text(BOT[lang])
    page.screenshot(path=str(SHOTS / f"{kind}-review-{lang}.png"), full_page=True)
    assert axe_violations(page) == []
    assert not page.js_errors, page.js_errors

    # a watcher's review names the same seats, and nobody "you"
    watcher = new_page(browser)
    watcher.goto(f"{live_server}/{kind}/games/{gid}/review?lang={lang}")
    legend = watcher.locator("#chart svg .legend text")
    expect(legend).to_have_count(SEATS[kind], timeout=60_000)
    expect(legend.nth(0)).to_have_text("Ana")
    expect(legend.nth(1)).to_have_text(BOT[lang])
    expect(watcher.locator("#moves")).to_contain_text(BOT[lang])
    assert ME[lang] not in watcher.locator("body").inner_text()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_review_hub_names_my_seat_you_and_bots_by_level(browser, live_server, games, lang):
    page = new_page(browser)
    open_as(page, live_server, "dao", games["dao"], 0, f"?lang={lang}")
    page.goto(f"{live_server}/review?lang={lang}")
    item = page.locator("#finished li", has=page.locator(f"a[href$='{games['dao']['id']}/review']"))
    expect(item).to_contain_text(re.compile(re.escape(ME[lang]) + ".*" + re.escape(BOT[lang])))
    page.screenshot(path=str(SHOTS / f"hub-{lang}.png"), full_page=True)
    assert axe_violations(page) == []


@pytest.fixture(scope="module")
def account(live_server):
    """The account "Ana Lists" with a DAO game against an easy bot in play and one finished."""
    return player_with_games(live_server, "Ana Lists")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_my_games_and_my_profile_name_bots_the_one_way(browser, live_server, account, lang):
    who, running, finished = account
    page = signed_in_page(browser, live_server, who)
    page.goto(f"{live_server}/me?lang={lang}")
    me = {"en": "Ana Lists (you)", "zh": "Ana Lists（你）"}[lang]
    for gid in (running["id"], finished["id"]):
        item = page.locator("li", has=page.locator(f"a[href='/dao/games/{gid}']")).last
        expect(item).to_contain_text(re.compile(re.escape(me) + ".*" + re.escape(BOT[lang])))
    assert "easy bot" not in page.locator("main").inner_text()
    page.screenshot(path=str(SHOTS / f"me-{lang}.png"), full_page=True)
    assert axe_violations(page) == []
    page.goto(f"{live_server}/players/Ana%20Lists?lang={lang}")
    expect(page.locator("main")).to_contain_text(BOT[lang])
    assert axe_violations(page) == []
    assert not page.js_errors, page.js_errors


def test_the_chart_refuses_a_you_that_is_no_seat(live_server, games):
    import time
    import urllib.request

    gid = games["dao"]["id"]
    until = time.monotonic() + 120
    while api(live_server, "GET", f"/api/games/{gid}/analysis")["status"] != "done":
        assert time.monotonic() < until, "no analysis"
        time.sleep(0.5)
    chart = f"{live_server}/dao/games/{gid}/review/chart.svg"
    with urllib.request.urlopen(f"{chart}?you=1&lang=en", timeout=30) as resp:
        assert "Bot 2 (easy) (you)" in resp.read().decode()  # (an odd reader, but their own)
    url = f"{chart}?you=7"
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(url, timeout=30)
    assert err.value.code == 400  # the site's error page, as every page's refusal


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_my_pending_answer_in_dragons_gold_is_not_thinking(browser, live_server, lang):
    """Dragon's Gold's negotiation: my own answer not yet given is awaited, never "thinking"
    (the others' are); every slayer named as everywhere."""
    from tests.game_states import game_at

    game, seat = game_at(live_server, "dg-answer")
    page = new_page(browser, viewport={"width": 390, "height": 844})
    open_as(page, live_server, "dragons_gold", game, seat, f"?lang={lang}")
    page.wait_for_function("() => window.dgGame && window.dgGame.snap && !window.dgGame.busy")
    mine = page.locator("#proposal li", has=page.locator(".dg-share-who", has_text=ME_OF[lang]))
    expect(mine).to_have_count(1)
    expect(mine.locator(".badge")).to_have_text(AWAITED[lang])
    assert THINKING[lang] not in mine.inner_text()
    page.locator("#proposal").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"dg-answer-{lang}.png"))
    assert axe_violations(page) == []


ME_OF = {"en": "(you)", "zh": "（你）"}
AWAITED = {"en": "awaiting you", "zh": "等你回覆"}
THINKING = {"en": "thinking", "zh": "考慮中"}
