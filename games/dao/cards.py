"""DAO's deck as tables, loaded once from ``data/cards.json``.

A card is an ``int`` id ``0..59``: ``element * 12 + k`` where ``k`` indexes the per-element value
list (``0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4``). Ids keep the physical cards apart (there are four
fire-1s), which lets tests check that all 60 cards are conserved. Engines and bots look values and
elements up in the tuples below instead of building objects: this is the hot path of simulation.

A card *type* is ``element * len(VALUES) + value index`` (25 types); counts of unseen cards are
kept per type because that is all the odds need.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from errors import InvalidInput

_DATA = json.loads((Path(__file__).parent / "data" / "cards.json").read_text(encoding="utf-8"))

#: Element names in table order (``metal, fire, earth, wood, water``).
ELEMENTS: tuple[str, ...] = tuple(e["name"] for e in _DATA["elements"])
#: Per element: name, Chinese name, symbol, colour (for pages).
ELEMENT_INFO: tuple[dict, ...] = tuple(dict(e) for e in _DATA["elements"])
ELEMENT_INDEX: dict[str, int] = {name: i for i, name in enumerate(ELEMENTS)}
#: The distinct card values, ascending, and how many cards of each value one element has.
VALUES: tuple[int, ...] = tuple(v["value"] for v in _DATA["values"])
VALUE_COUNTS: tuple[int, ...] = tuple(v["count"] for v in _DATA["values"])
VALUE_INDEX: dict[int, int] = {v: i for i, v in enumerate(VALUES)}
#: Cards turned face up to fill an empty display, and the total the display may reach safely.
DISPLAY_SIZE: int = int(_DATA["display_size"])
BUST_ABOVE: int = int(_DATA["bust_above"])

_PER_ELEMENT: tuple[int, ...] = tuple(
    v for v, n in zip(VALUES, VALUE_COUNTS, strict=True) for _ in range(n)
)
PER_ELEMENT: int = len(_PER_ELEMENT)
CARD_COUNT: int = PER_ELEMENT * len(ELEMENTS)
TYPE_COUNT: int = len(ELEMENTS) * len(VALUES)

#: Per card id: element index, value, type index.
CARD_ELEMENT: tuple[int, ...] = tuple(c // PER_ELEMENT for c in range(CARD_COUNT))
CARD_VALUE: tuple[int, ...] = tuple(_PER_ELEMENT[c % PER_ELEMENT] for c in range(CARD_COUNT))
CARD_TYPE: tuple[int, ...] = tuple(
    CARD_ELEMENT[c] * len(VALUES) + VALUE_INDEX[CARD_VALUE[c]] for c in range(CARD_COUNT)
)
#: Per card id: its element's name (for building JSON quickly).
CARD_ELEMENT_NAME: tuple[str, ...] = tuple(ELEMENTS[e] for e in CARD_ELEMENT)
#: Per type index: element index and value.
TYPE_ELEMENT: tuple[int, ...] = tuple(t // len(VALUES) for t in range(TYPE_COUNT))
TYPE_VALUE: tuple[int, ...] = tuple(VALUES[t % len(VALUES)] for t in range(TYPE_COUNT))
#: The count of every type in a full deck.
FULL_TYPE_COUNTS: tuple[int, ...] = tuple(VALUE_COUNTS[t % len(VALUES)] for t in range(TYPE_COUNT))


def card_json(card: int) -> dict[str, Any]:
    """The public JSON form of a card: ``{"element": "fire", "value": 3}``."""
    return {"element": CARD_ELEMENT_NAME[card], "value": CARD_VALUE[card]}


def card_text(card: int) -> str:
    """Short text form, e.g. ``fire3`` (used in tests and messages)."""
    return f"{ELEMENTS[CARD_ELEMENT[card]]}{CARD_VALUE[card]}"


def parse_card(obj: Any, field: str = "card") -> tuple[int, int]:
    """``(element index, value)`` from ``{"element", "value"}`` or text like ``"fire3"``."""
    if isinstance(obj, str):
        name, digits = obj.rstrip("0123456789"), obj[len(obj.rstrip("0123456789")) :]
        if not digits:
            raise InvalidInput(f"card {obj!r} has no value (expected e.g. 'fire3')", field)
        obj = {"element": name, "value": int(digits)}
    if not isinstance(obj, dict):
        raise InvalidInput(f"a card is an object or text like 'fire3', got {obj!r}", field)
    element, value = obj.get("element"), obj.get("value")
    if element not in ELEMENT_INDEX:
        raise InvalidInput(f"unknown element {element!r} (known: {', '.join(ELEMENTS)})", field)
    if isinstance(value, bool) or value not in VALUE_INDEX:
        raise InvalidInput(f"card value must be one of {list(VALUES)}, got {value!r}", field)
    return ELEMENT_INDEX[element], value


def type_of(element: int, value: int) -> int:
    """The type index of ``(element index, value)``."""
    return element * len(VALUES) + VALUE_INDEX[value]


def ids_of_type(element: int, value: int) -> list[int]:
    """Every card id with this element and value (e.g. the four fire-1s)."""
    return [
        c
        for c in range(element * PER_ELEMENT, (element + 1) * PER_ELEMENT)
        if CARD_VALUE[c] == value
    ]


def pile_gains(cards: list[int]) -> list[int]:
    """Per element: the sum of that element's values plus its card count (see ``pile_score``)."""
    g = [0] * len(ELEMENTS)
    for c in cards:
        g[CARD_ELEMENT[c]] += CARD_VALUE[c] + 1
    return g


def element_scores(cards: list[int]) -> list[int]:
    """Per element: the score if that element is the chosen one.

    Choosing element ``e`` scores the sum of ``e``'s values minus 1 per card of another element,
    i.e. ``sum_e + count_e - len(cards)``: every card of ``e`` is worth its value plus one, every
    other card nothing, and the pile size is subtracted once.
    """
    n = len(cards)
    return [g - n for g in pile_gains(cards)]


def pile_score(cards: list[int]) -> int:
    """The pile's score with the best element chosen (0 for an empty pile)."""
    return max(element_scores(cards))


def best_element(cards: list[int]) -> int:
    """Index of the best-scoring element (the first in table order on a tie)."""
    s = element_scores(cards)
    return s.index(max(s))
