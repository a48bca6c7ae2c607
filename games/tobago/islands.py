"""Which island a Tobago game is played on, rebuilt from its options (or its own JSON).

A game names its island by the options ``island`` (``classic-1`` … ``classic-6`` or
``generated-<seed>``) and ``landmarks_seed`` (``-1``: the game's seed). The island is rebuilt from
those on replay and when a snapshot is loaded, so the state never stores it. A game built on a
custom island (tests, puzzles: ``TobagoKind.new_state_on(island, ...)``) keeps that island's JSON instead.

Islands are cached (a few dozen, least recently used first out): building one and compiling its
clue masks costs milliseconds, a lookup nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

from errors import InvalidInput
from games.tobago.rules import LANDMARKS_FROM_GAME_SEED
from hexmap.island import Island
from hexmap.island_json import island_from_json, island_to_json
from hexmap.landmarks import place_landmarks
from hexmap.seeds import check_seed
from solver.masks import geometry

_CACHE: OrderedDict[str, Island] = OrderedDict()
_BASES: dict[str, Island] = {}
_CACHE_SIZE = 48


def _cached(key: str, build) -> Island:
    island = _CACHE.get(key)
    if island is None:
        island = build()
        _CACHE[key] = island
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return island


def check_island_options(options: dict) -> None:
    """Refuse a malformed ``island`` / ``landmarks_seed`` option (``InvalidInput``, field named)."""
    _parse_spec(options["island"])
    ls = options["landmarks_seed"]
    if ls != LANDMARKS_FROM_GAME_SEED:
        check_seed(ls, "options.landmarks_seed")


def _parse_spec(spec: Any) -> tuple[str, int]:
    field = "options.island"
    if not isinstance(spec, str):
        raise InvalidInput("must be a string such as 'classic-1' or 'generated-42'", field)
    kind, _, number = spec.partition("-")
    if kind not in ("classic", "generated") or not number.isascii() or not number.isdigit():
        raise InvalidInput(
            f"expected 'classic-1' … 'classic-6' or 'generated-<seed>', got {spec!r}", field
        )
    n = int(number)
    if kind == "classic" and not 1 <= n <= 6:
        raise InvalidInput(f"the classic arrangements are 1-6, got {n}", field)
    if kind == "generated":
        check_seed(n, field)
    return kind, n


def source_for(options: dict, seed: int) -> dict:
    """The island source of a game: its spec and the effective landmarks seed."""
    ls = options["landmarks_seed"]
    return {"spec": options["island"], "landmarks_seed": seed if ls < 0 else ls}


def custom_source(island: Island) -> dict:
    """The island source of a game built on a given island: its JSON and a digest of it.

    The island itself is cached under the digest, so rebuilding it (replay, views for bots)
    costs one lookup.
    """
    data = island_to_json(island)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    key = hashlib.sha1(text.encode()).hexdigest()[:16]
    source = {"custom": data, "key": key}
    _CACHE["custom:" + key] = island
    return source


def island_from_source(source: dict) -> Island:
    """The island a source names (cached)."""
    if "custom" in source:
        data = source["custom"]
        return _cached("custom:" + source["key"], lambda: island_from_json(data))
    spec, landmarks_seed = source["spec"], source["landmarks_seed"]
    _parse_spec(spec)
    key = f"{spec}/{landmarks_seed}"

    def build() -> Island:
        base = _base(spec)
        if landmarks_seed == _base_landmarks_seed(spec):
            return base
        # The same placement ``catalog.island_by_name(spec, landmarks_seed)`` makes (it places
        # landmarks by geometry alone), on a copy that shares the base's warmed-up geometry.
        return place_landmarks(base, landmarks_seed)

    return _cached(key, build)


def _base_landmarks_seed(spec: str) -> int:
    kind, n = _parse_spec(spec)
    return 0 if kind == "classic" else n


def _base(spec: str) -> Island:
    """The catalog's island for ``spec`` with its default landmarks, its geometry tables built
    once (the solver's masks, sea distances): every landmark placement made from it shares them,
    which saves each new game ~10 ms."""
    island = _BASES.get(spec)
    if island is None:
        from hexmap import catalog  # imported late: the catalog builds boards on first use

        island = catalog.island_by_name(spec, _base_landmarks_seed(spec))
        geometry(island)
        _ = island.sea_distance
        _BASES[spec] = island
        while len(_BASES) > 16:
            _BASES.pop(next(iter(_BASES)))
    return island


def island_for_view(ref: dict) -> Island:
    """The island a view's ``island`` entry names (what a bot uses: it sees only the view)."""
    if "custom" in ref:
        return island_from_source({"custom": ref["custom"], "key": ref["key"]})
    return island_from_source({"spec": ref["spec"], "landmarks_seed": ref["landmarks_seed"]})
