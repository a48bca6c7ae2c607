"""The lobby pages without a browser: ``/<kind>`` is every game's lobby (the built-in games', and
a kind without a web module's through the generic pages), built from the game's descriptor (its
title, its links, its seat bounds, its bot levels' words); the menu and the home page lead there;
every new-game page offers the table's settings. The page in a browser:
``tests/test_lobby_browser.py``."""

from __future__ import annotations

import json
import re

import pytest
from markupsafe import escape

from i18n import catalogue, translate
from tests.kinds import BUILTIN
from tests.testgame import NAME, registered
from web.game_site import listed_sites, site_of


def _data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="lobby-data">(.*?)</script>', html)
    assert found, "no #lobby-data"
    return json.loads(found.group(1))


def _links(html: str) -> list[str]:
    nav = re.search(r'<nav class="links-row".*?</nav>', html, re.S)
    assert nav
    return re.findall(r'href="([^"]+)"', nav.group(0))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", BUILTIN)
def test_every_game_has_its_lobby(client, name, lang):
    site = site_of(name)
    kind = site.game_kind
    resp = client.get(f"/{name}?lang={lang}")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    words = catalogue(lang)
    assert f"<h1>{escape(translate(lang, 'lobby.title', game=words[site.title]))}</h1>" in html
    data = _data(html)
    assert data["kind"] == name and data["title"] == words[site.title]
    assert (data["min_seats"], data["max_seats"]) == (kind.type.min_seats, kind.type.max_seats)
    assert set(data["levels"]) == set(kind.bots)  # every level and alias a seat may carry
    assert data["levels"]["easy"] == words["lobby.level_easy"]
    assert data["account"] is None
    links = _links(html)
    assert links[0] == f"/{name}/new" and f"/rules/{name}" in links and links[-1] == "/review"
    if name == "tobago":
        assert "/tobago/playground" in links and "/puzzles" in links
    for control in ("quick-play", "player-name", "seats-from", "seats-to", "time-control"):
        assert f'id="{control}"' in html, control
    options = re.findall(r'<select id="seats-from">(.*?)</select>', html, re.S)[0]
    seats = re.findall(r'value="(\d+)"', options)
    assert seats == [str(n) for n in range(kind.type.min_seats, kind.type.max_seats + 1)]
    strings = json.loads(re.search(r'id="i18n-data">(.*?)</script>', html).group(1))["strings"]
    assert {k for k in words if k.startswith("lobby.")} <= set(strings)
    assert "common/lobby.js" in html


def test_the_menu_and_the_home_page_lead_to_each_games_lobby(client):
    home = client.get("/?lang=en").get_data(as_text=True)
    nav = re.search(r'<nav class="site-nav".*?</nav>', home, re.S).group(0)
    for site in listed_sites():
        assert f'href="/{site.kind}"' in nav, site.kind
        article = re.search(
            rf'<article id="game-{site.kind.replace("_", "-")}".*?</article>', home, re.S
        )
        assert article and re.findall(r'href="([^"]+)"', article.group(0))[0] == f"/{site.kind}"


def test_a_signed_in_player_is_not_asked_a_name_and_is_led_to_my_games(client):
    signed = client.post(
        "/api/accounts", json={"name": "Lobby Lu", "password": "a long passphrase"}
    )
    assert signed.status_code == 201
    html = client.get("/dao?lang=en").get_data(as_text=True)
    assert 'id="player-name"' not in html and 'href="/me"' in html
    assert _data(html)["account"] == "Lobby Lu"


def test_a_kind_without_a_web_module_gets_the_lobby_too(client):
    with registered():
        html = client.get(f"/{NAME}?lang=en").get_data(as_text=True)
        data = _data(html)
        assert data["kind"] == NAME and data["title"] == "Blind Auction"
        assert data["levels"]["greedy"] == "greedy"  # no word for it: its name
        assert _links(html) == ["/review"]  # no new-game page, no rules
        assert client.get(f"/api/lobby/{NAME}").status_code == 200
        seated = client.post("/api/quick-play", json={"game": NAME, "seats": [2, 2]})
        assert seated.status_code == 200 and not seated.get_json()["joined"]
    assert client.get(f"/{NAME}").status_code == 404  # not registered: no such game
    assert client.get("/no_such_game").status_code == 404


@pytest.mark.parametrize("name", BUILTIN)
def test_every_new_game_page_offers_the_tables_settings(client, name):
    site = site_of(name)
    page = site.new_page
    assert page is not None and "anyone" in page.seat_types  # a seat the lobby lists
    html = client.get(f"/{name}/new?lang=en").get_data(as_text=True)
    assert 'id="table-rated" checked' in html
    fill = re.search(r'<select id="fill-after".*?</select>', html, re.S).group(0)
    assert re.findall(r'value="(\d*)"', fill) == ["", "60", "120", "300"]
    level = re.search(r'<select id="fill-level">.*?</select>', html, re.S).group(0)
    assert re.findall(r'value="([a-z]+)"', level) == list(site.game_kind.levels)
    assert f'value="{page.level}" selected' in level
