"""The strong bots against the normal ones: win shares over many games, and the think time of
each decision at the default budget.

    .venv/bin/python bench/strong_bots_bench.py [--games 400] [--jobs 2] [--only tobago-2] [--merge]

Rows (seats rotated game by game; Tobago's islands turn through ``classic-1`` … ``classic-6``;
game ``g`` of a row is seeded ``g`` whatever the split, so any ``--jobs`` plays the same games):

- ``tobago-2``: Tobago heads-up, ``strong`` against ``normal`` (fair 0.50; target >= 0.60);
- ``tobago-4``: Tobago at 4 seats, ``strong`` against three ``normal`` (fair 0.25; target >=
  0.35);
- ``dragons_gold-5``: Dragon's Gold at 5 seats (the default options: basic rules, timed
  negotiation), ``strong`` against four ``normal`` (fair 0.20; target >= 0.35);
- ``isla_dorada-4``: Isla Dorada at 4 seats, ``strong`` against three ``normal`` (the planner;
  fair 0.25; target >= 0.35);
- ``dao-2``, ``dao-4``: DAO's ``strong`` against ``normal`` (once ``greedy``), heads-up and
  against three (no target: measured).

A row's win share (a win shared by k seats counts 1/k) is one figure over all its games, with
its 95 % interval and the mean scores in the note. The games are played in ``--rounds`` rounds,
every row's share of them in each round in turn, and each round gives each row's **think time**:
the p99 of the CPU time (``time.process_time``: what a decision costs on one core, whatever else
the machine runs) of the strong bot's decisions that searched (ran a rollout; Tobago's other
decisions are the normal bot's move, a few ms; Dragon's Gold's others weigh a split or a lot,
a few ms; Isla Dorada's others, the payments, moves and treasure plays, are the planner's; DAO's
others have one legal action), target p99 <= 1 s; beside it, the normal bot's decisions in the same games (the
baseline), and the rollouts a searched decision spent of those it was granted (the shared
search, ``games.search``, races its candidates: a decision spends less when one is clearly
best). The budgets are each game's defaults, or the ``*_STRONG_ROLLOUTS`` variables' counts
(the app's ``BOT_ROLLOUTS``, ``web.config``), read when the bench starts.

A full run of every row takes about an hour of two idle cores (several on a shared machine;
``bench/run.py`` allows it ``TIMEOUT_S``), so rows are often measured apart: ``--merge``
writes the rows this run played into ``bench/results.json`` (their figures replace those rows'
figures, the other rows' stay, and each game's facts say its games, jobs, budget, wall time and
date) and rewrites the README's figures from it.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, games_parser, games_rounds, number, parse_games, quantile, report
from bench.run import RESULTS, write_readme
from games import search
from games.base import get_kind
from games.dao import strong as dao_strong
from games.dragons_gold import strong as dragons_gold_strong
from games.isla_dorada import strong as isla_dorada_strong
from games.simulate import simulate
from games.tobago import search as tobago_search

#: The think-time target: a strong decision's p99 on one core, in ms.
THINK_MS = 1000.0
ISLANDS = 6


@dataclass(frozen=True)
class Row:
    game: str
    seats: int
    target: float | None

    @property
    def key(self) -> str:
        return f"{self.game}_{self.seats}"

    @property
    def title(self) -> str:
        names = {
            "tobago": "Tobago",
            "dao": "DAO",
            "isla_dorada": "Isla Dorada",
            "dragons_gold": "Dragon's Gold",
        }
        return f"{names[self.game]}, {self.seats} seats"

    @property
    def against(self) -> str:
        """Whom the strong bot plays against."""
        return "normal" if self.seats == 2 else f"{self.seats - 1} normal"


ROWS: dict[str, Row] = {
    "tobago-2": Row("tobago", 2, 0.60),
    "tobago-4": Row("tobago", 4, 0.35),
    "dragons_gold-5": Row("dragons_gold", 5, 0.35),
    "isla_dorada-4": Row("isla_dorada", 4, 0.35),
    "dao-2": Row("dao", 2, None),
    "dao-4": Row("dao", 4, None),
}

#: In each worker process: the CPU seconds of every decision, by level, and whether the strong
#: one searched (``_install``); the rollouts each searched decision spent and was granted.
_TIMES: dict[str, list[tuple[float, bool]]] = {}
_SPENT: list[tuple[int, int]] = []
_INSTALLED: set[str] = set()


def _observe(kind: str, decision: search.Decision) -> None:
    _SPENT.append((decision.spent, decision.budget))


def _install(game: str) -> None:
    """Wrap the game's ``strong`` and ``normal`` bots (once per process) to time each decision
    (at ``THINKING``, the environment's budgets), and hear of each search (``search.observe``)
    to tell a searched decision and count its rollouts."""
    if game in _INSTALLED:
        return
    _INSTALLED.add(game)
    search.observe = _observe
    kind = get_kind(game)
    for level in ("strong", "normal"):
        bot = kind.bots[level]

        def timed(view: dict, legal: list, rng: Any, bot: Any = bot, level: str = level) -> Any:
            before = len(_SPENT)
            t = time.process_time()
            if getattr(bot, "thinks", False):
                action = bot(view, legal, rng, THINKING)
            else:
                action = bot(view, legal, rng)
            spent = time.process_time() - t
            searched = len(_SPENT) > before and _SPENT[-1][0] > 0
            _TIMES[f"{game}/{level}"].append((spent, searched))
            return action

        kind.bots[level] = timed


#: The budgets the strong bots spend here: each kind's default, or its ``*_STRONG_ROLLOUTS``
#: variable's count (read at start-up, at this edge).
THINKING = search.thinking_from_environ()

#: Each game's search settings (its default budget, its kind's name).
SETTINGS = {
    "tobago": tobago_search.SETTINGS,
    "dragons_gold": dragons_gold_strong.SETTINGS,
    "isla_dorada": isla_dorada_strong.SETTINGS,
    "dao": dao_strong.SETTINGS,
}


def budget_text(game: str) -> str:
    """The full budget the row's strong bot spends, in words (the facts of its row)."""
    settings = SETTINGS[game]
    count = search.full_rollouts(settings, THINKING)
    each = " a candidate" if settings.per_candidate else " a decision"
    return f"{count} rollouts{each}, raced"


def play(args: tuple[str, int, list[int]]) -> dict[str, Any]:
    """Games ``numbers`` of a row (each seeded by its number), in this process: the strong
    entry's win share and mean score summed, the others' mean score, the decisions' times."""
    game, seats, numbers = args
    _install(game)
    kind = get_kind(game)
    for level in ("strong", "normal"):
        _TIMES[f"{game}/{level}"] = []
    _SPENT.clear()
    share = score = others = 0.0
    for g in numbers:
        seat = g % seats
        bots = ["normal"] * seats
        bots[seat] = "strong"
        options = {"island": f"classic-{(g // seats) % ISLANDS + 1}"} if game == "tobago" else None
        entries = simulate(kind, 1, seats, bots, seed=g, options=options, rotate=False)["entries"]
        share += entries[seat]["win_share"]
        score += entries[seat]["mean_score"]
        others += sum(e["mean_score"] for i, e in enumerate(entries) if i != seat) / (seats - 1)
    return {
        "share": share,
        "score": score,
        "others": others,
        "strong": [t for t, searched in _TIMES[f"{game}/strong"] if searched],
        "strong_all": len(_TIMES[f"{game}/strong"]),
        "spent": [spent for spent, _ in _SPENT if spent > 0],
        "granted": [granted for spent, granted in _SPENT if spent > 0],
        "normal": [t for t, _ in _TIMES[f"{game}/normal"]],
    }


@dataclass
class Tally:
    """A row's games so far, and its think times: every searched decision's, and each round's
    p99 (the strong bot's and the normal bot's, in ms)."""

    games: int = 0
    share: float = 0.0
    score: float = 0.0
    others: float = 0.0
    decisions: int = 0
    spent: list[int] = field(default_factory=list)
    granted: list[int] = field(default_factory=list)
    strong_times: list[float] = field(default_factory=list)
    p99: list[float] = field(default_factory=list)
    normal_p99: list[float] = field(default_factory=list)

    def add_round(self, parts: list[dict[str, Any]], games: int) -> None:
        self.games += games
        self.share += sum(p["share"] for p in parts)
        self.score += sum(p["score"] for p in parts)
        self.others += sum(p["others"] for p in parts)
        self.decisions += sum(p["strong_all"] for p in parts)
        self.spent += [n for p in parts for n in p["spent"]]
        self.granted += [n for p in parts for n in p["granted"]]
        strong = [t for p in parts for t in p["strong"]]
        self.strong_times += strong
        self.p99.append(quantile(strong, 0.99) * 1000 if strong else 0.0)
        self.normal_p99.append(quantile([t for p in parts for t in p["normal"]], 0.99) * 1000)


def figures(row: Row, t: Tally) -> list[Figure]:
    share = t.share / t.games
    ci = 1.96 * math.sqrt(share * (1 - share) / t.games)
    fair = 1 / row.seats
    times = sorted(t.strong_times) or [0.0]
    key = f"strong_bots.{row.key}"
    spent = statistics.fmean(t.spent) if t.spent else 0.0
    granted = statistics.fmean(t.granted) if t.granted else 0.0
    return [
        Figure(
            f"{key}_share",
            f"{row.title}: strong's win share against {row.against}",
            [share],
            "",
            None if row.target is None else (">=", row.target),
            note=(
                f"± {ci:.3f} over {t.games} games (fair {fair:.2f}); mean score"
                f" {t.score / t.games:.1f} against normal's {t.others / t.games:.1f}"
            ),
            extra={"games": t.games, "ci95": ci, "fair": fair},
        ),
        Figure(
            f"{key}_think_p99_ms",
            f"{row.title}: a strong decision's CPU time, p99",
            t.p99,
            "ms",
            ("<=", THINK_MS),
            note=(
                f"{len(t.strong_times)} of {t.decisions} decisions searched; p50 "
                f"{number(quantile(times, 0.5) * 1000)} ms, max {number(times[-1] * 1000)} ms;"
                f" the normal bot's p99 {number(statistics.median(t.normal_p99))} ms;"
                f" rollouts a searched decision: {spent:.1f} of {granted:.1f} granted"
            ),
            extra={
                "searched": len(t.strong_times),
                "decisions": t.decisions,
                "rollouts_spent": round(spent, 2),
                "rollouts_granted": round(granted, 2),
            },
        ),
    ]


def main() -> None:
    a = parse_games(games_parser(__doc__, 400, ROWS))
    names = a.only or list(ROWS)
    tallies = {name: Tally() for name in names}
    start = time.perf_counter()
    rows = games_rounds(a, names, play, lambda name, c: (ROWS[name].game, ROWS[name].seats, c))
    for name, parts, games in rows:
        tallies[name].add_round(parts, games)
    out = [f for name in names for f in figures(ROWS[name], tallies[name])]
    report(
        "strong_bots",
        out,
        a,
        games=a.games,
        jobs=a.jobs,
        budget=budget_text("tobago"),
        dragons_gold_budget=budget_text("dragons_gold"),
        isla_dorada_budget=budget_text("isla_dorada"),
        dao_budget=budget_text("dao"),
        wall_s=round(time.perf_counter() - start),
    )
    if a.merge and not a.quick:
        figures_json = [f.as_json() for f in out]
        merge(
            RESULTS, [ROWS[n] for n in names], figures_json, a, round(time.perf_counter() - start)
        )
        write_readme(json.loads(RESULTS.read_text()))
        print(f"merged {', '.join(names)} into {RESULTS.relative_to(RESULTS.parent.parent)}")


def merge(
    path: Path,
    rows: list[Row],
    figures: list[dict[str, Any]],
    a: Any,
    wall_s: int,
    now: str | None = None,
) -> None:
    """Put ``rows``' ``figures`` (``Figure.as_json``) into the results file ``path``'s
    ``strong_bots`` bench (replacing those rows' figures, keeping the others', in row order)
    with each game's facts (games, jobs, budget, wall time, date); the bench's date becomes
    this run's."""
    results = json.loads(path.read_text())
    now = now or datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    bench = results["benches"].setdefault(
        "strong_bots", {"bench": "strong_bots", "rounds": a.rounds, "quick": False, "facts": {}}
    )
    ran = {f"strong_bots.{row.key}_" for row in rows}
    kept = [f for f in bench.get("figures", []) if not any(f["key"].startswith(k) for k in ran)]
    order = [f"strong_bots.{row.key}_" for row in ROWS.values()]

    def place(figure: dict[str, Any]) -> int:
        # a figure of no row (a row renamed since) goes last rather than failing the merge
        return next((i for i, k in enumerate(order) if figure["key"].startswith(k)), len(order))

    bench["figures"] = sorted(kept + figures, key=place)
    for name in [k for k in bench["facts"] if k.endswith("budget")]:
        del bench["facts"][name]  # a whole run's budgets: each game's facts name its own
    for row in rows:
        bench["facts"][row.game] = {
            "games": a.games,
            "jobs": a.jobs,
            "budget": budget_text(row.game),
            "wall_s": wall_s,
            "date": now,
        }
    load = list(os.getloadavg())
    bench.update(rounds=a.rounds, load_average=load, date=now)
    bench.setdefault("load_before", load)
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
