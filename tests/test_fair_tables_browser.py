"""Tables nobody can spoil, in a real Chromium (issue 23): the new-game pages' share links carry
the invitation's secret and the clock (every game's: none, real time, or turn-based — a minute,
a day, three days: tests/test_time_controls_browser.py); the join
page claims with the secret and words a link cut short; the game page tells every seat that the
host chose the deal and each seat's time left, and its log says when the table played for a seat
whose time ran out, in both languages; axe finds nothing on any of them. The game pages run on
a server whose clock the test moves (its table runner settles the deadlines, as a real one)."""

from __future__ import annotations

import re

import pytest

from tests.browser_support import (
    api,
    axe_violations,
    created_bodies,
    join_by_link,
    new_page,
    open_as,
    seat_types,
    served,
    shots_dir,
)
from tests.conftest import FakeClock

expect = pytest.importorskip("playwright.sync_api").expect
SHOTS = shots_dir("fair")


@pytest.fixture(scope="module")
def clocked(tmp_path_factory):
    """A server with a clock the test moves, and its table runner on: ``(url, clock)``."""
    clock = FakeClock()
    with served(tmp_path_factory.mktemp("fair-db"), clock=clock) as (url, _):
        yield url, clock


def no_violations(page, where: str) -> None:
    found = axe_violations(page)
    assert not found, (where, found)


@pytest.mark.browser
def test_tobagos_new_game_page_sends_a_turn_clock_and_an_invitation_link(browser, live_server):
    host = new_page(browser)
    sent = created_bodies(host)
    host.goto(f"{live_server}/tobago/new")
    expect(host.locator("#island-preview svg")).to_be_visible()
    host.locator("#time-mode-turn").check()
    expect(host.locator("#turn-seconds option")).to_have_text(["1 minute", "1 day", "3 days"])
    no_violations(host, "tobago/new")
    seat_types(host, ["me", "friend", "none", "none"], ["Ana"])
    host.select_option("#turn-seconds", "60")
    host.click("#create-game")
    expect(host.locator("#created")).to_be_visible()
    (body,) = sent
    assert body["options"]["turn_seconds"] == 60
    assert "seed" not in body  # the landmarks as previewed, the deal left to the server
    assert isinstance(body["options"]["landmarks_seed"], int)
    link = host.locator("#share-1").input_value()
    assert "/tobago/games/" in link and "/join/1#invite=" in link
    no_violations(host, "tobago/new created")
    # the link cut short (no secret) is told it cannot take the seat, in both languages
    cut = new_page(browser)
    for lang, words in (("en", "only the share link"), ("zh", "分享連結")):
        cut.goto(link.split("#")[0] + f"?lang={lang}")
        expect(cut.locator("#join-status")).to_contain_text(words)
        expect(cut.locator("#join-form")).to_be_hidden()
        no_violations(cut, f"join cut short {lang}")
    # the whole link takes it
    friend = join_by_link(browser, link, "Bo")
    friend.wait_for_url("**/tobago/games/*?seat=1")
    game_id = link.split("/games/")[1].split("/")[0]
    snap = api(live_server, "GET", f"/api/games/{game_id}")
    assert snap["seats"][1]["name"] == "Bo" and not snap["seats"][1]["open"]
    assert snap["seed_chosen"] is False
    assert not host.js_errors and not cut.js_errors and not friend.js_errors


@pytest.mark.browser
def test_daos_new_game_page_offers_a_day_per_move(browser, live_server):
    host = new_page(browser)
    sent = created_bodies(host)
    host.goto(f"{live_server}/dao/new?lang=zh")
    host.locator("#time-mode-turn").check()
    expect(host.locator("#turn-seconds option")).to_have_text(["1 分鐘", "1 天", "3 天"])
    no_violations(host, "dao/new zh")
    host.select_option("#seat-1-type", "bot")
    host.select_option("#turn-seconds", "86400")
    host.click("#create-game")
    host.wait_for_url("**/dao/games/*?seat=0")
    (body,) = sent
    assert body["options"]["turn_seconds"] == 86400 and "seed" not in body
    # the page shows the time left, in Chinese
    expect(host.locator("#table-clocks")).to_contain_text("剩餘時間")
    expect(host.locator("#table-clocks")).to_contain_text(re.compile(r"(1 天 0:00:00|23:59:\d\d)"))
    assert not host.js_errors


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_game_page_says_the_deal_was_chosen_the_time_left_and_who_the_table_played_for(
    browser, clocked, lang
):
    url, clock = clocked
    seats = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]
    body = {"game": "dao", "seats": seats, "seed": 11, "options": {"turn_seconds": 60}}
    game = api(url, "POST", "/api/games", body)
    page = new_page(browser)
    open_as(page, url, "dao", game, 1, f"?lang={lang}")
    words = {
        "en": ("The host chose this deal", "Time left: Ana ", "The table played for Ana"),
        "zh": ("主人選定了這一局的牌", "剩餘時間：Ana ", "牌桌替 Ana 走了這一步"),
    }[lang]
    expect(page.locator("#table-seed")).to_contain_text(words[0])
    # a minute, counted down from the server's clock (which stands still here: the page's runs)
    expect(page.locator("#table-clocks")).to_contain_text(re.compile(words[1] + r"[01]:\d\d$"))
    no_violations(page, f"dao game {lang}")
    clock.advance(60)  # Ana's time runs out: the table's runner plays for her
    expect(page.locator("#log")).to_contain_text(words[2], timeout=15_000)
    expect(page.locator("#log")).to_contain_text("(time ran out)" if lang == "en" else "時間用完")
    # now it is Bo's turn, on his own clock
    expect(page.locator("#table-clocks")).to_contain_text("Bo", timeout=15_000)
    page.screenshot(path=str(SHOTS / f"table-played-{lang}.png"), full_page=True)
    no_violations(page, f"dao game after the timeout {lang}")
    assert not page.js_errors


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["tobago", "isla_dorada", "dragons_gold"])
def test_every_game_page_tells_the_chosen_deal_and_the_time_left(browser, clocked, kind):
    url, _ = clocked
    names = ["Ana", "Bo", "Cy"]
    seats = [{"type": "human", "name": n} for n in names]
    body = {"game": kind, "seats": seats, "seed": 7, "options": {"turn_seconds": 86_400}}
    game = api(url, "POST", "/api/games", body)
    page = new_page(browser)
    open_as(page, url, kind, game, 0)
    expect(page.locator("#table-seed")).to_contain_text("The host chose this deal")
    expect(page.locator("#table-clocks")).to_contain_text(re.compile(r"Time left: .*Ana"))
    page.screenshot(path=str(SHOTS / f"{kind}-table.png"), full_page=True)
    no_violations(page, kind)
    assert not page.js_errors
