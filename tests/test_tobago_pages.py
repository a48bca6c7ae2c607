"""The Tobago pages without a browser: languages (catalogues, choice order, cookie), the rules
pages, every page in both languages, and the deduction helper's endpoint (known answers, errors).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hexmap.catalog import classic_island
from i18n import has, lookup, shared_key
from solver.places import place_name, place_short
from tests.islands import stripes_island
from tests.kinds import BUILTIN
from tests.places_support import COORDS
from web.i18n import catalogue, clue_sentences

ROOT = Path(__file__).resolve().parents[1]
PAGES = [
    "/",
    "/tobago",
    "/tobago/new",
    "/tobago/games/TOBAGO",
    "/tobago/games/TOBAGO/join/1",
    "/dao/games/DAO",
    "/dao/games/DAO/join/1",
    "/tobago/playground",
    "/rules",
    "/rules/tobago",
    "/rules/dao",
    "/rules/isla_dorada",
    "/rules/dragons_gold",
]
KEY = re.compile(r"\b(?:site|home|game|new|pg|helper|hub|join|seat|ev|rules)\.[a-z_]+[a-z0-9_]*\b")


def _visible_text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", "", html, flags=re.S))


def test_catalogues_have_the_same_keys_and_placeholders():
    en, zh = catalogue("en"), catalogue("zh")
    from i18n import _load

    assert set(en) == set(_load("zh")), "every key in both languages"
    for key, text in en.items():
        assert _names(text) == _names(zh[key]), key
        if isinstance(text, dict):  # a plural: English has both forms, Chinese "other" only
            assert set(text) == {"one", "other"} and set(zh[key]) == {"other"}, key


def _names(value) -> set[str]:
    """The placeholders of a catalogue value (of a plural's ``other`` form)."""
    text = value["other"] if isinstance(value, dict) else value
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_plural_message_the_pages_ask_for_is_given_its_count():
    """A plural catalogue value is chosen by ``count``: a call that passes ``n`` instead would
    always show the "other" form ("1 candidates")."""
    plural = {k for k, v in catalogue("en").items() if isinstance(v, dict)}
    assert len(plural) > 15
    calls = 0
    for path in ROOT.glob("static/**/*.js"):
        if "vendor" in path.parts:
            continue
        text = path.read_text("utf-8")
        for key, params in re.findall(r"""\bt\(\s*["'`]([\w.]+)["'`]\s*,\s*(\{[^}]*\})""", text):
            if key in plural:
                calls += 1
                assert re.search(r"(?<![.\w])count\s*[:,}]", params), (path.name, key, params)
    assert calls > 15


def test_every_key_the_pages_use_is_in_the_catalogue():
    used: set[str] = set()
    for path in [*ROOT.glob("static/tobago/*.js"), *ROOT.glob("static/common/*.js")]:
        used |= set(re.findall(r"\bt\(\"([a-z_]+\.[a-z_0-9]+)\"\s*[,)]", path.read_text("utf-8")))
    for path in [*ROOT.glob("templates/tobago/*.html"), *ROOT.glob("templates/*.html")]:
        used |= set(re.findall(r"tr\('([a-z_]+\.[a-z_0-9]+)'\s*[,)]", path.read_text("utf-8")))
    used |= set(
        re.findall(r'"(helper\.reason_[a-z_]+)"', (ROOT / "web/tobago_pages.py").read_text())
    )
    assert len(used) > 150
    assert not {k for k in used if not has("en", k)}  # its own words or the shared ones


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_renders_in_both_languages(client, lang):
    marker = {"en": 'lang="en"', "zh": 'lang="zh-Hant"'}[lang]
    ids = {kind.upper(): _game(client, kind) for kind in ("tobago", "dao")}
    for url in PAGES:
        for name, game_id in ids.items():
            url = url.replace(f"/{name}", f"/{game_id}")
        resp = client.get(f"{url}?lang={lang}")
        assert resp.status_code == 200, url
        html = resp.get_data(as_text=True)
        assert f"<html {marker}>" in html, url
        assert not KEY.findall(_visible_text(html)), (url, KEY.findall(_visible_text(html)))
        assert 'aria-current="true"' in html  # the language switch marks the current language


def test_language_choice_order_and_cookie(client):
    zh = {"Accept-Language": "zh-TW,zh;q=0.9"}
    assert 'lang="zh-Hant"' in client.get("/", headers=zh).get_data(as_text=True)
    assert '<html lang="en">' in client.get("/?lang=en", headers=zh).get_data(as_text=True)
    # ?lang= set the cookie, which now wins over the browser's preference
    assert client.get_cookie("lang").value == "en"
    assert '<html lang="en">' in client.get("/tobago/new", headers=zh).get_data(as_text=True)
    client.get("/?lang=zh")
    assert client.get_cookie("lang").value == "zh"
    page = client.get("/tobago/playground").get_data(as_text=True)
    assert "推理實驗室" in page
    data = json.loads(re.search(r'id="i18n-data">(.*?)</script>', page).group(1))
    assert data["lang"] == "zh"
    assert (
        data["clues"]["!near2:sea"] == clue_sentences("zh")["!near2:sea"] == "不在距離海洋2格以內"
    )
    assert data["strings"]["terrain.jungle"] == "樹林"


def _game(client, kind: str) -> str:
    """A new game of ``kind`` (two human seats), its id."""
    seats = [{"type": "human"}, {"type": "human", "open": True}, {"type": "human"}]
    return client.post("/api/games", json={"game": kind, "seats": seats}).get_json()["id"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrong_address_is_a_404_page_in_the_site_layout_with_a_way_back(client, lang):
    tobago = _game(client, "tobago")
    cases = {
        "/no/such/page": "errorpage.not_found",
        "/tobago/games/nosuchgame": "error.no_such_game",
        "/tobago/games/nosuchgame/join/1": "error.no_such_game",
        f"/dao/games/{tobago}": "error.no_such_game",  # a Tobago game is no DAO game
        "/puzzles/NOT-A-CODE": "error.no_such_puzzle",
    }
    cat = catalogue(lang)
    for url, key in cases.items():
        resp = client.get(f"{url}?lang={lang}")
        assert resp.status_code == 404 and resp.mimetype == "text/html", url
        html = resp.get_data(as_text=True)
        assert f"<h1>{cat['errorpage.title_404']}</h1>" in html, url
        assert cat[key] in html and 'href="/"' in html and '<main id="main"' in html, url
    assert client.get("/api/no/such").get_json()["error"]["code"] == "not_found"  # JSON stays


def test_the_site_answers_favicon_ico(client):
    resp = client.get("/favicon.ico")
    assert resp.status_code == 200 and resp.data[:4] == b"\x00\x00\x01\x00"  # an ICO file


def test_the_site_menu_names_every_playable_game_and_footers_name_their_game(client):
    home = client.get("/?lang=en").get_data(as_text=True)
    nav = re.search(r'<nav class="site-nav".*?</nav>', home, re.S).group(0)
    assert 'href="/tobago"' in nav and 'href="/dao"' in nav  # each game's lobby
    dao = client.get("/dao/new?lang=en").get_data(as_text=True)
    footer = re.search(r"<footer.*?</footer>", dao, re.S).group(0)
    assert 'href="/rules/dao"' in footer and "Tobago rules" not in footer
    tobago = client.get("/tobago/new?lang=en").get_data(as_text=True)
    assert 'href="/rules/tobago"' in re.search(r"<footer.*?</footer>", tobago, re.S).group(0)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_join_page_serves_every_game_in_its_own_words(client, lang):
    from markupsafe import escape

    from web.game_pages import JOIN_KEYS
    from web.game_site import sites

    for pages in sites():
        prefix = pages.join_strings
        keys = {prefix + name for name in JOIN_KEYS}
        assert all(has(lang, k) for k in keys), {k for k in keys if not has(lang, k)}
        game = _game(client, pages.kind)
        html = client.get(f"/{pages.kind}/games/{game}/join/1?lang={lang}").get_data(as_text=True)
        assert f"<h1>{escape(lookup(lang, prefix + 'title'))}</h1>" in html
        assert f'data-kind="{pages.kind}" data-strings="{prefix}"' in html
        assert f'data-game="{game}" data-seat="1"' in html
        assert "common/join.js" in html and pages.stylesheet in html
        data = json.loads(re.search(r'id="i18n-data">(.*?)</script>', html).group(1))
        assert all(k in data["strings"] or shared_key(k) in data["strings"] for k in keys)
        assert data["clues"] == {}
        assert client.get(f"/{pages.kind}/games/{'x' * 65}/join/0").status_code == 404


CLIENT_KEYS = ("not_found",)


def _own_game_pages() -> list[tuple[str, str, str]]:
    """Every registered game with a game page of its own: its kind, its page script, the prefix
    of its page's strings."""
    from web.game_site import sites

    return [
        (s.kind, s.game_page.script, s.game_page.strings)
        for s in sites()
        if s.game_page is not None
    ]


@pytest.mark.parametrize(("kind", "page", "prefix"), _own_game_pages())
def test_shared_page_scripts_find_their_messages_for_every_game(kind, page, prefix):
    """A shared script in ``static/common/`` builds these keys from the prefix the game's page
    hands it: the game's catalogue entries (or the shared words) must exist in both languages."""
    shared = (ROOT / "static/common/gameclient.js").read_text("utf-8")
    assert all(f"}}{name}`" in shared for name in CLIENT_KEYS)
    assert f'strings: "{prefix}"' in (ROOT / "static" / page).read_text("utf-8"), kind
    for lang in ("en", "zh"):
        assert all(has(lang, prefix + name) for name in CLIENT_KEYS), (kind, lang)


def test_rules_pages_render_markdown_in_the_chosen_language(client):
    en = client.get("/rules/tobago?lang=en").get_data(as_text=True)
    assert "<table>" in en and "<h2>Your turn</h2>" in en
    zh = client.get("/rules/tobago?lang=zh").get_data(as_text=True)
    assert "<h1>多巴戈</h1>" in zh and "<table>" in zh and "<h2>你的回合</h2>" in zh
    for game in (k for k in BUILTIN if k != "tobago"):
        assert (ROOT / "web/rules/zh" / f"{game}.md").exists()
        assert "untranslated" not in client.get(f"/rules/{game}?lang=zh").get_data(as_text=True)
    assert client.get("/rules/chess").status_code == 404
    # "Play" next to the rules of each game playable in the browser, and only there
    for game, play in (
        ("tobago", "/tobago/new"),
        ("dao", "/dao/new"),
        ("isla_dorada", "/isla_dorada/new"),
    ):
        html = client.get(f"/rules/{game}?lang=en").get_data(as_text=True)
        links = re.findall(r'<p><a href="/rules">.*?</p>', html)[0]
        assert re.findall(r'href="([^"]+)"', links) == (["/rules", play] if play else ["/rules"])


def _stripes() -> dict:
    return stripes_island().to_json()


def test_helper_explains_ranks_and_measures(client):
    body = {
        "island": _stripes(),
        "maps": [{"id": "white", "clues": ["in:jungle"]}, {"id": "grey"}],
        "hand": ["near1:palm", "in:lake"],
        "me": [5, 0],
        "others": [[1, 4]],
        "lang": "en",
    }
    out = client.post("/api/tobago/helper", json=body).get_json()
    white, grey = out["maps"]
    assert white["count"] == 5 and grey["count"] == 30
    assert {"space": [1, 0], "by": 0, "own": False} in white["excluded"]
    assert white["steps"] == [{"index": None, "remaining": 30}, {"index": 0, "remaining": 5}]
    # costs to the nearest jungle space: five terrain steps for me, one for the rival on beach
    assert white["costs"] == [5, 1]
    assert grey["costs"] == [0, 0]
    plays = {(h["clue"], h["map"]): h for h in out["hints"]}
    located = plays[("near1:palm", "white")]
    assert located["remaining"] == 1 and located["candidates"] == [[0, 1]]
    assert located["reason"].startswith("locates the treasure")
    assert "a rival gets there first" in located["reason"]
    assert ("in:lake", "white") not in plays  # no lake space is jungle: not a legal play
    assert plays[("in:lake", "grey")]["remaining"] == 5
    # every hand card and map that is no legal play, and why (the disabled buttons' words)
    assert {(r["hand_index"], r["map"], r["reason"]) for r in out["refusals"]} == {
        (1, "white", "removes_every_candidate")
    }
    zh = client.post("/api/tobago/helper", json={**body, "lang": "zh"}).get_json()
    reasons = {(h["clue"], h["map"]): h["reason"] for h in zh["hints"]}
    assert reasons[("near1:palm", "white")].startswith("定位了寶藏")
    assert zh["hints"][0]["sentence"] in clue_sentences("zh").values()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_helper_names_spaces_and_words_hints_as_a_player_would(client, lang):
    """Asked once per island, the helper names every space as a player finds it (no
    coordinates); its hint reasons are words (movement points), never a raw score."""
    island = classic_island("classic-2", 3)
    body = {
        "island": {"name": "classic-2", "landmarks_seed": 3},
        "maps": [{"id": "white", "clues": ["in:jungle"]}],
        "hand": ["near1:palm", "in:lake", "!near2:sea"],
        "me": [island.index[0].q, island.index[0].r],
        "others": [[island.index[-1].q, island.index[-1].r]],
        "lang": lang,
    }
    plain = client.post("/api/tobago/helper", json=body)
    assert plain.status_code == 200 and "places" not in plain.get_json()
    out = client.post("/api/tobago/helper", json={**body, "places": True}).get_json()
    named = {tuple(p["space"]): p for p in out["places"]}
    assert set(named) == {(h.q, h.r) for h in island.index}
    for h in island.index[::7]:
        assert named[(h.q, h.r)]["name"] == place_name(island, h, lang)
        assert named[(h.q, h.r)]["short"] == place_short(island, h, lang)
    words = [p["name"] for p in out["places"]] + [p["short"] for p in out["places"]]
    words += [x["reason"] for x in out["hints"]]
    assert out["hints"] and not any(COORDS.search(w) for w in words)
    assert not any(re.search(r"\d\.\d|score|分數", x["reason"]) for x in out["hints"])
    unit = "movement point" if lang == "en" else "行動點"
    assert any(unit in x["reason"] for x in out["hints"])


def test_helper_says_a_space_is_out_for_being_the_near_clues_own_target(client):
    """'Within 1 of the palm' rules out the palm's own space (0 away): the helper says so."""
    body = {"island": _stripes(), "maps": [{"id": "white", "clues": ["near1:palm"]}], "lang": "en"}
    out = client.post("/api/tobago/helper", json=body).get_json()
    own = {tuple(x["space"]) for x in out["maps"][0]["excluded"] if x["own"]}
    assert own == {(0, 0)}
    body["options"] = {"near_includes_target": True}
    out = client.post("/api/tobago/helper", json=body).get_json()
    assert not any(x["own"] for x in out["maps"][0]["excluded"])


def test_helper_refuses_bad_input_and_names_the_field(client):
    base = {"island": _stripes(), "maps": [{"id": "white"}]}
    cases = [
        ({**base, "hand": ["near3:sea"]}, 400, "hand[0]"),
        ({**base, "me": [40, 40]}, 400, "me"),
        ({**base, "maps": [{"id": "white", "clues": ["in:palm"]}]}, 400, "maps[0].clues[0]"),
        ({**base, "lang": "fr"}, 400, "lang"),
        ({**base, "places": "yes"}, 400, "places"),
        ({"island": {"name": "classic-9"}, "maps": []}, 404, "island.name"),
        ({**base, "include_island": False}, 400, "include_island"),
        ({**base, "others": [[0, 0]] * 9}, 400, "others"),
        ({**base, "others": [[0, True]]}, 400, "others[0][1]"),
        (
            {**base, "maps": [{"id": "white", "removed": [[0, 0], [7, 7]]}]},
            400,
            "maps[0].removed[1]",
        ),
    ]
    for body, status, field in cases:
        resp = client.post("/api/tobago/helper", json=body)
        assert resp.status_code == status, body
        assert resp.get_json()["error"]["field"] == field, resp.get_json()


def test_the_helper_and_the_solve_endpoint_give_one_answer(client):
    """Both take each map's answer from solver.answer: same counts, same exclusions, same order."""
    maps = [
        {"id": "white", "clues": ["!in:jungle", "near1:statue"], "removed": [[3, 2]]},
        {"id": "grey", "clues": ["in:largest:beach"]},
    ]
    options = {"treasure_on_landmarks": False}
    body = {"island": _stripes(), "maps": maps, "options": options}
    solved = client.post("/api/tobago/solve", json=body).get_json()
    helped = client.post("/api/tobago/helper", json=body).get_json()
    for s, h in zip(solved["maps"], helped["maps"], strict=True):
        # the helper adds "own" (a near clue's own target) to each excluded item
        plain = [{k: v for k, v in e.items() if k != "own"} for e in h["excluded"]]
        assert s["count"] == h["count"] and s["excluded"] == plain
    assert [e["by"] for e in helped["maps"][0]["excluded"]][:2] == ["landmark", "landmark"]


def test_the_chinese_rules_say_what_the_corrected_english_rules_say(client):
    """web/rules/zh/tobago.md says what the English page says of the corrected rules: an amulet
    takes a space off any map (never the last), a curse discards the other undealt cards (only
    curses leave the game), a treasure card's value is public when it is offered."""
    zh = client.get("/rules/tobago?lang=zh").get_data(as_text=True)
    assert "從任何一張藏寶圖上拿掉一個可能的格子（不能拿掉最後一格）" in zh
    assert "還沒分出去的牌全部棄掉（詛咒移出遊戲）" in zh
    assert "詛咒牌和所有還沒發出的牌離開遊戲" not in zh  # the old rule
    assert "寶藏牌被詢問時是翻開的，所有人都看得到面額" in zh
    en = client.get("/rules/tobago?lang=en").get_data(as_text=True)
    assert "take one possible space off any map (never its last one)" in en
    assert "Every card not yet handed out is discarded (curses leave" in en
    assert "value is seen by all when it is offered" in en
