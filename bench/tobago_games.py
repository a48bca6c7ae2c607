"""Long Tobago games for the benches that need them (review, cold reads, memory).

A table of random legal moves no longer plays long: two whole rounds in which nobody plays a
clue, places or removes a marker or raises a treasure end the game (rules §8, ``stalled``), and
random 4-seat games end so within about 30-160 actions. ``next_move`` plays a random legal move
(with ``wander``, a drive step, an amulet picked up or the turn's end that often, as the review's
game wanders the island), or, in the last ``GUARD`` turns before the table would stall, the
strategic bot's move, which makes progress when it can: 4-seat games then run to their treasure
deck, in 300-600 actions (the first seeds' measured: 129-605; the longest Tobago games of
today's rules).
"""

from __future__ import annotations

import random
from typing import Any

#: Turns before the stalled end from which the strategic bot plays (a round would hasten the
#: end: it plays clues for every seat).
GUARD = 2
WANDER_STEPS = frozenset({"drive", "pick_amulet", "end_turn"})


def next_move(
    kind: Any, state: Any, rng: random.Random, wander: float = 0.0, first: bool = False
) -> tuple[int, dict]:
    """A seat to act (one at random, or the first with ``first``) and its move (module doc)."""
    seats = kind.to_act(state)
    seat = seats[0] if first else rng.choice(seats)
    stall = kind.view(state, seat)["stall"]
    if stall["turns"] + GUARD >= stall["limit"]:
        return seat, kind.bot_action(state, seat, "strategic", rng)
    legal = kind.legal_actions(state, seat)
    steps = [a for a in legal if a["type"] in WANDER_STEPS]
    return seat, rng.choice(steps if steps and rng.random() < wander else legal)
