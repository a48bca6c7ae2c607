"""The bitmask engine: known answers on a hand-made island for every clue kind and both options,
candidates, legality (rules §3), caching per island, and the batched ``evaluate``.

The island is drawn in ``tests/islands.py``; every expected set below was worked out by
hand from that drawing (hex distance = max(|dq|, |dr|, |dq + dr|)).
"""

from __future__ import annotations

import pytest

from hexmap import Hex, Island, Landmark
from solver import (
    DEFAULT_OPTIONS,
    MapColumn,
    SolverOptions,
    all_clues,
    base_mask,
    clue_mask,
    column_mask,
    compile_island,
    evaluate,
    is_legal_play,
    legal_plays,
    parse_clue,
)
from tests.islands import SMALL_TERRAIN, small_island

RING1 = {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
RING2 = {
    (2, 0),
    (2, -1),
    (2, -2),
    (1, -2),
    (0, -2),
    (-1, -1),
    (-2, 0),
    (-2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 1),
}
ALL19 = set(SMALL_TERRAIN)
INCLUDE = SolverOptions(near_includes_target=True)
NO_LANDMARKS = SolverOptions(treasure_on_landmarks=False)


@pytest.fixture(scope="module")
def island() -> Island:
    return small_island()


def spaces(island: Island, text: str, options: SolverOptions = DEFAULT_OPTIONS) -> set:
    return {tuple(h) for h in island.spaces_of(clue_mask(island, parse_clue(text), options))}


KNOWN = [
    # in T / not in T
    ("in:jungle", {(-1, 0), (2, -2), (0, -2), (-1, -1), (-2, 0)}),
    ("in:river", {(0, 1), (-1, 2), (0, 2)}),
    ("!in:river", ALL19 - {(0, 1), (-1, 2), (0, 2)}),
    ("in:lake", {(0, 0), (1, 0), (1, 1)}),
    # in the largest T (jungle and beach have a second, smaller region)
    ("in:largest:jungle", {(-1, 0), (0, -2), (-1, -1), (-2, 0)}),
    ("in:largest:beach", {(2, 0), (2, -1)}),
    ("!in:largest:beach", ALL19 - {(2, 0), (2, -1)}),
    ("in:largest:grassland", {(-1, 1), (-2, 1)}),
    # the sea: ring 2 is the coast, ring 1 is 2 from the sea, the centre 3
    ("near1:sea", RING2),
    ("near2:sea", RING1 | RING2),
    ("!near1:sea", RING1 | {(0, 0)}),
    ("!near2:sea", {(0, 0)}),
    # terrains: the target's own spaces are not "near" it
    ("near1:lake", {(1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (2, 0), (2, -1), (0, 2)}),
    ("near1:largest:beach", {(1, 0), (1, 1), (2, -2), (1, -1)}),
    ("near1:largest:grassland", {(0, 1), (0, 0), (-1, 0), (-2, 2), (-1, 2), (-2, 0)}),
    # landmarks
    ("near1:hut", {(2, -1), (1, 0), (1, 1), (-1, 1), (-1, 0), (-2, 0), (-2, 2)}),
    ("near1:palm", {(0, -1), (-1, 0), (0, -2), (-2, 0)}),
    (
        "near2:palm",
        {(0, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (1, -2), (0, -2), (-2, 0), (-2, 1)},
    ),
    ("!near1:palm", ALL19 - {(0, -1), (-1, 0), (0, -2), (-2, 0)}),
    ("near1:statue", {(1, -1), (1, -2), (0, -2), (-1, -1), (-1, 0), (0, 0)}),
]


@pytest.mark.parametrize(("text", "expected"), KNOWN, ids=[k for k, _ in KNOWN])
def test_known_answers_default_options(island, text, expected):
    assert spaces(island, text) == expected


def test_the_small_jungle_is_near_the_largest_jungle_but_not_near_jungle(island):
    # (2,-2) is jungle (distance 0 to jungle) but 2 from the largest jungle region.
    assert (2, -2) in spaces(island, "near2:largest:jungle")
    assert (2, -2) not in spaces(island, "near2:jungle")
    assert (2, -2) in spaces(island, "near2:jungle", INCLUDE)


KNOWN_INCLUDE = [
    ("near1:hut", {(2, -1), (1, 0), (1, 1), (-1, 1), (-1, 0), (-2, 0), (-2, 2), (2, 0), (-2, 1)}),
    ("near1:palm", {(0, -1), (-1, 0), (0, -2), (-2, 0), (-1, -1)}),
    ("!near1:palm", ALL19 - {(0, -1), (-1, 0), (0, -2), (-2, 0), (-1, -1)}),
    (
        "near1:lake",
        {
            (1, -1),
            (0, -1),
            (-1, 0),
            (-1, 1),
            (0, 1),
            (2, 0),
            (2, -1),
            (0, 2),
            (0, 0),
            (1, 0),
            (1, 1),
        },
    ),
    ("near1:largest:beach", {(1, 0), (1, 1), (2, -2), (1, -1), (2, 0), (2, -1)}),
    # the sea is never at distance 0 of an island space: the option changes nothing
    ("near1:sea", RING2),
    ("!near2:sea", {(0, 0)}),
    # "in" clues do not depend on the option
    ("in:largest:jungle", {(-1, 0), (0, -2), (-1, -1), (-2, 0)}),
]


@pytest.mark.parametrize(("text", "expected"), KNOWN_INCLUDE, ids=[k for k, _ in KNOWN_INCLUDE])
def test_known_answers_near_includes_target(island, text, expected):
    assert spaces(island, text, INCLUDE) == expected


def test_treasure_on_landmarks_option_sets_the_base(island):
    assert base_mask(island) == island.full_mask
    base = set(map(tuple, island.spaces_of(base_mask(island, NO_LANDMARKS))))
    assert base == ALL19 - {(2, 0), (-2, 1), (-1, -1), (0, -1)}
    # clue masks themselves are the clue's truth, whatever the option; candidates use the base
    hut_near = parse_clue("near2:hut")
    assert clue_mask(island, hut_near, NO_LANDMARKS) == clue_mask(island, hut_near)
    cands = column_mask(island, [parse_clue("in:beach")], 0, NO_LANDMARKS)
    assert set(map(tuple, island.spaces_of(cands))) == {(2, -1), (-2, 2)}
    assert column_mask(island, [parse_clue("in:beach")]).bit_count() == 3


@pytest.mark.parametrize("options", [SolverOptions(), INCLUDE, NO_LANDMARKS])
def test_negation_is_the_complement_among_island_spaces(island, options):
    for clue in all_clues():
        if clue.negated:
            continue
        neg = parse_clue("!" + clue.notation)
        assert (
            clue_mask(island, clue, options) ^ clue_mask(island, neg, options) == island.full_mask
        )


def test_column_is_the_and_of_its_clues_minus_removed(island):
    clues = [parse_clue("near2:sea"), parse_clue("!in:jungle"), parse_clue("near1:lake")]
    expected = (RING1 | RING2) - {(-1, 0), (2, -2), (0, -2), (-1, -1), (-2, 0)}
    expected &= {(1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (2, 0), (2, -1), (0, 2)}
    assert set(map(tuple, island.spaces_of(column_mask(island, clues)))) == expected
    removed = island.mask_of([(2, 0), (5, 5)])  # a non-island space is ignored by mask_of
    got = column_mask(island, clues, removed)
    assert set(map(tuple, island.spaces_of(got))) == expected - {(2, 0)}
    assert column_mask(island, clues, [(2, 0)]) == got  # spaces are accepted too
    assert column_mask(island, []) == island.full_mask  # an empty column: every space


def test_contradictory_column_has_no_candidates(island):
    assert column_mask(island, [parse_clue("in:jungle"), parse_clue("!in:jungle")]) == 0


@pytest.mark.parametrize(
    ("c", "s", "legal"),
    [
        (0b1111, 0b0011, True),  # removes some, keeps some
        (0b1111, 0b1111, False),  # removes nothing
        (0b1111, 0b11111, False),  # a superset removes nothing
        (0b1111, 0b10000, False),  # removes every candidate
        (0b1111, 0, False),
        (0b0001, 0b0001, False),  # a located map takes no further clue
        (0b0001, 0b0000, False),
        (0, 0b1, False),
        (0b1010, 0b0010, True),
    ],
)
def test_is_legal_play(c, s, legal):
    assert is_legal_play(c, s) is legal


def test_masks_are_compiled_once_and_kept(island):
    clue = parse_clue("near2:hut")
    t = compile_island(island)
    assert compile_island(island) is t
    m = clue_mask(island, clue)
    assert t.masks[clue.code] == m
    assert compile_island(island, INCLUDE) is not t
    assert compile_island(island, SolverOptions()) is t  # equal options share the table


def test_other_landmarks_get_their_own_masks():
    island = small_island()
    clue = parse_clue("near1:hut")
    before = clue_mask(island, clue)
    moved = island.with_landmarks([Landmark("hut", Hex(0, 0))])
    assert set(map(tuple, moved.spaces_of(clue_mask(moved, clue)))) == RING1
    assert clue_mask(island, clue) == before  # the original is untouched
    assert compile_island(moved).geometry is compile_island(island).geometry  # geometry shared


def test_targets_missing_from_the_island():
    island = Island({(0, 0): "jungle", (1, 0): "jungle", (0, 1): "beach"})
    for text, n in [("in:lake", 0), ("in:largest:lake", 0), ("near1:lake", 0), ("!near1:lake", 3)]:
        assert clue_mask(island, parse_clue(text)).bit_count() == n
    assert clue_mask(island, parse_clue("near1:hut")) == 0
    assert clue_mask(island, parse_clue("!near2:statue")) == island.full_mask


def test_evaluate_matches_the_single_calls(island):
    hand = [parse_clue(t) for t in ["in:jungle", "near1:sea", "!near2:hut", "in:largest:lake"]]
    maps = [
        MapColumn("white", (parse_clue("near2:sea"),)),
        MapColumn("grey", (), island.mask_of([(0, 0)])),
        {"id": "black", "clues": ["in:jungle"], "removed": [[-1, 0]]},
        MapColumn("brown", (parse_clue("in:river"), parse_clue("!in:river"))),
    ]
    result = evaluate(island, maps, hand)
    assert [m[0] for m in result] == ["white", "grey", "black", "brown"]
    for m, spec in zip(result, maps, strict=True):
        _, candidates, count, remaining = m
        if isinstance(spec, dict):
            clues, removed = (
                [parse_clue(c) for c in spec["clues"]],
                island.mask_of(map(tuple, spec["removed"])),
            )
        else:
            clues, removed = spec.clues, spec.removed
        cands = column_mask(island, clues, removed)
        assert candidates == cands and count == cands.bit_count()
        for card, rem, legal in zip(hand, remaining, legal_plays(m), strict=True):
            s = clue_mask(island, card)
            assert rem == (cands & s).bit_count()
            assert legal == is_legal_play(cands, s)
    assert result[3][2] == 0 and legal_plays(result[3]) == [False] * 4
    assert result[1][2] == 18
