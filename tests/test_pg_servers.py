"""Several app servers on one PostgreSQL (``pg_cluster``): two gunicorn servers (each as ``make
run`` starts it: 2 gevent workers and the table's process) on different ports share one
database, over real HTTP.

- A move made through server A is seen by a long-poll waiting on server B within 100 ms
  (``LISTEN/NOTIFY``: no polling interval to wait out).
- 16 threads racing 500 actions across both servers: each version is won exactly once, the
  losers get 409, and every game's log has no gap and no duplicate.
- ``kill -9`` of server A (master and workers) while actions flow through both: every action
  answered 200 is in the log, and server B goes on serving.
"""

from __future__ import annotations

import os
import random
import signal
import statistics
import threading
import time

import pytest
import requests

from tests.api_calls import bearer
from tests.servers import APP_WITH_TESTGAME, Gunicorn, worker_pids
from web.storage import open_store

pytestmark = pytest.mark.slow


@pytest.fixture
def servers(pg_cluster, tmp_path):
    url = pg_cluster.new_database()
    pair = [
        Gunicorn(url, APP_WITH_TESTGAME, log=tmp_path / f"gunicorn-{name}.log", start_timeout=60)
        for name in "ab"
    ]
    for server in pair:
        server.start()
    yield pair
    for server in pair:
        server.stop()


def new_game(url: str, seed: int, humans: int = 4) -> dict:
    body = {"game": "blind_auction", "seats": [{"type": "human"}] * humans, "seed": seed}
    body["options"] = {"rounds": 8}
    resp = requests.post(url + "/api/games", json=body, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_a_move_through_one_server_wakes_a_long_poll_on_the_other_within_100_ms(servers):
    a, b = servers
    game = new_game(a.url, 1, humans=2)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    delays = []
    for version in range(5):
        seen: list[float] = []

        def poll(after: int = version, seen: list[float] = seen) -> None:
            resp = requests.get(f"{b.url}/api/games/{gid}/events?after={after}&wait=10", timeout=20)
            assert resp.status_code == 200 and resp.json()["version"] == after + 1
            seen.append(time.monotonic())

        waiter = threading.Thread(target=poll)
        waiter.start()
        time.sleep(0.4)  # the long-poll waits on server B by now
        seat = version % 2
        me = requests.get(f"{a.url}/api/games/{gid}", headers=bearer(tokens[seat]), timeout=10)
        move = {"version": version, "action": me.json()["legal_actions"][0]}
        resp = requests.post(
            f"{a.url}/api/games/{gid}/actions", json=move, headers=bearer(tokens[seat]), timeout=10
        )
        answered = time.monotonic()
        assert resp.status_code == 200, resp.text
        waiter.join(15)
        assert seen, "the long-poll on server B did not return"
        delays.append(seen[0] - answered)
    assert statistics.median(delays) < 0.1 and max(delays) < 1.0, delays


def _race(servers: list[Gunicorn], games: list[dict], attempts: int, threads: int, stop=None):
    """``threads`` clients, each acting for random seats of random games through a random
    server at the version it just read (when that seat may act), until ``attempts`` actions
    were sent (or ``stop`` is set). Returns every outcome: (server index, game id, seat, version sent, action, status,
    current version in a 409)."""
    outcomes: list[tuple] = []
    lock = threading.Lock()
    sent = [0]
    barrier = threading.Barrier(threads)

    def client(i: int) -> None:
        rng = random.Random(i)
        barrier.wait()
        with requests.Session() as http:
            for _ in range(20 * attempts):  # bounded: also when every game is over
                with lock:
                    if sent[0] >= attempts or (stop is not None and stop.is_set()):
                        return
                game = rng.choice(games)
                seat = rng.randrange(len(game["seats"]))
                index = rng.randrange(len(servers))
                url, token = servers[index].url, game["seats"][seat]["token"]
                try:
                    me = http.get(
                        f"{url}/api/games/{game['id']}", headers=bearer(token), timeout=30
                    )
                    if me.status_code != 200 or not me.json()["legal_actions"]:
                        continue
                    me = me.json()
                    with lock:
                        if sent[0] >= attempts:
                            return
                        sent[0] += 1
                    action = rng.choice(me["legal_actions"])
                    resp = http.post(
                        f"{url}/api/games/{game['id']}/actions",
                        json={"version": me["version"], "action": action},
                        headers=bearer(token),
                        timeout=30,
                    )
                except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
                    # a server killed before or while answering: the outcome is unknown, and
                    # not counted (a cut answer is no acknowledgement either)
                    continue
                current = resp.json().get("error", {}).get("version", -1)
                with lock:
                    outcomes.append(
                        (index, game["id"], seat, me["version"], action, resp.status_code, current)
                    )

    workers = [threading.Thread(target=client, args=(i,)) for i in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join(300)
    assert not any(t.is_alive() for t in workers)
    return outcomes


def _logs(database: str, game_ids: list[str]) -> dict[str, list]:
    store = open_store(database)
    try:
        return {gid: store.actions(gid) for gid in game_ids}
    finally:
        store.close()


def test_sixteen_threads_racing_500_actions_across_two_servers(servers):
    a, _ = servers
    games = [new_game(a.url, seed) for seed in range(24)]
    outcomes = _race(servers, games, attempts=500, threads=16)
    assert len(outcomes) == 500 and {o[5] for o in outcomes} <= {200, 409}, outcomes[:5]
    assert {o[0] for o in outcomes if o[5] == 200} == {0, 1}  # both servers took moves
    logs = _logs(a.database, [g["id"] for g in games])
    for gid, log in logs.items():
        wins = sorted(o[3] for o in outcomes if o[1] == gid and o[5] == 200)
        assert [e.version for e in log] == list(range(1, len(log) + 1))  # no gap, no duplicate
        assert wins == list(range(len(log)))  # each version won exactly once
        for o in outcomes:
            if o[1] == gid and o[5] == 200:
                entry = log[o[3]]  # the entry at version sent + 1
                assert (entry.seat, entry.action) == (o[2], o[4])
    losses = [o for o in outcomes if o[5] == 409 and o[6] >= 0]
    assert all(current > sent for *_, sent, _, _, current in losses)


def test_kill_9_of_one_server_loses_no_acknowledged_action(servers):
    a, b = servers
    games = [new_game(b.url, seed) for seed in range(100, 124)]
    stop = threading.Event()
    killed: list[float] = []

    def kill_a() -> None:
        time.sleep(1.5)
        for pid in [a.pid, *worker_pids(a.pid)]:
            os.kill(pid, signal.SIGKILL)
        killed.append(time.monotonic())
        time.sleep(2.0)  # server B alone from here on
        stop.set()

    killer = threading.Thread(target=kill_a)
    killer.start()
    outcomes = _race(servers, games, attempts=100_000, threads=8, stop=stop)
    killer.join()
    a.proc.wait(10)
    assert {o[5] for o in outcomes} <= {200, 409}  # never a 5xx, on either server
    acked = [o for o in outcomes if o[5] == 200]
    assert any(o[0] == 0 for o in acked) and any(o[0] == 1 for o in acked)
    logs = _logs(b.database, [g["id"] for g in games])
    for o in acked:  # every 200 is in the record, exactly as sent
        log = logs[o[1]]
        assert len(log) > o[3] and (log[o[3]].seat, log[o[3]].action) == (o[2], o[4])
    for log in logs.values():
        assert [e.version for e in log] == list(range(1, len(log) + 1))
    assert requests.get(b.url + "/healthz", timeout=10).status_code == 200
    game = requests.get(f"{b.url}/api/games/{games[0]['id']}", timeout=10).json()
    assert game["version"] == len(logs[games[0]["id"]])
