# ruff: noqa: F811  (pytest fixtures imported from tests.test_time_controls_browser are parameters here)
"""Every page of the site passes axe-core with zero violations, shows no catalogue key as words
and is no wider than the screen, in both languages, on a 1280 px screen and a 390 px phone
(axe-core is vendored in static/vendor/axe-core, from the npm registry). The account pages too,
signed out and, in a browser holding a session, signed in (my games, the account page with a
token just made, a profile, a leaderboard, a game the account plays, the hubs), and the sign-in
page's offer of this browser's guest seats. Game pages are checked as a seat in play and after the end (long log, end screen);
Isla Dorada and Dragon's Gold in every state their pages draw differently (tests/game_states.py),
where the Chinese page also shows no English word but the players' names. Every game's lobby
with open tables listed (a plain one, a casual one on real time that bots fill later), signed out
and in. The clocks (issue 41):
every new-game page with real time chosen, a real-time game in play (each seat's bank), and
every game's page while this seat is marked away ("I'm back"; on a server whose clock and table
the test runs: tests/test_time_controls_browser.py).
"""

from __future__ import annotations

import re

import pytest

from tests.browser_support import (
    OUT,
    api,
    axe_violations,
    new_page,
    open_as,
    play_by_tokens,
    player_with_games,
    raw_keys,
    say,
    signed_in_page,
)
from tests.game_states import STATES, game_at
from tests.test_time_controls_browser import HANDLES, absent_game, table  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

HUMAN = {"type": "human"}
FRIEND = {"type": "human", "open": True}

PAGES = [
    "/",
    "/tobago",
    "/tobago/new",
    "/tobago/playground",
    "/dao",
    "/dao/new",
    "/isla_dorada",
    "/dragons_gold",
    "/isla_dorada/new",
    "/dragons_gold/new",
    "/puzzles",
    "/puzzles/daily",
    "/puzzles/sheet?count=6",
    "/puzzles/sheet?count=6&print=1",
    "/rules",
    "/rules/tobago",
    "/rules/dao",
    "/rules/isla_dorada",
    "/rules/dragons_gold",
    "/review",
    "/tobago/games/{tobago}/join/1#invite={tobago_invite}",
    "/dao/games/{dao}/join/1#invite={dao_invite}",
    "/isla_dorada/games/{isla_dorada}/join/1#invite={isla_dorada_invite}",
    "/dragons_gold/games/{dragons_gold}/join/1#invite={dragons_gold_invite}",
    "/no/such/page",
    "/tobago/games/nosuchgame",
    "/puzzles/NOT-A-CODE",
    "/api/docs",
    "/signin?next=/dao/new",
    "/signup",
    "/leaderboards",
    "/leaderboards/dao",
    "/players/{player}",
    "/players/nobody",
]
#: Every game's lobby (each with the open tables of ``LOBBY_TABLES``).
LOBBIES = ("/tobago", "/dao", "/isla_dorada", "/dragons_gold")
DIVISION = {"negotiation": "division"}  # an all-bot Dragon's Gold game ends without a clock
REAL_TIME = {"time_bank_s": 600, "increment_s": 5}  # each seat's bank on the page
#: (kind, seats, seed, seat to open as[, options]): in play as a seat, and over (all bots) as a
#: watcher.
GAMES: dict[str, tuple] = {
    "tobago-play": ("tobago", [HUMAN, {"type": "bot", "level": "strategic"}], 3, 0),
    "tobago-over": ("tobago", [{"type": "bot", "level": "strategic"}] * 2, 5, None),
    "dao-play": ("dao", [HUMAN, {"type": "bot", "level": "ev"}], 3, 0),
    "dao-over": ("dao", [{"type": "bot", "level": "ev"}] * 2, 5, None),
    "dao-clock": ("dao", [HUMAN, {"type": "bot", "level": "ev"}], 3, 0, REAL_TIME),
    "isla-play": ("isla_dorada", [HUMAN] + [{"type": "bot", "level": "planner"}] * 2, 3, 0),
    "isla-over": ("isla_dorada", [{"type": "bot", "level": "planner"}] * 3, 5, None),
    "dragons-play": ("dragons_gold", [HUMAN] + [{"type": "bot", "level": "greedy"}] * 2, 3, 0),
    "dragons-over": ("dragons_gold", [{"type": "bot", "level": "greedy"}] * 3, 5, None, DIVISION),
}
SCREENS = [(1280, "en"), (1280, "zh"), (390, "zh"), (390, "en")]
ANYONE = {"type": "human", "open": True, "listed": True}
#: Open tables every game's lobby (/<kind>) lists: (seats, the rest of the creation's body).
LOBBY_TABLES = [
    ([{"type": "human", "name": "Ana"}, ANYONE, {"type": "bot", "level": "strong"}], {}),
    (
        [HUMAN, ANYONE, ANYONE],
        {
            "options": {"time_bank_s": 600, "increment_s": 5},
            "rated": False,
            "fill_bots_after_s": 300,
            "fill_level": "normal",
        },
    ),
]


@pytest.fixture(scope="module")
def games(live_server):
    ids = {}
    for kind in ("tobago", "dao", "isla_dorada", "dragons_gold"):
        body = {"game": kind, "seats": [HUMAN, FRIEND, HUMAN]}
        game = api(live_server, "POST", "/api/games", body)
        ids[kind], ids[f"{kind}_invite"] = game["id"], game["seats"][1]["invite"]
        # the lobby lists open tables: one plain, one casual on real time that bots fill later
        for seats, extra in LOBBY_TABLES:
            api(live_server, "POST", "/api/games", {"game": kind, "seats": seats, **extra})
    made = {}
    for name, (kind, seats, seed, seat, *options) in GAMES.items():
        body = {
            "game": kind,
            "seed": seed,
            "seats": seats,
            "options": options[0] if options else {},
        }
        made[name] = (kind, api(live_server, "POST", "/api/games", body), seat)
    return ids, made


@pytest.fixture(scope="module")
def player(live_server):
    """An account with a DAO game in play and a finished, rated one (its profile, my games and
    the leaderboard have something to show)."""
    who, running, finished = player_with_games(live_server, "Axe_Player")
    return who, {"player": who.name, "running": running["id"], "finished": finished["id"]}


#: An English comma or semicolon right after Chinese text (a list joined the English way).
LATIN_SEPARATOR_IN_CHINESE = re.compile(r"[\u3400-\u9fff）」][,;] ")


def _check(page, where) -> None:
    if "zh" in where:
        text = page.locator("body").inner_text()
        odd = [m.group(0) for m in LATIN_SEPARATOR_IN_CHINESE.finditer(text)]
        assert not odd, (where, odd[:5])
    found = axe_violations(page)
    assert not found, (where, found)
    assert not raw_keys(page), (where, "catalogue keys shown as words", raw_keys(page))
    assert not page.js_errors, (where, page.js_errors)
    # and no page is wider than a phone: only boxes meant to scroll sideways do
    wider = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wider <= 0, (where, f"the page is {wider} px wider than the screen")


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_no_axe_violation(browser, live_server, games, player, path):
    ids, _ = games
    url = live_server + path.format(**ids, **player[1])
    for width, lang in SCREENS:
        page = new_page(browser, viewport={"width": width, "height": 900})
        base, hash_, fragment = url.partition("#")  # the query goes before a share link's #
        page.goto(base + ("&" if "?" in base else "?") + f"lang={lang}" + hash_ + fragment)
        page.wait_for_load_state("networkidle")
        if path in LOBBIES:  # its open tables are drawn
            page.locator("#tables li").nth(len(LOBBY_TABLES) - 1).wait_for()
            page.screenshot(path=str(OUT / f"axe-lobby{path.replace('/', '-')}-{width}-{lang}.png"))
        _check(page, (path, width, lang))
        page.context.close()


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_page_has_no_axe_violation(browser, live_server, games, name):
    _, made = games
    kind, game, seat = made[name]
    for width, lang in SCREENS:
        page = new_page(browser, viewport={"width": width, "height": 900})
        open_as(page, live_server, kind, game, seat, f"?lang={lang}")
        handle = {
            "tobago": "tobagoGame",
            "dao": "daoGame",
            "isla_dorada": "islaGame",
            "dragons_gold": "dgGame",
        }[kind]
        page.wait_for_function(
            f"() => window.{handle} && window.{handle}.snap && !window.{handle}.busy"
        )
        if kind == "tobago" and seat is not None:  # the helper's tables are drawn too
            page.wait_for_function("() => window.tobagoGame.helper !== null")
        _check(page, (name, width, lang))
        if kind == "dragons_gold":  # each dragon card holds its lines (a phone's cards are narrow)
            spill = page.evaluate(
                "() => [...document.querySelectorAll('.dg-dragon')]"
                ".filter((c) => c.scrollWidth > c.clientWidth).length"
            )
            assert spill == 0, (name, width, lang, f"{spill} dragon cards overflow")
        page.screenshot(path=str(OUT / f"axe-{name}-{width}-{lang}.png"), full_page=True)
        page.context.close()


#: Latin words a Chinese game page may show: the players' names (tests/game_states.py) and the
#: site's names that are the same in both languages.
NAMES = {"Ana", "Bo", "Cy", "Di", "Ed", "Flo", "English", "API", "DAO"}


@pytest.mark.parametrize("name", list(STATES))
def test_every_state_of_isla_dorada_and_dragons_gold_has_no_axe_violation(
    browser, live_server, name
):
    game, seat = game_at(live_server, name)
    kind = STATES[name].kind
    handle = {"isla_dorada": "islaGame", "dragons_gold": "dgGame"}[kind]
    for width, lang in SCREENS:
        page = new_page(browser, viewport={"width": width, "height": 900})
        open_as(page, live_server, kind, game, seat, f"?lang={lang}")
        page.wait_for_function(
            f"() => window.{handle} && window.{handle}.snap && !window.{handle}.busy"
        )
        _check(page, (name, width, lang))
        if lang == "zh":
            words = set(re.findall(r"[A-Za-z]{2,}", page.locator("body").inner_text()))
            assert not words - NAMES, (name, width, sorted(words - NAMES))
        page.screenshot(path=str(OUT / f"state-{name}-{width}-{lang}.png"), full_page=True)
        page.context.close()


def _phrase_answered(page) -> str:
    """Tap the quick phrase "No" and wait for its answer: ``"said"`` or ``"refused"``."""
    before = page.locator("#chat-lines li").count()
    page.locator("[data-phrase='chat.phrase_no']").click()
    page.wait_for_function(
        "n => !document.getElementById('chat-error').hidden"
        " || document.querySelectorAll('#chat-lines li').length > n",
        arg=before,
    )
    return "refused" if page.locator("#chat-error").is_visible() else "said"


def test_the_table_chat_has_no_axe_violation(browser, live_server):
    """The table chat with lines, its mutes open and a refusal in words, as a seat and as a
    watcher; beside the proposals of Dragon's Gold's negotiation; on a finished game's review."""
    seats = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]
    game = api(live_server, "POST", "/api/games", {"game": "dao", "seats": seats, "seed": 7})
    for seat, text in ((0, "成交嗎？"), (1, "Deal? 我想要藍色的"), (0, "No")):
        say(live_server, game, seat, text)
    over = api(live_server, "POST", "/api/games", {"game": "dao", "seats": seats, "seed": 8})
    say(live_server, over, 1, "打得好")
    play_by_tokens(live_server, over)
    dg, dg_seat = game_at(live_server, "dg-answer")
    say(live_server, dg, (dg_seat + 1) % 3, "成交嗎？")
    for width, lang in SCREENS:
        views = [
            ("seat", "dao", game, 0),
            ("watcher", "dao", game, None),
            ("dg", "dragons_gold", dg, dg_seat),
        ]
        for name, kind, made, seat in views:
            page = new_page(browser, viewport={"width": width, "height": 900})
            open_as(page, live_server, kind, made, seat, f"?lang={lang}")
            page.wait_for_function("() => document.querySelectorAll('#chat-lines li').length > 0")
            page.wait_for_function(
                "() => !document.getElementById('chat-form').hidden"
                " || !document.getElementById('chat-note').hidden"
            )
            page.locator("#chat-mutes summary").click()
            if name == "seat":  # a line too many: the refusal in words
                for _ in range(12):  # each once the last is answered, until one is refused
                    if _phrase_answered(page) == "refused":
                        break
                page.locator("#chat-mute-1").check()
            _check(page, ("chat", name, width, lang))
            page.locator("#chat").screenshot(path=str(OUT / f"axe-chat-{name}-{width}-{lang}.png"))
            page.context.close()
        page = new_page(browser, viewport={"width": width, "height": 900})
        page.goto(f"{live_server}/dao/games/{over['id']}/review?lang={lang}")
        page.wait_for_function("() => window.tobagoReview && window.tobagoReview.ready")
        page.wait_for_function("() => document.querySelectorAll('#chat-lines li').length > 0")
        _check(page, ("chat", "review", width, lang))


@pytest.mark.parametrize("kind", list(HANDLES))
def test_every_new_game_pages_real_time_choice_has_no_axe_violation(browser, live_server, kind):
    for width, lang in SCREENS:
        page = new_page(browser, viewport={"width": width, "height": 900})
        page.goto(f"{live_server}/{kind}/new?lang={lang}")
        page.locator("#time-mode-bank").check()
        page.locator("#time-bank").wait_for()
        _check(page, (kind, "new, real time", width, lang))
        page.context.close()


@pytest.mark.parametrize("kind", list(HANDLES))
def test_every_game_page_with_this_seat_away_has_no_axe_violation(browser, table, kind):
    url, driver = table
    game = absent_game(url, driver, kind)
    for width, lang in SCREENS:
        page = new_page(browser, viewport={"width": width, "height": 900})
        open_as(page, url, kind, game, 0, f"?lang={lang}")
        handle = HANDLES[kind]
        page.wait_for_function(
            f"() => window.{handle} && window.{handle}.snap && !window.{handle}.busy"
        )
        page.locator("#im-back").wait_for()
        _check(page, (kind, "away", width, lang))
        page.screenshot(path=str(OUT / f"axe-away-{kind}-{width}-{lang}.png"), full_page=True)
        page.context.close()


#: Pages as a signed-in browser sees them ({running}, {finished}: the account's DAO games).
SIGNED_IN_PAGES = [
    "/",
    "/me",
    "/account",
    "/players/{player}",
    "/leaderboards/dao",
    "/review",
    "/tobago",
    "/dao",
    "/dao/new",
    "/dao/games/{running}",
    "/dao/games/{finished}",
]


@pytest.mark.parametrize("path", SIGNED_IN_PAGES)
def test_every_page_signed_in_has_no_axe_violation(browser, live_server, player, path):
    who, ids = player
    for width, lang in SCREENS:
        page = signed_in_page(browser, live_server, who, viewport={"width": width, "height": 900})
        page.goto(live_server + path.format(**ids) + f"?lang={lang}")
        page.wait_for_load_state("networkidle")
        if path.startswith("/dao/games/"):
            page.wait_for_function(
                "() => window.daoGame && window.daoGame.snap && !window.daoGame.busy"
            )
        if path == "/account":  # a token just made: the list, and the token shown once
            page.fill("#token-label", f"axe {width} {lang}")
            page.click("#make-token")
            page.wait_for_selector("#token-made:not([hidden])")
        assert page.locator(".account-name").inner_text() == who.name
        _check(page, (path, width, lang))
        page.context.close()


def test_the_offer_of_guest_seats_has_no_axe_violation(browser, live_server, games):
    _, made = games
    kind, game, seat = made["dao-play"]
    for i, (width, lang) in enumerate(SCREENS):
        page = new_page(browser, viewport={"width": width, "height": 900})
        open_as(page, live_server, kind, game, seat)  # a guest's seat in this browser
        page.goto(f"{live_server}/signup?lang={lang}")
        page.fill("#name", f"Axe Offer {i}")
        page.fill("#password", "a long passphrase")
        page.click("#submit")
        page.wait_for_selector("#seats-offer:not([hidden])")
        _check(page, ("seats offer", width, lang))
        page.context.close()
