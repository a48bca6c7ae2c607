"""The planner's place outlook (``planner._outlook``) against its definition: a place's value
plus ``FUTURE`` times the best of every other place's value discounted by its distance (the
fast form multiplies out only the places with a value; the stored records' replays hold its
moves to the ones played before)."""

from __future__ import annotations

import random

from games.isla_dorada import planner
from games.isla_dorada import tables as T


def _by_definition(value: list[float]) -> list[float]:
    return [
        value[a]
        + planner.FUTURE
        * max(
            (value[b] * planner.FUTURE ** (T.DIST[a][b] - 1) for b in range(T.LOC_COUNT) if b != a),
            default=0.0,
        )
        for a in range(T.LOC_COUNT)
    ]


def test_the_outlook_is_the_best_discounted_value_of_another_place():
    rng = random.Random(5)
    cases = [[0.0] * T.LOC_COUNT, [-1.0] * T.LOC_COUNT, [2.0] * T.LOC_COUNT]
    for _ in range(200):
        value = [0.0] * T.LOC_COUNT
        for loc in rng.sample(range(T.LOC_COUNT), rng.randint(1, 8)):
            value[loc] = rng.choice([-4.0, -2.5, -1.0, 1.0, 2.0, 3.6, 7.0])
        cases.append(value)
    for value in cases:
        assert planner._outlook(value) == _by_definition(value)
