"""The solve request (the public contract of ``POST /api/tobago/solve``, of
``python -m solver solve`` and, for its shared parts, of ``POST /api/tobago/helper``): the one
validation of a request body, with field paths. ``solver.answer`` computes the answer
(``answer_json``, ``answer_text``); it imports this module, never the other way round.

Request::

    {"island": {"spaces": [...], "landmarks": [...]} | {"name": "classic-3"} | {"generated": 42},
               (name/generated take an optional "landmarks_seed")
     "maps": [{"id": "white", "clues": [<clue>, ...], "removed": [[q, r], ...]}, ...],
     "hand": [<clue>, ...],                                               (optional)
     "options": {"near_includes_target": false, "treasure_on_landmarks": true},   (optional)
     "include_island": true}                                              (optional)

Response::

    {"island": <the island's JSON form>,                   (unless "include_island" is false)
     "maps": [{"id", "candidates": [[q, r], ...], "count",
               "excluded": [{"space": [q, r], "by": k | "removed" | "landmark"}, ...]}, ...],
     "plays": [{"hand_index", "map", "legal", "remaining"}, ...]}

``candidates`` are sorted by ``(q, r)``. ``excluded`` holds every other island space; ``by`` is
the first clue index that excludes it, ``"removed"`` for an amulet removal, or ``"landmark"`` for
a landmark's space when ``treasure_on_landmarks`` is false; the list is ordered as the column
reads — ``"landmark"`` first, then clue 0, 1, …, then ``"removed"`` — and by ``(q, r)`` within
each reason. ``plays`` has one entry per hand card × map (hand order, then map order);
``remaining`` is ``|C ∩ S|`` whether the play is legal or not. A contradictory column is not an
error: its ``count`` is 0. ``"include_island": false`` leaves the island out of the response (a
client polling positions on an island it already has; the default echoes it, as it always did).

Every check is here (the web layer's pydantic models only describe the body in OpenAPI; a test
keeps the two in agreement): unknown keys, types (``bool`` is never an integer), limits, clue
semantics (``solver.clues``), island validity (``hexmap.catalog``, which also keeps the islands
built), removed spaces on the island, duplicate map ids. Every error is an ``InvalidInput`` (or
``NotFound`` for an unknown island name) naming the field (``maps[0].clues[2]``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from errors import InvalidInput
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.clues import Clue, parse_clues
from solver.masks import MapColumn
from solver.options import SolverOptions

#: Limits of one request (the game has 4 maps and hands of at most 6 cards).
MAX_MAPS = 16
MAX_CLUES = 64
MAX_HAND = 64
MAX_REMOVED = 2000

REQUEST_KEYS = ("island", "maps", "hand", "options", "include_island")
_MAP_KEYS = ("id", "clues", "removed")
_NO_CLUES: list = []  # the default column (never mutated)


class SolveRequest(NamedTuple):
    """A parsed solve request: domain objects only (a ``NamedTuple``: one is built per request)."""

    island: Island
    maps: tuple[MapColumn, ...]
    hand: tuple[Clue, ...]
    options: SolverOptions
    include_island: bool = True


def island_for_spec(spec: Any, field: str = "island") -> Island:
    """The island of a request: by name, by generator seed, or given in full (``hexmap.catalog``
    validates it and keeps it built)."""
    from hexmap.catalog import island_from_spec  # the catalog pulls in the generator

    return island_from_spec(spec, field)


def parse_list(value: Any, field: str, limit: int) -> list:
    if not isinstance(value, list):
        raise InvalidInput(f"must be a list, got {type(value).__name__}", field)
    if len(value) > limit:
        raise InvalidInput(f"at most {limit} items, got {len(value)}", field)
    return value


def parse_space_on(island: Island, value: Any, field: str) -> Hex:
    """An island space given as a pair of integers ``[q, r]`` (``bool`` is not a coordinate)."""
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidInput("a space is a pair of integers [q, r]", field)
    for k, x in enumerate(value):
        if type(x) is not int:
            raise InvalidInput(f"must be an integer, got {type(x).__name__}", f"{field}[{k}]")
    h = Hex(value[0], value[1])
    if h not in island.terrain:
        raise InvalidInput(f"({h.q}, {h.r}) is not an island space", field)
    return h


def _removed(island: Island, value: Any, field: str) -> int:
    bit = island.bit
    mask = 0
    for i, sp in enumerate(parse_list(value, field, MAX_REMOVED)):
        mask |= 1 << bit[parse_space_on(island, sp, f"{field}[{i}]")]
    return mask


def parse_map(island: Island, value: Any, field: str) -> MapColumn:
    """One ``{"id", "clues", "removed"}`` map; every error names its field under ``field``."""
    if not isinstance(value, dict):
        raise InvalidInput(f"must be an object, got {type(value).__name__}", field)
    for key in value:
        if key not in _MAP_KEYS:
            raise InvalidInput(f"unknown field {key!r}", f"{field}.{key}")
    mid = value.get("id")
    if not isinstance(mid, str) or not mid:
        raise InvalidInput("a map needs a non-empty string id", f"{field}.id")
    clues = value.get("clues", _NO_CLUES)
    if clues.__class__ is not list or len(clues) > MAX_CLUES:
        parse_list(clues, f"{field}.clues", MAX_CLUES)  # says what is wrong
    clues = parse_clues(clues, f"{field}.clues")
    removed = value.get("removed")
    removed = _removed(island, removed, f"{field}.removed") if "removed" in value else 0
    return MapColumn(mid, clues, removed)


def parse_maps(island: Island, value: Any, field: str = "maps") -> tuple[MapColumn, ...]:
    """The ``maps`` list: at most ``MAX_MAPS`` maps with distinct ids."""
    maps = tuple(
        parse_map(island, m, f"{field}[{i}]")
        for i, m in enumerate(parse_list(value, field, MAX_MAPS))
    )
    seen: dict[str, int] = {}
    for i, m in enumerate(maps):
        if m.id in seen:
            raise InvalidInput(
                f"duplicate map id {m.id!r} (also {field}[{seen[m.id]}])", f"{field}[{i}].id"
            )
        seen[m.id] = i
    return maps


def parse_hand(value: Any, field: str = "hand") -> tuple[Clue, ...]:
    """The ``hand``: at most ``MAX_HAND`` clues."""
    return parse_clues(parse_list(value, field, MAX_HAND), field)


def check_keys(data: Any, allowed: tuple[str, ...], required: tuple[str, ...]) -> dict:
    """``data`` if it is an object with only ``allowed`` keys and every ``required`` one."""
    if not isinstance(data, dict):
        raise InvalidInput(f"the request must be a JSON object, got {type(data).__name__}", "body")
    for key in data:
        if key not in allowed:
            raise InvalidInput(f"unknown field {key!r}", key)
    for key in required:
        if key not in data:
            raise InvalidInput(f"missing field {key!r}", key)
    return data


def parse_solve_request(data: Any, allowed: tuple[str, ...] = REQUEST_KEYS) -> SolveRequest:
    """Parse a solve request (see the module doc); ``InvalidInput``/``NotFound`` name the field.

    ``allowed``: the keys the body may have (a caller with more keys, the helper, parses its own
    after this).
    """
    check_keys(data, allowed, ("island", "maps"))
    options = SolverOptions.from_json(data.get("options"), "options")
    include = data.get("include_island", True)
    if not isinstance(include, bool):
        raise InvalidInput("include_island must be true or false", "include_island")
    island = island_for_spec(data["island"], "island")
    maps = parse_maps(island, data["maps"])
    hand = parse_hand(data.get("hand", _NO_CLUES))
    return SolveRequest(island, maps, hand, options, include)
