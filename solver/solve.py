"""The solve request and response (the public contract of ``POST /api/tobago/solve`` and of
``python -m solver solve``), as plain Python: parsing with field paths, and answering.

Request::

    {"island": {"spaces": [...], "landmarks": [...]} | {"name": "classic-3"} | {"generated": 42},
               (name/generated take an optional "landmarks_seed")
     "maps": [{"id": "white", "clues": [<clue>, ...], "removed": [[q, r], ...]}, ...],
     "hand": [<clue>, ...],                                               (optional)
     "options": {"near_includes_target": false, "treasure_on_landmarks": true}}   (optional)

Response::

    {"island": <the island's JSON form>,
     "maps": [{"id", "candidates": [[q, r], ...], "count",
               "excluded": [{"space": [q, r], "by": k | "removed" | "landmark"}, ...]}, ...],
     "plays": [{"hand_index", "map", "legal", "remaining"}, ...]}

``candidates`` are sorted by ``(q, r)``. ``excluded`` holds every other island space; ``by`` is
the first clue index that excludes it, ``"removed"`` for an amulet removal, or ``"landmark"`` for
a landmark's space when ``treasure_on_landmarks`` is false; the list is ordered as the column
reads — ``"landmark"`` first, then clue 0, 1, …, then ``"removed"`` — and by ``(q, r)`` within
each reason. ``plays`` has one entry per hand card × map (hand order, then map order);
``remaining`` is ``|C ∩ S|`` whether the play is legal or not. A contradictory column is not an
error: its ``count`` is 0.

Islands given in full are built once and kept (keyed by their compact JSON text) so that
repeated requests do not rebuild the graph; named and generated islands are cached by
``hexmap.catalog``. ``solve`` builds the response as Python objects (the CLI, tests);
``solver.solve_text.solve_text`` writes the same response as JSON text, fast (the web endpoint).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any, NamedTuple

from errors import InvalidInput
from hexmap.island import Island, bit_indices
from solver.clues import Clue, parse_clues
from solver.explain import Reason, reasons_by_index
from solver.masks import MapColumn, compile_island
from solver.options import SolverOptions

#: Limits of one request (the game has 4 maps and hands of at most 6 cards).
MAX_MAPS = 16
MAX_CLUES = 64
MAX_HAND = 64
MAX_REMOVED = 2000
#: How many islands given in full are kept built.
ISLAND_CACHE_SIZE = 64

_REQUEST_KEYS = ("island", "maps", "hand", "options")
_MAP_KEYS = ("id", "clues", "removed")
_NO_CLUES: list = []  # the default column (never mutated)


class SolveRequest(NamedTuple):
    """A parsed solve request: domain objects only (a ``NamedTuple``: one is built per request)."""

    island: Island
    maps: tuple[MapColumn, ...]
    hand: tuple[Clue, ...]
    options: SolverOptions


# --- islands -------------------------------------------------------------------------------

_island_cache: OrderedDict[str, Island] = OrderedDict()
_island_lock = threading.Lock()


def island_key(spec: Any) -> str | None:
    """The cache key of an island given in full (its compact JSON text), else None."""
    if isinstance(spec, dict) and "spaces" in spec:
        return json.dumps(spec, separators=(",", ":"))
    return None


def cached_island(key: str | None) -> Island | None:
    """The island built earlier for ``key`` (see ``island_key``), if it is still kept."""
    if key is None:
        return None
    with _island_lock:
        island = _island_cache.get(key)
        if island is not None:
            _island_cache.move_to_end(key)
        return island


def island_for_spec(spec: Any, field: str = "island") -> Island:
    """The island of a request: by name, by generator seed, or given in full (cached)."""
    from hexmap.catalog import island_from_spec  # the catalog pulls in the generator

    key = island_key(spec)
    if key is None:
        return _named_island(spec, field, island_from_spec)
    island = cached_island(key)
    if island is not None:
        return island
    island = island_from_spec(spec, field)
    with _island_lock:
        _island_cache[key] = island
        while len(_island_cache) > ISLAND_CACHE_SIZE:
            _island_cache.popitem(last=False)
    return island


_named: dict[tuple, Island] = {}
_EXACT_TYPES = frozenset({str, int})


def _named_island(spec: Any, field: str, resolve: Any) -> Island:
    """A named or generated island, remembered by the spec's exact items once the catalog has
    accepted them (values of exact type str or int only: ``True`` never matches ``1``)."""
    try:
        key = tuple(spec.items())
        exact = set(map(type, spec.values())) <= _EXACT_TYPES
    except AttributeError:  # not an object: the catalog says why
        return resolve(spec, field)
    island = _named.get(key) if exact else None
    if island is None:
        island = resolve(spec, field)
        if exact and len(_named) < 1024:
            _named[key] = island
    return island


# --- parsing -------------------------------------------------------------------------------


def _list(value: Any, field: str, limit: int) -> list:
    if not isinstance(value, list):
        raise InvalidInput(f"must be a list, got {type(value).__name__}", field)
    if len(value) > limit:
        raise InvalidInput(f"at most {limit} items, got {len(value)}", field)
    return value


def _removed(island: Island, value: Any, field: str) -> int:
    bit = island.bit
    mask = 0
    for i, sp in enumerate(_list(value, field, MAX_REMOVED)):
        f = f"{field}[{i}]"
        if (
            not isinstance(sp, list)
            or len(sp) != 2
            or not all(type(x) is int for x in sp)  # bool is not a coordinate
        ):
            raise InvalidInput("a removed space is a pair of integers [q, r]", f)
        b = bit.get((sp[0], sp[1]))
        if b is None:
            raise InvalidInput(f"({sp[0]}, {sp[1]}) is not an island space", f)
        mask |= 1 << b
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
        _list(clues, f"{field}.clues", MAX_CLUES)  # says what is wrong
    clues = parse_clues(clues, f"{field}.clues")
    removed = value.get("removed")
    removed = _removed(island, removed, f"{field}.removed") if removed else 0
    return MapColumn(mid, clues, removed)


def parse_solve_request(data: Any, island: Island | None = None) -> SolveRequest:
    """Parse a solve request (see the module doc); ``InvalidInput``/``NotFound`` name the field.

    ``island``: the request's island when the caller already has it (from ``cached_island``).
    """
    if not isinstance(data, dict):
        raise InvalidInput(f"the request must be a JSON object, got {type(data).__name__}", "body")
    for key in data:
        if key not in _REQUEST_KEYS:
            raise InvalidInput(f"unknown field {key!r}", key)
    if "island" not in data:
        raise InvalidInput("missing field 'island'", "island")
    if "maps" not in data:
        raise InvalidInput("missing field 'maps'", "maps")
    options = SolverOptions.from_json(data.get("options"), "options")
    if island is None:
        island = island_for_spec(data["island"], "island")
    maps = tuple(
        parse_map(island, m, f"maps[{i}]")
        for i, m in enumerate(_list(data["maps"], "maps", MAX_MAPS))
    )
    seen: dict[str, int] = {}
    for i, m in enumerate(maps):
        if m.id in seen:
            raise InvalidInput(
                f"duplicate map id {m.id!r} (also maps[{seen[m.id]}])", f"maps[{i}].id"
            )
        seen[m.id] = i
    hand = parse_clues(_list(data.get("hand", []), "hand", MAX_HAND), "hand")
    return SolveRequest(island, maps, hand, options)


# --- answering -----------------------------------------------------------------------------


def _space_pairs(island: Island) -> list[list[int]]:
    """``[q, r]`` per space index, built once per island (shared, read-only)."""
    pairs = island.__dict__.get("_solver_pairs")
    if pairs is None:
        pairs = island.__dict__["_solver_pairs"] = [[h.q, h.r] for h in island.index]
    return pairs


def island_json(island: Island) -> dict:
    """The island's JSON form, built once per island and landmark placement (read-only)."""
    entry = island.__dict__.get("_solver_island_json")
    if entry is None or entry[0] is not island.landmarks:
        entry = island.__dict__["_solver_island_json"] = (island.landmarks, island.to_json())
    return entry[1]


def solve_maps(req: SolveRequest) -> tuple[list[dict], list[dict]]:
    """The ``maps`` and ``plays`` parts of the response."""
    island = req.island
    t = compile_island(island, req.options)
    pairs = _space_pairs(island)
    hand_masks = [t.mask(c) for c in req.hand]
    maps_out: list[dict] = []
    columns: list[tuple[str, int, int]] = []
    for m in req.maps:
        cands, reasons = reasons_by_index(t, m.clues, m.removed)
        count = cands.bit_count()
        maps_out.append(
            {
                "id": m.id,
                "candidates": [pairs[i] for i in bit_indices(cands)],
                "count": count,
                "excluded": [
                    {"space": pairs[i], "by": reasons[i]}
                    for i in sorted(reasons, key=lambda i: (_reason_rank(reasons[i]), i))
                ],
            }
        )
        columns.append((m.id, cands, count))
    plays = []
    for hi, s in enumerate(hand_masks):
        for mid, cands, count in columns:
            remaining = (cands & s).bit_count()
            plays.append(
                {
                    "hand_index": hi,
                    "map": mid,
                    "legal": 0 < remaining < count,
                    "remaining": remaining,
                }
            )
    return maps_out, plays


def _reason_rank(why: Reason) -> int:
    """Column order of a reason: landmark, clue 0, 1, …, removed."""
    if why == "landmark":
        return -1
    if why == "removed":
        return 1 << 30
    return why  # type: ignore[return-value]


def solve(req: SolveRequest) -> dict:
    """The full response object (see the module doc)."""
    maps_out, plays = solve_maps(req)
    return {"island": island_json(req.island), "maps": maps_out, "plays": plays}


def solve_json(data: Any) -> dict:
    """Parse and answer in one call (the CLI and tests)."""
    return solve(parse_solve_request(data))
