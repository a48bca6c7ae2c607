"""Isla Dorada over whole random games: cards conserved, gold never created, 16 markers, views that
match the schema, exact snapshots, replay from a record, and the planner beating random play.
(Hidden information is checked for every kind by ``tests/test_hidden_information.py``.)"""

from __future__ import annotations

import json
import random

import jsonschema_rs
import pytest

from games.base import play_bots, replay
from games.isla_dorada import KIND
from games.isla_dorada import scenario as S
from games.isla_dorada import tables as T
from games.simulate import simulate
from tests.bots import bots_move

VALIDATOR = jsonschema_rs.validator_for(KIND.view_schema())


def check(state, previous_gold):
    assert sorted(S.adventure_cards(state)) == list(range(T.ADV_COUNT))
    assert sorted(S.goal_cards(state)) == list(range(T.GOAL_COUNT))
    for s in range(state.seats):
        assert 0 <= state.gold[s] <= previous_gold[s] <= T.START_GOLD  # gold is never created
    assert state.markers_left + sum(state.explored) == T.MARKERS
    assert state.markers_left >= 0


def play_checked(seed: int, seats: int, levels: list[str], views_every: int = 7):
    state = KIND.new_state(seed, seats)
    rng = random.Random(seed)
    log = []
    gold = list(state.gold)
    step = 0
    while not KIND.is_over(state):
        seat = KIND.to_act(state)[0]
        action = KIND.bot_action(state, seat, levels[seat], rng)
        KIND.apply(state, seat, action)
        log.append((seat, action))
        check(state, gold)
        gold = list(state.gold)
        step += 1
        if step % views_every == 0:
            for viewer in (None, seat):
                VALIDATOR.validate(json.loads(json.dumps(KIND.view(state, viewer))))
        assert step < 3000
    return state, log


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_random_and_planner_games_keep_every_invariant(seats):
    for seed in range(4):
        levels = ["random" if (s + seed) % 2 else "planner" for s in range(seats)]
        state, _ = play_checked(seed * 10 + seats, seats, levels)
        assert state.phase == "over" and state.end in ("markers", "stalled")
        assert state.round >= 16 or state.end == "stalled"
        for viewer in [None, *range(seats)]:
            view = KIND.view(state, viewer)
            VALIDATOR.validate(json.loads(json.dumps(view)))
            assert view["scores"] == [r["total"] for r in view["score_breakdown"]]
            assert KIND.scores(state) == [float(x) for x in view["scores"]]
            for row in view["score_breakdown"]:
                assert row["total"] == (
                    row["gold"] + row["treasures"] + row["bonuses"] + row["destiny"] - row["curses"]
                )


def test_views_show_only_what_the_rules_allow_during_play():
    state = KIND.new_state(3, 4)
    play_bots_until = 40
    rng = random.Random(3)
    for _ in range(play_bots_until):
        seat = KIND.to_act(state)[0]
        KIND.apply(state, seat, KIND.bot_action(state, seat, "planner", rng))
    spectator = KIND.view(state, None)
    assert all(p["hand"] is None and p["treasures"] is None for p in spectator["players"])
    assert "mine" not in spectator
    me = KIND.view(state, 2)
    for p in me["players"]:
        assert (p["hand"] is not None) == (p["seat"] == 2)
        assert p["hand_size"] == len(state.hands[p["seat"]])
    assert me["map"]["crash_site"] == "crash_site" and len(me["map"]["routes"]) == T.ROUTE_COUNT


def test_snapshots_round_trip_exactly_and_play_on_identically():
    state = KIND.new_state(11, 5)
    rng = random.Random(11)
    for _ in range(120):
        seat = KIND.to_act(state)[0]
        KIND.apply(state, seat, KIND.bot_action(state, seat, "random", rng))
    data = json.loads(json.dumps(KIND.state_to_json(state)))
    copy = KIND.state_from_json(data)
    assert KIND.state_to_json(copy) == KIND.state_to_json(state)
    for s in (state, copy):
        play_bots(KIND, s, ["random"] * 5, random.Random(5))
    assert KIND.state_to_json(copy) == KIND.state_to_json(state)
    with pytest.raises(Exception) as info:
        KIND.state_from_json({"seats": 3})
    assert "snapshot" in str(info.value)


def test_replay_of_the_action_log_rebuilds_the_game():
    state, log = play_checked(21, 4, ["planner", "random", "planner", "random"], views_every=50)
    again = replay(KIND, 21, 4, None, log)
    assert KIND.state_to_json(again) == KIND.state_to_json(state)


def test_replay_from_a_record_through_the_api(client):
    seats = [{"type": "human", "name": "me"}] + [{"type": "bot", "level": "planner"}] * 3
    game = client.post(
        "/api/games", json={"game": "isla_dorada", "seats": seats, "seed": 4}
    ).get_json()
    token = game["seats"][0]["token"]
    rng = random.Random(4)
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(2000):
        bots_move(client)  # the planners' moves, due after the player's
        snap = client.get(f"/api/games/{game['id']}", headers=headers).get_json()
        if snap["over"]:
            break
        action = KIND.bots["random"](snap["view"], snap["legal_actions"], rng)
        resp = client.post(
            f"/api/games/{game['id']}/actions",
            json={"version": snap["version"], "action": action},
            headers=headers,
        )
        assert resp.status_code == 200, resp.get_json()
    assert snap["over"]
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    imported = client.post("/api/games/import", json=record).get_json()
    assert imported["over"] and imported["scores"] == snap["scores"]
    assert imported["view"] == client.get(f"/api/games/{game['id']}").get_json()["view"]


@pytest.mark.slow  # forty four-seat games
def test_the_planner_clearly_beats_random_play():
    result = simulate(KIND, 40, 4, ["planner", "random", "random", "random"], seed=3)
    assert result["by_bot"]["planner"]["win_share_per_entry"] > 0.6
    assert result["by_bot"]["planner"]["mean_score"] > 2 * result["by_bot"]["random"]["mean_score"]


def test_bots_are_deterministic_given_view_legal_and_rng():
    state = KIND.new_state(8, 4)
    for _ in range(30):
        seat = KIND.to_act(state)[0]
        view, legal = KIND.view(state, seat), KIND.legal_actions(state, seat)
        for name, bot in KIND.bots.items():
            assert bot(view, legal, random.Random(1)) == bot(view, legal, random.Random(1)), name
            assert bot(view, legal, random.Random(1)) in legal
        KIND.apply(state, seat, KIND.bots["planner"](view, legal, random.Random(1)))


def test_the_view_schema_is_in_the_openapi_description(client):
    doc = client.get("/openapi.json").get_json()
    view = doc["components"]["schemas"]["View_isla_dorada"]
    assert {"map", "expedition", "round", "markers_left", "leader", "players"} <= set(
        view["required"]
    )
    player = view["properties"]["players"]["items"]
    assert {"gold", "hand_size", "hand"} <= set(player["required"])
    row = view["properties"]["score_breakdown"]["items"]
    assert set(row["required"]) == {"gold", "treasures", "bonuses", "destiny", "curses", "total"}
    assert "$ref" not in json.dumps(view)
