"""A chosen deal is public (issue 23, point 3), through the HTTP API: the creation's answer, every
snapshot and the list summary carry ``seed_chosen`` (true when the creator gave a seed); a seed
left to the server stays secret until the end, when the record shows it."""

from __future__ import annotations

import pytest

from tests.bots import bots_move
from tests.kinds import BUILTIN

KINDS = BUILTIN


def create(client, kind: str, **extra) -> dict:
    seats = [{"type": "human", "name": "Ana"}, {"type": "bot"}, {"type": "bot"}]
    resp = client.post("/api/games", json={"game": kind, "seats": seats, **extra})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


@pytest.mark.parametrize("kind", KINDS)
def test_every_seat_and_the_lists_are_told_when_the_host_chose_the_deal(client, kind):
    chosen, dealt = create(client, kind, seed=1234), create(client, kind)
    assert (chosen["seed_chosen"], dealt["seed_chosen"]) == (True, False)
    token = chosen["seats"][0]["token"]
    for headers in ({}, {"Authorization": f"Bearer {token}"}):
        assert client.get(f"/api/games/{chosen['id']}", headers=headers).get_json()["seed_chosen"]
    assert client.get(f"/api/games/{dealt['id']}").get_json()["seed_chosen"] is False
    listed = {g["id"]: g["seed_chosen"] for g in client.get("/api/games").get_json()["games"]}
    assert listed == {chosen["id"]: True, dealt["id"]: False}


def test_a_random_seed_stays_secret_until_the_end_then_the_record_shows_it(app, client):
    resp = client.post("/api/games", json={"game": "dao", "seats": [{"type": "bot"}] * 2})
    game = resp.get_json()
    seed = app.extensions["game_sessions"].store.get(game["id"]).seed
    for path in ("", "/events"):
        assert str(seed) not in client.get(f"/api/games/{game['id']}{path}").get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}/record").status_code == 409
    bots_move(client)  # the bots play it to its end
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    assert record["seed"] == seed
