"""The classic board (three pieces, six arrangements) and the landscape checkers (issue 2)."""

from __future__ import annotations

import itertools

import pytest

from hexmap import Hex, InvalidInput, Island, NotFound, distance
from hexmap.boards import (
    arrangement,
    arrangement_names,
    classic_board,
    classic_spaces,
    format_rows,
    parse_rows,
    piece,
)
from hexmap.catalog import builtin_names, classic_island
from hexmap.landscape import (
    beach_problems,
    lake_problems,
    landscape_problems,
    mountain_problems,
    river_problems,
    terrain_problems,
)
from hexmap.terrain import TERRAINS

NAMES = [f"classic-{i}" for i in range(1, 7)]


def test_six_arrangements_are_the_six_orders_of_three_pieces():
    assert builtin_names() == arrangement_names() == NAMES
    orders = [tuple(arrangement(n)) for n in NAMES]
    assert sorted(orders) == sorted(itertools.permutations("abc"))


def test_unknown_arrangement_is_not_found():
    with pytest.raises(NotFound) as e:
        arrangement("classic-7")
    assert e.value.field == "name"


@pytest.mark.parametrize("name", NAMES)
def test_every_arrangement_is_a_valid_island(name):
    island = classic_board(name)  # the constructor refuses tied largest regions
    assert 80 <= len(island) <= 140
    assert set(island.regions) == set(TERRAINS)
    for t, regions in island.regions.items():
        assert len(regions) == 1 or len(regions[0]) > len(regions[1]), t
    assert island.name == name


@pytest.mark.parametrize("name", NAMES)
def test_every_arrangement_looks_like_an_island(name):
    island = classic_board(name)
    assert landscape_problems(island) == []
    assert nx_connected(island)
    assert len(island.largest["mountain"]) >= 5  # a real range
    assert island.regions["river"] and island.regions["lake"] and island.regions["beach"]


def nx_connected(island: Island) -> bool:
    import networkx as nx

    return nx.is_connected(island.graph)


def test_arrangements_are_different_islands():
    layouts = {tuple(sorted(classic_spaces(n).items())) for n in NAMES}
    assert len(layouts) == 6


def test_pieces_join_without_overlap_and_touch_their_neighbours():
    island = classic_board("classic-1")
    sizes = [len(piece(p)) for p in "abc"]
    assert len(island) == sum(sizes)
    # the slots touch: some space of slot 0 is next to some space of slot 1
    slot0 = {Hex(h.q, h.r) for h in piece("a")}
    slot1 = {Hex(h.q + 8, h.r) for h in piece("b")}
    assert any(distance(a, b) == 1 for a in slot0 for b in slot1)


def test_same_piece_same_terrain_in_every_slot():
    a = piece("a")
    for name in NAMES:
        slot = arrangement(name).index("a")
        spaces = classic_spaces(name)
        assert all(spaces[Hex(h.q + 8 * slot, h.r)] == t for h, t in a.items())


def test_classic_islands_are_cached_and_carry_landmarks():
    a = classic_island("classic-3")
    assert classic_island("classic-3") is a
    assert len(a.landmarks) == 10
    assert classic_island("classic-3", 5).landmarks != a.landmarks


# --- the piece notation ----------------------------------------------------------------------


def test_parse_rows_known_answer():
    spaces = parse_rows(["J B", " M R"], first_row=0)
    # row 0 (even): columns 0, 1 → q = 0, 1; row 1 (odd, shifted): column 0 → q = 0
    assert spaces == {
        Hex(0, 0): "jungle",
        Hex(1, 0): "beach",
        Hex(0, 1): "mountain",
        Hex(1, 1): "river",
    }


@pytest.mark.parametrize("name", list("abc"))
def test_format_rows_round_trips(name):
    spaces = piece(name)
    first_row, first_col, rows = format_rows(spaces)
    assert parse_rows(rows, first_row, first_col) == spaces


def test_parse_rows_refuses_bad_letters_and_misaligned_hexes():
    with pytest.raises(ValueError, match="unknown terrain letter 'X'"):
        parse_rows(["J X"], 0)
    with pytest.raises(ValueError, match="off the hex grid"):
        parse_rows([" J"], 0)  # an even row starts at column 0


# --- landscape checkers: each one catches what it promises -----------------------------------


def _island(rows: list[str]) -> Island:
    return Island(parse_rows(rows, first_row=0))


def test_lake_on_the_coast_is_reported():
    island = _island(["L J J", " J M J", "J J J"])
    assert lake_problems(island) == ["lake space (0, 0) touches the sea"]


def test_beach_inland_is_reported():
    island = _island(["J J J", " J B J", "J J J"])
    assert beach_problems(island) == ["beach space (1, 1) is not on the coast"]


def test_river_that_reaches_no_water_is_reported():
    # a river hex in the middle, surrounded by land: reaches neither the sea nor a lake
    island = _island(["J J J J", " J R G J", "J J J J"])
    assert river_problems(island) == ["river at (1, 1) reaches neither the sea nor a lake"]


def test_river_reaching_the_sea_or_a_lake_is_fine():
    to_sea = _island(["J R J", " J R J", "J J J"])
    assert river_problems(to_sea) == []
    to_lake = _island(["J J J J", " J R L J", "J J J J"])
    assert river_problems(to_lake) == []


def test_river_clump_is_not_a_chain():
    island = _island(["J R R J", " J R J J", "J J J J"])
    assert any("not a chain" in p for p in river_problems(island))


def test_mountain_lump_is_not_a_range():
    island = _island(["J J J", " J M J", "J J J"])
    assert any("has 1 spaces" in p for p in mountain_problems(island))
    assert mountain_problems(_island(["J J J"])) == ["the island has no mountains"]


def test_missing_terrains_are_reported():
    assert terrain_problems(_island(["J M M"])) == [
        f"the island has no {t}" for t in TERRAINS if t not in ("jungle", "mountain")
    ]


def test_checkers_are_quiet_on_a_good_landscape():
    island = classic_board("classic-6")
    for check in (
        lake_problems,
        beach_problems,
        river_problems,
        mountain_problems,
        terrain_problems,
    ):
        assert check(island) == []


def test_unknown_classic_name_is_not_found():
    with pytest.raises(NotFound) as e:
        classic_island("classic-0")
    assert e.value.field == "name" and "classic-1" in e.value.message
    with pytest.raises(InvalidInput) as e:
        classic_island("classic-1", -3)
    assert e.value.field == "landmarks_seed"
