"""Axial hex geometry: known answers and properties (rules §1)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexmap.hexes import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Hex,
    bounding_box,
    corners,
    direction,
    distance,
    from_pixel,
    hex_range,
    hex_round,
    iter_line,
    line_direction,
    neighbour,
    neighbours,
    ring,
    rotate,
    to_pixel,
)

coords = st.integers(min_value=-50, max_value=50)
hexes = st.builds(Hex, coords, coords)


# --- known answers ---------------------------------------------------------------------------


def test_directions_follow_the_rules_order():
    assert [(h.q, h.r) for h in DIRECTIONS] == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    assert DIRECTION_NAMES == ("E", "NE", "NW", "W", "SW", "SE")


def test_hex_is_a_plain_pair_with_a_third_cube_coordinate():
    h = Hex(2, -5)
    assert h == (2, -5) and hash(h) == hash((2, -5))
    assert h.s == 3
    assert h + (1, 1) == Hex(3, -4)
    assert h - (1, 1) == Hex(1, -6)


def test_direction_and_neighbour_wrap_modulo_six():
    assert direction(6) == direction(0) == Hex(1, 0)
    assert direction(-1) == Hex(0, 1)
    assert neighbour((0, 0), 2) == Hex(0, -1)
    assert neighbour((3, 4), 7) == Hex(4, 3)


def test_neighbours_in_direction_order():
    assert neighbours((2, 3)) == [
        Hex(3, 3),
        Hex(3, 2),
        Hex(2, 2),
        Hex(1, 3),
        Hex(1, 4),
        Hex(2, 4),
    ]


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ((0, 0), (0, 0), 0),
        ((0, 0), (1, 0), 1),
        ((0, 0), (1, -1), 1),
        ((0, 0), (2, -1), 2),
        ((0, 0), (3, 3), 6),
        ((-2, 1), (1, -2), 3),
        ((5, -3), (-1, 4), 7),
    ],
)
def test_distance_known_answers(a, b, d):
    assert distance(a, b) == d


def test_ring_known_answers():
    assert ring((0, 0), 0) == [Hex(0, 0)]
    assert ring((0, 0), 1) == [
        Hex(-1, 1),
        Hex(0, 1),
        Hex(1, 0),
        Hex(1, -1),
        Hex(0, -1),
        Hex(-1, 0),
    ]
    r2 = ring((3, -1), 2)
    assert len(r2) == 12 and len(set(r2)) == 12
    assert all(distance(h, (3, -1)) == 2 for h in r2)
    with pytest.raises(ValueError):
        ring((0, 0), -1)


def test_hex_range_known_answers():
    assert hex_range((0, 0), 0) == [Hex(0, 0)]
    one = hex_range((0, 0), 1)
    assert one == sorted(one) and len(one) == 7
    assert set(one) == {Hex(0, 0), *neighbours((0, 0))}
    assert len(hex_range((4, 4), 3)) == 37
    with pytest.raises(ValueError):
        hex_range((0, 0), -2)


def test_rotate_known_answers():
    assert rotate((1, 0)) == Hex(1, -1)  # E → NE: counter-clockwise on screen
    assert rotate((1, 0), -1) == Hex(0, 1)  # E → SE
    assert rotate((2, -1), 3) == Hex(-2, 1)  # half a turn
    assert rotate((3, 3), 1, center=(2, 2)) == Hex(4, 1)
    for d in range(6):
        assert rotate(DIRECTIONS[d], 1) == DIRECTIONS[(d + 1) % 6]


def test_line_direction_known_answers():
    assert line_direction((0, 0), (3, 0)) == 0
    assert line_direction((0, 0), (2, -2)) == 1
    assert line_direction((1, 1), (1, -3)) == 2
    assert line_direction((0, 0), (0, 4)) == 5
    assert line_direction((0, 0), (2, -1)) is None
    assert line_direction((4, 4), (4, 4)) is None


def test_iter_line_walks_straight():
    it = iter_line((0, 0), 4)
    assert [next(it) for _ in range(3)] == [Hex(-1, 1), Hex(-2, 2), Hex(-3, 3)]


def test_bounding_box():
    assert bounding_box([(0, 0), (3, -2), (-1, 5)]) == (-1, 3, -2, 5)


def test_pixel_layout_is_pointy_top_with_y_down():
    assert to_pixel((0, 0), 10) == (0.0, 0.0)
    x, y = to_pixel((1, 0), 10)
    assert x == pytest.approx(10 * math.sqrt(3)) and y == 0
    x, y = to_pixel((0, 1), 10)
    assert x == pytest.approx(5 * math.sqrt(3)) and y == pytest.approx(15)  # SE is down-right
    assert to_pixel((0, 0), 10, origin=(5, 7)) == (5.0, 7.0)


def test_corners_of_a_pointy_top_hex():
    cs = corners((0, 0), 10)
    assert len(cs) == 6
    assert cs[1] == pytest.approx((0, 10))  # bottom point
    assert cs[4] == pytest.approx((0, -10))  # top point
    assert all(math.hypot(x, y) == pytest.approx(10) for x, y in cs)


def test_hex_round_picks_the_nearest_hex():
    assert hex_round(0.1, -0.1) == Hex(0, 0)
    assert hex_round(0.9, 0.05) == Hex(1, 0)
    assert hex_round(-0.4, 1.3) == Hex(0, 1)  # q is the worst rounded: rebuilt from r and s


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@settings(max_examples=100, deadline=None)
@given(hexes)
def test_neighbours_are_at_distance_one(h):
    ns = neighbours(h)
    assert len(set(ns)) == 6 and all(distance(h, n) == 1 for n in ns)


@settings(max_examples=100, deadline=None)
@given(hexes, hexes)
def test_six_rotations_are_the_identity_and_keep_distance(h, c):
    r = h
    for _ in range(6):
        nxt = rotate(r, 1, center=c)
        assert distance(nxt, c) == distance(h, c)
        r = nxt
    assert r == h
    assert rotate(rotate(h, 2, c), -2, c) == h


@settings(max_examples=50, deadline=None)
@given(hexes, st.integers(min_value=0, max_value=6))
def test_ring_and_range_agree_with_distance(c, radius):
    assert sorted(ring(c, radius)) == sorted(
        h for h in hex_range(c, radius) if distance(h, c) == radius
    )
    assert len(hex_range(c, radius)) == 3 * radius * (radius + 1) + 1


@settings(max_examples=200, deadline=None)
@given(hexes, st.floats(min_value=3, max_value=60))
def test_pixel_round_trip(h, size):
    x, y = to_pixel(h, size, origin=(11.0, -4.0))
    assert from_pixel(x, y, size, origin=(11.0, -4.0)) == h
