"""Logs that stay small (issue 23, point 6): whatever a request sends (an action may be up to 1
MiB), what the service logs of it is at most 1 KB, and its error answer quotes no more."""

from __future__ import annotations

import logging

import pytest

import games.base
from tests.testgame import NAME, BlindAuction

KB = 1024


class CrashingAuction(BlindAuction):
    """An engine with a bug: it crashes on any action, quoting the whole of it."""

    def apply(self, state, seat, action, **kw):
        raise KeyError(action)


@pytest.fixture(autouse=True)
def _registered(monkeypatch):
    games.base.kinds()
    monkeypatch.setitem(games.base._REGISTRY, NAME, CrashingAuction())


@pytest.mark.parametrize("size", [10, 100_000, 900_000])
def test_a_malformed_action_is_logged_in_at_most_1_kb(client, caplog, size):
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
    assert len(resp.get_data()) <= 2 * KB
    logged = [r.getMessage() for r in caplog.records]
    assert any("crashed" in line for line in logged)  # the crash is logged ...
    assert sum(len(line.encode()) for line in logged) <= KB  # ... in 1 KB at most
    if size > KB:  # cut, saying how long it was
        assert any("characters)" in line for line in logged)
