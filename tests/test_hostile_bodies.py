"""Hostile request bodies get a 4xx in the error shape on every endpoint that reads JSON.

Over real HTTP (gunicorn as ``make run`` starts it): bodies nested deeper than
``web.jsonbody.MAX_DEPTH`` at any depth (a hundred thousand ``[`` included, which used to raise
``RecursionError`` and answer 500) get 400 ``too_deep``; integers given as strings, booleans or
floats are refused with the field named (pydantic strict mode), never coerced; a chunked body
over 1 MiB gets 413 like a ``Content-Length`` over it; and an import whose seats leave out the
optional ``index`` is accepted.
"""

from __future__ import annotations

import json

import pytest
import requests

from tests.bots import game_over
from tests.servers import gunicorn_in
from web.jsonbody import MAX_DEPTH

ERROR_KEYS = {"code", "reason", "message", "field", "params"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with gunicorn_in(tmp_path_factory.mktemp("bodies"), workers=1, threads=4) as srv:
        yield srv


@pytest.fixture(scope="module")
def endpoints(server) -> dict[str, tuple[str, dict]]:
    """Every endpoint that takes a JSON body: path and headers (real ids and tokens)."""
    url = server.url
    humans = {"game": "dao", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
    game = requests.post(url + "/api/games", json={**humans, "seed": 5}, timeout=10).json()
    code = requests.get(url + "/api/tobago/puzzles?seed=1&difficulty=easy", timeout=30).json()
    token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    return {
        "create": ("/api/games", {}),
        "act": (f"/api/games/{game['id']}/actions", token),
        "import": ("/api/games/import", {}),
        "claim": (f"/api/games/{game['id']}/seats/1/claim", {}),
        "solve": ("/api/tobago/solve", {}),
        "helper": ("/api/tobago/helper", {}),
        "check": (f"/api/tobago/puzzles/{code['code']}/check", {}),
    }


ENDPOINTS = ["create", "act", "import", "claim", "solve", "helper", "check"]


def post(server, endpoints, name: str, data: bytes | object) -> requests.Response:
    path, headers = endpoints[name]
    headers = {**headers, "Content-Type": "application/json"}
    return requests.post(server.url + path, data=data, headers=headers, timeout=30)


def assert_error(resp: requests.Response, status: int, reason: str | None = None) -> dict:
    assert resp.status_code == status, resp.text[:300]
    err = resp.json()["error"]
    assert set(err) >= ERROR_KEYS
    if reason is not None:
        assert err["reason"] == reason, err
    return err


def nested(depth: int) -> bytes:
    """An object whose ``x`` holds arrays nested so the body is ``depth`` levels deep."""
    inner = depth - 1
    return b'{"x": ' + b"[" * inner + b"]" * inner + b"}"


@pytest.mark.parametrize("name", ENDPOINTS)
@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1_000, 100_000])
def test_deep_nesting_is_400_too_deep_on_every_json_endpoint(server, endpoints, name, depth):
    err = assert_error(post(server, endpoints, name, nested(depth)), 400, "too_deep")
    assert err["field"] == "body" and err["params"] == {"limit": MAX_DEPTH}


@pytest.mark.parametrize("name", ENDPOINTS)
def test_a_bare_array_a_million_deep_is_400_too(server, endpoints, name):
    deep = b"[" * 500_000 + b"]" * 500_000
    assert_error(post(server, endpoints, name, deep), 400, "too_deep")


def test_nesting_at_the_limit_is_read_and_judged_on_its_content(server, endpoints):
    err = assert_error(post(server, endpoints, "create", nested(MAX_DEPTH)), 400)
    assert err["reason"] != "too_deep"  # read: refused for what it says (no game named)


#: A new DAO game of two bots, up to its seed (the test writes the seed's JSON text).
DAO_BOTS_SEED = '{"game": "dao", "seats": [{"type": "bot"}, {"type": "bot"}], "seed": '


@pytest.mark.parametrize("seed", ['"7"', '"0007"', "true", "7.5", "[7]"])
def test_a_seed_that_is_not_an_integer_is_refused_by_name(server, endpoints, seed):
    body = DAO_BOTS_SEED + seed + "}"
    err = assert_error(post(server, endpoints, "create", body), 400)
    assert err["field"] == "seed"


@pytest.mark.parametrize("seed", ["7", "7.0", "7e0", "0.7e1"])
def test_an_integer_seed_is_kept_exactly_however_the_number_is_written(server, endpoints, seed):
    """JSON has one number type: 7.0 is the integer 7 (as JSON Schema says)."""
    body = DAO_BOTS_SEED + seed + "}"
    created = post(server, endpoints, "create", body)
    assert created.status_code == 201, created.text
    game_over(server.url, created.json()["id"])  # the table's bots play it out
    record = requests.get(f"{server.url}/api/games/{created.json()['id']}/record", timeout=10)
    assert record.json()["seed"] == 7 and isinstance(record.json()["seed"], int)


def test_a_huge_exponent_is_a_float_refused_by_range_not_a_giant_integer(server, endpoints):
    body = DAO_BOTS_SEED + "1e999999}"
    err = assert_error(post(server, endpoints, "create", body), 400)
    assert err["field"] == "seed"


@pytest.mark.parametrize(
    ("name", "body", "field"),
    [
        ("act", {"version": "0", "action": {"type": "take"}}, "version"),
        ("act", {"version": False, "action": {"type": "take"}}, "version"),
        ("create", {"game": "dao", "seats": [{"type": "human", "open": "true"}] * 2}, None),
        ("check", {"space": ["0", "0"]}, "space[0]"),
    ],
)
def test_other_integers_and_booleans_are_strict_too(server, endpoints, name, body, field):
    err = assert_error(post(server, endpoints, name, json.dumps(body)), 400)
    assert err["field"] == (field or "seats[0].open")


def over_a_mebibyte():
    yield b'{"x": "'
    for _ in range(17):
        yield b"y" * 65536
    yield b"0" * 40_000 + b'"}'


@pytest.mark.parametrize("name", ENDPOINTS)
def test_a_chunked_body_over_1_mib_is_413_on_every_json_endpoint(server, endpoints, name):
    err = assert_error(post(server, endpoints, name, over_a_mebibyte()), 413, "too_large")
    assert err["field"] == "body"


def test_a_chunked_body_under_the_limit_is_read(server, endpoints):
    body = json.dumps({"game": "dao", "seats": [{"type": "bot"}] * 2, "seed": 1}).encode()
    assert post(server, endpoints, "create", iter([body[:10], body[10:]])).status_code == 201


def test_an_import_whose_seats_omit_the_optional_index_is_accepted(server, endpoints):
    body = {"game": "dao", "seats": [{"type": "bot"}] * 2, "seed": 11}
    created = post(server, endpoints, "create", json.dumps(body)).json()
    game_over(server.url, created["id"])  # the table's bots play it out
    record = requests.get(f"{server.url}/api/games/{created['id']}/record", timeout=10).json()
    for seat in record["seats"]:
        del seat["index"]
    imported = post(server, endpoints, "import", json.dumps(record))
    assert imported.status_code == 201, imported.text
    assert imported.json()["over"] and imported.json()["version"] == len(record["actions"])
    record["seats"][1]["index"] = 0
    err = assert_error(post(server, endpoints, "import", json.dumps(record)), 400)
    assert err["field"] == "seats[1].index"
