"""Dragon's Gold's action types, each declared once (``games.actions``): the base checks an
action's shape against its declaration before the phase's function judges it by the rules.

The fight (``games.dragons_gold.fight``): ``play`` (``hunter``, ``dragon``, ``card``: a Sword),
``use`` (``card`` and the field its item takes: ``seat``, ``dragons`` or ``hunter``). A slain
dragon's settlement (``games.dragons_gold.settle``): ``propose`` (``shares``), ``accept`` /
``reject`` (``proposal``), ``divide`` (``lots``), ``pick`` (``lot``), ``steal`` (``from``),
``take`` (``colour``), ``decline`` (a thief takes nothing). The market (``games.dragons_gold.market``): ``offer`` (``to``, ``give``,
``get``), ``accept`` / ``reject`` (``offer``), ``withdraw``, ``show``, ``done``. Tokens are
``{colour: n}`` (colours left out count 0); seats, positions, cards and numbers are integers.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from games.actions import ActionType, Number, OneOf, Parsed, bare, refuse
from games.dragons_gold.data import COLOURS, HUNTERS, ITEM_OF_CARD, TOKEN_COUNTS, parse_tokens

#: Tokens by colour (every colour present once read).
Tokens = Annotated[
    dict[str, int],
    Parsed(
        lambda value: parse_tokens(value, ""),
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                c: {"type": "integer", "minimum": 0, "maximum": TOKEN_COUNTS[c]} for c in COLOURS
            },
        },
    ),
]
HunterName = Annotated[str, OneOf(HUNTERS, "dg_no_such_hunter", "hunter")]
Colour = Annotated[str, OneOf(COLOURS, "dg_unknown_colour", "colour")]
#: The field each usable magic item takes besides ``card`` (the Map takes none).
USE_FIELD = {"crystal_ball": "seat", "wind": "dragons", "horn": "hunter", "map": None}


class Play(ActionType):
    """A face-up hunter of mine under the ``dragon``-th dragon of the row (a Sword: ``card``)."""

    type: Literal["play"]
    hunter: HunterName
    dragon: Number
    card: Number | None = None


class Use(ActionType):
    """A magic item used on my turn; the item is the card's (``data.ITEM_OF_CARD``)."""

    type: Literal["use"]
    card: Number
    seat: Number | None = None
    dragons: Annotated[list[Number], Field(min_length=2, max_length=2)] | None = None
    hunter: HunterName | None = None

    @model_validator(mode="after")
    def _the_items_field(self) -> Use:
        if self.card >= len(ITEM_OF_CARD):
            refuse("dg_bad_card", f"no magic item card {self.card}", at="card")
        takes = USE_FIELD.get(ITEM_OF_CARD[self.card])
        for name in ("seat", "dragons", "hunter"):
            if name != takes and getattr(self, name) is not None:
                refuse(
                    "unknown_field",
                    f"a {ITEM_OF_CARD[self.card]} takes no {name!r}",
                    at=name,
                    name=name,
                    action="use",
                )
        return self


class Propose(ActionType):
    """A complete split: participant (seat number as text) → tokens."""

    type: Literal["propose"]
    shares: dict[str, Tokens]


class AcceptProposal(ActionType):
    type: Literal["accept"]
    proposal: Number


class RejectProposal(ActionType):
    type: Literal["reject"]
    proposal: Number


class Divide(ActionType):
    """The divider's lots, one per participant."""

    type: Literal["divide"]
    lots: list[Tokens]


class Pick(ActionType):
    type: Literal["pick"]
    lot: Number


class Steal(ActionType):
    type: Literal["steal"]
    victim: Number = Field(alias="from")


class TakeColour(ActionType):
    """A wizard-and-thief's pick behind the victim's screen."""

    type: Literal["take"]
    colour: Colour


class Offer(ActionType):
    """A trade offered to ``to``: I give ``give``, they give ``get`` (one side may be empty)."""

    type: Literal["offer"]
    to: Number
    give: Tokens = Field(default_factory=dict, validate_default=True)
    get: Tokens = Field(default_factory=dict, validate_default=True)


class AcceptOffer(ActionType):
    type: Literal["accept"]
    offer: Number


class RejectOffer(ActionType):
    type: Literal["reject"]
    offer: Number


Decline = bare("decline")
Withdraw = bare("withdraw")
Show = bare("show")
Done = bare("done")
