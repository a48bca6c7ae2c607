"""The test islands, in one place, each named for what it is:

- ``small_island()``: the hand-made 19-space island the solver tests work out answers on;
- ``stripes_island()``: 30 spaces in six vertical terrain stripes, for constructed Tobago
  positions (``tests/tobago_positions.py``), where every region and drive cost is easy to see;
- ``blob_island(seed)``: a seeded hexagon of Voronoi terrain blobs with rule-abiding landmarks,
  for the puzzle tests (independent of the catalog's generator);
- ``random_island(rng)``: a random blob with random landmarks (placement rules ignored on
  purpose), for the solver's property tests and cross-checks.
"""

from __future__ import annotations

import random

from hexmap import Hex, InvalidInput, Island, Landmark, hex_range
from hexmap.hexes import distance, neighbours
from hexmap.terrain import DRY_LAND, LANDMARK_COUNTS, LANDMARK_KINDS, TERRAINS

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
    """The hand-made island drawn above, with its four landmarks."""
    return Island(SMALL_TERRAIN, SMALL_LANDMARKS, name="small")


def small_island_json() -> dict:
    return small_island().to_json()


def small_white_map() -> dict:
    """A solve request's white map on the small island: three clues and a removed space (its 5
    candidates are the solve API's and the command line's known answer)."""
    return {"id": "white", "clues": ["near2:sea", "!in:jungle", "near1:lake"], "removed": [[2, 0]]}


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


#: The stripes of ``stripes_island``, by column ``q``.
STRIPES = ("jungle", "beach", "grassland", "mountain", "river", "lake")


def stripes_island(statue: bool = True, palm: bool = True) -> Island:
    """30 spaces in six vertical stripes, one terrain each::

        q = 0 jungle · 1 beach · 2 grassland · 3 mountain · 4 river · 5 lake      (r = 0 … 4)

    with a palm at (0, 0) and a statue at (2, 2) facing east (its ray ends at (5, 2)); there is
    no hut, so the four hut clue cards fit no map at all (a hand with no legal play).
    """
    spaces = {(q, r): STRIPES[q] for q in range(6) for r in range(5)}
    landmarks = []
    if palm:
        landmarks.append(Landmark("palm", Hex(0, 0)))
    if statue:
        landmarks.append(Landmark("statue", Hex(2, 2), 0))
    return Island(spaces, landmarks, name="stripes")


def blob_island(seed: int, radius: int = 3, blobs: int = 9) -> Island:
    """A hexagon of radius ``radius`` (``3r(r+1)+1`` spaces) split into terrain blobs by
    nearest-seed (Voronoi) growth, kept only when every terrain has a unique largest region;
    up to 10 landmarks placed greedily by the rules (dry land, same kind ≥ 4 apart, statues off
    the coast). Deterministic in ``seed``."""
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
