"""The island: its spaces with terrain, their regions (NetworkX), and its landmarks.

An ``Island`` is an immutable value. The constructor indexes the spaces (bit ``i`` of every mask
is ``index[i]``, spaces sorted by ``(q, r)``) and builds the regions the rules speak of with
NetworkX: each terrain's subgraph of the island graph (that terrain's spaces, edges between
neighbours), its ``connected_components``, and the unique largest one per terrain. An island
with a tied largest region is refused with an error naming the terrain.

Everything else derived from an island — distance fields, clue masks, drive-cost tables, the
solve answer's text pieces — is compiled once per island by ``solver.compiled`` and kept there,
in one memory-bounded cache, keyed by ``geometry_key`` (the spaces and terrains) and ``key``
(those and the landmarks). Nothing outside ``hexmap/`` writes onto an island; inside, the only
memo is ``within_masks`` (hex-distance neighbourhoods, asked by every landmark placement).

``with_landmarks`` makes a copy with other landmarks that shares the geometry (cheap).
``graph`` builds the whole island graph on demand (NetworkX; for callers that want to explore
it; the island does not keep it, so a cached island stays small).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

import networkx as nx

from errors import InvalidInput
from hexmap import fields
from hexmap.hexes import DIRECTIONS, Hex, distance, hex_range, neighbours
from hexmap.terrain import DRY_LAND, SAME_KIND_MIN_DISTANCE, TERRAINS

_TERRAIN_CODE = {t: chr(ord("a") + i) for i, t in enumerate(TERRAINS)}


def bit_indices(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first (visits set bits only)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Landmark:
    """A landmark on an island space. ``facing`` (0–5) is given for statues only."""

    kind: str
    space: Hex
    facing: int | None = None

    def to_json(self) -> dict:
        out: dict = {"q": self.space.q, "r": self.space.r, "kind": self.kind}
        if self.facing is not None:
            out["facing"] = self.facing
        return out


#: Directions E, NE, NW: walking them from every space visits every edge once.
_FORWARD = tuple((d.q, d.r) for d in DIRECTIONS[:3])


class Island:
    """Island spaces (``Hex`` → terrain), their regions, and landmarks (see the module doc)."""

    def __init__(
        self,
        spaces: Mapping[Hex, str] | Mapping[tuple[int, int], str],
        landmarks: Iterable[Landmark] = (),
        name: str | None = None,
    ) -> None:
        if not spaces:
            raise InvalidInput("an island needs at least one space", "spaces")
        given: Mapping = spaces
        self.name = name
        #: Island spaces in index order: sorted by (q, r). Bit ``i`` of a mask is ``index[i]``.
        self.index: tuple[Hex, ...] = tuple(sorted(Hex(q, r) for q, r in given))
        self.terrain: dict[Hex, str] = {h: given[h] for h in self.index}
        self.bit: dict[Hex, int] = {h: i for i, h in enumerate(self.index)}
        self.full_mask: int = (1 << len(self.index)) - 1
        self._within: dict[int, tuple[int, ...]] = {}  # radius -> masks (see within_masks)
        self._build_regions()
        self._geometry_bytes = self._estimate_geometry_bytes()
        #: The spaces and terrains as text digest: equal geometries have equal keys.
        self.geometry_key: str = _digest(
            "".join(f"{h.q},{h.r}{_TERRAIN_CODE.get(self.terrain[h], '?')}" for h in self.index)
        )
        self._set_landmarks(landmarks)

    def _set_landmarks(self, landmarks: Iterable[Landmark]) -> None:
        self.landmarks: tuple[Landmark, ...] = tuple(landmarks)
        self._landmark_at = {lm.space: lm for lm in self.landmarks}
        marks = "".join(
            f"{lm.kind[0]}{lm.space.q},{lm.space.r},{lm.facing};" for lm in self.landmarks
        )
        #: Geometry and landmarks: the key of everything compiled from this island.
        self.key: str = f"{self.geometry_key}/{_digest(marks)}"

    # --- regions -------------------------------------------------------------------------

    def _build_regions(self) -> None:
        """Connected components of every terrain's subgraph (NetworkX), largest first."""
        terrain, index, bit = self.terrain, self.index, self.bit
        nodes: dict[str, list[Hex]] = {}
        edges: dict[str, list[tuple[Hex, Hex]]] = {}
        for h in index:
            t = terrain[h]
            nodes.setdefault(t, []).append(h)
            q, r = h
            for dq, dr in _FORWARD:
                n = (q + dq, r + dr)
                if terrain.get(n) == t:  # type: ignore[call-overload]
                    edges.setdefault(t, []).append((h, index[bit[n]]))  # type: ignore[index]
        regions: dict[str, list[frozenset[Hex]]] = {}
        region_of: dict[Hex, frozenset[Hex]] = {}
        largest: dict[str, frozenset[Hex]] = {}
        for t in TERRAINS:
            if t not in nodes:
                continue
            sub = nx.Graph()
            sub.add_nodes_from(nodes[t])
            sub.add_edges_from(edges.get(t, ()))
            comps = [frozenset(c) for c in nx.connected_components(sub)]
            comps.sort(key=lambda c: (-len(c), min(c)))
            if len(comps) > 1 and len(comps[0]) == len(comps[1]):
                raise InvalidInput(
                    f"terrain {t!r} has {sum(len(c) == len(comps[0]) for c in comps)} largest "
                    f"regions of {len(comps[0])} spaces; the largest region must be unique",
                    f"spaces.{t}",
                )
            regions[t] = comps
            largest[t] = comps[0]
            for c in comps:
                for h in c:
                    region_of[h] = c
        #: Regions per terrain, largest first (ties broken by the smallest space).
        self.regions: dict[str, list[frozenset[Hex]]] = regions
        #: The unique largest region of every terrain present.
        self.largest: dict[str, frozenset[Hex]] = largest
        self._region_of = region_of

    def region_of(self, h: tuple[int, int]) -> frozenset[Hex]:
        """The region (same terrain, connected) holding island space ``h``."""
        return self._region_of[Hex(*h)]

    @property
    def graph(self) -> nx.Graph:
        """The island graph: nodes ``Hex`` with attribute ``terrain``, edges between neighbours
        (built on each call; the regions are connected components of its terrain subgraphs)."""
        graph = nx.Graph()
        graph.add_nodes_from((h, {"terrain": self.terrain[h]}) for h in self.index)
        bit, index = self.bit, self.index
        graph.add_edges_from(
            (h, index[bit[n]])
            for h in index
            for n in ((h.q + dq, h.r + dr) for dq, dr in _FORWARD)
            if n in bit
        )
        return graph

    # --- basic questions -----------------------------------------------------------------

    def __contains__(self, h: object) -> bool:
        return h in self.terrain

    def __len__(self) -> int:
        return len(self.index)

    def is_sea(self, h: tuple[int, int]) -> bool:
        """Any hex that is not an island space is sea."""
        return Hex(*h) not in self.terrain

    @cached_property
    def coast(self) -> frozenset[Hex]:
        """Island spaces with at least one sea neighbour."""
        return frozenset(h for h in self.index if any(n not in self.terrain for n in neighbours(h)))

    @cached_property
    def sea_border(self) -> frozenset[Hex]:
        """Sea hexes next to the island: every nearest sea hex of an island space is one."""
        return frozenset(n for h in self.coast for n in neighbours(h) if n not in self.terrain)

    def landmark_at(self, h: tuple[int, int]) -> Landmark | None:
        return self._landmark_at.get(Hex(*h))

    def landmarks_of(self, kind: str) -> list[Landmark]:
        return [lm for lm in self.landmarks if lm.kind == kind]

    def with_landmarks(self, landmarks: Iterable[Landmark]) -> Island:
        """A copy with other landmarks, sharing all geometry (cheap)."""
        new = object.__new__(Island)
        new.__dict__.update(self.__dict__)
        new._set_landmarks(landmarks)
        return new

    def nbytes(self) -> int:
        """Estimated memory of this island (what a cache of islands counts it as): the index,
        terrain, bit and region tables, ``coast`` and the ``within_masks`` memo, by the number
        of spaces (``tests/test_compiled.py`` checks it against a measurement)."""
        return self._geometry_bytes + 200 * len(self.landmarks)

    def _estimate_geometry_bytes(self) -> int:
        n = len(self.index)
        width = 28 + (n + 29) // 30 * 4  # one int of n bits
        tables = 3 * sys.getsizeof(self.terrain) + 90 * n  # terrain, bit, region_of; Hex values
        regions = sum(sys.getsizeof(c) for cs in self.regions.values() for c in cs)
        within = 3 * (n * (width + 8) + 60)  # up to three radii are asked for
        coast = 60 * n  # coast and sea_border, once asked for
        return 600 + tables + regions + within + coast

    # --- masks ---------------------------------------------------------------------------

    def mask_of(self, spaces: Iterable[tuple[int, int]]) -> int:
        """Bitmask of island spaces (hexes that are not island spaces are ignored)."""
        bit = self.bit
        m = 0
        for h in spaces:
            i = bit.get(h)  # type: ignore[call-overload]
            if i is not None:
                m |= 1 << i
        return m

    def spaces_of(self, mask: int) -> list[Hex]:
        """Island spaces of a bitmask, in index order (sorted by (q, r))."""
        index = self.index
        return [index[i] for i in bit_indices(mask)]

    def within_masks(self, radius: int) -> tuple[int, ...]:
        """For each space index ``i``, the mask of island spaces at hex distance ≤ ``radius``
        from ``index[i]`` (``i`` itself included).

        Hex distance, not path length: it reaches across sea and water like the rules' distance.
        Computed once per radius and shared with ``with_landmarks`` copies.
        """
        if isinstance(radius, bool) or not isinstance(radius, int) or radius < 0:
            raise InvalidInput(f"radius must be a non-negative integer, got {radius!r}", "radius")
        masks = self._within.get(radius)
        if masks is None:
            get = self.bit.get
            offsets = [(h.q, h.r) for h in hex_range((0, 0), radius)]
            out = []
            for q, r in self.index:
                m = 0
                for dq, dr in offsets:
                    i = get((q + dq, r + dr))  # type: ignore[call-overload]
                    if i is not None:
                        m |= 1 << i
                out.append(m)
            masks = self._within[radius] = tuple(out)
        return masks

    # --- distance fields -----------------------------------------------------------------

    def distance_field(
        self, sources: Iterable[tuple[int, int]], cutoff: int | None = None
    ) -> dict[Hex, int]:
        """Least hex distance from every island space to a hex of ``sources`` (any hexes),
        across water and sea alike (``hexmap.fields``: a NetworkX multi-source BFS over the
        lattice around the island). Spaces with no source, or beyond ``cutoff``, are left out.
        Computed on each call (``solver.compiled`` keeps the fields it needs as masks)."""
        return fields.distance_field(self.terrain, sources, cutoff)

    @property
    def sea_distance(self) -> dict[Hex, int]:
        """Hex distance from every island space to the nearest sea hex (1 on the coast)."""
        return self.distance_field(self.sea_border)

    # --- statues -------------------------------------------------------------------------

    def statue_ray(self, space: tuple[int, int], facing: int) -> Hex:
        """The last island space in a straight line from ``space`` in direction ``facing``.

        The line stops at the first sea hex (rules §6: "the seaside space in the statue's facing
        direction"). If the very next hex is sea the statue's own space is returned.
        """
        h = Hex(*space)
        step = DIRECTIONS[facing % 6]
        while True:
            n = Hex(h.q + step.q, h.r + step.r)
            if n not in self.terrain:
                return h
            h = n

    # --- JSON ----------------------------------------------------------------------------

    def to_json(self) -> dict:
        """The public JSON form: ``{"spaces": [...], "landmarks": [...]}``."""
        return {
            "spaces": [{"q": h.q, "r": h.r, "terrain": self.terrain[h]} for h in self.index],
            "landmarks": [lm.to_json() for lm in self.landmarks],
        }

    def __repr__(self) -> str:
        return (
            f"Island(name={self.name!r}, spaces={len(self.index)}, landmarks={len(self.landmarks)})"
        )


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def landmark_violations(island: Island) -> list[str]:
    """Broken landmark placement rules, in words; an empty list when all is well.

    Checks: same kind closer than 4, a statue next to the sea, a landmark on water (not dry land).
    The island is not refused: puzzles and the playground may show a broken placement.
    """
    out: list[str] = []
    lms = island.landmarks
    for lm in lms:
        t = island.terrain.get(lm.space)
        if t is not None and t not in DRY_LAND:
            out.append(f"{lm.kind} at ({lm.space.q}, {lm.space.r}) stands on {t}, not dry land")
        if lm.kind == "statue" and any(n not in island.terrain for n in neighbours(lm.space)):
            out.append(f"statue at ({lm.space.q}, {lm.space.r}) is next to the sea")
    for i, a in enumerate(lms):
        for b in lms[i + 1 :]:
            if a.kind == b.kind and distance(a.space, b.space) < SAME_KIND_MIN_DISTANCE:
                out.append(
                    f"{a.kind}s at ({a.space.q}, {a.space.r}) and ({b.space.q}, {b.space.r}) are "
                    f"{distance(a.space, b.space)} apart (at least {SAME_KIND_MIN_DISTANCE} needed)"
                )
    return out
