"""Dragon's Gold tables, loaded once from ``data/*.json``, and the token arithmetic.

- ``data/components.json``: hunters and their attack, the 126 tokens by colour, the row size, the
  market card's place in the deck, both scoring tables.
- ``data/dragons.json``: the project's 18 dragons (strength, visible and hidden treasure counts).
- ``data/items.json``: the project's 24 magic item cards (advanced rules) and their effects.

Tokens are counted per colour in plain dicts with every colour present (``full``); API input may
leave colours out (``parse_tokens``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from errors import InvalidInput

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


_COMPONENTS = _load("components.json")
_DRAGONS = _load("dragons.json")["dragons"]
_ITEMS = _load("items.json")["items"]

#: Hunter names in stack order of strength, and their attack values.
HUNTERS: tuple[str, ...] = tuple(h["hunter"] for h in _COMPONENTS["hunters"])
ATTACK: dict[str, int] = {h["hunter"]: int(h["attack"]) for h in _COMPONENTS["hunters"]}
#: Token colours in the order every view lists them, and how many of each the bag holds.
COLOURS: tuple[str, ...] = tuple(_COMPONENTS["tokens"])
TOKEN_COUNTS: dict[str, int] = {c: int(n) for c, n in _COMPONENTS["tokens"].items()}
#: The five gem colours (majorities, sets).
GEMS: tuple[str, ...] = tuple(_COMPONENTS["gems"])
ROW_SIZE: int = int(_COMPONENTS["row"])
#: The market card lies under this many dragons of the deck left once the starting row is out.
MARKET_AFTER: int = int(_COMPONENTS["market_after"])
#: The market card comes up when this many dragons in all have been revealed (the 11th).
MARKET_AT: int = ROW_SIZE + MARKET_AFTER
SWORD_BONUS: int = int(_COMPONENTS["sword_bonus"])
SCORING: dict[str, Any] = _COMPONENTS["scoring"]

#: Dragon id → its card: ``{"id", "strength", "visible", "hidden"}``.
DRAGONS: dict[int, dict[str, int]] = {
    int(d["id"]): {k: int(d[k]) for k in ("id", "strength", "visible", "hidden")} for d in _DRAGONS
}
#: Magic item kinds with their count, timing and effect text, in card order.
ITEM_KINDS: tuple[dict[str, Any], ...] = tuple(dict(i) for i in _ITEMS)
#: Card id (0..23) → item kind name.
ITEM_OF_CARD: tuple[str, ...] = tuple(i["item"] for i in _ITEMS for _ in range(int(i["count"])))


def empty() -> dict[str, int]:
    """No tokens: every colour at 0."""
    return dict.fromkeys(COLOURS, 0)


def full(tokens: dict[str, int]) -> dict[str, int]:
    """A copy of ``tokens`` with every colour present, in ``COLOURS`` order."""
    return {c: tokens.get(c, 0) for c in COLOURS}


def sparse(tokens: dict[str, int]) -> dict[str, int]:
    """Only the colours present (the form actions are written in)."""
    return {c: n for c, n in tokens.items() if n}


def count(tokens: dict[str, int]) -> int:
    return sum(tokens.values())


def add(into: dict[str, int], tokens: dict[str, int]) -> None:
    """``into += tokens``, colour by colour."""
    for c, n in tokens.items():
        into[c] += n


def take(outof: dict[str, int], tokens: dict[str, int]) -> None:
    """``outof -= tokens`` (the caller checked that ``outof`` holds them)."""
    for c, n in tokens.items():
        outof[c] -= n


def holds(hoard: dict[str, int], tokens: dict[str, int]) -> bool:
    return all(hoard[c] >= n for c, n in tokens.items())


def parse_tokens(value: Any, field: str) -> dict[str, int]:
    """``{colour: n}`` with known colours and whole counts from 0 to the game's tokens of that
    colour (``TOKEN_COUNTS``); missing colours count 0."""
    if not isinstance(value, dict):
        raise InvalidInput(
            f"tokens are an object {{colour: count}}, got {value!r}",
            field,
            reason="dg_bad_tokens",
            params={"colours": list(COLOURS)},
        )
    out = empty()
    for colour, n in value.items():
        if colour not in out:
            raise InvalidInput(
                f"unknown colour {colour!r} (known: {', '.join(COLOURS)})",
                f"{field}.{colour}",
                reason="dg_unknown_colour",
                params={"colour": str(colour), "colours": list(COLOURS)},
            )
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidInput(
                f"a token count is a whole number of 0 or more, got {n!r}",
                f"{field}.{colour}",
                reason="dg_bad_tokens",
                params={"colours": list(COLOURS)},
            )
        if n > TOKEN_COUNTS[colour]:
            raise InvalidInput(
                f"the game has {TOKEN_COUNTS[colour]} {colour} tokens, not {n}",
                f"{field}.{colour}",
                reason="number_too_large",
                params={"name": colour, "limit": TOKEN_COUNTS[colour]},
            )
        out[colour] = n
    return out
