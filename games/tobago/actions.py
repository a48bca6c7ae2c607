"""Tobago's action types, each declared once (``games.actions``): the base checks an action's
shape against its declaration before the phase's function sees it.

Setup: ``place_atv`` (``at``: a space), ``first_clue`` (``map``). A turn (``games.tobago.turn``):
``play_clue`` (``card``, ``map``), ``extra_marker`` (``map``, ``clue``: its index in the
column), ``exchange``, ``drive`` (``to``), ``pick_amulet``, ``spend_amulet``, ``remove_marker``
(``map``, ``space``), ``raise`` (``map``), ``end_turn``. A sharing (``games.tobago.sharing``):
``accept``, ``decline``. A space is ``[q, r]`` (or ``{"q": q, "r": r}``); a map is its colour.
Whether a space is on the island, a card in the hand, a play legal, is the rules' to judge.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from games.actions import ActionType, Named, Parsed, bare
from games.tobago.rules import MAP_INDEX
from hexmap.hexes import Hex
from hexmap.island_json import MAX_COORDINATE, parse_space
from solver.deck import DECK_SIZE

#: A treasure map, named by its colour; its index in ``state.maps``.
MapIndex = Annotated[int, Named(MAP_INDEX, "unknown_map", "treasure map")]
#: A clue card, by its number in the deck (``solver.deck``).
Card = Annotated[int, Field(ge=0, le=DECK_SIZE - 1)]
#: A clue's place in a map's column, which never holds more cards than the deck.
ColumnIndex = Annotated[int, Field(ge=0, le=DECK_SIZE - 1)]
#: A coordinate of a space (``hexmap.island_json.MAX_COORDINATE``).
_COORDINATE = {"type": "integer", "minimum": -MAX_COORDINATE, "maximum": MAX_COORDINATE}
#: A space ``[q, r]``, as a ``Hex``.
Space = Annotated[
    Hex,
    Parsed(
        lambda value: parse_space(value, ""),
        {"type": "array", "items": _COORDINATE, "minItems": 2, "maxItems": 2},
    ),
]


class PlaceAtv(ActionType):
    type: Literal["place_atv"]
    at: Space


class FirstClue(ActionType):
    type: Literal["first_clue"]
    map: MapIndex


class PlayClue(ActionType):
    type: Literal["play_clue"]
    card: Card
    map: MapIndex


class ExtraMarker(ActionType):
    type: Literal["extra_marker"]
    map: MapIndex
    clue: ColumnIndex


class Drive(ActionType):
    type: Literal["drive"]
    to: Space


class RemoveMarker(ActionType):
    type: Literal["remove_marker"]
    map: MapIndex
    space: Space


class Raise(ActionType):
    type: Literal["raise"]
    map: MapIndex


Exchange = bare("exchange")
PickAmulet = bare("pick_amulet")
SpendAmulet = bare("spend_amulet")
EndTurn = bare("end_turn")
Accept = bare("accept")
Decline = bare("decline")
