"""The market: when its card comes up, every player trades freely until its timer runs out.

The market card lies under the 7th dragon of the deck: it opens once the refill that revealed the
7th dragon is complete (phase ``"market"``, timed by option ``market_seconds``), then leaves the
game. Actions of every player still in the market:

- ``{"type": "offer", "to": s, "give": {colour: n}, "get": {colour: n}}``: a trade with player
  ``s`` (I give ``give``, they give ``get``; one side may be empty: a gift or a request). Making
  it is my acceptance; it replaces my previous open offer. Offers are public (a trade at the
  table is).
- ``{"type": "accept", "offer": id}`` (the offer's receiver, holding ``get``): the tokens change
  hands; an offer its maker can no longer honour after a trade is void (dropped).
  ``{"type": "reject", "offer": id}`` drops it; ``{"type": "withdraw"}`` drops my own.
- ``{"type": "show"}``: my hoard is shown to everyone until the market closes (the rules let
  players show their hoard or not, as they like).
- ``{"type": "done"}``: I leave the market (my offer and the offers to me are dropped).
  **Decision:** the market closes early when every player is done, so a table never waits for the
  clock when nobody wants to trade.

The table's ``{"type": "timeout"}`` closes it; then the seat left of the last slaying player plays.
"""

from __future__ import annotations

from typing import Any

from errors import IllegalAction, InvalidInput
from games.base import Action, Event
from games.dragons_gold import fight
from games.dragons_gold.data import COLOURS, add, count, holds, parse_tokens, take
from games.dragons_gold.table import State


def open_market(state: State, next_seat: int, events: list[Event]) -> None:
    state["phase"] = "market"
    state["turn"] = None
    state["market_card"] = "open"
    state["phase_since"] = state["moves"]
    state["market"] = {"offers": [], "next": 1, "done": [], "shown": [], "then": next_seat}
    events.append({"type": "market_opened", "seconds": state["options"]["market_seconds"]})


def to_act(state: State) -> list[int]:
    done = state["market"]["done"]
    return [s for s in range(state["seats"]) if s not in done]


def _close(state: State, events: list[Event]) -> None:
    then = state["market"]["then"]
    state["market"] = None
    state["market_card"] = "gone"
    events.append({"type": "market_closed"})
    fight.begin_turn(state, then, events)


def _offer_of(state: State, action: Action) -> dict[str, Any]:
    number = action.get("offer")
    for offer in state["market"]["offers"]:
        if offer["id"] == number and not isinstance(number, bool):
            return offer
    raise IllegalAction(
        f"there is no open offer {number!r}",
        "action.offer",
        reason="dg_no_such_offer",
        params={"offer": number if isinstance(number, int) else None},
    )


def play(state: State, seat: int | None, action: Action) -> list[Event]:
    """A market action of ``seat`` (``None``: the market's timeout)."""
    mk = state["market"]
    kind = action["type"]
    events: list[Event] = []
    if seat is None:
        state["moves"] += 1
        _close(state, events)
        return events
    if kind == "offer":
        to = action.get("to")
        if (
            isinstance(to, bool)
            or not isinstance(to, int)
            or to == seat
            or not 0 <= to < state["seats"]
            or to in mk["done"]
        ):
            raise IllegalAction(
                f"offers go to another player still in the market, not {to!r}",
                "action.to",
                reason="dg_bad_trade_partner",
            )
        give = parse_tokens(action.get("give", {}), "action.give")
        get = parse_tokens(action.get("get", {}), "action.get")
        if count(give) + count(get) == 0:
            raise InvalidInput("an offer must move some tokens", "action", reason="dg_empty_offer")
        if not holds(state["hoards"][seat], give):
            raise IllegalAction(
                "you do not hold the tokens you offer", "action.give", reason="dg_tokens_not_held"
            )
        state["moves"] += 1
        mk["offers"] = [o for o in mk["offers"] if o["from"] != seat]
        offer = {"id": mk["next"], "from": seat, "to": to, "give": give, "get": get}
        mk["next"] += 1
        mk["offers"].append(offer)
        events.append({"type": "offer", **offer})
    elif kind in ("accept", "reject"):
        offer = _offer_of(state, action)
        if offer["to"] != seat:
            raise IllegalAction(
                "this offer is not made to you", "action.offer", reason="dg_not_your_offer"
            )
        if kind == "accept" and not (
            holds(state["hoards"][seat], offer["get"])
            and holds(state["hoards"][offer["from"]], offer["give"])
        ):
            raise IllegalAction(
                "one side no longer holds the tokens of this trade",
                "action.offer",
                reason="dg_offer_unfulfillable",
            )
        state["moves"] += 1
        mk["offers"].remove(offer)
        if kind == "accept":
            mine, theirs = state["hoards"][seat], state["hoards"][offer["from"]]
            take(theirs, offer["give"])
            add(mine, offer["give"])
            take(mine, offer["get"])
            add(theirs, offer["get"])
            state["stats"]["trades"] += 1
        events.append({"type": "trade" if kind == "accept" else "offer_rejected", **offer})
        if kind == "accept":  # an offer its maker can no longer honour is void
            for o in list(mk["offers"]):
                if not holds(state["hoards"][o["from"]], o["give"]):
                    mk["offers"].remove(o)
                    events.append({"type": "offer_void", "id": o["id"], "seat": o["from"]})
    elif kind == "withdraw":
        mine = [o for o in mk["offers"] if o["from"] == seat]
        if not mine:
            raise IllegalAction("you have no open offer", "action.type", reason="dg_no_offer")
        state["moves"] += 1
        mk["offers"].remove(mine[0])
        events.append({"type": "offer_withdrawn", "seat": seat, "id": mine[0]["id"]})
    elif kind == "show":
        if seat in mk["shown"]:
            raise IllegalAction("your hoard is shown already", "action.type", reason="dg_shown")
        state["moves"] += 1
        mk["shown"].append(seat)
        events.append({"type": "hoard_shown", "seat": seat})
    elif kind == "done":
        state["moves"] += 1
        mk["done"].append(seat)
        mk["offers"] = [o for o in mk["offers"] if seat not in (o["from"], o["to"])]
        events.append({"type": "left_market", "seat": seat})
        if len(mk["done"]) == state["seats"]:
            _close(state, events)
    else:
        raise IllegalAction(
            f"{kind!r} is not a market action",
            "action.type",
            reason="dg_wrong_step",
            params={"step": "market", "action": kind},
        )
    return events


def legal(state: State, seat: int) -> list[Action]:
    """Representative offers (to each player still in: a gift of one token of my most plentiful
    colour, and that token for a gold, or a gold for three silver), every answer to offers made to
    me, withdraw, show, done. ``apply`` accepts any offer."""
    mk = state["market"]
    hoard = state["hoards"][seat]
    out: list[Action] = []
    if count(hoard):
        most = max(COLOURS, key=lambda c: (hoard[c], -COLOURS.index(c)))
        swap = {"silver": 3} if most == "gold" else {"gold": 1}
        for t in range(state["seats"]):
            if t != seat and t not in mk["done"]:
                out.append({"type": "offer", "to": t, "give": {most: 1}, "get": {}})
                out.append({"type": "offer", "to": t, "give": {most: 1}, "get": dict(swap)})
    for offer in mk["offers"]:
        if offer["to"] == seat:
            if holds(hoard, offer["get"]):
                out.append({"type": "accept", "offer": offer["id"]})
            out.append({"type": "reject", "offer": offer["id"]})
    if any(o["from"] == seat for o in mk["offers"]):
        out.append({"type": "withdraw"})
    if seat not in mk["shown"]:
        out.append({"type": "show"})
    out.append({"type": "done"})
    return out
