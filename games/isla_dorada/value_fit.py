"""Fit the strong bot's estimate of a final score (``games.isla_dorada.strong.estimate``) and
write its weights to ``data/strong_value.json``:

    .venv/bin/python -m games.isla_dorada.value_fit [--games 400] [--seed 1000]

Four planners play ``--games`` games (seeds ``--seed`` on); after each round's treasures every
seat's ``strong.features`` are a row whose target is that seat's final score. The weights are
the least-squares fit with a ridge of ``RIDGE`` on all but the intercept (normal equations,
Gauss-Jordan: 22 unknowns need no library); the fit on the first three quarters of the games
is scored on the last quarter (R², printed and written to the file's ``about``).
"""

from __future__ import annotations

import argparse
import json
import random

from games.base import get_kind
from games.isla_dorada import strong
from games.isla_dorada.planner import plan
from games.state import OVER

RIDGE = 1.0


def rows(games: int, seed: int) -> list[tuple[int, list[float], float]]:
    """``(game, features, final score)`` per seat and round of ``games`` planner games."""
    kind = get_kind("isla_dorada")
    out = []
    for g in range(seed, seed + games):
        state = kind.new_state(g, 4, {})
        seen: list[list[list[float]]] = []
        last = -1
        while not kind.is_over(state):
            actor = kind.to_act(state)[0]
            legal = kind.legal_actions(state, actor)
            move = (
                legal[0]
                if len(legal) == 1
                else plan(kind.view(state, actor), legal, random.Random(0))
            )
            kind.apply(state, actor, move)
            if state.phase in strong._AFTER_TREASURES and state.round != last:
                last = state.round
                seen.append([strong.features(state, s) for s in range(4)])
        assert state.phase == OVER
        final = kind.scores(state) or []
        out += [(g, f[s], float(final[s])) for f in seen for s in range(4)]
    return out


def fit(data: list[tuple[int, list[float], float]]) -> list[float]:
    """The ridge least-squares weights for ``data``'s rows."""
    k = len(data[0][1])
    a = [[0.0] * (k + 1) for _ in range(k)]
    for _, x, y in data:
        for i, xi in enumerate(x):
            if xi:
                row = a[i]
                for j, xj in enumerate(x):
                    row[j] += xi * xj
                row[k] += xi * y
    for i in range(1, k):
        a[i][i] += RIDGE
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(k):
            if r != c and a[r][c]:
                f = a[r][c] / a[c][c]
                a[r] = [u - f * v for u, v in zip(a[r], a[c], strict=True)]
    return [a[i][k] / a[i][i] for i in range(k)]


def r2(weights: list[float], data: list[tuple[int, list[float], float]]) -> float:
    mean = sum(y for _, _, y in data) / len(data)
    err = sum((y - sum(w * f for w, f in zip(weights, x, strict=True))) ** 2 for _, x, y in data)
    return 1 - err / sum((y - mean) ** 2 for _, _, y in data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1000)
    a = ap.parse_args()
    data = rows(a.games, a.seed)
    cut = a.seed + a.games * 3 // 4
    held_out = r2(fit([r for r in data if r[0] < cut]), [r for r in data if r[0] >= cut])
    weights = fit(data)
    about = (
        "The strong bot's estimate of a seat's final score from a position after a round's"
        " treasures (games.isla_dorada.strong.FEATURES names each weight; the estimate is the"
        f" sum of weight times feature). Fitted by least squares (ridge {RIDGE}) on {a.games}"
        f" games of four planners (seeds {a.seed}-{a.seed + a.games - 1}), one row per seat and"
        " round, the seat's final score the target, by games/isla_dorada/value_fit.py. Held"
        f" out (the last quarter of the games): R^2 {held_out:.2f}."
    )
    doc = {
        "about": about,
        "weights": {n: round(w, 4) for n, w in zip(strong.FEATURES, weights, strict=True)},
    }
    strong._WEIGHTS_FILE.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"held-out R^2 {held_out:.3f}; weights written to {strong._WEIGHTS_FILE}")


if __name__ == "__main__":
    main()
