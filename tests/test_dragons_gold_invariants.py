"""Dragon's Gold invariants over random games (every option combination, 3-6 seats).

At every step of bot games (``random`` and ``greedy`` seats, on the simulated clock of
``games.base.play_bots``, so negotiations and markets end by timeouts too): the 126 tokens are
all in the bag, on the dragons, behind the screens or out of the game; every view validates
against ``view_schema()``; nobody sees another's hoard or hand while the game runs (the generic
leak detector of ``tests/test_hidden_information.py`` on every seat's view, advanced items and
notes included); every listed legal action applies. A game's log, timeouts included, replays
through ``games.base.replay`` to the same state, and a state's JSON snapshot goes on exactly like
the state.
"""

from __future__ import annotations

import json
import random

import jsonschema_rs
import pytest

from games.base import SYSTEM, play_bots, replay
from games.dragons_gold.engine import KIND, token_total
from tests.test_hidden_information import leaks

OPTIONS = [
    {},
    {"advanced": True},
    {"negotiation": "division"},
    {"advanced": True, "negotiation": "division"},
]
VALIDATOR = jsonschema_rs.validator_for(KIND.view_schema())


def levels_for(seats: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(["random", "greedy"]) for _ in range(seats)]


def check_step(state, rng: random.Random, problems: list[str]) -> None:
    if token_total(state) != 126:
        problems.append(f"tokens: {token_total(state)}")
    seats = KIND.seat_count(state)
    views = {v: KIND.view(state, v) for v in [None, *range(seats)]}
    for v, view in views.items():
        errors = [e.message for e in VALIDATOR.iter_errors(json.loads(json.dumps(view)))]
        if errors:
            problems.append(f"view {v}: {errors[:2]}")
    over = KIND.is_over(state)
    for v, view in views.items():
        for p in view["players"]:
            shown = p["hoard"] is not None
            if shown != (over or p["seat"] == v) or (p["hand"] is not None) != shown:
                problems.append(f"view {v} shows seat {p['seat']}'s hoard={shown}")
    if not over:
        legal = {s: KIND.legal_actions(state, s) for s in range(seats)}
        problems += leaks(KIND, state, views, legal)
        acting = KIND.to_act(state)
        seat = rng.choice(acting)
        for action in legal[seat]:
            copy = KIND.state_from_json(KIND.state_to_json(state))
            try:
                KIND.apply(copy, seat, action)
            except Exception as e:  # noqa: BLE001 - any refusal of a listed action is the bug
                problems.append(f"listed action {action} of seat {seat} refused: {e}")
        for s in range(seats):
            if s not in acting and legal[s]:
                problems.append(f"seat {s} has legal actions but may not act")


@pytest.mark.slow  # random games at every seat count and option set
@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "basic"
)
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_random_games_conserve_tokens_hide_hoards_and_list_only_legal_actions(options, seats):
    for game in range(2):
        seed = 100 * seats + game
        state = KIND.new_state(seed, seats, options)
        problems: list[str] = []
        rng = random.Random(seed)
        check_step(state, rng, problems)
        log: list = []

        def after(seat, action, events, state=state, log=log, problems=problems, rng=rng):
            log.append((seat, action))
            check_step(state, rng, problems)
            assert not problems, problems[:5]

        play_bots(KIND, state, levels_for(seats, seed), random.Random(seed), on_action=after)
        assert KIND.is_over(state) and not state.row
        assert not state.bag or not state.deck  # the end: nothing more can come out
        again = replay(KIND, seed, seats, options, log)
        assert KIND.state_to_json(again) == KIND.state_to_json(state)


def test_a_record_with_timeouts_replays_exactly():
    seed, seats = 11, 5
    state = KIND.new_state(seed, seats, {"negotiation_seconds": 5})
    log: list = []
    play_bots(
        KIND,
        state,
        ["random"] * seats,
        random.Random(3),
        on_action=lambda seat, action, events: log.append((seat, action)),
    )
    timeouts = [a for s, a in log if s is SYSTEM]
    assert timeouts and all(a == {"type": "timeout"} for a in timeouts)
    record = json.loads(json.dumps(log))  # as stored: JSON, seat null for the table
    again = replay(KIND, seed, seats, {"negotiation_seconds": 5}, [tuple(e) for e in record])
    assert KIND.state_to_json(again) == KIND.state_to_json(state)
    assert KIND.scores(again) == KIND.scores(state)


def test_a_json_snapshot_goes_on_exactly_like_the_state():
    state = KIND.new_state(5, 4, {"advanced": True})
    rng = random.Random(1)
    for _ in range(40):
        play_one(state, rng)
    snapshot = KIND.state_from_json(json.loads(json.dumps(KIND.state_to_json(state))))
    assert snapshot == state
    for _ in range(60):
        if KIND.is_over(state):
            break
        seat, action = play_one(state, rng)
        KIND.apply(snapshot, seat, action)
    assert KIND.state_to_json(snapshot) == KIND.state_to_json(state)


def play_one(state, rng):
    """One random legal action (or the timeout when the dice say so in a timed phase)."""
    timer = KIND.timer(state)
    if timer is not None and rng.random() < 0.2:
        KIND.apply(state, SYSTEM, timer.action)
        return SYSTEM, timer.action
    seat = rng.choice(KIND.to_act(state))
    action = rng.choice(KIND.legal_actions(state, seat))
    KIND.apply(state, seat, action)
    return seat, action


def test_the_same_seed_and_log_give_the_same_game_and_another_seed_another():
    a = KIND.new_state(1, 4)
    b = KIND.new_state(1, 4)
    c = KIND.new_state(2, 4)
    assert a == b and a.bag != c.bag


def test_the_view_schema_refuses_what_the_contract_rules_out():
    view = json.loads(json.dumps(KIND.view(KIND.new_state(3, 4), 1)))
    assert VALIDATOR.is_valid(view)
    for key, bad in (
        ("phase", "dancing"),
        ("bag", "many"),
        ("removed", {"rubies": 1}),
        ("players", view["players"][:2]),
    ):
        assert not VALIDATOR.is_valid({**view, key: bad}), key
    hidden = json.loads(json.dumps(view))
    hidden["players"][0]["hoard"] = {"gold": 1}  # a hoard with colours missing
    assert not VALIDATOR.is_valid(hidden)
