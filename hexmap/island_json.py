"""Loading an island from its public JSON form, validating every field.

The shape (public API)::

    {"spaces": [{"q": 0, "r": 0, "terrain": "jungle"}, ...],
     "landmarks": [{"q": 1, "r": 0, "kind": "hut"},
                   {"q": 2, "r": -1, "kind": "statue", "facing": 3}, ...]}

Every refusal is an ``InvalidInput`` whose ``field`` is the path of the offending value
(``spaces[4].terrain``, ``landmarks[2].facing``) and whose message says why.
"""

from __future__ import annotations

from typing import Any

from errors import InvalidInput
from hexmap.hexes import Hex
from hexmap.island import Island, Landmark
from hexmap.terrain import LANDMARK_KINDS, TERRAINS

#: The most spaces an island loaded from outside may have.
MAX_SPACES = 2000
#: The largest coordinate (either sign) of a space given from outside: room for any island of
#: ``MAX_SPACES`` spaces (far apart too), and every number that reaches the engines stays small.
MAX_COORDINATE = 1_000_000


def _int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"must be an integer, got {type(value).__name__}", field)
    return value


def _coordinate(value: Any, field: str) -> int:
    """A space's coordinate: an integer within ``MAX_COORDINATE`` either way."""
    number = _int(value, field)
    if not -MAX_COORDINATE <= number <= MAX_COORDINATE:
        raise InvalidInput(
            f"a coordinate is between -{MAX_COORDINATE} and {MAX_COORDINATE}",
            field,
            reason="coordinate_out_of_range",
            params={"limit": MAX_COORDINATE},
        )
    return number


def _object(value: Any, field: str, keys: tuple[str, ...] | None = None) -> dict:
    """``value`` if it is an object (with only ``keys``, when given)."""
    if not isinstance(value, dict):
        raise InvalidInput(f"must be an object, got {type(value).__name__}", field)
    if keys is not None:
        for key in value:
            if key not in keys:
                raise InvalidInput(f"unknown field {key!r}", f"{field}.{key}")
    return value


def _one_of(value: Any, known: tuple[str, ...], what: str, field: str) -> str:
    """``value`` if it is one of ``known`` (``what`` names them in the refusal)."""
    if value not in known:
        raise InvalidInput(f"unknown {what} {value!r}; expected one of {', '.join(known)}", field)
    return value


def _list(value: Any, field: str) -> list:
    if not isinstance(value, list):
        raise InvalidInput(f"must be a list, got {type(value).__name__}", field)
    return value


def parse_space(value: Any, field: str) -> Hex:
    """A space given as ``[q, r]`` (or ``{"q": q, "r": r}``)."""
    if isinstance(value, dict):
        return Hex(
            _coordinate(value.get("q"), f"{field}.q"), _coordinate(value.get("r"), f"{field}.r")
        )
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidInput("must be a pair [q, r]", field)
    return Hex(_coordinate(value[0], f"{field}[0]"), _coordinate(value[1], f"{field}[1]"))


def island_from_json(data: Any, name: str | None = None, field: str = "") -> Island:
    """Build and validate an ``Island`` from its JSON form. ``field`` prefixes error paths."""
    pre = f"{field}." if field else ""
    data = _object(data, field or "island")
    for key in data:
        if key not in ("spaces", "landmarks", "name"):
            raise InvalidInput(f"unknown field {key!r}", f"{pre}{key}")
    if data.get("name") is not None and not isinstance(data["name"], str):
        raise InvalidInput("an island's name is a string or null", f"{pre}name")
    spaces = _spaces_from_json(data.get("spaces"), f"{pre}spaces")
    landmarks = _landmarks_from_json(data.get("landmarks", []), f"{pre}landmarks", spaces)
    try:
        return Island(spaces, landmarks, name=name or data.get("name"))
    except InvalidInput as e:
        raise e.with_prefix(field) if field else e from None


def _spaces_from_json(value: Any, field: str) -> dict[Hex, str]:
    """An island's spaces (``[{"q", "r", "terrain"}, ...]``): 1 to ``MAX_SPACES``, each once."""
    spaces_in = _list(value, field)
    if not spaces_in:
        raise InvalidInput("an island needs at least one space", field)
    if len(spaces_in) > MAX_SPACES:
        raise InvalidInput(f"at most {MAX_SPACES} spaces, got {len(spaces_in)}", field)
    spaces: dict[Hex, str] = {}
    for i, sp in enumerate(spaces_in):
        f = f"{field}[{i}]"
        sp = _object(sp, f, ("q", "r", "terrain"))
        h = parse_space(sp, f)
        terrain = _one_of(sp.get("terrain"), TERRAINS, "terrain", f"{f}.terrain")
        if h in spaces:
            raise InvalidInput(f"duplicate space ({h.q}, {h.r})", f)
        spaces[h] = terrain
    return spaces


def _landmarks_from_json(value: Any, field: str, spaces: dict[Hex, str]) -> list[Landmark]:
    """An island's landmarks (``[{"q", "r", "kind", "facing"}, ...]``), each on a space of its
    own."""
    landmarks: list[Landmark] = []
    seen: dict[Hex, int] = {}
    for i, lm in enumerate(_list(value, field)):
        f = f"{field}[{i}]"
        lm = _object(lm, f, ("q", "r", "kind", "facing"))
        h = parse_space(lm, f)
        kind = _one_of(lm.get("kind"), LANDMARK_KINDS, "landmark kind", f"{f}.kind")
        if h not in spaces:
            raise InvalidInput(f"landmark at ({h.q}, {h.r}) is not on an island space", f)
        if h in seen:
            raise InvalidInput(f"two landmarks on ({h.q}, {h.r}) (also landmarks[{seen[h]}])", f)
        seen[h] = i
        landmarks.append(Landmark(kind, h, _facing(kind, lm.get("facing"), f"{f}.facing")))
    return landmarks


def _facing(kind: str, facing: Any, field: str) -> int | None:
    """A landmark's facing: 0-5 for a statue, none for any other kind."""
    if kind != "statue":
        if facing is not None:
            raise InvalidInput(f"only statues have a facing, not a {kind}", field)
        return None
    if facing is None:
        raise InvalidInput("a statue needs a facing 0-5", field)
    facing = _int(facing, field)
    if not 0 <= facing <= 5:
        raise InvalidInput(f"facing must be 0-5, got {facing}", field)
    return facing


def island_to_json(island: Island) -> dict:
    """The public JSON form of an island (see ``Island.to_json``)."""
    return island.to_json()
