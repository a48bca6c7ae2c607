"""Checkers for "looks like an island": the landscape rules every built-in island keeps.

The game rules only demand a unique largest region per terrain; these checks are the project's
own promise about how built-in and generated islands look (issue 2): lakes lie inland, rivers are
thin chains that reach the sea or a lake, beaches lie on the coast and mountains form ranges.
Each checker returns a list of problems in words (empty when all is well), like
``landmark_violations``, so tests can show exactly what is wrong.
"""

from __future__ import annotations

from hexmap.hexes import distance, neighbours
from hexmap.island import Island
from hexmap.terrain import TERRAINS

#: The largest mountain region must have at least this many spaces to count as a range.
MIN_RANGE_SPACES = 3
#: ... and its two farthest spaces must be at least this far apart (a range, not a lump).
MIN_RANGE_LENGTH = 2


def _at(h: tuple[int, int]) -> str:
    return f"({h[0]}, {h[1]})"


def lake_problems(island: Island) -> list[str]:
    """Lakes lie inland: no lake space touches the sea."""
    return [
        f"lake space {_at(h)} touches the sea"
        for h in island.index
        if island.terrain[h] == "lake" and h in island.coast
    ]


def beach_problems(island: Island) -> list[str]:
    """Beaches lie on the coast: every beach space touches the sea."""
    return [
        f"beach space {_at(h)} is not on the coast"
        for h in island.index
        if island.terrain[h] == "beach" and h not in island.coast
    ]


def river_problems(island: Island) -> list[str]:
    """Rivers are chains (no loops, no clumps) and every river reaches the sea or a lake.

    A river region "reaches the sea" when one of its spaces is on the coast, and "reaches a lake"
    when one of its spaces is next to a lake space. A chain is a region whose spaces and
    neighbour pairs form a tree: a clump of three mutually adjacent river spaces is a loop.
    """
    out = []
    terrain = island.terrain
    for region in island.regions.get("river", []):
        first = min(region)
        reaches = any(
            h in island.coast or any(terrain.get(n) == "lake" for n in neighbours(h))
            for h in region
        )
        if not reaches:
            out.append(f"river at {_at(first)} reaches neither the sea nor a lake")
        edges = sum(1 for h in region for n in neighbours(h)[:3] if n in region)
        if edges != len(region) - 1:
            out.append(f"river at {_at(first)} is not a chain (it has a loop or a clump)")
    return out


def mountain_problems(island: Island) -> list[str]:
    """Mountains form ranges: the largest mountain region is a line of peaks, not one lump."""
    largest = island.largest.get("mountain")
    if largest is None:
        return ["the island has no mountains"]
    out = []
    if len(largest) < MIN_RANGE_SPACES:
        out.append(
            f"the largest mountain region has {len(largest)} spaces "
            f"(a range needs at least {MIN_RANGE_SPACES})"
        )
    spaces = sorted(largest)
    length = max(distance(a, b) for a in spaces for b in spaces)
    if length < MIN_RANGE_LENGTH:
        out.append(f"the largest mountain region spans only {length} (a range spans at least 2)")
    return out


def terrain_problems(island: Island) -> list[str]:
    """Every one of the six terrains is present."""
    return [f"the island has no {t}" for t in TERRAINS if t not in island.regions]


def landscape_problems(island: Island) -> list[str]:
    """Every landscape problem of ``island`` (all terrains, lakes, rivers, beaches, mountains)."""
    return (
        terrain_problems(island)
        + lake_problems(island)
        + river_problems(island)
        + beach_problems(island)
        + mountain_problems(island)
    )
