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
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, engine_start, play_out, ratio, sample_positions
from games.base import Bot
from games.dao import KIND
from games.dao.bots import ev_bot, greedy_bot, random_bot

TARGET_GAMES_PER_SECOND = 2000


def main() -> None:
    bench = engine_start(__doc__, KIND, "DAO", random_bot)
    seats, rng = bench.seats, bench.rng

    def baseline(i: int) -> None:
        deck = list(range(60))
        random.Random(i).shuffle(deck)
        while deck:
            deck.pop()

    def viewed_game(i: int) -> None:
        play_out(KIND, KIND.new_state(i, seats), random_bot, rng, KIND.view)

    # Positions to decide in: every decision point of a few random games.
    positions = sample_positions(KIND, range(10_000, 10_040), seats, random_bot, rng)
    views = [(KIND.view(s, seat), KIND.legal_actions(s, seat)) for s, seat in positions]

    def decide(bot: Bot) -> Callable[[int], None]:
        def run(i: int) -> None:
            view, legal = views[i % len(views)]
            bot(view, legal, rng)

        return run

    got = bench.rounds(
        baseline,
        viewed=viewed_game,
        greedy=decide(greedy_bot),
        ev=decide(ev_bot),
        view=lambda i: KIND.view(*positions[i % len(positions)]),
    )
    figures = [
        *bench.loop_figures(
            got,
            TARGET_GAMES_PER_SECOND,
            "DAO: a shuffle+deal of 60 cards / an engine-loop game",
            note="an engine game costs this many deals",
        ),
        Figure(
            "dao.viewed_games_per_s",
            "DAO random-bot games/s, the mover's view built per action",
            got["viewed"],
            "games/s",
        ),
        Figure("dao.greedy_per_s", "DAO greedy-bot decisions/s", got["greedy"], "/s"),
        ratio("dao.ev_vs_greedy", "DAO ev-bot decision cost / greedy's", got["greedy"], got["ev"]),
        Figure(
            "dao.views_per_s",
            "DAO seat views/s (with the odds helper)",
            got["view"],
            "/s",
            note=f"{len(positions)} positions",
        ),
    ]
    bench.report(figures)


if __name__ == "__main__":
    main()
