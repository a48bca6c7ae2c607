"""The classic board: three pieces (data files) joined side by side in one of six orders.

Each piece is drawn in ``hexmap/data/piece-*.json`` as rows of letters, the way a hex map looks on
paper: row ``r`` is a line of text, one letter per hex two characters apart, odd rows shifted right
by one character (the "odd-r" offset layout of a pointy-top map). ``hexmap/data/classic.json``
names the pieces, the axial offset of each of the three slots and which piece goes in which slot
for ``classic-1`` … ``classic-6`` (every order of the three pieces, rules §1).

The pieces are designed so that every order makes a valid island that looks like one. Neighbouring
pieces touch along three rows where the left piece's grassland meets the right piece's jungle, so
no region runs across a join; lakes sit inside a piece; rivers end at a piece's top or bottom
coast (coast in every order) or in a lake; beaches only lie on those coasts. Tests check all of
that for all six arrangements.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from errors import NotFound
from hexmap.hexes import Hex
from hexmap.island import Island

LEGEND: dict[str, str] = {
    "J": "jungle",
    "B": "beach",
    "R": "river",
    "L": "lake",
    "M": "mountain",
    "G": "grassland",
}
#: Characters in a row that mean "no hex here".
BLANK = " ."


def _load(name: str) -> Any:
    path = resources.files("hexmap").joinpath("data", name)
    return json.loads(path.read_text(encoding="utf-8"))


def parse_rows(
    rows: list[str], first_row: int, first_col: int = 0, where: str = "piece"
) -> dict[Hex, str]:
    """Hexes of a map drawn as text rows (odd-r offset layout), keyed by axial coordinates.

    Character ``x`` of row ``i`` is the hex in offset row ``first_row + i`` and offset column
    ``first_col + x // 2`` (odd rows start one character to the right).

    Raises ``ValueError`` for an unknown letter or a letter off the hex grid (a data bug).
    """
    out: dict[Hex, str] = {}
    for i, line in enumerate(rows):
        r = first_row + i
        shift = r & 1
        for x, ch in enumerate(line):
            if ch in BLANK:
                continue
            if ch not in LEGEND:
                raise ValueError(f"{where}: row {i} column {x}: unknown terrain letter {ch!r}")
            if (x - shift) % 2:
                raise ValueError(f"{where}: row {i} column {x}: letter off the hex grid")
            col = first_col + (x - shift) // 2
            q = col - (r - shift) // 2
            out[Hex(q, r)] = LEGEND[ch]
    return out


def format_rows(spaces: dict[Hex, str]) -> tuple[int, int, list[str]]:
    """The inverse of ``parse_rows``: ``(first_row, first_col, rows)`` drawing ``spaces``."""
    letter = {t: k for k, t in LEGEND.items()}
    rs = [h.r for h in spaces]
    first, last = min(rs), max(rs)
    cols = {h: h.q + (h.r - (h.r & 1)) // 2 for h in spaces}
    min_col = min(cols.values())
    rows = []
    for r in range(first, last + 1):
        line: list[str] = []
        for h in sorted((h for h in spaces if h.r == r), key=lambda h: cols[h]):
            x = 2 * (cols[h] - min_col) + (r & 1)
            line.extend(" " * (x - len(line)))
            line.append(letter[spaces[h]])
        rows.append("".join(line))
    return first, min_col, rows


@cache
def piece(name: str) -> dict[Hex, str]:
    """The spaces of board piece ``name`` in its own coordinates."""
    data = _load(f"piece-{name}.json")
    return parse_rows(data["rows"], data["first_row"], where=f"piece-{name}")


@cache
def _classic() -> dict[str, Any]:
    return _load("classic.json")


def arrangement_names() -> list[str]:
    """``classic-1`` … ``classic-6``."""
    return list(_classic()["arrangements"])


def arrangement(name: str) -> list[str]:
    """Which piece stands in each slot, left to right, for arrangement ``name``."""
    order = _classic()["arrangements"].get(name)
    if order is None:
        raise NotFound(f"no built-in island named {name!r}", "name")
    return list(order)


def classic_spaces(name: str) -> dict[Hex, str]:
    """The spaces of arrangement ``name``: each slot's piece shifted to the slot's offset."""
    spaces: dict[Hex, str] = {}
    for (dq, dr), piece_name in zip(_classic()["slots"], arrangement(name), strict=True):
        for h, t in piece(piece_name).items():
            moved = Hex(h.q + dq, h.r + dr)
            if moved in spaces:
                raise ValueError(f"{name}: pieces overlap at ({moved.q}, {moved.r})")
            spaces[moved] = t
    return spaces


def classic_board(name: str) -> Island:
    """Arrangement ``name`` as an island without landmarks."""
    return Island(classic_spaces(name), name=name)
