"""The puzzle API and pages through the test client: shapes, hidden answers, errors, languages."""

from __future__ import annotations

from datetime import date

import pytest

from hexmap.catalog import generated_island
from solver.clues import parse_clue
from solver.engine import base_mask, clue_mask
from solver.puzzles.codes import daily_puzzle, puzzle_code
from tests.places_support import COORDS

BASE = "/api/tobago/puzzles"
SECRET_KEYS = {"answer", "steps", "intro", "conclusion", "proof"}


def _candidates(puzzle_json: dict) -> list[tuple[int, int]]:
    """Solve a puzzle from its JSON alone with the engine (no help from the puzzle code)."""
    src = puzzle_json["island"]["source"]
    island = generated_island(src["seed"], landmarks_seed=src["landmarks_seed"])
    assert island.to_json()["spaces"] == puzzle_json["island"]["spaces"]
    m = base_mask(island)
    for i, c in enumerate(puzzle_json["clues"]):
        m &= clue_mask(island, parse_clue(c, f"clues[{i}]"))
    return [tuple(h) for h in island.spaces_of(m)]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_get_puzzle_has_the_issue_shape_and_hides_the_answer(client, difficulty):
    r = client.get(f"{BASE}?difficulty={difficulty}&seed=5")
    assert r.status_code == 200
    body = r.get_json()
    assert {"code", "difficulty", "island", "clues"} <= set(body)
    assert not SECRET_KEYS & set(body)
    assert body["difficulty"] == difficulty == body["grade"]["level"]
    assert {"spaces", "landmarks"} <= set(body["island"])
    assert all(
        set(c) == {"relation", "target", "distance", "largest", "negated"} for c in body["clues"]
    )
    assert len(_candidates(body)) == 1
    again = client.get(f"{BASE}?difficulty={difficulty}&seed=5").get_json()
    assert again == body  # deterministic from the seed


def test_reveal_gives_the_answer_and_steps_that_end_there(client):
    body = client.get(f"{BASE}?difficulty=hard&seed=11&reveal=true").get_json()
    (answer,) = _candidates(body)
    assert body["answer"] == list(answer)
    steps = body["steps"]
    assert [s["remaining"] for s in steps] == sorted((s["remaining"] for s in steps), reverse=True)
    assert steps[-1]["remaining"] == 1
    removed = [tuple(x) for s in steps for x in s["removed"]]
    assert len(removed) == len(set(removed)) == len(body["island"]["spaces"]) - 1
    assert answer not in removed
    assert sorted(s["clue"] for s in steps) == list(range(len(body["clues"])))
    for s in steps:
        assert s["text"]["en"].startswith(f"Clue {s['clue'] + 1} ")
        assert f"線索 {s['clue'] + 1}" in s["text"]["zh"]
    terrain = next(x["terrain"] for x in body["island"]["spaces"] if (x["q"], x["r"]) == answer)
    assert f"the {terrain} space" in body["conclusion"]["en"]
    texts = [*body["conclusion"].values(), *body["intro"].values()]
    texts += [t for s in steps for t in s["text"].values()]
    assert not any(COORDS.search(t) for t in texts)  # spaces named as players find them


def test_code_route_rebuilds_the_same_puzzle(client):
    body = client.get(f"{BASE}?difficulty=medium&seed=77").get_json()
    same = client.get(f"{BASE}/{body['code']}").get_json()
    assert same == body
    revealed = client.get(f"{BASE}/{body['code']}?reveal=1").get_json()
    assert revealed["answer"] == list(_candidates(body)[0])


def test_minimal_puzzle_carries_its_proof_only_when_revealed(client):
    body = client.get(f"{BASE}?difficulty=medium&seed=3&minimal=true").get_json()
    assert body["minimal"] is True and "proof" not in body
    rev = client.get(f"{BASE}/{body['code']}?reveal=true").get_json()
    proof = rev["proof"]
    assert proof["clues"] == len(body["clues"])
    assert all(proof["initial_lower_bound"] <= k < proof["clues"] for k in proof["refuted_sizes"])
    assert "set cover" in proof["method"]


def test_check_says_right_or_which_clue_rules_the_space_out(client):
    body = client.get(f"{BASE}?difficulty=easy&seed=8&reveal=true").get_json()
    code, answer = body["code"], body["answer"]
    r = client.post(f"{BASE}/{code}/check", json={"space": answer})
    assert r.status_code == 200 and r.get_json()["correct"] is True
    wrong = body["steps"][0]["removed"][0]
    res = client.post(f"{BASE}/{code}/check", json={"space": wrong}).get_json()
    assert res["correct"] is False
    k = body["steps"][0]["clue"]
    assert f"Clue {k + 1} (" in res["why"] and body["clue_text"][k]["en"] in res["why"]
    assert not COORDS.search(res["why"])
    zh = client.post(f"{BASE}/{code}/check?lang=zh", json={"space": wrong}).get_json()
    assert f"線索 {k + 1}" in zh["why"]
    zh2 = client.post(f"{BASE}/{code}/check", json={"space": wrong, "lang": "zh"}).get_json()
    assert zh2 == zh
    # a bad ?lang= is refused even when the body names a language (found by schemathesis)
    for bad in ("", "fr"):
        r = client.post(f"{BASE}/{code}/check?lang={bad}", json={"space": wrong, "lang": "en"})
        assert r.status_code == 400 and r.get_json()["error"]["field"] == "lang"


def test_daily_puzzle_is_the_same_for_a_date(client):
    r = client.get(f"{BASE}/daily?date=2025-06-01")
    body = r.get_json()
    assert r.status_code == 200 and body["date"] == "2025-06-01"
    assert body["code"] == puzzle_code(daily_puzzle(date(2025, 6, 1)))
    assert body["difficulty"] == "hard"  # a Sunday
    assert client.get(f"{BASE}/daily").status_code == 200


@pytest.mark.parametrize(
    ("url", "field", "status"),
    [
        (f"{BASE}?difficulty=impossible", "difficulty", 400),
        (f"{BASE}?seed=abc", "seed", 400),
        (f"{BASE}?seed=-3", "seed", 400),
        (f"{BASE}?seed=99999999999999999999", "seed", 400),
        (f"{BASE}?reveal=yes", "reveal", 400),
        (f"{BASE}?minimal=2", "minimal", 400),
        (f"{BASE}/not-a-code", "code", 404),  # of the code's letters: names no puzzle
        (f"{BASE}/not%20a%20code", "code", 400),
        (f"{BASE}/{'A' * 80}", "code", 400),
        (f"{BASE}/daily?date=yesterday", "date", 400),
    ],
)
def test_bad_requests_name_the_field(client, url, field, status):
    r = client.get(url)
    assert r.status_code == status
    assert r.get_json()["error"]["field"] == field


def test_a_checksum_valid_code_that_is_no_puzzle_is_404(client):
    import base64
    import zlib

    raw = bytes([1, 1, 3, 1, 0])
    raw += bytes([zlib.crc32(raw) & 0xFF])
    code = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    r = client.get(f"{BASE}/{code}")
    assert r.status_code == 404 and r.get_json()["error"]["field"] == "code"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"space": [999, 999]}, "space"),
        ({"space": "here"}, "space"),
        ({"space": [1]}, "space"),
        ({"space": [0, 0], "extra": 1}, "extra"),
        ({"space": [0, 0], "lang": "fr"}, "lang"),
        ({}, "space"),
    ],
)
def test_bad_check_bodies_are_refused(client, body, field):
    code = client.get(f"{BASE}?difficulty=easy&seed=1").get_json()["code"]
    r = client.post(f"{BASE}/{code}/check", json=body)
    assert r.status_code == 400
    assert r.get_json()["error"]["field"] == field


def test_check_with_bad_code_or_non_json_body(client):
    assert client.post(f"{BASE}/xyz/check", json={"space": [0, 0]}).status_code == 404
    assert client.post(f"{BASE}/x.z/check", json={"space": [0, 0]}).status_code == 400
    code = client.get(f"{BASE}?difficulty=easy&seed=1").get_json()["code"]
    r = client.post(f"{BASE}/{code}/check", data="not json", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "body"


def test_routes_are_in_the_openapi_document(client):
    doc = client.get("/openapi.json").get_json()
    for path in (BASE, f"{BASE}/daily", f"{BASE}/{{code}}", f"{BASE}/{{code}}/check"):
        assert path in doc["paths"], path


# --- pages --------------------------------------------------------------------------------


def test_list_page_shows_each_difficulty_and_the_daily_puzzle(client):
    r = client.get("/puzzles")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    for d in ("easy", "medium", "hard", "daily"):
        assert f'id="group-{d}"' in html or f'id="{d}"' in html
    zh = client.get("/puzzles?lang=zh")
    assert "每日一題" in zh.get_data(as_text=True)
    assert "lang=zh" in zh.headers.get("Set-Cookie", "")
    assert "每日一題" in client.get("/puzzles").get_data(as_text=True)  # the cookie sticks


def test_puzzle_page_shows_clues_but_not_the_answer(client):
    body = client.get(f"{BASE}?difficulty=medium&seed=4&reveal=true").get_json()
    html = client.get(f"/puzzles/{body['code']}").get_data(as_text=True)
    for c in body["clue_text"]:
        assert c["en"] in html
    assert 'class="hex terrain-' in html and "data-q=" in html
    assert body["conclusion"]["en"] not in html
    assert all(s["text"]["en"] not in html for s in body["steps"])
    assert "highlight" not in html.split("</style>", 1)[1]  # no space is marked


def test_daily_page_redirects_to_the_puzzle(client):
    r = client.get("/puzzles/daily?date=2025-06-02")
    assert r.status_code == 302
    assert r.headers["Location"].endswith(puzzle_code(daily_puzzle(date(2025, 6, 2))))


def test_print_sheet_has_n_puzzles_and_the_key_on_its_own_page(client):
    r = client.get("/puzzles/sheet?count=3&difficulty=hard&seed=20&print=1")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and r.mimetype == "text/html"
    assert html.count('class="sheet-puzzle"') == 3
    assert html.count('class="key-item"') == 3
    assert "break-before: page" in html and "@media print" in html
    assert "url_for" not in html and "<link" not in html  # standalone
    zh = client.get("/puzzles/sheet?count=2&print=1&lang=zh").get_data(as_text=True)
    assert "解答" in zh
    form = client.get("/puzzles/sheet").get_data(as_text=True)
    assert "<iframe" in form and "print=1" in form
    assert client.get("/puzzles/sheet?count=0&print=1").status_code == 400
    assert client.get("/puzzles/sheet?count=500&print=1").status_code == 400


def test_home_links_to_puzzles(client):
    assert 'href="/puzzles"' in client.get("/").get_data(as_text=True)


def test_puzzle_pages_follow_the_browsers_language_without_lang_or_cookie(client):
    """Neither ``?lang=`` nor the cookie: the site's choice (``web.i18n``, the browser's
    languages), as on every other page."""
    zh = client.get("/puzzles", headers={"Accept-Language": "zh-TW,zh;q=0.9"})
    en = client.get("/puzzles", headers={"Accept-Language": "fr, en;q=0.5"})
    assert zh.status_code == en.status_code == 200
    assert '<html lang="zh-Hant"' in zh.get_data(as_text=True)
    assert '<html lang="en"' in en.get_data(as_text=True)
