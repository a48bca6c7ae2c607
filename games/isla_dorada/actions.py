"""Isla Dorada's action types, each declared once (``games.actions``): the base checks an action's
shape against its declaration before the phase's function judges it by the rules.

Cards are named by their ids (``"a12"``: an adventure card, ``"t5"``/``"s2"``/``"c1"``/``"d7"``:
goal cards), routes by ``"r7"``, places by their ids; a declared field holds the card's, route's
or place's index in ``games.isla_dorada.tables``. Setup ``setup``; the auction ``bid`` (a spoken
number), ``pass``, ``juju``, and the winner's ``pay`` (``games.isla_dorada.auction``); moving ``detour``, ``continue``, ``stop``; the treasure
phase ``treasures``; cable news ``news`` (``games.isla_dorada.rounds``); drawing ``take``,
``buy``, ``done``; lightning ``bigfoot``, ``leviathan``, ``thief``, ``voodoo``; the hand limit
``discard`` (``games.isla_dorada.drawing``). Whether a card is in the hand, a route open, a bid
high enough, is the rules' to judge; a card named twice in one action is a malformed action.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.actions import ActionType, Named, Number, OneOf, bare, refuse
from games.isla_dorada import tables as T


def _card(ids: tuple[str, ...], what: str, pattern: str) -> Named:
    """A card named by its id (one of ``ids``): its index, or ``isla_no_such_card``."""
    return Named({x: i for i, x in enumerate(ids)}, "isla_no_such_card", what, pattern=pattern)


#: An adventure card, by its id (``"a12"``).
AdventureCard = Annotated[int, _card(T.ADV_ID, "adventure card", r"^a[0-9]+$")]
#: A goal card (treasure, curse or destiny card), by its id (``"t5"``).
GoalCard = Annotated[int, _card(T.GOAL_ID, "goal card", r"^[stcd][0-9]+$")]
Route = Annotated[int, Named(T.ROUTE_INDEX, "isla_no_such_route", "route", pattern=r"^r[0-9]+$")]
Location = Annotated[int, Named(T.LOC_INDEX, "isla_no_such_location", "location")]
ShamanKind = Annotated[str, OneOf(tuple(T.SHAMAN_KINDS), "isla_shaman_kinds", "Shaman kind")]
#: The highest bid anyone can speak: what the whole adventure deck pays (no hand pays more).
MAX_BID = sum(T.ADV_VALUE)
#: A bid's value, 0 to ``MAX_BID``.
BidValue = Annotated[int, Field(ge=0, le=MAX_BID)]


def _once(cards: Iterable[tuple[str, int]], at: str) -> None:
    """Refuse a card (deck, index) named twice in one action."""
    seen: set[tuple[str, int]] = set()
    for deck, card in cards:
        if (deck, card) in seen:
            cid = T.ADV_ID[card] if deck == "a" else T.GOAL_ID[card]
            refuse("isla_card_twice", f"card {cid} is named twice", at=at, card=cid)
        seen.add((deck, card))


class _Part(BaseModel):
    """A part of an action (a Shaman conversion, a treasure play): strict and closed."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=False)


class Shaman(_Part):
    """``{"card": id, "from": kind, "to": kind}``: every card of kind ``from`` counts as ``to``."""

    card: AdventureCard
    source: ShamanKind = Field(alias="from")
    into: ShamanKind = Field(alias="to")

    @model_validator(mode="after")
    def _two_kinds(self) -> Shaman:
        if self.source == self.into:
            refuse(
                "isla_shaman_kinds",
                "a Shaman turns Yak, Kamel or Gonogo cards into another of those kinds",
            )
        return self


class Bid(ActionType):
    """A spoken bid: a ``route`` out of the expedition's place or a ``flight`` to a place (one
    of them) and its ``value``; the special cards shown with it (``shaman`` with its conversion,
    ``ovetos``, ``sangaia``) are face up. The cards that would pay it are not named: only the
    winner plays its cards (``Pay``)."""

    type: Literal["bid"]
    route: Route | None = None
    flight: Location | None = None
    value: BidValue
    shaman: Shaman | None = None
    ovetos: AdventureCard | None = None
    sangaia: AdventureCard | None = None

    @model_validator(mode="after")
    def _one_target_each_card_once(self) -> Bid:
        if (self.route is None) == (self.flight is None):
            refuse(
                "isla_bid_target",
                "a bid names a 'route' or a 'flight' destination (one of them)",
                at="route",
            )
        shown = [self.shaman.card] if self.shaman is not None else []
        shown += [c for c in (self.ovetos, self.sangaia) if c is not None]
        _once((("a", c) for c in shown), "ovetos")
        return self


class Pay(ActionType):
    """The auction's winner plays the cards that pay its bid."""

    type: Literal["pay"]
    cards: list[AdventureCard]

    @model_validator(mode="after")
    def _each_card_once(self) -> Pay:
        _once((("a", c) for c in self.cards), "cards")
        return self


class Juju(ActionType):
    """``{"type": "juju", "card": id, "target": seat}``: bar ``target`` from this auction."""

    type: Literal["juju"]
    card: AdventureCard
    target: Number


class Setup(ActionType):
    """The setup choice: the starting treasure and the destiny card given up."""

    type: Literal["setup"]
    discard_treasure: GoalCard
    discard_destiny: GoalCard


class Detour(ActionType):
    """Sangaia's route on from the skipped destination."""

    type: Literal["detour"]
    route: Route


class TreasurePlay(_Part):
    """One treasure card played, with at most one bonus card and (next door) a Bongo card."""

    card: GoalCard
    bonus: AdventureCard | None = None
    bongo: AdventureCard | None = None


class Treasures(ActionType):
    """The treasure phase's secret choice: any number of plays (none too)."""

    type: Literal["treasures"]
    plays: list[TreasurePlay]

    @model_validator(mode="after")
    def _each_card_once(self) -> Treasures:
        named = [("g", p.card) for p in self.plays]
        named += [("a", c) for p in self.plays for c in (p.bonus, p.bongo) if c is not None]
        _once(named, "plays")
        return self


class News(ActionType):
    """The treasure cards kept of the cable news drawn."""

    type: Literal["news"]
    keep: list[GoalCard]


class _Draw(ActionType):
    """A face-up ``card`` or the top of the deck (``"deck": true``): one of them."""

    card: AdventureCard | None = None
    deck: Literal[True] | None = None

    @model_validator(mode="after")
    def _one_source(self) -> _Draw:
        if (self.card is None) == (self.deck is None):
            refuse("malformed_action", "take a face-up 'card' or {'deck': true}", at="deck")
        return self


class Take(_Draw):
    type: Literal["take"]


class Buy(_Draw):
    type: Literal["buy"]


class Bigfoot(ActionType):
    type: Literal["bigfoot"]
    route: Route


class Leviathan(ActionType):
    type: Literal["leviathan"]
    route: Route


class Thief(ActionType):
    type: Literal["thief"]
    target: Number


class Voodoo(ActionType):
    type: Literal["voodoo"]
    target: Number


class Discard(ActionType):
    """The cards a seat over the hand limit gives up."""

    type: Literal["discard"]
    cards: list[AdventureCard]


Pass = bare("pass")
Continue = bare("continue")
Stop = bare("stop")
Done = bare("done")
