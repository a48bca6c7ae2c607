"""Whether the reviews can be trusted: games of a ``strong`` bot against ``normal`` ones, each
analysed as the review page analyses it (``games.review_trust``), and whether the analysis
rates the strong seat better and the winner at least as well as the loser; with Dragon's
Gold's trades per market among bots.

    .venv/bin/python bench/review_trust_bench.py [--games 200] [--jobs 2] [--only dao] [--merge]

Rows, one per game (the strong seat ``g % seats`` in game ``g``, seeded ``g``; Tobago heads-up,
DAO heads-up, Isla Dorada and Dragon's Gold at 4 seats, default options):

- ``<game>_strong_loss``: the strong seat's rating, its mean loss per rated decision (in the
  analysis's unit: gold of lead, points of lead, points), the mean over the games; beside it
  the normal seats' (``<game>_normal_loss``). Lower is better: the strong seat should be lower.
- ``<game>_winner_share``: the share of games whose winner (highest score) is rated at least
  as well as the loser (lowest score); games with a tie at the top or bottom, or a seat with
  nothing rated, are left out (the count is in the note). Target: most games (>= 0.5).
- ``dragons_gold_trades_per_market`` and ``dragons_gold_markets_traded`` (the share of markets
  with at least one trade), in the same Dragon's Gold games.

The games are played in ``--rounds`` rounds (every row's share of them in each round in turn);
each figure is one value over all of a row's games. ``--quick``: a couple of games per row.
``--merge`` writes this run's rows into ``bench/results.json`` (the other rows kept) and the
README's figures.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, games_parser, games_rounds, parse_games, report
from bench.run import RESULTS, worker_class, write_readme
from games.review_trust import Summary, Trial, summary, trial

#: Game → seats.
ROWS = {"tobago": 2, "dao": 2, "isla_dorada": 4, "dragons_gold": 4}
UNITS = {"tobago": "gold", "dao": "points", "isla_dorada": "points", "dragons_gold": "points"}


def play(args: tuple[str, int, list[int]]) -> list[dict[str, Any]]:
    name, seats, games = args
    return [asdict(trial(name, seats, g)) for g in games]


def figures(name: str, s: Summary) -> list[Figure]:
    unit = UNITS[name]
    out = []
    if s.strong_rating is not None and s.normal_rating is not None:
        out += [
            Figure(
                f"review_trust.{name}_strong_loss",
                f"{name}: the strong seat's mean loss per rated decision ({s.games} games)",
                [s.strong_rating],
                unit,
                note=f"normal seats {s.normal_rating:.3f}",
            ),
            Figure(
                f"review_trust.{name}_normal_loss",
                f"{name}: the normal seats' mean loss per rated decision",
                [s.normal_rating],
                unit,
            ),
        ]
    if s.winner_share is not None:
        out.append(
            Figure(
                f"review_trust.{name}_winner_share",
                f"{name}: games whose winner is rated at least as well as the loser",
                [s.winner_share],
                "",
                (">=", 0.5),
                note=f"{s.judged} of {s.games} games judged",
            )
        )
    if s.trades_per_market is not None and s.markets_with_trades is not None:
        out += [
            Figure(
                f"review_trust.{name}_trades_per_market",
                f"{name}: trades per market among bots",
                [s.trades_per_market],
                "",
                note=f"{s.markets} markets",
            ),
            Figure(
                f"review_trust.{name}_markets_traded",
                f"{name}: markets with at least one trade among bots",
                [s.markets_with_trades],
                "",
                (">=", 0.5),
            ),
        ]
    return out


def main() -> None:
    a = parse_games(games_parser(__doc__, 200, ROWS))
    names = a.only or list(ROWS)
    trials: dict[str, list[Trial]] = {name: [] for name in names}
    start = time.perf_counter()
    for name, parts, _ in games_rounds(a, names, play, lambda name, c: (name, ROWS[name], c)):
        trials[name] += [Trial(**t) for part in parts for t in part]
    out = [f for name in names for f in figures(name, summary(trials[name]))]
    wall = round(time.perf_counter() - start)
    report("review_trust", out, a, games=a.games, jobs=a.jobs, rows=names, wall_s=wall)
    if a.merge and not a.quick:
        merge(RESULTS, out, a, wall)
        write_readme(json.loads(RESULTS.read_text()))
        print(f"merged {', '.join(names)} into {RESULTS.relative_to(RESULTS.parent.parent)}")


def merge(path: Path, figs: list[Figure], a: Any, wall_s: int) -> None:
    """Put this run's figures into the results file's ``review_trust`` bench (replacing the
    rows run, keeping the others'), each game's facts with its games and date."""
    results = json.loads(path.read_text())
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = list(os.getloadavg())
    bench = results["benches"].setdefault(
        "review_trust",
        {"bench": "review_trust", "rounds": a.rounds, "quick": False, "facts": {}},
    )
    fresh = [f.as_json() for f in figs]
    keys = {f["key"] for f in fresh}
    names = list(ROWS)
    merged = [f for f in bench.get("figures", []) if f["key"] not in keys] + fresh

    def place(f: dict[str, Any]) -> int:
        return next(
            (i for i, n in enumerate(names) if f["key"].startswith(f"review_trust.{n}_")), 9
        )

    bench["figures"] = sorted(merged, key=place)
    for name in a.only or names:
        bench["facts"][name] = {"games": a.games, "jobs": a.jobs, "wall_s": wall_s, "date": now}
    bench.update(
        rounds=a.rounds,
        load_average=load,
        load_before=bench.get("load_before", load),
        date=now,
        seconds=float(wall_s),
        worker_class=worker_class(),
    )
    results["benches"] = dict(sorted(results["benches"].items()))
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
