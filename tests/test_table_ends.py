"""Every game kind ends for a table that stops playing (a game's length is bounded).

- Tobago (``../shared/rules/tobago.md`` §8): two whole rounds in which nobody plays a clue card,
  places or removes a marker or raises a treasure end the game (``stalled``), with the scores as
  they stand; exchanges, drives and passes make no progress; any progress starts the count again;
  the count is in every view and survives a snapshot. Over real HTTP too (gunicorn): two humans
  who only pass see the game end after four passes.
- DAO cannot stall: every action moves a card one step along deck → display → pile, never back,
  so a game has at most two actions per card (``games.dao.engine`` docstring); random games of
  every seat count stay within that bound.
- Blind Auction (the test game): every action is a bid of a hand card or the table's timeout,
  so a game has at most ``rounds`` × (seats + 1) entries.

Isla Dorada's and Dragon's Gold's bounds are argued in their engines' docstrings and checked by
``tests/test_bot_tables_end.py`` over many all-bot games.
"""

from __future__ import annotations

import random

import pytest
import requests

from errors import InvalidInput
from games.base import get_kind
from games.dao import cards as dao_cards
from games.tobago.engine import STALL_ROUNDS
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


def exchange_or_drive(state, turn: int) -> list[dict]:
    """A turn without progress: an exchange, or a drive to a neighbouring space, then the end."""
    seat = TOBAGO.to_act(state)[0]
    legal = TOBAGO.legal_actions(state, seat)
    drive = next((a for a in legal if a["type"] == "drive"), None)
    if turn % 2 or drive is None:
        return TOBAGO.apply(state, seat, {"type": "exchange"})
    TOBAGO.apply(state, seat, drive)
    return TOBAGO.apply(state, seat, {"type": "end_turn"})


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_tobago_ends_after_two_whole_rounds_without_progress(seats):
    """Rules §8: two whole rounds in which nobody plays a clue card, places or removes a marker
    or raises a treasure end the game, scored as it stands (end reason ``stalled``)."""
    state = tobago_in_play(seats)
    assert STALL_ROUNDS == 2
    for turn in range(STALL_ROUNDS * seats - 1):
        pass_turn(state)
        assert not TOBAGO.is_over(state)
        assert TOBAGO.view(state, None)["stall"] == {"turns": turn + 1, "limit": 2 * seats}
    events = pass_turn(state)
    assert TOBAGO.is_over(state) and state.phase == "over"
    over = [e for e in events if e["type"] == "game_over"]
    assert over and "rounds" in over[0]["reason"] and over[0]["end"] == "stalled"  # worded
    assert TOBAGO.scores(state) == [0] * seats  # nobody raised: the scores as they stand


@pytest.mark.parametrize("seats", [2, 4])
def test_tobago_exchanges_and_drives_make_no_progress(seats):
    state = tobago_in_play(seats, seed=7)
    for turn in range(STALL_ROUNDS * seats - 1):
        exchange_or_drive(state, turn)
        assert not TOBAGO.is_over(state) and state.idle_turns == turn + 1
    exchange_or_drive(state, 1)
    assert TOBAGO.is_over(state) and TOBAGO.view(state, None)["turn_number"] == 2 * seats


def test_tobago_a_clue_played_starts_the_count_again():
    state = tobago_in_play(2)
    for _ in range(3):
        pass_turn(state)
    seat = TOBAGO.to_act(state)[0]
    play = next(a for a in TOBAGO.legal_actions(state, seat) if a["type"] == "play_clue")
    TOBAGO.apply(state, seat, play)  # a clue played: progress
    while TOBAGO.to_act(state) == [seat]:  # the extra marker, or the end of the action
        TOBAGO.apply(state, seat, TOBAGO.legal_actions(state, seat)[0])
    assert state.idle_turns == 0 and not TOBAGO.is_over(state)
    for _ in range(3):
        pass_turn(state)
        assert not TOBAGO.is_over(state)
    pass_turn(state)
    assert TOBAGO.is_over(state)


def test_tobago_a_marker_removed_with_an_amulet_is_progress():
    state = tobago_in_play(2)
    for _ in range(3):
        pass_turn(state)
    seat = TOBAGO.to_act(state)[0]
    state.players[seat].amulets = 1
    removal = next(a for a in TOBAGO.legal_actions(state, seat) if a["type"] == "remove_marker")
    TOBAGO.apply(state, seat, removal)
    assert not TOBAGO.is_over(state)
    TOBAGO.apply(state, seat, {"type": "end_turn"})
    assert state.idle_turns == 0 and not TOBAGO.is_over(state)


def test_tobago_the_count_survives_a_snapshot():
    state = tobago_in_play(3)
    pass_turn(state)
    pass_turn(state)
    again = TOBAGO.state_from_json(TOBAGO.state_to_json(state))
    assert again.idle_turns == 2 and again == state
    old = TOBAGO.state_to_json(state)
    old["format"] = [old["format"][0], 2]  # a snapshot of before (it counted passes only)
    del old["idle_turns"]
    old["passes"] = 2
    with pytest.raises(InvalidInput):  # refused: the log replays
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
        assert me["over"] and passes == STALL_ROUNDS * 2
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
