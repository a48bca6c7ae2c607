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
from tests.browser_support import PHONE, new_page, shots_dir
from tests.game_states import attack_by_keyboard, key

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
SHOTS = shots_dir("dragons_gold")


def snapshot(page) -> dict:
    return page.evaluate("() => window.dgGame.snap")


def wait_idle(page, timeout: float = 20_000) -> None:
    """Until the page is caught up, and no bot is thinking (the table's replies have come)."""
    page.wait_for_function(
        "() => window.dgGame && window.dgGame.snap && !window.dgGame.busy"
        " && window.dgGame.snap.bot !== 'thinking'",
        timeout=timeout,
    )


#: After an action by keyboard, where focus is: my next step when I may act (a negotiation's or
#: the market's control, else one of my hunters), the status line while others play, the end.
FOCUS = """() => {
  const a = document.activeElement, s = window.dgGame.snap;
  if (!a || a === document.body) return 'the page body';
  if (s.over) return a.id === 'end' ? 'ok' : `not the end screen: ${a.id}`;
  if (!s.legal_actions.length) return a.id === 'status' ? 'ok' : `not the status line: ${a.id || a.tagName}`;
  const next = a.matches('button:not([disabled]), select') && (a.closest('#neg-body, #market-body')
    || (a.closest('#hunters') && s.view.phase === 'fight'));
  return next ? 'ok' : `not my next step: ${a.id || a.tagName}`;
}"""


def test_a_game_with_negotiations_played_to_the_end_by_keyboard(browser, live_server):
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
    assert page.evaluate(FOCUS) == "ok", page.evaluate(FOCUS)
    assert snapshot(page)["view"]["dragons"][0]["hunters"][0] == {
        "seat": 0,
        "hunter": "wizard",
        "attack": 1,
        "sword": False,
    }
    done: dict[str, int] = {}
    shot_negotiation = shot_market = False
    for _ in range(400):
        wait_idle(page)
        if page.locator("#end").is_visible():
            break
        s = snapshot(page)
        neg = s["view"]["negotiation"]
        if neg and neg["step"] == "proposals" and 0 in neg["participants"] and not shot_negotiation:
            page.screenshot(path=str(SHOTS / "negotiation-1280-en.png"), full_page=True)
            shot_negotiation = True
        if page.locator("#market").is_visible() and not shot_market:
            page.screenshot(path=str(SHOTS / "market-1280-en.png"), full_page=True)
            shot_market = True
        kinds = {a["type"] for a in s["legal_actions"]}
        if not kinds:
            page.wait_for_function("v => window.dgGame.snap.version > v", arg=s["version"])
            continue
        if "accept" in kinds and page.locator("#accept").is_visible():
            kind = "accept"
            key(page, "#accept")
        elif "propose" in kinds and not (neg["proposal"] and neg["proposal"]["by"] == 0):
            kind = "propose"
            key(page, "#fill-attack")  # fills the editor; focus goes on to Propose
            expect(page.locator("#propose")).to_be_focused()
            page.keyboard.press("Enter")
        elif "play" in kinds:
            kind = "play"
            attack_by_keyboard(page)
        elif "done" in kinds:
            kind = "done"
            key(page, "#done")
        elif kinds & {"pick", "steal", "take", "reject"}:
            kind = sorted(kinds & {"pick", "steal", "take", "reject"})[0]
            key(page, "#neg-body .dg-buttons button:not([disabled]), #neg-body .dg-lots button")
        else:
            raise AssertionError(f"no control for {kinds}")
        page.wait_for_function(
            "v => window.dgGame.snap.version > v || !document.querySelector('#error').hidden",
            arg=s["version"],
        )
        assert page.locator("#error").is_hidden(), page.text_content("#error")
        wait_idle(page)
        assert page.evaluate(FOCUS) == "ok", (
            kind,
            page.evaluate(FOCUS),
            page.js_errors,
            s["legal_actions"],
            snapshot(page)["legal_actions"],
        )
        done[kind] = done.get(kind, 0) + 1
    else:
        snap = snapshot(page)
        page.screenshot(path=str(SHOTS / "stuck.png"), full_page=True)
        raise AssertionError(f"the game did not end: {snap['to_act']} {snap['legal_actions']}")
    expect(page.locator("#end")).to_be_visible()
    # fights, shares and the market, all by keyboard, focus kept on the next step after each
    assert done.get("play") and done.get("propose", 0) + done.get("accept", 0) > 0, done
    assert shot_market and done.get("done"), done  # the market opened after the 11th dragon
    final = snapshot(page)
    assert final["over"] and final["view"]["phase"] == "over"
    rows = page.locator(".dg-scores tbody tr")
    expect(rows).to_have_count(3)
    totals = [float(rows.nth(i).locator("td.total").inner_text()) for i in range(3)]
    assert totals == final["scores"]
    assert "Agreed" in page.locator("#log").inner_text() or done.get("accept")
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


#: Whether an element's box lies within the screen (the viewport), by its selector.
IN_SIGHT = """s => { const r = document.querySelector(s).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_countdown_stays_in_sight_with_the_controls_that_answer_it(browser, live_server, width):
    from tests.browser_support import open_as
    from tests.game_states import game_at

    for name, controls in (
        (
            "dg-answer",
            ["#accept", "#reject", "#fill-attack", "#propose", ".dg-share:last-child button"],
        ),
        ("dg-market", ["#done", "#offer-to", "#offer"]),
    ):
        game, seat = game_at(live_server, name)
        page = new_page(browser, viewport={"width": width, "height": 844})
        open_as(page, live_server, "dragons_gold", game, seat, "?lang=en")
        wait_idle(page)
        panel = "#negotiation" if name == "dg-answer" else "#market"
        # the panel is in view when the page opens on it, its clock running
        top = page.evaluate(f"() => document.querySelector('{panel}').getBoundingClientRect().top")
        assert 0 <= top < 844 / 2, (name, width, top)
        assert page.evaluate("() => !!document.querySelector('#countdown:not([hidden])')")
        assert page.locator(f"{panel} #countdown").count() == 1
        for control in controls:
            page.evaluate(
                "s => [...document.querySelectorAll(s)].pop().scrollIntoView({block: 'end'})",
                control,
            )
            page.wait_for_timeout(50)
            assert page.evaluate(IN_SIGHT, "#countdown"), (name, width, control)
            for block in ("start", "center"):
                page.evaluate(
                    "([s, b]) => [...document.querySelectorAll(s)].pop().scrollIntoView({block: b})",
                    [control, block],
                )
                assert page.evaluate(IN_SIGHT, "#countdown"), (name, width, control, block)
        page.screenshot(path=str(SHOTS / f"{name}-countdown-{width}.png"))
        assert page.js_errors == []
        page.context.close()


def test_the_split_editor_fits_a_phone_and_keeps_focus_in_its_row(browser, live_server):
    from tests.browser_support import open_as
    from tests.game_states import game_at

    game, seat = game_at(live_server, "dg-four-slayers")
    page = new_page(browser, viewport=PHONE)
    open_as(page, live_server, "dragons_gold", game, seat, "?lang=zh")
    wait_idle(page)
    neg = snapshot(page)["view"]["negotiation"]
    assert len(neg["participants"]) == 4
    wider = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wider <= 0, f"the page is {wider} px wider than the phone"
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('.dg-share, .dg-cell button')]"
        ".map((b) => b.getBoundingClientRect().right)"
    )
    assert len(boxes) > 4 and max(boxes) <= PHONE["width"]
    page.screenshot(path=str(SHOTS / "four-slayers-390-zh.png"), full_page=True)
    # by keyboard: + until none of that colour is left (its + is disabled): focus stays in the
    # row, on −; − back to none: on + again
    treasure = snapshot(page)["view"]["dragons"][neg["dragon"]]["treasure"]
    colour = min((c for c, n in treasure.items() if n), key=lambda c: treasure[c])
    plus, minus = f"#ed-{seat}-{colour}-plus", f"#ed-{seat}-{colour}-minus"
    page.focus(plus)
    for _ in range(treasure[colour]):
        page.keyboard.press("Enter")
    expect(page.locator(plus)).to_be_disabled()
    expect(page.locator(minus)).to_be_focused()
    for _ in range(treasure[colour]):
        page.keyboard.press("Enter")
    expect(page.locator(minus)).to_be_disabled()
    expect(page.locator(plus)).to_be_focused()
    # split by attack: every token given, focus on to Propose
    page.focus("#fill-attack")
    page.keyboard.press("Enter")
    expect(page.locator("#propose")).to_be_enabled()
    expect(page.locator("#propose")).to_be_focused()
    expect(page.locator(".dg-left-line.done")).to_be_visible()
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_thief_may_take_nothing_from_the_page(browser, live_server, lang):
    """The thief's step offers every victim and "Take nothing": declining moves no token, the
    log says so in the page's language, and the game goes on."""
    from tests.browser_support import open_as
    from tests.game_states import game_at

    game, seat = game_at(live_server, "dg-steal")
    page = new_page(browser)
    open_as(page, live_server, "dragons_gold", game, seat, f"?lang={lang}")
    wait_idle(page)
    before = snapshot(page)
    assert before["view"]["negotiation"]["thief"] == seat
    expect(page.locator("#decline-theft")).to_be_visible()
    assert page.locator("[id^='steal-']").count() >= 1
    page.screenshot(path=str(SHOTS / f"steal-{lang}.png"), full_page=True)
    key(page, "#decline-theft")
    page.wait_for_function("v => window.dgGame.snap.version > v", arg=before["version"])
    wait_idle(page)
    after = snapshot(page)
    mine = [p["hoard"] for p in (before["view"]["players"][seat], after["view"]["players"][seat])]
    assert mine[0] == mine[1]
    words = {"en": "takes nothing", "zh": "不拿任何寶藏"}[lang]
    expect(page.locator("#log")).to_contain_text(words)
    assert not page.js_errors, page.js_errors
    page.context.close()
