"""The puzzle pages in a real Chromium (Playwright): answering, hints, solution, the print sheet.

Server (``live_server``) and browser come from ``tests/browser_support.py``. Screenshots land in
``test-output/`` for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.browser_support import OUT, new_page

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def page(browser):
    """A fresh page (1200 px wide); the test fails on any uncaught script error."""
    pg = new_page(browser, viewport={"width": 1200, "height": 900})
    yield pg
    pg.context.close()
    assert not pg.js_errors, pg.js_errors


def _puzzle(page, live_server, seed: int = 12, difficulty: str = "medium") -> dict:
    resp = page.request.get(
        f"{live_server}/api/tobago/puzzles?difficulty={difficulty}&seed={seed}&reveal=true"
    )
    assert resp.ok
    return resp.json()


def _hex(page, q: int, r: int):
    return page.locator(f'#map .hexes polygon.hex[data-q="{q}"][data-r="{r}"]')


def test_answering_a_wrong_then_the_right_space(page, live_server):
    body = _puzzle(page, live_server)
    page.goto(f"{live_server}/puzzles/{body['code']}")
    assert page.locator("#clues li").count() == len(body["clues"])
    wrong = body["steps"][0]["removed"][0]
    _hex(page, *wrong).click(force=True)
    feedback = page.locator("#feedback")
    sync_api.expect(feedback).to_contain_text("Not there")
    sync_api.expect(feedback).to_contain_text(f"Clue {body['steps'][0]['clue'] + 1}")
    assert "picked-wrong" in _hex(page, *wrong).get_attribute("class")
    _hex(page, *body["answer"]).click(force=True)
    sync_api.expect(feedback).to_contain_text("Right!")
    assert "picked-right" in _hex(page, *body["answer"]).get_attribute("class")
    # a right answer is outlined green, never the red of a wrong pick
    stroke = _hex(page, *body["answer"]).evaluate("e => getComputedStyle(e).stroke")
    assert stroke == "rgb(27, 122, 44)", stroke
    page.screenshot(path=str(OUT / "puzzle-answered.png"), full_page=True)
    # and the next puzzle is one key press away: a new puzzle of the same difficulty
    nxt = page.locator("#next-puzzle")
    sync_api.expect(nxt).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: body["code"] not in url and "/puzzles/" in url)
    sync_api.expect(page.locator("h1 .badge")).to_have_class("badge medium")


def test_hints_reveal_one_step_at_a_time_then_the_answer(page, live_server):
    body = _puzzle(page, live_server, seed=31, difficulty="hard")
    page.goto(f"{live_server}/puzzles/{body['code']}")
    hints = page.locator("#hints li")
    assert hints.count() == 0
    for k, step in enumerate(body["steps"], 1):
        page.click("#hint")
        sync_api.expect(hints.nth(k - 1)).to_have_text(step["text"]["en"])
        out = page.locator("#map .hexes polygon.hex.out")
        sync_api.expect(out).to_have_count(sum(len(s["removed"]) for s in body["steps"][:k]))
        if k == 1:
            page.screenshot(path=str(OUT / "puzzle-first-hint.png"), full_page=True)
    sync_api.expect(page.locator("#hints li.conclusion")).to_have_text(body["conclusion"]["en"])
    assert "answer" in _hex(page, *body["answer"]).get_attribute("class")
    assert page.locator("#hint").is_disabled()
    assert page.locator("#clues li.used").count() == len(body["clues"])


def test_solution_shows_every_step_in_chinese(page, live_server):
    body = _puzzle(page, live_server, seed=5, difficulty="easy")
    page.goto(f"{live_server}/puzzles/{body['code']}?lang=zh")
    page.click("#solution")
    sync_api.expect(page.locator("#hints li.conclusion")).to_have_text(body["conclusion"]["zh"])
    sync_api.expect(page.locator(".hint-intro")).to_have_text(body["intro"]["zh"])
    assert page.locator("#hints li").count() == len(body["steps"]) + 1
    page.screenshot(path=str(OUT / "puzzle-solution-zh.png"), full_page=True)


def test_print_sheet_puts_the_answer_key_on_its_own_page(page, live_server):
    page.goto(f"{live_server}/puzzles/sheet?count=4&difficulty=hard&seed=3&print=1")
    assert page.locator(".sheet-puzzle").count() == 4
    assert page.locator(".key-item").count() == 4
    page.emulate_media(media="print")
    brk = page.eval_on_selector(".answer-key", "e => getComputedStyle(e).breakBefore")
    assert brk == "page"
    inside = page.eval_on_selector(".sheet-puzzle", "e => getComputedStyle(e).breakInside")
    assert inside == "avoid"
    page.screenshot(path=str(OUT / "puzzle-sheet-print.png"), full_page=True)
    pdf = page.pdf(format="A4")
    (OUT / "puzzle-sheet.pdf").write_bytes(pdf)
    pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
    assert pages >= 2  # puzzles, then the key on a page of its own


def test_a_six_puzzle_sheet_prints_to_two_small_pages(page, live_server):
    """Six puzzles fill one A4 page (three across, two down), the key the second; the maps
    stay vectors without pattern fills, so the PDF is small (it was 8-10 MB)."""
    page.goto(f"{live_server}/puzzles/sheet?count=6&difficulty=medium&seed=1&print=1")
    assert page.locator(".sheet-puzzle").count() == 6
    assert page.locator(".sheet-puzzle svg pattern").count() == 0
    pdf = page.pdf(format="A4")
    (OUT / "puzzle-sheet-6.pdf").write_bytes(pdf)
    pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
    assert pages == 2, pages
    assert len(pdf) < 1_000_000, len(pdf)


def test_list_page_links_to_a_playable_puzzle(page, live_server):
    page.goto(f"{live_server}/puzzles")
    for d in ("easy", "medium", "hard"):
        assert page.locator(f"#group-{d} li a").count() >= 3
    page.screenshot(path=str(OUT / "puzzle-list.png"), full_page=True)
    page.locator("#group-easy li a").first.click()
    page.wait_for_selector("#map svg")
    assert page.locator("#clues li").count() >= 1
