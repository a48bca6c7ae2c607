"""Calls of the game API through a Flask test client, for the tests that play games over it:
a new game of human seats, a seat's (or a spectator's) snapshot, an action."""

from __future__ import annotations

from typing import Any

import games.base


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(
    client: Any, kind: str, seats: int | None = None, options: dict | None = None, seed: int = 5
) -> dict:
    """A new ``kind`` game of human seats P0, P1 … (``seats``: the kind's fewest); the creation's
    answer (each seat's token)."""
    n = games.base.get_kind(kind).type.min_seats if seats is None else seats
    body = {
        "game": kind,
        "seats": [{"type": "human", "name": f"P{i}"} for i in range(n)],
        "seed": seed,
        "options": options or {},
    }
    resp = client.post("/api/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def snapshot(client: Any, gid: str, token: str | None = None) -> dict:
    """``GET /api/games/<gid>`` as the token's seat (none: a spectator), which must answer."""
    resp = client.get(f"/api/games/{gid}", headers=bearer(token) if token else {})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def act(client: Any, gid: str, token: str, version: int, action: dict) -> Any:
    """``POST /api/games/<gid>/actions`` for the token's seat: the response, whatever it is."""
    return client.post(
        f"/api/games/{gid}/actions",
        json={"version": version, "action": action},
        headers=bearer(token),
    )
