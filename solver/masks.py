"""The bitmask engine: every clue compiled once per island into an ``int`` over its space index.

Bit ``i`` of a mask is the island space ``island.index[i]`` (spaces sorted by ``(q, r)``).
A clue's mask S holds the island spaces for which the clue is true (rules §2); the candidates of
a map are ``base & S1 & S2 & … & ~removed``; a play is legal iff ``0 < |C ∩ S| < |C|`` (§3).

Compilation happens once per island, landmark placement and options, and is kept on the island
object itself (``Island.__dict__``), so the hot path is two attribute reads and a list index:

- geometry (terrain, largest region, sea and "ball" masks) is keyed by nothing — an ``Island``'s
  geometry never changes and ``Island.with_landmarks`` shares it, cache included;
- landmark masks and compiled clue tables remember the ``landmarks`` tuple they were built from
  and are rebuilt when it is not the island's current one (a ``with_landmarks`` copy).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from errors import InvalidInput
from hexmap.hexes import hex_range
from hexmap.island import Island
from hexmap.terrain import LANDMARK_KINDS, SEA, TERRAINS
from solver.clues import CLUE_CODES, Clue, parse_clue
from solver.options import DEFAULT_OPTIONS, SolverOptions

_GEOMETRY_ATTR = "_solver_geometry"
_TABLES_ATTR = "_solver_tables"


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


class Geometry:
    """Masks that depend only on the island's spaces (shared by landmark variants)."""

    __slots__ = ("full", "terrain", "largest", "sea_near", "balls")

    def __init__(self, island: Island) -> None:
        self.full = island.full_mask
        bit = island.bit
        self.terrain = {
            t: island.mask_of(h for h in island.index if island.terrain[h] == t) for t in TERRAINS
        }
        self.largest = {t: island.mask_of(island.largest.get(t, ())) for t in TERRAINS}
        sea_dist = island.sea_distance
        self.sea_near = {
            d: island.mask_of(h for h, n in sea_dist.items() if n <= d) for d in (1, 2)
        }
        #: balls[d][i]: island spaces within hex distance d of space i (space i included).
        self.balls = {
            d: [sum(1 << bit[n] for n in hex_range(h, d) if n in bit) for h in island.index]
            for d in (1, 2)
        }

    def dilate(self, mask: int, d: int) -> int:
        """Island spaces within distance ``d`` of a space of ``mask`` (``mask`` included)."""
        ball = self.balls[d]
        out = 0
        while mask:
            low = mask & -mask
            out |= ball[low.bit_length() - 1]
            mask ^= low
        return out


def geometry(island: Island) -> Geometry:
    """The island's geometry masks, computed on first use and kept on the island."""
    geo = island.__dict__.get(_GEOMETRY_ATTR)
    if geo is None:
        geo = Geometry(island)
        island.__dict__[_GEOMETRY_ATTR] = geo
    return geo


class IslandMasks:
    """Compiled masks of one island (with its landmarks) under one set of options.

    ``masks[clue.code]`` is the clue's mask once compiled (``None`` before): the engine's hot
    path. ``base`` is the spaces a treasure may be on at all.
    """

    __slots__ = ("island", "options", "geometry", "landmark", "base", "masks", "memo")

    def __init__(self, island: Island, options: SolverOptions) -> None:
        self.island = island
        self.options = options
        self.geometry = geometry(island)
        self.landmark = {
            k: island.mask_of(lm.space for lm in island.landmarks if lm.kind == k)
            for k in LANDMARK_KINDS
        }
        occupied = 0
        for m in self.landmark.values():
            occupied |= m
        self.base = (
            island.full_mask if options.treasure_on_landmarks else island.full_mask & ~occupied
        )
        self.masks: list[int | None] = [None] * CLUE_CODES
        #: Callers' memos of results derived from these masks (valid as long as they are).
        self.memo: dict = {}

    def mask(self, clue: Clue) -> int:
        """The mask of ``clue`` (compiled on first use)."""
        m = self.masks[clue.code]
        if m is None:
            m = self.masks[clue.code] = self._compile(clue)
        return m

    def target_mask(self, clue: Clue) -> int:
        """The island spaces of a clue's target (terrain, largest region or landmark kind).

        The sea has no island spaces: its mask is 0 (use ``geometry.sea_near`` for distances).
        """
        t = clue.target
        if t in self.landmark:
            return self.landmark[t]
        if t == SEA:
            return 0
        return self.geometry.largest[t] if clue.largest else self.geometry.terrain[t]

    def _compile(self, clue: Clue) -> int:
        geo = self.geometry
        if clue.relation == "in":
            positive = self.target_mask(clue)
        elif clue.target == SEA:
            positive = geo.sea_near[clue.distance]  # island spaces are never at distance 0
        else:
            target = self.target_mask(clue)
            positive = geo.dilate(target, clue.distance)
            if not self.options.near_includes_target:
                positive &= ~target
        return geo.full & ~positive if clue.negated else positive

    def column(self, clues: Iterable[Clue], removed: int = 0) -> int:
        """Candidates of a column: ``base`` AND every clue mask, minus ``removed``."""
        masks = self.masks
        m = self.base & ~removed
        for clue in clues:
            x = masks[clue.code]
            if x is None:
                x = self.mask(clue)
            m &= x
        return m


def compile_island(island: Island, options: SolverOptions = DEFAULT_OPTIONS) -> IslandMasks:
    """The compiled masks of ``island`` under ``options``, built once and cached on the island."""
    entry = island.__dict__.get(_TABLES_ATTR)
    if entry is None or entry[0] is not island.landmarks:
        entry = (island.landmarks, [None, None, None, None])
        island.__dict__[_TABLES_ATTR] = entry
    tables = entry[1]
    t = tables[options.code]
    if t is None:
        t = tables[options.code] = IslandMasks(island, options)
    return t


def clue_mask(island: Island, clue: Clue, options: SolverOptions = DEFAULT_OPTIONS) -> int:
    """The island spaces where ``clue`` is true, as a bitmask (compiled once, cached per island)."""
    t = compile_island(island, options)
    m = t.masks[clue.code]
    return t.mask(clue) if m is None else m


def base_mask(island: Island, options: SolverOptions = DEFAULT_OPTIONS) -> int:
    """The spaces a treasure may be on at all (every space, or none with a landmark)."""
    return compile_island(island, options).base


def removed_mask(island: Island, removed: int | Iterable[tuple[int, int]]) -> int:
    """``removed`` as a mask: an int is taken as is, spaces are converted with ``mask_of``."""
    if isinstance(removed, int):
        return removed
    return island.mask_of(tuple(h) for h in removed)


def column_mask(
    island: Island,
    clues: Iterable[Clue],
    removed: int = 0,
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
