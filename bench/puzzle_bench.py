"""Teaching-puzzle speed: irredundant puzzles per second and the time of a proven-minimal puzzle.

Islands: generated islands of 100–140 spaces (built before timing; their clue masks are compiled
on first use and that first use is included). Prints:

- irredundant puzzles/s per difficulty, graded to match (``make_puzzle``), and raw irredundant
  draws/s (``draw_irredundant``, before grading); target ≥ 50/s;
- proven-minimal clue sets (``minimal_clues``, exact set cover over the whole 88-clue universe):
  median / p90 / max ms over random answers; target median ≤ 50 ms; and whole minimal puzzles
  (``make_minimal_puzzle``, several answers and covers graded) per difficulty;
- baseline in the same run: brute force over combinations of distinct clue masks for the same
  answers (minimum ≤ 4 only, a few answers each, so it finishes), with the ratio per minimum
  size: brute force wins when two clues suffice (it stops at the first pair), the exact search
  wins more and more once smaller sizes must be refuted.

Run: ``.venv/bin/python bench/puzzle_bench.py`` (about 20 s).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hexmap.catalog import generated_island  # noqa: E402
from hexmap.island import Island  # noqa: E402
from solver.puzzles.clues import DIFFICULTIES, pool  # noqa: E402
from solver.puzzles.cover import brute_force_minimum  # noqa: E402
from solver.puzzles.generate import (  # noqa: E402
    draw_irredundant,
    make_minimal_puzzle,
    make_puzzle,
    minimal_clues,
    universe_masks,
)

ISLANDS = 6
PUZZLES_PER_ISLAND = 40
ANSWERS_PER_ISLAND = 25
#: Brute force only up to this many clues, and at most this many answers per minimum size.
BRUTE_LIMIT = 4
BRUTE_CASES = {1: 20, 2: 20, 3: 20, 4: 3}


def islands() -> list[Island]:
    out: list[Island] = []
    seed = 1
    while len(out) < ISLANDS:
        island = generated_island(seed)
        if 100 <= len(island) <= 140:
            out.append(island)
        seed += 1
    return out


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def brute_minimum(island, answer, limit: int) -> int | None:
    base, masks = universe_masks(island)
    a = 1 << island.bit[answer]
    return brute_force_minimum(base, a, (masks[i] for i in pool("hard") if masks[i] & a), limit)


def main() -> None:
    isl = islands()
    print(f"islands: {len(isl)} generated, sizes {sorted(len(i) for i in isl)}")
    for d in DIFFICULTIES:
        rng = random.Random(d)
        t = time.perf_counter()
        n = 0
        for island in isl:
            for _ in range(PUZZLES_PER_ISLAND):
                make_puzzle(island, rng, d)
                n += 1
        dt = time.perf_counter() - t
        rng = random.Random(d)
        t = time.perf_counter()
        draws = 0
        for island in isl:
            for _ in range(PUZZLES_PER_ISLAND):
                if draw_irredundant(island, rng, d) is not None:
                    draws += 1
        raw = time.perf_counter() - t
        print(
            f"{d:6s}: {n / dt:8.1f} irredundant puzzles/s graded to match (target >= 50); "
            f"{draws / raw:8.1f} raw irredundant draws/s"
        )

    rng = random.Random(7)
    times, sizes = [], []
    by_size: dict[int, list[tuple[float, float]]] = {}
    for island in isl:
        for answer in rng.sample(list(island.index), ANSWERS_PER_ISLAND):
            t = time.perf_counter()
            found = minimal_clues(island, answer, "hard")
            dt = time.perf_counter() - t
            if found is None:
                continue
            k = found[1].clues
            times.append(dt)
            sizes.append(k)
            pairs = by_size.setdefault(k, [])
            if k <= BRUTE_LIMIT and len(pairs) < BRUTE_CASES[k]:
                t = time.perf_counter()
                brute = brute_minimum(island, answer, BRUTE_LIMIT)
                pairs.append((time.perf_counter() - t, dt))
                assert brute == k, (brute, k)
    print(
        f"proven-minimal clue set (whole universe, {len(times)} answers, minimum "
        f"{min(sizes)}-{max(sizes)} clues): median {statistics.median(times) * 1e3:.2f} ms, "
        f"p90 {pct(times, 0.9) * 1e3:.2f} ms, max {max(times) * 1e3:.2f} ms (target median <= 50 ms)"
    )
    for k, pairs in sorted(by_size.items()):
        if not pairs:
            continue
        brute_s = statistics.median(b for b, _ in pairs)
        exact_s = statistics.median(e for _, e in pairs)
        print(
            f"  minimum {k}: baseline brute force (all combinations of distinct clue masks) median "
            f"{brute_s * 1e3:8.2f} ms vs exact search {exact_s * 1e3:6.2f} ms over {len(pairs)} "
            f"answers: ratio {brute_s / exact_s:6.2f}"
        )
    for d in DIFFICULTIES:
        rng = random.Random(d)
        ts, hits = [], 0
        for island in isl:
            for _ in range(5):
                t = time.perf_counter()
                p = make_minimal_puzzle(island, rng, d)
                ts.append(time.perf_counter() - t)
                hits += p.difficulty == d
        print(
            f"minimal {d:6s} puzzle (answers and covers graded): median "
            f"{statistics.median(ts) * 1e3:.2f} ms, max {max(ts) * 1e3:.2f} ms, "
            f"grade matched {hits}/{len(ts)}"
        )


if __name__ == "__main__":
    main()
