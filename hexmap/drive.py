"""Drive costs (rules §5): the least movement points from one island space to every other.

Moving any distance inside the region you stand in costs 1 point; stepping onto one neighbouring
space of a different terrain costs 1 point; the sea is never entered. A drive action has
``DRIVE_POINTS`` points (read from ``hexmap/data/drive.json``, the one place the number lives).

The search is a unit-cost BFS in which a whole region is reached in one step, over space indices:
``DriveMoves`` (built once per island geometry) holds each space's region number, each region's
members and each space's neighbours of another terrain. ``drive_table`` answers one start in both
forms callers need (``DriveCosts``); ``solver.compiled`` keeps the tables per geometry and start.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from errors import InvalidInput
from hexmap.hexes import DIRECTIONS, Hex

if TYPE_CHECKING:
    from hexmap.island import Island

_DATA = json.loads((Path(__file__).with_name("data") / "drive.json").read_text("utf-8"))
#: Movement points of one drive action (rules §5).
DRIVE_POINTS: int = _DATA["drive_points"]


class DriveCosts:
    """Drive costs from one start, in the two forms callers need.

    ``costs[h]``: the least movement points to reach island space ``h`` (every space reachable
    from the start, in the order the search reached them; shared by every caller, so never change
    it). ``layers[k]``: the mask (bits of ``Island.bit``) of the spaces reachable with at most
    ``k`` points — the cost of the nearest space of a mask is the first layer that meets it, a
    few integer ANDs.
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

    def nbytes(self) -> int:
        """Estimated memory (the dict, its small ints, the layer masks)."""
        n = len(self.costs)
        width = 28 + (n + 29) // 30 * 4  # one int of n bits
        return sys.getsizeof(self.costs) + 120 + len(self.layers) * (width + 8)

    def __repr__(self) -> str:
        return f"DriveCosts(start={self.start}, reachable={len(self.costs)})"


class DriveMoves:
    """The moves of a drive over space indices, for one island geometry."""

    __slots__ = ("index", "bit", "region_of", "members", "steps")

    def __init__(self, island: Island) -> None:
        self.index = island.index
        self.bit = island.bit
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
                members.append(tuple(sorted(bit[m] for m in region)))
            region_of.append(r)
            t = terrain[h]
            out = []
            for dq, dr in DIRECTIONS:
                n = Hex(h.q + dq, h.r + dr)
                other = terrain.get(n)
                if other is not None and other != t:
                    out.append(bit[n])
            steps.append(tuple(out))
        self.region_of = region_of
        self.members = members
        self.steps = steps

    def nbytes(self) -> int:
        n = len(self.index)
        return 64 * n + 80 * len(self.members) + 200

    def order(self, start: Hex) -> tuple[list[int], list[int]]:
        """The BFS from ``start``: reachable indices in the order reached (``start`` first), and
        the cost of every index (-1: unreachable). A region's members are taken in index order
        and steps in ``DIRECTIONS`` order, so the order depends on the geometry alone."""
        i0 = self.bit.get(start)
        if i0 is None:
            raise InvalidInput(f"({start.q}, {start.r}) is not an island space", "start")
        region_of, members, steps = self.region_of, self.members, self.steps
        cost = [-1] * len(self.index)
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


def drive_table(moves: DriveMoves, start: tuple[int, int]) -> DriveCosts:
    """The drive costs from ``start`` as a ``DriveCosts`` (``InvalidInput`` on field ``start``
    for a hex that is not an island space)."""
    s = Hex(*start)
    order, cost = moves.order(s)
    index = moves.index
    costs = {index[i]: cost[i] for i in order}
    layers: list[int] = []
    acc = 0
    for i in order:  # breadth first: costs never decrease along ``order``
        c = cost[i]
        while len(layers) < c:
            layers.append(acc)
        acc |= 1 << i
    layers.append(acc)
    return DriveCosts(index[order[0]], costs, tuple(layers))


def drive_costs(island: Island, start: tuple[int, int]) -> dict[Hex, int]:
    """Least movement points to reach every island space from ``start``: a new dict on every
    call (the caller may change it); ``solver.compiled.drive_from`` is the cached form."""
    return dict(drive_table(DriveMoves(island), start).costs)
