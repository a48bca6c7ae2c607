"""Fit the strong bot's keeps (``games.isla_dorada.keeping``) and write their weights to
``data/keep_value.json``:

    .venv/bin/python -m games.isla_dorada.keep_fit [--games 40000] [--seed 50000] [--jobs 2]

Four planners play ``--games`` games of four seats (seeds ``--seed`` on), but every seat's
setup and cable news choices are drawn at random, uniformly among the legal ones. Each such
choice is a row: the features of the choice made and the seat's final margin (its score less
the best other seat's). The weights are, per phase, the least-squares fit of the margin on the
features with a ridge of ``RIDGE`` (``value_fit.ridge``).

**Held out.** Fitted on the games whose seed is not 3 mod 4, the weights are judged on the
others: of the rows whose random choice is the one the weights would make, the mean margin and
win share estimate what the weights' choice is worth, and likewise for the planner's choice
and for any choice (unbiased, since the choice was drawn uniformly; the other seats chose at
random too). Printed, and written to the file's ``about``; the weights written are then
fitted on every game.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from games.base import Action, get_kind
from games.isla_dorada import keeping
from games.isla_dorada.planner import plan
from games.isla_dorada.value_fit import ridge

RIDGE = 10.0
#: Games a worker plays at a time.
CHUNK = 500


@dataclass
class Row:
    """One random choice: its game, phase and seat, the features of every legal choice, which
    was made (``chosen``) and which the planner would have made, and the seat's final margin
    and win share (a win shared by k seats counts 1/k)."""

    game: int
    phase: str
    seat: int
    options: list[dict[str, float]]
    chosen: int
    planner: int
    margin: float = 0.0
    share: float = 0.0


def play(seed: int) -> list[Row]:
    """One game of planners whose keeps are drawn at random (``random.Random(seed)``), its
    rows."""
    kind = get_kind("isla_dorada")
    state = kind.new_state(seed, 4, {})
    draw = random.Random(seed)
    rows = []
    while not kind.is_over(state):
        actor = kind.to_act(state)[0]
        legal = kind.legal_actions(state, actor)
        move: Action = legal[0]
        if len(legal) > 1:
            view = kind.view(state, actor)
            own = plan(view, legal, random.Random(0))
            if state.phase in keeping.FEATURES:
                features = keeping.FEATURES[state.phase]
                chosen = draw.randrange(len(legal))
                move = legal[chosen]
                options = [features(view, a) for a in legal]
                rows.append(Row(seed, state.phase, actor, options, chosen, legal.index(own)))
            else:
                move = own
        kind.apply(state, actor, move)
    scores = kind.scores(state) or []
    winners = kind.winners(state)
    for row in rows:
        row.margin = scores[row.seat] - max(x for s, x in enumerate(scores) if s != row.seat)
        row.share = 1 / len(winners) if row.seat in winners else 0.0
    return rows


def play_many(seeds: list[int]) -> list[Row]:
    return [row for seed in seeds for row in play(seed)]


def fit(rows: list[Row]) -> dict[str, float]:
    """The weights of the features of the choices made, fitted to the margins (with an
    intercept, not written: only differences between choices matter)."""
    names = sorted({name for r in rows for name in r.options[r.chosen]})
    column = {name: i for i, name in enumerate(names, start=1)}
    matrix = []
    for r in rows:
        x = [1.0] + [0.0] * len(names)
        for name, v in r.options[r.chosen].items():
            x[column[name]] = v
        matrix.append(x)
    weights = ridge(matrix, [r.margin for r in rows], RIDGE, free=(0,))
    return {name: round(w, 4) for name, w in zip(names, weights[1:], strict=True)}


@dataclass(frozen=True)
class Judged:
    """What a way of choosing got on held-out rows where it agreed with the random choice."""

    rows: int
    margin: float
    share: float
    share_ci: float

    def __str__(self) -> str:
        return (
            f"margin {self.margin:+.2f}, win share {self.share:.3f} ± {self.share_ci:.3f}"
            f" ({self.rows} rows)"
        )


def judge(rows: list[Row]) -> Judged:
    n = len(rows)
    share = sum(r.share for r in rows) / n
    spread = math.sqrt(sum((r.share - share) ** 2 for r in rows) / max(n - 1, 1))
    return Judged(n, sum(r.margin for r in rows) / n, share, 1.96 * spread / math.sqrt(n))


def held_out(rows: list[Row], weights: dict[str, float]) -> dict[str, Judged]:
    """The weights' choice, the planner's and any choice, judged on ``rows``."""

    def best(r: Row) -> int:
        values = [keeping.value(weights, o) for o in r.options]
        return values.index(max(values))

    return {
        "fitted": judge([r for r in rows if r.chosen == best(r)]),
        "planner": judge([r for r in rows if r.chosen == r.planner]),
        "random": judge(rows),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40_000)
    ap.add_argument("--seed", type=int, default=50_000)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    seeds = list(range(a.seed, a.seed + a.games))
    chunks = [seeds[i : i + CHUNK] for i in range(0, len(seeds), CHUNK)]
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = [row for part in pool.map(play_many, chunks) for row in part]
    weights: dict[str, dict[str, float]] = {}
    judged: dict[str, dict[str, Judged]] = {}
    for phase in keeping.FEATURES:
        mine = [r for r in rows if r.phase == phase]
        train = [r for r in mine if r.game % 4 != 3]
        judged[phase] = held_out([r for r in mine if r.game % 4 == 3], fit(train))
        weights[phase] = fit(mine)
        for name, j in judged[phase].items():
            print(f"{phase}, held out, {name} choice: {j}")
    figures = "; ".join(
        f"{phase}: the fitted choice {j['fitted']}, the planner's {j['planner']}, any choice"
        f" {j['random']}"
        for phase, j in judged.items()
    )
    about = (
        "The strong bot's keeps (games.isla_dorada.keeping): per phase, the weight of each"
        " feature of a choice in a linear estimate of the seat's final margin. Fitted by least"
        f" squares (ridge {RIDGE}) on {a.games} games of four planners whose setup and cable news"
        f" choices were drawn at random (seeds {a.seed}-{a.seed + a.games - 1}), by"
        " games/isla_dorada/keep_fit.py. Held out (fitted on the games whose seed is not 3 mod"
        f" 4, judged on the rows of the others where the random choice was the one judged): {figures}."
    )
    doc = {"about": about, "weights": weights}
    keeping._WEIGHTS_FILE.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"weights written to {keeping._WEIGHTS_FILE}")


if __name__ == "__main__":
    main()
