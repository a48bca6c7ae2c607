"""The strong bot (``games.isla_dorada.strong``, the ``strong`` level) against three planners,
and the planner itself in its seat on the same games (the paired baseline):

    nice -n 10 .venv/bin/python -m games.isla_dorada.strong_trial [--games 200] [--first 0]

Game ``g`` is seeded ``g`` with the tried bot in seat ``g % 4`` (seats rotate), the planners
elsewhere; the bot's generator for a move is seeded by the game and the move. Printed for the
bot and for the baseline: the win share (a win shared by k counts 1/k; fair 0.25) with its
95 % interval, the mean margin (its score less the best other seat's) and the mean score; and
the strong bot's decision CPU time (``time.process_time``) p50 / p99 over the decisions that
searched (a rollout ran); ``ISLA_DORADA_STRONG_ROLLOUTS`` sets the rollouts per candidate. ``bench/strong_bots_bench.py``'s ``isla_dorada-4`` row measures the
same games without the baseline; this trial adds the planner in the same seats (the pairing).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable

from games import search
from games.base import Action, get_kind
from games.isla_dorada import strong
from games.isla_dorada.planner import plan
from games.search import thinking_from_environ

Bot = Callable[[dict, list[Action], random.Random], Action]


def trial(bot: Bot, games: int, first: int) -> list[tuple[float, float, float]]:
    """``(win share, margin, score)`` of ``bot``'s seat in each game."""
    kind = get_kind("isla_dorada")
    out = []
    for g in range(first, first + games):
        seat = g % 4
        state = kind.new_state(g, 4, {})
        while not kind.is_over(state):
            actor = kind.to_act(state)[0]
            legal = kind.legal_actions(state, actor)
            if len(legal) == 1:
                move = legal[0]
            else:
                mover = bot if actor == seat else plan
                rng = random.Random(g * 100_003 + state.moves)
                move = mover(kind.view(state, actor), legal, rng)
            kind.apply(state, actor, move)
        scores = kind.scores(state) or []
        winners = kind.winners(state)
        share = 1 / len(winners) if seat in winners else 0.0
        best_other = max(x for s, x in enumerate(scores) if s != seat)
        out.append((share, scores[seat] - best_other, scores[seat]))
    return out


def line(name: str, rows: list[tuple[float, float, float]]) -> str:
    n = len(rows)
    share = sum(r[0] for r in rows) / n
    ci = 1.96 * math.sqrt(share * (1 - share) / n)
    margin = sum(r[1] for r in rows) / n
    score = sum(r[2] for r in rows) / n
    return f"{name}: win share {share:.3f} ± {ci:.3f}, margin {margin:+.2f}, score {score:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0)
    a = ap.parse_args()
    thinking = thinking_from_environ()  # ISLA_DORADA_STRONG_ROLLOUTS, read here at the edge
    times: list[float] = []
    searched = [0]

    def counted(kind: str, decision: search.Decision) -> None:
        searched[0] += decision.spent > 0

    def timed(view: dict, legal: list[Action], rng: random.Random) -> Action:
        before, t = searched[0], time.process_time()
        move = strong.strong_bot(view, legal, rng, thinking)
        if searched[0] > before:
            times.append(time.process_time() - t)
        assert move is not None
        return move

    search.observe = counted
    rows = trial(timed, a.games, a.first)
    search.observe = None
    times.sort()
    print(line(f"strong ({search.full_rollouts(strong.SETTINGS, thinking)} a candidate)", rows))
    if times:
        p50, p99 = times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"  {len(times)} searched decisions: p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms"
        )
    print(line("planner in the same seat", trial(plan, a.games, a.first)))


if __name__ == "__main__":
    main()
