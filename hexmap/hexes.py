"""Axial hex coordinates and the pure functions around them.

Coordinates are axial ``(q, r)`` in a pointy-top layout with screen y growing downward (rules §1).
``Hex`` is a ``NamedTuple`` so that it is immutable, hashable, cheap, and equal to the plain tuple
``(q, r)`` used as a NetworkX node. Geometry is data: the six directions and the layout matrix are
tables, not branches.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import NamedTuple


class Hex(NamedTuple):
    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s == 0)."""
        return -self.q - self.r

    def __add__(self, other: tuple[int, int]) -> Hex:  # type: ignore[override]
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: tuple[int, int]) -> Hex:
        return Hex(self.q - other[0], self.r - other[1])


#: The six directions in the order of the rules (§1): 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

ORIGIN = Hex(0, 0)


def direction(d: int) -> Hex:
    """The unit step of direction index ``d`` (taken modulo 6)."""
    return DIRECTIONS[d % 6]


def neighbour(h: tuple[int, int], d: int) -> Hex:
    """The hex next to ``h`` in direction ``d``."""
    step = DIRECTIONS[d % 6]
    return Hex(h[0] + step.q, h[1] + step.r)


def neighbours(h: tuple[int, int]) -> list[Hex]:
    """The six hexes around ``h`` in direction order."""
    q, r = h
    return [Hex(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex (cube) distance: ``(|dq| + |dr| + |dq + dr|) / 2``."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: tuple[int, int], radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center``, starting to the SW and going round."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    c = Hex(*center)
    if radius == 0:
        return [c]
    out: list[Hex] = []
    h = Hex(c.q + DIRECTIONS[4].q * radius, c.r + DIRECTIONS[4].r * radius)
    for d in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, d)
    return out


def hex_range(center: tuple[int, int], radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``center`` (the center included), sorted by (q, r)."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    cq, cr = center
    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append(Hex(cq + dq, cr + dr))
    return out


def rotate(h: tuple[int, int], steps: int = 1, center: tuple[int, int] = ORIGIN) -> Hex:
    """Rotate ``h`` about ``center`` by ``steps`` × 60°, direction ``d`` going to ``d + steps``.

    Positive steps turn counter-clockwise on screen (E → NE); ``rotate(h, -1)`` is clockwise.
    """
    q, r = h[0] - center[0], h[1] - center[1]
    for _ in range(steps % 6):
        q, r = q + r, -q
    return Hex(q + center[0], r + center[1])


def line_direction(a: tuple[int, int], b: tuple[int, int]) -> int | None:
    """The direction index from ``a`` to ``b`` if they lie on one straight hex line, else None."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    n = distance(a, b)
    if n == 0:
        return None
    for d, step in enumerate(DIRECTIONS):
        if step.q * n == dq and step.r * n == dr:
            return d
    return None


def bounding_box(hexes: Iterable[tuple[int, int]]) -> tuple[int, int, int, int]:
    """``(min_q, max_q, min_r, max_r)`` of a non-empty collection."""
    qs, rs = zip(*hexes, strict=True)
    return min(qs), max(qs), min(rs), max(rs)


# --- pixel layout (pointy-top) --------------------------------------------------------------

SQRT3 = math.sqrt(3.0)
#: Forward matrix hex → pixel for a pointy-top layout (Red Blob Games' ``layout_pointy``).
POINTY_FORWARD = (SQRT3, SQRT3 / 2.0, 0.0, 1.5)
#: Corner angles of a pointy-top hex, in degrees, starting at the lower right corner.
POINTY_CORNER_ANGLES = tuple(60.0 * i + 30.0 for i in range(6))


def to_pixel(
    h: tuple[int, int], size: float, origin: tuple[float, float] = (0.0, 0.0)
) -> tuple[float, float]:
    """Centre of hex ``h`` in pixels, pointy-top, y down."""
    f0, f1, f2, f3 = POINTY_FORWARD
    x = (f0 * h[0] + f1 * h[1]) * size
    y = (f2 * h[0] + f3 * h[1]) * size
    return x + origin[0], y + origin[1]


def from_pixel(x: float, y: float, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> Hex:
    """The hex containing pixel ``(x, y)`` (inverse of ``to_pixel`` with cube rounding)."""
    px, py = (x - origin[0]) / size, (y - origin[1]) / size
    qf = SQRT3 / 3.0 * px - 1.0 / 3.0 * py
    rf = 2.0 / 3.0 * py
    return hex_round(qf, rf)


def hex_round(qf: float, rf: float) -> Hex:
    """Round fractional axial coordinates to the nearest hex."""
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def corners(
    h: tuple[int, int], size: float, origin: tuple[float, float] = (0.0, 0.0)
) -> list[tuple[float, float]]:
    """The six polygon corners of hex ``h`` in pixels (pointy-top), clockwise on screen."""
    cx, cy = to_pixel(h, size, origin)
    out = []
    for angle in POINTY_CORNER_ANGLES:
        rad = math.radians(angle)
        out.append((cx + size * math.cos(rad), cy + size * math.sin(rad)))
    return out


def iter_line(start: tuple[int, int], d: int) -> Iterator[Hex]:
    """The hexes after ``start`` going straight in direction ``d``, forever."""
    h = Hex(*start)
    step = DIRECTIONS[d % 6]
    while True:
        h = Hex(h.q + step.q, h.r + step.r)
        yield h
