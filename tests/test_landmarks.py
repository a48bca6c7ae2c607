"""Landmark placement as a constraint problem (rules §1): rules always met, seeded, clear refusals."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexmap import Hex, InvalidInput, Island, hex_range, landmark_violations
from hexmap.boards import classic_board
from hexmap.catalog import builtin_names
from hexmap.generator import generate
from hexmap.landmarks import allowed_spaces, kind_fits, place_landmarks
from hexmap.terrain import DRY_LAND, LANDMARK_COUNTS, SAME_KIND_MIN_DISTANCE

seeds = st.integers(min_value=0, max_value=2**63 - 1)


def assert_rules_met(island: Island) -> None:
    assert landmark_violations(island) == []
    assert Counter(lm.kind for lm in island.landmarks) == LANDMARK_COUNTS
    spaces = [lm.space for lm in island.landmarks]
    assert len(set(spaces)) == len(spaces)  # one landmark per space
    for lm in island.landmarks:
        assert island.terrain[lm.space] in DRY_LAND
        if lm.kind == "statue":
            assert lm.facing in range(6)
            assert lm.space not in island.coast
        else:
            assert lm.facing is None


@pytest.mark.parametrize("name", builtin_names())
def test_every_classic_arrangement_gets_a_legal_placement(name):
    assert_rules_met(place_landmarks(classic_board(name), 0))


def test_same_seed_same_placement_other_seed_other_placement():
    board = classic_board("classic-2")
    a = place_landmarks(board, 7)
    assert place_landmarks(board, 7).landmarks == a.landmarks
    others = {place_landmarks(board, s).landmarks for s in range(8)}
    assert len(others) == 8  # the seed really orders the domains


def test_placement_keeps_the_geometry_and_the_name():
    board = classic_board("classic-5")
    placed = place_landmarks(board, 3)
    assert placed.name == "classic-5" and placed.index == board.index
    assert board.landmarks == ()  # the input island is not changed


def test_landmarks_are_listed_by_kind_then_space():
    placed = place_landmarks(classic_board("classic-1"), 11)
    kinds = [lm.kind for lm in placed.landmarks]
    assert kinds == ["palm"] * 3 + ["hut"] * 4 + ["statue"] * 3
    for kind in LANDMARK_COUNTS:
        spaces = [lm.space for lm in placed.landmarks if lm.kind == kind]
        assert spaces == sorted(spaces)


def test_statue_facings_come_from_the_seed():
    board = classic_board("classic-3")
    facings = {
        tuple(lm.facing for lm in place_landmarks(board, s).landmarks_of("statue"))
        for s in range(30)
    }
    assert len(facings) > 10
    assert {f for fs in facings for f in fs} == set(range(6))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(builtin_names()), seeds)
def test_rules_always_met_on_classic_islands(name, seed):
    assert_rules_met(place_landmarks(classic_board(name), seed))


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), seeds)
def test_rules_always_met_on_generated_islands(island_seed, seed):
    island = generate(island_seed)
    assert_rules_met(island)  # the generator places from the island's own seed
    assert_rules_met(place_landmarks(island, seed))


# --- refusals --------------------------------------------------------------------------------


def test_tiny_island_has_no_room_for_palms():
    tiny = Island({h: "jungle" for h in hex_range((0, 0), 1)})
    with pytest.raises(InvalidInput) as e:
        place_landmarks(tiny, 0)
    assert e.value.field == "landmarks"
    assert (
        "no room for 3 palms at least 4 apart on the island's 7 dry-land spaces" in e.value.message
    )


def test_island_without_inland_dry_land_has_no_room_for_statues():
    strip = Island({(q, r): "grassland" for q in range(30) for r in (0, 1)})  # all coast
    assert kind_fits(strip, "palm") and kind_fits(strip, "hut")
    assert not kind_fits(strip, "statue")
    with pytest.raises(InvalidInput) as e:
        place_landmarks(strip, 0)
    assert "no room for 3 statues" in e.value.message and "away from the sea" in e.value.message


def test_kinds_that_fit_alone_but_not_together_are_refused():
    # A lake with six dry spaces: each kind fits alone, but ten landmarks need ten spaces.
    spaces = {h: "lake" for h in hex_range((0, 0), 7)}
    for h, t in [
        ((0, 0), "jungle"),
        ((1, 0), "jungle"),
        ((4, 0), "beach"),
        ((0, 4), "mountain"),
        ((-4, 4), "grassland"),
        ((4, -4), "jungle"),
    ]:
        spaces[h] = t
    island = Island(spaces)
    assert all(kind_fits(island, k) for k in LANDMARK_COUNTS)
    with pytest.raises(InvalidInput) as e:
        place_landmarks(island, 1)
    assert "each kind fits alone, but not all together" in e.value.message


def test_landmarks_never_stand_on_water():
    # Only the ring of jungle can hold landmarks; the lake in the middle never does.
    spaces = {h: "jungle" for h in hex_range((0, 0), 6)}
    for h in hex_range((0, 0), 2):
        spaces[h] = "lake"
    placed = place_landmarks(Island(spaces), 5)
    assert_rules_met(placed)
    assert all(placed.terrain[lm.space] == "jungle" for lm in placed.landmarks)


def test_allowed_spaces_dry_land_and_inland_statues():
    board = classic_board("classic-1")
    allowed = allowed_spaces(board)
    dry = {board.index[i] for i in allowed["palm"]}
    assert dry == {h for h in board.index if board.terrain[h] in DRY_LAND}
    assert {board.index[i] for i in allowed["statue"]} == dry - board.coast
    assert allowed["hut"] == allowed["palm"]


@pytest.mark.parametrize("seed", [-1, 2**63, True, 1.5, "3", None])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(InvalidInput) as e:
        place_landmarks(classic_board("classic-1"), seed)
    assert e.value.field == "landmarks_seed"


def test_minimum_distance_is_four():
    assert SAME_KIND_MIN_DISTANCE == 4
    placed = place_landmarks(classic_board("classic-4"), 2)
    for kind in LANDMARK_COUNTS:
        spaces = [lm.space for lm in placed.landmarks_of(kind)]
        gaps = [
            abs(a.q - b.q) + abs(a.r - b.r) + abs(a.q + a.r - b.q - b.r)
            for a in spaces
            for b in spaces
            if a != b
        ]
        assert min(g // 2 for g in gaps) >= 4
    assert isinstance(placed.landmarks[0].space, Hex)


def test_classic_placement_is_pinned():
    """Games and puzzles name islands by (name, landmarks seed): the placement must not drift."""
    placed = place_landmarks(classic_board("classic-1"), 0)
    assert [(lm.kind, tuple(lm.space), lm.facing) for lm in placed.landmarks] == [
        ("palm", (0, 1), None),
        ("palm", (4, 2), None),
        ("palm", (12, -2), None),
        ("hut", (1, 2), None),
        ("hut", (12, -3), None),
        ("hut", (13, 0), None),
        ("hut", (20, -3), None),
        ("statue", (2, -1), 5),
        ("statue", (13, -2), 3),
        ("statue", (23, -1), 4),
    ]
