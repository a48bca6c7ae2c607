"""The table keeps going when its process hangs, over real gunicorn servers (``table_app.py``):

- a table process stopped altogether (SIGSTOP) is killed and replaced within the stall limit
  (``TOBAGO_TABLE_STALL_S``, made small here), and the new one plays the bot that was due;
- a table process whose runner thread hangs in a bot's endless loop (the test game's ``slow``
  bot thinks on while a file exists), while its main loop still heartbeats, is replaced the
  same way, and the game's lease lets the new runner take the game over;
- a turn clock that runs out is settled by the runner with no reader at all, and a page that
  only follows the game's stream receives the table's move at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path

import pytest
import requests

from tests.servers import APP_WITH_TESTGAME, Gunicorn, table_pids

pytestmark = pytest.mark.slow

STALL_S = 3.0
#: What a replacement may take beyond the stall limit: the runner tells its beat every second,
#: the arbiter looks every second, and a loaded machine is slow.
SLACK_S = 6.0


def server(tmp_path: Path, **env: str) -> Gunicorn:
    settings = {
        "TOBAGO_TABLE_STALL_S": str(STALL_S),
        "TOBAGO_TABLE_PROCESSES": "1",  # one table process, replaced
        "TOBAGO_BOT_LEASE_S": "2",
        "TOBAGO_TEST_THINKING_DIR": str(tmp_path / "thinking"),
        "TOBAGO_TEST_THINKING_S": "0",
        **env,
    }
    (tmp_path / "thinking").mkdir(exist_ok=True)
    return Gunicorn(
        tmp_path / "games.sqlite3",
        APP_WITH_TESTGAME,
        log=tmp_path / "gunicorn.log",
        env=settings,
        start_timeout=60,
    )


def bot_game(url: str) -> str:
    """A Blind Auction against the ``slow`` bot, whose first bid is due at once (the runner)."""
    seats = [{"type": "human"}, {"type": "bot", "level": "slow"}]
    body = {"game": "blind_auction", "seats": seats, "seed": 4, "options": {"rounds": 3}}
    resp = requests.post(url + "/api/games", json=body, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


def gone_within(master: int, pid: int, seconds: float) -> float:
    """Seconds until ``pid`` is no longer one of the server's table processes (fails after
    ``seconds``)."""
    start = time.monotonic()
    while pid in table_pids(master):
        assert time.monotonic() - start < seconds, f"table process {pid} still there"
        time.sleep(0.1)
    return time.monotonic() - start


def healthy(master: int) -> None:
    """A table process whose runner goes on is left alone, well past the stall limit."""
    before = table_pids(master)
    time.sleep(STALL_S + 2.0)
    assert table_pids(master) == before


def bot_bids(url: str, gid: str, within: float = 60.0) -> list:
    """The seats of the game's log once the bot has bid (waiting on the events long-poll)."""
    until = time.monotonic() + within
    while time.monotonic() < until:
        got = requests.get(f"{url}/api/games/{gid}/events?after=0&wait=5", timeout=15).json()
        if got["events"]:
            return [e["seat"] for e in got["events"]]
    raise AssertionError("the bot never bid")


def test_a_stopped_table_process_is_replaced_and_the_new_one_plays_the_due_bot(tmp_path):
    with server(tmp_path) as s:
        [stopped] = table_pids(s.pid)
        os.kill(stopped, signal.SIGSTOP)
        try:
            gid = bot_game(s.url)
            time.sleep(1.0)
            idle = requests.get(f"{s.url}/api/games/{gid}/events?after=0", timeout=10).json()
            assert idle["events"] == []  # nobody plays the bot meanwhile
            assert gone_within(s.pid, stopped, STALL_S + SLACK_S) > 0
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(stopped, signal.SIGCONT)
        assert bot_bids(s.url, gid) == [1]  # the new table process played it
        assert stopped not in table_pids(s.pid) and table_pids(s.pid)
        healthy(s.pid)
    assert f"TABLE RUNNER STALLED (pid:{stopped})" in (tmp_path / "gunicorn.log").read_text()


def test_a_table_process_whose_runner_hangs_is_replaced_and_its_game_taken_over(tmp_path):
    hang = tmp_path / "hang"
    hang.touch()
    with server(tmp_path, TOBAGO_TEST_HANG_FILE=str(hang)) as s:
        gid = bot_game(s.url)
        marks = tmp_path / "thinking"
        until = time.monotonic() + 30
        while not list(marks.iterdir()):
            assert time.monotonic() < until, "no table process began to think"
            time.sleep(0.05)
        hung = int(next(marks.iterdir()).name.split("-")[0])
        assert hung in table_pids(s.pid)
        # its process lives on (gunicorn's loop would heartbeat): only the runner is stuck
        assert Path(f"/proc/{hung}/stat").read_text().split(") ")[1][0] in "RS"
        gone_within(s.pid, hung, STALL_S + SLACK_S)
        hang.unlink()  # the bot's loop ends: the next runner takes the game after its lease
        assert bot_bids(s.url, gid) == [1]
        assert [p for p in table_pids(s.pid) if p != hung]
        time.sleep(1.0)
        log = requests.get(f"{s.url}/api/games/{gid}/events?after=0", timeout=10).json()
        assert [e["seat"] for e in log["events"]] == [1]  # once
        healthy(s.pid)
    assert f"TABLE RUNNER STALLED (pid:{hung})" in (tmp_path / "gunicorn.log").read_text()


def test_a_clock_that_runs_out_reaches_a_page_following_only_the_stream(tmp_path):
    """No read, poll or action of anyone: the runner settles the clock, the stream pushes it."""
    with server(tmp_path) as s:
        seats = [{"type": "human"}, {"type": "human"}]
        body = {"game": "blind_auction", "seats": seats, "seed": 5, "options": {"bid_seconds": 1}}
        resp = requests.post(s.url + "/api/games", json=body, timeout=10)
        assert resp.status_code == 201, resp.text
        created = time.monotonic()
        gid = resp.json()["id"]
        with requests.get(f"{s.url}/api/games/{gid}/stream", stream=True, timeout=10) as stream:
            for line in stream.iter_lines():
                if line.startswith(b"data: "):
                    entry = json.loads(line[6:])
                    break
        heard = time.monotonic() - created
        assert entry["version"] == 1 and entry["seat"] is None  # the table's move
        assert 0.9 <= heard < 3.0, heard  # the one-second clock, then at once


def create_app_without_runner():
    """App factory for the server below: a table process that runs no runner (analyses only)."""
    from app import create_app

    return create_app({"TABLE_RUNNER": False})


def test_a_table_process_without_a_runner_is_not_taken_for_a_stalled_one(tmp_path):
    app = "tests.test_table_stalls:create_app_without_runner()"
    settings = {"TOBAGO_TABLE_STALL_S": str(STALL_S)}
    with Gunicorn(tmp_path / "g.sqlite3", app, log=tmp_path / "g.log", env=settings) as s:
        healthy(s.pid)
    assert "STALLED" not in (tmp_path / "g.log").read_text()
