"""The puzzle pages in a real Chromium (Playwright): answering, hints, solution, the print sheet.

The app is served on 127.0.0.1 by a werkzeug server in a thread. Screenshots land in
``test-output/`` for a person to look at.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from app import create_app

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
OUT = Path(__file__).resolve().parents[1] / "test-output"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("db") / "t.sqlite3")}
    )
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(5)


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium at /usr/bin/chromium")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def _puzzle(page, server, seed: int = 12, difficulty: str = "medium") -> dict:
    resp = page.request.get(
        f"{server}/api/tobago/puzzles?difficulty={difficulty}&seed={seed}&reveal=true"
    )
    assert resp.ok
    return resp.json()


def _hex(page, q: int, r: int):
    return page.locator(f'#map .hexes polygon.hex[data-q="{q}"][data-r="{r}"]')


def test_answering_a_wrong_then_the_right_space(page, server):
    OUT.mkdir(exist_ok=True)
    body = _puzzle(page, server)
    page.goto(f"{server}/puzzles/{body['code']}")
    assert page.locator("#clues li").count() == len(body["clues"])
    wrong = body["steps"][0]["removed"][0]
    _hex(page, *wrong).click(force=True)
    feedback = page.locator("#feedback")
    sync_api.expect(feedback).to_contain_text("Not there")
    sync_api.expect(feedback).to_contain_text(f"clue {body['steps'][0]['clue'] + 1}")
    assert "picked-wrong" in _hex(page, *wrong).get_attribute("class")
    _hex(page, *body["answer"]).click(force=True)
    sync_api.expect(feedback).to_contain_text("Right!")
    assert "picked-right" in _hex(page, *body["answer"]).get_attribute("class")
    page.screenshot(path=str(OUT / "puzzle-answered.png"), full_page=True)


def test_hints_reveal_one_step_at_a_time_then_the_answer(page, server):
    body = _puzzle(page, server, seed=31, difficulty="hard")
    page.goto(f"{server}/puzzles/{body['code']}")
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


def test_solution_shows_every_step_in_chinese(page, server):
    body = _puzzle(page, server, seed=5, difficulty="easy")
    page.goto(f"{server}/puzzles/{body['code']}?lang=zh")
    page.click("#solution")
    sync_api.expect(page.locator("#hints li.conclusion")).to_have_text(body["conclusion"]["zh"])
    sync_api.expect(page.locator(".hint-intro")).to_have_text(body["intro"]["zh"])
    assert page.locator("#hints li").count() == len(body["steps"]) + 1
    page.screenshot(path=str(OUT / "puzzle-solution-zh.png"), full_page=True)


def test_print_sheet_puts_the_answer_key_on_its_own_page(page, server):
    page.goto(f"{server}/puzzles/sheet?count=4&difficulty=hard&seed=3&print=1")
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


def test_list_page_links_to_a_playable_puzzle(page, server):
    page.goto(f"{server}/puzzles")
    for d in ("easy", "medium", "hard"):
        assert page.locator(f"#group-{d} li a").count() >= 3
    page.screenshot(path=str(OUT / "puzzle-list.png"), full_page=True)
    page.locator("#group-easy li a").first.click()
    page.wait_for_selector("#map svg")
    assert page.locator("#clues li").count() >= 1
