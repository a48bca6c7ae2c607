"""Isla Dorada and Dragon's Gold by keyboard, in a real Chromium: every kind of action of both
games made with the keys (a state of each from tests/game_states.py, opened as the seat that
acts) leaves focus on the player's next step or, while the others play, on the status line,
never on the page's body; when the turn comes back, focus moves on to the next step; the skip
links lead to the move, the board, the hand or screen, and the log.

The whole games by keyboard (focus after each action, with bots answering at once) are in
tests/test_isla_dorada_browser.py and tests/test_dragons_gold_browser.py.
"""

from __future__ import annotations

import random

import pytest

from games.base import get_kind
from tests.browser_support import new_page, open_as
from tests.game_states import STATES, attack_by_keyboard, game_at, key

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

HANDLE = {"isla_dorada": "islaGame", "dragons_gold": "dgGame"}

#: Where focus is after an action: "next" (my next step's control), "status" (others play),
#: "end", or what else has it.
WHERE = """([handle, steps]) => {
  const a = document.activeElement, s = window[handle].snap;
  if (!a || a === document.body) return 'body';
  if (a.id === 'status') return 'status';
  if (a.id === 'end') return 'end';
  return a.matches(steps) && !a.disabled ? 'next' : `elsewhere: ${a.id || a.tagName}`;
}"""
#: The controls of a next step, per game.
STEPS = {
    "isla_dorada": "#action-body button, #action-body input, #action-body select",
    "dragons_gold": "#neg-body button, #market-body button, #market-body select, #hunters button",
}


def idle(page, kind: str) -> None:
    h = HANDLE[kind]
    page.wait_for_function(f"() => window.{h} && window.{h}.snap && !window.{h}.busy")


def isla_action(page, snap: dict) -> None:
    v = snap["view"]
    phase = v["phase"]
    if phase == "limit":
        hand = v["players"][v["you"]]["hand"]
        for c in hand[: len(hand) - 10]:
            key(page, f"#drop-{c['id']}")
        key(page, "#discard-send")
    elif phase == "bid":  # pass, or open the auction (no pass then) with a ready-made bid
        key(page, "#pass" if {"type": "pass"} in snap["legal_actions"] else "#quick-0")
    elif phase == "draw":
        key(page, "#done" if v["draw"]["step"] == "buy" else ".isla-take-card, #take-deck")
    else:
        key(page, "button.isla-go")


def dg_action(page, snap: dict) -> None:
    kinds = {a["type"] for a in snap["legal_actions"]}
    if "accept" in kinds:
        key(page, "#accept")
    elif "propose" in kinds:
        key(page, "#fill-attack")
        expect(page.locator("#propose")).to_be_focused()  # filled: on to Propose
        page.keyboard.press("Enter")
    elif "divide" in kinds:
        key(page, "#fill-balanced")
        expect(page.locator("#divide")).to_be_focused()
        page.keyboard.press("Enter")
    elif "use" in kinds:
        key(page, "#use-0")
    elif "play" in kinds:
        attack_by_keyboard(page)
    elif "done" in kinds:
        key(page, "#done")
    else:
        key(page, "#neg-body .dg-lots button, #neg-body .dg-buttons button:not([disabled])")


ACTING = [name for name, state in STATES.items() if state.want is not None]


@pytest.mark.parametrize("name", ACTING)
def test_after_each_kind_of_action_by_keyboard_focus_is_on_the_next_step_or_the_status(
    browser, live_server, name
):
    game, seat = game_at(live_server, name)
    kind = STATES[name].kind
    page = new_page(browser, viewport={"width": 390, "height": 844})
    open_as(page, live_server, kind, game, seat, "?lang=en")
    idle(page, kind)
    snap = page.evaluate(f"() => window.{HANDLE[kind]}.snap")
    (isla_action if kind == "isla_dorada" else dg_action)(page, snap)
    page.wait_for_function(
        f"v => window.{HANDLE[kind]}.snap.version > v || !document.querySelector('#error').hidden",
        arg=snap["version"],
    )
    assert page.locator("#error").is_hidden(), page.text_content("#error")
    idle(page, kind)
    after = page.evaluate(f"() => window.{HANDLE[kind]}.snap")
    where = page.evaluate(WHERE, [HANDLE[kind], STEPS[kind]])
    mine = bool(after["legal_actions"]) and not after["over"]
    assert where == ("next" if mine else "status"), (name, where, after["legal_actions"][:2])
    assert not page.js_errors, page.js_errors


def test_focus_waits_on_the_status_and_moves_on_when_the_turn_comes_back(browser, live_server):
    game, seat = game_at(live_server, "dg-fight")
    page = new_page(browser)
    open_as(page, live_server, "dragons_gold", game, seat, "?lang=en")
    idle(page, "dragons_gold")
    dg_action(page, page.evaluate("() => window.dgGame.snap"))
    page.wait_for_function("() => window.dgGame.snap.version > 0")
    idle(page, "dragons_gold")
    assert page.evaluate(WHERE, ["dgGame", STEPS["dragons_gold"]]) == "status"
    # the other seats play through the API (as their own browsers would); the page follows them
    kind = get_kind("dragons_gold")
    tokens = {s["index"]: s["token"] for s in game["seats"]}
    for _ in range(2):
        snap = page.request.get(f"{live_server}/api/games/{game['id']}").json()
        who = snap["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[who]}"}
        mine = page.request.get(f"{live_server}/api/games/{game['id']}", headers=auth).json()
        action = kind.bots["greedy"](mine["view"], mine["legal_actions"], random.Random(1))
        body = {"version": snap["version"], "action": action}
        resp = page.request.post(
            f"{live_server}/api/games/{game['id']}/actions", data=body, headers=auth
        )
        assert resp.ok, resp.text()
    page.wait_for_function("() => window.dgGame.snap.legal_actions.length > 0")
    idle(page, "dragons_gold")
    expect(page.locator("#hunters button[aria-pressed='true']")).to_be_focused()
    assert not page.js_errors, page.js_errors


def _tab_to(page, selector: str, limit: int = 10) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize(
    ("name", "links"),
    [
        (
            "isla-bid",
            {
                "#skip-actions": "#bid-target",
                "#skip-map": "#map [role='button']",
                "#skip-hand": "#hand-box",
                "#skip-log": "#log-h",
            },
        ),
        (
            "dg-fight",
            {
                "#skip-actions": "#hunters button[aria-pressed='true']",
                "#skip-dragons": "#dragons .dg-attack",
                "#skip-screen": "#screen",
                "#skip-log": "#log-h",
            },
        ),
    ],
)
def test_skip_links_lead_to_the_move_the_board_the_hand_and_the_log(
    browser, live_server, name, links
):
    game, seat = game_at(live_server, name)
    kind = STATES[name].kind
    page = new_page(browser, viewport={"width": 390, "height": 844})
    open_as(page, live_server, kind, game, seat, "?lang=en")
    idle(page, kind)
    for link, target in links.items():
        page.focus(".skip-link")  # the site's own first link, then the game's
        _tab_to(page, link)
        expect(page.locator(link)).to_be_visible()  # shown while focused
        page.keyboard.press("Enter")
        assert page.evaluate("s => document.activeElement === document.querySelector(s)", target), (
            link,
            page.evaluate("() => document.activeElement.id"),
        )
    assert not page.js_errors, page.js_errors
