"""A space named as a player finds it (``solver.places``): terrain, where, region, landmark."""

from __future__ import annotations

import pytest

from errors import InvalidInput
from hexmap.catalog import classic_island
from hexmap.hexes import Hex, hex_range
from hexmap.island import Island, Landmark
from solver.places import compass, nearest_landmark, place_name, place_names
from tests.places_support import COORDS


def _disc() -> Island:
    """A radius-3 disc of grassland with a jungle patch of 2 in the east, a lone jungle space in
    the west, and a hut in the north-east."""
    spaces = {h: "grassland" for h in hex_range((0, 0), 3)}
    spaces[Hex(3, 0)] = spaces[Hex(3, -1)] = "jungle"  # east: the largest jungle
    spaces[Hex(-3, 0)] = "jungle"  # west: a lone jungle space
    return Island(spaces, [Landmark("hut", Hex(3, -3))])


def test_compass_follows_the_drawn_map_north_up():
    island = _disc()
    assert compass(island, (0, 0)) == "middle"
    assert compass(island, (3, 0)) == "e" and compass(island, (-3, 0)) == "w"
    assert compass(island, (3, -3)) == "ne" and compass(island, (-3, 3)) == "sw"
    assert compass(island, (1, -3)) == "n" and compass(island, (-1, 3)) == "s"
    assert compass(island, (0, -3)) == "nw"  # 120° from east: nearer north-west than north


def test_region_and_landmark_words_in_both_languages():
    island = _disc()
    assert place_name(island, (3, 0)) == (
        "the jungle space in the east (part of the largest jungle), 3 spaces from a hut"
    )
    assert place_name(island, (-3, 0)) == (
        "the jungle space in the west (a lone jungle space), 6 spaces from a hut"
    )
    assert place_name(island, (3, -3)).endswith("with a hut on it")
    assert place_name(island, (3, -2)).endswith("next to a hut")
    assert place_name(island, (3, 0), "zh") == "島東部的樹林格（屬於最大的樹林區域），距離小屋 3 格"
    assert nearest_landmark(island, (3, -2)) == (island.landmarks[0], 1)
    bare = Island({h: "beach" for h in hex_range((0, 0), 1)})
    assert nearest_landmark(bare, (0, 0)) is None
    assert (
        place_name(bare, (0, 0))
        == "the beach space in the middle of the island (part of the largest beach)"
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_space_of_a_classic_island_has_a_name_without_coordinates(lang):
    island = classic_island("classic-3", 7)
    names = place_names(island, lang)
    assert set(names) == set(island.index)
    assert not any(COORDS.search(n) for n in names.values())
    assert all(names[h] == place_name(island, h, lang) for h in island.index[::9])


def test_a_bad_language_is_refused():
    with pytest.raises(InvalidInput):
        place_name(_disc(), (0, 0), "fr")
