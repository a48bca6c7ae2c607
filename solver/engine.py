"""The solver's engine interface: one import for the game engine, the puzzles and the web layer.

The pieces live in their own modules — ``solver.compiled`` (the compiled island: every clue's
bitmask, built once and kept), ``solver.masks`` (candidates, legality), ``solver.explain`` (why a
space is out), ``solver.hints`` (ranked legal plays) — and are re-exported here together with
``evaluate``, the batched hot path: candidates and counts of several maps and the legality of
every hand card on each, from one compiled island.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexmap.island import Island
from solver.clues import Clue
from solver.compiled import CompiledIsland, compile_island
from solver.explain import ColumnExplanation, Step, explain_column
from solver.hints import Hint, hints
from solver.masks import (
    MapColumn,
    as_map_column,
    base_mask,
    clue_mask,
    column_mask,
    is_legal_play,
    removed_mask,
)
from solver.options import DEFAULT_OPTIONS, SolverOptions

__all__ = [
    "DEFAULT_OPTIONS",
    "ColumnExplanation",
    "CompiledIsland",
    "Hint",
    "MapAnalysis",
    "MapColumn",
    "SolverOptions",
    "Step",
    "as_map_column",
    "base_mask",
    "clue_mask",
    "column_mask",
    "compile_island",
    "evaluate",
    "explain_column",
    "hints",
    "is_legal_play",
    "legal_plays",
    "removed_mask",
]


#: One map of ``evaluate``: ``(id, candidates, count, remaining)`` — its id, its candidates (a
#: mask), their count, and per hand card the remaining count ``|C ∩ S|``. A plain tuple: a class
#: with named fields cost a fifth of a query (four objects a query on the hot path); unpack it,
#: and ``legal_plays`` gives which hand cards are legal there.
MapAnalysis = tuple[str, int, int, list[int]]


def legal_plays(analysis: MapAnalysis) -> list[bool]:
    """Per hand card of ``evaluate``'s map ``analysis``: is its play legal there
    (``0 < |C ∩ S| < |C|``, ``solver.masks.is_legal_play``)?"""
    n = analysis[2]
    return [0 < r < n for r in analysis[3]]


def evaluate(
    island: Island,
    maps: Sequence[MapColumn | Any],
    hand: Sequence[Clue] = (),
    options: SolverOptions = DEFAULT_OPTIONS,
) -> list[MapAnalysis]:
    """Candidates of every map and the outcome of every hand card on each (the hot path).

    ``maps`` are ``MapColumn`` values (or anything ``as_map_column`` accepts).
    """
    t = compile_island(island, options)
    masks = t.masks
    base = t.base
    hand_masks = [masks[c.code] for c in hand]
    out = []
    for m in maps:
        if m.__class__ is not MapColumn:
            m = as_map_column(island, m)
        c = base & ~m.removed if m.removed else base  # ``t.column``, inlined: the hot path
        for clue in m.clues:
            c &= masks[clue.code]
        out.append((m.id, c, c.bit_count(), [(c & s).bit_count() for s in hand_masks]))
    return out
