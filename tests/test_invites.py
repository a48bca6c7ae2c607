"""Seats for friends need their link's secret (issue 23, point 1), through the HTTP API.

A human seat created ``open`` and not ``listed`` is an invitation: the creation's answer gives
its secret once (``invite``), only its hash is stored, and claiming the seat needs it (403
``invite_required`` without it and with a wrong one: the same answer). A listed seat is
claimed with the game's id alone, as before. A game whose free seats are all invitations is
in no public list; the join page words the refusal in both languages. Played with DAO (a real
kind; no bot moves first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18n import translate
from web.storage import hash_token

ANA = {"type": "human", "name": "Ana"}
FRIEND = {"type": "human", "open": True}
ANYONE = {"type": "human", "open": True, "listed": True}


def create(client, *seats: dict) -> dict:
    resp = client.post("/api/games", json={"game": "dao", "seats": list(seats)})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def claim(client, game_id: str, seat: int, body: dict | None = None):
    return client.post(f"/api/games/{game_id}/seats/{seat}/claim", json=body or {})


def refused(resp, status: int, reason: str) -> dict:
    assert resp.status_code == status, resp.get_json()
    err = resp.get_json()["error"]
    assert err["reason"] == reason, err
    return err


def public_ids(client, query: str = "") -> set[str]:
    return {g["id"] for g in client.get(f"/api/games{query}").get_json()["games"]}


def test_an_invitation_is_claimed_with_its_secret_only(client):
    game = create(client, ANA, FRIEND)
    gid, seat = game["id"], game["seats"][1]
    assert seat["open"] and not seat["listed"] and seat["token"] is None
    secret = seat["invite"]
    assert isinstance(secret, str) and len(secret) >= 43  # 256 bits, URL-safe
    assert game["seats"][0]["invite"] is None  # a seat with a token needs no invitation
    for body in ({}, {"name": "Mallory"}, {"invite": secret[:-1] + "x"}, {"invite": "x" * 256}):
        err = refused(claim(client, gid, 1, body), 403, "invite_required")
        assert err["field"] == "invite"
    assert client.get(f"/api/games/{gid}").get_json()["seats"][1]["open"] is True  # untouched
    resp = claim(client, gid, 1, {"name": "Bo", "invite": secret})
    assert resp.status_code == 200, resp.get_json()
    token = resp.get_json()["token"]
    me = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
    assert me.get_json()["seat"] == 1 and me.get_json()["seats"][1]["name"] == "Bo"
    # the secret led to one claim: the seat is taken now, whoever holds the link
    refused(claim(client, gid, 1, {"invite": secret}), 409, "seat_taken")


def test_the_secret_is_stored_as_its_hash_only(app, client):
    game = create(client, ANA, FRIEND)
    secret = game["seats"][1]["invite"]
    stored = app.extensions["game_sessions"].store.get(game["id"]).seats[1]
    assert stored.invite_hash == hash_token(secret)
    db = Path(app.config["DATABASE"])
    raw = b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal")) if p.exists())
    assert secret.encode() not in raw and hash_token(secret).encode() in raw
    # no answer of the game shows it again, nor its hash
    for path in ("", "/events"):
        text = client.get(f"/api/games/{game['id']}{path}").get_data(as_text=True)
        assert secret not in text and stored.invite_hash not in text


def test_listed_seats_stay_anyones_and_their_old_links_work(client):
    game = create(client, ANA, ANYONE)
    assert game["seats"][1]["invite"] is None and game["seats"][1]["listed"]
    assert game["id"] in public_ids(client, "?open=true")
    resp = claim(client, game["id"], 1, {"name": "Cy"})  # the game's id alone, as before
    assert resp.status_code == 200 and resp.get_json()["name"] == "Cy"
    # the join page a listed seat's old link opens is still served
    page = client.get(f"/dao/games/{game['id']}/join/1")
    assert page.status_code == 200 and 'data-seat="1"' in page.get_data(as_text=True)


def test_a_game_whose_free_seats_are_invitations_is_in_no_public_list(client):
    solo = create(client, ANA, {"type": "bot"})
    friends = create(client, ANA, FRIEND, FRIEND)
    mixed = create(client, ANA, FRIEND, ANYONE)  # a listed seat: the game is findable
    assert public_ids(client) == {solo["id"], mixed["id"]}
    assert public_ids(client, "?open=true") == {mixed["id"]}
    summary = next(
        g for g in client.get("/api/games").get_json()["games"] if g["id"] == mixed["id"]
    )
    assert summary["free_seats"] == [2]  # only the listed seat is offered to anyone
    # the invitations' game still answers whoever has its link
    assert client.get(f"/api/games/{friends['id']}").status_code == 200
    secret = mixed["seats"][1]["invite"]
    refused(claim(client, mixed["id"], 1), 403, "invite_required")
    assert claim(client, mixed["id"], 1, {"invite": secret}).status_code == 200


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_refusal_is_worded_in_both_languages(lang):
    text = translate(lang, "error.invite_required")
    assert text and text != "error.invite_required"
    assert ("invited" in text) if lang == "en" else ("受邀" in text)
