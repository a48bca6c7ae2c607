"""Every island the project can name: the classic arrangements and generated islands.

This is the one entry point other layers use (solver, games, web). Islands are immutable, so
built ones are kept, in one cache bounded by memory (``ISLANDS``): building a board and placing
its landmarks happens once per ``(name, landmarks_seed)`` while it is kept, an island given in
full once per JSON text.

- ``builtin_names()`` → ``["classic-1", …, "classic-6"]``
- ``classic_island(name, landmarks_seed=0)``
- ``generated_island(seed, landmarks_seed=None)`` (landmarks from the island's own seed by default)
- ``island_from_spec(spec, field="island")``: ``{"name": "classic-3"}``, ``{"generated": 42}``
  (each with an optional ``"landmarks_seed"``) or the full JSON form ``{"spaces", "landmarks"}``.
- ``island_by_name(text, landmarks_seed=None)``: ``classic-3``, ``generated-42`` or ``generated:42``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from errors import InvalidInput, NotFound
from hexmap.boards import arrangement_names, classic_board
from hexmap.generator import generate
from hexmap.island import Island
from hexmap.island_json import island_from_json
from hexmap.landmarks import place_landmarks
from hexmap.seeds import check_seed, parse_seed
from hexmap.sized_cache import SizedCache

GENERATED_PREFIX = "generated-"


def builtin_names() -> list[str]:
    """Names of the built-in islands, in order: ``classic-1`` … ``classic-6``."""
    return arrangement_names()


def classic_island(name: str, landmarks_seed: int = 0) -> Island:
    """Built-in island ``name`` with landmarks placed from ``landmarks_seed``.

    Unknown name: ``NotFound`` on field ``name``; bad seed: ``InvalidInput`` on ``landmarks_seed``.
    """
    if not isinstance(name, str) or name not in builtin_names():
        raise NotFound(
            f"no built-in island named {name!r}; try one of {', '.join(builtin_names())}", "name"
        )
    check_seed(landmarks_seed, "landmarks_seed")
    return _classic(name, landmarks_seed)


def generated_island(seed: int, landmarks_seed: int | None = None) -> Island:
    """The generated island of ``seed`` (name ``generated-<seed>``), landmarks from
    ``landmarks_seed`` (default: ``seed`` itself)."""
    check_seed(seed, "seed")
    if landmarks_seed is None:
        return _generated(seed)
    check_seed(landmarks_seed, "landmarks_seed")
    if landmarks_seed == seed:
        return _generated(seed)
    return _generated_placed(seed, landmarks_seed)


def island_by_name(text: str, landmarks_seed: int | None = None) -> Island:
    """An island named in text: ``classic-3``, ``generated-42`` or ``generated:42``."""
    if type(text) is str and type(landmarks_seed) in (int, type(None)):
        # A classic island kept already was checked when it was built: look it up directly
        # (a game's bots ask for their island on every decision).
        kept = ISLANDS.get(("classic", text, 0 if landmarks_seed is None else landmarks_seed))
        if kept is not None:
            return kept
    if not isinstance(text, str):
        raise InvalidInput("an island name must be a string", "name")
    for prefix in (GENERATED_PREFIX, "generated:"):
        if text.startswith(prefix):
            return generated_island(parse_seed(text[len(prefix) :], "name"), landmarks_seed)
    return classic_island(text, 0 if landmarks_seed is None else landmarks_seed)


def island_from_spec(spec: Any, field: str = "island") -> Island:
    """The island a request describes; errors name the field path under ``field``.

    Accepted forms::

        {"name": "classic-3", "landmarks_seed": 7}     # landmarks_seed optional (default 0)
        {"generated": 42, "landmarks_seed": 7}         # landmarks_seed optional (default 42)
        {"spaces": [...], "landmarks": [...]}          # the full JSON form, validated
    """
    if not isinstance(spec, dict):
        raise InvalidInput(f"must be an object, got {type(spec).__name__}", field)
    if "spaces" in spec:
        text = json.dumps(spec, separators=(",", ":"))
        return _kept(("full", text), lambda: island_from_json(spec, field=field))
    if "name" in spec and "generated" in spec:
        raise InvalidInput("give either name or generated, not both", field)
    if "name" in spec:
        _only(spec, ("name", "landmarks_seed"), field)
        name = spec["name"]
        if not isinstance(name, str):
            raise InvalidInput(f"must be a string, got {type(name).__name__}", f"{field}.name")
        seed = spec.get("landmarks_seed", 0)
        check_seed(seed, f"{field}.landmarks_seed")
        try:
            return classic_island(name, seed)
        except NotFound as e:
            raise e.with_prefix(field) from None
    if "generated" in spec:
        _only(spec, ("generated", "landmarks_seed"), field)
        seed = check_seed(spec["generated"], f"{field}.generated")
        landmarks_seed = spec.get("landmarks_seed")
        if landmarks_seed is not None:
            check_seed(landmarks_seed, f"{field}.landmarks_seed")
        return generated_island(seed, landmarks_seed)
    raise InvalidInput(
        'give "name" (a built-in island), "generated" (a seed) or "spaces" (the JSON form)', field
    )


def _only(spec: dict, allowed: tuple[str, ...], field: str) -> None:
    for key in spec:
        if key not in allowed:
            raise InvalidInput(
                f"unknown field {key!r}; expected {' and '.join(allowed)}", f"{field}.{key}"
            )


# --- the cache of islands (immutable values) ---------------------------------------------------

#: Memory budget of the islands kept (estimated bytes, ``Island.nbytes``): several hundred
#: classic-size islands; beyond it the least recently used are dropped and rebuilt when named.
ISLAND_CACHE_BYTES = 16 * 1024 * 1024
#: Every island built here, by how it was named (one cache: boards, placements, generated
#: islands, islands given in full by their JSON text, games' custom islands by digest).
ISLANDS: SizedCache[Island] = SizedCache("islands", ISLAND_CACHE_BYTES)


def _kept(key: tuple, build: Callable[[], Island]) -> Island:
    return ISLANDS.get_or_build(key, build, Island.nbytes)


def _board(name: str) -> Island:
    return _kept(("board", name), lambda: classic_board(name))


def _classic(name: str, landmarks_seed: int) -> Island:
    return _kept(
        ("classic", name, landmarks_seed), lambda: place_landmarks(_board(name), landmarks_seed)
    )


def _generated(seed: int) -> Island:
    return _kept(("generated", seed), lambda: generate(seed))


def _generated_placed(seed: int, landmarks_seed: int) -> Island:
    return _kept(
        ("placed", seed, landmarks_seed), lambda: place_landmarks(_generated(seed), landmarks_seed)
    )


def custom_island(data: dict, digest: str, island: Island | None = None) -> Island:
    """An island given in its JSON form, kept under ``digest`` (a digest of that form the caller
    made once): ``island`` when given (the caller has it built already), else built from ``data``."""
    return _kept(("custom", digest), lambda: island or island_from_json(data))
