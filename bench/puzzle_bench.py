"""Teaching-puzzle speed: irredundant puzzles per second and the time of a proven-minimal puzzle.

Islands: generated islands of 100–140 spaces (built before timing; their clue masks are compiled
on first use, which the first round includes). Each figure is the median of interleaved rounds,
with the range (every round draws new puzzles and answers):

- irredundant puzzles/s per difficulty, graded to match (``make_puzzle``), and raw irredundant
  draws/s (``draw_irredundant``, before grading); target ≥ 50/s;
- proven-minimal clue sets (``minimal_clues``, exact set cover over the whole 88-clue universe):
  median / p90 / max ms over random answers; target median ≤ 50 ms; and whole minimal puzzles
  (``make_minimal_puzzle``, several answers and covers graded) per difficulty;
- baseline in the same run: brute force over combinations of distinct clue masks for the same
  answers (minimum ≤ 4 only, a few answers each, so it finishes), with the ratio per minimum
  size: brute force wins when two clues suffice (it stops at the first pair), the exact search
  wins more and more once smaller sizes must be refuted.

Run: ``.venv/bin/python bench/puzzle_bench.py [--rounds 5] [--quick]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import Figure, parse, parser, quantile, report
from hexmap.catalog import generated_island
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.puzzles.clues import DIFFICULTIES, pool
from solver.puzzles.cover import brute_force_minimum
from solver.puzzles.generate import (
    draw_irredundant,
    make_minimal_puzzle,
    make_puzzle,
    minimal_clues,
    universe_masks,
)

ISLANDS = 6
#: Per island and round.
PUZZLES_PER_ISLAND = 10
ANSWERS_PER_ISLAND = 5
MINIMAL_PER_ISLAND = 1
#: Brute force only up to this many clues, and at most this many answers per minimum size and
#: round.
BRUTE_LIMIT = 4
BRUTE_CASES = {1: 6, 2: 6, 3: 6, 4: 1}


def islands() -> list[Island]:
    out: list[Island] = []
    seed = 1
    while len(out) < ISLANDS:
        island = generated_island(seed)
        if 100 <= len(island) <= 140:
            out.append(island)
        seed += 1
    return out


def brute_minimum(island: Island, answer: Hex, limit: int) -> int | None:
    base, masks = universe_masks(island)
    a = 1 << island.bit[answer]
    return brute_force_minimum(base, a, (masks[i] for i in pool("hard") if masks[i] & a), limit)


def one_round(isl: list[Island], r: int, scale: int) -> dict[str, float]:
    """Every figure once, on new random draws (``r``: the round)."""
    out: dict[str, float] = {}
    for d in DIFFICULTIES:
        out.update(_generation_round(isl, r, scale, d))
    out.update(_minimal_round(isl, r))
    for d in DIFFICULTIES:
        rng = random.Random(f"minimal-{d}-{r}")
        ts = []
        for island in isl:
            for _ in range(MINIMAL_PER_ISLAND):
                t = time.process_time()
                make_minimal_puzzle(island, rng, d)
                ts.append(time.process_time() - t)
        out[f"minimal_{d}_ms"] = statistics.median(ts) * 1e3
    return out


def _generation_round(isl: list[Island], r: int, scale: int, d: str) -> dict[str, float]:
    """Graded puzzles of difficulty ``d`` per second, and raw irredundant draws per second."""
    out: dict[str, float] = {}
    rng = random.Random(f"{d}-{r}")
    t = time.process_time()
    n = 0
    for island in isl:
        for _ in range(PUZZLES_PER_ISLAND // scale):
            make_puzzle(island, rng, d)
            n += 1
    out[f"{d}_per_s"] = n / (time.process_time() - t)
    rng = random.Random(f"{d}-{r}")
    t = time.process_time()
    draws = 0
    for island in isl:
        for _ in range(PUZZLES_PER_ISLAND // scale):
            if draw_irredundant(island, rng, d) is not None:
                draws += 1
    out[f"{d}_draws_per_s"] = draws / (time.process_time() - t)
    return out


def _minimal_round(isl: list[Island], r: int) -> dict[str, float]:
    """Proven-minimal clue sets for random answers (median and p90 ms), and brute force
    against the exact search per minimum size (each brute answer checked against it)."""
    out: dict[str, float] = {}
    rng = random.Random(7 + r)
    times: list[float] = []
    by_size: dict[int, list[tuple[float, float]]] = {}
    for island in isl:
        for answer in rng.sample(list(island.index), ANSWERS_PER_ISLAND):
            t = time.process_time()
            found = minimal_clues(island, answer, "hard")
            dt = time.process_time() - t
            if found is None:
                continue
            k = found[1].clues
            times.append(dt)
            pairs = by_size.setdefault(k, [])
            if k <= BRUTE_LIMIT and len(pairs) < BRUTE_CASES[k]:
                t = time.process_time()
                brute = brute_minimum(island, answer, BRUTE_LIMIT)
                pairs.append((time.process_time() - t, dt))
                assert brute == k, (brute, k)
    out["minimal_ms"] = statistics.median(times) * 1e3
    out["minimal_p90_ms"] = quantile(times, 0.9) * 1e3
    for k, pairs in by_size.items():
        if pairs:
            brute_s = statistics.median(b for b, _ in pairs)
            out[f"brute_min{k}"] = brute_s / statistics.median(e for _, e in pairs)
    return out


def main() -> None:
    args = parse(parser(__doc__))
    isl = islands()[: 2 if args.quick else ISLANDS]
    print(f"islands: {len(isl)} generated, sizes {sorted(len(i) for i in isl)}")
    per_round = [one_round(isl, r, 5 if args.quick else 1) for r in range(args.rounds)]

    def values(key: str) -> list[float]:
        return [got[key] for got in per_round if key in got]

    figures = []
    for d in DIFFICULTIES:
        figures.append(
            Figure(
                f"puzzle.{d}_per_s",
                f"{d} irredundant puzzles/s, graded to match",
                values(f"{d}_per_s"),
                "/s",
                (">=", 50.0),
                note=f"raw irredundant draws {statistics.median(values(f'{d}_draws_per_s')):,.0f}/s",
            )
        )
    figures.append(
        Figure(
            "puzzle.minimal_ms",
            "proven-minimal clue set (whole universe), median",
            values("minimal_ms"),
            "ms",
            ("<=", 50.0),
            note=f"p90 {statistics.median(values('minimal_p90_ms')):.2f} ms",
        )
    )
    for k in range(1, BRUTE_LIMIT + 1):
        found = values(f"brute_min{k}")
        if found:
            figures.append(
                Figure(
                    f"puzzle.brute_vs_exact_min{k}",
                    f"minimum {k} clues: brute force / exact search",
                    found,
                    "x",
                    note="below 1: brute force is faster",
                )
            )
    for d in DIFFICULTIES:
        figures.append(
            Figure(
                f"puzzle.minimal_{d}_ms",
                f"a minimal {d} puzzle (answers and covers graded)",
                values(f"minimal_{d}_ms"),
                "ms",
            )
        )
    report("puzzle", figures, args, islands=[len(i) for i in isl])


if __name__ == "__main__":
    main()
