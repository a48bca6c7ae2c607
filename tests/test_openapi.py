"""``/openapi.json`` describes the API truthfully: schemathesis drives every documented operation
in-process (WSGI) with generated requests, valid and invalid, with every check (``--checks
all``: no 5xx, documented status codes, content types and bodies, valid data accepted, invalid
data refused) and the repository's ``schemathesis.toml``.

Game routes get a real game id (and sometimes a real seat token) for part of the cases, so the
success paths are exercised too, not only 404s. The example count is kept modest (a few per
operation and mode) so the file runs in well under a minute; the long run is over real HTTP in
``tests/test_schemathesis_http.py``.
"""

from __future__ import annotations

import random
import re
import shutil
import tempfile

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import ignored_auth

from app import create_app
from tests.bots import bots_move
from tests.servers import ROOT
from web.openapi import build_openapi
from web.service.sessions import new_game_id

_DB_DIR = tempfile.mkdtemp(prefix="openapi-test-")
app = create_app({"TESTING": True, "DATABASE": f"{_DB_DIR}/openapi.sqlite3"})
#: The repository's settings with every check on; examples and fuzzing (positive and negative
#: data); the coverage phase's exhaustive boundary cases run over HTTP instead.
CONFIG = schemathesis.Config.from_path(ROOT / "schemathesis.toml")
CONFIG.projects.override.checks.update(included_check_names=["all"])
CONFIG.projects.override.phases.update(phases=["examples", "fuzzing"])
schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=CONFIG)


def teardown_module() -> None:
    shutil.rmtree(_DB_DIR, ignore_errors=True)


def _real_games() -> dict:
    """A running game with a seat token and a finished one, of the first registered kind."""
    client = app.test_client()
    kinds = client.get("/api/games/kinds").get_json()["kinds"]
    if not kinds:
        return {}
    kind = kinds[0]
    n = kind["min_seats"]
    running = client.post(
        "/api/games", json={"game": kind["name"], "seats": [{"type": "human"}] * n, "seed": 1}
    ).get_json()
    bots = [{"type": "bot"}] * n
    over = client.post("/api/games", json={"game": kind["name"], "seats": bots, "seed": 2})
    bots_move(client)  # the bots play their game to its end
    return {
        "running": running["id"],
        "token": running["seats"][0]["token"],
        "over": over.get_json()["id"] if over.status_code == 201 else running["id"],
    }


REAL = _real_games()


def test_the_document_is_openapi_3_1_with_every_game_route():
    doc = app.test_client().get("/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1") and doc == build_openapi()
    paths = doc["paths"]
    for path, method in [
        ("/api/games", "post"),
        ("/api/games", "get"),
        ("/api/games/kinds", "get"),
        ("/api/games/{game_id}", "get"),
        ("/api/games/{game_id}/actions", "post"),
        ("/api/games/{game_id}/events", "get"),
        ("/api/games/{game_id}/record", "get"),
        ("/api/games/import", "post"),
        ("/api/games/{game_id}/seats/{index}/claim", "post"),
        ("/api/games/{game_id}/positions/{step}", "get"),
        ("/api/games/{game_id}/analysis", "get"),
        ("/api/games/{game_id}/chat", "post"),
        ("/api/games/{game_id}/chat", "get"),
    ]:
        op = paths[path][method]
        assert op["responses"] and op["summary"]
        for status, response in op["responses"].items():
            html = status == "414"  # gunicorn's own page, before the app
            assert ("text/html" if html else "application/json") in response["content"]
    stream = paths["/api/games/{game_id}/stream"]["get"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]
    assert {"400", "404", "409", "503"} <= set(stream["responses"])
    names = {p["name"] for p in stream["parameters"]}
    assert names == {"game_id", "after", "chat_after", "Last-Event-ID"}
    for write in (
        paths["/api/games/{game_id}/actions"]["post"],
        paths["/api/games/{game_id}/chat"]["post"],
    ):
        assert write["security"] == [{"bearerAuth": []}, {"cookieAuth": []}]  # a seat or a session
    post = paths["/api/games/{game_id}/actions"]["post"]
    assert {"429", "409", "400", "401", "403"} <= set(
        paths["/api/games/{game_id}/chat"]["post"]["responses"]
    )
    get = paths["/api/games/{game_id}"]["get"]
    assert get["security"] == [{"bearerAuth": []}, {"cookieAuth": []}, {}]  # spectators too
    for path, method in [
        ("/api/accounts", "post"),
        ("/api/session", "post"),
        ("/api/session", "delete"),
        ("/api/me", "get"),
        ("/api/me/games", "get"),
        ("/api/me/tokens", "post"),
        ("/api/players/{name}", "get"),
        ("/api/leaderboards/{kind}", "get"),
    ]:  # the accounts' paths clients rely on
        assert paths[path][method]["responses"]
    assert paths["/api/me/password"]["post"]["security"] == [{"cookieAuth": []}]
    assert {"400", "401", "403", "404", "409", "413"} <= set(post["responses"])
    body = post["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    assert set(doc["components"]["schemas"][body]["required"]) == {"version", "action"}


def test_api_docs_page_is_served_by_the_app():
    client = app.test_client()
    page = client.get("/api/docs")
    assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]
    html = page.get_data(as_text=True)
    assert "/static/apidocs/apidocs.js" in html and not re.search(r"https?://", html)
    # the page's own words in the reader's language (the operations' in tests/test_apidocs_words.py)
    zh = client.get("/api/docs?lang=zh").get_data(as_text=True)
    assert "<h1>API 參考文件</h1>" in zh and "試試看" in zh and "API reference" not in zh
    script = client.get("/static/apidocs/apidocs.js")
    assert script.status_code == 200 and b'fetch("/openapi.json")' in script.data


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_every_operation_matches_its_schema(case):
    rng = random.Random(repr((case.path_parameters, case.query, case.body)))
    params = case.path_parameters or {}
    excluded = []
    if params.get("game_id") == "kinds":  # /api/games/kinds is its own route: no game has that id
        params["game_id"] = "no-such-game"
    if REAL and "game_id" in params and rng.random() < 0.6:
        finished = any(part in case.path for part in ("record", "positions", "analysis"))
        params["game_id"] = REAL["over"] if finished else REAL["running"]
        if rng.random() < 0.5:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {REAL['token']}"}
            # a real seat's token, which schemathesis takes for one it generated: a chat line
            # it lets through is a seat's, not an ignored credential
            excluded.append(ignored_auth)
    query = case.query if isinstance(case.query, dict) else None
    if query and isinstance(query.get("wait"), int | float) and query["wait"] > 0.2:
        query["wait"] = 0.2  # a long-poll's wait is honoured (tested elsewhere): keep this quick
    case.call_and_validate(excluded_checks=excluded)


def test_every_api_route_is_served_as_described_and_described_as_served():
    """One ``ApiRoutes`` route per endpoint: the Flask rules under /api/ and the description list the
    same (method, path) pairs (the HTML docs page aside)."""
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.rule != "/api/docs":
            path = re.sub(r"<(?:[^:>]+:)?(\w+)>", r"{\1}", rule.rule)
            served |= {(m.lower(), path) for m in rule.methods - {"HEAD", "OPTIONS"}}
    described = {
        (method, path)
        for path, ops in build_openapi()["paths"].items()
        for method in ops
        if path.startswith("/api/")
    }
    assert served == described


def test_game_ids_are_matched_by_the_route_so_import_is_never_a_game():
    client = app.test_client()
    options = client.options("/api/games/import")
    assert set(options.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}
    assert client.get("/api/games/import").status_code == 405
    assert client.get("/api/games/kinds").status_code == 200
    assert client.get("/api/games/not-a-game-id").status_code == 404  # no such route
    pattern = build_openapi()["paths"]["/api/games/{game_id}"]["get"]["parameters"][0]
    assert re.fullmatch(pattern["schema"]["pattern"], new_game_id())


def test_the_review_routes_describe_the_404_of_a_step_or_seat_the_game_does_not_have():
    """Schema = server: a step past the game's end or a seat it does not have is the 404 the
    description says (400 is only for what is not a number)."""
    client = app.test_client()
    finished = REAL["over"]
    op = build_openapi()["paths"]["/api/games/{game_id}/positions/{step}"]["get"]
    assert {"400", "404", "409"} <= set(op["responses"])
    words = op["responses"]["404"]["description"]
    assert "step" in words and "seat" in words and "no_such_step" in words
    assert "number" in op["responses"]["400"]["description"]
    for path, reason in (
        (f"/api/games/{finished}/positions/999999", "no_such_step"),
        (f"/api/games/{finished}/positions/0?seat=99", "no_such_seat"),
    ):
        resp = client.get(path)
        assert resp.status_code == 404 and resp.get_json()["error"]["reason"] == reason
    assert client.get(f"/api/games/{finished}/positions/x").status_code == 400


def test_the_claim_route_describes_the_invitations_403():
    op = build_openapi()["paths"]["/api/games/{game_id}/seats/{index}/claim"]["post"]
    assert "invite_required" in op["responses"]["403"]["description"]
    body = build_openapi()["components"]["schemas"]["ClaimIn"]["properties"]
    assert "invite" in body
