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

from games.isla_dorada import tables as T
from i18n import has
from tests.browser_support import PHONE, create_by_form, new_page, open_as, shots_dir
from tests.game_states import game_at, key

expect = pytest.importorskip("playwright.sync_api").expect

ROOT = Path(__file__).resolve().parents[1]
SHOTS = shots_dir("isla_dorada")


def catalogue(lang: str) -> dict:
    return json.loads((ROOT / "i18n" / lang / "isla_dorada.json").read_text("utf-8"))


def _has(key: str) -> bool:
    """Whether ``key`` has words in both languages: the game's own or the shared ones."""
    return has("en", key) and has("zh", key)


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
        u for u in used - prefixes if not _has(u) and not any(k.startswith(u + "_") for k in en)
    }
    assert not missing
    for kind in (k["kind"] for k in T.ADVENTURE_KINDS):  # every kind of the deck
        assert f"isla.kind_{kind}" in en
    for phase in ("setup", "bid", "pay", "move", "treasure", "news", "draw", "lightning", "limit"):
        assert f"isla.status_you_{phase}" in en and f"isla.phase_{phase}" in en
    assert all(
        re.search(r"[\u4e00-\u9fff]", str(zh[k]))
        for k in zh
        if k.startswith(("isla.ev_", "error."))
    )


def idle(page, timeout: float = 30_000) -> None:
    """Until the page is caught up, and no bot is thinking (the table's replies have come)."""
    page.wait_for_function(
        "() => window.islaGame && window.islaGame.snap && !window.islaGame.busy"
        " && window.islaGame.snap.bot !== 'thinking'",
        timeout=timeout,
    )


def snap(page) -> dict:
    return page.evaluate("() => window.islaGame.snap")


def start(page, server: str, seed: int, seats: list[tuple[str, str | None]], lang: str = "en"):
    page.goto(f"{server}/isla_dorada/new?lang={lang}")
    page.wait_for_selector("#seat-0-type")
    create_by_form(page, seed, seats)
    page.wait_for_url(re.compile(r".*/isla_dorada/games/.*"))
    idle(page)
    page.select_option("#speed", "0")


def press(page, selector: str, keys: bool) -> None:
    """Use a control by keyboard (focus it, Enter; Space ticks a box) or by a click."""
    if keys:
        key(page, selector)
    else:
        page.locator(selector).first.click()


def bid_with_keyboard(page) -> bool:
    """Tab to a route on the map, pick it with Enter: focus goes on to the number to bid; raise
    it by one with the arrow key where the hand pays that much (the sum says so), and bid with
    Enter. A bid names no card: the route and the number."""
    s = snap(page)
    view = s["view"]
    can = view["mine"]["can_pay"]
    least = view["auction"]["minimum"]
    for rid in view["auction"]["open_routes"]:
        if can[rid] < least:
            continue
        page.focus(f"#route-{rid}")
        page.keyboard.press("Enter")
        page.wait_for_selector("#bid-value:not([disabled])")
        assert page.input_value("#bid-target") == f"r:{rid}"
        first = page.evaluate("() => document.activeElement.id")
        assert first == "bid-value", first  # the next step: the number to bid
        value = least
        if can[rid] > least:
            page.keyboard.press("ArrowUp")
            value += 1
            expect(page.locator("#bid-sum")).to_contain_text(f"You bid {value}")
        assert re.findall(r"\d+", page.text_content("#bid-sum"))[0] == str(value)
        assert str(can[rid]) in page.text_content("#bid-sum")  # the most the hand pays there
        press(page, "#bid-send", True)
        return True
    return False


def my_move(page, state: dict, keys: bool) -> None:
    """Play the seat's turn through the page's own controls (by keyboard with ``keys``)."""
    s = snap(page)
    phase = s["view"]["phase"]
    state.setdefault("kinds", set()).add(phase)
    if phase == "bid":
        if keys and not state.get("keyboard_bid") and bid_with_keyboard(page):
            state["keyboard_bid"] = True
            state["kinds"].add("keyboard-bid")
            return
        quick = page.locator("#quick-0")
        can_pass = {"type": "pass"} in s["legal_actions"]  # no pass for an opening
        cheap = quick.count() and s["view"]["auction"]["minimum"] <= 2
        press(page, "#quick-0" if cheap or not can_pass else "#pass", keys)
    elif phase == "limit":
        hand = s["view"]["players"][s["view"]["you"]]["hand"]
        for c in hand[: len(hand) - 10]:
            press(page, f"#drop-{c['id']}", keys)
            expect(page.locator(f"#drop-{c['id']}")).to_be_checked()
        press(page, "#discard-send", keys)
    elif phase == "draw":
        state["draws"] = state.get("draws", 0) + 1
        step = s["view"]["draw"]["step"]
        state["kinds"].add(f"draw-{step}")
        if step == "buy":
            press(page, "#done", keys)
        elif s["view"]["display"] and state["draws"] % 2:
            press(page, ".isla-take-card", keys)
        else:
            press(page, ".isla-take .isla-go, #take-deck", keys)
    else:
        press(page, "button.isla-go", keys)


#: After an action by keyboard, where focus is: my next step (the first control of my move), or
#: the status line while others play, or the end screen.
FOCUS = """() => {
  const a = document.activeElement, s = window.islaGame.snap;
  const first = document.querySelector('#action-body button:not([disabled]),'
    + ' #action-body input:not([disabled]), #action-body select:not([disabled])');
  const mine = s.legal_actions.length > 0 && !s.over;
  if (a === document.body || !a) return 'the page body';
  if (s.over) return a.id === 'end' ? 'ok' : `not the end screen: ${a.id}`;
  if (mine) return a === first ? 'ok' : `not my next step: ${a.id || a.tagName}`;
  return a.id === 'status' ? 'ok' : `not the status line: ${a.id || a.tagName}`;
}"""


def play_to_the_end(page, shots: str, keys: bool = False, limit: int = 400) -> dict:
    state: dict = {}
    for _ in range(limit):
        idle(page)
        s = snap(page)
        if s["over"]:
            return {**s, "kinds": state.get("kinds", set())}
        if s["legal_actions"]:
            if s["view"]["phase"] not in state.setdefault("shot", set()):
                state["shot"].add(s["view"]["phase"])
                page.screenshot(
                    path=str(SHOTS / f"{shots}-{s['view']['phase']}.png"), full_page=True
                )
            version = s["version"]
            my_move(page, state, keys)
            page.wait_for_function(
                "v => window.islaGame.snap.version > v || document.querySelector('#error:not([hidden])')",
                arg=version,
            )
            assert page.locator("#error").is_hidden(), page.text_content("#error")
            if keys:
                idle(page)
                assert page.evaluate(FOCUS) == "ok", (s["view"]["phase"], page.evaluate(FOCUS))
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
        # the total right after the player (read on a phone without scrolling), then the parts
        assert cells[0] == str(row["total"]) == str(s["view"]["scores"][i])
        assert cells[1] == str(row["gold"])
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
    s = play_to_the_end(page, "en", keys=True)
    # every kind of action of this game was made by keyboard, focus kept on the next step each time
    assert {"setup", "bid", "keyboard-bid", "pay", "draw-take", "draw-buy"} <= s["kinds"], s[
        "kinds"
    ]
    page.screenshot(path=str(SHOTS / "en-end.png"), full_page=True)
    check_end(page, s)
    assert page.text_content("#end-h")
    assert not page.js_errors


@pytest.mark.browser
def test_a_whole_game_on_a_phone_in_chinese_and_a_spectator_sees_no_hand(browser, live_server):
    page = new_page(browser, viewport=PHONE, is_mobile=True)
    start(page, live_server, 9, [("me", None), ("bot", "normal"), ("bot", "normal")], lang="zh")
    assert "準備" in page.text_content("#status") or "保留" in page.text_content("#status")
    # my move is the first panel of the page: on the first screen, above the island
    top = page.evaluate("() => document.querySelector('#actions').getBoundingClientRect().top")
    map_top = page.evaluate("() => document.querySelector('#map-box').getBoundingClientRect().top")
    assert top < PHONE["height"] / 2 and top < map_top, (top, map_top)
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


@pytest.mark.browser
def test_a_face_up_card_button_is_named_by_what_it_shows(browser, live_server):
    """The take and buy buttons show a card ("Yak 1") and are named "Take Yak 1" / "Buy Yak 1
    (1 gold)": the visible words are in the name (axe's label-content-name-mismatch)."""
    from tests.browser_support import open_as
    from tests.game_states import game_at

    for name, verb in (("isla-take", "Take"), ("isla-buy", "Buy")):
        game, seat = game_at(live_server, name)
        page = new_page(browser)
        open_as(page, live_server, "isla_dorada", game, seat, "?lang=en")
        idle(page)
        buttons = page.locator(".isla-take-card")
        assert buttons.count() > 0
        for i in range(buttons.count()):
            shown = " ".join(
                buttons.nth(i).locator(".icard > span:not([aria-hidden])").all_inner_texts()
            )
            expect(buttons.nth(i)).to_have_accessible_name(re.compile(rf"^{verb} {shown}"))
        assert not page.js_errors
        page.context.close()


#: The gold a way to pay costs (Drako 1, Zeppelin 3), as the payment's log line words it.
GOLD = {"drako": 1, "zeppelin": 3}
PAID = {"en": "({gold} gold).", "zh": "（{gold} 元）。"}


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_winner_pays_its_bid_by_choosing_one_of_the_ways_its_hand_pays(
    browser, live_server, lang
):
    """Only the winner plays cards, after winning: one button per way its hand pays the bid
    (cards alike once), each named by what it shows; the way chosen by keyboard leaves the hand,
    its gold is paid and the log words the payment."""
    words = catalogue(lang)
    game, seat = game_at(live_server, "isla-pay")
    page = new_page(browser)
    open_as(page, live_server, "isla_dorada", game, seat, f"?lang={lang}")
    idle(page)
    s = snap(page)
    ways, me = s["legal_actions"], s["view"]["players"][seat]
    assert len(ways) >= 3 and {a["type"] for a in ways} == {"pay"}
    assert page.text_content("#status") == words["isla.status_you_pay"]
    bid = s["view"]["pay"]["bid"]
    assert str(bid["value"]) in page.text_content("#action-body .hint-text")
    buttons = page.locator(".isla-ways button")
    assert buttons.count() == len(ways)
    hand = {c["id"]: c["kind"] for c in me["hand"]}
    costs = [sum(GOLD.get(hand[c], 0) for c in a["cards"]) for a in ways]
    for i, cost in enumerate(costs):
        name = words["isla.pay_with"] + r".*" + re.escape(words["isla.pay_gold"].format(gold=cost))
        expect(buttons.nth(i)).to_have_accessible_name(re.compile(f"^{name}$"))
        assert buttons.nth(i).locator(".icard").count() == len(ways[i]["cards"])
    chosen = len(ways) - 1
    key(page, f"#pay-{chosen}")
    page.wait_for_function("v => window.islaGame.snap.version > v", arg=s["version"])
    idle(page)
    after = snap(page)["view"]["players"][seat]
    paid = ways[chosen]["cards"]
    assert not set(paid) & {c["id"] for c in after["hand"]}
    assert after["gold"] == me["gold"] - costs[chosen] and costs[chosen] > 0
    log = page.locator("#log li").all_text_contents()
    assert any(PAID[lang].format(gold=costs[chosen]) in line for line in log), log
    assert page.locator("#error").is_hidden()
    assert not page.js_errors
