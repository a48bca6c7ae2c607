"""The lean path (``web.lean``) answers exactly as Flask does for the routes on it, and leaves
everything else to Flask."""

from __future__ import annotations

import io
import json

import pytest
from werkzeug.test import Client

from app import create_app
from errors import InvalidInput, StaleVersion
from web.jsonbody import MAX_DEPTH
from web.lean import ROUTES, LeanApi, lean_route

SOLVE = "/api/tobago/solve"
GOOD = {"island": {"name": "classic-1"}, "maps": [{"id": "white", "clues": ["in:jungle"]}]}
BODIES = [
    json.dumps(GOOD),
    json.dumps({**GOOD, "include_island": False, "hand": ["near1:sea", "!in:beach"]}),
    json.dumps({**GOOD, "maps": [{"id": "white", "clues": ["in:lava"]}]}),  # a refused clue
    json.dumps({**GOOD, "island": {"name": "classic-9"}}),  # no such island: 404
    json.dumps({**GOOD, "surprise": 1}),  # an unknown key
    json.dumps({**GOOD, "hand": ["in:jungle"] * 65}),  # over a limit
    json.dumps([GOOD]),  # not an object
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    '{"island": {"name": "classic-1"}, "maps": ' + "[" * 40 + "]" * 40 + "}",  # too deep
    '{"island": ',  # not JSON
    "",
    '{"island": {"generated": 7.0}, "maps": []}',  # 7.0 is the integer 7
]
SHOWN = (
    "Content-Type",
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "X-Frame-Options",
)


@pytest.fixture
def lean_app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "lean.sqlite3"), "DEADLINE_TIMER": False})


def answered(client: Client, body: str) -> tuple[int, object, dict]:
    resp = client.post(SOLVE, data=body.encode(), content_type="application/json")
    data = resp.get_data()
    return (
        resp.status_code,
        json.loads(data) if data else None,
        {k: resp.headers.get(k) for k in SHOWN},
    )


@pytest.mark.parametrize("body", BODIES)
def test_a_solve_answers_the_same_on_the_lean_path_and_through_flask(lean_app, body):
    assert isinstance(lean_app.wsgi_app, LeanApi)
    lean = answered(Client(lean_app.wsgi_app), body)
    flask = answered(Client(lean_app.wsgi_app.wsgi_app), body)  # Flask alone
    assert lean == flask
    assert lean[2]["Content-Security-Policy"] and lean[2]["Content-Type"] == "application/json"


def test_bodies_the_lean_path_does_not_read_go_to_flask(lean_app):
    client = Client(lean_app.wsgi_app)
    big = b'{"pad": "' + b"x" * (1 << 20) + b'"}'
    resp = client.post(SOLVE, data=big, content_type="application/json")
    assert resp.status_code == 413 and resp.get_json()["error"]["code"] == "too_large"
    chunked = client.post(
        SOLVE,
        input_stream=io.BytesIO(json.dumps(GOOD).encode()),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    )
    assert chunked.status_code == 200 and chunked.get_json()["maps"][0]["id"] == "white"
    assert client.get(SOLVE).status_code == 405  # another method: Flask's answer


def test_every_lean_route_is_a_flask_route_too(lean_app):
    adapter = lean_app.url_map.bind("localhost")
    for method, path in ROUTES:
        endpoint, _ = adapter.match(path, method=method)
        assert endpoint in lean_app.view_functions


def test_a_crash_on_the_lean_path_is_a_logged_500_in_the_error_shape(tmp_path, caplog):
    def crash(body: bytes) -> str:
        raise RuntimeError("boom")

    lean_route("POST", "/api/test-crash", crash)
    try:
        app = create_app({"DATABASE": str(tmp_path / "crash.sqlite3"), "DEADLINE_TIMER": False})
        resp = Client(app.wsgi_app).post("/api/test-crash", data=b"{}")
        assert resp.status_code == 500
        assert resp.get_json()["error"]["code"] == "http_error"
        assert "boom" in caplog.text
        testing = create_app({"DATABASE": str(tmp_path / "t.sqlite3"), "TESTING": True})
        with pytest.raises(RuntimeError):
            Client(testing.wsgi_app).post("/api/test-crash", data=b"{}")
    finally:
        del ROUTES[("POST", "/api/test-crash")]


@pytest.mark.parametrize("testing", [False, True])
def test_a_refusal_holding_a_number_no_writer_takes_is_still_its_json_4xx(tmp_path, testing):
    """A domain error whose params echo a number past 64 bits (or a value of no JSON type):
    its 4xx in the error shape, the number as text, on the lean path and through Flask, with
    exceptions propagated (TESTING) or not (issue 44: it was an HTML 500)."""

    def refuse(body: bytes) -> str:
        raise StaleVersion(2**64, 3)

    def odd(body: bytes) -> str:
        raise InvalidInput("odd", "x", params={"n": -(2**70), "set": {1}, "ok": [2**63, 1.5]})

    lean_route("POST", "/api/test-huge", refuse)
    lean_route("POST", "/api/test-odd", odd)
    try:
        app = create_app({"DATABASE": str(tmp_path / "h.sqlite3"), "TESTING": testing})
        app.add_url_rule("/api/test-huge", "huge", lambda: refuse(b""), methods=["POST"])
        app.add_url_rule("/api/test-odd", "odd", lambda: odd(b""), methods=["POST"])
        for client in (Client(app.wsgi_app), Client(app.wsgi_app.wsgi_app)):
            resp = client.post("/api/test-huge", data=b"{}")
            assert resp.status_code == 409 and resp.mimetype == "application/json"
            err = resp.get_json()["error"]
            assert err["params"] == {"given": str(2**64), "current": 3}
            assert err["version"] == 3
            resp = client.post("/api/test-odd", data=b"{}")
            assert resp.status_code == 400
            params = resp.get_json()["error"]["params"]
            assert params == {"n": str(-(2**70)), "set": "{1}", "ok": [2**63, 1.5]}
    finally:
        del ROUTES[("POST", "/api/test-huge")]
        del ROUTES[("POST", "/api/test-odd")]


def _move_answer(client: Client, path: str, body: bytes, token: str | None) -> tuple:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    resp = client.post(path, data=body, content_type="application/json", headers=headers)
    data = resp.get_data()
    return (
        resp.status_code,
        json.loads(data) if data else None,
        {k: resp.headers.get(k) for k in SHOWN},
    )


def _new_game(client: Client) -> tuple[str, str, dict]:
    """A DAO game of a human against an easy bot (its replies come with each move)."""
    seats = [{"type": "human"}, {"type": "bot", "level": "easy"}]
    resp = client.post("/api/games", json={"game": "dao", "seats": seats, "seed": 4})
    body = resp.get_json()
    token = body["seats"][0]["token"]
    view = client.get(f"/api/games/{body['id']}", headers={"Authorization": f"Bearer {token}"})
    return body["id"], token, view.get_json()


def test_a_move_answers_the_same_on_the_lean_path_and_through_flask(app):
    """The move (``POST /api/games/<id>/actions``) and its refusals: the same status, body and
    headers on both paths (two games of the same seed, the same moves)."""
    assert isinstance(app.wsgi_app, LeanApi)
    paths = {"lean": Client(app.wsgi_app), "flask": Client(app.wsgi_app.wsgi_app)}
    answers: dict[str, list] = {name: [] for name in paths}
    for name, client in paths.items():
        gid, token, me = _new_game(client)
        path = f"/api/games/{gid}/actions"
        good = json.dumps({"version": me["version"], "action": me["legal_actions"][0]}).encode()
        cases = [
            (f"/api/games/{'x' * 12}/actions", good, token),  # no such game: 404
            (path, good, None),  # no token: 401
            (path, good, "not-a-seat"),  # 403
            (path, b'{"version": ', token),  # not JSON: 400
            (path, b'{"action": {"type": "x"}}', token),  # no version: 400
            (path, json.dumps({"version": 99, "action": {"type": "x"}}).encode(), token),  # 409
            (path, good, token),  # the move, with the bot's reply
            (path, good, token),  # the same again: stale (409, error.version)
            (f"/api/games/{gid[:-1]}/actions", good, token),  # not a game id: Flask's 404
        ]
        for case in cases:
            status, body, headers = _move_answer(client, *case)
            if isinstance(body, dict):
                body.pop("id", None)
            answers[name].append((status, body, headers))
    assert answers["lean"] == answers["flask"]
    statuses = [a[0] for a in answers["lean"]]
    assert statuses == [404, 401, 403, 400, 400, 409, 200, 409, 404]
    moved = answers["lean"][6][1]
    assert moved["version"] >= 2 and moved["legal_actions"] and moved["bot"] is None
    assert answers["lean"][7][1]["error"]["version"] == moved["version"]
