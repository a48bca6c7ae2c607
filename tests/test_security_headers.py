"""Every answer carries the security headers of ``web/security.py``, and every page still works
under them.

Over real HTTP (gunicorn as ``make run`` starts it): every page route of the app (found in its
URL map, filled in with a real game of each kind, a puzzle code and a rules page), static files,
pictures, API answers and API errors all carry the strict Content-Security-Policy, ``nosniff``,
``Referrer-Policy: no-referrer`` and ``X-Frame-Options``. Then Chromium opens every page and
the API docs page: the policy refuses nothing and no script fails (``tests.browser_support``
collects both in ``page.js_errors``).
"""

from __future__ import annotations

import re

import pytest
import requests

from app import create_app
from tests.browser_support import browser, live_server, new_page  # noqa: F401 (fixtures)
from tests.servers import gunicorn_in
from web.security import content_security_policy

EXPECTED = {
    "Content-Security-Policy": content_security_policy(),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "SAMEORIGIN",
}


def page_urls(url: str, rules: list[str]) -> list[str]:
    """Every GET page of the app (its URL map's ``rules``), parameters filled in with real
    things made through ``url``."""
    kinds = requests.get(url + "/api/games/kinds", timeout=10).json()["kinds"]
    games = {}
    for kind in kinds:
        n = kind["min_seats"]  # the smallest table: bots but one human
        seats = [{"type": "human"}] + [{"type": "human", "open": True}] * (n - 1)
        body = {"game": kind["name"], "seats": seats, "seed": 3}
        games[kind["name"]] = requests.post(url + "/api/games", json=body, timeout=30).json()["id"]
    code = requests.get(url + "/api/tobago/puzzles?seed=1&difficulty=easy", timeout=30).json()
    account = {"name": "Header_Player", "password": "a long enough pass phrase"}
    made = requests.post(url + "/api/accounts", json=account, timeout=30)
    assert made.status_code in (201, 409), made.text  # 409: made by the other test already
    out = []
    expanded = []
    for path in rules:  # a route for every kind (review, generic game page) is visited for each
        path = path.replace("<kind:kind>", "<kind>")
        names = games if "<kind>" in path else [None]
        expanded += [path.replace("<kind>", name) if name else path for name in names]
    for path in expanded:
        kind = path.split("/")[1]
        path = path.replace("<game_id>", games.get(kind, "nosuchgame12"))
        path = path.replace("<int:seat>", "1").replace("<code>", code["code"])
        path = path.replace("<game>", "tobago").replace("<name>", account["name"])
        assert "<" not in path, path
        out.append(url + path)
    return out


@pytest.fixture(scope="module")
def rules(tmp_path_factory) -> list[str]:
    """The app's GET page rules (neither API nor static files, nor the site icon: a picture)."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("map") / "x.db")})
    return [
        r.rule
        for r in app.url_map.iter_rules()
        if "GET" in r.methods
        and not r.rule.startswith(("/api/", "/static/"))
        and r.rule != "/favicon.ico"
    ]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with gunicorn_in(tmp_path_factory.mktemp("headers"), workers=1, threads=4) as srv:
        yield srv


def assert_secured(resp: requests.Response) -> None:
    for name, value in EXPECTED.items():
        assert resp.headers.get(name) == value, (resp.url, name, resp.headers.get(name))


def test_the_policy_allows_no_inline_script_and_nothing_from_elsewhere():
    policy = dict(p.split(" ", 1) for p in content_security_policy().split("; "))
    assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'"
    assert "unsafe" not in content_security_policy() and "http" not in content_security_policy()
    styles = policy["style-src"].split()
    assert styles[0] == "'self'" and all(
        re.fullmatch(r"'sha256-[A-Za-z0-9+/=]+'", s) for s in styles[1:]
    )
    assert policy["object-src"] == "'none'" and policy["base-uri"] == "'none'"


def test_every_page_carries_the_headers(server, rules):
    urls = page_urls(server.url, rules)
    assert len(urls) >= 20
    for url in urls:
        resp = requests.get(url, timeout=30)
        # The analysis chart exists once a finished game's analysis does: 404 before, secured too.
        assert resp.status_code == (404 if url.endswith("/review/chart.svg") else 200), url
        assert_secured(resp)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/games/kinds", 200),
        ("GET", "/api/tobago/islands/classic-2.svg", 200),
        ("GET", "/openapi.json", 200),
        ("GET", "/static/site.css", 200),
        ("GET", "/static/common/gameclient.js", 200),
        ("POST", "/api/games", 400),
        ("GET", "/api/games/nosuchgame12", 404),
        ("GET", "/no/such/page", 404),
        ("DELETE", "/api/games", 405),
    ],
)
def test_api_answers_pictures_static_files_and_errors_carry_them(server, method, path, status):
    resp = requests.request(method, server.url + path, json={} if method == "POST" else None)
    assert resp.status_code == status
    assert_secured(resp)


def test_a_413_and_a_created_game_carry_them(server):
    big = requests.post(server.url + "/api/games", data=b"x" * (2 << 20), timeout=30)
    assert big.status_code == 413
    assert_secured(big)
    body = {"game": "dao", "seats": [{"type": "bot"}] * 2}
    created = requests.post(server.url + "/api/games", json=body, timeout=30)
    assert created.status_code == 201
    assert_secured(created)


@pytest.mark.browser
def test_every_page_works_in_chromium_under_the_policy(browser, live_server, rules):  # noqa: F811
    page = new_page(browser)
    for url in page_urls(live_server, rules) + [live_server + "/api/docs"]:
        page.goto(url, wait_until="load")
        page.wait_for_timeout(400)  # the modules run (game pages keep a long-poll open)
        assert page.js_errors == [], url
    page.goto(live_server + "/api/docs")
    page.get_by_text("/api/games/{game_id}/actions").first.wait_for()
    assert page.js_errors == []
