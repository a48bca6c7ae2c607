"""Sequential halving: a fixed number of trials spread over a few candidates in rounds, the
worse half dropped after each, and the first candidate (a bot's own default move) kept unless
another beats it by more than a margin. The strong bots that search share it.

Beside it, the values a rollout played to the end is judged by (``win_share``, ``lead``).

It is deterministic: the trials are the ``seeds`` given, and every candidate still in a round
gets the same next seeds (the same sampled states), so the comparison is fair and replays.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

M = TypeVar("M")


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


def best_move(
    moves: Sequence[M],
    rollouts: int,
    rng: random.Random,
    total: Callable[[M, list[int]], float],
    margin: float,
) -> M:
    """The move a strong bot plays among ``moves`` (its default first): the first when there is
    no choice or fewer rollouts than moves, else the winner of ``sequential_halving`` over
    ``rollouts`` seeds drawn from ``rng``; ``total(move, batch)`` sums a move's values over
    the trials seeded by ``batch``. Whatever ``total`` raises propagates."""
    if len(moves) == 1 or rollouts < len(moves):
        return moves[0]
    seeds = [rng.randrange(2**63) for _ in range(rollouts)]
    return moves[sequential_halving(len(moves), seeds, lambda i, b: total(moves[i], b), margin)]


def win_share(final: Sequence[float], seat: int) -> float:
    """The seat's share of the win in final scores: 1 for the best, 1/k for a win shared by k
    seats, else 0 (a rollout's main value for the strong bots that play games to the end)."""
    best = max(final)
    return 1.0 / list(final).count(best) if final[seat] == best else 0.0


def lead(final: Sequence[float], seat: int) -> float:
    """The seat's score less the best other seat's."""
    return final[seat] - max(v for i, v in enumerate(final) if i != seat)


def rollouts_from_env(variable: str, text: str | None) -> int | None:
    """The count of rollouts the environment's ``variable`` (its value ``text``) sets, or None
    when it is unset or blank; anything but a positive whole number is refused at start-up
    (``ValueError``), never guessed."""
    if text is None or not text.strip():
        return None
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"{variable} must be a positive whole number, not {text!r}")
    return int(text)
