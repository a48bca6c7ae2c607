# ruff: noqa: F811  (pytest fixtures imported from tests.browser_support are parameters here)
"""Isla Dorada in a real Chromium (Playwright): whole games against bots from the new-game page to
the end screen, by clicks and keys (a bid built from the map with the keyboard, cards ticked from
the hand), in English at 1280 px and in Traditional Chinese on a 390-px phone; a spectator sees
no hand. Plus the page strings in both catalogues (no browser needed).

Screenshots land in ``test-output/isla_dorada/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser_support import OUT, browser, live_server, new_page  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parents[1]
SHOTS = OUT / "isla_dorada"
SHOTS.mkdir(parents=True, exist_ok=True)
PHONE = {"width": 390, "height": 844}


def catalogue(lang: str) -> dict:
    return json.loads((ROOT / "i18n" / lang / "isla_dorada.json").read_text("utf-8"))


def test_every_page_string_is_in_both_catalogues():
    used = set()
    for path in [
        *(ROOT / "static/isla_dorada").glob("*.js"),
        *(ROOT / "templates/isla_dorada").glob("*.html"),
    ]:
        used |= set(re.findall(r"isla\.[a-z_]+[a-z]", path.read_text("utf-8")))
    used -= {"isla.css", "isla.join_"}
    prefixes = {u for u in used if u.endswith("_")}  # built keys: isla.kind_${kind}
    en, zh = catalogue("en"), catalogue("zh")
    assert set(en) == set(zh)
    missing = {
        u for u in used - prefixes if u not in en and not any(k.startswith(u + "_") for k in en)
    }
    assert not missing
    for kind in (
        "yak",
        "kamel",
        "gonogo",
        "kayak",
        "drako",
        "zeppelin",
        "ovetos",
        "juju",
        "shaman",
        "sangaia",
        "bongo",
        "bonus",
        "bigfoot",
        "leviathan",
        "thief",
        "voodoo",
        "map",
    ):
        assert f"isla.kind_{kind}" in en
    for phase in ("setup", "bid", "move", "treasure", "news", "draw", "lightning", "limit"):
        assert f"isla.status_you_{phase}" in en and f"isla.phase_{phase}" in en
    assert all(
        re.search(r"[\u4e00-\u9fff]", zh[k]) for k in zh if k.startswith(("isla.ev_", "error."))
    )


def idle(page, timeout: float = 30_000) -> None:
    page.wait_for_function(
        "() => window.islaGame && window.islaGame.snap && !window.islaGame.busy", timeout=timeout
    )


def snap(page) -> dict:
    return page.evaluate("() => window.islaGame.snap")


def start(page, server: str, seed: int, seats: list[tuple[str, str | None]], lang: str = "en"):
    page.goto(f"{server}/isla_dorada/new?lang={lang}")
    page.wait_for_selector("#seat-0-type")
    for i, (kind, level) in enumerate(seats):
        page.select_option(f"#seat-{i}-type", kind)
        if level:
            page.select_option(f"#seat-{i}-level", level)
    page.click("details.advanced summary")
    page.fill("#game-seed", str(seed))
    page.click("#create-game")
    page.wait_for_url(re.compile(r".*/isla_dorada/games/.*"))
    idle(page)
    page.select_option("#speed", "0")


def bid_with_keyboard(page) -> bool:
    """Tab to a route on the map, pick it with Enter, tick a card that pays it, and bid."""
    s = snap(page)
    view = s["view"]
    routes = {r["id"]: r for r in view["map"]["routes"]}
    hand = view["players"][view["you"]]["hand"]
    pays = {
        "yak": {"mountain"},
        "kamel": {"desert"},
        "gonogo": {"jungle"},
        "kayak": {"river", "lake", "sea"},
    }
    for rid in view["auction"]["open_routes"]:
        card = next((c for c in hand if routes[rid]["type"] in pays.get(c["kind"], ())), None)
        if card is None:
            continue
        page.focus(f"#route-{rid}")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#pick-{card['id']}:not([disabled])")
        assert page.input_value("#bid-target") == f"r:{rid}"
        page.check(f"#pick-{card['id']}")
        value = 2 if card["kind"] == "kayak" else 1
        assert re.findall(r"\d+", page.text_content("#bid-sum"))[0] == str(value)
        version = s["version"]
        page.click("#bid-send")
        page.wait_for_function("v => window.islaGame.snap.version > v", arg=version)
        return True
    return False


def my_move(page, state: dict) -> None:
    """Play the seat's turn through the page's own controls."""
    s = snap(page)
    phase = s["view"]["phase"]
    if phase == "bid":
        if not state.get("keyboard_bid") and bid_with_keyboard(page):
            state["keyboard_bid"] = True
            return
        quick = page.locator("#quick-0")
        if quick.count() and s["view"]["auction"]["minimum"] <= 2:
            quick.click()
        else:
            page.click("#pass")
    elif phase == "limit":
        hand = s["view"]["players"][s["view"]["you"]]["hand"]
        for c in hand[: len(hand) - 10]:
            page.check(f"#drop-{c['id']}")
        page.click("#discard-send")
    elif phase == "draw":
        state["draws"] = state.get("draws", 0) + 1
        if s["view"]["draw"]["step"] == "buy":
            page.click("#done")
        elif s["view"]["display"] and state["draws"] % 2:
            page.locator(".isla-take-card").first.click()
        else:
            page.locator(".isla-take .isla-go, #take-deck").first.click()
    else:
        page.locator("button.isla-go").first.click()


def play_to_the_end(page, shots: str, limit: int = 400) -> dict:
    state: dict = {}
    seen_phases = set()
    for _ in range(limit):
        idle(page)
        s = snap(page)
        if s["over"]:
            return s
        seen_phases.add(s["view"]["phase"])
        if s["legal_actions"]:
            if s["view"]["phase"] not in state.setdefault("shot", set()):
                state["shot"].add(s["view"]["phase"])
                page.screenshot(
                    path=str(SHOTS / f"{shots}-{s['view']['phase']}.png"), full_page=True
                )
            version = s["version"]
            my_move(page, state)
            page.wait_for_function(
                "v => window.islaGame.snap.version > v || document.querySelector('#error:not([hidden])')",
                arg=version,
            )
            assert page.locator("#error").is_hidden(), page.text_content("#error")
        else:
            page.wait_for_function(
                "v => window.islaGame.snap.version > v", arg=s["version"], timeout=30_000
            )
    raise AssertionError("the game did not end")


def check_end(page, s: dict) -> None:
    page.wait_for_selector("#end:not([hidden]) #score-table")
    rows = page.locator("#score-table tbody tr")
    assert rows.count() == len(s["view"]["players"])
    for i, row in enumerate(s["view"]["score_breakdown"]):
        cells = rows.nth(i).locator("td").all_text_contents()
        assert cells[-1] == str(row["total"]) == str(s["view"]["scores"][i])
        assert cells[0] == str(row["gold"])
    assert (
        row["total"]
        == row["gold"] + row["treasures"] + row["bonuses"] + row["destiny"] - row["curses"]
    )


@pytest.mark.browser
def test_a_whole_game_against_bots_in_english(browser, live_server):
    page = new_page(browser)
    start(
        page,
        live_server,
        5,
        [("me", None), ("bot", "normal"), ("bot", "easy"), ("bot", "normal")],
    )
    first = snap(page)
    assert first["view"]["phase"] == "setup" and page.locator("#setup-send").is_visible()
    assert page.locator("#map svg .isla-route.t-river").count() == 12
    assert page.locator("#track .isla-slot.red").count() == 2
    s = play_to_the_end(page, "en")
    page.screenshot(path=str(SHOTS / "en-end.png"), full_page=True)
    check_end(page, s)
    assert page.text_content("#end-h")
    assert not page.js_errors


@pytest.mark.browser
def test_a_whole_game_on_a_phone_in_chinese_and_a_spectator_sees_no_hand(browser, live_server):
    page = new_page(browser, viewport=PHONE, is_mobile=True)
    start(page, live_server, 9, [("me", None), ("bot", "normal"), ("bot", "normal")], lang="zh")
    assert "準備" in page.text_content("#status") or "保留" in page.text_content("#status")
    game_id = page.url.split("/games/")[1].split("?")[0]
    watcher = new_page(browser)
    watcher.goto(f"{live_server}/isla_dorada/games/{game_id}?lang=zh")
    watcher.wait_for_function("() => window.islaGame && window.islaGame.snap")
    assert watcher.locator("#hand-box").is_hidden()
    assert all(
        p["hand"] is None for p in watcher.evaluate("() => window.islaGame.snap.view.players")
    )
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, "the page scrolls sideways on a phone"
    s = play_to_the_end(page, "zh-phone")
    page.screenshot(path=str(SHOTS / "zh-phone-end.png"), full_page=True)
    check_end(page, s)
    assert "計分明細" in page.text_content("#score-table caption")
    watcher.reload()
    watcher.wait_for_selector("#end:not([hidden]) #score-table")
    watcher.screenshot(path=str(SHOTS / "zh-spectator-end.png"), full_page=True)
    assert not page.js_errors and not watcher.js_errors
