"""Isla Dorada speed on one core: random-bot games per second and planner decisions per second.

    .venv/bin/python bench/isla_dorada_bench.py [--seats 4] [--seconds 3]

Figures (the machine is shared: each is the best of three rounds):
- random-bot games/s, engine loop: ``legal_actions`` + the random bot + ``apply`` until the end
  (the random bot ignores its view, so none is built). Target: 200 games/s at 4 seats.
- random-bot games/s through ``games.base.play_bots``, which builds each decider's full view
  (map, history) as the web service and the simulator do.
- baseline, measured in the same run: a game's deal alone (``new_state``: seven shuffles and the
  deal), printed with the ratio of a whole engine-loop game to it.
- planner decisions/s (view + legal actions + the bot) on positions sampled from random games.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.base import play_bots  # noqa: E402
from games.isla_dorada import KIND  # noqa: E402
from games.isla_dorada.bots import random_bot  # noqa: E402
from games.isla_dorada.planner import plan  # noqa: E402

TARGET_GAMES_PER_SECOND = 200


def timed(fn, seconds: float, rounds: int = 3) -> tuple[int, float]:
    """Call ``fn(i)`` for i = 0, 1, ... in ``rounds`` rounds of ``seconds / rounds`` each; the
    (calls, elapsed) of the fastest round."""
    best = (0, 1.0)
    i = 0
    for _ in range(rounds):
        start = time.perf_counter()
        n = 0
        while True:
            fn(i)
            i += 1
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / rounds:
                break
        if n / elapsed > best[0] / best[1]:
            best = (n, elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure, over 3 rounds")
    args = parser.parse_args()
    seats, seconds = args.seats, args.seconds
    rng = random.Random(1)
    counts = [0, 0]

    def engine_game(i: int) -> None:
        state = KIND.new_state(i, seats)
        counts[0] += 1
        while state.phase != "over":
            seat = KIND.to_act(state)[0]
            KIND.apply(state, seat, random_bot({}, KIND.legal_actions(state, seat), rng))
            counts[1] += 1

    def baseline(i: int) -> None:
        KIND.new_state(i, seats)

    def generic_game(i: int) -> None:
        play_bots(KIND, KIND.new_state(i, seats), ["random"] * seats, rng)

    print(
        f"Isla Dorada benchmark: {seats} seats, best of 3 rounds in {seconds:g} s per figure, "
        f"Python {sys.version.split()[0]}, one core"
    )
    n, t = timed(engine_game, seconds)
    engine_rate = n / t
    per_game = counts[1] / counts[0]
    print(
        f"random-bot games/s (engine loop):      {engine_rate:9,.0f}  "
        f"({per_game:.0f} actions/game, {1e6 / (engine_rate * per_game):.1f} µs/action; "
        f"target {TARGET_GAMES_PER_SECOND}: {engine_rate / TARGET_GAMES_PER_SECOND:.2f}x)"
    )
    n, t = timed(baseline, seconds)
    base_rate = n / t
    print(
        f"baseline deal (new_state)/s:           {base_rate:9,.0f}  "
        f"(an engine-loop game costs {base_rate / engine_rate:.0f}x the deal)"
    )
    n, t = timed(generic_game, seconds)
    print(f"random-bot games/s (play_bots, views): {n / t:9,.0f}")

    positions: list[tuple[Any, int]] = []
    for i in range(20):
        state = KIND.new_state(10_000 + i, seats)
        while state.phase != "over":
            seat = KIND.to_act(state)[0]
            if i % 2 == 0 or len(positions) % 3 == 0:
                positions.append((KIND.state_from_json(KIND.state_to_json(state)), seat))
            KIND.apply(state, seat, random_bot({}, KIND.legal_actions(state, seat), rng))

    def decide(i: int) -> None:
        state, seat = positions[i % len(positions)]
        plan(KIND.view(state, seat), KIND.legal_actions(state, seat), rng)

    n, t = timed(decide, seconds)
    print(f"planner decisions/s (view+legal+bot):  {n / t:9,.0f}  ({len(positions)} positions)")


if __name__ == "__main__":
    main()
