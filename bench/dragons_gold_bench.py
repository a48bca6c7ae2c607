"""Dragon's Gold speed on one core: bot games per second with each negotiation rule.

    .venv/bin/python bench/dragons_gold_bench.py [--seats 5] [--seconds 0.5] [--rounds 5] [--quick]

Figures (per second of this process's CPU time; each the median of interleaved rounds):
- baseline, measured in the same rounds: ``new_state`` (shuffling the bag, the deck and the
  items, revealing the first row), the floor any game costs;
- games/s through ``games.base.play_bots`` (every decision builds the seat's view, as the service
  and the simulator do), bots ``greedy,random,...`` on the simulated clock, for
  ``negotiation="timed"`` (proposals and answers, timeouts) and ``"division"`` (divide and pick),
  basic and advanced rules, each with the number of setups a game costs and its actions.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    Figure,
    cpu_seconds,
    engine_parser,
    interleaved,
    median_ratio,
    parse,
    per_second,
    report,
)
from games.base import play_bots
from games.dragons_gold import KIND

OPTIONS: tuple[dict[str, str | bool], ...] = (
    {"negotiation": "timed"},
    {"negotiation": "division"},
    {"negotiation": "timed", "advanced": True},
    {"negotiation": "division", "advanced": True},
)


def label(options: dict) -> str:
    return str(options["negotiation"]) + (" advanced" if options.get("advanced") else " basic")


def main() -> None:
    args = parse(engine_parser(__doc__, seats=5))
    seats, seconds = args.seats, cpu_seconds(args)
    levels = ["greedy"] + ["random"] * (seats - 1)
    actions: dict[str, list[int]] = {label(o): [0, 0] for o in OPTIONS}  # games, actions

    def game(options: dict) -> Callable[[int], None]:
        count = actions[label(options)]

        def run(i: int) -> None:
            state = KIND.new_state(i, seats, options)
            count[1] += play_bots(KIND, state, levels, random.Random(i))
            count[0] += 1

        return run

    measures = {"setup": per_second(lambda i: KIND.new_state(i, seats, None), seconds)}
    measures.update({label(o): per_second(game(o), seconds) for o in OPTIONS})
    got = interleaved(args.rounds, measures)
    figures = [
        Figure("dragons_gold.setups_per_s", "Dragon's Gold new_state (setup)/s", got["setup"], "/s")
    ]
    for options in OPTIONS:
        name = label(options)
        games, n = actions[name]
        figures.append(
            Figure(
                f"dragons_gold.{name.replace(' ', '_')}_games_per_s",
                f"Dragon's Gold games/s, {name}",
                got[name],
                "games/s",
                note=f"{n / games:,.0f} actions/game; a game = "
                f"{median_ratio(got['setup'], got[name]):,.0f} setups",
            )
        )
    report("dragons_gold", figures, args, seats=seats, bots=",".join(levels))


if __name__ == "__main__":
    main()
