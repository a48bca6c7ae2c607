"""The strong Tobago bot's rollout policy (``games.tobago.direct``): on every kind of position
it chooses exactly what the view-based strategic bot chooses from the seat's view, and it reads
nothing the seat's view does not show."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.base import get_kind
from games.tobago.direct import direct_move
from games.tobago.sampling import sample_state
from games.tobago.strategy import strategic_bot

KIND = get_kind("tobago")


def positions(seed: int, seats: int, levels: tuple[str, ...]):
    """(state, seat) at every decision of a game of bots of ``levels`` (seat by seat, in turn),
    as it goes: the normal bot's games and, with the easy bot's moves mixed in, positions the
    normal bot alone would not reach."""
    state = KIND.new_state(seed, seats, {"island": f"classic-{seed % 6 + 1}"})
    rng = random.Random(seed)
    while not KIND.is_over(state):
        seat = KIND.to_act(state)[0]
        yield state, seat
        KIND.apply(state, seat, KIND.bot_action(state, seat, levels[seat % len(levels)], rng))


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
        phases.update(_same(state, seat) for state, seat in positions(seed, seats, levels))
    assert phases["turn"] > 200 and phases["first_clue"] >= 8 and phases["sharing"] >= 5


@pytest.mark.parametrize("seats", [2, 4])
def test_in_sampled_worlds_too_and_from_the_seats_view_only(seats):
    """In worlds sampled from a seat's view (where rollouts run) every seat's direct move is the
    strategic bot's; and the searching seat's move is the same in every world sampled from its
    view (the hidden parts drawn differently): it reads only what the view shows."""
    checked = 0
    games = (positions(seed, seats, ("normal",)) for seed in (10, 11, 12))
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
