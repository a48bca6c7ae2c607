"""DAO speed on one core: random-bot games per second and bot decisions per second.

    .venv/bin/python bench/dao_bench.py [--seats 4] [--seconds 0.5] [--rounds 5] [--quick]

Figures (per second of this process's CPU time; each the median of interleaved rounds):
- random-bot games/s, engine loop: ``legal_actions`` + the random bot + ``apply`` until the end
  (the random bot ignores its view, so none is built). Target: 2,000 games/s.
- baseline, measured in the same rounds: shuffling and dealing out a 60-card list, the floor any
  DAO game costs; the engine's figure is given as the ratio of the baseline's rate to it.
- random-bot games/s with the mover's seat view (the odds helper included) built before every
  action: what the service pays per action to show the seat its game (``play_bots`` no longer
  builds one for a ``legal_only`` bot such as ``random``).
- decisions/s of the ``greedy`` and ``ev`` bots and of building a view, on positions sampled
  from random games (``ev``'s cost is also given as a multiple of ``greedy``'s).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, interleaved, parse, parser, per_second, ratios, report  # noqa: E402
from games.dao import KIND  # noqa: E402
from games.dao.bots import ev_bot, greedy_bot, random_bot  # noqa: E402

TARGET_GAMES_PER_SECOND = 2000


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per figure and round")
    args = parse(ap)
    seats = args.seats
    seconds = 0.05 if args.quick else args.seconds
    rng = random.Random(1)
    counts = [0, 0]  # engine-loop games, their actions

    def engine_game(i: int) -> None:
        state = KIND.new_state(i, seats)
        counts[0] += 1
        while not state.over:
            seat = state.to_move
            KIND.apply(state, seat, random_bot({}, KIND.legal_actions(state, seat), rng))
            counts[1] += 1

    def baseline(i: int) -> None:
        deck = list(range(60))
        random.Random(i).shuffle(deck)
        while deck:
            deck.pop()

    def viewed_game(i: int) -> None:
        state = KIND.new_state(i, seats)
        while not state.over:
            seat = state.to_move
            KIND.view(state, seat)
            KIND.apply(state, seat, random_bot({}, KIND.legal_actions(state, seat), rng))

    # Positions to decide in: every decision point of a few random games.
    positions = []
    for i in range(40):
        state = KIND.new_state(10_000 + i, seats)
        while not state.over:
            seat = state.to_move
            positions.append((KIND.state_from_json(KIND.state_to_json(state)), seat))
            KIND.apply(state, seat, random_bot({}, KIND.legal_actions(state, seat), rng))
    views = [(KIND.view(s, seat), KIND.legal_actions(s, seat)) for s, seat in positions]

    def decide(bot):
        def run(i: int) -> None:
            view, legal = views[i % len(views)]
            bot(view, legal, rng)

        return run

    got = interleaved(
        args.rounds,
        {
            "engine": per_second(engine_game, seconds),
            "baseline": per_second(baseline, seconds),
            "viewed": per_second(viewed_game, seconds),
            "greedy": per_second(decide(greedy_bot), seconds),
            "ev": per_second(decide(ev_bot), seconds),
            "view": per_second(lambda i: KIND.view(*positions[i % len(positions)]), seconds),
        },
    )
    per_game = counts[1] / counts[0]
    figures = [
        Figure(
            "dao.engine_games_per_s",
            "DAO random-bot games/s, engine loop",
            got["engine"],
            "games/s",
            (">=", TARGET_GAMES_PER_SECOND),
            note=f"{per_game:.1f} actions/game",
        ),
        Figure(
            "dao.engine_vs_deal",
            "DAO: a shuffle+deal of 60 cards / an engine-loop game",
            ratios(got["baseline"], got["engine"]),
            "x",
            note="an engine game costs this many deals",
        ),
        Figure(
            "dao.viewed_games_per_s",
            "DAO random-bot games/s, the mover's view built per action",
            got["viewed"],
            "games/s",
        ),
        Figure("dao.greedy_per_s", "DAO greedy-bot decisions/s", got["greedy"], "/s"),
        Figure(
            "dao.ev_vs_greedy",
            "DAO ev-bot decision cost / greedy's",
            ratios(got["greedy"], got["ev"]),
            "x",
        ),
        Figure(
            "dao.views_per_s",
            "DAO seat views/s (with the odds helper)",
            got["view"],
            "/s",
            note=f"{len(positions)} positions",
        ),
    ]
    report("dao", figures, args, seats=seats)


if __name__ == "__main__":
    main()
