"""The service's answers are written by orjson (``web/json_provider.py``): the same JSON the
standard library writes, and nothing refused by orjson is lost."""

from __future__ import annotations

import datetime
import json

from flask import jsonify

from app import create_app


def test_a_game_snapshot_is_the_json_the_standard_library_would_write(client):
    seats = [{"type": "human"}, {"type": "bot", "level": "random"}]
    game = client.post("/api/games", json={"game": "tobago", "seed": 3, "seats": seats})
    token = game.get_json()["seats"][0]["token"]
    resp = client.get(
        f"/api/games/{game.get_json()['id']}", headers={"Authorization": f"Bearer {token}"}
    )
    assert resp.mimetype == "application/json" and resp.data.endswith(b"}\n")
    body = json.loads(resp.data)
    # compact, keys in the order they were built: exactly json.dumps with compact separators
    assert resp.data.decode() == json.dumps(body, separators=(",", ":"), ensure_ascii=False) + "\n"


def test_chinese_text_is_utf8_and_reads_back_the_same(client):
    resp = client.get("/api/games/kinds?lang=zh")
    text = resp.data.decode("utf-8")
    assert "\\u" not in text and json.loads(text) == resp.get_json()


def test_what_orjson_refuses_falls_back_to_flasks_own_writer(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "g.sqlite3")})
    with app.test_request_context():
        big = jsonify({"n": 2**70, 3: "int key"})  # beyond 64 bits: the standard library writes it
        assert json.loads(big.data) == {"n": 2**70, "3": "int key"}
        day = jsonify({"when": datetime.date(2026, 12, 1)})  # Flask's default: an HTTP date
        assert json.loads(day.data) == {"when": "Tue, 01 Dec 2026 00:00:00 GMT"}
        assert app.json.dumps({2: [1.5, None]}) == '{"2":[1.5,null]}'


def test_sorted_keys_and_indented_output_when_asked(tmp_path):
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "g.sqlite3"), "JSON_SORT_KEYS": True}
    )
    with app.test_request_context():
        assert jsonify({"b": 1, "a": 2}).data == b'{"a":2,"b":1}\n'
        app.json.compact = False
        assert jsonify({"b": 1}).data.decode() == '{\n  "b": 1\n}\n'
