"""Small seeded islands for puzzle tests (independent of the catalog's generator).

A hexagon of radius ``radius`` split into terrain blobs by nearest-seed (Voronoi) growth, kept
only when every terrain has a unique largest region; landmarks placed greedily by the rules
(dry land, same kind ≥ 4 apart, statues off the coast).
"""

from __future__ import annotations

import random

from errors import InvalidInput
from hexmap.hexes import distance, hex_range, neighbours
from hexmap.island import Island, Landmark
from hexmap.terrain import DRY_LAND, LANDMARK_COUNTS, TERRAINS


def small_island(seed: int, radius: int = 3, blobs: int = 9) -> Island:
    """A valid island of ``3r(r+1)+1`` spaces with up to 10 landmarks, deterministic in seed."""
    rng = random.Random(seed)
    spaces = hex_range((0, 0), radius)
    while True:
        centres = rng.sample(spaces, blobs)
        kinds = list(TERRAINS) + [rng.choice(TERRAINS) for _ in range(blobs - len(TERRAINS))]
        rng.shuffle(kinds)
        terrain = {}
        for h in spaces:
            k = min(range(blobs), key=lambda i: (distance(h, centres[i]), i))
            terrain[h] = kinds[k]
        try:
            island = Island(terrain, name=f"test-{seed}")
        except InvalidInput:
            continue
        break
    lms: list[Landmark] = []
    order = list(island.index)
    rng.shuffle(order)
    for kind, count in LANDMARK_COUNTS.items():
        placed = 0
        for h in order:
            if placed == count:
                break
            if island.terrain[h] not in DRY_LAND or any(lm.space == h for lm in lms):
                continue
            if any(lm.kind == kind and distance(lm.space, h) < 4 for lm in lms):
                continue
            if kind == "statue" and any(n not in island.terrain for n in neighbours(h)):
                continue
            lms.append(Landmark(kind, h, rng.randrange(6) if kind == "statue" else None))
            placed += 1
    return island.with_landmarks(lms)
