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

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, interleaved, parse, parser, per_second, ratios, report  # noqa: E402
from games.base import play_bots  # noqa: E402
from games.isla_dorada import KIND  # noqa: E402
from games.isla_dorada.bots import random_bot  # noqa: E402
from games.isla_dorada.planner import plan  # noqa: E402

TARGET_GAMES_PER_SECOND = 200


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per figure and round")
    args = parse(ap)
    seats = args.seats
    seconds = 0.05 if args.quick else args.seconds
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

    positions: list[tuple[Any, int]] = []
    for i in range(4 if args.quick else 20):
        state = KIND.new_state(10_000 + i, seats)
        while state.phase != "over":
            seat = KIND.to_act(state)[0]
            if i % 2 == 0 or len(positions) % 3 == 0:
                positions.append((KIND.state_from_json(KIND.state_to_json(state)), seat))
            KIND.apply(state, seat, random_bot({}, KIND.legal_actions(state, seat), rng))

    def decide(i: int) -> None:
        state, seat = positions[i % len(positions)]
        plan(KIND.view(state, seat), KIND.legal_actions(state, seat), rng)

    got = interleaved(
        args.rounds,
        {
            "engine": per_second(engine_game, seconds),
            "baseline": per_second(baseline, seconds),
            "generic": per_second(generic_game, seconds),
            "planner": per_second(decide, seconds),
        },
    )
    figures = [
        Figure(
            "isla_dorada.engine_games_per_s",
            "Isla Dorada random-bot games/s, engine loop",
            got["engine"],
            "games/s",
            (">=", TARGET_GAMES_PER_SECOND),
            note=f"{counts[1] / counts[0]:.0f} actions/game",
        ),
        Figure(
            "isla_dorada.engine_vs_deal",
            "Isla Dorada: deals per engine-loop game",
            ratios(got["baseline"], got["engine"]),
            "x",
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
    report("isla_dorada", figures, args, seats=seats)


if __name__ == "__main__":
    main()
