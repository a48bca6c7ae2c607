"""Isla Dorada speed on one core: random-bot games per second and planner decisions per second.

    .venv/bin/python bench/isla_dorada_bench.py [--seats 4] [--seconds 0.5] [--rounds 5] [--quick]

Figures (per second of this process's CPU time; each the median of interleaved rounds):
- random-bot games/s, engine loop: ``legal_actions`` + the random bot + ``apply`` until the end
  (the random bot ignores its view, so none is built). Target: 200 games/s at 4 seats.
- random-bot games/s through ``games.base.play_bots``, which builds each decider's full view
  (map, history) as the web service and the simulator do (Isla Dorada's random bot takes one).
- baseline, measured in the same rounds: a game's deal alone (``new_state``: seven shuffles and
  the deal), with the number of deals an engine-loop game costs.
- planner decisions/s (view + legal actions + the bot) on positions sampled from random games.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, engine_start, sample_positions
from games.base import play_bots
from games.isla_dorada import KIND
from games.isla_dorada.bots import random_bot
from games.isla_dorada.planner import plan

TARGET_GAMES_PER_SECOND = 200


def main() -> None:
    bench = engine_start(__doc__, KIND, "Isla Dorada", random_bot)
    seats, rng = bench.seats, bench.rng

    def baseline(i: int) -> None:
        KIND.new_state(i, seats)

    def generic_game(i: int) -> None:
        play_bots(KIND, KIND.new_state(i, seats), ["random"] * seats, rng)

    positions = sample_positions(
        KIND,
        range(10_000, 10_004 if bench.args.quick else 10_020),
        seats,
        random_bot,
        rng,
        keep=lambda seed, taken: seed % 2 == 0 or taken % 3 == 0,
    )

    def decide(i: int) -> None:
        state, seat = positions[i % len(positions)]
        plan(KIND.view(state, seat), KIND.legal_actions(state, seat), rng)

    got = bench.rounds(baseline, generic=generic_game, planner=decide)
    figures = [
        *bench.loop_figures(
            got,
            TARGET_GAMES_PER_SECOND,
            "Isla Dorada: deals per engine-loop game",
            per_game=".0f",
        ),
        Figure(
            "isla_dorada.play_bots_games_per_s",
            "Isla Dorada random-bot games/s, play_bots (views built)",
            got["generic"],
            "games/s",
        ),
        Figure(
            "isla_dorada.planner_per_s",
            "Isla Dorada planner decisions/s (view + legal + bot)",
            got["planner"],
            "/s",
            note=f"{len(positions)} positions",
        ),
    ]
    bench.report(figures)


if __name__ == "__main__":
    main()
