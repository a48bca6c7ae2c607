"""Compiled islands: everything derived from an island, built once, kept in one bounded cache.

Like python-chess's precomputed attack tables, the hot paths read plain data: every clue is an
``int`` bitmask over the island's space index (bit ``i`` is ``island.index[i]``), compiled in
one go when the island is first asked about. Two immutable objects hold it:

- ``CompiledGeometry``, per island geometry (spaces and terrains; ``Island.geometry_key``),
  shared by every landmark placement: the terrain and largest-region masks, and the distance
  fields of the sea, of each terrain and of each largest region — NetworkX multi-source BFS over
  the hex lattice (``hexmap.fields``) — compiled to "within 1" and "within 2" masks; the
  hex-distance neighbourhoods of every space (``Island.within_masks``); the drive moves
  (``hexmap.drive``) from which drive-cost tables are computed.
- ``CompiledIsland``, per (geometry, landmarks, rule options): the landmark masks and their
  neighbourhoods, the base (the spaces a treasure may be on), and the mask of **every** clue,
  indexed by ``Clue.code`` — so ``masks[clue.code]`` is the whole hot path.

One ``SizedCache`` (``CACHE``, a budget of ``CACHE_BYTES``) keeps them, least recently used out
first, together with the drive-cost tables (per geometry and start, ``drive_from``) and whatever
other module derives from a compiled island and wants kept (``remember``: the solve answer's
text pieces and memos, the puzzles' clue tables). Keys are values (an island's ``key`` strings),
never object identities, so equal islands share one compiled object and no check of "is this
still my island's landmarks" is needed anywhere. The cache is thread-safe (see
``hexmap.sized_cache``) and bounded by estimated memory, not by a count.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from hexmap.drive import DriveCosts, DriveMoves, drive_table
from hexmap.fields import distance_fields
from hexmap.hexes import Hex
from hexmap.island import Island, bit_indices
from hexmap.sized_cache import SizedCache
from hexmap.terrain import LANDMARK_KINDS, SEA, TERRAINS
from solver.clues import CLUE_CODES, Clue, all_clues
from solver.options import DEFAULT_OPTIONS, SolverOptions

V = TypeVar("V")

#: Memory budget of the compiled-island cache (estimated bytes): about 300 compiled classic-size
#: islands with their drive tables and answer memos.
CACHE_BYTES = 64 * 1024 * 1024
#: The one cache of compiled islands, drive tables and what is derived from them.
CACHE: SizedCache = SizedCache("compiled islands", CACHE_BYTES)

#: Distances the clues ask about ("within 1", "within 2").
DISTANCES = (1, 2)
_ALL_CLUES: tuple[Clue, ...] = tuple(all_clues())
#: Clues whose target is a terrain or the sea (compiled per geometry) ...
_TERRAIN_CLUES = tuple(c for c in _ALL_CLUES if c.target not in LANDMARK_KINDS)
#: ... and those near a landmark kind, by (kind, distance) (compiled per landmark placement).
_LANDMARK_CLUES: dict[tuple[str, int], tuple[Clue, ...]] = {
    (k, d): tuple(c for c in _ALL_CLUES if c.target == k and c.distance == d)
    for k in LANDMARK_KINDS
    for d in DISTANCES
}
_ids = itertools.count(1)


def _int_bytes(bits: int) -> int:
    return 28 + (bits + 29) // 30 * 4 + 8  # an int of ``bits`` bits and its slot


class CompiledGeometry:
    """Masks of one island geometry (see the module doc). Immutable once built.

    ``terrain[t]``, ``largest[t]``: the spaces of terrain ``t`` / of its largest region.
    ``near[(t, largest)][d]``: spaces within hex distance ``d`` of them, the target included.
    ``sea_near[d]``: spaces within ``d`` of the sea. ``balls[d][i]``: spaces within ``d`` of
    space ``i``. ``clue_masks[near_includes_target]``: the mask of every clue whose target is
    a terrain or the sea, by code (landmark clues are 0 here: their masks depend on where the
    landmarks stand). ``moves``: the drive moves (``hexmap.drive.DriveMoves``).
    """

    __slots__ = (
        "key",
        "size",
        "full",
        "terrain",
        "largest",
        "near",
        "sea_near",
        "balls",
        "clue_masks",
        "moves",
        "nbytes",
    )

    def __init__(self, island: Island) -> None:
        self.key = island.geometry_key
        self.size = len(island.index)
        self.full = island.full_mask
        mask_of = island.mask_of
        by_terrain: dict[str, list[Hex]] = {t: [] for t in TERRAINS}
        for h in island.index:
            by_terrain.setdefault(island.terrain[h], []).append(h)
        self.terrain = {t: mask_of(by_terrain[t]) for t in TERRAINS}
        self.largest = {t: mask_of(island.largest.get(t, ())) for t in TERRAINS}
        sources: dict[str, Iterable[tuple[int, int]]] = {SEA: island.sea_border}
        for t in TERRAINS:
            sources[t] = by_terrain[t]
            sources["largest:" + t] = island.largest.get(t, ())
        found = distance_fields(island.terrain, sources, cutoff=max(DISTANCES))

        def within(name: str) -> tuple[int, ...]:
            field = found[name]
            return (0,) + tuple(mask_of(h for h, k in field.items() if k <= d) for d in DISTANCES)

        self.sea_near = within(SEA)
        self.near = {}
        for t in TERRAINS:
            self.near[(t, False)] = within(t)
            self.near[(t, True)] = within("largest:" + t)
        self.balls = {d: island.within_masks(d) for d in DISTANCES}
        self.clue_masks = (self._terrain_masks(False), self._terrain_masks(True))
        self.moves = DriveMoves(island)
        n = self.size
        # What it holds: the island's index, bit table and within-1/2 masks (shared with the
        # island), the drive moves, and its own masks.
        self.nbytes = (
            n * (72 + 40)
            + sys.getsizeof(island.bit)
            + 2 * n * _int_bytes(n)
            + self.moves.nbytes()
            + (2 * len(TERRAINS) + 3 * (2 * len(TERRAINS) + 1)) * _int_bytes(n)
            + 2 * (sys.getsizeof(self.clue_masks[0]) + len(_TERRAIN_CLUES) * _int_bytes(n))
            + 2000
        )

    def _terrain_masks(self, near_includes_target: bool) -> tuple[int, ...]:
        """The mask of every clue whose target is a terrain or the sea, by clue code."""
        full = self.full
        masks = [0] * CLUE_CODES
        for clue in _TERRAIN_CLUES:
            d = clue.distance
            target = self.largest[clue.target] if clue.largest else self.terrain.get(clue.target, 0)
            if clue.relation == "in" or d is None:
                positive = target
            elif clue.target == SEA:
                positive = self.sea_near[d]  # island spaces are never at distance 0 from the sea
            else:
                positive = self.near[(clue.target, clue.largest)][d]
                if not near_includes_target:
                    positive &= ~target
            masks[clue.code] = full & ~positive if clue.negated else positive
        return tuple(masks)

    def dilate(self, mask: int, d: int) -> int:
        """Island spaces within distance ``d`` of a space of ``mask`` (``mask`` included)."""
        ball = self.balls[d]
        out = 0
        for i in bit_indices(mask):
            out |= ball[i]
        return out


class CompiledIsland:
    """The compiled masks of one island (landmarks placed) under one set of rule options.

    ``masks[clue.code]`` is the mask of the island spaces where ``clue`` is true (rules §2), for
    every clue; ``base`` the spaces a treasure may be on at all; ``landmark[k]`` the spaces of
    the landmarks of kind ``k``. ``id`` is a small number unique to this object in the process
    (for memo keys that must not keep it alive). Immutable once built.
    """

    __slots__ = (
        "id",
        "key",
        "island",
        "options",
        "geometry",
        "landmark",
        "base",
        "masks",
        "nbytes",
    )

    def __init__(self, island: Island, options: SolverOptions, geometry: CompiledGeometry) -> None:
        self.id = next(_ids)
        self.key = (island.key, options.code)
        self.island = island
        self.options = options
        self.geometry = geometry
        self.landmark = {
            k: island.mask_of(lm.space for lm in island.landmarks if lm.kind == k)
            for k in LANDMARK_KINDS
        }
        occupied = 0
        for m in self.landmark.values():
            occupied |= m
        self.base = geometry.full if options.treasure_on_landmarks else geometry.full & ~occupied
        # Terrain and sea clues come from the geometry; only the landmark clues are compiled here.
        masks = list(geometry.clue_masks[options.near_includes_target])
        full = geometry.full
        for k, where in self.landmark.items():
            for d in DISTANCES:
                positive = geometry.dilate(where, d)
                if not options.near_includes_target:
                    positive &= ~where
                for clue in _LANDMARK_CLUES[(k, d)]:
                    masks[clue.code] = full & ~positive if clue.negated else positive
        self.masks: tuple[int, ...] = tuple(masks)
        #: Its own masks, and the island it holds (counted here too: the catalog may have
        #: dropped it while this keeps it alive).
        self.nbytes = (
            sys.getsizeof(self.masks)
            + len(_ALL_CLUES) * _int_bytes(geometry.size)
            + 1200
            + island.nbytes()
        )

    def target_mask(self, clue: Clue) -> int:
        """The island spaces of a clue's target (terrain, largest region or landmark kind).

        The sea has no island spaces: its mask is 0 (``geometry.sea_near`` has its distances).
        """
        t = clue.target
        if t in self.landmark:
            return self.landmark[t]
        if t == SEA:
            return 0
        geo = self.geometry
        return geo.largest[t] if clue.largest else geo.terrain[t]

    def mask(self, clue: Clue) -> int:
        """The mask of ``clue``."""
        return self.masks[clue.code]

    def column(self, clues: Iterable[Clue], removed: int = 0) -> int:
        """Candidates of a column: ``base`` AND every clue mask, minus ``removed``."""
        masks = self.masks
        m = self.base & ~removed
        for clue in clues:
            m &= masks[clue.code]
        return m


def compiled_geometry(island: Island) -> CompiledGeometry:
    """The compiled geometry of ``island`` (built on first use, then kept in ``CACHE``)."""
    key = ("geometry", island.geometry_key)
    geo = CACHE.get(key)
    if geo is None:
        geo = CACHE.put(key, built := CompiledGeometry(island), built.nbytes)
    return geo


def compile_island(island: Island, options: SolverOptions = DEFAULT_OPTIONS) -> CompiledIsland:
    """The compiled island of ``island`` under ``options`` (built on first use, then kept)."""
    key = (island.key, options.code)
    t = CACHE.get(key)
    if t is None:
        built = CompiledIsland(island, options, compiled_geometry(island))
        t = CACHE.put(key, built, built.nbytes)
    return t


def drive_from(island: Island, start: tuple[int, int]) -> DriveCosts:
    """Drive costs from island space ``start`` (rules §5; ``hexmap.drive``), computed once per
    geometry and start and kept in ``CACHE``: the game engine, its bots, the hints and the web
    helper ask about the same few ATV spaces over and over. ``InvalidInput`` (field ``start``)
    for a hex that is not an island space."""
    key = ("drive", island.geometry_key, start)
    table = CACHE.get(key)
    if table is None:
        built = drive_table(compiled_geometry(island).moves, start)
        table = CACHE.put(key, built, built.nbytes())
    return table


def remember(key: Hashable, build: Callable[[], V], nbytes: Callable[[V], int]) -> V:
    """A value derived from compiled islands, kept in ``CACHE`` under ``key`` (which must name
    its maker, e.g. ``("answer-text", island.geometry_key)``, and hold no object to keep alive).
    ``nbytes(value)`` estimates its memory."""
    return CACHE.get_or_build(key, build, nbytes)


def charge(key: Hashable, nbytes: int) -> None:
    """Count ``nbytes`` more against ``key``'s entry (a kept value whose memo grew)."""
    CACHE.charge(key, nbytes)
