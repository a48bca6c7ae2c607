"""The market: when its card comes up, every player trades freely until its timer runs out.

The market card lies between the 7th and 8th dragon of the deck left once the 4 starting dragons
are revealed, so it comes up with the 11th dragon revealed in all: the market opens once the
refill that revealed it is complete (phase ``"market"``, timed by option ``market_seconds``),
then leaves the game. Actions of every player still in the market (declared in ``games.dragons_gold.actions``):

- ``{"type": "offer", "to": s, "give": {colour: n}, "get": {colour: n}}``: a trade with player
  ``s`` (I give ``give``, they give ``get``; one side may be empty: a gift or a request). Making
  it is my acceptance; it replaces my previous open offer. Offers are public (a trade at the
  table is).
- ``{"type": "accept", "offer": id}`` (the offer's receiver, holding ``get``): the tokens change
  hands; an offer its maker can no longer honour after a trade is void (dropped).
  ``{"type": "reject", "offer": id}`` drops it (the market keeps it among the refused offers,
  public like the offer); ``{"type": "withdraw"}`` drops my own.
- ``{"type": "show"}``: my hoard is shown to everyone until the market closes (the rules let
  players show their hoard or not, as they like).
- ``{"type": "done"}``: I leave the market (my offer and the offers to me are dropped).
  **Decision:** the market closes early when every player is done, so a table never waits for the
  clock when nobody wants to trade.

The table's ``{"type": "timeout"}`` closes it (``close``); then the seat left of the last slaying
player plays.
"""

from __future__ import annotations

from typing import Any

from errors import IllegalAction, InvalidInput
from games.base import Action, Event
from games.dragons_gold.actions import AcceptOffer, Offer, RejectOffer
from games.dragons_gold.data import COLOURS, add, count, holds, take
from games.dragons_gold.table import FIGHT, DragonsGoldState, Market
from games.dragons_gold.table import Offer as OfferRecord
from games.order import TurnOrder, simultaneous
from games.state import enter

State = DragonsGoldState


def open_market(state: State, next_seat: int, events: list[Event]) -> None:
    enter(state, "market")
    MARKET.start(state)
    state.market_card = "open"
    state.market = Market(offers=[], then=next_seat)
    events.append({"type": "market_opened", "seconds": state.options["market_seconds"]})


def to_act(state: State) -> list[int]:
    done = state.open_market().done
    return [s for s in range(state.seats) if s not in done]


#: The market's turn order: every seat that has not left it acts at once (``games.order``).
MARKET: TurnOrder[State] = simultaneous(to_act)


def close(state: State, events: list[Event]) -> None:
    """The market closes (its timeout, or every player left): the seat left of the last
    slaying player plays (the fight's ``begin``)."""
    then = state.open_market().then
    state.market = None
    state.market_card = "gone"
    events.append({"type": "market_closed"})
    FIGHT.start(state, then)
    enter(state, "fight")


def _offer_of(state: State, number: int) -> OfferRecord:
    for offer in state.open_market().offers:
        if offer["id"] == number:
            return offer
    raise IllegalAction(
        f"there is no open offer {number!r}",
        "action.offer",
        reason="dg_no_such_offer",
        params={"offer": number},
    )


def offer(state: State, seat: int, action: Offer, events: list[Event]) -> None:
    """A trade offered to another player still in the market (it replaces my open one)."""
    mk = state.open_market()
    to, give, get = action.to, dict(action.give), dict(action.get)
    if to == seat or not to < state.seats or to in mk.done:
        raise IllegalAction(
            f"offers go to another player still in the market, not {to!r}",
            "action.to",
            reason="dg_bad_trade_partner",
        )
    if count(give) + count(get) == 0:
        raise InvalidInput("an offer must move some tokens", "action", reason="dg_empty_offer")
    if not holds(state.hoards[seat], give):
        raise IllegalAction(
            "you do not hold the tokens you offer", "action.give", reason="dg_tokens_not_held"
        )
    mk.offers = [o for o in mk.offers if o["from"] != seat]
    made: OfferRecord = {"id": mk.next, "from": seat, "to": to, "give": give, "get": get}
    mk.next += 1
    mk.made[str(seat)] = mk.made.get(str(seat), 0) + 1
    mk.offers.append(made)
    events.append({"type": "offer", **made})


def answer(state: State, seat: int, action: AcceptOffer | RejectOffer, events: list[Event]) -> None:
    """The receiver accepts an offer (the tokens change hands) or rejects it."""
    mk = state.open_market()
    made = _offer_of(state, action.offer)
    accept = action.type == "accept"
    if made["to"] != seat:
        raise IllegalAction(
            "this offer is not made to you", "action.offer", reason="dg_not_your_offer"
        )
    if accept and not (
        holds(state.hoards[seat], made["get"]) and holds(state.hoards[made["from"]], made["give"])
    ):
        raise IllegalAction(
            "one side no longer holds the tokens of this trade",
            "action.offer",
            reason="dg_offer_unfulfillable",
        )
    mk.offers.remove(made)
    if accept:
        mine, theirs = state.hoards[seat], state.hoards[made["from"]]
        take(theirs, made["give"])
        add(mine, made["give"])
        take(mine, made["get"])
        add(theirs, made["get"])
        state.stats["trades"] += 1
    else:
        mk.refused.append(made)
    events.append({"type": "trade" if accept else "offer_rejected", **made})
    if accept:  # an offer its maker can no longer honour is void
        for o in list(mk.offers):
            if not holds(state.hoards[o["from"]], o["give"]):
                mk.offers.remove(o)
                events.append({"type": "offer_void", "id": o["id"], "seat": o["from"]})


def withdraw(state: State, seat: int, action: Any, events: list[Event]) -> None:
    mk = state.open_market()
    mine = [o for o in mk.offers if o["from"] == seat]
    if not mine:
        raise IllegalAction("you have no open offer", "action.type", reason="dg_no_offer")
    mk.offers.remove(mine[0])
    events.append({"type": "offer_withdrawn", "seat": seat, "id": mine[0]["id"]})


def show(state: State, seat: int, action: Any, events: list[Event]) -> None:
    mk = state.open_market()
    if seat in mk.shown:
        raise IllegalAction("your hoard is shown already", "action.type", reason="dg_shown")
    mk.shown.append(seat)
    events.append({"type": "hoard_shown", "seat": seat})


def done(state: State, seat: int, action: Any, events: list[Event]) -> None:
    """I leave the market; it closes when every player has left."""
    mk = state.open_market()
    mk.done.append(seat)
    mk.offers = [o for o in mk.offers if seat not in (o["from"], o["to"])]
    events.append({"type": "left_market", "seat": seat})
    if len(mk.done) == state.seats:
        close(state, events)


def legal(state: State, seat: int) -> list[Action]:
    """Representative offers (to each player still in: a gift of one token of my most plentiful
    colour, and that token for a gold, or a gold for three silver), every answer to offers made to
    me, withdraw, show, done. ``apply`` accepts any offer."""
    mk = state.open_market()
    hoard = state.hoards[seat]
    out: list[Action] = []
    if count(hoard):
        most = max(COLOURS, key=lambda c: (hoard[c], -COLOURS.index(c)))
        swap = {"silver": 3} if most == "gold" else {"gold": 1}
        for t in range(state.seats):
            if t != seat and t not in mk.done:
                out.append({"type": "offer", "to": t, "give": {most: 1}, "get": {}})
                out.append({"type": "offer", "to": t, "give": {most: 1}, "get": dict(swap)})
    for made in mk.offers:
        if made["to"] == seat:
            if holds(hoard, made["get"]):
                out.append({"type": "accept", "offer": made["id"]})
            out.append({"type": "reject", "offer": made["id"]})
    if any(o["from"] == seat for o in mk.offers):
        out.append({"type": "withdraw"})
    if seat not in mk.shown:
        out.append({"type": "show"})
    out.append({"type": "done"})
    return out
