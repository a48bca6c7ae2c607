"""Dragon's Gold through the game service: the negotiation's deadline on the fake clock, a bot
game with timeouts recorded, replayed and imported, and the background timer under gunicorn."""

from __future__ import annotations

import random
import sqlite3
import time

import pytest
import requests

from games.base import replay
from games.dragons_gold.bots import greedy_bot
from games.dragons_gold.engine import KIND
from tests.api_calls import bearer
from tests.bots import bots_move
from tests.servers import APP, Gunicorn

HUMANS = [{"type": "human", "name": n} for n in ("Ana", "Bo", "Cy")]


def create(client, seats, options=None, seed=4) -> dict:
    body = {"game": "dragons_gold", "seats": seats, "seed": seed, "options": options or {}}
    resp = client.post("/api/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def snapshot(client, gid, token=None) -> dict:
    resp = client.get(f"/api/games/{gid}", headers=bearer(token) if token else {})
    assert resp.status_code == 200
    return resp.get_json()


def play_to_negotiation(client, game) -> dict:
    """Greedy moves for the humans until a timed negotiation starts; its snapshot."""
    gid = game["id"]
    tokens = {s["index"]: s["token"] for s in game["seats"]}
    for _ in range(40):
        snap = snapshot(client, gid)
        if (
            snap["view"]["phase"] == "negotiation"
            and snap["view"]["negotiation"]["mode"] == "timed"
        ):
            return snap
        seat = snap["to_act"][0]
        mine = snapshot(client, gid, tokens[seat])
        action = greedy_bot(mine["view"], mine["legal_actions"], random.Random(0))
        resp = client.post(
            f"/api/games/{gid}/actions",
            json={"version": snap["version"], "action": action},
            headers=bearer(tokens[seat]),
        )
        assert resp.status_code == 200, resp.get_json()
    raise AssertionError("no negotiation within 40 moves")


def test_a_negotiation_runs_out_on_the_clock_and_the_treasure_leaves_the_game(client, clock):
    game = create(client, HUMANS, {"negotiation_seconds": 20})
    snap = play_to_negotiation(client, game)
    assert snap["deadline"] == clock.now + 20 and snap["now"] == clock.now
    neg = snap["view"]["negotiation"]
    treasure = snap["view"]["dragons"][neg["dragon"]]["treasure"]
    removed = snap["view"]["removed"]
    clock.advance(19.9)
    assert snapshot(client, game["id"])["version"] == snap["version"]
    clock.advance(0.1)
    after = snapshot(client, game["id"])
    assert after["version"] == snap["version"] + 1
    assert (
        after["view"]["phase"] != "negotiation"
        or after["view"]["negotiation"]["step"] != "proposals"
    )
    for colour, n in treasure.items():
        assert after["view"]["removed"][colour] == removed[colour] + n
    events = client.get(f"/api/games/{game['id']}/events?after={snap['version']}").get_json()
    entry = events["events"][0]
    assert entry["seat"] is None
    assert entry["events"][0]["type"] == "negotiation_failed"


def test_an_answer_to_a_proposal_replaced_meanwhile_is_stale(client, clock):
    game = create(client, HUMANS)
    snap = play_to_negotiation(client, game)
    tokens = {s["index"]: s["token"] for s in game["seats"]}
    a, b = snap["view"]["negotiation"]["participants"][:2]
    mine = snapshot(client, game["id"], tokens[a])
    propose = next(x for x in mine["legal_actions"] if x["type"] == "propose")
    first = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": snap["version"], "action": propose},
        headers=bearer(tokens[a]),
    ).get_json()
    accept = {"type": "accept", "proposal": 1}
    resp = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": first["version"], "action": {"type": "accept", "proposal": 2}},
        headers=bearer(tokens[b]),
    )
    assert resp.status_code == 409 and resp.get_json()["error"]["reason"] == "dg_stale_proposal"
    resp = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": first["version"], "action": accept},
        headers=bearer(tokens[b]),
    )
    assert resp.status_code == 200


def test_a_bot_game_with_timeouts_records_replays_and_imports_exactly(client, clock):
    seats = [{"type": "bot", "level": "random"}] * 4 + [{"type": "bot", "level": "greedy"}]
    game = create(client, seats, {"negotiation_seconds": 5, "market_seconds": 5}, seed=8)
    gid = game["id"]
    for _ in range(400):
        bots_move(client)
        if snapshot(client, gid)["over"]:
            break
        clock.advance(5)
    final = snapshot(client, gid)
    assert final["over"] and final["view"]["phase"] == "over"
    record = client.get(f"/api/games/{gid}/record").get_json()
    timeouts = [a for a in record["actions"] if a["seat"] is None]
    assert timeouts and all(a["action"] == {"type": "timeout"} for a in timeouts)
    log = [(a["seat"], a["action"]) for a in record["actions"]]
    state = replay(KIND, record["seed"], len(record["seats"]), record["options"], log)
    assert KIND.scores(state) == final["scores"] == final["view"]["scores"]
    imported = client.post("/api/games/import", json=record)
    assert imported.status_code == 201 and imported.get_json()["scores"] == final["scores"]


@pytest.mark.slow
def test_the_background_timer_ends_dragons_gold_phases_under_gunicorn(tmp_path):
    db = tmp_path / "games.sqlite3"
    with Gunicorn(db, APP, log=tmp_path / "gunicorn.log") as server:
        seats = [{"type": "bot", "level": "random"}] * 3
        body = {
            "game": "dragons_gold",
            "seats": seats,
            "seed": 2,
            "options": {"negotiation_seconds": 5, "market_seconds": 5},
        }
        resp = requests.post(server.url + "/api/games", json=body, timeout=10)
        assert resp.status_code == 201, resp.text
        gid = resp.json()["id"]
        until = time.monotonic() + 30
        while time.monotonic() < until:  # no request: only the background timer acts
            with sqlite3.connect(db) as conn:
                seats_of = [
                    r[0]
                    for r in conn.execute(
                        "SELECT seat FROM actions WHERE game = ? ORDER BY version", (gid,)
                    )
                ]
            if None in seats_of:
                break
            time.sleep(0.1)
        assert None in seats_of, "no timeout settled within 30 s"
        snap = requests.get(f"{server.url}/api/games/{gid}", timeout=10).json()
        assert snap["version"] > seats_of.index(None)
