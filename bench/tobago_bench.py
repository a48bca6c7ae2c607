"""Tobago speed on one core: whole bot games per second, and the strategic bot's decision time.

    .venv/bin/python bench/tobago_bench.py [--games 30] [--island classic-1]

Figures (each game through ``games.base.play_bots``, which builds the deciding seat's view and
legal actions for every action, as the web service and the simulator do; a fresh landmark
placement per game, as the default options give):

- games/s with 4 strategic bots (target: 10) and with 4 random bots;
- actions per game, and the mean and worst time of one strategic decision (view + legal actions
  + the bot; the rule is at most 50 ms), measured twice: with Python's default garbage collector,
  whose occasional full collection (25–35 ms over the process's long-lived island and solver
  caches) lands inside whichever decision triggers it, and with those long-lived objects moved
  out of the collector's way by ``gc.freeze()`` after warm-up, which shows the bot's own cost;
- baseline, measured in the same run: a game's setup alone (``new_state``: island lookup,
  landmarks, decks), printed with the ratio of a whole strategic game to it.

The machine is shared: every figure is the best of three rounds.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.base import play_bots  # noqa: E402
from games.tobago import KIND  # noqa: E402

TARGET_STRATEGIC_GAMES_PER_SECOND = 10
DECISION_LIMIT_MS = 50


def games_per_second(
    levels: list[str], games: int, options: dict, first_seed: int
) -> tuple[float, float]:
    """(games/s, actions per game) over ``games`` games; best of three rounds."""
    best = 0.0
    actions = 0.0
    for r in range(3):
        n = 0
        start = time.perf_counter()
        for g in range(games):
            seed = first_seed + r * games + g
            state = KIND.new_state(seed, len(levels), options)
            n += play_bots(KIND, state, levels, random.Random(seed))
        rate = games / (time.perf_counter() - start)
        if rate > best:
            best, actions = rate, n / games
    return best, actions


def decision_times(games: int, options: dict) -> list[float]:
    """Milliseconds of every strategic decision (view + legal actions + bot) in ``games`` games."""
    times: list[float] = []
    bot = KIND.bots["strategic"]
    for g in range(games):
        rng = random.Random(g)
        state = KIND.new_state(10_000 + g, 4, options)
        while not KIND.is_over(state):
            seat = KIND.to_act(state)[0]
            t = time.perf_counter()
            action = bot(KIND.view(state, seat), KIND.legal_actions(state, seat), rng)
            times.append((time.perf_counter() - t) * 1000)
            KIND.apply(state, seat, action)
    return times


def setup_rate(options: dict, n: int = 200) -> float:
    best = 0.0
    for r in range(3):
        start = time.perf_counter()
        for i in range(n):
            KIND.new_state(50_000 + r * n + i, 4, options)
        best = max(best, n / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per round (default 30)")
    parser.add_argument("--island", default="classic-1", help="island option (default classic-1)")
    args = parser.parse_args()
    options = {"island": args.island}
    KIND.new_state(0, 4, options)  # warm the island cache and the solver's tables

    setups = setup_rate(options)
    strategic, s_actions = games_per_second(["strategic"] * 4, args.games, options, 1)
    rand, r_actions = games_per_second(["random"] * 4, max(5, args.games // 3), options, 100_000)
    times = sorted(decision_times(max(5, args.games // 3), options))
    gc.collect()
    gc.freeze()  # long-lived caches are warm now: keep full collections from walking them
    frozen = sorted(decision_times(max(5, args.games // 3), options))
    gc.unfreeze()

    print(f"tobago on {args.island}, one core, best of 3 rounds")
    print(f"  baseline: setup alone          {setups:8.1f} games/s")
    ok = "meets" if strategic >= TARGET_STRATEGIC_GAMES_PER_SECOND else "MISSES"
    print(
        f"  4 strategic bots               {strategic:8.1f} games/s  ({s_actions:.0f} actions/game;"
        f" {ok} the {TARGET_STRATEGIC_GAMES_PER_SECOND} games/s target;"
        f" {setups / strategic:.1f}× a setup)"
    )
    print(f"  4 random bots                  {rand:8.1f} games/s  ({r_actions:.0f} actions/game)")
    for label, ts in (("default gc", times), ("after gc.freeze()", frozen)):
        worst = ts[-1]
        p99 = ts[int(len(ts) * 0.99)]
        mean = sum(ts) / len(ts)
        ok = "within" if worst <= DECISION_LIMIT_MS else "OVER"
        print(
            f"  strategic decision, {label:<18} mean {mean:.2f} ms, p99 {p99:.2f} ms,"
            f" worst {worst:.2f} ms ({len(ts)} decisions; {ok} the {DECISION_LIMIT_MS} ms limit)"
        )


if __name__ == "__main__":
    main()
