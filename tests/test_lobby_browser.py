"""The lobby in a real Chromium (issue 41, part 1): a DAO table with a seat for anyone, made on
the new-game page by one browser, is found on ``/dao`` by a second browser and joined with one
click, and both pages then play; "Play now" in two browsers meets at one table (the second joins
the first's; a signed-in player's seat is held by the account); the new-game page's table
settings (rated, bots after a wait) reach the server; the lobby refreshes without a reload,
keeping focus where it is and announcing new tables; every control is reached by keyboard, and
focus is sensible after Join and Play now. Screenshots of the lobby and the new-game page, both
languages, 1280 and 390 px, in ``test-output/lobby/``.

The live server runs its table (bots move, tables are filled and closed on time); tables left by
one test stay for the next, so each test asks for a time control of its own when it plays now.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser_support import (
    api,
    axe_violations,
    dao_idle,
    new_page,
    raw_keys,
    seat_types,
    shots_dir,
    sign_up,
    signed_in_page,
)

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser
SHOTS = shots_dir("lobby")
ANYONE = {"type": "human", "open": True, "listed": True}
GAME_URL = re.compile(r"/dao/games/([\w-]{12})(\?seat=(\d))?$")


def game_of(page) -> tuple[str, int | None]:
    """The game and the seat (``None``: the account's) of the game page ``page`` is on."""
    found = GAME_URL.search(page.url)
    assert found, page.url
    return found.group(1), None if found.group(3) is None else int(found.group(3))


def idle(page, after: int | None = None) -> dict:
    """Until the DAO page shows its latest snapshot (newer than ``after``), a bot's turn or not;
    that snapshot."""
    return dao_idle(page, after, bots=False)


def play_a_move_each(pages: list) -> None:
    """Whoever's turn it is takes a card on their page (by the page's button), twice: each page
    sees the other's move without reloading."""
    for _ in range(2):
        snaps = [idle(p) for p in pages]
        mover = next(i for i, s in enumerate(snaps) if {"type": "take"} in s["legal_actions"])
        version = snaps[mover]["version"]
        pages[mover].click("#take")
        for p in pages:
            idle(p, version)


def listed(server: str, game_id: str, kind: str = "dao", timeout: float = 10.0) -> dict:
    """The lobby's entry of ``game_id`` (the answer is kept a second: asked until it shows)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        tables = api(server, "GET", f"/api/lobby/{kind}")["tables"]
        found = [t for t in tables if t["id"] == game_id]
        if found:
            return found[0]
        time.sleep(0.3)
    raise AssertionError(f"{game_id} is not in the lobby")


def focused(page) -> str:
    """What has focus: its id, else its tag and text."""
    return page.evaluate(
        "() => { const a = document.activeElement;"
        " return a.id || `${a.tagName.toLowerCase()}:${a.textContent.trim()}`; }"
    )


def test_a_listed_dao_table_is_found_on_the_lobby_by_another_browser_and_joined(
    browser, live_server
):
    host = new_page(browser)
    host.goto(f"{live_server}/dao/new?lang=en")
    seat_types(host, ["me", "anyone", "none", "none", "none", "none"], ["Ana"])
    host.click("#create-game")
    expect(host.locator("#created")).to_be_visible()
    host.click("#open-seat")
    host.wait_for_url(GAME_URL)
    game_id, seat = game_of(host)
    assert seat == 0
    idle(host)
    expect(host.locator("#status")).to_contain_text("Your turn")
    # the host's own lobby shows the table as theirs, with no Join
    lobby_host = host.context.new_page()
    lobby_host.goto(f"{live_server}/dao?lang=en")
    own = lobby_host.locator(f"#table-{game_id}")
    expect(own).to_contain_text("Your table")
    expect(own.locator("button")).to_have_count(0)
    expect(own.locator("a")).to_have_attribute("href", f"/dao/games/{game_id}?seat=0")
    expect(own.locator(".lobby-who")).to_contain_text("Ana (you)")  # my seat, as every page says
    expect(lobby_host.locator("#my-games")).to_contain_text("Ana (you)")
    lobby_host.close()

    # a second browser finds it on /dao and takes the seat with one click
    guest = new_page(browser)
    guest.goto(f"{live_server}/dao?lang=en")
    guest.fill("#player-name", "Bea")
    row = guest.locator(f"#table-{game_id}")
    expect(row).to_contain_text("Ana")
    expect(row).to_contain_text("free seat")
    expect(row).to_contain_text("No clock · Rated · Just opened")
    guest.screenshot(path=str(SHOTS / "found-1280-en.png"), full_page=True)
    row.get_by_role("button", name="Join").click()
    guest.wait_for_url(GAME_URL)
    assert game_of(guest) == (game_id, 1)
    assert guest.evaluate(f"() => Object.keys(JSON.parse(localStorage['tobago.tokens.{game_id}']))")
    expect(guest.locator("#player-1")).to_contain_text("Bea (you)")
    play_a_move_each([host, guest])
    expect(host.locator("#player-1")).to_contain_text("Bea", timeout=15_000)
    # full now: it left the lobby, and the guest's lobby lists it among their games
    guest.goto(f"{live_server}/dao?lang=en")
    expect(guest.locator("#my-games a", has_text="Ana")).to_have_attribute(
        "href", f"/dao/games/{game_id}?seat=1"
    )
    expect(guest.locator("#my-games a", has_text="Ana")).to_have_text("Ana, Bea (you)")
    expect(guest.locator(f"#table-{game_id}")).to_have_count(0)
    for page in (host, guest):
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_play_now_in_two_browsers_meets_at_one_table(browser, live_server):
    first = new_page(browser)
    first.goto(f"{live_server}/dao?lang=en")
    first.fill("#player-name", "Cy")
    first.select_option("#seats-to", "2")  # two seats, real time 3 minutes + 2 s
    first.check("#time-mode-bank")
    first.select_option("#time-bank", "180")
    first.select_option("#time-increment", "2")
    first.click("#play-now")
    first.wait_for_url(GAME_URL)
    game_id, seat = game_of(first)
    assert seat == 0
    idle(first)
    expect(first.locator("#player-1")).to_contain_text("Seat 2")  # waiting, as any free seat
    table = listed(live_server, game_id)
    assert table["free"] == [1] and table["clock"] == {
        "mode": "bank",
        "time_bank_s": 180,
        "increment_s": 2,
    }
    # a signed-in player plays now with the same clock and any number of seats: the same table
    who = sign_up(live_server, "Dee Lobby")
    second = signed_in_page(browser, live_server, who)
    second.goto(f"{live_server}/dao?lang=en")
    expect(second.locator("#player-name")).to_have_count(0)  # the account's name
    second.check("#time-mode-bank")
    second.select_option("#time-bank", "180")
    second.select_option("#time-increment", "2")
    second.click("#play-now")
    second.wait_for_url(GAME_URL)
    assert game_of(second) == (game_id, None)  # held by the account: no token here
    assert second.evaluate(f"() => localStorage['tobago.tokens.{game_id}'] === undefined")
    snap = idle(second)
    assert snap["seat"] == 1 and snap["seats"][1]["player"] == "Dee Lobby"
    play_a_move_each([first, second])
    expect(first.locator("#player-1")).to_contain_text("Dee Lobby", timeout=15_000)
    assert [t["id"] for t in api(live_server, "GET", "/api/lobby/dao")["tables"]].count(
        game_id
    ) == 0
    for page in (first, second):
        assert not page.js_errors, page.js_errors
        page.context.close()


@pytest.mark.parametrize("kind", ["dao", "tobago"])
def test_the_new_game_pages_table_settings_reach_the_server(browser, live_server, kind):
    page = new_page(browser)
    page.goto(f"{live_server}/{kind}/new?lang=en")
    page.select_option("#seat-1-type", "anyone")
    expect(page.locator("#table-rated")).to_be_checked()
    expect(page.locator("#fill-level")).to_be_hidden()  # bots never come: no level to choose
    page.uncheck("#table-rated")
    page.select_option("#fill-after", "120")
    expect(page.locator("#fill-level")).to_be_visible()
    page.select_option("#fill-level", "easy")
    sent: list[dict] = []
    page.on(
        "request",
        lambda r: sent.append(r.post_data_json) if r.url.endswith("/api/games") else None,
    )
    page.click("#create-game")
    expect(page.locator("#created")).to_be_visible()
    assert sent[0]["rated"] is False
    assert (sent[0]["fill_bots_after_s"], sent[0]["fill_level"]) == (120, "easy")
    game_id = page.locator("#open-seat").get_attribute("href").split("/games/")[1].split("?")[0]
    table = listed(live_server, game_id, kind)
    assert not table["rated"] and table["fill_level"] == "easy"
    assert table["fill_at"] == pytest.approx(table["created"] + 120, abs=5)
    # the lobby words it
    other = new_page(browser)
    other.goto(f"{live_server}/{kind}?lang=en")
    row = other.locator(f"#table-{game_id}")
    expect(row).to_contain_text("Casual (not rated)")
    expect(row).to_contain_text(re.compile(r"Bots \(easy\) take the free seats in [12] minutes?"))
    # a rated table without bots sends just that
    page.goto(f"{live_server}/{kind}/new?lang=en")
    page.click("#create-game")
    page.wait_for_url(f"**/{kind}/games/*")
    assert sent[1]["rated"] is True and "fill_bots_after_s" not in sent[1]
    for p in (page, other):
        assert not p.js_errors, p.js_errors
        p.context.close()


def test_the_lobby_refreshes_in_place_keeping_focus_and_announcing_new_tables(browser, live_server):
    seats = [{"type": "human", "name": "Eve"}, ANYONE]
    eve = api(live_server, "POST", "/api/games", {"game": "dao", "seats": seats})
    page = new_page(browser)
    page.goto(f"{live_server}/dao?lang=en")
    page.evaluate("() => { window.notReloaded = true; }")
    join_eve = page.locator(f"#table-{eve['id']} button")
    join_eve.focus()
    # a new table comes in: it is listed and announced; focus stays on Eve's Join
    seats = [{"type": "human", "name": "Fay"}, ANYONE, {"type": "bot", "level": "strong"}]
    fay = api(
        live_server,
        "POST",
        "/api/games",
        {"game": "dao", "seats": seats, "options": {"turn_seconds": 86400}},
    )
    row = page.locator(f"#table-{fay['id']}")
    expect(row).to_contain_text("Fay", timeout=15_000)
    expect(row).to_contain_text("Bot 3 (strong)")  # a bot named as every page names it
    expect(row).to_contain_text("Turn-based: 1 day a move")
    expect(page.locator("#lobby-news")).to_have_text(
        "A new table is waiting: Fay, free seat, Bot 3 (strong)."
    )
    expect(page.locator("#lobby-news")).to_have_attribute("role", "status")
    assert focused(page) == "button:Join"
    expect(join_eve).to_be_focused()
    # Eve's table fills (someone else took the seat): it leaves, focus goes to the next table
    api(live_server, "POST", f"/api/games/{eve['id']}/seats/1/claim", {"name": "Gus"})
    expect(page.locator(f"#table-{eve['id']}")).to_have_count(0, timeout=15_000)
    expect(page.locator("#lobby-news")).to_have_text("That table has filled up or closed.")
    after = page.evaluate(
        "() => document.activeElement.closest('li')?.id || document.activeElement.id"
    )
    assert after.startswith("table-") or after == "tables-h", after
    assert page.evaluate("() => window.notReloaded === true")
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_the_lobby_by_keyboard(browser, live_server):
    seats = [{"type": "human", "name": "Hal"}, ANYONE]
    hal = api(
        live_server,
        "POST",
        "/api/games",
        {"game": "dao", "seats": seats, "options": {"turn_seconds": 60}},
    )
    page = new_page(browser)
    page.goto(f"{live_server}/dao?lang=en")
    expect(page.locator(f"#table-{hal['id']}")).to_be_visible()
    # every control is reached with Tab, in the page's order
    page.locator("#main").focus()
    reached: list[str] = []
    for _ in range(80):
        page.keyboard.press("Tab")
        here = focused(page)
        if here.startswith("a:DAO rules"):  # the footer: past the page's own controls
            break
        reached.append(here)
    wanted = ["a:New game", "a:Rules", "a:Review a game", "button:Join", "player-name"]
    wanted += ["seats-from", "seats-to", "time-mode-none", "play-now"]
    assert all(w in reached for w in wanted), reached
    order = [reached.index(w) for w in wanted]
    assert order == sorted(order), reached  # links, tables, then Play now
    # a refused Play now: worded, and focus on the field to fix
    page.select_option("#seats-from", "4")
    page.select_option("#seats-to", "2")
    page.locator("#play-now").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#play-error")).to_have_text(
        "The fewest seats (4) is more than the most (2)."
    )
    expect(page.locator("#seats-from")).to_be_focused()
    # a Join that comes too late (the seat was taken meanwhile): worded, focus kept on the list
    api(live_server, "POST", f"/api/games/{hal['id']}/seats/1/claim", {"name": "Ida"})
    join = page.locator(f"#table-{hal['id']} button")
    if join.count():
        join.focus()
        page.keyboard.press("Enter")
        expect(page.locator(f"#table-{hal['id']}")).to_have_count(0, timeout=15_000)
        where = page.evaluate(
            "() => document.activeElement.closest('li')?.id || document.activeElement.id"
        )
        assert where.startswith("table-") or where == "tables-h", where
    # Join by keyboard: the game opens as the seat taken
    seats = [{"type": "human", "name": "Jo"}, ANYONE]
    jo = api(live_server, "POST", "/api/games", {"game": "dao", "seats": seats})
    join = page.locator(f"#table-{jo['id']} button")
    expect(join).to_be_visible(timeout=15_000)
    join.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(GAME_URL)
    assert game_of(page) == (jo["id"], 1)
    idle(page)
    # Play now by keyboard: the clock's radios by arrows, the button by Enter
    page.goto(f"{live_server}/dao?lang=en")
    page.locator("#time-mode-none").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#time-mode-bank")).to_be_checked()
    page.locator("#play-now").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(GAME_URL)
    assert game_of(page)[1] is not None
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_screenshots_of_the_lobby_and_the_table_settings(browser, live_server):
    """The lobby with tables of every kind of clock, casual, with bots to come, and a long name,
    and the new-game page's table settings, in both languages at 1280 and 390 px (for a person to
    look at; no words left as keys, no sideways scrolling)."""
    made = [
        ([{"type": "human", "name": "Kim"}, ANYONE, {"type": "bot", "level": "strong"}], {}, {}),
        (
            [{"type": "human"}, ANYONE],
            {"time_bank_s": 600, "increment_s": 5},
            {"rated": False, "fill_bots_after_s": 300, "fill_level": "normal"},
        ),
        (
            [{"type": "human", "name": "Bartholomew Longname-Smythe"}, ANYONE, ANYONE],
            {"turn_seconds": 259200},
            {},
        ),
    ]
    for seats, options, table in made:
        body = {"game": "tobago", "seats": seats, "options": options, **table}
        api(live_server, "POST", "/api/games", body)
    for width, lang in ((1280, "en"), (1280, "zh"), (390, "en"), (390, "zh")):
        page = new_page(browser, viewport={"width": width, "height": 900})
        page.goto(f"{live_server}/tobago?lang={lang}")
        expect(page.locator("#tables li").first).to_be_visible()
        bot = {"en": "Bot 3 (strong)", "zh": "電腦 3（強）"}[lang]  # Kim's table's bot
        expect(page.locator("#tables .lobby-seat.bot", has_text=bot).first).to_be_visible()
        assert not axe_violations(page), (width, lang, axe_violations(page))
        expect(page.locator("#my-games li").first).not_to_have_text(re.compile("…"))
        page.screenshot(path=str(SHOTS / f"lobby-tobago-{width}-{lang}.png"), full_page=True)
        assert not raw_keys(page), raw_keys(page)
        wide = page.evaluate("() => document.documentElement.scrollWidth > innerWidth")
        assert not wide, (width, lang)
        page.goto(f"{live_server}/dao/new?lang={lang}")
        page.select_option("#fill-after", "60")
        page.locator("#table-choice").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"new-dao-{width}-{lang}.png"), full_page=True)
        assert not page.js_errors, page.js_errors
        page.context.close()
