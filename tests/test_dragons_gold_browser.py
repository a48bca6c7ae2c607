# ruff: noqa: F811  (pytest fixtures imported from tests.browser_support are parameters here)
"""Dragon's Gold in a real Chromium (Playwright): a whole game from the new-game page to the end
screen by clicks, with negotiations I take part in (proposing with the split editor, accepting),
at 1280 px in English; and a negotiation that runs out of time on a 390-px phone in Traditional
Chinese: the countdown from the snapshot's deadline goes down, nobody acts, and the treasure
leaves the game when the server's clock says so.

Screenshots land in ``test-output/dragons_gold/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import json
import random
import time

import pytest
import requests

from games.dragons_gold.bots import greedy_bot
from tests.browser_support import OUT, browser, live_server, new_page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
SHOTS = OUT / "dragons_gold"
SHOTS.mkdir(parents=True, exist_ok=True)
PHONE = {"width": 390, "height": 844}


def snapshot(page) -> dict:
    return page.evaluate("() => window.dgGame.snap")


def wait_idle(page, timeout: float = 20_000) -> None:
    """Until the page is caught up, and no bot is thinking (the table's replies have come)."""
    page.wait_for_function(
        "() => window.dgGame && window.dgGame.snap && !window.dgGame.busy"
        " && window.dgGame.snap.bot !== 'thinking'",
        timeout=timeout,
    )


def click_if(page, selector: str) -> bool:
    loc = page.locator(selector)
    if loc.count() and loc.first.is_visible() and loc.first.is_enabled():
        loc.first.click()
        return True
    return False


def test_a_game_with_negotiations_played_to_the_end_by_clicks(browser, live_server):
    page = new_page(browser)
    page.goto(f"{live_server}/dragons_gold/new?lang=en")
    expect(page.locator("#seat-0-type")).to_be_visible()
    page.select_option("#seat-3-type", "none")  # me and two greedy bots
    page.click("details.advanced summary")
    page.fill("#game-seed", "3")
    page.click("#create-game")
    page.wait_for_url("**/dragons_gold/games/**")
    page.select_option("#speed", "0")
    wait_idle(page)
    expect(page.locator("#dragons > li")).to_have_count(4)
    page.screenshot(path=str(SHOTS / "fight-1280-en.png"), full_page=True)
    # keyboard: choose the wizard, then attack dragon 1 with Enter
    page.focus("#hunter-wizard")
    page.keyboard.press("Enter")
    expect(page.locator("#attack-0")).to_contain_text("Wizard (1)")
    version = snapshot(page)["version"]
    page.focus("#attack-0")
    page.keyboard.press("Enter")
    page.wait_for_function("v => window.dgGame.snap.version > v", arg=version)
    wait_idle(page)
    assert snapshot(page)["view"]["dragons"][0]["hunters"][0] == {
        "seat": 0,
        "hunter": "wizard",
        "attack": 1,
        "sword": False,
    }
    took_part = {"proposed": 0, "accepted": 0}
    shot_negotiation = shot_market = False
    for _ in range(400):
        wait_idle(page)
        if page.locator("#end").is_visible():
            break
        view = snapshot(page)["view"]
        neg = view["negotiation"]
        if neg and neg["step"] == "proposals" and 0 in neg["participants"] and not shot_negotiation:
            page.screenshot(path=str(SHOTS / "negotiation-1280-en.png"), full_page=True)
            shot_negotiation = True
        if view["phase"] == "market" and not shot_market:
            expect(page.locator("#market")).to_be_visible()
            page.screenshot(path=str(SHOTS / "market-1280-en.png"), full_page=True)
            shot_market = True
        if click_if(page, "#accept"):
            took_part["accepted"] += 1
        elif (  # (the view read above may be a moment older than the page: re-read next round)
            neg
            and page.locator("#propose").is_visible()
            and not (neg["proposal"] and neg["proposal"]["by"] == 0)
        ):
            page.click("#fill-attack")
            expect(page.locator("#propose")).to_be_enabled()
            page.click("#propose")
            took_part["proposed"] += 1
        elif not any(
            click_if(page, sel)
            for sel in ("#dragons .dg-attack", "#neg-body .dg-buttons button", "#done")
        ):
            page.wait_for_timeout(100)
    else:
        snap = snapshot(page)
        page.screenshot(path=str(SHOTS / "stuck.png"), full_page=True)
        raise AssertionError(f"the game did not end: {snap['to_act']} {snap['legal_actions']}")
    expect(page.locator("#end")).to_be_visible()
    assert took_part["proposed"] + took_part["accepted"] > 0, took_part
    assert shot_market  # the market opened after the 7th dragon and I left it
    final = snapshot(page)
    assert final["over"] and final["view"]["phase"] == "over"
    rows = page.locator(".dg-scores tbody tr")
    expect(rows).to_have_count(3)
    totals = [float(rows.nth(i).locator("td").last.inner_text()) for i in range(3)]
    assert totals == final["scores"]
    assert "Agreed" in page.locator("#log").inner_text() or took_part["accepted"]
    page.screenshot(path=str(SHOTS / "end-1280-en.png"), full_page=True)
    assert page.js_errors == []


def _to_negotiation(server: str, game: dict) -> dict:
    """Greedy moves for every (human) seat through the API until a timed negotiation starts."""
    gid = game["id"]
    tokens = {s["index"]: s["token"] for s in game["seats"]}
    for _ in range(60):
        snap = requests.get(f"{server}/api/games/{gid}", timeout=10).json()
        if (
            snap["view"]["phase"] == "negotiation"
            and snap["view"]["negotiation"]["mode"] == "timed"
        ):
            return snap
        seat = snap["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = requests.get(f"{server}/api/games/{gid}", headers=auth, timeout=10).json()
        action = greedy_bot(mine["view"], mine["legal_actions"], random.Random(0))
        body = {"version": snap["version"], "action": action}
        resp = requests.post(
            f"{server}/api/games/{gid}/actions", json=body, headers=auth, timeout=10
        )
        assert resp.status_code == 200, resp.text
    raise AssertionError("no negotiation")


def test_a_negotiation_runs_out_of_time_on_a_phone_in_chinese(browser, live_server):
    body = {
        "game": "dragons_gold",
        "seats": [{"type": "human", "name": n} for n in ("Ana", "Bo", "Cy")],
        "seed": 4,
        "options": {"negotiation_seconds": 5},
    }
    game = requests.post(f"{live_server}/api/games", json=body, timeout=10).json()
    snap = _to_negotiation(live_server, game)
    gid = game["id"]
    seat = snap["view"]["negotiation"]["participants"][0]
    token = next(s["token"] for s in game["seats"] if s["index"] == seat)
    page = new_page(browser, viewport=PHONE, locale="zh-TW")
    page.goto(f"{live_server}/?lang=zh")
    page.evaluate(
        "([gid, seat, token]) => localStorage.setItem(`tobago.tokens.${gid}`, JSON.stringify({[seat]: token}))",
        [gid, seat, token],
    )
    page.goto(f"{live_server}/dragons_gold/games/{gid}?lang=zh")
    wait_idle(page)
    countdown = page.locator("#countdown")
    expect(countdown).to_be_visible()
    first = int(countdown.get_attribute("data-seconds"))
    assert 0 < first <= 5
    expect(page.locator("#negotiation")).to_be_visible()
    expect(page.locator("#propose")).to_be_visible()  # I may propose; nobody does
    page.screenshot(path=str(SHOTS / "negotiation-390-zh.png"), full_page=True)
    time.sleep(1.2)
    assert int(countdown.get_attribute("data-seconds")) < first  # it counts down by itself
    expect(page.locator("#log")).to_contain_text("時間內沒有共識", timeout=15_000)
    wait_idle(page)
    after = snapshot(page)
    assert after["version"] == snap["version"] + 1
    treasure = snap["view"]["dragons"][snap["view"]["negotiation"]["dragon"]]["treasure"]
    assert sum(after["view"]["removed"].values()) == sum(treasure.values())
    events = requests.get(
        f"{live_server}/api/games/{gid}/events?after={snap['version']}", timeout=10
    )
    assert events.json()["events"][0]["seat"] is None
    assert (
        page.locator("#negotiation").is_hidden()
        or after["view"]["negotiation"]["step"] != "proposals"
    )
    page.screenshot(path=str(SHOTS / "after-timeout-390-zh.png"), full_page=True)
    assert page.js_errors == [], json.dumps(page.js_errors)
