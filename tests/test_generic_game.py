"""A game the site has never heard of, registered in the test suite only (Blind Auction,
``tests/testgame.py``): with no file of the project touched it gets the API, the generic game and
join pages in both languages, and the review (positions; an analysis once a descriptor of its own
names an analyst). The browser half (playing it, axe-core) is ``test_generic_game_browser.py``.
"""

from __future__ import annotations

import json
import re

import pytest
from markupsafe import escape

from app import create_app
from i18n import has, lookup, shared_key
from tests.bots import bots_move
from tests.testgame import BID_ANALYST, NAME, STRINGS, registered
from web import game_site
from web.game_pages import JOIN_KEYS
from web.game_site import GameSite, site_of

HUMAN = {"type": "human"}
FRIEND = {"type": "human", "open": True}
GREEDY = {"type": "bot", "level": "greedy"}


@pytest.fixture(autouse=True)
def _registered():
    with registered() as mp:
        yield mp


def _strings(html: str) -> dict:
    return json.loads(re.search(r'id="i18n-data">(.*?)</script>', html).group(1))["strings"]


def _finished(client) -> tuple[str, list]:
    """A finished 2-seat game (3 rounds, me against the greedy bot), its id and my seat's log."""
    made = client.post(
        "/api/games", json={"game": NAME, "seats": [HUMAN, GREEDY], "options": {"rounds": 3}}
    ).get_json()
    token = made["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    bots_move(client)
    snap = client.get(f"/api/games/{made['id']}", headers=auth).get_json()
    while not snap["over"]:
        body = {"version": snap["version"], "action": snap["legal_actions"][0]}
        client.post(f"/api/games/{made['id']}/actions", json=body, headers=auth)
        bots_move(client)  # the table's bot answers
        snap = client.get(f"/api/games/{made['id']}", headers=auth).get_json()
    return made["id"], snap


def test_a_kind_without_a_web_module_gets_the_generic_descriptor():
    site = site_of(NAME)
    assert site == GameSite(NAME)
    assert (site.title, site.review_script, site.analyst) == (
        f"games.{NAME}.title",
        "review/generic.js",
        None,
    )
    assert not site.listed and not site.rules and not site.own_game_page
    assert NAME not in {s.kind for s in game_site.listed_sites()}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_generic_game_page_serves_it_in_both_languages(client, lang):
    game = client.post("/api/games", json={"game": NAME, "seats": [HUMAN, FRIEND]}).get_json()
    resp = client.get(f"/{NAME}/games/{game['id']}?lang={lang}")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    title = STRINGS[lang][f"games.{NAME}.title"]
    assert f"<h1>{title}</h1>" in html and f'data-kind="{NAME}"' in html
    assert 'data-renderer="/static/review/generic.js"' in html and "play/play.js" in html
    strings = _strings(html)
    used = set(re.findall(r't\("(play\.[a-z_]+)"', _script("play/play.js")))
    missing = {k for k in used if k not in strings and shared_key(k) not in strings}
    assert used and not missing, missing  # its own words, or the shared ones they stand for
    assert f"games.{NAME}.actions.bid" in strings  # the kind's own words reach the page
    assert {"review.seat_n", "review.table", "review.position"} <= set(strings)  # the renderer's
    for name in ("speed", "seat_switch", "not_found", "speed_instant"):
        assert has(lang, f"play.{name}")
    # the join page of a friend's seat, in the generic join strings
    join = client.get(f"/{NAME}/games/{game['id']}/join/1?lang={lang}").get_data(as_text=True)
    assert f"<h1>{escape(lookup(lang, 'play.join_title'))}</h1>" in join
    assert f'data-kind="{NAME}" data-strings="play.join_"' in join
    join_strings = _strings(join)
    assert all(
        f"play.join_{k}" in join_strings or f"page.join_{k}" in join_strings for k in JOIN_KEYS
    )
    assert 'href="/rules"' in join  # no rules page of its own: the footer links them all


def _script(path: str) -> str:
    from pathlib import Path

    return (Path(__file__).resolve().parents[1] / "static" / path).read_text("utf-8")


def test_the_generic_page_refuses_what_is_not_a_game_of_that_kind(client):
    dao = client.post("/api/games", json={"game": "dao", "seats": [HUMAN, HUMAN]}).get_json()
    assert client.get(f"/{NAME}/games/{dao['id']}").status_code == 404  # a DAO game
    assert client.get(f"/{NAME}/games/{'x' * 65}").status_code == 404
    assert client.get("/no_such_kind/games/abcdefabcdef").status_code == 404
    # a built-in kind keeps its own page; the generic route never serves it
    assert "dao/game.js" in client.get(f"/dao/games/{dao['id']}").get_data(as_text=True)
    # an API address that matches no API route stays the API's 404, not a page's 405
    resp = client.post("/api/games/short")
    assert resp.status_code == 404 and resp.get_json()["error"]["code"] == "not_found"


def test_the_api_and_the_review_serve_it(client):
    kinds = {k["name"]: k for k in client.get("/api/games/kinds").get_json()["kinds"]}
    assert kinds[NAME]["title"] == "Blind Auction" and kinds[NAME]["title_zh"] == "暗標拍賣"
    game_id, snap = _finished(client)
    assert snap["over"] and snap["scores"] is not None
    page = client.get(f"/{NAME}/games/{game_id}/review?lang=zh")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'data-renderer="/static/review/generic.js"' in html and "暗標拍賣" in html
    step = client.get(f"/api/games/{game_id}/positions/{snap['version']}?seat=0").get_json()
    assert step["view"] == snap["view"] and step["helper"] is None
    everyone = client.get(f"/api/games/{game_id}/positions/1").get_json()
    assert "hand" not in everyone["view"] and everyone["move"]["action"] is not None
    analysis = client.get(f"/api/games/{game_id}/analysis").get_json()
    assert analysis["status"] == "unavailable"


def test_a_descriptor_of_its_own_brings_an_analyst_to_the_review(tmp_path, _registered):
    _registered.setitem(game_site._SITES, NAME, GameSite(NAME, analyst=BID_ANALYST))
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "g.sqlite3"), "REVIEW_BACKGROUND": False}
    )
    client = app.test_client()
    game_id, _ = _finished(client)
    done = client.get(f"/api/games/{game_id}/analysis").get_json()
    assert done["status"] == "done", done
    result = done["analysis"]
    assert result["game"] == NAME and result["unit"] == "points"
    mine = [d for d in result["decisions"] if d["seat"] == 0]
    assert len(mine) == 3  # 4 cards for 3 rounds: every bid is a choice
    for d in mine:
        assert d["mark"] in ("best", "good", "inaccuracy", "mistake")
        assert d["best_value"] >= d["played_value"]
