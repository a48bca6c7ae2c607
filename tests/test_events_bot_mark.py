"""The events long-poll follows the table's bot mark (``GameRecord.bot``), on each store: a wait
ends when a bot starts or stops thinking with no new entry (the runner clears the mark when
its bots have nothing to say, as Dragon's Gold's market bots waiting for a human's answer), and
the answer carries ``bot`` as the game's state words it."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tests.test_streams import _read
from web.streams import HEARTBEAT_S


@pytest.fixture
def app(database_app):
    """These tests run on each store (``database_app``)."""
    return database_app


def _game(client) -> str:
    body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 3}
    resp = client.post("/api/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["id"]


def _set_bot(app, game_id: str, due: float | None, failed: bool = False) -> None:
    with app.extensions["game_sessions"].store.transaction(game_id) as tx:
        tx.set_bot(due, failed)


def _later(seconds: float, work) -> threading.Thread:
    def run() -> None:
        time.sleep(seconds)
        work()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _poll(client, game_id: str, wait: float) -> tuple[dict, float]:
    started = time.monotonic()
    resp = client.get(f"/api/games/{game_id}/events?after=0&wait={wait:g}")
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json(), time.monotonic() - started


def test_an_answer_says_what_the_bots_do_and_a_quiet_wait_runs_out(app, client):
    gid = _game(client)
    body, took = _poll(client, gid, 0.3)
    assert body["bot"] is None and body["events"] == [] and took >= 0.3
    _set_bot(app, gid, 5.0)
    body, _ = _poll(client, gid, 0)
    assert body["bot"] == "thinking"
    _set_bot(app, gid, 5.0, failed=True)
    assert _poll(client, gid, 0)[0]["bot"] == "failed"


@pytest.mark.parametrize(
    ("before", "after", "shown"),
    [
        ((None, False), (5.0, False), "thinking"),  # a bot is due: the page says so at once
        ((5.0, False), (None, False), None),  # a bot found nothing to say: no entry
        ((5.0, False), (9.0, True), "failed"),  # the bot failed: the table tries again
    ],
)
def test_a_long_poll_returns_when_the_bot_mark_changes(app, client, before, after, shown):
    gid = _game(client)
    _set_bot(app, gid, *before)
    t = _later(0.5, lambda: _set_bot(app, gid, *after))
    body, took = _poll(client, gid, 20)
    t.join(5)
    assert body["bot"] == shown and body["events"] == [] and body["version"] == 0
    assert 0.4 < took < 10  # woken by the mark, not the time-out (20 s)


def test_a_mark_set_again_to_what_the_page_shows_does_not_end_the_wait(app, client):
    gid = _game(client)
    _set_bot(app, gid, 5.0)
    t = _later(0.2, lambda: _set_bot(app, gid, 7.0))  # a runner's lease: still thinking
    body, took = _poll(client, gid, 1.5)
    t.join(5)
    assert body["bot"] == "thinking" and took >= 1.5


def test_a_stream_says_at_once_when_a_bot_stops_thinking_with_nothing_to_say(app, client):
    gid = _game(client)
    _set_bot(app, gid, 5.0)
    resp = client.get(f"/api/games/{gid}/stream")
    got: list = []
    reader = threading.Thread(target=lambda: got.append(_read(resp, 2)), daemon=True)
    reader.start()
    try:
        time.sleep(0.5)  # the stream has looked (the bot thinks) and sleeps on the watcher
        cleared = time.monotonic()
        _set_bot(app, gid, None)
        reader.join(10)
        took = time.monotonic() - cleared
    finally:
        resp.close()
    assert got and got[0][1]["event"] == "bot"
    assert json.loads(got[0][1]["data"]) == {"version": 0, "bot": None}
    assert took < HEARTBEAT_S  # woken by the mark, not at the next heartbeat


def test_a_client_that_shows_another_mark_is_answered_without_a_wait(app, client, monkeypatch):
    """``bot``: what the client shows. A mark that changed between the client's read and its
    long-poll is answered at once (a wait would begin from the new mark and miss it)."""
    gid = _game(client)
    from web.service import following

    waited: list[int] = []
    real = following.wait_for_move
    monkeypatch.setattr(
        following, "wait_for_move", lambda *a, **k: waited.append(1) or real(*a, **k)
    )
    _set_bot(app, gid, 5.0, failed=True)
    for shown, answered_at_once in (("thinking", True), ("none", True), ("failed", False)):
        waited.clear()
        resp = client.get(f"/api/games/{gid}/events?after=0&wait=0.2&bot={shown}")
        assert resp.status_code == 200 and resp.get_json()["bot"] == "failed"
        assert waited == ([] if answered_at_once else [1]), shown
    for bad in ("busy", "", "THINKING", "null"):
        resp = client.get(f"/api/games/{gid}/events?after=0&wait=1&bot={bad}")
        assert resp.status_code == 400
        assert resp.get_json()["error"]["field"] == "bot"


def test_a_read_that_waited_for_the_game_reads_its_row_again(app, client):
    """A GET waits while this process holds the game (a bot thinking in a write); what the
    write changed meanwhile (here the bots' mark, with no new entry) is in its answer."""
    gid = _game(client)
    sessions = app.extensions["game_sessions"]
    entry = sessions._entry(gid)
    answers: list[dict] = []
    with entry.lock:
        reader = threading.Thread(
            target=lambda: answers.append(client.get(f"/api/games/{gid}").get_json())
        )
        reader.start()
        time.sleep(0.3)  # the reader has read the row and waits for the lock
        _set_bot(app, gid, 5.0, failed=True)
    reader.join(10)
    assert answers and answers[0]["bot"] == "failed"
