"""The strong Tobago bot's cheap rollouts: the policy read from the state
(``games.tobago.direct``) chooses exactly what the view-based strategic bot chooses from the
seat's view and reads nothing the view does not show; a copied world (``state.copy_state``) is
equal and independent; a rollout's unchecked move (``games.tobago.playout``) changes a world
exactly as the engine's ``apply`` does."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import fields, is_dataclass

import pytest

from games.base import get_kind
from games.tobago.direct import direct_move
from games.tobago.playout import play
from games.tobago.sampling import sample_state
from games.tobago.state import copy_state
from games.tobago.strategy import strategic_bot
from tests.bots import tobago_positions

KIND = get_kind("tobago")


def _same(state, seat) -> str:
    legal = KIND.legal_actions(state, seat)
    view = KIND.view(state, seat)
    expected = strategic_bot(view, legal, random.Random(0))
    assert direct_move(state, seat, legal) == expected, (state.phase, view["turn"], legal)
    return state.phase


@pytest.mark.parametrize(
    ("seats", "levels"),
    [
        (2, ("normal",)),
        (2, ("normal", "easy")),
        (3, ("normal",)),
        (3, ("easy", "normal", "normal")),
        (4, ("normal",)),
        (4, ("easy", "normal")),
    ],
)
def test_the_direct_policy_chooses_what_the_strategic_bot_chooses(seats, levels):
    phases: Counter[str] = Counter()
    for seed in range(1, 9):
        phases.update(_same(state, seat) for state, seat in tobago_positions(seed, seats, levels))
    assert phases["turn"] > 200 and phases["first_clue"] >= 8 and phases["sharing"] >= 5


@pytest.mark.parametrize("seats", [2, 4])
def test_in_sampled_worlds_too_and_from_the_seats_view_only(seats):
    """In worlds sampled from a seat's view (where rollouts run) every seat's direct move is the
    strategic bot's; and the searching seat's move is the same in every world sampled from its
    view (the hidden parts drawn differently): it reads only what the view shows."""
    checked = 0
    games = (tobago_positions(seed, seats, ("normal",)) for seed in (10, 11, 12))
    for n, (state, seat) in enumerate(p for game in games for p in game):
        if n % 3 or state.phase == "place_atv":
            continue
        view = json.loads(json.dumps(KIND.view(state, seat)))
        legal = KIND.legal_actions(state, seat)
        moves = set()
        for k in range(3):
            world = sample_state(view, random.Random(k))
            moves.add(json.dumps(direct_move(world, seat, legal), sort_keys=True))
            for other in KIND.to_act(world):
                _same(world, other)
        assert len(moves) == 1
        checked += 1
    assert checked > 40


def _mutable_parts(obj, path="state"):
    """Every list, dict and set reachable through ``obj``'s dataclass fields (and the lists
    and dicts they hold), with where it lies, the shared read-only parts left out."""
    shared = {"island", "solver_options", "island_source", "log"}
    if is_dataclass(obj):
        for f in fields(obj):
            if f.name not in shared:
                yield from _mutable_parts(getattr(obj, f.name), f"{path}.{f.name}")
    elif isinstance(obj, (list, dict, set)):
        yield path, obj
        items = obj.values() if isinstance(obj, dict) else obj
        for k, v in enumerate(items):
            yield from _mutable_parts(v, f"{path}[{k}]")


@pytest.mark.parametrize("seats", [2, 4])
def test_a_copied_world_is_equal_and_independent(seats):
    """``copy_state`` (every candidate plays a copy of a sampled world): equal to the world,
    drawing what it would draw, sharing none of its mutable parts; a game played on in the copy
    leaves the world as it was."""
    checked = 0
    for n, (state, seat) in enumerate(tobago_positions(20 + seats, seats, ("normal",))):
        if n % 5 or state.phase == "place_atv":
            continue
        world = sample_state(KIND.view(state, seat), random.Random(n))
        before = (KIND.state_to_json(world), world.rng.getstate())
        twin = copy_state(world)
        assert twin == world
        mine = {id(part) for _, part in _mutable_parts(world)}
        assert not [where for where, part in _mutable_parts(twin) if id(part) in mine]
        rng = random.Random(n)
        while not KIND.is_over(twin):
            actor = KIND.to_act(twin)[0]
            KIND.apply(twin, actor, KIND.bot_action(twin, actor, "normal", rng))
        assert (KIND.state_to_json(world), world.rng.getstate()) == before
        checked += 1
    assert checked > 10


@pytest.mark.parametrize(("seats", "levels"), [(2, ("normal",)), (3, ("easy", "normal"))])
def test_a_rollout_move_leaves_the_world_as_the_engine_s_apply_does(seats, levels):
    """``playout.play`` (the rollouts' moves, unchecked) and ``GameKind.apply`` make the same
    state of every legal move the bots choose, phase changes and sharings included."""
    phases: Counter[str] = Counter()
    for seed in (1, 2, 3):
        for n, (state, seat) in enumerate(tobago_positions(seed, seats, levels)):
            legal = KIND.legal_actions(state, seat)
            move = legal[n % len(legal)] if state.phase != "sharing" else legal[n % 2]
            a, b = copy_state(state), copy_state(state)
            KIND.apply(a, seat, move)
            play(KIND, b, seat, move)
            assert a == b
            assert KIND.state_to_json(a) == KIND.state_to_json(b)
            phases[state.phase] += 1
    assert phases["turn"] > 100 and phases["sharing"] > 5
