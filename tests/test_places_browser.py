"""Issue 43 (items 4, 6, 10) in a real Chromium, in both languages at 390 px with an axe pass:

- a finished Tobago game keeps its helper: a clicked space is explained for every map (never
  "Loading…"), named as a player finds it and marked on the island; the log names no coordinate;
- its review names spaces the same way in the move list, the hexes' labels and the explanation
  heading, marks the explained space and the spaces the shown move names, and shows no
  coordinate;
- a refusal on the game page names the space as a player finds it and marks it on the island;
- a puzzle page names the clicked space and the answer as players find them, marks each on the
  map, and shows no coordinate anywhere;
- the playground explains its painting tools right before them, and only while they are shown.

Screenshots land in ``test-output/`` for a person to look at.
"""

from __future__ import annotations

import pytest

from hexmap.catalog import island_by_name
from solver.places import place_name, place_short
from solver.puzzles.codes import puzzle_code, puzzle_for_seed
from tests.bots import game_over
from tests.browser_support import OUT, api, axe_violations, new_page, open_as, raw_keys
from tests.places_support import COORDS
from tests.tobago_ui import hex_locator

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def sentence(text: str) -> str:
    """``text`` opening a sentence, as the helper shows a name (first letter upper-case)."""
    return text[:1].upper() + text[1:]


LOADING = {"en": "Loading", "zh": "載入"}
RANDOM = {"type": "bot", "level": "random"}


def _clean(page, where: str) -> None:
    found = axe_violations(page)
    assert not found, (where, found)
    assert not raw_keys(page), (where, raw_keys(page))
    assert not page.js_errors, (where, page.js_errors)


@pytest.fixture(scope="module")
def finished(live_server) -> dict:
    """A Tobago game of four random bots on classic-2, played to its end."""
    game = api(
        live_server, "POST", "/api/games", {"game": "tobago", "seed": 8, "seats": [RANDOM] * 4}
    )
    snap = game_over(live_server, game["id"], timeout=120)
    return {"game": game, "snap": snap}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_finished_games_helper_answers_and_names_the_space(browser, live_server, finished, lang):
    game, snap = finished["game"], finished["snap"]
    ref = snap["view"]["island"]
    island = island_by_name(ref["spec"], ref.get("landmarks_seed"))
    page = new_page(browser, **PHONE)
    open_as(page, live_server, "tobago", game, None, f"?lang={lang}")
    expect(page.locator("#end")).to_be_visible()
    page.wait_for_function("() => window.tobagoGame.helper !== null")
    # a space on which no treasure was raised: explained for every map
    space = next(h for h in island.index if island.landmark_at(h) is None)
    hex_locator(page, space.q, space.r).dispatch_event("click")
    why = page.locator("#helper-why")
    expect(why.locator("li")).to_have_count(4)
    expect(why).not_to_contain_text(LOADING[lang])
    expect(why.locator(".helper-place")).to_have_text(sentence(place_name(island, space, lang)))
    # the named space is marked on the island
    named = page.locator(f'#board .overlay.named[data-q="{space.q}"][data-r="{space.r}"]')
    expect(named).to_have_count(1)
    text = page.locator("main").inner_text()
    assert not COORDS.search(text), COORDS.search(text)
    labels = page.eval_on_selector_all("#board polygon.hex", "els => els.map((e) => e.ariaLabel)")
    assert labels and not any(COORDS.search(x or "") for x in labels)
    page.locator("#helper").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / f"places-finished-helper-{lang}.png"), full_page=True)
    _clean(page, f"finished game {lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_puzzle_names_and_marks_the_spaces_its_texts_speak_of(browser, live_server, lang):
    p = puzzle_for_seed(6, "medium")
    code = puzzle_code(p)
    wrong = p.steps[0].removed[0]
    page = new_page(browser, **PHONE)
    page.goto(f"{live_server}/puzzles/{code}?lang={lang}")
    page.locator(f'#map polygon.hex[data-q="{wrong.q}"][data-r="{wrong.r}"]').dispatch_event(
        "click"
    )
    feedback = page.locator("#feedback")
    expect(feedback).to_contain_text(place_name(p.island, wrong, lang))
    mark = page.locator(f'#map .named-mark[data-q="{wrong.q}"][data-r="{wrong.r}"]')
    expect(mark).to_have_count(2)
    page.screenshot(path=str(OUT / f"places-puzzle-wrong-{lang}.png"), full_page=True)
    page.click("#solution")
    conclusion = page.locator("#hints li.conclusion")
    expect(conclusion).to_contain_text(place_name(p.island, p.answer, lang))
    answer = page.locator(f'#map .named-mark[data-q="{p.answer.q}"][data-r="{p.answer.r}"]')
    expect(answer).to_have_count(2)
    expect(mark).to_have_count(0)  # one space named at a time: the last text's
    text = page.locator("main").inner_text()
    assert not COORDS.search(text), COORDS.search(text)
    titles = page.eval_on_selector_all("#map title", "els => els.map((e) => e.textContent)")
    assert not any(COORDS.search(x) for x in titles)
    overflow = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert page.evaluate(overflow) <= 0
    page.screenshot(path=str(OUT / f"places-puzzle-solved-{lang}.png"), full_page=True)
    _clean(page, f"puzzle {lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_playground_explains_its_tools_with_them(browser, live_server, lang):
    page = new_page(browser, **PHONE)
    page.goto(f"{live_server}/tobago/playground?lang={lang}")
    expect(page.locator("#pg-board svg")).to_be_visible()
    help_ = page.locator("#pg-tools-help")
    expect(page.locator("#pg-tools")).to_be_hidden()
    expect(help_).to_be_hidden()  # nothing explains tools that are not there
    _clean(page, f"playground {lang}")
    page.click("#pg-edit")
    expect(page.locator("#pg-tools")).to_be_visible()
    expect(help_).to_be_visible()
    # the explanation comes right before the tools it explains
    before = page.evaluate("() => document.getElementById('pg-tools-help').nextElementSibling.id")
    assert before == "pg-tools"
    # a clicked space is named as a player finds it (inspect tool), never by coordinates
    page.click("#pg-tool-inspect")
    first = page.locator("#pg-board polygon.hex.terrain-jungle").first
    first.dispatch_event("click")
    expect(page.locator("#pg-why .helper-place")).not_to_have_text("")
    page.wait_for_function(
        "() => (document.querySelector('#pg-why .helper-place') || {}).textContent?.length > 12"
    )
    text = page.locator("main").inner_text()
    assert not COORDS.search(text), COORDS.search(text)
    page.screenshot(path=str(OUT / f"places-playground-tools-{lang}.png"), full_page=True)
    _clean(page, f"playground tools {lang}")


def _wait_review(page, step: int) -> None:
    page.wait_for_function(
        "k => window.tobagoReview && window.tobagoReview.shown === `${k}|null`", arg=step
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_review_names_and_marks_spaces_never_by_coordinates(
    browser, live_server, finished, lang
):
    game, snap = finished["game"], finished["snap"]
    ref = snap["view"]["island"]
    island = island_by_name(ref["spec"], ref.get("landmarks_seed"))
    events = api(live_server, "GET", f"/api/games/{game['id']}/events?after=0")["events"]
    drive = next(
        (x, e) for x in events for e in x["events"] if e["type"] == "drove" and e["from"] != e["to"]
    )
    step, drove = drive[0]["version"], drive[1]
    page = new_page(browser, **PHONE)
    page.goto(f"{live_server}/tobago/games/{game['id']}/review?step={step}&lang={lang}")
    _wait_review(page, step)
    # the move list and the line above the board name the drive's spaces as players find them
    to_name = place_short(island, tuple(drove["to"]), lang)
    expect(page.locator(f'#moves li[data-step="{step}"]')).to_contain_text(to_name)
    expect(page.locator("#now")).to_contain_text(to_name)
    # ... and the island marks them
    for q, r in (drove["from"], drove["to"]):
        moved = page.locator(f'#rv-board .overlay.moved[data-q="{q}"][data-r="{r}"]')
        expect(moved).to_have_count(1)
    # a clicked space: its explanation is headed by its name, and it is marked
    space = next(h for h in island.index if island.landmark_at(h) is None)
    hex_locator(page, space.q, space.r, "#rv-board polygon.hex").dispatch_event("click")
    why = page.locator("#rv-why")
    expect(why.locator("li")).to_have_count(4)
    expect(why.locator(".helper-place")).to_have_text(sentence(place_name(island, space, lang)))
    named = page.locator(f'#rv-board .overlay.named[data-q="{space.q}"][data-r="{space.r}"]')
    expect(named).to_have_count(1)
    # another step keeps the explanation (and its mark); the moved marks follow the move
    page.locator("#back").click()
    _wait_review(page, step - 1)
    expect(why.locator(".helper-place")).to_have_text(sentence(place_name(island, space, lang)))
    expect(named).to_have_count(1)
    text = page.locator("main").inner_text()
    assert not COORDS.search(text), COORDS.search(text)
    labels = page.eval_on_selector_all(
        "#rv-board polygon.hex", "els => els.map((e) => e.ariaLabel)"
    )
    assert labels and not any(COORDS.search(x or "") for x in labels)
    assert any(place_name(island, space, lang) in (x or "") for x in labels)
    page.locator("#rv-board").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / f"places-review-{lang}.png"), full_page=True)
    _clean(page, f"review {lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refusal_names_the_space_as_a_player_finds_it_and_marks_it(browser, live_server, lang):
    """The server's refusal of an action carries the space as data (``params.space``); the page
    words it with the island's names, opening the sentence with a capital, and marks it."""
    seats = [{"type": "human", "name": "Ana"}, RANDOM]
    game = api(live_server, "POST", "/api/games", {"game": "tobago", "seed": 8, "seats": seats})
    page = new_page(browser, **PHONE)
    open_as(page, live_server, "tobago", game, 0, f"?lang={lang}")
    page.wait_for_function(
        "() => window.tobagoGame.snap && window.tobagoGame.snap.legal_actions.length"
        " && !window.tobagoGame.busy"
    )
    page.wait_for_function("() => window.tobagoGame.helper !== null")  # the names have come
    snap = page.evaluate("() => window.tobagoGame.snap")
    ref = snap["view"]["island"]
    island = island_by_name(ref["spec"], ref.get("landmarks_seed"))
    place = next(a for a in snap["legal_actions"] if a["type"] == "place_atv")
    q, r = place["at"]
    refusal = {
        "error": {
            "code": "illegal",
            "reason": "not_a_candidate",
            "message": f"({q}, {r}) is not a candidate of the white map",
            "field": "action.space",
            "params": {"space": [q, r], "map": "white"},
        }
    }
    page.route(
        "**/api/games/*/actions",
        lambda route: route.fulfill(status=409, json=refusal),
    )
    hex_locator(page, q, r).dispatch_event("click")
    error = page.locator("#error")
    expect(error).to_be_visible()
    expect(error).to_contain_text(sentence(place_short(island, (q, r), lang)))
    assert not COORDS.search(error.inner_text()), error.inner_text()
    named = page.locator(f'#board .overlay.named[data-q="{q}"][data-r="{r}"]')
    expect(named).to_have_count(1)
    page.screenshot(path=str(OUT / f"places-refusal-{lang}.png"), full_page=True)
    _clean(page, f"refusal {lang}")
