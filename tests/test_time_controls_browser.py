"""Time controls in a real Chromium (issue 41, part 3): every new-game page offers no clock,
real time (a bank per player with seconds added after each move) or turn-based (a time per
move); a real-time game against a bot shows each seat's bank counting down on the page; a seat
whose time ran out three times in a row is marked away, the log says so, and one click on
"I'm back" (by keyboard) brings it back; in both languages, at 1280 and 390 px (axe on these
states too: tests/test_axe_browser.py).

The games run on a server whose clock the test moves and whose table the test runs
(``TableDriver``: deadlines settled and bots played when the test says), so an absent seat
waits at a bot's turn for the click instead of being played through to the end."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.base import get_kind
from tests.browser_support import (
    api,
    axe_violations,
    created_bodies,
    new_page,
    open_as,
    raw_keys,
    served,
    shots_dir,
)
from tests.conftest import FakeClock

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser
SHOTS = shots_dir("clocks")

#: The page object each game's script leaves on ``window``.
HANDLES = {
    "tobago": "tobagoGame",
    "dao": "daoGame",
    "isla_dorada": "islaGame",
    "dragons_gold": "dgGame",
}
#: Seat 0 a person, the rest bots, per game (its fewest seats).
BOTS = {"tobago": 1, "dao": 1, "isla_dorada": 2, "dragons_gold": 2}
BANK, INCREMENT = 60, 5


class TableDriver:
    """The table of a server without a runner, run by the test: ``step`` plays the due bots and
    settles the passed deadlines (a read does), ``away(gid, seat)`` lets the seat's time run
    out until it is marked absent."""

    def __init__(self, app: Any, clock: FakeClock) -> None:
        self.sessions = app.extensions["game_sessions"]
        self.clock = clock

    def step(self, gid: str) -> tuple[Any, Any]:
        self.sessions.play_due_bots(gid)
        return self.sessions.current(gid)  # settles what is due

    def away(self, gid: str, seat: int) -> None:
        for _ in range(300):
            game, state = self.step(gid)
            if seat in get_kind(game.kind).absent(state):
                self.sessions.play_due_bots(gid)  # the bots' turn: the absent seat waits
                return
            assert not game.over, "the game ended before the seat was marked absent"
            if game.bot_due is not None:  # the bots answer first, in no time
                continue
            ends = game.turn_deadlines.get(seat, game.deadline)  # else a timed phase's end
            if ends is not None and ends > self.clock.now:
                self.clock.advance(ends - self.clock.now)
        pytest.fail("the seat was never marked absent")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A server whose clock and table the test runs: ``(url, driver)``."""
    clock = FakeClock()
    with served(tmp_path_factory.mktemp("clocks-db"), runner=False, clock=clock) as (url, app):
        yield url, TableDriver(app, clock)


def real_time_game(url: str, kind: str, seed: int = 11) -> dict:
    """A ``kind`` game of Ana against the kind's easy bots, on a bank of ``BANK`` s +
    ``INCREMENT`` s (the creation's answer)."""
    seats = [{"type": "human", "name": "Ana"}] + [{"type": "bot", "level": "easy"}] * BOTS[kind]
    options = {"time_bank_s": BANK, "increment_s": INCREMENT}
    return api(
        url, "POST", "/api/games", {"game": kind, "seats": seats, "seed": seed, "options": options}
    )


def absent_game(url: str, driver: TableDriver, kind: str) -> dict:
    """A real-time ``kind`` game whose seat 0 (Ana) is marked absent, waiting for a bot."""
    game = real_time_game(url, kind)
    driver.away(game["id"], 0)
    return game


def settled(page, kind: str) -> None:
    handle = HANDLES[kind]
    page.wait_for_function(
        f"() => window.{handle} && window.{handle}.snap && !window.{handle}.busy"
    )


def check_page(page, where: Any) -> None:
    """No axe violation, no catalogue key as words, no wider than the screen."""
    found = axe_violations(page)
    assert not found, (where, found)
    assert not raw_keys(page), (where, raw_keys(page))
    wide = page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")
    assert not wide, (where, "wider than the screen")


@pytest.mark.parametrize("kind", list(HANDLES))
def test_every_new_game_page_offers_no_clock_real_time_or_turns(browser, table, kind):
    url, _ = table
    for width, lang in ((1280, "en"), (390, "zh")):
        page = new_page(browser, viewport={"width": width, "height": 900})
        sent = created_bodies(page)
        page.goto(f"{url}/{kind}/new?lang={lang}")
        expect(page.locator("#time-mode-none")).to_be_checked()
        expect(page.locator("#time-bank")).to_be_hidden()
        expect(page.locator("#turn-seconds")).to_be_hidden()
        page.locator("#time-mode-turn").check()
        expect(page.locator("#turn-seconds")).to_be_visible()
        days = ["1 minute", "1 day", "3 days"] if lang == "en" else ["1 分鐘", "1 天", "3 天"]
        expect(page.locator("#turn-seconds option")).to_have_text(days)
        # real time, by keyboard: the radio, then the bank and the increment
        page.locator("#time-mode-none").focus()
        page.keyboard.press("ArrowRight")  # the radios' arrows move the choice: real time
        expect(page.locator("#time-mode-bank")).to_be_checked()
        expect(page.locator("#time-bank")).to_be_visible()
        expect(page.locator("#turn-seconds")).to_be_hidden()
        page.select_option("#time-bank", "180")
        page.select_option("#time-increment", "2")
        page.screenshot(path=str(SHOTS / f"new-{kind}-{width}-{lang}.png"), full_page=True)
        page.click("#create-game")
        page.wait_for_url(f"**/{kind}/games/*")
        (body,) = sent
        assert body["options"]["time_bank_s"] == 180 and body["options"]["increment_s"] == 2
        assert "turn_seconds" not in body["options"]
        assert not page.js_errors
        page.context.close()
    # no increment: left out; turn-based: a time per move
    page = new_page(browser)
    sent = created_bodies(page)
    page.goto(f"{url}/{kind}/new")
    page.locator("#time-mode-bank").check()
    page.select_option("#time-increment", "0")
    page.click("#create-game")
    page.wait_for_url(f"**/{kind}/games/*")
    page.goto(f"{url}/{kind}/new")
    page.locator("#time-mode-turn").check()
    page.select_option("#turn-seconds", "259200")
    page.click("#create-game")
    page.wait_for_url(f"**/{kind}/games/*")
    assert [b["options"].get("time_bank_s") for b in sent] == [600, None]
    assert "increment_s" not in sent[0]["options"] and sent[1]["options"]["turn_seconds"] == 259200
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_real_time_game_counts_down_marks_the_absent_and_takes_them_back(browser, table, lang):
    url, driver = table
    game = real_time_game(url, "dao", seed=21)
    gid = game["id"]
    page = new_page(browser)
    open_as(page, url, "dao", game, 0, f"?lang={lang}")
    settled(page, "dao")
    words = {  # the page names Ana "Ana (you)"
        "en": ("Time left: ", "1:00 (playing)", "is away", "is back", "I'm back", "away"),
        "zh": ("剩餘時間：", "1:00（正在下）", "離開了", "回來了", "我回來了", "離開中"),
    }[lang]
    clocks = page.locator("#table-clocks")
    expect(clocks).to_contain_text(words[0])
    first = driver.sessions.store.get(gid).to_act
    if first == [0]:  # Ana's bank counts down on the page (the server's clock stands still)
        expect(clocks).to_contain_text(words[1])
        expect(clocks).to_contain_text(re.compile(r"Ana\S* ?(\(you\))? 0:5\d"), timeout=5000)
    driver.away(gid, 0)
    expect(page.locator("#log")).to_contain_text(words[2], timeout=10_000)
    back = page.locator("#im-back")
    expect(back).to_be_visible(timeout=10_000)
    expect(back).to_have_text(words[4])
    expect(clocks).to_contain_text(words[5])
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        check_page(page, ("dao absent", width, lang))
        page.screenshot(path=str(SHOTS / f"away-dao-{width}-{lang}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    back.focus()
    page.keyboard.press("Enter")  # one click (a key): back
    expect(page.locator("#log")).to_contain_text(words[3], timeout=10_000)
    expect(page.locator("#table-back")).to_be_hidden()
    expect(page.locator("#status")).to_be_focused()
    snap = api(url, "GET", f"/api/games/{gid}")
    assert snap["absent"] == [] and snap["banks"][0] == INCREMENT
    driver.step(gid)  # the bot's reply: Ana's turn, on her bank
    expect(clocks).to_contain_text(re.compile(r"0:0[0-5]"), timeout=10_000)
    page.screenshot(path=str(SHOTS / f"back-dao-{lang}.png"), full_page=True)
    assert not page.js_errors


@pytest.mark.parametrize("kind", ["tobago", "isla_dorada", "dragons_gold"])
def test_every_game_page_shows_the_banks_and_the_away_seat_its_button(browser, table, kind):
    url, driver = table
    game = absent_game(url, driver, kind)
    for width, lang in ((1280, "zh"), (390, "en")):
        page = new_page(browser, viewport={"width": width, "height": 900})
        open_as(page, url, kind, game, 0, f"?lang={lang}")
        settled(page, kind)
        expect(page.locator("#im-back")).to_be_visible()
        expect(page.locator("#table-clocks")).to_contain_text("Ana")
        page.screenshot(path=str(SHOTS / f"away-{kind}-{width}-{lang}.png"), full_page=True)
        assert not page.js_errors
        page.context.close()
    page = new_page(browser)
    open_as(page, url, kind, game, 0)
    settled(page, kind)
    page.click("#im-back")
    expect(page.locator("#table-back")).to_be_hidden()
    expect(page.locator("#log")).to_contain_text("is back")
    assert api(url, "GET", f"/api/games/{game['id']}")["absent"] == []
    page.context.close()
