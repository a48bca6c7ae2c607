"""What the declared engine shape costs per action, for every game: replaying logs through
``GameKind.apply`` against replaying them straight into the phases' moves.

    .venv/bin/python bench/engine_shape_bench.py [--games 40] [--rounds 5] [--quick]

Each game's random-bot logs are replayed two ways on the same states' course (CPU time of this
process; each figure the median of interleaved rounds, with the range):

- baseline, measured in the same run: each action already checked against its declaration, its
  declared move's function called through ``games.phases.run`` (the moves counted, the phases'
  ``begin`` run): the engine's own work;
- ``GameKind.apply``: the base's checks (shape, game over, seat, turn, the phase's action types),
  the declared type's parse (pydantic, strict), then the same work.

It gives µs per action through ``apply``, with the baseline's beside it, and the ratio. A cold
read replays at most 50 entries (``web/service/states.py``).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, interleaved, parse, parser, ratio, report
from games.actions import parse as parse_action
from games.base import SYSTEM, GameKind, get_kind, play_bots
from games.phases import run

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
    checked = parse_action(move.declared, action)

    def work(state: Any, events: list) -> None:
        move.apply(state, seat, checked, events)

    return work


def straight(kind: GameKind, seats: int, games: list[tuple[int, list]]) -> Callable[[], float]:
    """The same replay into the declared moves, the actions parsed beforehand: a measure."""
    prepared = []
    for seed, log in games:
        state = kind.new_state(seed, seats, None)
        steps = []
        for seat, action in log:
            steps.append(_work(kind, state, seat, action))
            kind.apply(state, seat, action)
        prepared.append((seed, steps))

    def measure() -> float:
        start = time.process_time()
        for seed, steps in prepared:
            state = kind.new_state(seed, seats, None)
            for work in steps:
                run(kind.phases, state, partial(work, state))
        return time.process_time() - start

    return measure


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", type=int, default=40)
    args = parse(ap)
    games = 3 if args.quick else args.games
    print(f"engine shape: replay of {games} random-bot games per kind")
    measures: dict[str, Callable[[], float]] = {}
    actions: dict[str, int] = {}
    for name, seats in SEATS.items():
        kind = get_kind(name)
        logged = logs(kind, games, seats)
        actions[name] = sum(len(log) for _, log in logged)
        measures[f"{name}.moves"] = straight(kind, seats, logged)
        measures[f"{name}.apply"] = partial(through_apply, kind, seats, logged)
    got = interleaved(args.rounds, measures)
    figures = []
    for name in SEATS:
        n = actions[name]
        full = [t / n * 1e6 for t in got[f"{name}.apply"]]
        base = [t / n * 1e6 for t in got[f"{name}.moves"]]
        figures.append(
            Figure(
                f"engine_shape.{name}_apply_us",
                f"{name}: µs per action through GameKind.apply",
                full,
                "µs",
                note=f"{n} actions; the moves alone {statistics.median(base):.2f} µs",
            )
        )
        figures.append(
            ratio(
                f"engine_shape.{name}_ratio",
                f"{name}: apply / the declared moves alone",
                full,
                base,
            )
        )
    report("engine_shape", figures, args, games=games)


if __name__ == "__main__":
    main()
