"""Time in the service: deadlines of timed phases, judged by one injectable clock, settled as the
table's own log entries (seat null) on the next read, poll or action, or by the background timer,
never twice, and replayed exactly from the record.

The timed game is Blind Auction with ``bid_seconds`` (``tests/testgame.py``): each round is a timed
phase; when it runs out, every seat that has not bid bids its lowest card. The tests that touch
the store run against both stores (the ``database`` fixture: SQLite and PostgreSQL).
"""

from __future__ import annotations

import threading
import time

import pytest
import requests

import games.base
from app import create_app
from errors import IllegalAction, InvalidInput
from games.base import SYSTEM, play_bots, replay
from tests.api_calls import bearer
from tests.bots import bots_move
from tests.conftest import FakeClock
from tests.servers import APP_WITH_TESTGAME, Gunicorn
from tests.testgame import NAME, BlindAuction
from web.service.sessions import GameSessions
from web.storage import open_store

HUMANS = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]


pytestmark = pytest.mark.usefixtures("blind_auction")


def new_game(client, seats=HUMANS, seconds=5, seed=3) -> dict:
    body = {"game": NAME, "seats": seats, "seed": seed, "options": {"bid_seconds": seconds}}
    resp = client.post("/api/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def lowest(view: dict) -> int:
    return min(view["hand"], key=lambda c: (c["rank"], c["id"]))["id"]


def test_the_snapshot_carries_the_deadline_and_the_clock(client, clock):
    game = new_game(client)
    snap = client.get(f"/api/games/{game['id']}").get_json()
    assert snap["deadline"] == clock.now + 5 and snap["now"] == clock.now
    clock.advance(2)
    t0 = game["seats"][0]["token"]
    view = client.get(f"/api/games/{game['id']}", headers=bearer(t0)).get_json()["view"]
    resp = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": 0, "action": {"type": "bid", "card": lowest(view)}},
        headers=bearer(t0),
    )
    after = resp.get_json()
    assert after["version"] == 1 and after["now"] == clock.now
    assert after["deadline"] == snap["deadline"]  # the same phase: its clock goes on


def test_untimed_games_have_no_deadline(client):
    for kind, seats in (("dao", 2), ("tobago", 2)):
        body = {"game": kind, "seats": [{"type": "human"}] * seats, "seed": 1}
        gid = client.post("/api/games", json=body).get_json()["id"]
        assert client.get(f"/api/games/{gid}").get_json()["deadline"] is None


def test_a_passed_deadline_is_settled_by_the_next_read_as_the_tables_entry(client, clock):
    game = new_game(client)
    gid = game["id"]
    clock.advance(4.9)
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 0
    clock.advance(0.1)
    snap = client.get(f"/api/games/{gid}").get_json()
    assert snap["version"] == 1 and snap["view"]["round"] == 2
    assert snap["deadline"] == clock.now + 5  # the next round's clock starts now
    events = client.get(f"/api/games/{gid}/events?after=0").get_json()["events"]
    assert [e["seat"] for e in events] == [None]
    assert {"type": "bid_placed", "seat": 0, "late": True} in events[0]["events"]


def test_an_action_chosen_before_the_timeout_is_stale_after_it(client, clock):
    game = new_game(client)
    gid, t1 = game["id"], game["seats"][1]["token"]
    view = client.get(f"/api/games/{gid}", headers=bearer(t1)).get_json()["view"]
    clock.advance(6)
    resp = client.post(
        f"/api/games/{gid}/actions",
        json={"version": 0, "action": {"type": "bid", "card": lowest(view)}},
        headers=bearer(t1),
    )
    assert resp.status_code == 409
    err = resp.get_json()["error"]
    assert err["code"] == "stale_version" and err["version"] == 1


@pytest.fixture
def store_app(database, clock):
    """The app on each store (``database``: SQLite and PostgreSQL), with the fake clock."""
    app = create_app({"TESTING": True, "DATABASE": database, "CLOCK": clock})
    yield app
    app.extensions["game_sessions"].store.close()


def test_a_long_poll_settles_a_deadline_that_passes_while_it_waits(store_app, clock):
    client = store_app.test_client()
    gid = new_game(client, seconds=1)["id"]
    ticker = threading.Timer(0.3, clock.advance, (1.5,))
    ticker.start()
    started = time.monotonic()
    out = client.get(f"/api/games/{gid}/events?after=0&wait=5").get_json()
    ticker.join()
    assert time.monotonic() - started < 3
    assert out["version"] == 1 and out["events"][0]["seat"] is None


def test_the_table_runner_settles_without_any_request(database, clock):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": database,
            "CLOCK": clock,
            "TABLE_RUNNER": True,
            "TABLE_TICK_S": 0.02,
        }
    )
    try:
        gid = new_game(app.test_client(), seconds=2)["id"]
        clock.advance(2)
        seats = _wait_for_log(database, gid, 1)
        assert seats == [None]
    finally:
        app.extensions["game_sessions"].stop_runner()
        app.extensions["game_sessions"].store.close()


def _wait_for_log(database: str, gid: str, n: int, within: float = 5.0) -> list:
    """The seats of the first ``n`` log entries, read from the database by a store of its own
    (no request is made)."""
    store = open_store(database)
    try:
        until = time.monotonic() + within
        while time.monotonic() < until:
            rows = store.actions(gid)
            if len(rows) >= n:
                return [r.seat for r in rows]
            time.sleep(0.02)
    finally:
        store.close()
    raise AssertionError(f"no {n} log entries within {within} s")


def test_two_processes_settling_one_deadline_write_one_entry(open_store_):
    clock = FakeClock()
    first = GameSessions(open_store_(), clock=clock)
    game, _, _, _ = first.create(NAME, HUMANS, {"bid_seconds": 5, "rounds": 3}, 4)
    clock.advance(5)
    workers = [GameSessions(open_store_(), clock=clock) for _ in range(6)]
    barrier = threading.Barrier(len(workers))

    def settle(sessions: GameSessions) -> None:
        barrier.wait()
        sessions.settle(sessions.store.get(game.id))

    threads = [threading.Thread(target=settle, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = first.store.actions(game.id)
    assert [a.seat for a in log] == [None] and first.store.get(game.id).version == 1


def test_bots_act_at_once_in_a_timed_phase_and_patient_ones_wait_for_the_clock(client, clock):
    seats = [{"type": "human"}, {"type": "bot", "level": "greedy"}]
    game = new_game(client, seats)
    bots_move(client)
    snap = client.get(f"/api/games/{game['id']}").get_json()
    assert snap["version"] == 1 and snap["to_act"] == [0]  # the greedy bot bid at once
    seats = [{"type": "human"}, {"type": "bot", "level": "patient"}]
    game = new_game(client, seats)
    assert client.get(f"/api/games/{game['id']}").get_json()["bot"] == "thinking"
    assert bots_move(client) == 0  # asked, the patient bot waits for the clock
    snap = client.get(f"/api/games/{game['id']}").get_json()
    assert snap["to_act"] == [0, 1] and snap["bot"] is None


def test_a_record_with_timeouts_replays_and_imports_exactly(client, clock):
    seats = [{"type": "bot", "level": "patient"}, {"type": "bot", "level": "greedy"}]
    gid = new_game(client, seats, seconds=1)["id"]
    bots_move(client)
    for _ in range(10):
        clock.advance(1)
        if client.get(f"/api/games/{gid}").get_json()["over"]:  # the read settles the round
            break
        bots_move(client)
    final = client.get(f"/api/games/{gid}").get_json()
    assert final["over"]
    record = client.get(f"/api/games/{gid}/record").get_json()
    system = [a for a in record["actions"] if a["seat"] is None]
    assert len(system) == 5 and all(a["action"] == {"type": "timeout"} for a in system)
    kind = games.base.get_kind(NAME)
    log = [(a["seat"], a["action"]) for a in record["actions"]]
    state = replay(kind, record["seed"], len(record["seats"]), record["options"], log)
    assert kind.scores(state) == final["scores"]
    imported = client.post("/api/games/import", json=record)
    assert imported.status_code == 201 and imported.get_json()["scores"] == final["scores"]


def test_a_timeout_from_a_seat_or_out_of_phase_is_refused():
    kind = BlindAuction()
    state = kind.new_state(1, 2, {"bid_seconds": 5})
    with pytest.raises(IllegalAction) as e:
        kind.apply(state, SYSTEM, {"type": "bid", "card": 0})
    assert e.value.reason == "not_a_timeout"
    with pytest.raises(InvalidInput):
        kind.apply(state, 0, {"type": "timeout"})
    untimed = kind.new_state(1, 2, None)
    with pytest.raises(IllegalAction):
        kind.apply(untimed, SYSTEM, {"type": "timeout"})


def test_simulated_games_end_timed_phases_when_no_bot_acts():
    kind = BlindAuction()
    state = kind.new_state(2, 3, {"bid_seconds": 30, "rounds": 4})
    log: list = []
    play_bots(
        kind,
        state,
        ["patient", "greedy", "patient"],
        __import__("random").Random(1),
        on_action=lambda seat, action, events: log.append(seat),
    )
    assert kind.is_over(state) and log.count(SYSTEM) == 4 and log.count(1) == 4


@pytest.mark.slow
def test_the_background_timer_settles_under_gunicorn_with_the_real_clock(tmp_path):
    db = tmp_path / "games.sqlite3"
    with Gunicorn(db, APP_WITH_TESTGAME, log=tmp_path / "gunicorn.log") as server:
        body = {"game": NAME, "seats": HUMANS, "seed": 5, "options": {"bid_seconds": 1}}
        resp = requests.post(server.url + "/api/games", json=body, timeout=10)
        assert resp.status_code == 201, resp.text
        gid = resp.json()["id"]
        started = time.monotonic()
        assert _wait_for_log(str(db), gid, 2, within=10) == [None, None]  # no request made
        assert time.monotonic() - started >= 1.9  # not before each one-second round ran out
        snap = requests.get(f"{server.url}/api/games/{gid}", timeout=10).json()
        assert snap["version"] >= 2 and snap["view"]["round"] >= 3
