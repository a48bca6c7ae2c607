"""The island: a NetworkX graph of island spaces with terrain, plus its landmarks.

An ``Island`` is immutable once built. Everything derived from the geometry (the graph, regions,
the unique largest region per terrain, coast, the space index used for bitmasks) is computed once
in the constructor; landmarks can be swapped cheaply with ``with_landmarks`` because the geometry
is shared. Invalid islands (a tied largest region) are refused with an error naming the terrain.

Drive costs (rules §5) are asked for by the game engine, the bots, the solver's hints and the web
helper, over and over from the same few ATV spaces: ``Island.drive_from`` is the one cache of
them, kept per island geometry (``with_landmarks`` copies share it) and bounded in size.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

import networkx as nx

from errors import InvalidInput
from hexmap.hexes import DIRECTIONS, Hex, distance, hex_range, neighbours
from hexmap.terrain import DRY_LAND, SAME_KIND_MIN_DISTANCE, TERRAINS


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

#: Drive-cost tables kept per island geometry, counted in spaces (starts × island spaces): a
#: classic island (132 spaces) keeps every start it is asked about, a 2000-space one its newest 20.
DRIVE_CACHE_SPACES = 40_000
#: ... but never fewer starts than this.
DRIVE_CACHE_MIN_STARTS = 16


class DriveCosts:
    """Drive costs from one start (rules §5), in the two forms callers need.

    ``costs[h]``: the least movement points to reach island space ``h`` (every space reachable
    from the start; shared by every caller, so never change it). ``layers[k]``: the mask (bits of
    ``Island.bit``) of the spaces reachable with at most ``k`` points — the cost of the nearest
    space of a mask is the first layer that meets it, a few integer ANDs.
    """

    __slots__ = ("start", "costs", "layers")

    def __init__(self, start: Hex, costs: dict[Hex, int], layers: tuple[int, ...]) -> None:
        self.start = start
        self.costs = costs
        self.layers = layers

    def nearest(self, mask: int) -> int | None:
        """Least cost to reach a space of ``mask`` (None if none is reachable)."""
        for k, layer in enumerate(self.layers):
            if layer & mask:
                return k
        return None

    def __repr__(self) -> str:
        return f"DriveCosts(start={self.start}, reachable={len(self.costs)})"


class _DriveCache:
    """One island geometry's drive-cost tables by start, oldest first, and the move structure
    they are computed on (built on first use)."""

    __slots__ = ("tables", "limit", "moves")

    def __init__(self, spaces: int) -> None:
        self.tables: dict[Hex, DriveCosts] = {}
        self.limit = max(DRIVE_CACHE_MIN_STARTS, DRIVE_CACHE_SPACES // max(1, spaces))
        #: (region number of each space index, members of each region as indices, the indices of
        #: each space's neighbours of another terrain); see ``_drive_moves``.
        self.moves: tuple[list[int], list[tuple[int, ...]], list[tuple[int, ...]]] | None = None


_drive_lock = threading.Lock()


class Island:
    """Island spaces (``Hex`` → terrain) and landmarks, with derived structure computed once."""

    def __init__(
        self,
        spaces: Mapping[tuple[int, int], str],
        landmarks: Iterable[Landmark] = (),
        name: str | None = None,
    ) -> None:
        if not spaces:
            raise InvalidInput("an island needs at least one space", "spaces")
        self.name = name
        #: Island spaces in index order: sorted by (q, r). Bit ``i`` of a mask is ``index[i]``.
        self.index: tuple[Hex, ...] = tuple(sorted(Hex(q, r) for q, r in spaces))
        self.terrain: dict[Hex, str] = {h: spaces[h] for h in self.index}
        self.bit: dict[Hex, int] = {h: i for i, h in enumerate(self.index)}
        self.full_mask: int = (1 << len(self.index)) - 1
        self._within: dict[int, tuple[int, ...]] = {}  # radius -> masks (see within_masks)
        self._drive = _DriveCache(len(self.index))  # shared by with_landmarks (see drive_from)
        # Every edge once: towards E, NE and NW. Plain lookups, then NetworkX in bulk (fast).
        hexes = {h: h for h in self.index}
        edges = []
        for h in self.index:
            q, r = h
            for dq, dr in _FORWARD:
                n = hexes.get((q + dq, r + dr))
                if n is not None:
                    edges.append((h, n))
        graph = nx.Graph()
        graph.add_nodes_from((h, {"terrain": self.terrain[h]}) for h in self.index)
        graph.add_edges_from(edges)
        self.graph: nx.Graph = graph
        self._build_regions(edges)
        self.landmarks: tuple[Landmark, ...] = tuple(landmarks)
        self._landmark_at = {lm.space: lm for lm in self.landmarks}

    # --- regions -------------------------------------------------------------------------

    def _build_regions(self, edges: list[tuple[Hex, Hex]]) -> None:
        """Connected components of every terrain (same-terrain edges of the graph).

        A plain BFS over same-terrain neighbours; it finds the same components as
        ``nx.connected_components`` on each terrain's subgraph (tests cross-check), in a tenth of
        the time. Spaces are visited in index order, so each component's first space is its
        smallest.
        """
        terrain = self.terrain
        same: dict[Hex, list[Hex]] = {h: [] for h in self.index}
        for a, b in edges:
            if terrain[a] == terrain[b]:
                same[a].append(b)
                same[b].append(a)
        found: dict[str, list[tuple[Hex, frozenset[Hex]]]] = {}
        seen: set[Hex] = set()
        for h in self.index:
            if h in seen:
                continue
            seen.add(h)
            comp = [h]
            for x in comp:
                for n in same[x]:
                    if n not in seen:
                        seen.add(n)
                        comp.append(n)
            found.setdefault(terrain[h], []).append((h, frozenset(comp)))
        regions: dict[str, list[frozenset[Hex]]] = {}
        region_of: dict[Hex, frozenset[Hex]] = {}
        for t in TERRAINS:
            if t not in found:
                continue
            pairs = sorted(found[t], key=lambda p: (-len(p[1]), p[0]))
            comps = [c for _, c in pairs]
            regions[t] = comps
            for c in comps:
                for h in c:
                    region_of[h] = c
        largest: dict[str, frozenset[Hex]] = {}
        for t, comps in regions.items():
            if len(comps) > 1 and len(comps[0]) == len(comps[1]):
                raise InvalidInput(
                    f"terrain {t!r} has {sum(len(c) == len(comps[0]) for c in comps)} largest "
                    f"regions of {len(comps[0])} spaces; the largest region must be unique",
                    f"spaces.{t}",
                )
            largest[t] = comps[0]
        #: Regions per terrain, largest first (ties broken by the smallest space).
        self.regions: dict[str, list[frozenset[Hex]]] = regions
        #: The unique largest region of every terrain present.
        self.largest: dict[str, frozenset[Hex]] = largest
        self._region_of = region_of

    def region_of(self, h: tuple[int, int]) -> frozenset[Hex]:
        """The region (same terrain, connected) holding island space ``h``."""
        return self._region_of[Hex(*h)]

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
        new.landmarks = tuple(landmarks)
        new._landmark_at = {lm.space: lm for lm in new.landmarks}
        return new

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

    def distance_field(self, sources: Iterable[tuple[int, int]]) -> dict[Hex, int]:
        """Least hex distance from every island space to a hex of ``sources`` (any hexes).

        Multi-source BFS over the hex lattice (not the island graph): the rules measure plain hex
        distance, across water and sea alike. Spaces with no source at all are left out.
        """
        srcs = {Hex(*s) for s in sources}
        if not srcs:
            return {}
        remaining = set(self.index)
        out: dict[Hex, int] = {}
        # Bound the lattice walk to the island's box grown by the sources' spread.
        qs = [h.q for h in self.index] + [s.q for s in srcs]
        rs = [h.r for h in self.index] + [s.r for s in srcs]
        lo_q, hi_q, lo_r, hi_r = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
        seen = set(srcs)
        frontier = deque((s, 0) for s in sorted(srcs))
        while frontier and remaining:
            h, d = frontier.popleft()
            if h in remaining:
                out[h] = d
                remaining.discard(h)
            for dq, dr in DIRECTIONS:
                n = Hex(h.q + dq, h.r + dr)
                if n not in seen and lo_q <= n.q <= hi_q and lo_r <= n.r <= hi_r:
                    seen.add(n)
                    frontier.append((n, d + 1))
        return out

    def drive_from(self, start: tuple[int, int]) -> DriveCosts:
        """Drive costs from island space ``start`` (a ``Hex`` or ``(q, r)`` tuple), computed once
        per island geometry and start (``with_landmarks`` copies share the tables).

        The newest ``DRIVE_CACHE_SPACES // len(island)`` starts (at least
        ``DRIVE_CACHE_MIN_STARTS``) are kept; older ones are dropped first and recomputed when
        asked again. Raises ``InvalidInput`` (field ``start``) for a hex that is not an island
        space.
        """
        cache = self._drive
        table = cache.tables.get(start)  # type: ignore[call-overload]
        if table is None:
            s = Hex(*start)
            order, cost = _drive_order(self, s)
            index = self.index
            costs = {index[i]: cost[i] for i in order}
            layers: list[int] = []
            acc = 0
            for i in order:  # breadth first: costs never decrease along ``order``
                c = cost[i]
                while len(layers) < c:
                    layers.append(acc)
                acc |= 1 << i
            layers.append(acc)
            table = DriveCosts(index[order[0]], costs, tuple(layers))
            tables = cache.tables
            with _drive_lock:
                tables[s] = table
                while len(tables) > cache.limit:
                    del tables[next(iter(tables))]
        return table

    @cached_property
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


def drive_costs(island: Island, start: tuple[int, int]) -> dict[Hex, int]:
    """Least movement points to reach every island space from ``start`` (rules §5).

    Moving any distance inside the region you stand in costs 1 point; stepping onto one
    neighbouring space of a different terrain costs 1 point. Sea is never entered. A unit-cost BFS
    in which a whole region is reached in one step; each region is expanded once.

    A new dict on every call (the caller may change it); ``Island.drive_from`` is the cached form.
    """
    order, cost = _drive_order(island, Hex(*start))
    index = island.index
    return {index[i]: cost[i] for i in order}


def _drive_order(island: Island, start: Hex) -> tuple[list[int], list[int]]:
    """The breadth-first search of ``drive_costs`` over space indices: the reachable indices in
    the order they are reached (``start`` first), and the cost of every index (-1: unreachable).

    Regions are expanded in their frozenset's order and steps in ``DIRECTIONS`` order, so the
    order (which callers' dicts keep) is the same as a search over ``Hex`` values would give.
    """
    i0 = island.bit.get(start)
    if i0 is None:
        raise InvalidInput(f"({start.q}, {start.r}) is not an island space", "start")
    region_of, members, steps = _drive_moves(island)
    cost = [-1] * len(island.index)
    cost[i0] = 0
    order = [i0]
    expanded = [False] * len(members)
    for i in order:  # ``order`` grows while it is walked: it is the BFS queue
        c = cost[i] + 1
        r = region_of[i]
        if not expanded[r]:
            expanded[r] = True
            for m in members[r]:
                if cost[m] < 0:
                    cost[m] = c
                    order.append(m)
        for m in steps[i]:
            if cost[m] < 0:
                cost[m] = c
                order.append(m)
    return order, cost


def _drive_moves(island: Island) -> tuple[list[int], list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The moves of a drive over space indices, built once per geometry: each space's region
    number, each region's members, each space's neighbours of another terrain."""
    cache = island._drive
    moves = cache.moves
    if moves is None:
        bit, terrain = island.bit, island.terrain
        number: dict[int, int] = {}  # id(region) -> its number
        members: list[tuple[int, ...]] = []
        region_of: list[int] = []
        steps: list[tuple[int, ...]] = []
        for h in island.index:
            region = island.region_of(h)
            r = number.get(id(region))
            if r is None:
                r = number[id(region)] = len(members)
                members.append(tuple(bit[m] for m in region))
            region_of.append(r)
            t = terrain[h]
            out = []
            for dq, dr in DIRECTIONS:
                n = (h.q + dq, h.r + dr)
                if n in terrain and terrain[n] != t:  # type: ignore[comparison-overlap]
                    out.append(bit[n])  # type: ignore[index]
            steps.append(tuple(out))
        moves = cache.moves = (region_of, members, steps)
    return moves


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
