"""Tobago in a real Chromium (Playwright): a whole game by clicks, two humans in two browsers,
the playground, the language switch, one turn by keyboard only, a phone-sized screen.

Screenshots land in ``test-output/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from hexmap.catalog import island_by_name
from hexmap.hexes import Hex
from hexmap.island import Island, Landmark
from solver.places import place_name, place_short
from tests.browser_support import OUT, create_by_form, join_by_link, new_page
from tests.tobago_ui import act_by_clicks, choose, hex_locator, snapshot, wait_idle

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

#: A game seed whose game (one strategic player against three strategic bots on classic-1)
#: takes every kind of action; the test asserts that, so a changed engine shows up as a failure.
FULL_GAME_SEED = 13


def _new_game(page, server: str, seed: int, seats: list[str] | None = None) -> None:
    """Fill the new-game form (seat types, seed) and start the game."""
    page.goto(f"{server}/tobago/new")
    expect(page.locator("#island-preview svg")).to_be_visible()
    create_by_form(page, seed, [(kind, None) for kind in seats or []])


def _open_game(page) -> None:
    page.wait_for_url(re.compile(r"/tobago/games/[\w-]+\?seat=\d"))
    expect(page.locator("#board svg polygon.hex").first).to_be_attached()
    wait_idle(page)


def test_whole_game_against_three_bots_by_clicks(browser, live_server):
    page = new_page(browser)
    _new_game(page, live_server, FULL_GAME_SEED)
    _open_game(page)
    page.select_option("#speed", "0")
    expect(page.locator("#status")).to_contain_text("place your ATV")
    done: Counter = Counter()
    shots = {
        "first_clue": "game-first-clue",
        "accept": "game-sharing",
        "pick_amulet": "game-amulet",
    }
    while not snapshot(page)["over"]:
        snap = snapshot(page)
        assert snap["legal_actions"], "the page waits for nobody while the game runs"
        action = choose(snap, random.Random(f"player/{snap['version']}"))
        if action["type"] in shots:
            page.screenshot(path=str(OUT / f"{shots.pop(action['type'])}.png"), full_page=True)
        if action["type"] == "play_clue":
            # the card's legal maps are the enabled buttons, exactly the legal plays
            card = action["card"]
            legal = {a["map"] for a in snap["legal_actions"] if a.get("card") == card}
            enabled = page.locator(f'#hand button.play-map[data-card="{card}"]:not([disabled])')
            assert {
                enabled.nth(i).get_attribute("data-map") for i in range(enabled.count())
            } == legal
        act_by_clicks(page, action)
        done[action["type"]] += 1
        assert sum(done.values()) < 400
        mine = snapshot(page)["view"]["players"][0]
        if mine["treasures"] and not snapshot(page)["over"]:
            # rules §9: my values under my hand, the table counts only (mine too)
            values = [str(c["value"]) for c in mine["treasures"]]
            expect(page.locator("#my-treasures")).to_contain_text(", ".join(values))
            expect(page.locator("#players .gold")).to_have_count(0)
            done["treasures seen"] += 1
    for kind in ("place_atv", "first_clue", "play_clue", "drive", "pick_amulet", "raise"):
        assert done[kind] >= 1, (kind, done)
    assert done["accept"] + done["decline"] >= 1, done
    assert done["treasures seen"] >= 1, done
    end = page.locator("#end")
    expect(end).to_be_visible()
    expect(end.locator(".scores li")).to_have_count(4)
    expect(end.locator(".winners")).to_contain_text("Winner")
    record = page.request.get(live_server + page.locator("#record-link").get_attribute("href"))
    assert record.ok and record.json()["seed"] == FULL_GAME_SEED
    # the end shows with the move that ended the game; the page then settles on the last entry
    page.wait_for_function(
        "n => window.tobagoGame.snap && window.tobagoGame.snap.version >= n",
        arg=len(record.json()["actions"]),
    )
    final = snapshot(page)
    assert len(record.json()["actions"]) == final["version"]
    log = page.locator("#log li")
    assert log.count() > 30
    expect(log.first).to_contain_text("Game over")
    page.screenshot(path=str(OUT / "game-end.png"), full_page=True)
    assert not page.js_errors, page.js_errors


def test_two_humans_in_two_browsers_see_moves_not_hands(browser, live_server):
    alice = new_page(browser)
    _new_game(alice, live_server, 5, seats=["me", "friend", "none", "none"])
    expect(alice.locator("#created")).to_be_visible()
    link = alice.locator("#share-1").input_value()
    assert "/join/1" in link
    alice.click("#open-seat")
    _open_game(alice)
    expect(alice.locator("#invite-1")).to_have_value(link)  # the link stays on the game page

    bob = join_by_link(browser, link, "Bea")
    _open_game(bob)
    expect(bob.locator("#players")).to_contain_text("Bea (you)")

    # Alice places her ATV; Bea's page shows it without reloading (the events long-poll).
    version = snapshot(alice)["version"]
    hex_locator(alice, 3, 1).click()
    wait_idle(alice, version)
    expect(bob.locator("#board .atv-seat-0")).to_have_count(1, timeout=15_000)
    # the log names the space as a player finds it (no map shows coordinates)
    ref = snapshot(alice)["view"]["island"]
    island = island_by_name(ref["spec"], ref.get("landmarks_seed"))
    where = place_short(island, (3, 1))
    expect(bob.locator("#log")).to_contain_text(f"placed their ATV at {where}")
    expect(bob.locator("#status")).to_contain_text("place your ATV")
    hex_locator(bob, 4, 2).click()
    wait_idle(bob, version + 1)
    expect(alice.locator("#board .atv-seat-1")).to_have_count(1, timeout=15_000)

    # Each page shows its own hand, never the other's.
    for me, other in ((alice, bob), (bob, alice)):
        wait_idle(me)
        mine = snapshot(me)
        seat = mine["seat"]
        own = {c["id"] for c in mine["view"]["players"][seat]["hand"]}
        shown = {
            int(x)
            for x in me.locator("#hand li.hand-card").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
        }
        assert shown == own and own
        theirs = snapshot(other)["view"]["players"][snapshot(other)["seat"]]["hand"]
        assert "hand" not in mine["view"]["players"][1 - seat]
        assert not {c["id"] for c in theirs} & shown
    alice.screenshot(path=str(OUT / "two-humans-alice.png"), full_page=True)
    bob.screenshot(path=str(OUT / "two-humans-bea.png"), full_page=True)
    assert not alice.js_errors and not bob.js_errors


def _pg_hex(page, q: int, r: int):
    return hex_locator(page, q, r, "#pg-board polygon.hex")


def test_playground_from_an_empty_island_to_a_located_treasure(browser, live_server):
    page = new_page(browser)
    page.goto(f"{live_server}/tobago/playground")
    expect(page.locator("#pg-board svg polygon.hex").first).to_be_attached()
    page.click("#pg-empty")
    expect(page.locator("#pg-problems")).to_contain_text("Paint some island spaces")
    # a lake ringed by six beach spaces
    page.click("#pg-tool-beach")
    ring = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    for q, r in ring:
        _pg_hex(page, q, r).click()
    page.click("#pg-tool-lake")
    _pg_hex(page, 0, 0).click()
    _pg_hex(page, 3, 0).click()  # a second lake as large as the first: not a valid island
    expect(page.locator("#pg-problems")).to_contain_text("Two lake regions")
    page.click("#pg-tool-sea")
    _pg_hex(page, 3, 0).click()
    expect(page.locator("#pg-problems")).not_to_contain_text("Two lake regions")
    # landmarks: the statue stands on the coast, which the rules forbid (shown, not refused)
    for tool, (q, r) in (("statue", (1, 0)), ("palm", (-1, 0)), ("hut", (-1, 1))):
        page.click(f"#pg-tool-{tool}")
        _pg_hex(page, q, r).click()
    expect(page.locator("#pg-problems")).to_contain_text("A statue is next to the sea")
    expect(page.locator("#pg-board .pg-bad[data-q='1'][data-r='0']")).to_have_count(1)
    # clues on the white map, each narrowing it, until the treasure is located (and named)
    painted = Island(
        {**dict.fromkeys(ring, "beach"), (0, 0): "lake"},
        [
            Landmark("statue", Hex(1, 0), 0),
            Landmark("palm", Hex(-1, 0)),
            Landmark("hut", Hex(-1, 1)),
        ],
    )
    located = place_name(painted, (0, -1))
    page.click("#pg-target-0")
    for clue, text in (
        ("near1:lake", "6 candidates"),
        ("!near1:statue", "4 candidates"),
        ("near1:palm", "2 candidates"),
        ("near2:hut", f"Located: {located}!"),
    ):
        page.click(f'#pg-cards button[data-clue="{clue}"]')
        expect(page.locator("#pg-count-white")).to_have_text(text)
    expect(page.locator("#pg-board .located-white")).to_have_count(1)
    # why a space is out
    page.click("#pg-tool-inspect")
    _pg_hex(page, 1, -1).click()
    expect(page.locator("#pg-why")).to_contain_text(
        'ruled out by clue 2, "Not within 1 space of a statue"'
    )
    # a hand: its legal plays on every map
    page.click("#pg-target-4")
    page.click('#pg-cards button[data-clue="in:lake"]')
    plays = page.locator("#pg-plays tbody tr").first.locator("td")
    expect(plays.locator(".visually-hidden")).to_have_text(
        ["not legal", "legal, leaves 1", "legal, leaves 1", "legal, leaves 1"]
    )
    expect(plays.locator("[aria-hidden=true]")).to_have_text(["—", "✓ 1", "✓ 1", "✓ 1"])
    url = page.url
    assert "#s=" in url
    page.screenshot(path=str(OUT / "playground-located.png"), full_page=True)
    # the state lives in the URL: a fresh browser at the same address shows the same position
    again = new_page(browser)
    again.goto(url)
    expect(again.locator("#pg-count-white")).to_have_text(f"Located: {located}!")
    expect(again.locator("#pg-hand")).to_contain_text("In a lake")
    assert not page.js_errors and not again.js_errors


def test_language_switch_is_remembered_across_pages(browser, live_server):
    page = new_page(browser, locale="en-US")
    page.goto(f"{live_server}/")
    assert page.get_attribute("html", "lang") == "en"
    expect(page.locator("h1")).to_have_text("Tobago study")
    page.click('.lang-switch a[data-lang="zh"]')
    expect(page.locator("h1")).to_have_text("多巴戈研究室")
    assert page.get_attribute("html", "lang") == "zh-Hant"
    assert page.evaluate("() => localStorage.getItem('tobago.lang')") == "zh"
    page.goto(f"{live_server}/tobago/new")
    expect(page.locator("h1")).to_have_text("新的一局多巴戈")
    expect(page.locator("#option-list")).to_contain_text("寶藏可以在標誌物上")
    page.goto(f"{live_server}/rules/tobago")
    expect(page.locator("#rules h1")).to_contain_text("多巴戈")
    # the cookie lost: localStorage brings the language back
    page.context.clear_cookies()
    page.goto(f"{live_server}/tobago/playground#s=eyJpIjoiY2xhc3NpYy0yIn0")
    expect(page.locator("h1")).to_have_text("推理實驗室")
    page.screenshot(path=str(OUT / "playground-zh.png"), full_page=True)
    # switching keeps the page and its state (the hash)
    page.click('.lang-switch a[data-lang="en"]')
    expect(page.locator("h1")).to_have_text("Solver playground")
    assert "#s=" in page.url
    expect(page.locator("#pg-source")).to_have_value("classic-2")
    assert not page.js_errors, page.js_errors


def _tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches ``selector`` (fails after ``limit`` presses)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(
            "s => !!document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
    raise AssertionError(f"Tab never reached {selector}")


def _focus_is_visible(page) -> bool:
    return page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle !== 'none'")


def test_one_turn_by_keyboard_only(browser, live_server):
    page = new_page(browser)
    page.goto(f"{live_server}/tobago/new")
    expect(page.locator("#island-preview svg")).to_be_visible()
    _tab_to(page, "#create-game")
    assert _focus_is_visible(page)
    page.keyboard.press("Enter")
    _open_game(page)
    # place the ATV: into the island with Tab, along it with the arrow keys, Enter
    _tab_to(page, "#board polygon.hex")
    expect(page.locator("#board .focus-ring")).to_have_count(1)
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    at = page.evaluate(
        "() => [document.activeElement.dataset.q | 0, document.activeElement.dataset.r | 0]"
    )
    page.keyboard.press("Enter")
    wait_idle(page, 0, timeout=60_000)
    assert snapshot(page)["view"]["players"][0]["atv"] == at
    _tab_to(page, "#actions button.first-map")
    page.keyboard.press("Enter")
    wait_idle(page, None, timeout=60_000)
    page.wait_for_function("() => window.tobagoGame.snap.view.phase === 'turn'")
    wait_idle(page, timeout=60_000)
    snap = snapshot(page)
    assert snap["view"]["current"] == 0 and snap["legal_actions"]
    turn = snap["view"]["turn_number"]
    if any(a["type"] == "play_clue" for a in snap["legal_actions"]):
        _tab_to(page, "#hand button.play-map:not([disabled])")
        assert _focus_is_visible(page)
        page.screenshot(path=str(OUT / "keyboard-focus.png"))
        page.keyboard.press("Enter")
        wait_idle(page, snap["version"], timeout=60_000)
        while snapshot(page)["view"]["turn_number"] == turn:  # the extra marker, or end the turn
            version = snapshot(page)["version"]
            _tab_to(page, "#columns button.extra-marker, #end-turn")
            page.keyboard.press("Enter")
            wait_idle(page, version, timeout=60_000)
    else:  # no legal play in this hand: drive mode by keyboard, then pass
        _tab_to(page, "#drive-mode")
        page.keyboard.press("Enter")
        expect(page.locator("#board .layer-labels text")).not_to_have_count(0)
        _tab_to(page, "#end-turn")
        page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.tobagoGame.snap.view.turn_number > {turn}")
    log = page.locator("#log").inner_text()
    assert "Seat 1 (you)" in log
    assert not page.js_errors, page.js_errors


def test_phone_sized_screen(browser, live_server):
    phone = {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    }
    page = new_page(browser, **phone)
    _new_game(page, live_server, 21)
    _open_game(page)
    overflow = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert page.evaluate(overflow) <= 0
    # the wide classic island is zoomed on a phone: the board scrolls sideways, the page does not
    expect(page.locator("#zoom")).to_have_attribute("aria-pressed", "true")
    box = page.locator("#board").bounding_box()
    assert box["width"] <= 390 and box["height"] > 200
    page.screenshot(path=str(OUT / "phone-game-top.png"))
    hex_locator(page, 5, 2).tap()
    wait_idle(page, 0, timeout=60_000)
    assert snapshot(page)["view"]["players"][0]["atv"] == [5, 2]
    expect(page.locator("#board .atv-seat-0")).to_have_count(1)
    assert page.evaluate(overflow) <= 0
    page.screenshot(path=str(OUT / "phone-game.png"), full_page=True)
    page.locator("#hand-box").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / "phone-game-hand.png"))
    page.goto(f"{live_server}/tobago/playground")
    expect(page.locator("#pg-board svg polygon.hex").first).to_be_attached()
    assert page.evaluate(overflow) <= 0
    page.screenshot(path=str(OUT / "phone-playground.png"), full_page=True)
    page.goto(f"{live_server}/tobago/new")
    assert page.evaluate(overflow) <= 0
    page.screenshot(path=str(OUT / "phone-new.png"), full_page=True)
    assert not page.js_errors, page.js_errors


def test_a_refused_action_is_explained_and_loses_nothing(browser, live_server):
    page = new_page(browser)
    _new_game(page, live_server, 3, seats=["me", "friend", "none", "none"])
    page.click("#open-seat")
    _open_game(page)
    refusal = {
        "error": {
            "code": "illegal",
            "reason": "sea_space",
            "params": {"space": [2, 1]},
            "message": "the server says no",
            "field": "action.at",
        }
    }
    page.route(
        "**/actions",
        lambda route: route.fulfill(status=409, json=refusal),
    )
    page.wait_for_function("() => window.tobagoGame.helper !== null")  # the spaces' names
    hex_locator(page, 2, 1).click()
    # the refused space named as players find it (no coordinates), and marked on the island
    ref = snapshot(page)["view"]["island"]
    island = island_by_name(ref["spec"], ref.get("landmarks_seed"))
    name = place_short(island, (2, 1), "en")
    sea = f"{name[:1].upper()}{name[1:]} is sea: an ATV never goes there."
    expect(page.locator("#error")).to_have_text(sea)
    expect(page.locator('#board .overlay.named[data-q="2"][data-r="1"]')).to_have_count(1)
    assert snapshot(page)["version"] == 0
    expect(page.locator("#status")).to_contain_text("place your ATV")
    page.unroute("**/actions")
    hex_locator(page, 2, 1).click()
    wait_idle(page, 0)
    expect(page.locator("#error")).to_be_hidden()
    assert snapshot(page)["view"]["players"][0]["atv"] == [2, 1]
    # a seat this browser does not hold can only watch: no hand, no actions
    watcher = new_page(browser)
    watcher.goto(page.url.split("?")[0])
    expect(watcher.locator("#status")).to_contain_text("Watching")
    expect(watcher.locator("#hand-box")).to_be_hidden()
    assert snapshot(watcher)["seat"] is None and snapshot(watcher)["legal_actions"] == []
    assert not page.js_errors and not watcher.js_errors


def test_the_page_says_how_long_the_table_has_made_no_progress(browser, live_server):
    """Rules §8: two whole rounds without a clue played, a marker placed or removed or a treasure
    raised end the game; the page says how many turns in a row have made none, in both
    languages."""
    import requests

    from tests.browser_support import api, open_as

    seats = [{"type": "human"}, {"type": "human"}]
    game = api(live_server, "POST", "/api/games", {"game": "tobago", "seats": seats, "seed": 5})
    tokens = [s["token"] for s in game["seats"]]
    url = f"{live_server}/api/games/{game['id']}"
    passes = 0
    while passes < 3:
        seat = requests.get(url, timeout=30).json()["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        me = requests.get(url, headers=auth, timeout=30).json()
        action = me["legal_actions"][0] if me["view"]["phase"] != "turn" else {"type": "end_turn"}
        passes += action == {"type": "end_turn"}
        body = {"version": me["version"], "action": action}
        assert requests.post(f"{url}/actions", json=body, headers=auth, timeout=30).ok
    page = new_page(browser)
    for lang, words in (("en", "3 turns in a row without a clue"), ("zh", "已連續 3 回合")):
        open_as(page, live_server, "tobago", game, 0, f"?lang={lang}")
        wait_idle(page)
        expect(page.locator("#stall")).to_contain_text(words)
        expect(page.locator("#stall")).to_contain_text("4")
    assert not page.js_errors, page.js_errors
