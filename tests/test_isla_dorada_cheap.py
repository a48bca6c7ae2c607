"""The strong Isla Dorada bot's cheaper rollouts make the same decisions
(``games.isla_dorada.fast``, ``games.isla_dorada.playout``, the planner's caches): the lean
view holds what the full view holds and the planner moves the same on it (never drawing from
its generator); a copied state equals its original and shares nothing with it; a playout move
leaves a state as ``GameKind.apply`` does; the remembered outlooks and payments equal the
computed ones; and a whole decision (its move and every rollout's value) equals the old
path's: full views, each candidate's state sampled again, checked moves, nothing remembered."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.base import get_kind, next_bot_action
from games.isla_dorada import fast, inference, planner, playout, strong
from games.isla_dorada import payment as M
from games.isla_dorada import tables as T
from games.isla_dorada.sampling import SAMPLED_PHASES, goal_belief, sample_state
from games.isla_dorada.state import IslaState
from games.state import OVER

KIND = get_kind("isla_dorada")


def positions(seed: int, seats: int = 4, every: int = 1) -> list[tuple[IslaState, int]]:
    """Every ``every``-th state of a game of planners (to its end), with the first seat to act
    (copies: the game goes on)."""
    state = KIND.new_state(seed, seats, None)
    out = []
    n = 0
    while not KIND.is_over(state):
        if n % every == 0:
            out.append((fast.copy_state(state), KIND.to_act(state)[0]))
        found = next_bot_action(KIND, state, ["normal"] * seats, lambda: random.Random(seed))
        assert found is not None
        KIND.apply(state, *found)
        n += 1
    return out


def _lean_parts(lean: dict, full: dict, where: str) -> int:
    """Assert every part ``lean`` holds equals ``full``'s (``Lean`` parts within, recursively);
    how many were compared."""
    n = 0
    for key, value in dict.items(lean):
        if isinstance(value, fast.Lean):
            n += _lean_parts(value, full[key], f"{where}.{key}")
        elif key == "players":
            for s, p in enumerate(value):
                n += _lean_parts(p, full[key][s], f"{where}.players[{s}]")
        else:
            assert value == full[key], f"{where}.{key}"
            n += 1
    return n


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lean_view_holds_the_full_views_parts_and_the_planner_moves_the_same(seed: int) -> None:
    phases = set()
    for state, seat in positions(seed):
        full = KIND.view(state, seat)
        lean = fast.planner_view(KIND, state, seat)
        assert _lean_parts(lean, full, "view") > 10
        # anything else is read from the full view
        for key in ("history", "map", "to_act", "deck", "last_events"):
            assert lean[key] == full[key]
        assert (
            lean["players"][(seat + 1) % 4]["played"] == full["players"][(seat + 1) % 4]["played"]
        )
        assert lean["players"][seat]["wins"] == full["players"][seat]["wins"]
        legal = KIND.legal_actions(state, seat)
        if len(legal) > 1:
            phases.add(state.phase)
            assert planner.plan(lean, legal, random.Random(0)) == planner.plan(
                full, legal, random.Random(0)
            )
    assert {"bid", "pay", "draw", "treasure"} <= phases


def test_the_lean_view_of_a_finished_game_is_the_full_view() -> None:
    state, seat = positions(4)[-1]
    while not KIND.is_over(state):
        found = next_bot_action(KIND, state, ["normal"] * 4, lambda: random.Random(4))
        assert found is not None
        KIND.apply(state, *found)
    assert state.phase == OVER
    assert fast.planner_view(KIND, state, seat) == KIND.view(state, seat)


class _NoDraw(random.Random):
    """A generator that refuses to be drawn from."""

    def random(self) -> float:
        raise AssertionError("the planner drew from its generator")

    def getrandbits(self, k: int) -> int:
        raise AssertionError("the planner drew from its generator")


@pytest.mark.parametrize("seed", [16, 17])
def test_the_planner_never_draws_from_its_generator(seed: int) -> None:
    """The strong bot hands the planner one generator for all its moves (``_UNUSED``)."""
    for state, seat in positions(seed):
        legal = KIND.legal_actions(state, seat)
        view = fast.planner_view(KIND, state, seat)
        assert planner.plan(view, legal, _NoDraw(0)) == planner.plan(view, legal, random.Random(0))


def _mutables(value: Any, seen: dict[int, Any]) -> None:
    """Every list, dict and set within ``value``, by identity."""
    if isinstance(value, list | dict | set):
        seen[id(value)] = value
        items = value.values() if isinstance(value, dict) else value
        for v in items:
            _mutables(v, seen)


def _snapshot(state: IslaState) -> str:
    return json.dumps(KIND.encode(state), sort_keys=True) + repr(state.rng.getstate())


@pytest.mark.parametrize("seed", [5, 6])
def test_a_copied_state_equals_its_original_shares_nothing_and_plays_on_the_same(seed: int) -> None:
    checked = 0
    for state, _seat in positions(seed, every=7):
        copy = fast.copy_state(state)
        assert copy == state and _snapshot(copy) == _snapshot(state)
        mine: dict[int, Any] = {}
        theirs: dict[int, Any] = {}
        for name in state.__dataclass_fields__:
            _mutables(getattr(state, name), mine)
            _mutables(getattr(copy, name), theirs)
        assert not set(mine) & set(theirs)
        assert copy.rng is not state.rng
        # the copy plays on as the original would, and the original is left as it was
        before = _snapshot(state)
        twin = fast.copy_state(state)
        for _ in range(30):
            if KIND.is_over(copy):
                break
            actor = KIND.to_act(copy)[0]
            move = KIND.bot_action(copy, actor, "normal", random.Random(seed))
            KIND.apply(copy, actor, move)
            KIND.apply(twin, actor, move)
            checked += 1
        assert _snapshot(copy) == _snapshot(twin)
        assert _snapshot(state) == before
    assert checked > 100


@pytest.mark.parametrize(("seed", "options"), [(14, {}), (15, {"turn_seconds": 60})])
def test_a_playout_move_leaves_the_state_as_apply_does(seed: int, options: dict) -> None:
    state = KIND.new_state(seed, 4, options)
    twin = fast.copy_state(state)
    rng = random.Random(seed)
    n = 0
    while not KIND.is_over(state):
        seat = KIND.to_act(state)[0]
        move = KIND.bot_action(state, seat, "normal", rng)
        assert move is not None
        events = KIND.apply(state, seat, move)
        playout.play(KIND, twin, seat, move)
        assert _snapshot(twin) == _snapshot(state) and twin.last_events == events
        assert twin.turn_since == state.turn_since
        n += 1
    assert n > 200


def test_a_copied_sampled_state_equals_one_sampled_again() -> None:
    for state, seat in positions(7, every=5):
        if state.phase not in SAMPLED_PHASES:
            continue
        view = KIND.view(state, seat)
        belief = goal_belief(view, random.Random(1), 8)
        world = sample_state(view, random.Random(2), belief)
        assert _snapshot(fast.copy_state(world)) == _snapshot(
            sample_state(view, random.Random(2), belief)
        )


def test_the_remembered_outlooks_and_payments_are_the_computed_ones() -> None:
    rng = random.Random(8)
    for _ in range(300):
        value = [0.0] * T.LOC_COUNT
        for _ in range(rng.randrange(6)):
            value[rng.randrange(T.LOC_COUNT)] += rng.choice([-3.0, -1.0, 1.5, 2.0, 4.0, 6.0])
        assert planner.outlook_of(tuple(value)) == tuple(planner._outlook(value))
        places = rng.sample(range(T.LOC_COUNT), 5)
        assert planner.outlook_at(value, places) == [planner._outlook(value)[a] for a in places]
    for state, seat in positions(9, every=3):
        mind_cards = sorted(state.hands[seat])
        for rtype in (None, *T.ROUTE_TYPES):
            for number in range(1, 9):
                ways = M.ways(state.hands[seat], state.gold[seat], rtype, number)
                expected = min((planner.payment_cost(w) for w in ways), default=None)
                got = planner.cheapest_payment(
                    tuple(mind_cards), state.gold[seat], rtype, number, None
                )
                assert got == expected


def _old_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The decision as it was made before: full views, every candidate's state sampled again,
    no outlook or payment remembered."""
    monkeypatch.setattr(strong, "planner_view", lambda kind, state, seat: kind.view(state, seat))
    monkeypatch.setattr(strong, "copy_state", None)
    monkeypatch.setattr(
        strong, "play", lambda kind, state, seat, action: kind.apply(state, seat, action)
    )
    computed = planner.outlook_of.__wrapped__
    monkeypatch.setattr(planner, "outlook_of", computed)
    monkeypatch.setattr(planner, "_reckoned", planner._reckoned.__wrapped__)
    monkeypatch.setattr(
        inference, "outlook_at", lambda value, places: [planner._outlook(value)[a] for a in places]
    )
    monkeypatch.setattr(planner, "cheapest_payment", planner.cheapest_payment.__wrapped__)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_decision_is_the_old_paths_move_and_values(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched = []
    for state, seat in positions(seed, every=2):
        if state.phase not in SAMPLED_PHASES or state.round < 1:
            continue
        view, legal = KIND.view(state, seat), KIND.legal_actions(state, seat)
        if len(legal) > 1:
            searched.append((view, legal))
    searched = searched[:: max(1, len(searched) // 10)]
    new = [strong.choose(v, legal, random.Random(seed)) for v, legal in searched]
    with monkeypatch.context() as patch:
        _old_path(patch)
        old = [strong.choose(v, legal, random.Random(seed)) for v, legal in searched]
    assert [d.spent for d in new] == [d.spent for d in old]
    assert [d.values for d in new] == [d.values for d in old]
    assert [d.move for d in new] == [d.move for d in old]
    assert sum(d.spent for d in new) > 20
