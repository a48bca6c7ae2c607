"""The strong Tobago bot's cheaper rollouts decide exactly as before: a rollout's step
(``direct.next_move``, its drives kept ones) is the engine's seat to act and the view-based
strategic bot's move; the plays ranked on a state's candidate masks (``StatePosition.
ranked_hints``, ``solver.hints.ranked_plays``) are ``solver.hints.hints``' on the view's
columns, the best alone included; a ``Sampler``'s worlds are ``sample_state``'s; and a whole
decision (``search.choose``) spends the same rollouts to the same values as the
search before these shortcuts (a reference rollout through ``GameKind.apply`` and views)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.base import get_kind
from games.search import Problem, search
from games.state import OVER
from games.thinking import Thinking
from games.tobago import search as tobago_search
from games.tobago.direct import StatePosition, next_move
from games.tobago.sampling import Inconsistent, Sampler, sample_state
from games.tobago.sharing import offeree
from games.tobago.strategy import Position, strategic_bot
from games.tobago.turn import legal_turn
from tests.bots import tobago_positions

KIND = get_kind("tobago")


def engine_step(state) -> tuple[int, dict]:
    """The step as the engine and the view-based strategic bot take it (the reference)."""
    seat = KIND.to_act(state)[0]
    legal = KIND.legal_actions(state, seat)
    if len(legal) == 1:
        return seat, legal[0]
    return seat, strategic_bot(KIND.view(state, seat), legal, random.Random(0))


@pytest.mark.parametrize(
    ("seats", "levels"), [(2, ("normal",)), (3, ("easy", "normal")), (4, ("normal",))]
)
def test_a_rollout_step_is_the_engine_s_seat_and_the_strategic_move(seats, levels):
    """In real positions and in worlds sampled from the seat's view, ``next_move`` names the
    seat the engine says acts and the move the strategic bot makes from that seat's view."""
    phases: Counter[str] = Counter()
    for seed in (31, 32, 33):
        for n, (state, seat) in enumerate(tobago_positions(seed, seats, levels)):
            assert next_move(KIND, state) == engine_step(state)
            if state.phase == "turn":  # the drives kept for the rollouts list as the engine's
                assert legal_turn(state, seat, shared=True) == KIND.legal_actions(state, seat)
            phases[state.phase] += 1
            if n % 4 == 0 and state.phase != "place_atv":
                view = json.loads(json.dumps(KIND.view(state, seat)))
                world = sample_state(view, random.Random(n))
                assert next_move(KIND, world) == engine_step(world)
    assert phases["turn"] > 150 and phases["sharing"] > 10 and phases["first_clue"] == 3 * seats


def test_the_seat_asked_in_a_sharing_is_the_lowest_marker_not_declined():
    """``sharing.offeree`` (walked without the markers' list) is the first seat of the column's
    markers, bottom up, that has not declined the face-up card."""
    asked = 0
    for seed in (41, 42, 43, 44):
        for state, _ in tobago_positions(seed, 4, ("normal", "easy")):
            sh = state.sharing
            if state.phase != "sharing" or sh is None or sh.offer is None:
                continue
            bottom_up = state.maps[sh.map].markers_bottom_up()
            expected = next((s for s in bottom_up if s not in sh.declined), None)
            assert offeree(state) == expected
            asked += 1
    assert asked > 20


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_plays_ranked_on_the_state_are_the_hints_of_the_view(seats):
    """Every seat's plays ranked from the state are ``solver.hints``' from its view (the same
    ``Hint`` values, in the same order); the best alone is the first of them."""
    ranked_some = 0
    for seed in (51, 52):
        for n, (state, _) in enumerate(tobago_positions(seed, seats)):
            if n % 2 or state.phase not in ("turn", "first_clue"):
                continue
            for seat in range(seats):
                from_view = Position(KIND.view(state, seat))
                from_state = StatePosition(state, seat)
                if from_view.me is None:
                    continue
                hands = [from_view.hand_clues]
                if from_view.drawn_clue is not None:
                    hands.append([from_view.drawn_clue])
                for hand in hands:
                    expected = from_view.ranked_hints(hand)
                    assert from_state.ranked_hints(hand) == expected
                    assert from_state.ranked_hints(hand, best_only=True) == expected[:1]
                    ranked_some += bool(expected)
    assert ranked_some > 50


def reference_rollout(state, seat: int, action: dict, horizon: int | None) -> float:
    """``search.rollout`` as it was before its shortcuts: every move through ``GameKind.apply``
    (checked), every seat's move the strategic bot's from a view built for it."""
    start = state.turn_number
    KIND.apply(state, seat, action)
    while state.phase != OVER:
        if horizon == 0 and state.phase != "sharing":
            break
        if (
            horizon is not None
            and state.turn_number >= start + horizon
            and state.phase == "turn"
            and state.stage is None
        ):
            break
        actor, move = engine_step(state)
        KIND.apply(state, actor, move)
    return tobago_search.evaluate(state, seat)


#: A budget small enough for the reference's views: 18 rollouts a decision.
SMALL = Thinking(rollouts={"tobago": 18})


def test_a_strong_decision_is_the_one_the_search_made_before():
    """The same view, generator and budget: the same move, the same rollouts spent, every
    candidate's values equal, seed by seed, to the reference search's (each world sampled
    afresh from its seed, played through the engine's checks and views)."""
    decided = Counter()
    for seats, seed in ((2, 61), (3, 62), (4, 63)):
        for n, (state, seat) in enumerate(tobago_positions(seed, seats)):
            if n % 9 or state.phase == "place_atv":
                continue
            view = json.loads(json.dumps(KIND.view(state, seat)))
            legal = KIND.legal_actions(state, seat)
            moves = tobago_search.candidates(view, legal, tobago_search.CANDIDATES)
            if len(moves) < 2 or tobago_search.stalled(view):
                continue
            horizon = tobago_search.horizon_of(view)
            reference = Problem(
                moves,
                lambda r, view=view: sample_state(view, r),
                lambda world, move, seat=seat, horizon=horizon: reference_rollout(
                    world, seat, move, horizon
                ),
            )
            try:
                expected = search(tobago_search.SETTINGS, reference, random.Random(n), SMALL)
            except Inconsistent:  # pragma: no cover - a view of these games always adds up
                continue
            got = tobago_search.choose(view, legal, random.Random(n), SMALL)
            assert (got.move, got.index, got.spent) == (
                expected.move,
                expected.index,
                expected.spent,
            )
            assert got.values == expected.values
            decided[state.phase] += 1
    assert decided["turn"] >= 8 and sum(decided.values()) >= 10


@pytest.mark.parametrize("seats", [2, 4])
def test_a_sampler_draws_each_world_as_sample_state_does(seats):
    """One ``Sampler`` per decision (what the view fixes built once): each of its worlds, in
    any order of seeds, equals ``sample_state``'s from the same seed (its generator too), and
    playing one world on leaves the next ones as they were."""
    checked = 0
    for n, (state, seat) in enumerate(tobago_positions(70 + seats, seats)):
        if n % 7 or state.phase == "place_atv":
            continue
        view = json.loads(json.dumps(KIND.view(state, seat)))
        sampler = Sampler(view)
        for k in (3, 1, 3):
            world = sampler(random.Random(k))
            fresh = sample_state(view, random.Random(k))
            assert world == fresh
            assert KIND.state_to_json(world) == KIND.state_to_json(fresh)
            while not KIND.is_over(world):  # a rollout to the end in the first world
                actor, move = next_move(KIND, world)
                KIND.apply(world, actor, move)
        checked += 1
    assert checked > 8
