"""Clues (rules §2): the value, its text notation, its JSON form and its sentences.

A clue says where a treasure is: ``in`` a terrain (or the largest region of one), or ``near``
(within 1 or 2 spaces of) a terrain, the largest region of a terrain, the sea or a landmark kind;
any of these may be negated. Two public forms, both accepted wherever a clue is:

- notation: ``[!]in:[largest:]TERRAIN`` and ``[!]near1:[largest:]TARGET`` /
  ``[!]near2:[largest:]TARGET`` (``in:jungle``, ``!near2:sea``, ``near1:largest:grassland``);
- JSON: ``{"relation": "near", "target": "hut", "distance": 2, "largest": false,
  "negated": true}`` (``largest`` and ``negated`` default to false; no ``distance`` on ``in``).

``parse_clue`` and ``format_clue`` are a round-trip pair. Every refusal is an ``InvalidInput``
naming the field (and, for notation, the position in the text). ``describe_clue`` words a clue
in English or Traditional Chinese from the message catalogues (``i18n/<lang>/solver.json``).

Each ``Clue`` carries a small integer ``code`` (unique per clue, 0 ≤ code < ``CLUE_CODES``) so
that the engine can keep compiled masks in a flat list and look them up without hashing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import i18n
from errors import InvalidInput
from hexmap.terrain import LANDMARK_KINDS, SEA, TERRAINS

RELATIONS: tuple[str, ...] = ("in", "near")
#: Every target in a fixed order: the six terrains, the sea, the landmark kinds.
TARGETS: tuple[str, ...] = (*TERRAINS, SEA, *LANDMARK_KINDS)
_TARGET_INDEX = {t: i for i, t in enumerate(TARGETS)}
_TERRAIN_SET = frozenset(TERRAINS)
#: Number of distinct clue codes (relation/distance 3 × targets × largest 2 × negated 2).
CLUE_CODES = 3 * len(TARGETS) * 4

#: The keys of a clue's JSON object form (``Clue.to_json``, ``parse_clue``).
_CLUE_KEYS = ("relation", "target", "distance", "largest", "negated")


@dataclass(frozen=True, slots=True)
class Clue:
    """One clue. Build it with ``parse_clue`` (validated) or directly (validated too)."""

    relation: str  # "in" | "near"
    target: str  # a terrain, "sea", or a landmark kind
    distance: int | None  # 1 or 2 for "near"; None for "in"
    largest: bool = False
    negated: bool = False
    #: Dense integer key used by the engine's mask tables (not part of equality).
    code: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        problem = _problem(self.relation, self.target, self.distance, self.largest)
        if problem is not None:
            raise InvalidInput(problem[1], problem[0] or None)
        if not isinstance(self.negated, bool):
            raise InvalidInput("negated must be true or false", "negated")
        d = 0 if self.relation == "in" or self.distance is None else self.distance
        code = ((d * len(TARGETS) + _TARGET_INDEX[self.target]) * 2 + self.largest) * 2
        object.__setattr__(self, "code", code + self.negated)

    def to_json(self) -> dict[str, Any]:
        """The JSON object form (every key of ``_CLUE_KEYS`` present, the keys ``parse_clue``
        reads back; ``distance`` is None for ``in``)."""
        return {key: getattr(self, key) for key in _CLUE_KEYS}

    @property
    def notation(self) -> str:
        """The text notation, e.g. ``!near2:sea``."""
        return format_clue(self)

    def __str__(self) -> str:
        return format_clue(self)


def _problem(relation: Any, target: Any, distance: Any, largest: Any) -> tuple[str, str] | None:
    """What is wrong with these clue fields, as ``(field key, message)``; None when valid."""
    if relation not in RELATIONS:
        return "relation", f"unknown relation {relation!r}; expected 'in' or 'near'"
    if not isinstance(target, str) or target not in _TARGET_INDEX:
        return "target", f"unknown target {target!r}; expected one of {', '.join(TARGETS)}"
    if not isinstance(largest, bool):
        return "largest", "largest must be true or false"
    if relation == "in":
        if distance is not None:
            return "distance", "an 'in' clue takes no distance"
        if target not in _TERRAIN_SET:
            return "target", f"'in' needs a terrain target, not {target!r}"
    else:
        if type(distance) is not int or distance not in (1, 2):
            return "distance", f"a 'near' clue needs distance 1 or 2, got {distance!r}"
    if largest and target not in _TERRAIN_SET:
        return "largest", f"'largest' goes only with a terrain target, not {target!r}"
    return None


# --- notation ------------------------------------------------------------------------------


def format_clue(clue: Clue) -> str:
    """The notation of ``clue``: ``[!]in:[largest:]T`` or ``[!]near{1,2}:[largest:]T``."""
    head = "in" if clue.relation == "in" else f"near{clue.distance}"
    return f"{'!' if clue.negated else ''}{head}:{'largest:' if clue.largest else ''}{clue.target}"


def _parse_notation(text: str, field: str) -> Clue:
    def fail(pos: int, why: str) -> InvalidInput:
        return InvalidInput(f"bad clue {text!r} at position {pos}: {why}", field)

    pos = 0
    negated = text.startswith("!")
    if negated:
        pos = 1
    parts = text[pos:].split(":")
    head = parts[0]
    if head == "in":
        relation, distance = "in", None
    elif head in ("near1", "near2"):
        relation, distance = "near", int(head[4])
    elif head.startswith("near"):
        raise fail(pos + 4, f"distance must be 1 or 2, got {head[4:]!r}")
    else:
        raise fail(pos, f"expected 'in', 'near1' or 'near2', got {head!r}")
    pos += len(head) + 1
    if len(parts) < 2:
        raise fail(pos - 1, "missing ':' and target")
    largest = parts[1] == "largest"
    if largest:
        if len(parts) < 3:
            raise fail(pos + len("largest"), "missing ':' and terrain after 'largest'")
        pos += len("largest") + 1
    rest = parts[2:] if largest else parts[1:]
    if len(rest) != 1:
        raise fail(pos + len(rest[0]), "unexpected ':' after the target")
    target = rest[0]
    if target not in _TARGET_INDEX:
        raise fail(pos, f"unknown target {target!r}; expected one of {', '.join(TARGETS)}")
    problem = _problem(relation, target, distance, largest)
    if problem is not None:
        raise fail(pos, problem[1])
    return Clue(relation, target, distance, largest, negated)


def _parse_object(value: dict, field: str) -> Clue:
    for key in value:
        if key not in _CLUE_KEYS:
            raise InvalidInput(f"unknown clue field {key!r}", f"{field}.{key}")
    for key in ("relation", "target"):
        if key not in value:
            raise InvalidInput(f"missing clue field {key!r}", f"{field}.{key}")
    relation = value["relation"]
    if relation == "near" and value.get("distance") is None:
        raise InvalidInput("a 'near' clue needs distance 1 or 2", f"{field}.distance")
    largest = value.get("largest", False)
    negated = value.get("negated", False)
    problem = _problem(relation, value["target"], value.get("distance"), largest)
    if problem is not None:
        raise InvalidInput(problem[1], f"{field}.{problem[0]}")
    if not isinstance(negated, bool):
        raise InvalidInput("negated must be true or false", f"{field}.negated")
    return Clue(relation, value["target"], value.get("distance"), largest, negated)


_NOTATION_CACHE: dict[str, Clue] = {}


def parse_clues(values: list | tuple, field: str = "clues") -> tuple[Clue, ...]:
    """A list of clues (``field[k]`` names the bad one). Notations seen before are looked up in
    one C-level pass; anything else goes through ``parse_clue``."""
    try:
        found = tuple(map(_NOTATION_CACHE.get, values))
    except TypeError:  # an unhashable value (an object form): take the slow path
        found = ()
    if len(found) == len(values) and all(found):
        return found  # type: ignore[return-value]  # all() ruled out None
    return tuple(parse_clue(c, f"{field}[{k}]") for k, c in enumerate(values))


def parse_clue(value: str | dict | Clue, field: str = "clue") -> Clue:
    """A clue from its notation or its JSON object; ``InvalidInput`` naming ``field`` if bad."""
    if isinstance(value, str):
        clue = _NOTATION_CACHE.get(value)
        if clue is None:
            clue = _parse_notation(value, field)
            if len(_NOTATION_CACHE) < 4096:
                _NOTATION_CACHE[value] = clue
        return clue
    if isinstance(value, dict):
        return _parse_object(value, field)
    if isinstance(value, Clue):
        return value
    raise InvalidInput(
        f"a clue is a notation string or an object, got {type(value).__name__}", field
    )


def all_clues() -> list[Clue]:
    """Every valid clue (each relation, distance, target, largest and negation), in code order."""
    out = []
    for d in (None, 1, 2):
        for target in TARGETS:
            for largest in (False, True):
                for negated in (False, True):
                    relation = "in" if d is None else "near"
                    if _problem(relation, target, d, largest) is None:
                        out.append(Clue(relation, target, d, largest, negated))
    return out


# --- sentences ---------------------------------------------------------------------------

#: Languages the sentences are written in (English, Traditional Chinese).
LANGS: tuple[str, ...] = ("en", "zh")


#: Other tags ``describe_clue`` takes for a language.
_LANG_ALIASES = {"zh-Hant": "zh", "zh-TW": "zh"}


def check_lang(lang: str, field: str = "lang") -> str:
    """``lang`` if it is ``en`` or ``zh``, else ``InvalidInput`` naming ``field``."""
    if lang not in LANGS:
        raise InvalidInput(f"unknown language {lang!r}; expected 'en' or 'zh'", field)
    return lang


def describe_clue(clue: Clue, lang: str = "en") -> str:
    """A readable sentence for ``clue`` in English (``en``) or Traditional Chinese (``zh``).

    Composed from the catalogue phrases ``clue.*`` (``i18n/<lang>/solver.json``) and the terrain
    names ``terrain.*``: where a treasure is (``clue.in.jungle`` "in the jungle"), the largest
    region, or "within d of" a target, then ``clue.yes`` / ``clue.not``.
    """
    lang = check_lang(_LANG_ALIASES.get(lang, lang))
    tr = i18n.translate
    t = clue.target
    if clue.relation == "in":
        if clue.largest:
            text = tr(lang, "clue.in_largest", terrain=tr(lang, f"terrain.{t}"))
        else:
            text = tr(lang, f"clue.in.{t}")
    else:
        if clue.largest:
            what = tr(lang, "clue.target_largest", terrain=tr(lang, f"terrain.{t}"))
        else:
            what = tr(lang, f"clue.target.{t}")
        text = tr(lang, f"clue.within.{clue.distance}", target=what)
    sentence = tr(lang, "clue.not" if clue.negated else "clue.yes", text=text)
    return sentence[:1].upper() + sentence[1:]
