"""A finished game's positions (``games.review``): any step, from any seat, exactly as replayed.

Random bot games of every kind with an analyst are replayed to steps asked in random order;
each seat's view equals the engine's view of a fresh replay to that step, the full view holds
every seat's private items, and a seat's view never holds another seat's hidden hand.
"""

from __future__ import annotations

import json
import random

import pytest

from errors import InvalidInput, NotFound
from games.base import get_kind, play_bots, replay
from games.review import CHECKPOINT_EVERY, GameLog, Positions, check_step, merged_players_view
from tests.kinds import covering
from web.game_site import site_of

#: A table of bots per game (an entry per game: ``covering``).
LINEUPS = covering(
    {
        "tobago": ["strategic", "random", "random"],
        "dao": ["ev", "random", "greedy"],
        "isla_dorada": ["planner", "random", "random"],
        "dragons_gold": ["greedy", "random", "random"],
    }
)


def bot_game(name: str, seed: int, levels: list[str] | None = None) -> GameLog:
    kind = get_kind(name)
    levels = levels or LINEUPS[name]
    state = kind.new_state(seed, len(levels), {})
    actions: list = []
    play_bots(
        kind,
        state,
        levels,
        random.Random(seed),
        on_action=lambda s, a, e: actions.append((s, a)),
    )
    return GameLog.of(name, seed, len(levels), {}, actions)


def game_positions(log: GameLog, every: int = CHECKPOINT_EVERY) -> Positions:
    """The log's positions with its game's own full view, as the review service builds them."""
    return Positions(log, every, full_view=site_of(log.kind).full_view)


def canon(value) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("name", sorted(LINEUPS))
def test_every_step_from_every_seat_is_the_engine_view_of_a_replay_to_that_step(name):
    log = bot_game(name, 11)
    kind = get_kind(name)
    positions = game_positions(log, every=7)
    rng = random.Random(3)
    steps = [0, log.steps, *rng.sample(range(log.steps + 1), min(25, log.steps))]
    steps += [steps[-1] + 1, steps[-1] + 2]  # walking forward one step at a time
    for step in steps:
        step = min(step, log.steps)
        state = replay(kind, log.seed, log.seats, log.options, log.actions[:step])
        for seat in range(log.seats):
            assert canon(positions.view(step, seat)) == canon(kind.view(state, seat)), step
        full = positions.view(step, None)
        for seat in range(log.seats):
            assert canon(full["players"][seat]) == canon(kind.view(state, seat)["players"][seat])
        assert positions.to_act(step) == ([] if kind.is_over(state) else kind.to_act(state))


@pytest.mark.parametrize("name", sorted(LINEUPS))
def test_the_full_view_holds_every_seats_private_items_and_a_seat_only_its_own(name):
    log = bot_game(name, 5)
    kind = get_kind(name)
    positions = game_positions(log)
    for step in range(1, log.steps, max(1, log.steps // 15)):
        state = positions.state(step)
        if kind.is_over(state):
            continue
        full = canon(positions.view(step, None))
        spectator = canon(kind.view(state, None))
        for seat in range(log.seats):
            for item in kind.private_items(state, seat):
                assert canon(item)[1:-1] in full, (step, seat, item)
        if name == "tobago":  # hands: shown to their owner (and in the full view) only
            for seat in range(log.seats):
                view = positions.view(step, seat)
                for other, p in enumerate(view["players"]):
                    assert ("hand" in p) == (other == seat)
            assert '"hand"' not in spectator


def test_checkpoints_do_not_change_any_position():
    log = bot_game("tobago", 8)
    dense, sparse = Positions(log, every=1), Positions(log, every=1000)
    for step in range(0, log.steps + 1, 5):
        assert canon(dense.view(step, 1)) == canon(sparse.view(step, 1))


def test_a_step_outside_the_game_is_refused_with_its_reason():
    log = bot_game("dao", 2)
    positions = Positions(log)
    for bad in (-1, "3", True, None):
        with pytest.raises(InvalidInput) as e:
            positions.state(bad)  # type: ignore[arg-type]
        assert e.value.field == "step"
    with pytest.raises(NotFound) as missing:
        positions.state(log.steps + 1)
    assert missing.value.reason == "no_such_step" and missing.value.params == {"steps": log.steps}
    assert check_step(log.steps, log.steps) == log.steps


def test_a_record_gives_the_same_log():
    log = bot_game("dao", 4)
    record = {
        "game": "dao",
        "seed": log.seed,
        "options": log.options,
        "seats": [{"type": "bot"}] * log.seats,
        "actions": [{"seat": s, "action": a} for s, a in log.actions],
    }
    assert GameLog.from_record(record) == log


def test_the_merged_view_shows_the_players_own_entries():
    kind = get_kind("dao")
    log = bot_game("dao", 9)
    state = replay(kind, log.seed, log.seats, log.options, log.actions[:10])
    merged = merged_players_view(kind, state)
    assert [p["cards"] for p in merged["players"]] == [
        kind.view(state, s)["players"][s]["cards"] for s in range(log.seats)
    ]
    assert all(p["cards"] is None for p in kind.view(state, None)["players"])


@pytest.mark.parametrize("name", list(LINEUPS))
def test_the_positions_estimate_of_memory_holds_what_they_keep(name):
    """The review's positions cache is bounded by ``Positions.nbytes``: an estimate no smaller
    than what the object reaches once its recent states are full (and not wildly larger)."""
    from hexmap.sized_cache import deep_size

    positions = Positions(bot_game(name, 5))
    for step in range(positions.steps, max(-1, positions.steps - 12), -3):
        positions.state(step)
    measured = deep_size(positions, limit=20_000_000)
    assert measured <= positions.nbytes() <= 8 * measured, (measured, positions.nbytes())
