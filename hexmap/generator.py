"""A seeded island generator: the same seed gives the same island on any machine.

Determinism: all randomness comes from one private ``random.Random(seed)`` (whose sequence Python
guarantees across platforms for integer seeds), every set is turned into a sorted list before a
random choice is made from it, and no dict or set iteration order ever reaches the generator.

The island is built in the order a landscape painter would use:

1. **Shape.** One to three lobes (centres a few hexes apart, joined by an isthmus) grow by
   weighted random accretion, a sea hex being likelier to join the more land it touches; enclosed
   sea pockets are filled and the count is trimmed to the exact size.
2. **Mountains.** A range: a wandering chain of inland peaks, thickened here and there, and
   sometimes a smaller second range.
3. **Lakes.** One lake of 3–5 inland spaces, sometimes a smaller pond.
4. **Rivers.** Chains that start at the foot of the mountains (or flow out of the lake) and run
   downhill (towards the sea) until they reach the coast or a lake.
5. **Beaches.** Stretches of coast.
6. **Jungle and grassland** share what is left, grown from a few seeds each.

Every terrain's largest region is then made unique (a tied region gives up one space to a
neighbour), and the result is checked: all six terrains, the landscape rules
(``hexmap.landscape``) and a legal landmark placement. A failed attempt is thrown away and the
same generator draws another, so the outcome is still a function of the seed alone.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import deque
from collections.abc import Callable
from functools import cache

from errors import InvalidInput
from hexmap.hexes import DIRECTIONS, Hex, hex_range
from hexmap.hexes import neighbours as _hex_neighbours
from hexmap.island import Island
from hexmap.landmarks import place_landmarks
from hexmap.landscape import landscape_problems
from hexmap.seeds import check_seed
from hexmap.terrain import TERRAINS

MIN_SIZE = 60
MAX_SIZE = 160
#: Default sizes are drawn from this range (an island that plays like the printed one, rules §1).
DEFAULT_SIZES = (80, 140)
#: Attempts before giving up (never reached in practice; tests sweep hundreds of seeds).
MAX_ATTEMPTS = 60

Spaces = dict[Hex, str]


@cache
def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` in direction order, memoised (the generator asks a lot)."""
    return tuple(_hex_neighbours(h))


def generate(seed: int, size: int | None = None) -> Island:
    """The island of ``seed`` with ``size`` spaces (default: drawn from the seed, 80–140).

    The island carries the landmarks placed by ``place_landmarks(island, seed)``; call
    ``place_landmarks`` again for another placement. Named ``generated-<seed>``.
    """
    check_seed(seed, "seed")
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidInput(f"size must be an integer, got {type(size).__name__}", "size")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise InvalidInput(f"size must be {MIN_SIZE}-{MAX_SIZE}, got {size}", "size")
    rng = random.Random(seed)
    if size is None:
        size = rng.randint(*DEFAULT_SIZES)
    for _attempt in range(MAX_ATTEMPTS):
        island = _attempt_island(rng, size, seed)
        if island is not None:
            return island
    raise RuntimeError(f"no island found for seed {seed} after {MAX_ATTEMPTS} attempts")


def _attempt_island(rng: random.Random, size: int, seed: int) -> Island | None:
    """One try: an island that passes every check, or None."""
    land = _shape(rng, size)
    terrain = _paint(rng, land)
    if terrain is None or not _make_largest_unique(rng, terrain):
        return None
    try:
        island = Island(terrain, name=f"generated-{seed}")
    except InvalidInput:
        return None
    if landscape_problems(island):
        return None
    try:
        return place_landmarks(island, seed)
    except InvalidInput:
        return None


# --- shape -----------------------------------------------------------------------------------


def _shape(rng: random.Random, size: int) -> set[Hex]:
    """A connected set of exactly ``size`` hexes without enclosed sea, shaped like an island."""
    centres = _lobe_centres(rng, size)
    land = _lobes(centres)
    # frontier: sea hex -> how many land hexes it touches; nearness: its distance to a centre.
    # The frontier (sea hexes next to land) is kept sorted, with a parallel list of weights,
    # and only the hexes around each new land hex are re-weighed.
    touching: dict[Hex, int] = {}
    order: list[Hex] = []
    weights: list[float] = []

    def weight(n: Hex) -> float:
        # A hex touching one land hex only would grow a spur: allowed only as a last resort.
        t = touching[n]
        near = min(_dist(n, c) for c in centres)
        return (t**3 if t > 1 else 0.01) / (1.0 + near)

    def touch(h: Hex) -> None:
        for n in neighbours(h):
            if n in land:
                continue
            touching[n] = touching.get(n, 0) + 1
            i = bisect_left(order, n)
            if i < len(order) and order[i] == n:
                weights[i] = weight(n)
            else:
                order.insert(i, n)
                weights.insert(i, weight(n))

    for h in sorted(land):
        touch(h)
    while len(land) < size:
        h = rng.choices(order, weights)[0]
        i = bisect_left(order, h)
        del order[i], weights[i]
        land.add(h)
        touch(h)
    _fill_holes(land)
    while len(land) > size:
        land.discard(_loosest_coast(land))
    return land


def _lobe_centres(rng: random.Random, size: int) -> list[Hex]:
    """The centres of the island's one to three lobes, each four or five hexes on from the last
    in a heading that turns a little."""
    lobes = 1 if size < 75 and rng.random() < 0.3 else rng.choice((2, 2, 3)) if size < 120 else 3
    centres = [Hex(0, 0)]
    heading = rng.randrange(6)
    for _ in range(lobes - 1):
        heading = (heading + rng.choice((-1, 0, 0, 1))) % 6
        step = DIRECTIONS[heading]
        length = rng.randint(4, 5)
        last = centres[-1]
        centres.append(Hex(last.q + step.q * length, last.r + step.r * length))
    return centres


def _lobes(centres: list[Hex]) -> set[Hex]:
    """The land the island grows from: a hex and its neighbours at each centre, joined by a line
    of hexes from each centre to the next."""
    land: set[Hex] = set()
    for i, c in enumerate(centres):
        land.update(hex_range(c, 1))
        if i:
            a, b = centres[i - 1], c
            h = a
            while h != b:
                h = _step_towards(h, b)
                land.add(h)
    return land


def _dist(a: Hex, b: Hex) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _step_towards(a: Hex, b: Hex) -> Hex:
    """The neighbour of ``a`` closest to ``b`` (first in direction order on ties)."""
    return min(neighbours(a), key=lambda n: _dist(n, b))


def _fill_holes(land: set[Hex]) -> None:
    """Turn sea hexes that cannot reach the open sea into land."""
    qs = [h.q for h in land]
    rs = [h.r for h in land]
    lo_q, hi_q, lo_r, hi_r = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    start = Hex(lo_q, lo_r)
    open_sea = {start}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in neighbours(h):
            if lo_q <= n.q <= hi_q and lo_r <= n.r <= hi_r and n not in land and n not in open_sea:
                open_sea.add(n)
                queue.append(n)
    for q in range(lo_q, hi_q + 1):
        for r in range(lo_r, hi_r + 1):
            h = Hex(q, r)
            if h not in land and h not in open_sea:
                land.add(h)


def _loosest_coast(land: set[Hex]) -> Hex:
    """The coastal hex touching the least land whose removal keeps the land in one piece."""
    best: tuple[int, Hex] | None = None
    for h in sorted(land):
        ring_in = [n in land for n in neighbours(h)]
        touching = sum(ring_in)
        if touching == 6 or (best is not None and touching >= best[0]):
            continue
        # Removal keeps connectivity locally when the land neighbours form one arc.
        arcs = sum(1 for i in range(6) if ring_in[i] and not ring_in[i - 1])
        if touching and arcs == 1:
            best = (touching, h)
    assert best is not None
    return best[1]


# --- terrain ---------------------------------------------------------------------------------


def _sea_distance(land: set[Hex]) -> dict[Hex, int]:
    """Hex distance from every land hex to the nearest sea hex (1 on the coast)."""
    dist: dict[Hex, int] = {}
    queue: deque[Hex] = deque()
    for h in sorted(land):
        if any(n not in land for n in neighbours(h)):
            dist[h] = 1
            queue.append(h)
    while queue:
        h = queue.popleft()
        for n in neighbours(h):
            if n in land and n not in dist:
                dist[n] = dist[h] + 1
                queue.append(n)
    return dist


def _paint(rng: random.Random, land: set[Hex]) -> Spaces | None:
    """Terrain for every land hex, or None when a feature found no room."""
    depth = _sea_distance(land)
    terrain: Spaces = {}
    cells = sorted(land)
    if not _mountains(rng, cells, depth, terrain):
        return None
    if not _lakes(rng, cells, depth, terrain):
        return None
    if not _rivers(rng, cells, depth, terrain):
        return None
    if not _beaches(rng, cells, depth, terrain):
        return None
    _jungle_and_grass(rng, cells, terrain)
    return terrain


def _mountains(
    rng: random.Random, cells: list[Hex], depth: dict[Hex, int], terrain: Spaces
) -> bool:
    inland = [h for h in cells if depth[h] >= 2]
    if not inland:
        return False
    length = max(3, round(len(cells) * rng.uniform(0.05, 0.08)))
    deep = [h for h in inland if depth[h] >= 3] or inland
    chain = _mountain_chain(rng, rng.choice(deep), length, depth)
    if len(chain) < 3:
        return False
    for h in chain:
        terrain[h] = "mountain"
    # Thicken a few peaks: a range is one to two hexes wide.
    for _ in range(rng.randint(0, max(1, length // 3))):
        base = rng.choice(chain)
        beside = [n for n in neighbours(base) if depth.get(n, 0) >= 2 and n not in terrain]
        if beside:
            terrain[rng.choice(beside)] = "mountain"
    # Sometimes a smaller range (2 peaks) apart from the first.
    if rng.random() < 0.5:
        _small_range(rng, cells, depth, terrain)
    return True


def _mountain_chain(
    rng: random.Random, start: Hex, length: int, depth: dict[Hex, int]
) -> list[Hex]:
    """A range of up to ``length`` inland hexes from ``start``, mostly straight on in a random
    heading (a turn of one direction a fifth of the time each way), stopped where it cannot go
    on."""
    h = start
    heading = rng.randrange(6)
    chain = [h]
    while len(chain) < length:
        options = []
        for turn, weight in ((-1, 1), (0, 3), (1, 1)):
            d = (heading + turn) % 6
            step = DIRECTIONS[d]
            n = Hex(h.q + step.q, h.r + step.r)
            if depth.get(n, 0) >= 2 and n not in chain:
                options.append((d, n, weight))
        if not options:
            break
        d, h, _ = rng.choices(options, [w for _, _, w in options])[0]
        heading = d
        chain.append(h)
    return chain


def _small_range(
    rng: random.Random, cells: list[Hex], depth: dict[Hex, int], terrain: Spaces
) -> None:
    """A second, small range: a peak on a free inland hex that touches no mountain, and a
    second peak beside it where one fits (nothing where no such hex is left)."""
    spots = [
        h
        for h in cells
        if depth[h] >= 2
        and h not in terrain
        and all(terrain.get(n) != "mountain" for n in neighbours(h))
    ]
    if spots:
        a = rng.choice(spots)
        terrain[a] = "mountain"
        more = [
            n
            for n in neighbours(a)
            if depth.get(n, 0) >= 2
            and n not in terrain
            and all(terrain.get(m) != "mountain" or m == a for m in neighbours(n))
        ]
        if more:
            terrain[rng.choice(more)] = "mountain"


def _blob(rng: random.Random, start: Hex, size: int, allowed: Callable[[Hex], bool]) -> list[Hex]:
    """A compact random blob of up to ``size`` hexes from ``start`` within ``allowed``.

    Hexes touching more of the blob are likelier to join, so lakes come out round.
    """
    blob = [start]
    while len(blob) < size:
        options = sorted({n for h in blob for n in neighbours(h) if allowed(n) and n not in blob})
        if not options:
            break
        weights = [sum(m in blob for m in neighbours(n)) ** 2 for n in options]
        blob.append(rng.choices(options, weights)[0])
    return blob


def _lakes(rng: random.Random, cells: list[Hex], depth: dict[Hex, int], terrain: Spaces) -> bool:
    def free_inland(h: Hex) -> bool:
        return depth.get(h, 0) >= 2 and h not in terrain

    spots = [h for h in cells if depth[h] >= 3 and h not in terrain] or [
        h for h in cells if free_inland(h)
    ]
    if not spots:
        return False
    lake = _blob(rng, rng.choice(spots), rng.randint(3, 5), free_inland)
    for h in lake:
        terrain[h] = "lake"
    if rng.random() < 0.4:

        def pond_ok(h: Hex) -> bool:
            return free_inland(h) and all(terrain.get(n) != "lake" for n in neighbours(h))

        spots = [h for h in cells if pond_ok(h)]
        if spots:
            pond = _blob(rng, rng.choice(spots), min(len(lake) - 1, rng.randint(1, 2)), pond_ok)
            for h in pond:
                terrain[h] = "lake"
    return True


def _rivers(rng: random.Random, cells: list[Hex], depth: dict[Hex, int], terrain: Spaces) -> bool:
    """One to three rivers running downhill from the mountains or a lake to the sea or a lake."""
    wanted = rng.choice((1, 2, 2, 3))
    made = 0
    lengths: set[int] = set()
    sources = [
        h
        for h in cells
        if h not in terrain
        and depth[h] >= 2
        and any(terrain.get(n) in ("mountain", "lake") for n in neighbours(h))
    ]
    rng.shuffle(sources)
    for source in sources:
        if made == wanted:
            break
        river = _river_from(rng, source, depth, terrain)
        if river and len(river) not in lengths:  # rivers of different lengths: no tie
            lengths.add(len(river))
            for h in river:
                terrain[h] = "river"
            made += 1
    return made > 0


def _river_from(
    rng: random.Random, source: Hex, depth: dict[Hex, int], terrain: Spaces
) -> list[Hex] | None:
    """A chain from ``source`` downhill to the coast or a lake, or None if it gets stuck.

    Every new river hex touches only the previous one among river hexes (the chain stays thin
    and apart from other rivers) and never lies next to the lake it started from unless that is
    where it ends.
    """

    def free(h: Hex, prev: Hex | None, chain: list[Hex]) -> bool:
        if h not in depth or h in terrain or h in chain:
            return False
        for n in neighbours(h):
            if n == prev:
                continue
            if n in chain or terrain.get(n) == "river":
                return False
        return True

    if not free(source, None, []):
        return None
    from_lake = any(terrain.get(n) == "lake" for n in neighbours(source))
    chain = [source]
    h = source
    level_run = 0  # consecutive steps that did not go downhill
    for _ in range(20):
        if len(chain) >= 3 and (
            depth[h] == 1
            or (not from_lake and any(terrain.get(n) == "lake" for n in neighbours(h)))
        ):
            return chain
        options = [
            n
            for n in neighbours(h)
            if free(n, h, chain)
            and (depth[n] < depth[h] or (depth[n] == depth[h] and level_run < 2))
            and not (
                from_lake
                and len(chain) > 1
                and any(terrain.get(m) == "lake" for m in neighbours(n))
            )
        ]
        if not options:
            return None
        weights = [4 if depth[n] < depth[h] else 1 for n in options]
        n = rng.choices(options, weights)[0]
        level_run = level_run + 1 if depth[n] == depth[h] else 0
        h = n
        chain.append(h)
    return None


def _beaches(rng: random.Random, cells: list[Hex], depth: dict[Hex, int], terrain: Spaces) -> bool:
    """Two to four stretches of coast of different lengths."""
    coast = [h for h in cells if depth[h] == 1 and h not in terrain]
    if not coast:
        return False
    wanted = rng.randint(2, 4)
    lengths = sorted(rng.sample(range(2, 8), wanted), reverse=True)
    made = 0
    for length in lengths:
        free = [h for h in coast if h not in terrain]
        if not free:
            break
        h = rng.choice(free)
        stretch = [h]
        while len(stretch) < length:
            options = [
                n
                for n in neighbours(stretch[-1])
                if depth.get(n) == 1 and n not in terrain and n not in stretch
            ]
            if not options:
                break
            stretch.append(rng.choice(options))
        for s in stretch:
            terrain[s] = "beach"
        made += 1
    return made > 0


def _jungle_and_grass(rng: random.Random, cells: list[Hex], terrain: Spaces) -> None:
    """Grow jungle and grassland from a few seeds each over every space still unpainted."""
    free = [h for h in cells if h not in terrain]
    if len(free) < 2:
        for h in free:
            terrain[h] = "jungle"
        return
    n_seeds = min(len(free), max(4, len(free) // 12 + rng.randint(0, 2)))
    seeds = rng.sample(free, n_seeds)
    first = rng.randrange(2)
    kinds = [("jungle", "grassland")[(first + i) % 2] for i in range(n_seeds)]
    # Random-order growth: pick any pending (hex, kind) pair; paint it if still free.
    pending: list[tuple[Hex, str]] = []
    for h, kind in zip(seeds, kinds, strict=True):
        terrain[h] = kind
        pending.extend((n, kind) for n in neighbours(h))
    unpainted = {h for h in free if h not in terrain}
    while pending and unpainted:
        i = rng.randrange(len(pending))
        pending[i], pending[-1] = pending[-1], pending[i]
        n, kind = pending.pop()
        if n not in unpainted:
            continue
        unpainted.discard(n)
        terrain[n] = kind
        pending.extend((m, kind) for m in neighbours(n) if m in unpainted)
    for h in free:  # pockets no seed could reach become jungle
        terrain.setdefault(h, "jungle")


# --- unique largest regions ------------------------------------------------------------------


def _regions(terrain: Spaces, kind: str) -> list[list[Hex]]:
    """Regions of ``kind``, largest first, ties broken by the smallest space; spaces sorted."""
    seen: set[Hex] = set()
    out = []
    for h in sorted(terrain):
        if terrain[h] != kind or h in seen:
            continue
        region = [h]
        seen.add(h)
        i = 0
        while i < len(region):
            for n in neighbours(region[i]):
                if terrain.get(n) == kind and n not in seen:
                    seen.add(n)
                    region.append(n)
            i += 1
        out.append(sorted(region))
    out.sort(key=lambda reg: (-len(reg), reg[0]))
    return out


def _make_largest_unique(rng: random.Random, terrain: Spaces) -> bool:
    """Break ties for the largest region by moving one space of a tied region to a neighbour.

    Only jungle and grassland spaces change hands (the other features keep their shape): a tied
    region of jungle or grassland gives an edge space to the other of the two; a tie among other
    terrains turns one space of the second region into the land around it.
    """
    for _ in range(30):
        tied = None
        for kind in TERRAINS:
            regions = _regions(terrain, kind)
            if len(regions) > 1 and len(regions[0]) == len(regions[1]):
                tied = (kind, regions[1])
                break
        if tied is None:
            return True
        kind, region = tied
        if not _give_away(rng, terrain, kind, region):
            return False
    return False


def _give_away(rng: random.Random, terrain: Spaces, kind: str, region: list[Hex]) -> bool:
    """Change one space of ``region`` to a neighbouring jungle or grassland terrain."""
    options = []
    for h in region:
        if kind == "river" and not _river_end_removable(terrain, region, h):
            continue
        around = sorted(
            {terrain[n] for n in neighbours(h) if terrain.get(n) in ("jungle", "grassland")}
            - {kind}
        )
        for other in around:
            options.append((h, other))
    if not options:
        return False
    h, other = rng.choice(options)
    terrain[h] = other
    return True


def _river_end_removable(terrain: Spaces, region: list[Hex], h: Hex) -> bool:
    """Whether river space ``h`` is an end of its chain whose removal leaves a river that still
    reaches the sea or a lake."""
    if len(region) < 2 or sum(terrain.get(n) == "river" for n in neighbours(h)) > 1:
        return False
    return any(_reaches_water(terrain, m) for m in region if m != h)


def _reaches_water(terrain: Spaces, h: Hex) -> bool:
    return any(n not in terrain or terrain[n] == "lake" for n in neighbours(h))
