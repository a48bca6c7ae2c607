"""Every game kind ends for a table that stops playing (a game's length is bounded).

- Tobago: a seat may always pass, so the engine ends the game when every seat passes through a
  whole round twice running (``games.tobago`` Decision "A table that stops playing"), with the
  scores as they stand; any other action starts the count again; the count survives a snapshot.
  Over real HTTP too (gunicorn): two humans who only pass see the game end after four passes.
- DAO cannot stall: every action moves a card one step along deck → display → pile, never back,
  so a game has at most two actions per card (``games.dao.engine`` docstring); random games of
  every seat count stay within that bound.
- Blind Auction (the test game): every action is a bid of a hand card or the table's timeout,
  so a game has at most ``rounds`` × (seats + 1) entries.
"""

from __future__ import annotations

import random

import pytest
import requests

from errors import InvalidInput
from games.base import get_kind
from games.dao import cards as dao_cards
from games.tobago.turn import PASS_ROUNDS
from tests.servers import APP, Gunicorn
from tests.testgame import BlindAuction

TOBAGO = get_kind("tobago")


def tobago_in_play(seats: int, seed: int = 5):
    """A Tobago game past its setup (each setup step takes the first legal action)."""
    state = TOBAGO.new_state(seed, seats, {})
    while state.phase != "turn":
        seat = TOBAGO.to_act(state)[0]
        TOBAGO.apply(state, seat, TOBAGO.legal_actions(state, seat)[0])
    return state


def pass_turn(state) -> list[dict]:
    seat = TOBAGO.to_act(state)[0]
    return TOBAGO.apply(state, seat, {"type": "end_turn"})


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_tobago_ends_when_every_seat_passes_two_rounds_running(seats):
    state = tobago_in_play(seats)
    for _ in range(PASS_ROUNDS * seats - 1):
        pass_turn(state)
        assert not TOBAGO.is_over(state)
    events = pass_turn(state)
    assert TOBAGO.is_over(state) and state.phase == "over"
    over = [e for e in events if e["type"] == "game_over"]
    assert over and "passed" in over[0]["reason"] and over[0]["end"] == "all_passed"  # worded
    assert TOBAGO.scores(state) == [0] * seats  # nobody raised: the scores as they stand


def test_tobago_any_other_action_starts_the_count_again():
    state = tobago_in_play(2)
    for _ in range(3):
        pass_turn(state)
    seat = TOBAGO.to_act(state)[0]
    TOBAGO.apply(state, seat, {"type": "exchange"})  # the seat plays (action 3)
    assert state.passes == 0 and not TOBAGO.is_over(state)
    if TOBAGO.to_act(state) == [seat]:  # the exchange may leave the turn to finish
        TOBAGO.apply(state, seat, {"type": "end_turn"})
    for _ in range(3):
        pass_turn(state)
        assert not TOBAGO.is_over(state)
    pass_turn(state)
    assert TOBAGO.is_over(state)


def test_tobago_pass_count_survives_a_snapshot():
    state = tobago_in_play(3)
    pass_turn(state)
    pass_turn(state)
    again = TOBAGO.state_from_json(TOBAGO.state_to_json(state))
    assert again.passes == 2
    old = TOBAGO.state_to_json(state)
    del old["passes"]  # a snapshot written before the count existed: refused, the log replays
    with pytest.raises(InvalidInput):
        TOBAGO.state_from_json(old)


@pytest.mark.slow  # gunicorn in the test
def test_tobago_table_that_only_passes_ends_over_http(tmp_path):
    with Gunicorn(tmp_path / "g.sqlite3", APP, workers=1, threads=2, log=tmp_path / "g.log") as srv:
        body = {"game": "tobago", "seats": [{"type": "human"}, {"type": "human"}], "seed": 9}
        game = requests.post(srv.url + "/api/games", json=body, timeout=30).json()
        tokens = [s["token"] for s in game["seats"]]
        passes = 0
        for _ in range(60):
            me = requests.get(f"{srv.url}/api/games/{game['id']}", timeout=30).json()
            if me["over"]:
                break
            seat = me["to_act"][0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            mine = requests.get(f"{srv.url}/api/games/{game['id']}", headers=auth, timeout=30)
            legal = mine.json()["legal_actions"]
            action = {"type": "end_turn"} if {"type": "end_turn"} in legal else legal[0]
            passes += action == {"type": "end_turn"}
            resp = requests.post(
                f"{srv.url}/api/games/{game['id']}/actions",
                json={"version": me["version"], "action": action},
                headers=auth,
                timeout=30,
            )
            assert resp.status_code == 200, resp.text
        assert me["over"] and passes == PASS_ROUNDS * 2
        assert me["scores"] == [0, 0]


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_dao_games_have_at_most_two_actions_per_card(seats):
    kind = get_kind("dao")
    bound = 2 * dao_cards.CARD_COUNT
    rng = random.Random(seats)
    for seed in range(40):
        state = kind.new_state(seed, seats, {})
        n = 0
        while not kind.is_over(state):
            seat = kind.to_act(state)[0]
            kind.apply(state, seat, rng.choice(kind.legal_actions(state, seat)))
            n += 1
            assert n <= bound
    assert bound == 120


def test_blind_auction_has_at_most_rounds_times_seats_plus_one_entries():
    kind = BlindAuction()
    rng = random.Random(1)
    for seed in range(30):
        seats, rounds = rng.randint(2, 4), rng.randint(3, 8)
        state = kind.new_state(seed, seats, {"rounds": rounds})
        n = 0
        while not kind.is_over(state):
            seat = rng.choice(kind.to_act(state))
            kind.apply(state, seat, rng.choice(kind.legal_actions(state, seat)))
            n += 1
        assert n <= rounds * (seats + 1)
