"""How late the table is, on the service's clock (``web.service.table``: ``owed``, ``behind``):
the game's state carries when the table must act next (``table_due``) and, once that is more
than ``BEHIND_S`` ago, how late it is (``behind``), so a game page says the table is behind
(``tests/test_table_behind_browser.py``). And the runner's loop proves its progress
(``TableRunner.beat``, ``on_beat``: the heartbeat of the table's process, ``table_app.py``)."""

from __future__ import annotations

import dataclasses
import threading
import time

from web.service.table import BEHIND_S, TableRunner, behind, owed


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
