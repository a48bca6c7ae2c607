"""Terrain and landmark names (rules §1)."""

from __future__ import annotations

#: The six island terrains, in the project's canonical order.
TERRAINS: tuple[str, ...] = ("jungle", "beach", "river", "lake", "mountain", "grassland")
#: Terrains a landmark may stand on (rules §1, Decision).
DRY_LAND: frozenset[str] = frozenset({"jungle", "beach", "mountain", "grassland"})
#: Landmark kinds and how many of each a game places.
LANDMARK_COUNTS: dict[str, int] = {"palm": 3, "hut": 4, "statue": 3}
LANDMARK_KINDS: tuple[str, ...] = tuple(LANDMARK_COUNTS)
#: Least distance between two landmarks of one kind.
SAME_KIND_MIN_DISTANCE = 4
SEA = "sea"
