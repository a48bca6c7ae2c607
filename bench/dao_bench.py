"""DAO speed on one core: random-bot games per second and bot decisions per second.

    .venv/bin/python bench/dao_bench.py [--seats 4] [--seconds 3]

Figures:
- random-bot games/s, engine loop: ``legal_actions`` + the random bot + ``apply`` until the end
  (the random bot ignores its view, so none is built). Target: 2,000 games/s.
- random-bot games/s through ``games.base.play_bots``, which builds each decider's full view
  (with the odds helper) as the web service and the simulator do.
- baseline, measured in the same run: shuffling and dealing out a 60-card list, the floor any
  DAO game costs; the engine's figure is printed as a ratio to it.
- decisions/s of the ``greedy`` and ``ev`` bots and of building a view, on positions sampled from
  random games (the ``ev`` figure is also given as a ratio to ``greedy``, its one-step baseline).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.base import play_bots  # noqa: E402
from games.dao import KIND  # noqa: E402
from games.dao.bots import ev_bot, greedy_bot, random_bot  # noqa: E402

TARGET_GAMES_PER_SECOND = 2000


def timed(fn, seconds: float, rounds: int = 3) -> tuple[int, float]:
    """Call ``fn(i)`` for i = 0, 1, ... in ``rounds`` rounds of ``seconds / rounds`` each; the
    (calls, elapsed) of the fastest round (the machine is shared: the best round is the one least
    disturbed by others)."""
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
    actions = [0]

    engine_calls = [0]

    def engine_game(i: int) -> None:
        engine_calls[0] += 1
        state = KIND.new_state(i, seats)
        while not state.over:
            seat = state.to_move
            KIND.apply(state, seat, random_bot({}, KIND.legal_actions(state, seat), rng))
            actions[0] += 1

    def baseline(i: int) -> None:
        deck = list(range(60))
        random.Random(i).shuffle(deck)
        while deck:
            deck.pop()

    def generic_game(i: int) -> None:
        play_bots(KIND, KIND.new_state(i, seats), ["random"] * seats, rng)

    print(
        f"DAO benchmark: {seats} seats, best of 3 rounds in {seconds:g} s per figure, "
        f"Python {sys.version.split()[0]}, one core"
    )
    n, t = timed(engine_game, seconds)
    engine_rate = n / t
    per_game = actions[0] / engine_calls[0]
    print(
        f"random-bot games/s (engine loop):      {engine_rate:9,.0f}  "
        f"({per_game:.1f} actions/game, {1e6 / (engine_rate * per_game):.2f} µs/action; "
        f"target {TARGET_GAMES_PER_SECOND:,}: {engine_rate / TARGET_GAMES_PER_SECOND:.2f}x)"
    )
    n, t = timed(baseline, seconds)
    base_rate = n / t
    print(
        f"baseline shuffle+deal 60 cards/s:      {base_rate:9,.0f}  (engine game costs {base_rate / engine_rate:.1f}x the baseline)"
    )
    n, t = timed(generic_game, seconds)
    print(f"random-bot games/s (play_bots, views): {n / t:9,.0f}")

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

    rates = {}
    for name, bot in (("greedy", greedy_bot), ("ev", ev_bot)):
        n, t = timed(decide(bot), seconds)
        rates[name] = n / t
    print(f"greedy-bot decisions/s:                {rates['greedy']:9,.0f}")
    print(
        f"ev-bot decisions/s:                    {rates['ev']:9,.0f}  ({rates['greedy'] / rates['ev']:.1f}x greedy's cost)"
    )
    n, t = timed(lambda i: KIND.view(*positions[i % len(positions)]), seconds)
    print(f"seat views/s (with the odds helper):   {n / t:9,.0f}  ({len(positions)} positions)")


if __name__ == "__main__":
    main()
