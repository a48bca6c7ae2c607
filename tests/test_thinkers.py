"""Thinking in parallel, and graceful under load (issue 42, items 3 and 4): ``web.service.table``,
``web.service.bell``, ``web.thinkers``.

- The bell: a ring wakes one waiting process of those that share it, not every one.
- Several thinkers (runners of separate sessions over one database, as separate processes or
  servers are) race for many due bots: each bot move is thought out once and played once, on
  SQLite and on PostgreSQL, promptly though their tick is long (the bell wakes them).
- Under an overload (many tables due at once, two thinkers) the effort granted shrinks with the
  queue, before the bots wait, and every table moves: none starves. ``effort_for`` follows the
  backlog (the due bots ahead, the thinkers, the learnt seconds of a full decision, ``Pace``),
  with the wait as a backstop; a thinker plays a table's bots one after the other (one reply,
  one wait in the queue).
- Over real gunicorn (the table processes are separate processes from the HTTP workers, their
  tick 30 s): a bot made due by an HTTP worker's write is played at once.
- A thinkers-only server (``python -m web.thinkers``, tick 30 s) on PostgreSQL plays the bots
  of games another process writes, at once (it hears PostgreSQL's notifications).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import requests

from games.thinking import Thinking
from tests.servers import ROOT, Gunicorn, auction_with_bot, table_pids
from tests.testgame import BlindAuction, greedy_bot, registered
from web.service.bell import Bell
from web.service.sessions import GameSessions
from web.service.table import (
    MIN_EFFORT,
    PACE_MIN_EFFORT,
    PACE_WEIGHT,
    REPLY_BUDGET_S,
    SHRINK_AFTER_S,
    Pace,
    TableRunner,
    effort_for,
)
from web.storage import open_store

#: A tick long enough that a move within a few seconds was woken, not ticked.
LONG_TICK_S = 30.0


class Recorder:
    """A Blind Auction bot that searches (``thinks``): it records each decision (the game's
    seed, the log's length as seen, the effort granted) and sleeps ``seconds × effort`` (an
    anytime search: less effort, a quicker answer), then bids as the greedy bot."""

    thinks = True

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.calls: list[tuple[int, int, float]] = []
        self.lock = threading.Lock()

    def __call__(
        self, view: dict, legal: list[dict], rng: random.Random, thinking: Thinking
    ) -> dict:
        with self.lock:
            self.calls.append((view["round"], len(view["history"]), thinking.effort))
        time.sleep(self.seconds * thinking.effort)
        return greedy_bot(view, legal, rng)


@pytest.fixture
def recorder():
    bot = Recorder(0.05)
    kind = BlindAuction()
    kind.bots = {**kind.bots, "recorder": bot}
    with registered(kind):
        yield bot


def thinkers_over(
    database: str, count: int, bell: Bell | None, log: str | None = None
) -> list[GameSessions]:
    """``count`` sessions over ``database``, each with its runner (a long tick), sharing
    ``bell`` as one server's processes do (``log``: their decisions log)."""
    out = []
    for _ in range(count):
        s = GameSessions(open_store(database))
        s.bell = bell
        s.decisions_log = log
        s.start_runner(LONG_TICK_S, thinkers=count)
        out.append(s)
    return out


def new_games(sessions: GameSessions, n: int) -> list[str]:
    """``n`` games of a player and the recording bot, its first bid due at once."""
    seats = [{"type": "human"}, {"type": "bot", "level": "recorder"}]
    return [sessions.create("blind_auction", seats, {"rounds": 3}, i)[0].id for i in range(n)]


def wait_for(check, within: float) -> bool:
    until = time.monotonic() + within
    while time.monotonic() < until:
        if check():
            return True
        time.sleep(0.02)
    return check()


def bot_entries(store, gid: str) -> list[int]:
    return [a.version for a in store.actions(gid) if a.seat == 1]


def race(database: str, recorder: Recorder) -> None:
    bell = Bell.new()
    writer = GameSessions(open_store(database))
    writer.bell = bell  # the "HTTP worker": no runner of its own, it rings
    thinkers = thinkers_over(database, 3, bell)
    try:
        started = time.monotonic()
        games = new_games(writer, 12)
        assert wait_for(lambda: all(bot_entries(writer.store, g) for g in games), 10.0)
        took = time.monotonic() - started
        assert took < LONG_TICK_S / 3  # woken by the bell, not by a tick
        time.sleep(0.3)  # any second play would land now
        for g in games:
            assert bot_entries(writer.store, g) == [1], g  # played once
            assert writer.store.get(g).bot_due is None
        assert len(recorder.calls) == len(games)  # thought out once each: the leases held
    finally:
        for s in thinkers:
            s.stop_runner()
        bell.close()


def test_thinkers_racing_play_each_due_bot_once_both_stores(database, recorder):
    race(database, recorder)


def test_under_an_overload_the_effort_shrinks_and_every_table_moves(tmp_path, recorder):
    database = str(tmp_path / "games.sqlite3")
    log = tmp_path / "decisions.jsonl"
    writer = GameSessions(open_store(database))
    recorder.seconds = 0.1
    games = new_games(writer, 40)  # 40 bots due at once, 2 thinkers, 0.1 s a full decision
    bell = Bell.new()
    thinkers = thinkers_over(database, 2, bell, str(log))
    try:
        bell.ring()
        bell.ring()
        assert wait_for(lambda: all(bot_entries(writer.store, g) for g in games), 20.0)
    finally:
        for s in thinkers:
            s.stop_runner()
        bell.close()
    efforts = [e for _, _, e in recorder.calls]
    assert len(efforts) == len(games)  # every table moved, once
    assert efforts[0] == 1.0  # nothing learnt yet, nothing waited: in full
    assert min(efforts) < 0.5  # the queue was thought about faster
    assert all(MIN_EFFORT <= e <= 1.0 for e in efforts)
    writes = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(writes) == len(games)
    # looking ahead: decisions whose bots had not yet waited long were shrunk by the queue
    early = [w["effort"] for w in writes if w["waited"] <= SHRINK_AFTER_S]
    assert early and min(early) < 0.75


def test_the_effort_follows_the_due_bots_ahead_and_the_learnt_pace():
    assert effort_for() == 1.0  # idle, nothing learnt
    assert effort_for(0, 2, 5.0) == 1.0  # nothing else due: in full, however slow
    assert effort_for(30, 2, None) == 1.0  # nothing learnt yet: only the wait could shrink it
    # this reply and its share of the queue fit the reply budget
    assert effort_for(9, 2, 0.4) == pytest.approx(REPLY_BUDGET_S / (5.5 * 0.4))
    assert effort_for(19, 2, 0.4) == pytest.approx(REPLY_BUDGET_S / (10.5 * 0.4))
    queue = [effort_for(n, 2, 0.4) for n in (0, 2, 5, 10, 20, 50, 100)]
    assert queue == sorted(queue, reverse=True) and queue[0] == 1.0 and queue[-1] < 0.1
    assert effort_for(20, 4, 0.4) > effort_for(20, 2, 0.4)  # more thinkers, more each
    assert effort_for(20, 2, 0.8) < effort_for(20, 2, 0.4)  # a slower kind, less
    assert effort_for(1000, 1, 1.0) == MIN_EFFORT
    assert effort_for(20, 0, 0.4) == effort_for(20, 1, 0.4)  # no thinker counted: one


def test_the_wait_is_the_backstop_full_while_the_thinkers_keep_up():
    assert effort_for(waited=0.0) == effort_for(waited=SHRINK_AFTER_S) == 1.0
    waits = [SHRINK_AFTER_S * k for k in (1.5, 2, 4, 10, 100, 10_000)]
    shares = [effort_for(waited=w) for w in waits]
    assert shares == sorted(shares, reverse=True) and shares[0] < 1.0
    assert effort_for(waited=2 * SHRINK_AFTER_S) == pytest.approx(0.5)
    assert shares[-1] == MIN_EFFORT
    # the smaller of the two rules
    assert effort_for(2, 2, 0.1, waited=2 * SHRINK_AFTER_S) == pytest.approx(0.5)
    assert effort_for(50, 2, 0.1, waited=2 * SHRINK_AFTER_S) < 0.5


def test_the_pace_learns_a_full_decisions_seconds_per_kind():
    pace = Pace()
    assert pace.full_s("tobago") is None
    pace.timed("tobago", 0.05, 1, 0.5)  # half the effort in 50 ms: 100 ms in full
    assert pace.full_s("tobago") == pytest.approx(0.1)
    pace.timed("tobago", 0.6, 2, 1.0)  # 300 ms a decision: the average moves a step
    assert pace.full_s("tobago") == pytest.approx(0.1 + PACE_WEIGHT * 0.2)
    before = pace.full_s("tobago")
    pace.timed("tobago", 5.0, 1, PACE_MIN_EFFORT / 2)  # mostly fixed costs: not learnt
    pace.timed("tobago", 5.0, 0, 1.0)  # no move
    assert pace.full_s("tobago") == before
    assert pace.full_s("dao") is None  # per kind
    assert pace.reply_s("tobago") == pace.full_s("tobago")  # a reply of one write until learnt
    pace.reply_begins()
    pace.timed("tobago", 0.1, 1, 1.0)
    pace.timed("tobago", 0.1, 1, 1.0)
    pace.reply_ends()  # a reply of two writes
    assert pace.reply_s("tobago") == pytest.approx(2 * pace.full_s("tobago"))
    pace.reply_begins()
    pace.reply_ends()  # nothing played: no reply
    assert pace.reply_s("tobago") == pytest.approx(2 * pace.full_s("tobago"))


def test_a_thinker_plays_a_tables_bots_one_after_the_other(tmp_path, recorder):
    recorder.seconds = 0.06  # more than a write's batch: one bot's bid a write
    sessions = GameSessions(open_store(str(tmp_path / "g.sqlite3")))
    seats = [{"type": "human"}] + [{"type": "bot", "level": "recorder"}] * 2
    first, second = (
        sessions.create("blind_auction", seats, {"rounds": 3}, i)[0].id for i in range(2)
    )
    runner = TableRunner(sessions, LONG_TICK_S, None, thinkers=1)  # not started: one look
    runner._tick(sessions, {})
    times = {
        g: [a.time for a in sessions.store.actions(g) if a.seat in (1, 2)] for g in (first, second)
    }
    assert [len(t) for t in times.values()] == [2, 2]  # two writes a table
    assert max(times[first]) <= min(times[second])  # the first table's reply whole, then next


def test_the_tests_runner_thinks_in_full_however_long_the_bot_waited(tmp_path, recorder):
    now = [1000.0]
    sessions = GameSessions(open_store(str(tmp_path / "g.sqlite3")), clock=lambda: now[0])
    [gid] = new_games(sessions, 1)
    now[0] += 3600
    assert sessions.play_due_bots(gid) == 1
    assert [e for _, _, e in recorder.calls] == [1.0]


def test_the_tables_thinking_is_the_apps_budget(tmp_path):
    from app import create_app

    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "g.sqlite3"), "BOT_ROLLOUTS": {"tobago": 7}}
    )
    assert app.extensions["game_sessions"].thinking == Thinking({"tobago": 7})


def test_one_ring_wakes_one_of_the_processes_waiting_on_the_bell(tmp_path):
    bell = Bell.new()
    woke = tmp_path / "woke"
    woke.mkdir()
    pids = []
    for _ in range(3):
        pid = os.fork()
        if pid == 0:  # a waiting thinker: it takes at most one ring in 3 s
            code = 0
            try:
                import select

                until = time.monotonic() + 3.0
                while time.monotonic() < until:
                    select.select([bell.reader], [], [], until - time.monotonic())
                    if bell.take():
                        (woke / str(os.getpid())).touch()
                        break
            finally:
                os._exit(code)
        pids.append(pid)
    time.sleep(0.5)
    bell.ring()
    for pid in pids:
        os.waitpid(pid, 0)
    assert len(list(woke.iterdir())) == 1
    bell.close()


def test_a_full_bell_drops_rings_without_blocking():
    bell = Bell.new()
    started = time.monotonic()
    for _ in range(100_000):
        bell.ring()
    assert time.monotonic() - started < 5.0
    assert bell.take(every=True)
    assert not bell.take()
    bell.close()


# --- real processes --------------------------------------------------------------------------


def app_with_long_tick():
    """The gunicorn app of these tests: Blind Auction, the table's tick ``LONG_TICK_S``."""
    from app import create_app
    from games.base import register

    register(BlindAuction())
    return create_app({"TABLE_TICK_S": LONG_TICK_S})


def bot_seats(url: str, gid: str, after: int, within: float = 5.0) -> list[int]:
    """The seats of the game's entries after ``after`` once there is one (or none in time)."""
    got = requests.get(
        f"{url}/api/games/{gid}/events?after={after}&wait={within:g}", timeout=within + 10
    ).json()
    return [e["seat"] for e in got["events"]]


def test_over_gunicorn_a_bot_due_by_an_http_workers_write_is_played_at_once(tmp_path):
    app = "tests.test_thinkers:app_with_long_tick()"
    env = {"TOBAGO_TABLE_PROCESSES": "2"}
    with Gunicorn(tmp_path / "g.sqlite3", app, log=tmp_path / "g.log", env=env) as server:
        assert wait_for(lambda: len(table_pids(server.pid)) == 2, 30)
        time.sleep(1.0)  # each thinker's first look is over: from now on only a ring wakes one
        for seed in range(4):
            game = auction_with_bot(server.url, "greedy", seed)
            started = time.monotonic()
            assert bot_seats(server.url, game["id"], 0) == [1]  # the bot's bid, woken
            assert time.monotonic() - started < 3.0
            token = game["seats"][0]["token"]
            me = requests.get(
                f"{server.url}/api/games/{game['id']}",
                headers={"Authorization": f"Bearer {token}"},
                timeout=10,
            ).json()
            answer = requests.post(
                f"{server.url}/api/games/{game['id']}/actions",
                json={"version": me["version"], "action": me["legal_actions"][0]},
                headers={"Authorization": f"Bearer {token}"},
                timeout=10,
            )
            assert answer.status_code == 200, answer.text
            started = time.monotonic()
            assert bot_seats(server.url, game["id"], answer.json()["version"]) == [1]
            assert time.monotonic() - started < 3.0  # the next round's bid: woken again


def test_a_thinkers_only_server_plays_the_bots_of_another_servers_games(pg_cluster, tmp_path):
    pg_url = pg_cluster.new_database()
    env = {
        **os.environ,
        "TOBAGO_DATABASE": pg_url,
        "PYTHONPATH": str(ROOT),
        "TOBAGO_APP": "tests.test_thinkers:app_with_long_tick()",
    }
    with open(tmp_path / "thinkers.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "web.thinkers", "--processes", "1"],  # one: one first look
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
        )
    try:
        with registered(BlindAuction()):
            writer = GameSessions(open_store(pg_url))
            seats = [{"type": "human"}, {"type": "bot", "level": "greedy"}]
            first = writer.create("blind_auction", seats, {"rounds": 3}, 0)[0].id
            # (made before the thinker's first look, or after: either way it is played)
            assert wait_for(lambda: bot_entries(writer.store, first), 60), Path(
                tmp_path / "thinkers.log"
            ).read_text()
            time.sleep(1.0)  # its looks after that game are over: it waits for its tick
            started = time.monotonic()
            games = [
                writer.create("blind_auction", seats, {"rounds": 3}, i)[0].id for i in range(6)
            ]
            # (no bell of that server rings: the thinker hears PostgreSQL's notifications)
            assert wait_for(lambda: all(bot_entries(writer.store, g) for g in games), 40)
            assert time.monotonic() - started < LONG_TICK_S / 3  # not at its tick
            assert Counter(len(bot_entries(writer.store, g)) for g in games) == {1: 6}
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    assert proc.returncode == 0, Path(tmp_path / "thinkers.log").read_text()
