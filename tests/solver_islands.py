"""Islands for the solver tests: one small hand-made island with hand-computed answers, and
random small islands (valid: unique largest region per terrain) with random landmarks."""

from __future__ import annotations

import random

from hexmap import Hex, InvalidInput, Island, Landmark, hex_range
from hexmap.terrain import LANDMARK_KINDS, TERRAINS

# The hand-made island: hex_range((0, 0), 2), 19 spaces.
#
#   ring 0: (0,0) lake
#   ring 1: (1,0) lake, (1,-1) mountain, (0,-1) mountain, (-1,0) jungle, (-1,1) grassland,
#           (0,1) river
#   ring 2: (2,0) beach, (2,-1) beach, (2,-2) jungle, (1,-2) mountain, (0,-2) jungle,
#           (-1,-1) jungle, (-2,0) jungle, (-2,1) grassland, (-2,2) beach, (-1,2) river,
#           (0,2) river, (1,1) lake
#
# Regions: lake {(0,0),(1,0),(1,1)}; mountain {(1,-1),(0,-1),(1,-2)}; jungle {(-1,0),(-1,-1),
# (0,-2),(-2,0)} (largest) and {(2,-2)}; beach {(2,0),(2,-1)} (largest) and {(-2,2)};
# grassland {(-1,1),(-2,1)}; river {(0,1),(0,2),(-1,2)}.
# Landmarks: huts on (2,0) and (-2,1), a palm on (-1,-1), a statue on (0,-1) facing 0.
SMALL_TERRAIN = {
    (0, 0): "lake",
    (1, 0): "lake",
    (1, -1): "mountain",
    (0, -1): "mountain",
    (-1, 0): "jungle",
    (-1, 1): "grassland",
    (0, 1): "river",
    (2, 0): "beach",
    (2, -1): "beach",
    (2, -2): "jungle",
    (1, -2): "mountain",
    (0, -2): "jungle",
    (-1, -1): "jungle",
    (-2, 0): "jungle",
    (-2, 1): "grassland",
    (-2, 2): "beach",
    (-1, 2): "river",
    (0, 2): "river",
    (1, 1): "lake",
}
SMALL_LANDMARKS = (
    Landmark("hut", Hex(2, 0)),
    Landmark("hut", Hex(-2, 1)),
    Landmark("palm", Hex(-1, -1)),
    Landmark("statue", Hex(0, -1), 0),
)


def small_island() -> Island:
    return Island(SMALL_TERRAIN, SMALL_LANDMARKS, name="small")


def small_island_json() -> dict:
    return small_island().to_json()


def random_island(rng: random.Random, size: int | None = None) -> Island:
    """A random connected blob of 8–40 spaces with clustered terrains and random landmarks.

    The terrain is repainted until every terrain present has a unique largest region; some
    terrains may be missing (the solver must cope). Landmarks ignore the placement rules on
    purpose: the solver must be right for any placement the API accepts.
    """
    size = size or rng.randint(8, 40)
    cells = {Hex(0, 0)}
    frontier = [Hex(0, 0)]
    while len(cells) < size:
        h = rng.choice(frontier)
        n = Hex(*rng.choice(hex_range(h, 1)))
        if n not in cells:
            cells.add(n)
            frontier.append(n)
    order = sorted(cells)
    terrain = {h: rng.choice(TERRAINS) for h in order}
    for _ in range(size):  # clustering: copy a neighbour's terrain
        h = rng.choice(order)
        near = [n for n in hex_range(h, 1) if n in terrain]
        terrain[h] = terrain[rng.choice(near)]
    landmarks: list[Landmark] = []
    free = list(order)
    rng.shuffle(free)
    for kind in LANDMARK_KINDS:
        for _ in range(rng.randint(0, 3)):
            if not free:
                break
            h = free.pop()
            landmarks.append(Landmark(kind, h, rng.randrange(6) if kind == "statue" else None))
    for _ in range(500):
        try:
            return Island(terrain, landmarks)
        except InvalidInput as e:  # a tie for largest: repaint one space of that terrain
            tied = (e.field or "").removeprefix("spaces.")
            h = rng.choice([h for h in order if terrain[h] == tied] or order)
            terrain[h] = rng.choice([t for t in TERRAINS if t != tied])
    raise AssertionError("could not make a valid random island")
