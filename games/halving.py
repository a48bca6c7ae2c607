"""Sequential halving: a fixed number of trials spread over a few candidates in rounds, the
worse half dropped after each, and the first candidate (a bot's own default move) kept unless
another beats it by more than a margin. The strong bots that search share it.

It is deterministic: the trials are the ``seeds`` given, and every candidate still in a round
gets the same next seeds (the same sampled states), so the comparison is fair and replays.
"""

from __future__ import annotations

import math
from collections.abc import Callable


def sequential_halving(
    candidates: int, seeds: list[int], total: Callable[[int, list[int]], float], margin: float
) -> int:
    """The index of the candidate to play. ``total(i, batch)`` is candidate ``i``'s summed value
    over the trials seeded by ``batch``; ``len(seeds)`` trials are spent in ``ceil(log2(n))``
    rounds; candidate 0 is kept unless the best mean beats its mean, over as many trials, by
    more than ``margin``. Whatever ``total`` raises propagates."""
    totals = [0.0] * candidates
    counts = [0] * candidates
    alive = list(range(candidates))
    rounds = max(1, math.ceil(math.log2(candidates)))
    used = 0
    for r in range(rounds):
        per = max(1, (len(seeds) - used) // (len(alive) * (rounds - r)))
        for i in alive:
            batch = seeds[counts[i] : counts[i] + per]
            totals[i] += total(i, batch)
            counts[i] += len(batch)
            used += len(batch)
        alive.sort(key=lambda i: (-totals[i] / counts[i], i))
        alive = alive[: max(1, math.ceil(len(alive) / 2))]
    best = alive[0]
    mean = [totals[i] / counts[i] if counts[i] else -math.inf for i in range(candidates)]
    if best != 0 and counts[0] == counts[best] and mean[best] <= mean[0] + margin:
        return 0
    return best
