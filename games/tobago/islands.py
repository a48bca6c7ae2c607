"""Which island a Tobago game is played on, rebuilt from its options (or its own JSON).

A game names its island by the options ``island`` (``classic-1`` … ``classic-6`` or
``generated-<seed>``) and ``landmarks_seed`` (``-1``: the game's seed). The island is rebuilt from
those on replay and when a snapshot is loaded, so the state never stores it. A game built on a
custom island (tests, puzzles: ``TobagoKind.new_state_on(island, ...)``) keeps that island's JSON
instead, with a digest of it.

Islands are kept by ``hexmap.catalog`` (one thread-safe cache, bounded by memory), their compiled
masks and drive tables by ``solver.compiled``: this module holds no cache of its own.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from errors import InvalidInput
from games.tobago.rules import LANDMARKS_FROM_GAME_SEED
from hexmap import catalog
from hexmap.island import Island
from hexmap.island_json import island_to_json
from hexmap.seeds import check_seed


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

    The island itself is kept by the catalog under the digest, so rebuilding it (replay, views
    for bots) costs one lookup.
    """
    data = island_to_json(island)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    key = hashlib.sha1(text.encode()).hexdigest()[:16]
    catalog.custom_island(data, key, island)
    return {"custom": data, "key": key}


def island_from_source(source: dict) -> Island:
    """The island a source names (kept by the catalog)."""
    if "custom" in source:
        return catalog.custom_island(source["custom"], source["key"])
    spec, landmarks_seed = source["spec"], source["landmarks_seed"]
    _parse_spec(spec)
    # The placement ``catalog.island_by_name`` makes shares its board's geometry, and so the
    # board's compiled masks (``solver.compiled`` keys them by geometry).
    return catalog.island_by_name(spec, landmarks_seed)


def island_for_view(ref: dict) -> Island:
    """The island a view's ``island`` entry names (what a bot uses: it sees only the view)."""
    if "custom" in ref:
        return island_from_source({"custom": ref["custom"], "key": ref["key"]})
    return island_from_source({"spec": ref["spec"], "landmarks_seed": ref["landmarks_seed"]})
