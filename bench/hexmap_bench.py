"""Benchmark the hex island: generating islands, placing landmarks, loading an island from JSON.

Prints medians (ms of this process's CPU time per call, the median over the inputs; each figure
the median of interleaved rounds, with the range) and, where there is one, the ratio of a
straightforward baseline measured in the same rounds:

- generate: ``hexmap.generator.generate(seed)`` over 100 seeds (shape, terrain, checks and the
  landmark placement it includes), then generate + a second placement with another seed;
- place landmarks: ``place_landmarks`` on a classic board over 100 seeds, against the textbook
  python-constraint formulation (default solver, one ``FunctionConstraint`` per same-kind pair);
- load: ``island_from_json`` of a classic island (its regions are NetworkX connected components
  of each terrain's subgraph), against building the whole graph node by node with NetworkX and
  finding regions with ``nx.connected_components`` on subgraph views of it;
- compile: what ``solver.compiled`` builds once per island for the solver — the geometry (the
  distance fields of the sea, the terrains and the largest regions by NetworkX multi-source BFS
  over the hex lattice, compiled to masks; the drive moves) and the masks of all 88 clues (no
  baseline: a one-off per island; ``bench/solver_bench.py`` times the queries that use them).

Targets (issue 2): ≤ 50 ms median per generated island with landmarks; ≤ 5 ms to load one.
Run: ``.venv/bin/python bench/hexmap_bench.py [--rounds 5] [--quick]``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx
from constraint import AllDifferentConstraint, InSetConstraint, Problem

from bench.common import Figure, cpu_median, interleaved, parse, parser, ratio, report
from hexmap.boards import classic_board
from hexmap.catalog import classic_island
from hexmap.generator import generate
from hexmap.hexes import distance, neighbours
from hexmap.island import Island
from hexmap.island_json import island_from_json
from hexmap.landmarks import allowed_spaces, place_landmarks
from hexmap.terrain import LANDMARK_COUNTS, TERRAINS
from solver.compiled import CompiledGeometry, CompiledIsland
from solver.options import DEFAULT_OPTIONS


def median_ms(fn: Callable[[int], object], args: Sequence[int]) -> float:
    """The median over ``args`` of one call's CPU time, in ms."""
    return cpu_median(fn, args) * 1000


def baseline_place(island: Island, seed: int) -> dict:
    """The textbook formulation: default solver, pairwise function constraints, no pruning."""
    problem = Problem()
    allowed = allowed_spaces(island)
    for kind, n in LANDMARK_COUNTS.items():
        for i in range(n):
            problem.addVariable(f"{kind}{i}", [island.index[j] for j in allowed["palm"]])
    names = [f"{k}{i}" for k, n in LANDMARK_COUNTS.items() for i in range(n)]
    problem.addConstraint(AllDifferentConstraint(), names)
    for kind, n in LANDMARK_COUNTS.items():
        for i in range(n):
            for j in range(i + 1, n):
                problem.addConstraint(
                    lambda a, b: distance(a, b) >= 4, [f"{kind}{i}", f"{kind}{j}"]
                )
    inland = {island.index[j] for j in allowed["statue"]}
    problem.addConstraint(InSetConstraint(inland), [f"statue{i}" for i in range(3)])
    return problem.getSolution()


def baseline_load(data: dict) -> tuple:
    """Node-by-node NetworkX graph and per-terrain connected components."""
    terrain = {(s["q"], s["r"]): s["terrain"] for s in data["spaces"]}
    g = nx.Graph()
    for h, t in terrain.items():
        g.add_node(h, terrain=t)
    for h in terrain:
        for n in neighbours(h):
            if n in terrain:
                g.add_edge(h, n)
    regions = {}
    for t in TERRAINS:
        sub = g.subgraph([h for h in terrain if terrain[h] == t])
        regions[t] = sorted(nx.connected_components(sub), key=len, reverse=True)
    return g, regions


def main() -> None:
    args = parse(parser(__doc__))
    n = 10 if args.quick else 100
    seeds = range(n)
    generate(0)  # warm imports and caches of pure functions
    board = classic_board("classic-3")
    data = classic_island("classic-3").to_json()
    classic = classic_island("classic-3")
    geo = CompiledGeometry(classic)
    got = interleaved(
        args.rounds,
        {
            "generate": lambda: median_ms(generate, seeds),
            "generate_place": lambda: median_ms(
                lambda s: place_landmarks(generate(s), s + 1), seeds
            ),
            "place": lambda: median_ms(lambda s: place_landmarks(board, s), seeds),
            "place_baseline": lambda: median_ms(lambda s: baseline_place(board, s), range(n // 5)),
            "load": lambda: median_ms(lambda _: island_from_json(data), range(2 * n)),
            "load_baseline": lambda: median_ms(lambda _: baseline_load(data), range(2 * n)),
            "geometry": lambda: median_ms(lambda _: CompiledGeometry(classic), range(n)),
            "masks": lambda: median_ms(
                lambda _: CompiledIsland(classic, DEFAULT_OPTIONS, geo), range(n)
            ),
        },
    )
    spaces = len(data["spaces"])
    figures = [
        Figure(
            "hexmap.generate_ms",
            "generate an island incl. landmarks",
            got["generate"],
            "ms",
            ("<=", 50.0),
            note=f"{n} seeds",
        ),
        Figure(
            "hexmap.generate_place_ms", "generate + place another seed", got["generate_place"], "ms"
        ),
        Figure("hexmap.place_ms", "place landmarks (classic-3)", got["place"], "ms"),
        ratio(
            "hexmap.place_vs_baseline",
            "place landmarks: textbook python-constraint / ours",
            got["place_baseline"],
            got["place"],
        ),
        Figure(
            "hexmap.load_ms",
            "load classic-3 from JSON",
            got["load"],
            "ms",
            ("<=", 5.0),
            note=f"{spaces} spaces",
        ),
        ratio(
            "hexmap.load_vs_baseline",
            "load: node-by-node NetworkX / ours",
            got["load_baseline"],
            got["load"],
        ),
        Figure(
            "hexmap.geometry_ms",
            "compile classic-3: geometry (fields, masks, moves)",
            got["geometry"],
            "ms",
        ),
        Figure("hexmap.masks_ms", "compile classic-3: 88 clue masks", got["masks"], "ms"),
    ]
    report("hexmap", figures, args)


if __name__ == "__main__":
    main()
