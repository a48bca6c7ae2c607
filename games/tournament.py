"""A tournament of a game's bot levels, rated by openskill (Plackett-Luce).

    python -m games.tournament GAME [--games 20] [--seats 2] [--seed 1] [--levels a,b] [--quiet]

Every level meets every other: for each ordered pair of levels ``(a, b)`` one seat plays ``a``
and the others ``b`` (heads-up, at 2 seats, each pair once: ``a`` against ``b``), in every
rotation of the line-up, so every level sits in every seat equally often; ``--games`` games per
line-up. The pairs take turns game by game, so no level's rating runs ahead on a streak.

**Ratings.** Each game is one match between its two levels, each ranked by its best seat's score
(a tie is a draw), rated by openskill's Plackett-Luce model (``openskill``, pinned in
requirements.txt) in the order played, without its dynamics factor (``tau = 0``: a bot's skill
does not drift, so its uncertainty shrinks as its games add up). The table gives each level's ``mu`` with a 95 % interval
(``mu ± 1.96 sigma``), the library's conservative ``ordinal`` (``mu - 3 sigma``), its games and
its win share (a game's win between the two levels, halved on a tie); then each pair's win
share with its 95 % interval (normal approximation). Every game's seed is drawn from ``--seed``: a tournament replays exactly.

A progress bar (``progress``) shows on a terminal's standard error once a run lasts a second.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from openskill.models import PlackettLuce

import progress
from errors import ProjectError
from games.base import GameKind, get_kind, kinds, play_bots

#: z of a 95 % interval.
Z95 = 1.96


@dataclass(frozen=True)
class Match:
    """One game of the tournament: the two levels met, and each one's result (1 win, 0.5 a
    tie, 0 a loss)."""

    first: str
    second: str
    result: float


def line_ups(levels: list[str], seats: int) -> list[tuple[str, str, list[str]]]:
    """``(a, b, seat levels)`` for every ordered pair of levels (heads-up: every pair) and every
    rotation of the line-up ``a, b, b, …``."""
    out = []
    for i, a in enumerate(levels):
        for j, b in enumerate(levels):
            if a == b or (seats == 2 and j < i):
                continue
            base = [a] + [b] * (seats - 1)
            for shift in range(seats):
                out.append((a, b, base[shift:] + base[:shift]))
    return out


def play(
    kind: GameKind,
    games: int,
    seats: int,
    seed: int = 1,
    options: dict | None = None,
    levels: list[str] | None = None,
    step: Callable[[int, int], None] | None = None,
) -> list[Match]:
    """``games`` games of every line-up (``line_ups``), the line-ups taking turns; the
    matches in the order played."""
    kind.check_seats(seats)
    levels = list(kind.levels) if levels is None else levels
    unknown = [lv for lv in levels if lv not in kind.levels]
    if unknown or len(levels) < 2:
        raise ValueError(
            f"{kind.name}: levels {levels} (offered: {', '.join(kind.levels)}; two or more)"
        )
    kind.resolve_options(options, seats)
    master = random.Random(seed)
    order = line_ups(levels, seats)
    total = games * len(order)
    matches: list[Match] = []
    for n in range(total):
        a, b, seat_levels = order[n % len(order)]
        state = kind.new_state(master.randrange(2**31), seats, options)
        play_bots(kind, state, seat_levels, random.Random(master.randrange(2**63)))
        scores = kind.scores(state)
        assert scores is not None
        best_a = max(s for s, lv in zip(scores, seat_levels, strict=True) if lv == a)
        best_b = max(s for s, lv in zip(scores, seat_levels, strict=True) if lv == b)
        matches.append(Match(a, b, 1.0 if best_a > best_b else 0.5 if best_a == best_b else 0.0))
        if step is not None:
            step(n + 1, total)
    return matches


def rate(levels: list[str], matches: list[Match]) -> list[dict[str, Any]]:
    """Each level's rating after ``matches`` (in order), best first (module doc)."""
    model = PlackettLuce(tau=0.0)  # a bot's skill does not drift: no dynamics between games
    ratings = {lv: model.rating(name=lv) for lv in levels}
    won = {lv: 0.0 for lv in levels}
    played = {lv: 0 for lv in levels}
    pair: dict[tuple[str, str], list[float]] = {}
    for m in matches:
        a, b = ratings[m.first], ratings[m.second]
        ranks = [1.0, 1.0] if m.result == 0.5 else [1.0, 2.0] if m.result else [2.0, 1.0]
        [[ratings[m.first]], [ratings[m.second]]] = model.rate([[a], [b]], ranks=ranks)
        for x, y, result in ((m.first, m.second, m.result), (m.second, m.first, 1 - m.result)):
            won[x] += result
            played[x] += 1
            tally = pair.setdefault((x, y), [0.0, 0.0])
            tally[0] += result
            tally[1] += 1
    rows = []
    for lv in levels:
        r = ratings[lv]
        rows.append(
            {
                "level": lv,
                "mu": r.mu,
                "ci95": Z95 * r.sigma,
                "ordinal": r.ordinal(),
                "games": played[lv],
                "win_share": won[lv] / played[lv] if played[lv] else 0.0,
                "against": {
                    o: (pair[(lv, o)][0] / pair[(lv, o)][1], int(pair[(lv, o)][1]))
                    for o in levels
                    if o != lv and (lv, o) in pair
                },
            }
        )
    return sorted(rows, key=lambda row: -row["mu"])


def table(kind: GameKind, seats: int, games: int, seed: int, rows: list[dict]) -> str:
    """The rating table, then each pair's win share with its 95 % interval (the README shows
    them)."""
    head = (
        f"{kind.name}: {games} games, {seats} seats, seed {seed}; openskill Plackett-Luce, "
        "one match per game between its two levels' best seats"
    )
    lines = [
        head,
        "",
        f"{'level':<8} {'mu':>6} {'±95%':>6} {'ordinal':>8} {'games':>6} {'win share':>10}",
    ]
    for row in rows:
        lines.append(
            f"{row['level']:<8} {row['mu']:>6.2f} {row['ci95']:>6.2f} {row['ordinal']:>8.2f} "
            f"{row['games']:>6} {row['win_share']:>10.3f}"
        )
    lines.append("")
    for i, row in enumerate(rows):
        for other in rows[i + 1 :]:
            share, n = row["against"].get(other["level"], (None, 0))
            if share is not None:
                ci = Z95 * math.sqrt(share * (1 - share) / n)
                lines.append(
                    f"{row['level']} against {other['level']}: win share {share:.3f} ± {ci:.3f}"
                    f" ({n} games)"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out
    parser = argparse.ArgumentParser(prog="python -m games.tournament", description=__doc__)
    parser.add_argument("game", choices=sorted(kinds()))
    parser.add_argument("--games", type=int, default=20, help="games per line-up (default 20)")
    parser.add_argument("--seats", type=int, default=None, help="default: the game's fewest")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=None, help="comma-separated (default: all offered)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    kind = get_kind(args.game)
    seats = args.seats or kind.type.min_seats
    levels = args.levels.split(",") if args.levels else list(kind.levels)
    if args.games < 1:
        parser.error("--games must be at least 1")
    total = args.games * len(line_ups(levels, seats))
    bar = progress.bar(total, "games", quiet=args.quiet)
    start = time.perf_counter()
    try:
        matches = play(kind, args.games, seats, args.seed, levels=levels, step=bar)
    except (ValueError, ProjectError) as e:
        parser.error(str(e))
    finally:
        bar.close()
    rows = rate(levels, matches)
    print(table(kind, seats, len(matches), args.seed, rows), file=out)
    print(f"{time.perf_counter() - start:.1f} s", file=out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
