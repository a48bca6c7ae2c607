"""Dragon's Gold speed on one core: bot games per second with each negotiation rule.

    .venv/bin/python bench/dragons_gold_bench.py [--seats 5] [--seconds 3]

Figures (each the best of 3 rounds; the machine is shared):
- baseline, measured in the same run: ``new_state`` (shuffling the bag, the deck and the items,
  revealing the first row), the floor any game costs; every game figure is also given as the
  number of setups it costs;
- games/s through ``games.base.play_bots`` (every decision builds the seat's view, as the service
  and the simulator do), bots ``greedy,random,...`` on the simulated clock, for
  ``negotiation="timed"`` (proposals and answers, timeouts) and ``"division"`` (divide and pick),
  basic and advanced rules;
- mean actions per game for each.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.base import play_bots  # noqa: E402
from games.dragons_gold import KIND  # noqa: E402


def timed(fn, seconds: float, rounds: int = 3) -> tuple[int, float, int]:
    """Call ``fn(i)`` for ``seconds / rounds`` per round; (calls, elapsed, sum of results) of the
    fastest round."""
    best = (0, 1.0, 0)
    i = 0
    for _ in range(rounds):
        start = time.perf_counter()
        n = total = 0
        while True:
            total += fn(i) or 0
            i += 1
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / rounds:
                break
        if n / elapsed > best[0] / best[1]:
            best = (n, elapsed, total)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure, over 3 rounds")
    args = parser.parse_args()
    seats, seconds = args.seats, args.seconds
    levels = ["greedy"] + ["random"] * (seats - 1)

    def setup(i: int) -> int:
        KIND.new_state(i, seats, None)
        return 0

    n, elapsed, _ = timed(setup, seconds)
    base = n / elapsed
    print(f"Dragon's Gold, {seats} seats, bots {','.join(levels)}")
    print(f"baseline  new_state (setup)            {base:>10,.0f} /s")
    all_options: tuple[dict[str, str | bool], ...] = (
        {"negotiation": "timed"},
        {"negotiation": "division"},
        {"negotiation": "timed", "advanced": True},
        {"negotiation": "division", "advanced": True},
    )
    for options in all_options:

        def game(i: int, options: dict = options) -> int:
            state = KIND.new_state(i, seats, options)
            return play_bots(KIND, state, levels, random.Random(i))

        n, elapsed, actions = timed(game, seconds)
        rate = n / elapsed
        label = str(options["negotiation"]) + (" advanced" if options.get("advanced") else " basic")
        print(
            f"games/s   {label:<28} {rate:>10,.1f} /s  = 1 per {base / rate:,.0f} setups, "
            f"{actions / n:,.0f} actions per game"
        )


if __name__ == "__main__":
    main()
