"""Logs that stay small (issue 23, point 6): whatever a request sends (an action may be up to 1
MiB), what the service logs of it is at most 1 KB, and its error answer quotes no more.

A malformed action is refused by its declaration (``games.actions``) before the engine sees it
(issue 27: an engine's own exception is a bug, a logged 500, never the answer to bad input)."""

from __future__ import annotations

import logging

import pytest

from tests.testgame import NAME

KB = 1024


pytestmark = pytest.mark.usefixtures("blind_auction")


@pytest.mark.parametrize("size", [10, 100_000, 900_000])
def test_a_malformed_action_is_refused_and_logged_in_at_most_1_kb(client, caplog, size):
    game = client.post("/api/games", json={"game": NAME, "seats": [{"type": "human"}] * 2})
    gid, token = game.get_json()["id"], game.get_json()["seats"][0]["token"]
    action = {"type": "bid", "card": 1, "junk": "x" * size}
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        resp = client.post(
            f"/api/games/{gid}/actions",
            json={"version": 0, "action": action},
            headers={"Authorization": f"Bearer {token}"},
        )
    assert resp.status_code == 400, resp.get_data(as_text=True)[:300]
    assert resp.get_json()["error"]["field"].startswith("action")
    assert len(resp.get_data()) <= 2 * KB
    logged = [r.getMessage() for r in caplog.records]
    assert sum(len(line.encode()) for line in logged) <= KB
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 0  # nothing written
