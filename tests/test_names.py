"""Names that cannot impersonate (issue 23, point 5), through the HTTP API: a seat's name (at
creation or when claiming) and a record's seat names refuse the bidirectional controls and the
zero-width and invisible format characters, as they refuse NUL: 400 with the field named and the
character in ``params``, worded in both languages; the API description says the same pattern."""

from __future__ import annotations

import re

import pytest

from i18n import translate
from web.text_rules import name_pattern

HIDDEN = [
    "\u202e",  # right-to-left override: "Ana\u202enaB" shows as "AnaBan"
    "\u202a",
    "\u2066",
    "\u2069",
    "\u200f",
    "\u061c",
    "\u200b",  # zero width space: "Ana" and "A\u200bna" look alike
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u180e",
]


def _refused(resp, field: str, char: str) -> None:
    assert resp.status_code == 400, resp.get_json()
    err = resp.get_json()["error"]
    assert (err["reason"], err["field"]) == ("hidden_character", field)
    assert err["params"] == {"character": f"U+{ord(char):04X}"}


@pytest.mark.parametrize("char", HIDDEN)
def test_seat_names_refuse_hidden_characters(client, char):
    seats = [{"type": "human", "name": "Ana"}, {"type": "human", "name": f"Bo{char}b"}]
    _refused(client.post("/api/games", json={"game": "dao", "seats": seats}), "seats[1].name", char)
    open_seat = {"type": "human", "open": True, "listed": True}
    game = client.post("/api/games", json={"game": "dao", "seats": [seats[0], open_seat]})
    claim = client.post(
        f"/api/games/{game.get_json()['id']}/seats/1/claim", json={"name": f"{char}Ana"}
    )
    _refused(claim, "name", char)
    assert re.fullmatch(name_pattern(), f"Bo{char}b") is None  # the description refuses it too


def test_a_records_names_refuse_hidden_characters(client):
    game = client.post(
        "/api/games", json={"game": "dao", "seats": [{"type": "bot"}] * 2}
    ).get_json()
    from tests.bots import bots_move

    bots_move(client)
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    record["seats"][0]["name"] = "Ana\u202e"
    _refused(client.post("/api/games/import", json=record), "seats[0].name", "\u202e")


@pytest.mark.parametrize("name", ["Ana", "安娜", "Zoë", "O'Brien-Smith", "🙂 Bo", "Ana (2)"])
def test_ordinary_names_are_kept(client, name):
    seats = [{"type": "human", "name": name}, {"type": "human"}]
    resp = client.post("/api/games", json={"game": "dao", "seats": seats})
    assert resp.status_code == 201 and resp.get_json()["seats"][0]["name"] == name
    assert re.fullmatch(name_pattern(), name)


def test_nul_is_still_refused_with_its_own_reason(client):
    seats = [{"type": "human", "name": "A\x00"}, {"type": "human"}]
    err = client.post("/api/games", json={"game": "dao", "seats": seats}).get_json()["error"]
    assert (err["reason"], err["field"]) == ("nul_character", "seats[0].name")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_refusal_is_worded_in_both_languages(lang):
    text = translate(lang, "error.hidden_character", character="U+202E")
    assert "U+202E" in text and text != "error.hidden_character"
