"""Solver benchmark: the bitmask engine against the python-constraint formulation, and
``POST /api/tobago/solve`` against ``GET /healthz`` on the production server, by server CPU.

A query is what a game asks on every turn: the candidates of 4 treasure maps (3–8 clues each,
built by legal plays from the deck) and the legality and remaining count of each card of a
6-card hand on each map, on a prebuilt 120-space island whose masks are already compiled.

Figures (each the median of ``--rounds`` interleaved rounds, with the range):

- µs per query (this process's CPU time, the median over the positions) of the engine
  (``solver.evaluate``; target ≤ 4 µs) and the constraint formulation (``ConstraintModel.query``),
  and their ratio (target ≥ 100×); both answer every query identically (checked first);
- gunicorn as ``make run`` configures it (``gunicorn.conf.py``, one worker): the server's CPU
  time per request (its workers' user + system time from /proc around each load) of
  ``GET /healthz`` and of ``POST /api/tobago/solve``, and their ratio per round (healthz / solve:
  1.0 = a solve costs the server no more than a health check; ``/healthz`` goes through
  Flask's whole request path, the solve through the lean one, ``web/lean.py``). The target row
  (≥ 0.90): the island named (``{"generated": n}``) and 60 positions asked again and again (a
  table polling its game, which has the island: ``"include_island": false``); then the same
  with the island echoed (the default answer), every request a position never seen before (500
  new positions a round, each sent once: no memo helps), and the island given in full JSON
  form. Throughput beside them, from wrk (``bench/http_load.py``:
  one C thread, keep-alive connections; its own CPU per request is printed to show it is not
  the bottleneck).

Usage: ``.venv/bin/python bench/solver_bench.py [--rounds 5] [--seconds 2] [--connections 4]
[--no-http] [--quick]``
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, cpu_median, interleaved, parse_options, ratio, report  # noqa: E402
from bench.http_load import Load, Request, healthz_figure, measured, once_load, wrk_load, wrk_path  # noqa: E402
from hexmap.catalog import generated_island  # noqa: E402
from hexmap.island import Island  # noqa: E402
from solver import DECK, Clue, MapColumn, clue_mask, column_mask, evaluate, legal_plays  # noqa: E402
from solver.constraint_model import ConstraintModel  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402

COLOURS = ("white", "grey", "black", "brown")
#: Targets: the engine's µs per query, its ratio to the constraint formulation, and the solve's
#: server CPU as a ratio to /healthz's (healthz / solve).
TARGET_US = 4.0
TARGET_RATIO = 100.0
TARGET_HTTP = 0.90


def island_of_size(size: int = 120) -> tuple[int, Island]:
    """The first generated island with exactly ``size`` spaces (else the closest one seen)."""
    best = None
    for seed in range(1, 400):
        island = generated_island(seed)
        if len(island) == size:
            return seed, island
        if best is None or abs(len(island) - size) < abs(len(best[1]) - size):
            best = (seed, island)
    assert best is not None
    return best


#: A position to solve: the maps' clue columns and a hand of cards.
Position = tuple[list[MapColumn], list[Clue]]


def random_position(rng: random.Random, island: Island) -> Position:
    """4 maps of 3–8 clues, each clue a legal play from the deck, and a 6-card hand."""
    masks = {card: clue_mask(island, card) for card in DECK}
    base = column_mask(island, [])
    maps = []
    for colour in COLOURS:
        want = rng.randint(3, 8)
        clues: list[Clue] = []
        while len(clues) < want:  # restart a column that got stuck (located too early)
            clues = []
            c = base  # the column's candidates so far
            for _ in range(200):
                if len(clues) == want:
                    break
                card = rng.choice(DECK)
                both = c & masks[card]
                if both and (both != c or not clues):
                    clues.append(card)
                    c = both
        maps.append(MapColumn(colour, tuple(clues)))
    return maps, rng.sample(DECK, 6)


def median_us(fn: Callable[[Any], Any], items: Sequence[Any], repeat: int) -> float:
    """The median over ``items`` of one call's CPU time (the mean of ``repeat``), in µs."""
    return cpu_median(fn, items, repeat) * 1e6


def bench_engine(
    island: Island, positions: list[Position], rounds: int, quick: bool
) -> list[Figure]:
    """The engine and the constraint formulation, in interleaved rounds."""
    model = ConstraintModel(island)
    for maps, hand in positions:  # agree first, and compile every mask (cached masks)
        fast = evaluate(island, maps, hand)
        slow = model.query([(m.clues, ()) for m in maps], hand)
        for f, (cands, n, remaining, legal) in zip(fast, slow, strict=True):
            assert set(island.spaces_of(f[1])) == cands and f[2] == n
            assert f[3] == remaining and legal_plays(f) == legal
    repeat, slow_items = (20, positions[:5]) if quick else (200, positions[:40])
    got = interleaved(
        rounds,
        {
            "engine": lambda: median_us(lambda p: evaluate(island, p[0], p[1]), positions, repeat),
            "constraint": lambda: median_us(
                lambda p: model.query([(m.clues, ()) for m in p[0]], p[1]), slow_items, 1
            ),
        },
    )
    return [
        Figure(
            "solver.engine_us",
            "solver engine, µs per query (CPU)",
            got["engine"],
            "µs",
            ("<=", TARGET_US),
        ),
        ratio(
            "solver.constraint_ratio",
            "constraint formulation / engine, per query",
            got["constraint"],
            got["engine"],
            target=(">=", TARGET_RATIO),
            note=f"constraint formulation {statistics.median(got['constraint']):.0f} µs",
        ),
    ]


# --- HTTP ----------------------------------------------------------------------------------


def solve_bodies(
    seed: int, island: Island, positions: list[Position], full: bool, echo: bool = True
) -> list[bytes]:
    spec = island.to_json() if full else {"generated": seed}
    extra = {} if echo else {"include_island": False}
    return [
        json.dumps(
            {
                "island": spec,
                "maps": [{"id": m.id, "clues": [c.notation for c in m.clues]} for m in maps],
                "hand": [c.notation for c in hand],
                **extra,
            }
        ).encode()
        for maps, hand in positions
    ]


def posts(bodies: list[bytes]) -> list[Request]:
    headers = {"Content-Type": "application/json"}
    return [Request("POST", "/api/tobago/solve", b, headers) for b in bodies]


#: The solve rows: key, words, and whether a target applies.
ROWS = (
    ("named", "island named, positions recur, not echoed", True),
    ("echoed", "island named, positions recur, echoed", False),
    ("fresh", "island named, every position new", False),
    ("full", "island in full, positions recur", False),
)


def bench_http(
    seed: int,
    island: Island,
    positions: list[Position],
    fresh: list[Position],
    a: argparse.Namespace,
) -> list[Figure]:
    """Server CPU per request of /healthz and each solve row, in interleaved rounds on one
    gunicorn server (``make run``'s settings, ``--workers`` workers)."""
    wrk_path()
    loads: dict[str, list[Request]] = {
        "healthz": [Request("GET", "/healthz")],
        "named": posts(solve_bodies(seed, island, positions, False, echo=False)),
        "echoed": posts(solve_bodies(seed, island, positions, False)),
        "full": posts(solve_bodies(seed, island, positions, True)),
    }
    chunk = len(fresh) // a.rounds
    fresh_rounds = iter(
        posts(solve_bodies(seed, island, fresh[r * chunk : (r + 1) * chunk], False))
        for r in range(a.rounds)
    )
    results: dict[str, list[Load]] = {
        k: [] for k in ("healthz", "named", "echoed", "fresh", "full")
    }
    with (
        tempfile.TemporaryDirectory() as tmp,
        Gunicorn(os.path.join(tmp, "bench.sqlite3"), workers=a.workers) as server,
    ):

        def load(key: str) -> float:
            if key == "fresh":  # each position once
                reqs = next(fresh_rounds)
                got = measured(server.pid, lambda: once_load(server.url, reqs, a.connections))
            else:
                reqs = loads[key]
                got = measured(
                    server.pid, lambda: wrk_load(server.url, reqs, a.seconds, a.connections)
                )
            if got.errors:
                raise RuntimeError(f"{key}: {got.errors} requests failed")
            results[key].append(got)
            return got.server_us

        for reqs in loads.values():  # warm up the worker (imports, caches)
            wrk_load(server.url, reqs, 1, a.connections)
        cpu = interleaved(a.rounds, {key: functools.partial(load, key) for key in results})
    base = cpu["healthz"]
    figures = [healthz_figure("solver", base)]
    for key, words, targeted in ROWS:
        figures.append(
            ratio(
                f"solver.solve_{key}_ratio",
                f"solve ({words}): /healthz CPU / solve CPU",
                base,
                cpu[key],
                target=(">=", TARGET_HTTP) if targeted else None,
                note=f"{statistics.median(cpu[key]):.0f} µs per request",
            )
        )
    for key in ("healthz", "named"):
        rows = results[key]
        figures.append(
            Figure(
                f"solver.{key}_rps",
                f"{'GET /healthz' if key == 'healthz' else 'solve (target row)'}, req/s (wrk)",
                [r.rps for r in rows],
                "req/s",
                note=f"wrk {statistics.median(r.client_us for r in rows):.0f} µs CPU per request",
            )
        )
    return figures


def main() -> None:
    a = parse_options(
        __doc__,
        {
            "seconds": (2, "seconds per load (whole)"),
            "connections": (4, "wrk's keep-alive connections"),
            "workers": (1, "gunicorn workers"),
            "positions": (60, "distinct random queries"),
            "no_http": (False, "skip the gunicorn measurement"),
        },
        quick={"seconds": 1, "positions": 12},
    )

    seed, island = island_of_size(120)
    rng = random.Random(2024)
    positions = [random_position(rng, island) for _ in range(a.positions)]
    clues = [len(m.clues) for maps, _ in positions for m in maps]
    print(f"island: generated-{seed}, {len(island)} spaces, {len(island.landmarks)} landmarks")
    print(
        f"queries: {len(positions)} positions, 4 maps × {min(clues)}–{max(clues)} clues, 6-card hand"
    )
    figures = bench_engine(island, positions, a.rounds, a.quick)
    if not a.no_http:
        # Fresh positions: every request a position the server has not seen (no memo helps),
        # each sent once per round.
        per_round = 100 if a.quick else 500
        t0 = time.perf_counter()
        fresh = [random_position(rng, island) for _ in range(per_round * a.rounds)]
        print(f"{len(fresh)} fresh positions in {time.perf_counter() - t0:.0f} s")
        figures += bench_http(seed, island, positions, fresh, a)
    report("solver", figures, a, workers=a.workers, connections=a.connections)


if __name__ == "__main__":
    main()
