"""Fit the strong bot's estimate of a final score (``games.isla_dorada.strong.estimate``) and
write its weights to ``data/strong_value.json``:

    .venv/bin/python -m games.isla_dorada.value_fit [--games 400] [--seed 1000]

Four planners play ``--games`` games (seeds ``--seed`` on); after each round's treasures every
seat's ``strong.features`` are a row whose target is that seat's final score. The weights are
the least-squares fit with a ridge of ``RIDGE`` on all but the intercept (``ridge``, numpy's
solver of the normal equations); the fit on the first three quarters of the games
is scored on the last quarter (R², printed and written to the file's ``about``).
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Collection, Sequence

import numpy as np

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


def ridge(
    matrix: Sequence[Sequence[float]],
    targets: Sequence[float],
    penalty: float,
    free: Collection[int] = (),
) -> list[float]:
    """The least-squares weights of ``matrix``'s columns for ``targets``, with a ridge of
    ``penalty`` on every column but those in ``free`` (an intercept's)."""
    x = np.asarray(matrix, dtype=float)
    y = np.asarray(targets, dtype=float)
    penalties = np.full(x.shape[1], penalty)
    penalties[list(free)] = 0.0
    weights = np.linalg.solve(x.T @ x + np.diag(penalties), x.T @ y)
    return [float(w) for w in weights]


def fit(data: list[tuple[int, list[float], float]]) -> list[float]:
    """The ridge least-squares weights for ``data``'s rows (no ridge on the intercept, the
    first feature)."""
    return ridge([x for _, x, _ in data], [y for _, _, y in data], RIDGE, free=(0,))


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
