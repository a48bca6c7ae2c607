"""The table's bots across servers, over real HTTP: two gunicorn servers on one PostgreSQL
(``pg_cluster``), each with its table process (``table_app.py``), race for every due bot move.

- A player's POST answers with their own move; the bot's move follows (as an event).
- Twelve games whose bot thinks 0.4 s, played through both servers at once: every bot move is
  in the log exactly once, whichever runner played it.
- ``kill -9`` of the table process that is thinking: nothing is lost, another runner (the
  other server's, or the one gunicorn starts again) plays the move once its lease ran out.

The test game's bot level ``slow`` (``tests.testgame.thinking_bot``) leaves a mark named after
its process whenever it starts to think, so the test knows which process to kill.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.api_calls import bearer
from tests.bots import my_turn
from tests.servers import APP_WITH_TESTGAME, Gunicorn, auction_with_bot, gunicorn_in, table_pids
from web.storage import open_store

pytestmark = pytest.mark.slow

LEASE_S = 3.0


@pytest.fixture
def marks(tmp_path) -> Path:
    found = tmp_path / "thinking"
    found.mkdir()
    return found


def servers_for(pg_cluster, tmp_path, marks: Path, think_s: float) -> tuple[str, list[Gunicorn]]:
    url = pg_cluster.new_database()
    env = {
        "TOBAGO_TEST_THINKING_DIR": str(marks),
        "TOBAGO_TEST_THINKING_S": str(think_s),
        "TOBAGO_BOT_LEASE_S": str(LEASE_S),
    }
    pair = [
        Gunicorn(url, APP_WITH_TESTGAME, log=tmp_path / f"g-{n}.log", env=env, start_timeout=60)
        for n in "ab"
    ]
    return url, pair


def thinkers(marks: Path) -> list[int]:
    """The pids of the processes that started to think, in order."""
    found = sorted(marks.iterdir(), key=lambda p: int(p.name.split("-")[1]))
    return [int(p.name.split("-")[0]) for p in found]


def bid(url: str, gid: str, token: str) -> None:
    """The player bids their first legal card as soon as they may (again after a 409: the bot,
    bidding at the same time, may take the version first); the answer is their move alone."""
    for _ in range(20):
        me = my_turn(url, gid, token, timeout=60)
        answer = requests.post(
            f"{url}/api/games/{gid}/actions",
            json={"version": me["version"], "action": me["legal_actions"][0]},
            headers=bearer(token),
            timeout=10,
        )
        if answer.status_code == 200:
            assert answer.json()["version"] == me["version"] + 1
            return
        assert answer.json()["error"]["code"] == "stale_version", answer.text
    raise AssertionError("no bid went through")


def log_seats(store, gid: str, entries: int, within: float = 60.0) -> list:
    """The seats of the game's log once it has ``entries`` entries (or as it is then)."""
    until = time.monotonic() + within
    while True:
        seats = [x.seat for x in store.actions(gid)]
        if len(seats) >= entries or time.monotonic() > until:
            return seats
        time.sleep(0.1)


def test_bot_moves_raced_for_by_two_servers_are_each_played_once(pg_cluster, tmp_path, marks):
    url, pair = servers_for(pg_cluster, tmp_path, marks, think_s=0.4)
    with pair[0] as a, pair[1] as b:
        games = [auction_with_bot((a, b)[i % 2].url, "slow", i) for i in range(12)]

        def play(i: int, game: dict) -> None:
            for turn in range(3):  # three rounds, each bid through another server
                bid((a, b)[(i + turn) % 2].url, game["id"], game["seats"][0]["token"])

        threads = [threading.Thread(target=play, args=(i, g)) for i, g in enumerate(games)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        store = open_store(url)
        try:
            for game in games:
                seats = log_seats(store, game["id"], 6)
                assert sorted(seats) == [0, 0, 0, 1, 1, 1], seats  # each bot bid once
                assert store.get(game["id"]).over
        finally:
            store.close()
    assert len(thinkers(marks)) >= 3 * len(games)  # every bot move was thought out


def test_kill_9_of_the_thinking_table_process_loses_nothing(pg_cluster, tmp_path, marks):
    url, pair = servers_for(pg_cluster, tmp_path, marks, think_s=2.0)
    with pair[0] as a, pair[1] as b:
        gid = auction_with_bot(a.url, "slow", 5)["id"]  # the bot's first bid is due at once
        until = time.monotonic() + 30
        while not thinkers(marks) and time.monotonic() < until:
            time.sleep(0.05)
        assert thinkers(marks), "no table process began to think"
        victim = thinkers(marks)[0]
        assert victim in table_pids(a.pid) + table_pids(b.pid)
        os.kill(victim, signal.SIGKILL)
        killed = time.monotonic()
        events = requests.get(f"{b.url}/api/games/{gid}/events?after=0&wait=25", timeout=30)
        assert [e["seat"] for e in events.json()["events"]] == [1]  # the bot's bid came after all
        assert time.monotonic() - killed < LEASE_S + 2.0 + 10  # its lease, a thought, slack
        assert [p for p in thinkers(marks) if p != victim]  # another process thought it out
        time.sleep(1.0)
        log = requests.get(f"{b.url}/api/games/{gid}/events?after=0", timeout=10).json()
        assert [e["seat"] for e in log["events"]] == [1]  # once, by the bot
        assert requests.get(f"{a.url}/api/games/{gid}", timeout=10).json()["bot"] is None


def test_an_analysis_asked_of_an_http_worker_is_made_by_the_table_process(tmp_path):
    """Under gunicorn no analysis runs on an HTTP worker's event loop: the worker hands it to
    the table process (gunicorn's dirty client), which stores it as it goes."""
    with gunicorn_in(tmp_path) as server:
        seats = [{"type": "bot", "level": "strategic"}, {"type": "bot", "level": "random"}]
        body = {"game": "tobago", "seats": seats, "seed": 3}
        gid = requests.post(f"{server.url}/api/games", json=body, timeout=10).json()["id"]
        until = time.monotonic() + 60
        while not requests.get(f"{server.url}/api/games/{gid}", timeout=10).json()["over"]:
            assert time.monotonic() < until, "the table's bots did not finish the game"
            time.sleep(0.2)
        first = requests.get(f"{server.url}/api/games/{gid}/analysis", timeout=10).json()
        assert first["status"] in ("running", "done")
        while first["status"] == "running":
            assert time.monotonic() < until + 60, first
            time.sleep(0.2)
            first = requests.get(f"{server.url}/api/games/{gid}/analysis", timeout=10).json()
        assert first["status"] == "done" and first["analysis"]["decisions"]
    assert "could not analyse" not in (tmp_path / "gunicorn.log").read_text()
