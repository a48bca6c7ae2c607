"""How late the table is, on the service's clock (``web.service.table``: ``owed``, ``behind``):
the game's state carries when the table must act next (``table_due``) and, once that is more
than ``BEHIND_S`` ago, how late it is (``behind``), so a game page says the table is behind
(``tests/test_table_behind_browser.py``). And the runner's loop proves its progress
(``TableRunner.beat``, ``on_beat``: the heartbeat of the table's process, ``table_app.py``),
and many due bots never hold up a clock that runs out meanwhile (``BOTS_PER_TICK_S``)."""

from __future__ import annotations

import dataclasses
import threading
import time

from app import create_app
from tests.testgame import NAME, BlindAuction, registered, thinking_bot
from web.service.table import BEHIND_S, BOTS_PER_TICK_S, TableRunner, behind, owed


def bot_first(client) -> dict:
    seats = [{"type": "bot", "level": "normal"}, {"type": "human", "name": "Ana"}]
    resp = client.post("/api/games", json={"game": "dao", "seats": seats, "seed": 2})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def test_a_due_bot_left_unplayed_makes_the_state_say_the_table_is_behind(app, client, clock):
    gid = bot_first(client)["id"]
    snap = client.get(f"/api/games/{gid}").get_json()
    assert snap["bot"] == "thinking" and snap["table_due"] == clock.now and snap["behind"] is None
    clock.advance(BEHIND_S)
    assert client.get(f"/api/games/{gid}").get_json()["behind"] is None  # not more than that
    clock.advance(1.5)
    snap = client.get(f"/api/games/{gid}").get_json()
    assert snap["behind"] == BEHIND_S + 1.5 and snap["bot"] == "thinking"
    app.extensions["game_sessions"].play_due_bots(gid)  # the table catches up
    snap = client.get(f"/api/games/{gid}").get_json()
    assert snap["version"] == 1 and snap["table_due"] is None and snap["behind"] is None


def test_what_the_table_owes_its_deadline_or_its_bot_not_a_failed_one_nor_a_finished_game(
    app, client, clock
):
    game = app.extensions["game_sessions"].store.get(bot_first(client)["id"])
    now = clock.now
    late = dataclasses.replace(game, deadline=now - 8, bot_due=None)
    assert owed(late) == now - 8 and behind(late, now) == 8.0
    both = dataclasses.replace(game, deadline=now + 30, bot_due=now - 2)
    assert owed(both) == now - 2 and behind(both, now) is None
    failed = dataclasses.replace(game, deadline=None, bot_due=now - 60, bot_failed=True)
    assert owed(failed) is None and behind(failed, now) is None  # the page says it failed
    over = dataclasses.replace(late, status="over")
    assert owed(over) is None and behind(over, now) is None


def test_the_runner_beats_while_its_loop_goes_on_and_not_while_it_hangs(app):
    sessions = app.extensions["game_sessions"]
    release = threading.Event()
    stuck = threading.Event()

    def chore() -> None:  # a store call that does not return, until the test lets it go
        stuck.set()
        release.wait(10)

    told: list[float] = []
    runner = TableRunner(sessions, tick=0.01)
    runner.on_beat = told.append
    sessions.chores.append((0.3, chore))
    runner.start()
    try:
        assert stuck.wait(5)
        hung_at = runner.beat
        time.sleep(1.2)
        assert runner.beat == hung_at and told[-1] <= hung_at  # no progress, no heartbeat
        release.set()
        time.sleep(0.3)
        assert runner.beat > hung_at + 1.0 and told[-1] > hung_at  # going again
    finally:
        release.set()
        runner.stop()


def test_a_clock_that_runs_out_while_many_bots_are_due_waits_for_no_more_than_a_tick(tmp_path):
    """Twelve games whose bot thinks 0.4 s are due when the runner starts (4.8 s of bots); a
    one-second clock that runs out meanwhile is settled after at most ``BOTS_PER_TICK_S`` of
    them and one more thought, not after them all."""
    kind = BlindAuction()
    marks = tmp_path / "thinking"
    marks.mkdir()
    kind.bots = {**kind.bots, "slow": thinking_bot(str(marks), 0.4)}
    with registered(kind):
        db = str(tmp_path / "games.sqlite3")
        app = create_app({"TESTING": True, "DATABASE": db, "TABLE_RUNNER": False})
        client = app.test_client()
        sessions = app.extensions["game_sessions"]
        for seed in range(12):
            seats = [{"type": "human"}, {"type": "bot", "level": "slow"}]
            body = {"game": NAME, "seats": seats, "seed": seed, "options": {"rounds": 3}}
            assert client.post("/api/games", json=body).status_code == 201
        seats = [{"type": "human"}, {"type": "human"}]
        body = {"game": NAME, "seats": seats, "seed": 1, "options": {"bid_seconds": 1}}
        timed = client.post("/api/games", json=body).get_json()["id"]
        created = time.monotonic()
        sessions.start_runner(0.02)
        try:
            while not sessions.store.actions(timed):
                assert time.monotonic() - created < 10, "the clock was never settled"
                time.sleep(0.02)
            settled = time.monotonic() - created
            thought = len(list(marks.iterdir()))
        finally:
            sessions.stop_runner()
    assert settled < 1.0 + BOTS_PER_TICK_S + 0.4 + 0.6, settled  # (0.6 s: a loaded machine)
    assert thought < 12  # the bots were still being played


def test_a_store_that_cannot_write_leaves_the_bot_due_not_failed(app, client, monkeypatch):
    """A full, read-only or locked store is no fault of the bot's: the runner's look raises it
    (one line in its log, ``TableRunner._run``) and the bot stays due, not failed for a while."""
    import pytest

    from errors import StorageFull
    from web.service.table import play_bots

    sessions = app.extensions["game_sessions"]
    gid = bot_first(client)["id"]

    def full(*_args, **_kwargs):
        raise StorageFull("the disk is full")

    monkeypatch.setattr(sessions, "_write", full)
    with pytest.raises(StorageFull):
        play_bots(sessions, gid, lease_s=None)
    monkeypatch.undo()
    game = sessions.store.get(gid)
    assert game.bot_due is not None and not game.bot_failed
    assert play_bots(sessions, gid, lease_s=None) == 1  # room again: it plays
