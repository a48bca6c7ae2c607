"""The Tobago game page in words a player understands (issue 17), in a real Chromium:

- refusals are sentences in the page's language naming the card and the map as the page does;
- the end screen says why the game ended, agreeing with the players panel's deck count;
- the deduction helper never shows an explanation of an older position;
- a disabled clue button says why; "within N of X" explains X's own spaces;
- plurals, lists and mixed-script spacing come from one message function.

Games are set up through the API (``tests.browser_support.api``) and opened as a seat.
"""

from __future__ import annotations

import re

import pytest

from tests.bots import game_over
from tests.browser_support import OUT, api, new_page, open_as, seat_types
from tests.tobago_ui import hex_locator, snapshot, wait_idle

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

LATIN = re.compile(r"[A-Za-z]")


def _game(server: str, seats: list[dict], seed: int) -> dict:
    """A new Tobago game; when all its seats are bots, once the table has played it out."""
    game = api(server, "POST", "/api/games", {"game": "tobago", "seed": seed, "seats": seats})
    if all(s["type"] == "bot" for s in seats):
        game_over(server, game["id"], timeout=120)
    return game


HUMAN = {"type": "human"}
RANDOM = {"type": "bot", "level": "random"}
STRATEGIC = {"type": "bot", "level": "strategic"}


def test_a_refusal_is_a_sentence_in_the_page_language_naming_card_and_map(browser, live_server):
    game = _game(live_server, [HUMAN, HUMAN], 3)
    page = new_page(browser)
    open_as(page, live_server, "tobago", game, 0, "?lang=zh")
    wait_idle(page)

    def refuse(error: dict) -> str:
        page.route("**/actions", lambda route: route.fulfill(status=409, json={"error": error}))
        hex_locator(page, 2, 1).click()
        expect(page.locator("#error")).to_be_visible()
        text = page.locator("#error").inner_text()
        page.unroute("**/actions")
        return text

    text = refuse(
        {
            "code": "illegal",
            "reason": "removes_no_candidate",
            "params": {"clue": "!in:lake", "map": "grey", "card": 7},
            "message": "!in:lake is not a legal play on grey: it removes no candidate",
            "field": "action.card",
        }
    )
    clue = page.evaluate(
        "async () => (await import('/static/common/i18n.js')).clueText('!in:lake')"
    )
    assert clue in text and "灰色" in text and not LATIN.search(text), text
    # a reason the page has no sentence for: the category's sentence, still in Chinese
    text = refuse({"code": "illegal", "reason": "brand_new", "message": "English words"})
    assert text == "現在不能這樣做。"
    assert snapshot(page)["version"] == 0  # nothing was lost
    page.goto(page.url.replace("lang=zh", "lang=en"))
    wait_idle(page)
    text = refuse(
        {"code": "illegal", "reason": "sea_space", "params": {"space": [2, 1]}, "message": "x"}
    )
    # the space named as the page names it (its terrain, where, a landmark: solver/places.py)
    assert text.endswith(" is sea: an ATV never goes there.") and "(2, 1)" not in text, text
    assert text[0].isupper() and text.startswith("The "), text
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize(
    ("seats", "seed", "end", "words"),
    [
        (
            [RANDOM, RANDOM],
            1,  # random bots seldom make progress: two whole rounds without any end the game
            "stalled",
            ("Two whole rounds went by", "", "連續兩整輪"),
        ),
        (
            [STRATEGIC, RANDOM],
            1,
            "no_markers",
            ("Nobody has a compass marker left", "還沒有", "所有人都沒有羅盤標記了"),
        ),
        (
            [STRATEGIC, STRATEGIC],
            5,
            "deck_reshuffled",
            ("ran out during the last sharing", "", "最後一次分配時用完"),
        ),
    ],
)
def test_the_end_screen_says_why_the_game_ended(browser, live_server, seats, seed, end, words):
    game = _game(live_server, seats, seed)
    events = api(live_server, "GET", f"/api/games/{game['id']}/events?after=0")["events"]
    over = events[-1]["events"][-1]
    assert over["type"] == "game_over" and over["end"] == end
    left = over["treasure_deck"]
    page = new_page(browser)
    for lang, phrase in (("en", words[0]), ("zh", words[2])):
        open_as(page, live_server, "tobago", game, None, f"?lang={lang}")
        why = page.locator("#end-why")
        expect(why).to_contain_text(phrase)
        assert str(left) in why.inner_text()
        # the players panel's deck count is the same number the end screen gives
        expect(page.locator("#players")).to_contain_text(str(left))
        # at the end the players table gives every total (rules §9)
        expect(page.locator("#players tbody tr .gold")).to_have_count(2)
        if lang == "zh":
            assert not LATIN.search(page.locator("#end").inner_text().replace("JSON", ""))
        page.screenshot(path=str(OUT / f"end-{end}-{lang}.png"))
    assert not page.js_errors, page.js_errors


def _to_my_turn(page) -> None:
    """Place the ATV and the first clue by clicks until the seat's first turn starts."""
    wait_idle(page)
    snap = snapshot(page)
    place = next(a for a in snap["legal_actions"] if a["type"] == "place_atv")
    hex_locator(page, *place["at"]).click()
    wait_idle(page, snap["version"])
    snap = snapshot(page)
    page.locator("#actions button.first-map").first.click()
    wait_idle(page, snap["version"])
    page.wait_for_function("() => window.tobagoGame.snap.view.phase === 'turn'")
    wait_idle(page)


def test_the_helper_explains_the_position_on_screen_never_an_older_one(browser, live_server):
    game = _game(live_server, [HUMAN, STRATEGIC, STRATEGIC, STRATEGIC], 13)
    page = new_page(browser)
    open_as(page, live_server, "tobago", game, 0)
    _to_my_turn(page)
    page.wait_for_function("() => window.tobagoGame.helper !== null")
    helper = page.evaluate("() => window.tobagoGame.helper")
    snap = snapshot(page)
    plays = {(a["card"], a["map"]) for a in snap["legal_actions"] if a["type"] == "play_clue"}
    hand = snap["view"]["players"][0]["hand"]
    maps = {m["colour"]: m for m in snap["view"]["maps"]}
    hint = next(
        x
        for x in helper["hints"]
        if (hand[x["hand_index"]]["id"], x["map"]) in plays and x["remaining"] < x["before"]
    )
    kept = {tuple(c) for c in hint["candidates"]}
    gone = next(tuple(c) for c in maps[hint["map"]]["candidates"] if tuple(c) not in kept)
    map_name = page.evaluate(
        f"async () => (await import('/static/common/i18n.js')).t('map.{hint['map']}')"
    )
    line = page.locator("#helper-why li", has_text=map_name)
    hex_locator(page, *gone).click()
    expect(line).to_contain_text("a candidate")
    card = hand[hint["hand_index"]]["id"]
    page.click(f'#hand button.play-map[data-card="{card}"][data-map="{hint["map"]}"]')
    wait_idle(page, snap["version"])
    page.wait_for_function("() => window.tobagoGame.helper !== null")
    expect(line).to_contain_text("ruled out by clue")
    expect(line).not_to_contain_text("a candidate")
    page.screenshot(path=str(OUT / "helper-fresh.png"))
    # while the game runs the players table shows counts only, mine too (rules §9)
    expect(page.locator("#players .gold")).to_have_count(0)
    # a disabled clue button says why it is disabled
    titles = page.eval_on_selector_all(
        "#hand button.play-map[disabled]", "els => els.map((e) => e.title)"
    )
    assert titles and all(re.match(r"Not playable on \w+: .+", x) for x in titles), titles
    assert not page.js_errors, page.js_errors


def test_one_message_function_for_plurals_lists_and_mixed_scripts(browser, live_server):
    game = _game(live_server, [HUMAN, HUMAN], 4)
    page = new_page(browser)
    open_as(page, live_server, "tobago", game, None, "?lang=en")
    say = "async ([k, p]) => (await import('/static/common/i18n.js')).t(k, p)"
    assert page.evaluate(say, ["ev.drove", {"who": "Ann", "from": "a", "to": "b", "count": 1}]) == (
        "Ann drove from a to b (1 point)."
    )
    assert "(3 points)" in page.evaluate(
        say, ["ev.drove", {"who": "A", "from": "", "to": "", "count": 3}]
    )
    assert page.evaluate(say, ["game.candidates_n", {"count": 1}]) == "1 candidate"
    assert (
        page.evaluate(say, ["helper.reason_mine", {"count": 1}])
        == "you reach the nearest with 1 movement point"
    )
    note = "async (n) => (await import('/static/tobago/logtext.js')).clueTitle(n, {})"
    assert "not jungle's own spaces" in page.evaluate(note, "near2:jungle")
    assert page.evaluate(note, "in:jungle") == page.evaluate(
        "async () => (await import('/static/common/i18n.js')).clueText('in:jungle')"
    )
    open_as(page, live_server, "tobago", game, None, "?lang=zh")
    assert (
        page.evaluate(say, ["ev.cursed_amulet", {"who": "策略電腦 2"}])
        == "策略電腦 2 失去一個護身符"
    )
    assert page.evaluate(say, ["game.offered_to", {"who": "Alice"}]) == "詢問 Alice"
    joined = "async (xs) => (await import('/static/common/i18n.js')).list(xs)"
    assert page.evaluate(joined, ["甲", "乙", "丙"]) == "甲、乙、丙"
    assert not page.js_errors, page.js_errors


def test_a_seat_for_a_friend_is_by_link_only_and_the_join_form_names_host_and_guest(
    browser, live_server
):
    host = new_page(browser, permissions=["clipboard-read", "clipboard-write"])
    host.goto(f"{live_server}/tobago/new")
    expect(host.locator("#island-preview svg")).to_be_visible()
    seat_types(host, ["me", "friend", "anyone", "none"], ["Alice", "Bob"])
    host.click("#create-game")
    expect(host.locator("#created")).to_be_visible()
    link = host.locator("#share-1").input_value()
    game_id = link.split("/games/")[1].split("/")[0]
    # Copy says it copied (on the button, and to screen readers)
    copy = host.locator("#share-links li").first.locator("button.copy")
    copy.click()
    expect(copy).to_have_text("Copied!")
    assert host.evaluate("() => navigator.clipboard.readText()") == link
    expect(host.locator("#share-links li").first.locator("[role=status]")).to_have_text("Copied!")
    # the lobby offers the seat for anyone (seat 3), never the friend's (seat 2)
    stranger = new_page(browser)
    stranger.goto(f"{live_server}/tobago")
    row = stranger.locator("#tables li", has_text="Alice")
    expect(row).to_have_count(1)
    expect(row.locator(".lobby-seat.free")).to_have_text(["free seat"])
    expect(row.locator(".lobby-seat", has_text="kept for a friend")).to_have_count(1)
    row.get_by_role("button", name="Join").click()  # the seat for anyone
    stranger.wait_for_url(f"**/tobago/games/{game_id}?seat=2")
    # the friend's link: who invites, and the name the host chose for the seat, ready to keep
    friend = new_page(browser)
    friend.goto(link)
    expect(friend.locator("#join-status")).to_have_text("Alice invites you to play seat 2.")
    expect(friend.locator("#join-name")).to_have_value("Bob")
    friend.screenshot(path=str(OUT / "join-invite.png"))
    for p in (host, stranger, friend):
        assert not p.js_errors, p.js_errors


def _play_out(server: str, game: dict, upto: int | None = None) -> list[tuple[int, dict]]:
    """Play a two-human game to its end through the API, each seat its first legal action (or
    stop after ``upto`` actions); returns the (seat, action) list."""
    done: list[tuple[int, dict]] = []
    tokens = [s["token"] for s in game["seats"]]
    while upto is None or len(done) < upto:
        snaps = [_get(server, game["id"], t) for t in tokens]
        if snaps[0]["over"]:
            break
        seat = next(i for i, s in enumerate(snaps) if s["legal_actions"])
        action = snaps[seat]["legal_actions"][0]
        body = {"version": snaps[seat]["version"], "action": action}
        _post(server, f"/api/games/{game['id']}/actions", body, tokens[seat])
        done.append((seat, action))
    return done


def _get(server: str, game_id: str, token: str) -> dict:
    import json
    import urllib.request

    req = urllib.request.Request(
        f"{server}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def _post(server: str, path: str, body: dict, token: str) -> dict:
    import json
    import urllib.request

    req = urllib.request.Request(
        server + path,
        method="POST",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def test_dao_shows_the_scores_as_soon_as_the_game_is_over(browser, live_server):
    """The last move's replay does not leave "Game over" alone on screen for the pace's pause
    (it was about 5 s): the end screen comes with it."""
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Ben"}]
    body = {"game": "dao", "seed": 7, "seats": seats, "options": {"two_rounds": False}}
    trial = api(live_server, "POST", "/api/games", body)
    total = len(_play_out(live_server, trial))
    game = api(live_server, "POST", "/api/games", body)
    _play_out(live_server, game, upto=total - 1)
    page = new_page(browser)
    open_as(page, live_server, "dao", game, None)
    page.evaluate("() => localStorage.setItem('dao.speed', '1500')")
    page.reload()
    page.wait_for_function("() => window.daoGame && window.daoGame.snap && !window.daoGame.busy")
    page.evaluate(
        """() => { window.__over = null; window.__end = null;
        new MutationObserver(() => {
          const now = performance.now();
          if (window.__over === null && document.getElementById('dao').classList.contains('over')) window.__over = now;
          if (window.__end === null && !document.getElementById('end').hidden) window.__end = now;
        }).observe(document.body, { subtree: true, attributes: true, childList: true }); }"""
    )
    _play_out(live_server, game)  # the last move, made elsewhere: this page replays it
    expect(page.locator("#end")).to_be_visible(timeout=15_000)
    gap = page.evaluate("() => window.__end - window.__over")
    assert gap < 500, f"'Game over' alone for {gap:.0f} ms"
    assert not page.js_errors, page.js_errors


def _active(page) -> str:
    """The focused element as '#id', 'tag.class…' (or 'body')."""
    return page.evaluate(
        "() => { const a = document.activeElement; if (!a || a === document.body) return 'body';"
        " return a.id ? '#' + a.id : a.tagName.toLowerCase() + '.' + [...a.classList].join('.'); }"
    )


def _tab_until(page, test: str, limit: int = 40) -> int:
    """Press Tab until ``test`` (a JS expression on document.activeElement) holds; the count."""
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const a = document.activeElement; return !!({test}); }}"):
            return n
    raise AssertionError(f"Tab never reached {test}")


def test_keyboard_focus_stays_on_the_next_step_and_skip_links_jump(browser, live_server):
    game = _game(live_server, [HUMAN, STRATEGIC, STRATEGIC, STRATEGIC], 13)
    page = new_page(browser)
    open_as(page, live_server, "tobago", game, 0)
    wait_idle(page)
    expect(page.locator("#board polygon.hex").first).to_be_attached()  # the island is drawn
    # the game's skip links come right after the site's: the island in a few Tab presses
    _tab_until(page, "a && a.id === 'skip-board'", limit=4)
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.matches('#board polygon.hex')"), (
        _active(page),
        page.js_errors,
    )
    version = snapshot(page)["version"]
    page.keyboard.press("Enter")  # place the ATV on the focused space
    wait_idle(page, version)
    # placing is done: focus moves on to choosing the first clue's map (never the body)
    expect(page.locator("#actions button.first-map").first).to_be_focused()
    version = snapshot(page)["version"]
    page.keyboard.press("Enter")
    wait_idle(page, version)
    page.wait_for_function("() => window.tobagoGame.snap.view.phase === 'turn'")
    wait_idle(page)
    assert _active(page) != "body"
    # from the island to my clue cards: the hand comes right after it
    page.locator("#skip-board").focus()
    page.keyboard.press("Enter")
    assert _tab_until(page, "a && a.closest('#hand')", limit=3) <= 3
    legal = [a for a in snapshot(page)["legal_actions"] if a["type"] == "play_clue"]
    if legal:
        a = legal[0]
        page.focus(f'#hand button.play-map[data-card="{a["card"]}"][data-map="{a["map"]}"]')
        version = snapshot(page)["version"]
        page.keyboard.press("Enter")
        wait_idle(page, version)
        after = _active(page)
        assert after != "body", after
        nxt = page.evaluate(
            "() => document.activeElement.matches("
            "'#columns button.extra-marker, #end-turn, #hand button.play-map, #drive-mode')"
        )
        assert nxt, after
        # a redraw that comes later (the helper's answer) keeps focus on that step
        page.wait_for_function("() => window.tobagoGame.helper !== null")
        assert _active(page) == after
    # the skip link to my cards lands in the hand
    page.locator("#skip-hand").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => !!document.activeElement.closest('#hand-box')")
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize("width", [1280, 390])
def test_the_playgrounds_legal_plays_show_every_map(browser, live_server, width):
    page = new_page(browser, viewport={"width": width, "height": 900})
    page.goto(f"{live_server}/tobago/playground?lang=en")
    expect(page.locator("#pg-board svg polygon.hex").first).to_be_attached()
    page.click("#pg-target-4")  # add to the hand
    for i in range(4):
        page.locator("#pg-cards .pg-card").nth(i * 7).click()
    wrap = page.locator("#pg-plays .table-wrap")
    expect(wrap.locator("tbody tr")).to_have_count(4)
    expect(wrap.locator("thead th")).to_have_count(5)  # the card, then all four maps
    fits = wrap.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    if width == 1280:
        assert fits, "the table is clipped at 1280 px"
    else:  # a phone may scroll it: then it is a focusable, named scroll box
        assert fits or (wrap.get_attribute("tabindex") == "0" and wrap.get_attribute("aria-label"))
    cell = wrap.locator("tbody td").first
    assert cell.get_attribute("title")  # the words of a compact cell
    page.screenshot(path=str(OUT / f"playground-plays-{width}.png"), full_page=True)
    assert not page.js_errors, page.js_errors


def test_a_puzzle_page_error_is_in_the_page_language(browser, live_server):
    page = new_page(browser)
    code = api(live_server, "GET", "/api/tobago/puzzles/daily")["code"]
    page.goto(f"{live_server}/puzzles/{code}?lang=zh")
    failure = {"error": {"code": "busy", "reason": "busy", "message": "try later", "params": {}}}
    page.route("**/check", lambda route: route.fulfill(status=503, json=failure))
    page.locator("#map .hexes polygon.hex").first.click(force=True)
    feedback = page.locator("#feedback")
    expect(feedback).to_have_text("發生錯誤，請再試一次。")
    assert not page.js_errors, page.js_errors
