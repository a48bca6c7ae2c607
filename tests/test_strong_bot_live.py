"""Tobago's strong bot at a live table: its seat is played by the table's runner, never in a
player's request (``web.service.table``).

- Through Flask's test client (no runner runs under ``TESTING``): the player's POST answers with
  their own move, the bot still thinking; the table's ``play_due_bots`` then plays the move the
  strong search chooses from the bot seat's view with the move's seeded generator.
- Over real HTTP (gunicorn with its table process, a think budget of eight times the default):
  every POST answers with the player's move alone, and the bot's thinking is spent in the table
  process, not in the HTTP workers.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
import requests

from games.base import get_kind, replay
from games.tobago import search
from games.tobago.strategy import strategic_bot
from tests.api_calls import bearer
from tests.bots import bots_move, my_turn
from tests.servers import gunicorn_in, pids_cpu_seconds, table_pids, workers_cpu_seconds

KIND = get_kind("tobago")
SEATS = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "strong"}]


def strategic_move(me: dict) -> dict:
    """The body of the player's next action: the strategic bot's move from their snapshot."""
    move = strategic_bot(me["view"], me["legal_actions"], random.Random(0))
    return {"version": me["version"], "action": move}


def test_the_players_post_answers_before_the_strong_bot_which_the_table_plays(app, monkeypatch):
    monkeypatch.setattr(search, "SETTINGS", replace(search.SETTINGS, rollouts=12))
    monkeypatch.setattr(search, "HORIZON", 3)
    monkeypatch.setattr(search, "CANDIDATES", 4)
    client = app.test_client()
    game = client.post("/api/games", json={"game": "tobago", "seats": SEATS, "seed": 11})
    assert game.status_code == 201, game.get_json()
    gid, token = game.get_json()["id"], game.get_json()["seats"][0]["token"]
    store = app.extensions["game_sessions"].store
    searched = 0
    for _ in range(40):
        me = client.get(f"/api/games/{gid}", headers=bearer(token)).get_json()
        if me["over"] or searched >= 3:
            break
        if not me["legal_actions"]:  # the bot's turn: only the table moves it
            before = me["version"]
            state = replay(KIND, 11, 2, None, ((e.seat, e.action) for e in store.actions(gid)))
            assert KIND.to_act(state) == [1]
            view, legal = KIND.view(state, 1), KIND.legal_actions(state, 1)
            expected = search.strong_bot(view, legal, random.Random(f"11/{before + 1}"))
            searched += len(search.candidates(view, legal, search.CANDIDATES)) > 1
            assert bots_move(client) >= 1
            first = store.actions(gid)[before]
            assert (first.seat, first.action) == (1, expected)
            continue
        answer = client.post(
            f"/api/games/{gid}/actions", json=strategic_move(me), headers=bearer(token)
        )
        assert answer.status_code == 200, answer.get_json()
        after = answer.get_json()
        assert after["version"] == me["version"] + 1  # the player's move alone
        if not after["legal_actions"] and not after["over"]:
            assert after["bot"] == "thinking"  # the bot's move comes later, from the table
            assert len(store.actions(gid)) == after["version"]
    assert searched >= 3


#: The strong bot's rollouts a decision in the HTTP test: eight times the default, so that its
#: searches cost far more CPU than answering the requests does, however long a busy machine
#: makes the player's long-polls wait (each wait costs the HTTP workers CPU too).
ROLLOUTS = 8 * search.SETTINGS.rollouts


@pytest.mark.slow
def test_over_http_the_strong_bot_thinks_in_the_table_process_and_no_post_waits(tmp_path):
    env = {"TOBAGO_STRONG_ROLLOUTS": str(ROLLOUTS)}
    with gunicorn_in(tmp_path, env=env) as server:
        url = server.url
        table = table_pids(server.pid)
        assert table
        made = requests.post(
            f"{url}/api/games",
            json={"game": "tobago", "seats": SEATS, "seed": 11},
            timeout=10,
        )
        assert made.status_code == 201, made.text
        gid, token = made.json()["id"], made.json()["seats"][0]["token"]
        http_before, table_before = workers_cpu_seconds(server.pid), pids_cpu_seconds(table)
        posts = 0
        while posts < 16:
            me = my_turn(url, gid, token, timeout=120)
            if me["over"]:
                break
            answer = requests.post(
                f"{url}/api/games/{gid}/actions",
                json=strategic_move(me),
                headers=bearer(token),
                timeout=10,
            )
            assert answer.status_code == 200, answer.text
            assert answer.json()["version"] == me["version"] + 1  # the player's move alone
            posts += 1
        final = my_turn(url, gid, token, timeout=120)
        bot_entries = final["version"] - posts
        http_cpu = workers_cpu_seconds(server.pid) - http_before
        table_cpu = pids_cpu_seconds(table) - table_before
    assert posts == 16 and bot_entries > posts // 2
    # the strong bot's searches (tens to hundreds of ms each) ran in the table process; the HTTP
    # workers only answered the requests
    assert table_cpu > 2 * http_cpu, (table_cpu, http_cpu)
