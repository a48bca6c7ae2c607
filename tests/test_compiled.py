"""Compiled islands and the caches: one object per (geometry, landmarks, options), kept by value,
bounded by memory, safe under threads; nothing outside ``hexmap`` writes onto an island."""

from __future__ import annotations

import random
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import solver.compiled as compiled_module
from hexmap import Hex, Landmark, catalog, island_from_json
from hexmap.drive import drive_costs
from hexmap.sized_cache import ENTRY_OVERHEAD, SizedCache, deep_size
from solver.compiled import compile_island, compiled_geometry, drive_from
from solver.options import SolverOptions
from tests.islands import random_island, small_island

# --- the cache primitive -------------------------------------------------------------------


def test_a_sized_cache_drops_the_least_recently_used_past_its_budget():
    cache: SizedCache[str] = SizedCache("t", budget=10 * (100 + ENTRY_OVERHEAD))
    for k in range(10):
        cache.put(k, f"v{k}", 100)
    assert len(cache) == 10 and cache.nbytes <= cache.budget
    assert cache.get(0) == "v0"  # 0 is now the most recently used
    cache.put(10, "v10", 100)  # over budget: down to 3/4 of it, oldest first
    assert cache.nbytes <= cache.budget * 3 // 4
    assert 0 in cache and 10 in cache and 1 not in cache
    assert cache.stats()["evictions"] == 10 + 1 - len(cache)


def test_a_value_larger_than_the_budget_is_kept_alone():
    cache: SizedCache[str] = SizedCache("t", budget=1000)
    cache.put("small", "s", 10)
    cache.put("huge", "h", 5000)
    assert "huge" in cache and "small" not in cache


def test_charges_count_and_the_first_stored_value_wins():
    cache: SizedCache[object] = SizedCache("t", budget=1 << 20)
    first = cache.put("k", "first", 10)
    assert cache.put("k", "second", 10) == first == "first"
    cache.charge("k", 500)
    assert cache.nbytes == 10 + ENTRY_OVERHEAD + 500
    cache.charge("missing", 500)  # an entry already dropped: nothing to charge
    assert cache.nbytes == 10 + ENTRY_OVERHEAD + 500
    built = []
    assert cache.get_or_build("b", lambda: built.append(1) or "x", lambda _: 1) == "x"
    assert cache.get_or_build("b", lambda: built.append(1) or "y", lambda _: 1) == "x"
    assert built == [1]


def test_threads_share_one_value_per_key_and_the_bound_holds():
    cache: SizedCache[object] = SizedCache("t", budget=50 * (64 + ENTRY_OVERHEAD))
    seen: dict[int, set[int]] = {}

    def work(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(2000):
            k = rng.randrange(200)
            v = cache.get_or_build(k, lambda: object(), lambda _: 64)
            seen.setdefault(k, set()).add(id(v))
            assert cache.nbytes <= cache.budget + 64 + ENTRY_OVERHEAD

    with ThreadPoolExecutor(8) as pool:  # eight at once; a thread's failure is raised here
        list(pool.map(work, range(8)))
    assert cache.nbytes <= cache.budget


# --- compiled islands ----------------------------------------------------------------------


def test_equal_islands_share_one_compiled_island():
    island = small_island()
    again = island_from_json(island.to_json())
    assert again is not island and again.key == island.key
    assert compile_island(again) is compile_island(island)
    assert compile_island(island, SolverOptions(True, False)) is not compile_island(island)


def test_a_landmark_placement_gets_its_own_masks_and_shares_the_geometry():
    island = small_island()
    moved = island.with_landmarks([Landmark("hut", Hex(0, 0))])
    assert moved.geometry_key == island.geometry_key and moved.key != island.key
    assert compile_island(moved) is not compile_island(island)
    assert (
        compile_island(moved).geometry
        is compile_island(island).geometry
        is compiled_geometry(island)
    )


def test_drive_tables_are_kept_per_geometry_and_start():
    island = small_island()
    d = drive_from(island, Hex(1, 0))
    assert drive_from(island, (1, 0)) is d  # a plain tuple finds the same table
    other = island.with_landmarks([Landmark("hut", Hex(0, 0))])
    assert drive_from(other, Hex(1, 0)) is d
    assert d.costs == drive_costs(island, (1, 0))
    fresh = drive_costs(island, (1, 0))
    fresh[Hex(1, 0)] = 99  # drive_costs hands out a new dict: the kept one is untouched
    assert d.costs[Hex(1, 0)] == 0


def test_drive_from_refuses_a_start_in_the_sea():
    from errors import InvalidInput

    with pytest.raises(InvalidInput) as e:
        drive_from(small_island(), (7, 7))
    assert e.value.field == "start"


def test_a_small_budget_bounds_the_compiled_cache(monkeypatch):
    small = SizedCache("compiled islands", 400_000)
    monkeypatch.setattr(compiled_module, "CACHE", small)
    rng = random.Random(4)
    islands = [random_island(rng, 40) for _ in range(60)]
    for island in islands:
        t = compile_island(island)
        drive_from(island, island.index[0])
        assert t.masks == compiled_module.CompiledIsland(island, t.options, t.geometry).masks
        assert small.nbytes <= small.budget
    assert small.evictions > 0


@pytest.mark.parametrize("spec", [{"name": "classic-3"}, {"generated": 38}])
def test_memory_estimates_are_within_a_third_of_a_measurement(spec):
    """The caches count what they keep by estimates: those must not be far below the truth."""
    island = catalog.island_from_spec(spec)
    for r in (1, 2, 3):
        island.within_masks(r)
    _ = island.coast, island.sea_border
    geo = compiled_module.CompiledGeometry(island)
    t = compiled_module.CompiledIsland(island, SolverOptions(), geo)
    table = drive_from(island, island.index[0])
    island_alone = deep_size(island)
    assert 0.67 < island.nbytes() / island_alone < 1.5
    assert 0.67 < geo.nbytes / deep_size(geo) < 1.5
    own = deep_size((t.masks, t.landmark, t.base))  # and the island it holds
    assert 0.67 < (t.nbytes - island.nbytes()) / own < 1.5
    # a drive table's keys are the island's own Hex values (shared): its dict and layers count
    table_own = sys.getsizeof(table.costs) + deep_size(table.layers)
    assert 0.67 < table.nbytes() / table_own < 1.5


def test_nothing_outside_hexmap_writes_onto_an_island(client):
    """Solve, the helper, a game and puzzles leave an island's attributes as hexmap set them."""
    island = catalog.generated_island(21)
    before = set(vars(island))
    spec = {"generated": 21}
    body = {"island": spec, "maps": [{"id": "w", "clues": ["near1:sea"]}], "hand": ["in:lake"]}
    assert client.post("/api/tobago/solve", json=body).status_code == 200
    helper = {**body, "me": [island.index[0].q, island.index[0].r]}
    assert client.post("/api/tobago/helper", json=helper).status_code == 200
    from games.base import play_bots
    from games.tobago import KIND
    from solver.puzzles.generate import make_puzzle

    state = KIND.new_state(21, 2, {"island": "generated-21", "landmarks_seed": 21})
    assert state.island is island
    play_bots(KIND, state, ["strategic", "random"], random.Random(1))
    make_puzzle(island, random.Random(2), "easy")
    hexmap_memos = {"coast", "sea_border"}  # cached_property values of hexmap.island
    assert set(vars(island)) - before <= hexmap_memos
