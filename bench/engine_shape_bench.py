"""What the declared engine shape costs per action, for every game: replaying logs through
``GameKind.apply`` against replaying them straight into the phases' moves.

    .venv/bin/python bench/engine_shape_bench.py [--games 40] [--rounds 5]

Each game's random-bot logs are replayed two ways on the same states' course (the best of
``rounds`` rounds each, CPU time of this process; the machine is shared):

- baseline, measured in the same run: each action already checked against its declaration, its
  declared move's function called through ``games.phases.run`` (the moves counted, the phases'
  ``begin`` run): the engine's own work;
- ``GameKind.apply``: the base's checks (shape, game over, seat, turn, the phase's action types),
  the declared type's parse (pydantic, strict), then the same work.

It prints µs per action both ways, the difference (what the shape adds to each action) and the
ratio. A cold read replays at most 50 entries (``web/storage/states.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.actions import parse  # noqa: E402
from games.base import SYSTEM, GameKind, get_kind, play_bots  # noqa: E402
from games.phases import run  # noqa: E402

SEATS = {"tobago": 3, "dao": 4, "isla_dorada": 4, "dragons_gold": 5}


def logs(kind: GameKind, games: int, seats: int) -> list[tuple[int, list]]:
    out = []
    for seed in range(games):
        state = kind.new_state(seed, seats, None)
        log: list = []

        def keep(seat: int | None, action: dict, events: list, log: list = log) -> None:
            log.append((seat, action))

        play_bots(kind, state, ["random"] * seats, random.Random(seed), on_action=keep)
        out.append((seed, log))
    return out


def through_apply(kind: GameKind, seats: int, games: list[tuple[int, list]]) -> float:
    start = time.process_time()
    for seed, log in games:
        state = kind.new_state(seed, seats, None)
        for seat, action in log:
            kind.apply(state, seat, action)
    return time.process_time() - start


#: One step of a replay straight into the moves: ``work(state, events)``.
Work = Callable[[Any, list], None]


def _work(kind: GameKind, state: Any, seat: int | None, action: dict) -> Work:
    """What the action does, its declaration already checked."""
    phase = kind.phases[state.phase]
    if seat is SYSTEM:
        timer = phase.timer
        assert timer is not None
        return timer.apply
    move = phase.by_name[action["type"]]
    checked = parse(move.declared, action)

    def work(state: Any, events: list) -> None:
        move.apply(state, seat, checked, events)

    return work


def straight(kind: GameKind, seats: int, games: list[tuple[int, list]]) -> float:
    """The same replay into the declared moves, the actions parsed beforehand."""
    prepared = []
    for seed, log in games:
        state = kind.new_state(seed, seats, None)
        steps = []
        for seat, action in log:
            steps.append(_work(kind, state, seat, action))
            kind.apply(state, seat, action)
        prepared.append((seed, steps))
    start = time.process_time()
    for seed, steps in prepared:
        state = kind.new_state(seed, seats, None)
        for work in steps:
            run(kind.phases, state, partial(work, state))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"engine shape: replay of {args.games} random-bot games per kind, best of {args.rounds}")
    print(f"{'kind':14s} {'actions':>8s} {'moves µs':>9s} {'apply µs':>9s} {'added µs':>9s} ratio")
    for name, seats in SEATS.items():
        kind = get_kind(name)
        games = logs(kind, args.games, seats)
        n = sum(len(log) for _, log in games)
        base = min(straight(kind, seats, games) for _ in range(args.rounds)) / n * 1e6
        full = min(through_apply(kind, seats, games) for _ in range(args.rounds)) / n * 1e6
        print(f"{name:14s} {n:8d} {base:9.2f} {full:9.2f} {full - base:9.2f} {full / base:5.2f}x")


if __name__ == "__main__":
    main()
