"""The review page in a real Chromium (Playwright): finished games stepped through from the end
screen's link, by buttons, the slider, the keyboard and the move list, from everything and from
two seats (whose view must not show the other seats' hands), with the analysis opened; English
at 1280 px and Traditional Chinese on a 390-px phone; a shared URL names game, step and seat;
an imported record is reviewed through the review hub. Plus the review strings (no browser).

Screenshots land in ``test-output/review/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from i18n import defined
from tests.bots import game_over
from tests.browser_support import PHONE, new_page, raw_keys, shots_dir

expect = pytest.importorskip("playwright.sync_api").expect
ROOT = Path(__file__).resolve().parents[1]
SHOTS = shots_dir("review")


def finished(page, server: str, kind: str, seats: list[dict], seed: int) -> dict:
    resp = page.request.post(
        f"{server}/api/games", data={"game": kind, "seats": seats, "seed": seed}
    )
    assert resp.status == 201
    return game_over(server, resp.json()["id"], timeout=120)  # the table's bots play it out


def finished_record(
    page, server: str, kind: str, seats: list[dict], seed: int
) -> tuple[dict, dict]:
    """A game ``finished`` by its bots, and its record as ``GET .../record`` gives it (what the
    hub imports)."""
    snap = finished(page, server, kind, seats, seed)
    return snap, page.request.get(f"{server}/api/games/{snap['id']}/record").json()


def wait_step(page, step: int, seat: int | None = None) -> None:
    """Until position ``step`` from ``seat`` is drawn (and no other asked since)."""
    page.wait_for_function(
        "([k, s]) => window.tobagoReview && window.tobagoReview.shown === `${k}|${s}`"
        " && window.tobagoReview.step === k && window.tobagoReview.seat === s",
        arg=[step, seat],
    )
    expect(page.locator("#step")).to_have_value(str(step))


def review_from_the_end(page, server: str, kind: str, gid: str, lang: str = "en") -> None:
    """Open game ``gid``'s page (in ``lang``), follow the review link of its end screen and wait
    for the review's first position."""
    page.goto(f"{server}/{kind}/games/{gid}?lang={lang}")
    link = page.locator("#end #review-link")
    expect(link).to_be_visible(timeout=20_000)
    expect(link).to_have_text({"en": "Review this game", "zh": "覆盤這局遊戲"}[lang])
    link.click()
    page.wait_for_url(re.compile(rf"/{kind}/games/{gid}/review"))
    wait_step(page, 0)


def url_state(page) -> dict:
    q = parse_qs(urlparse(page.url).query)
    return {k: v[0] for k, v in q.items()}


def position(page, server: str, game_id: str, step: int, seat: int | None) -> dict:
    query = "" if seat is None else f"?seat={seat}"
    return page.request.get(f"{server}/api/games/{game_id}/positions/{step}{query}").json()


def wait_analysis(page) -> None:
    expect(page.locator("#summary-table")).to_be_visible(timeout=60_000)
    expect(page.locator("#chart svg")).to_be_visible()


@pytest.mark.browser
def test_a_tobago_game_stepped_through_from_two_seats_with_its_analysis(browser, live_server):
    page = new_page(browser)
    seats = [
        {"type": "bot", "level": "strategic"},
        {"type": "bot", "level": "random"},
        {"type": "bot", "level": "strategic"},
    ]
    snap = finished(page, live_server, "tobago", seats, seed=4)
    gid, steps = snap["id"], snap["version"]
    # the end screen of the game page links the review
    review_from_the_end(page, live_server, "tobago", gid)
    expect(page.locator("#now")).to_contain_text("start of the game")
    expect(page.locator("#moves li")).to_have_count(steps + 1)
    expect(page.locator("#step")).to_have_attribute("max", str(steps))

    # keyboard: arrows, End, Home (from the page, not a form field)
    page.locator("h1").click()
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    page.keyboard.press("ArrowRight")
    wait_step(page, 2)
    page.keyboard.press("ArrowLeft")
    wait_step(page, 1)
    assert url_state(page) == {"step": "1"}
    page.keyboard.press("End")
    wait_step(page, steps)
    expect(page.locator("#now")).to_contain_text("The game is over")
    expect(page.locator("#forward")).to_be_disabled()
    page.keyboard.press("Home")
    wait_step(page, 0)
    expect(page.locator("#back")).to_be_disabled()

    # the slider and the buttons
    mid = steps // 2
    page.locator("#step").fill(str(mid))
    wait_step(page, mid)
    page.click("#forward")
    wait_step(page, mid + 1)
    page.click("#back")
    wait_step(page, mid)

    # everything: every hand is shown
    full = position(page, live_server, gid, mid, None)
    expect(page.locator(".rv-hand")).to_have_count(3)
    # seat 1 (the second seat): its own hand only, and its helper
    page.select_option("#seat", "1")
    wait_step(page, mid, 1)
    assert url_state(page) == {"step": str(mid), "seat": "1"}
    expect(page.locator(".rv-hand")).to_have_count(1)
    expect(page.locator('.rv-hand[data-seat="1"]')).to_have_count(1)
    mine = position(page, live_server, gid, mid, 1)
    cards = [c["id"] for c in mine["view"]["players"][1]["hand"]]
    expect(page.locator('.rv-hand[data-seat="1"] .hand-card')).to_have_count(len(cards))
    for other in (0, 2):
        assert "hand" not in mine["view"]["players"][other]
        for c in full["view"]["players"][other]["hand"]:
            if c["id"] not in cards:
                expect(page.locator(f'#position .hand-card[data-card="{c["id"]}"]')).to_have_count(
                    0
                )
    expect(page.locator("#helper-who")).to_contain_text("Bot 2 (random)")
    if mine["helper"]["hints"]:
        expect(page.locator("#helper .helper-hints li").first).to_contain_text(
            mine["helper"]["hints"][0]["reason"]
        )
    page.screenshot(path=str(SHOTS / "tobago-seat1.png"), full_page=True, animations="disabled")
    # seat 2 (the third): its own hand, not seat 1's
    page.select_option("#seat", "2")
    wait_step(page, mid, 2)
    expect(page.locator(".rv-hand")).to_have_count(1)
    expect(page.locator('.rv-hand[data-seat="2"]')).to_have_count(1)
    # a space on the island explained by the helper
    page.locator("#rv-board polygon.hex").first.click()
    expect(page.locator("#rv-why li")).to_have_count(4)

    # the move list jumps to a move
    page.locator('#moves li[data-step="7"] button').click()
    wait_step(page, 7, 2)
    expect(page.locator('#moves li[data-step="7"]')).to_have_attribute("aria-current", "step")

    # the analysis: summary, chart, marks in the move list and after the move
    wait_analysis(page)
    expect(page.locator("#summary-table tbody tr")).to_have_count(3)
    analysis = page.request.get(f"{live_server}/api/games/{gid}/analysis").json()["analysis"]
    marked = analysis["decisions"][0]
    expect(page.locator(f'#moves li[data-step="{marked["move"]}"] .mark')).to_have_count(1)
    page.locator(f'#moves li[data-step="{marked["move"]}"] button').click()
    wait_step(page, marked["move"], 2)
    mark_words = {"best": "Best", "good": "Good", "inaccuracy": "Inaccuracy", "mistake": "Mistake"}
    expect(page.locator("#now")).to_contain_text(mark_words[marked["mark"]])
    assert page.locator(".review-chart polyline").count() >= 3
    page.click("details.review-marks-help summary")
    expect(page.locator("#thresholds li")).to_have_count(4)
    page.screenshot(path=str(SHOTS / "tobago-analysis.png"), full_page=True, animations="disabled")

    # the URL names the position: a fresh page opens it as it was
    shared = page.url
    other = new_page(browser)
    other.goto(shared)
    wait_step(other, marked["move"], 2)
    expect(other.locator(".rv-hand")).to_have_count(1)
    assert not page.js_errors and not other.js_errors


@pytest.mark.browser
def test_a_dao_game_on_a_phone_in_chinese_hides_the_other_piles(browser, live_server):
    page = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    snap = finished(page, live_server, "dao", [{"type": "bot", "level": "ev"}] * 3, seed=6)
    gid, steps = snap["id"], snap["version"]
    review_from_the_end(page, live_server, "dao", gid, "zh")
    expect(page.locator("h1")).to_contain_text("覆盤")
    for k in range(1, 6):
        page.locator("#forward").tap()
        wait_step(page, k)
    page.select_option("#seat", "0")
    wait_step(page, 5, 0)
    mine = position(page, live_server, gid, 5, 0)
    # my pile open, the two other piles face down
    expect(page.locator(".rv-hidden-pile")).to_have_count(2)
    expect(page.locator('.rv-dao-player[data-seat="0"] .rv-hidden-pile')).to_have_count(0)
    assert all(p["cards"] is None for p in mine["view"]["players"][1:])
    expect(page.locator("#bust-prob")).to_be_visible()
    page.select_option("#seat", "1")
    wait_step(page, 5, 1)
    expect(page.locator('.rv-dao-player[data-seat="1"] .rv-hidden-pile')).to_have_count(0)
    expect(page.locator(".rv-hidden-pile")).to_have_count(2)
    page.select_option("#seat", "")
    wait_step(page, 5)
    expect(page.locator(".rv-hidden-pile")).to_have_count(0)
    wait_analysis(page)
    expect(page.locator("#analysis-status")).to_contain_text("已評分")
    page.locator("#last").tap()
    wait_step(page, steps)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
    page.screenshot(path=str(SHOTS / "dao-phone-zh.png"), full_page=True, animations="disabled")
    assert not page.js_errors


@pytest.mark.browser
def test_isla_dorada_and_an_imported_record_are_reviewed_through_the_hub(browser, live_server):
    page = new_page(browser)
    snap, record = finished_record(
        page, live_server, "isla_dorada", [{"type": "bot", "level": "planner"}] * 3, 2
    )
    page.goto(f"{live_server}/review")
    page.fill("#record-text", json.dumps(record))
    page.click("#import")
    page.wait_for_url(re.compile(r"/isla_dorada/games/[\w-]+/review"))
    imported = page.url.split("/games/")[1].split("/")[0]
    assert imported != snap["id"]
    wait_step(page, 0)
    page.locator("#step").fill("40")
    wait_step(page, 40)
    expect(page.locator(".rv-hand")).to_have_count(3)
    page.select_option("#seat", "2")
    wait_step(page, 40, 2)
    expect(page.locator(".rv-hand")).to_have_count(1)
    expect(page.locator('.rv-hand[data-seat="2"]')).to_have_count(1)
    expect(page.locator("#rv-map svg")).to_be_visible()
    wait_analysis(page)
    # the hub lists both games, the imported one marked
    page.goto(f"{live_server}/review")
    expect(
        page.locator(f'#finished a[href="/isla_dorada/games/{imported}/review"]')
    ).to_be_visible()
    expect(
        page.locator(f'#finished a[href="/isla_dorada/games/{snap["id"]}/review"]')
    ).to_be_visible()
    page.goto(f"{live_server}/review")
    page.fill("#record-text", "not json")
    page.click("#import")
    expect(page.locator("#import-error")).to_be_visible()
    assert not page.js_errors


@pytest.mark.browser
def test_a_dragons_gold_game_hides_the_other_hoards(browser, live_server):
    # its negotiations and markets end by the clock: the game is played on the simulated clock
    # of games.base.play_bots and imported (the table's timeouts are entries of its record)
    from tests.test_review_positions import bot_game

    log = bot_game("dragons_gold", 5, ["greedy", "random", "greedy"])
    assert any(seat is None for seat, _ in log.actions)
    record = {
        "game": "dragons_gold",
        "options": log.options,
        "seed": log.seed,
        "seats": [
            {"index": i, "type": "bot", "level": lv}
            for i, lv in enumerate(["greedy", "random", "greedy"])
        ],
        "actions": [{"seat": s, "action": a} for s, a in log.actions],
    }
    page = new_page(browser)
    resp = page.request.post(f"{live_server}/api/games/import", data=record)
    assert resp.status == 201, resp.text()
    gid, steps = resp.json()["id"], log.steps
    review_from_the_end(page, live_server, "dragons_gold", gid)
    mid = steps // 2
    page.locator("#step").fill(str(mid))
    wait_step(page, mid)
    expect(page.locator(".rv-hand")).to_have_count(3)
    page.select_option("#seat", "1")
    wait_step(page, mid, 1)
    expect(page.locator(".rv-hand")).to_have_count(1)
    expect(page.locator('.rv-hand[data-seat="1"]')).to_have_count(1)
    mine = position(page, live_server, gid, mid, 1)
    assert [p["hoard"] is None for p in mine["view"]["players"]] == [True, False, True]
    expect(page.locator("#rv-dragons li.dg-dragon").first).to_be_visible()
    wait_analysis(page)
    expect(page.locator("#summary-table tbody tr")).to_have_count(3)
    page.screenshot(path=str(SHOTS / "dragons-gold.png"), full_page=True, animations="disabled")
    assert not page.js_errors


@pytest.mark.browser
def test_a_running_game_is_not_reviewed(browser, live_server):
    page = new_page(browser)
    resp = page.request.post(
        f"{live_server}/api/games", data={"game": "dao", "seats": [{"type": "human"}] * 2}
    )
    gid = resp.json()["id"]
    for path, words in ((gid, "still being played"), ("nosuchgame", "no such game")):
        page.goto(f"{live_server}/dao/games/{path}/review")
        expect(page.locator("#error")).to_contain_text(words)
        # nothing to step through: no buttons, slider, seat choice or empty panels left behind
        for control in ("#first", "#last", "#step", "#step-out", "#seat", "#copy-link", "#now"):
            expect(page.locator(control)).to_be_hidden()
        for panel in ("#position", "#helper", "#moves", "#analysis"):
            expect(page.locator(panel)).to_be_hidden()
    assert not page.js_errors


@pytest.mark.browser
def test_an_import_refusal_says_what_is_wrong_in_the_pages_language(browser, live_server):
    page = new_page(browser)
    _, record = finished_record(page, live_server, "dao", [{"type": "bot", "level": "ev"}] * 2, 3)
    bad = {**record, "actions": [dict(a) for a in record["actions"]]}
    bad["actions"][2] = {**bad["actions"][2], "action": {"type": "steal"}}
    cases = {
        # an action the engine refuses: which entry, and the engine's own reason in words
        "refused": (bad, "Entry 3 of the record's actions is refused", "第 3 項不被接受"),
        # a field the schema refuses: which field
        "field": (
            {**record, "seed": "x"},
            "The record's field seed is not valid.",
            "欄位 seed 無效",
        ),
        "unfinished": (
            {**record, "actions": record["actions"][:-1]},
            "The record stops before the game is over",
            "遊戲結束前就停了",
        ),
    }
    for name, (body, en, zh) in cases.items():
        for lang, words in (("en", en), ("zh", zh)):
            page.goto(f"{live_server}/review?lang={lang}")
            page.fill("#record-text", json.dumps(body))
            page.click("#import")
            box = page.locator("#import-error")
            expect(box).to_contain_text(words)
            text = box.inner_text()
            assert "That request is not valid" not in text, (name, text)
            if lang == "zh":
                assert not re.findall(r"[A-Za-z]{3,}", text.replace("seed", "")), (name, text)
    assert not page.js_errors


AXE = ROOT / "static" / "vendor" / "axe-core" / "axe.min.js"


@pytest.mark.browser
@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not vendored (static/vendor/axe-core)")
def test_review_pages_have_no_axe_violation(browser, live_server):
    from tests.test_review_positions import bot_game

    made = {}
    for kind, levels in (
        ("tobago", ["strategic", "random", "normal"]),  # the levels and their old names
        ("dao", ["ev", "easy", "greedy"]),
        ("isla_dorada", ["planner", "random", "normal"]),
        ("dragons_gold", ["greedy", "easy", "normal"]),
    ):
        log = bot_game(kind, 5, levels)
        record = {
            "game": kind,
            "options": log.options,
            "seed": log.seed,
            "seats": [{"index": i, "type": "bot", "level": lv} for i, lv in enumerate(levels)],
            "actions": [{"seat": s, "action": a} for s, a in log.actions],
        }
        page = new_page(browser)
        made[kind] = (page.request.post(f"{live_server}/api/games/import", data=record).json(), log)
        page.context.close()
    paths = ["/review"]
    for kind, (game, log) in made.items():
        base = f"/{kind}/games/{game['id']}/review"
        paths += [
            f"{base}?step=0",
            f"{base}?step={log.steps // 2}&seat=1",
            f"{base}?step={log.steps}",
        ]
    for path in paths:
        for width, lang in ((1280, "en"), (390, "zh")):
            page = new_page(browser, viewport={"width": width, "height": 900})
            page.goto(f"{live_server}{path}{'&' if '?' in path else '?'}lang={lang}")
            if "/games/" in path:
                page.wait_for_function("() => window.tobagoReview && window.tobagoReview.ready")
                expect(page.locator("#summary-table")).to_be_visible(timeout=60_000)
                page.click("details.review-marks-help summary")
            page.wait_for_load_state("networkidle")
            page.add_script_tag(
                url=live_server + "/static/vendor/axe-core/axe.min.js"
            )  # CSP: 'self'
            found = page.evaluate("async () => (await window.axe.run(document)).violations")
            assert not found, (
                path,
                width,
                lang,
                [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found],
            )
            wider = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert wider <= 0, (path, width, lang, wider)
            assert not raw_keys(page), (path, width, lang, raw_keys(page))
            assert not page.js_errors, (path, page.js_errors)
            page.context.close()


def _catalogue(lang: str) -> dict:
    """Every ``review.`` key the files of ``lang`` define: the shared ones (``review.json``)
    and each game's (its own words file)."""
    return {k: v for k, v in defined(lang).items() if k.startswith("review.")}


def test_review_strings_exist_in_both_languages_with_the_same_placeholders():
    en, zh = _catalogue("en"), _catalogue("zh")
    assert set(en) == set(zh)

    def names(value) -> set[str]:  # a plural's placeholders: those of its "other" form
        return set(re.findall(r"{(\w+)}", value["other"] if isinstance(value, dict) else value))

    for key in en:
        assert names(en[key]) == names(zh[key]), key


def test_every_review_key_the_pages_use_exists():
    en = _catalogue("en")
    used: set[str] = set()
    for path in [
        *(ROOT / "static/review").glob("*.js"),
        *(ROOT / "templates/review").glob("*.html"),
    ]:
        used |= set(re.findall(r"review\.[a-z_]+[a-z]", path.read_text("utf-8")))
    used -= {"review.css", "review.js"}
    built = {u for u in used if u.endswith("_")}
    missing = {
        u for u in used - built if u not in en and not any(k.startswith(u + "_") for k in en)
    }
    assert not missing
    for prefix in ("review.mark_", "review.unit_", "review.chart_", "review.engine_"):
        assert any(k.startswith(prefix) for k in en)
    for mark in ("best", "good", "inaccuracy", "mistake"):
        assert f"review.mark_{mark}" in en
