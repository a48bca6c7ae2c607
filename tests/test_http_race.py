"""The production server (gunicorn, 2 worker processes, threads) on loopback, over real HTTP.

- 16 threads race actions on one game (four per seat, each sending its move at the version it
  saw): every version is won exactly once, the losers get 409 with the current version, and the
  action log in the SQLite file has no gap and no duplicate.
- Restart: stop the server, start a new one on the same database; every game is there at the
  same version with the same views, and play goes on.
"""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
import requests

from tests.api_calls import bearer
from tests.bots import my_turn
from tests.servers import APP_WITH_TESTGAME, gunicorn_in

pytestmark = pytest.mark.slow  # real gunicorn servers racing and restarting


@pytest.fixture
def server(tmp_path):
    with gunicorn_in(tmp_path, APP_WITH_TESTGAME) as srv:
        yield srv


def new_game(url: str, seats: list[dict], rounds: int, seed: int) -> dict:
    body = {"game": "blind_auction", "seats": seats, "options": {"rounds": rounds}, "seed": seed}
    resp = requests.post(url + "/api/games", json=body, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_sixteen_threads_racing_on_one_game_never_lose_or_double_a_move(server):
    game = new_game(server.url, [{"type": "human"}] * 4, rounds=8, seed=99)
    gid = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    barrier = threading.Barrier(16)
    outcomes: list[tuple[int, int, int]] = []  # (status, version sent, current version in 409)
    lock = threading.Lock()

    def racer(i: int) -> None:
        seat, token = i % 4, tokens[i % 4]
        with requests.Session() as http:
            barrier.wait()
            for _ in range(200):
                me = http.get(
                    f"{server.url}/api/games/{gid}", headers=bearer(token), timeout=30
                ).json()
                if me["over"]:
                    return
                if seat not in me["to_act"]:
                    time.sleep(0.005)
                    continue
                action = me["legal_actions"][i % len(me["legal_actions"])]
                resp = http.post(
                    f"{server.url}/api/games/{gid}/actions",
                    json={"version": me["version"], "action": action},
                    headers=bearer(token),
                    timeout=30,
                )
                err = resp.json().get("error", {}) if resp.status_code != 200 else {}
                with lock:
                    outcomes.append((resp.status_code, me["version"], err.get("version", -1)))
                assert resp.status_code in (200, 409), resp.text

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)

    final = requests.get(f"{server.url}/api/games/{gid}", timeout=10).json()
    assert final["over"] and final["version"] == 8 * 4
    wins = [v for status, v, _ in outcomes if status == 200]
    assert sorted(wins) == list(range(final["version"]))  # each version won exactly once
    losses = [(v, current) for status, v, current in outcomes if status == 409]
    assert losses, "the racers never collided"
    assert all(current > v for v, current in losses if current >= 0)

    conn = sqlite3.connect(server.database)
    versions = [
        r[0]
        for r in conn.execute("SELECT version FROM actions WHERE game = ? ORDER BY version", (gid,))
    ]
    conn.close()
    assert versions == list(range(1, final["version"] + 1))  # no gap, no duplicate
    record = requests.get(f"{server.url}/api/games/{gid}/record", timeout=10).json()
    assert len(record["actions"]) == final["version"]
    replayed = requests.post(f"{server.url}/api/games/import", json=record, timeout=10).json()
    assert replayed["view"] == final["view"] and replayed["scores"] == final["scores"]


def timeless(snapshot: dict) -> dict:
    """A snapshot without the server's clock reading (which moves on between two reads)."""
    return {**snapshot, "now": None}


def test_restart_keeps_every_game_and_version(server):
    url = server.url
    games = []
    for seed in range(5):
        seats = [{"type": "human"}, {"type": "bot", "level": "greedy"}]
        game = new_game(url, seats, rounds=3 + seed % 2, seed=seed)
        token = game["seats"][0]["token"]
        for _ in range(seed):  # play some moves: versions differ, one game ends
            me = my_turn(url, game["id"], token)
            if me["over"]:
                break
            move = {"version": me["version"], "action": me["legal_actions"][0]}
            resp = requests.post(
                f"{url}/api/games/{game['id']}/actions",
                json=move,
                headers=bearer(token),
                timeout=10,
            )
            assert resp.status_code == 200
        my_turn(url, game["id"], token)  # the bot has answered: nothing is due any more
        games.append((game["id"], token))
    before = {
        gid: (
            requests.get(f"{url}/api/games/{gid}", timeout=10).json(),
            requests.get(f"{url}/api/games/{gid}", headers=bearer(tok), timeout=10).json(),
        )
        for gid, tok in games
    }
    assert len({b[0]["version"] for b in before.values()}) > 2
    assert any(b[0]["over"] for b in before.values())

    server.stop()
    server.start()  # a new process, a new port, the same database file
    for gid, tok in games:
        spectator = requests.get(f"{server.url}/api/games/{gid}", timeout=10).json()
        seat = requests.get(f"{server.url}/api/games/{gid}", headers=bearer(tok), timeout=10).json()
        assert (timeless(spectator), timeless(seat)) == tuple(map(timeless, before[gid]))
    listed = requests.get(f"{server.url}/api/games", timeout=10).json()["games"]
    assert {g["id"] for g in listed} == {gid for gid, _ in games}
    gid, tok = next((g, t) for g, t in games if not before[g][0]["over"])
    me = before[gid][1]
    move = {"version": me["version"], "action": me["legal_actions"][0]}
    resp = requests.post(
        f"{server.url}/api/games/{gid}/actions", json=move, headers=bearer(tok), timeout=10
    )
    assert resp.status_code == 200 and resp.json()["version"] > me["version"]
