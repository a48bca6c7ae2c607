"""The bitmask engine's functions: clue masks, candidates and legality over compiled islands.

Bit ``i`` of a mask is the island space ``island.index[i]`` (spaces sorted by ``(q, r)``).
A clue's mask S holds the island spaces for which the clue is true (rules §2); the candidates of
a map are ``base & S1 & S2 & … & ~removed``; a play is legal iff ``0 < |C ∩ S| < |C|`` (§3).

The masks themselves are compiled once per island, landmark placement and options by
``solver.compiled`` (and kept there); these functions look them up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from errors import InvalidInput
from hexmap.island import Island
from solver.clues import Clue, parse_clue
from solver.compiled import compile_island
from solver.options import DEFAULT_OPTIONS, SolverOptions


class MapColumn(NamedTuple):
    """A treasure map: its id, its column of clues, and the spaces removed with amulets (mask).

    A ``NamedTuple`` (immutable, and cheap to build: the solve endpoint makes a few per request).
    """

    id: str
    clues: tuple[Clue, ...] = ()
    removed: int = 0


def as_map_column(island: Island, m: Any) -> MapColumn:
    """Accept a ``MapColumn``, an object with ``id``/``clues``/``removed`` attributes, or a dict."""
    if isinstance(m, MapColumn):
        return m
    if isinstance(m, dict):
        mid, clues, removed = m.get("id"), m.get("clues", ()), m.get("removed", 0)
    else:
        mid, clues, removed = getattr(m, "id", None), m.clues, getattr(m, "removed", 0)
    if mid is None:
        raise InvalidInput("a map needs an id", "id")
    clues = tuple(parse_clue(c, f"clues[{i}]") for i, c in enumerate(clues))
    return MapColumn(str(mid), clues, removed_mask(island, removed))


def clue_mask(island: Island, clue: Clue, options: SolverOptions = DEFAULT_OPTIONS) -> int:
    """The island spaces where ``clue`` is true, as a bitmask."""
    return compile_island(island, options).masks[clue.code]


def base_mask(island: Island, options: SolverOptions = DEFAULT_OPTIONS) -> int:
    """The spaces a treasure may be on at all (every space, or none with a landmark)."""
    return compile_island(island, options).base


def removed_mask(island: Island, removed: int | Iterable[tuple[int, int]]) -> int:
    """``removed`` as a mask: an int is taken as is, spaces are converted with ``mask_of``."""
    if isinstance(removed, int):
        return removed
    return island.mask_of((h[0], h[1]) for h in removed)


def column_mask(
    island: Island,
    clues: Iterable[Clue],
    removed: int | Iterable[tuple[int, int]] = 0,
    options: SolverOptions = DEFAULT_OPTIONS,
) -> int:
    """Candidates of a map: the base AND every clue's mask, minus ``removed``.

    ``removed`` is an int mask (the fast path) or an iterable of spaces.
    """
    if removed.__class__ is not int:
        removed = removed_mask(island, removed)
    return compile_island(island, options).column(clues, removed)


def is_legal_play(candidates: int, clue_mask: int) -> bool:
    """Rules §3: a clue S may be played on candidates C iff ``0 < |C ∩ S| < |C|``."""
    both = candidates & clue_mask
    return both != 0 and both != candidates


def play_refusal(candidates: int, clue_mask: int) -> str | None:
    """Why a clue of ``clue_mask`` is no legal play on a map of ``candidates`` (None: it is):
    ``map_located`` (one candidate: the map takes no clue), ``removes_every_candidate`` or
    ``removes_no_candidate`` -- the stable reasons pages word (``error.<reason>``)."""
    if is_legal_play(candidates, clue_mask):
        return None
    if candidates.bit_count() == 1:
        return "map_located"
    if not candidates & clue_mask:
        return "removes_every_candidate"
    return "removes_no_candidate"
