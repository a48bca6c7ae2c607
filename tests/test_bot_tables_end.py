"""Every all-bot table ends: 1,000 games of every registered kind, at every seat count the kind
takes and with every bot level it offers (issue 22).

The tables of a kind are, for each seat count, every level alone at the table and the levels
mixed (seat ``i`` plays level ``(i + k) % levels``, for each ``k``); its 1,000 games go round
those tables, each game with its own seed. A game must end by the rules within the service's
log limit (``MAX_LOG_ENTRIES``: a longer game could not be stored), played by
``games.base.play_bots`` (a timed phase ends on its simulated clock when no bot wants to act).
What ends each game is each engine's to argue (Tobago's stalled end, rules §8; Isla Dorada's
bound on rounds and Dragon's Gold's, in their engines' docstrings; DAO's in its engine): this
test finds that it does. The games run in two worker processes.
"""

from __future__ import annotations

import itertools
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from games.base import get_kind, kinds, play_bots
from games.search import thinking_from_environ
from web.service.sessions import MAX_LOG_ENTRIES

GAMES_PER_KIND = 1000
WORKERS = 2


def tables(name: str) -> list[list[str]]:
    """Every seat count with every level alone and the levels mixed (module docstring)."""
    kind = get_kind(name)
    levels = list(kind.levels)  # an older name (an alias) plays the same bot as its level
    out: list[list[str]] = []
    for seats in range(kind.type.min_seats, kind.type.max_seats + 1):
        out += [[level] * seats for level in levels]
        if len(levels) > 1:
            for k in range(len(levels)):
                out.append([levels[(i + k) % len(levels)] for i in range(seats)])
    return out


def play(job: tuple[str, int, list[str]]) -> tuple[int, str | None]:
    """One game (in a worker): the actions it took, and why it did not end (``None``: it did)."""
    name, seed, levels = job
    kind = get_kind(name)
    state = kind.new_state(seed, len(levels), None)
    try:
        n = play_bots(
            kind,
            state,
            levels,
            random.Random(seed),
            max_actions=MAX_LOG_ENTRIES,
            thinking=thinking_from_environ(),  # the budgets the test sets (read at this edge)
        )
    except RuntimeError as e:
        return MAX_LOG_ENTRIES, str(e)
    return n, None if kind.is_over(state) else "not over"


@pytest.mark.slow  # 1,000 games of each kind: Dragon's Gold's the longest (327 s on a busy machine)
@pytest.mark.parametrize("name", sorted(kinds()))
def test_a_thousand_all_bot_games_of_every_kind_all_end(name, monkeypatch):
    # The strong levels search on the smallest budget here (the workers inherit it): whether
    # its tables end is the question, its think time is the bench's (strong_bots_bench.py).
    # Dragon's Gold's strong tables took 3.9 s a game at 4 rollouts (1,000 games past the
    # 10-minute test timeout on a loaded machine), 0.8 s at 1. DAO's at 2 rollouts (one each
    # for take and turn: the search runs, the fewest that make it search). Isla Dorada's plays
    # the planner's moves at 1 (one rollout never passes its paired test; its searching tables
    # end in test_bot_levels, at 2).
    monkeypatch.setenv("TOBAGO_STRONG_ROLLOUTS", "1")
    monkeypatch.setenv("DRAGONS_GOLD_STRONG_ROLLOUTS", "1")
    monkeypatch.setenv("DAO_STRONG_ROLLOUTS", "2")
    monkeypatch.setenv("ISLA_DORADA_STRONG_ROLLOUTS", "1")
    plan = tables(name)
    jobs = [
        (name, seed, levels) for seed, levels in zip(range(GAMES_PER_KIND), itertools.cycle(plan))
    ]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(WORKERS, mp_context=context) as pool:
        results = list(pool.map(play, jobs, chunksize=20))
    stuck = [(job, why) for job, (_, why) in zip(jobs, results, strict=True) if why is not None]
    assert not stuck, stuck[:5]
    assert len(results) == GAMES_PER_KIND and len(plan) <= GAMES_PER_KIND
    kind = get_kind(name)
    played = {len(levels) for _, _, levels in jobs}
    assert played == set(range(kind.type.min_seats, kind.type.max_seats + 1))
    assert {level for _, _, levels in jobs for level in levels} == set(kind.levels)
