"""Tobago speed on one core: whole bot games per second, and the strategic bot's decision time.

    .venv/bin/python bench/tobago_bench.py [--games 8] [--island classic-1] [--rounds 5] [--quick]

Figures (each the median of interleaved rounds; games through ``games.base.play_bots``, a
fresh landmark placement per game, as the default options give):

- games/s (per second of this process's CPU time) with 4 strategic bots (target: 10; each
  decision builds the seat's view and legal actions, as the web service and the simulator do),
  with the number of setups a game costs, and with 4 random bots (``legal_only``: no view is
  built for them);
- baseline, measured in the same rounds: a game's setup alone (``new_state``: island lookup,
  landmarks, decks);
- the worst and the p99 of one strategic decision in ``--games`` / 2 games (view + legal actions + the bot; the rule is
  at most 50 ms), measured twice: with Python's default garbage collector, whose occasional full
  collection (25–35 ms over the process's long-lived island and solver caches) lands inside
  whichever decision triggers it, and with those long-lived objects moved out of the collector's
  way by ``gc.freeze()`` (as each gunicorn worker does), which shows the bot's own cost.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, interleaved, median_ratio, parse, parser, report
from games.base import play_bots
from games.tobago import KIND

TARGET_STRATEGIC_GAMES_PER_SECOND = 10
DECISION_LIMIT_MS = 50


class Games:
    """``games`` bot games per call, new seeds each time: games/s of CPU time, actions/game."""

    def __init__(self, levels: list[str], games: int, options: dict, first_seed: int) -> None:
        self.levels, self.games, self.options = levels, games, options
        self.seed = first_seed
        self.actions: list[int] = []

    def rate(self) -> float:
        start = time.process_time()
        for _ in range(self.games):
            state = KIND.new_state(self.seed, len(self.levels), self.options)
            self.actions.append(play_bots(KIND, state, self.levels, random.Random(self.seed)))
            self.seed += 1
        return self.games / (time.process_time() - start)


def decision_times(seed: int, options: dict) -> list[float]:
    """Milliseconds of every strategic decision (view + legal actions + bot) in one game."""
    times: list[float] = []
    bot = KIND.bots["strategic"]
    rng = random.Random(seed)
    state = KIND.new_state(seed, 4, options)
    while not KIND.is_over(state):
        seat = KIND.to_act(state)[0]
        t = time.perf_counter()
        action = bot(KIND.view(state, seat), KIND.legal_actions(state, seat), rng)
        times.append((time.perf_counter() - t) * 1000)
        KIND.apply(state, seat, action)
    return times


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", type=int, default=8, help="strategic games per round")
    ap.add_argument("--island", default="classic-1", help="island option (default classic-1)")
    args = parse(ap)
    games = 1 if args.quick else args.games
    options = {"island": args.island}
    KIND.new_state(0, 4, options)  # warm the island cache and the solver's tables

    setups = [50_000]

    def setup_rate() -> float:
        start = time.process_time()
        for _ in range(50):
            KIND.new_state(setups[0], 4, options)
            setups[0] += 1
        return 50 / (time.process_time() - start)

    strategic = Games(["strategic"] * 4, games, options, 1)
    rand = Games(["random"] * 4, max(1, games // 2), options, 100_000)
    worst: dict[str, list[float]] = {"default": [], "frozen": []}
    p99: dict[str, list[float]] = {"default": [], "frozen": []}
    seeds = [10_000]

    def decisions(frozen: bool) -> float:
        """A few games' decisions (with the long-lived objects frozen, or not); the worst."""
        if frozen:
            gc.collect()
            gc.freeze()
        ts: list[float] = []
        for _ in range(max(1, games // 2)):
            ts += decision_times(seeds[0], options)
            seeds[0] += 1
        ts.sort()
        if frozen:
            gc.unfreeze()
        name = "frozen" if frozen else "default"
        worst[name].append(ts[-1])
        p99[name].append(ts[int(len(ts) * 0.99)])
        return ts[-1]

    got = interleaved(
        args.rounds,
        {
            "setup": setup_rate,
            "strategic": strategic.rate,
            "random": rand.rate,
            "default": lambda: decisions(False),
            "frozen": lambda: decisions(True),
        },
    )
    figures = [
        Figure("tobago.setups_per_s", f"Tobago setups/s ({args.island})", got["setup"], "/s"),
        Figure(
            "tobago.strategic_games_per_s",
            "Tobago games/s, 4 strategic bots",
            got["strategic"],
            "games/s",
            (">=", TARGET_STRATEGIC_GAMES_PER_SECOND),
            note=f"{statistics.mean(strategic.actions):.0f} actions/game; a game = "
            f"{median_ratio(got['setup'], got['strategic']):.0f} setups",
        ),
        Figure(
            "tobago.random_games_per_s",
            "Tobago games/s, 4 random bots (no view built)",
            got["random"],
            "games/s",
            note=f"{statistics.mean(rand.actions):.0f} actions/game",
        ),
    ]
    for name, words in (("default", "default gc"), ("frozen", "after gc.freeze()")):
        figures.append(
            Figure(
                f"tobago.decision_worst_{name}_ms",
                f"Tobago strategic decision, worst, {words}",
                worst[name],
                "ms",
                ("<=", DECISION_LIMIT_MS),
                note=f"p99 {statistics.median(p99[name]):.2f} ms",
            )
        )
    report("tobago", figures, args, island=args.island)


if __name__ == "__main__":
    main()
