"""Bidding (rules, A round, 1): bids, passes, Juju, the legal forms, and the auction's end.

A bid action (declared in ``games.isla_dorada.actions``; ``check_bid`` judges it by the rules)::

    {"type": "bid", "route": "r12", "cards": ["a3", "a40"],          # or "flight": "<location>"
     "shaman": {"card": "a77", "from": "kamel", "to": "yak"},         # optional
     "ovetos": "a70", "sangaia": "a81"}                                # optional

names an open route out of the expedition's location (a river only downstream; none that Bigfoot
or the Leviathan stands on) or, paid with Drako/Zeppelin cards alone, a flight to any other
location. Its value is the sum of its cards' values: Yak pays mountain, Kamel desert, Gonogo
jungle, Kayak any water, Drako/Zeppelin any route (their gold is paid only if the bid wins).
With a Shaman every card of kind ``from`` counts as kind ``to`` (Yak, Kamel, Gonogo). Ovetos, with
a value of 4 or more, ends the auction at once. Sangaia makes the winning move skip its
destination (``games.isla_dorada.rounds``). The value must beat the current bid; with no bid yet
it is at least 1, except on the leader's first turn, which may open at 0 (no cards).

A raise replaces the seat's standing bid: its cards come back to the hand first, so a raise may
reuse them. ``{"type": "pass"}`` ends the turn; a seat that passed bids again when the turn
reaches it. ``{"type": "juju", "card": "a60", "target": 2}`` bars seat 2 from the rest of this
auction (its standing bid, if any, goes back to its hand) and does not end the turn; one Juju per
turn. The auction ends when every other seat not barred has passed since the last bid (the high
bidder wins), or when every seat passed with no bid (nobody moves the expedition).

``legal_bids`` lists representative forms, not every combination (the engine accepts any
combination of the seat's cards that the rules allow): per open route the cheapest bid (route
cards first, then Drako, then Zeppelin), the same with each Shaman conversion, with Ovetos (at
4 or more), with Sangaia; per other location the cheapest flight.
"""

from __future__ import annotations

from typing import Any

from errors import IllegalAction, InvalidInput
from games.isla_dorada import tables as T
from games.isla_dorada.actions import Bid, Juju
from games.isla_dorada.state import IslaState
from games.state import enter

_KIND = T.ADV_KIND
_VALUE = T.ADV_VALUE
_GOLD = T.ADV_GOLD
_ID = T.ADV_ID
_WILD = T.ADV_WILD
_PAYS_KIND = {t: k for k, ts in T.PAYS.items() for t in ts}  # route type → the kind paying it


def blocked(state: IslaState, route: int) -> bool:
    return route == state.bigfoot or route == state.leviathan


def open_exits(state: IslaState, loc: int | None = None) -> list[tuple[int, int]]:
    """``(route, destination)`` of every route out of ``loc`` (default: the expedition's) that no
    figure blocks."""
    here = state.location if loc is None else loc
    bf, lv = state.bigfoot, state.leviathan
    return [(r, d) for r, d in T.EXITS[here] if r != bf and r != lv]


def start_auction(state: IslaState) -> None:
    n = state.seats
    enter(state, "bid")
    state.bids = [None] * n
    state.high = -1
    state.turn = state.leader
    state.passed = [False] * n
    state.barred = [False] * n
    state.opened = False
    state.juju_turn = False
    state.win = None


def minimum(state: IslaState, seat: int) -> int:
    """The least value ``seat`` may bid now."""
    if state.high >= 0:
        bid = state.bids[state.high]
        assert bid is not None
        return bid["value"] + 1
    return 0 if seat == state.leader and not state.opened else 1


def available(state: IslaState, seat: int) -> list[int]:
    """The cards ``seat`` may bid with: its hand and its standing bid's cards."""
    bid = state.bids[seat]
    if bid is None:
        return state.hands[seat]
    return state.hands[seat] + _bid_cards(bid)


def _bid_cards(bid: dict) -> list[int]:
    out = list(bid["cards"])
    for key in ("shaman", "ovetos", "sangaia"):
        if bid[key] >= 0:
            out.append(bid[key])
    return out


def _cheapest(paying: list[int], wild: list[int], need: int, gold: int) -> list[int] | None:
    """Route cards first, then Drako, then Zeppelin, until ``need`` is reached (``None``: not
    reachable within ``gold``)."""
    total = 0
    out: list[int] = []
    for c in paying:
        if total >= need:
            return out
        out.append(c)
        total += _VALUE[c]
    for c in wild:
        if total >= need:
            return out
        if _GOLD[c] <= gold:
            gold -= _GOLD[c]
            out.append(c)
            total += _VALUE[c]
    return out if total >= need else None


def legal_bids(state: IslaState, seat: int) -> list[dict[str, Any]]:
    """Pass, Juju and the representative bid forms (module docstring)."""
    out: list[dict[str, Any]] = [{"type": "pass"}]
    cards = available(state, seat)
    by_kind: dict[str, list[int]] = {}
    for c in cards:
        by_kind.setdefault(_KIND[c], []).append(c)
    if "juju" in by_kind and not state.juju_turn:
        jc = _ID[by_kind["juju"][0]]
        for t in range(state.seats):
            if t != seat and not state.barred[t]:
                out.append({"type": "juju", "card": jc, "target": t})
    need = minimum(state, seat)
    gold = state.gold[seat]
    wild = sorted(by_kind.get("drako", []) + by_kind.get("zeppelin", []), key=_VALUE.__getitem__)
    shaman = by_kind.get("shaman")
    ovetos = by_kind.get("ovetos")
    sangaia = by_kind.get("sangaia")
    for route, _ in open_exits(state):
        rtype = T.ROUTE_TYPE[route]
        rid = T.ROUTE_IDS[route]
        paying = by_kind.get(_PAYS_KIND[rtype], [])
        base = _cheapest(paying, wild, need, gold)
        if base is not None:
            ids = [_ID[c] for c in base]
            out.append({"type": "bid", "route": rid, "cards": ids})
            if sangaia:
                out.append({"type": "bid", "route": rid, "cards": ids, "sangaia": _ID[sangaia[0]]})
        if ovetos:
            big = _cheapest(paying, wild, max(need, T.OVETOS_MIN), gold)
            if big is not None:
                out.append(
                    {
                        "type": "bid",
                        "route": rid,
                        "cards": [_ID[c] for c in big],
                        "ovetos": _ID[ovetos[0]],
                    }
                )
        if shaman and rtype in T.LAND_TYPES:
            into = _PAYS_KIND[rtype]
            for src in T.SHAMAN_KINDS:
                if src != into and src in by_kind:
                    conv = _cheapest(paying + by_kind[src], wild, max(need, 1), gold)
                    if conv is not None and any(_KIND[c] == src for c in conv):
                        out.append(
                            {
                                "type": "bid",
                                "route": rid,
                                "cards": [_ID[c] for c in conv],
                                "shaman": {"card": _ID[shaman[0]], "from": src, "to": into},
                            }
                        )
    if wild:
        fly = _cheapest([], wild, max(need, 1), gold)
        if fly is not None:
            ids = [_ID[c] for c in fly]
            here = state.location
            for loc in range(T.LOC_COUNT):
                if loc != here:
                    out.append({"type": "bid", "flight": T.LOC_IDS[loc], "cards": ids})
    return out


def _own(state: IslaState, seat: int, action: Bid) -> None:
    """Every card the bid names must be ``seat``'s (its hand or its standing bid), a Shaman,
    Ovetos or Sangaia card of its kind."""
    allowed = set(available(state, seat))
    named: list[tuple[str, int, str | None]] = [
        (f"action.cards[{i}]", c, None) for i, c in enumerate(action.cards)
    ]
    if action.shaman is not None:
        named.append(("action.shaman.card", action.shaman.card, "shaman"))
    for key in ("ovetos", "sangaia"):
        card = getattr(action, key)
        if card is not None:
            named.append((f"action.{key}", card, key))
    for field, card, kind in named:
        cid = _ID[card]
        if card not in allowed:
            raise IllegalAction(
                f"card {cid} is not in your hand",
                field,
                reason="isla_not_your_card",
                params={"card": cid},
            )
        if kind is not None and _KIND[card] != kind:
            raise IllegalAction(
                f"card {cid} is not a {kind}",
                field,
                reason="isla_wrong_card",
                params={"card": cid, "kind": kind},
            )


def _shaman_refusal(message: str) -> IllegalAction:
    return IllegalAction(message, "action.shaman", reason="isla_shaman_kinds")


def _route_bid(state: IslaState, action: Bid, route: int) -> int:
    """The destination of a bid on ``route``, every rule of a route bid checked."""
    rid = T.ROUTE_IDS[route]
    exits = dict(T.EXITS[state.location])
    if route not in exits:
        raise IllegalAction(
            f"route {rid} does not leave {T.LOC_IDS[state.location]} (rivers flow one way)",
            "action.route",
            reason="isla_route_not_here",
            params={"route": rid},
        )
    if blocked(state, route):
        raise IllegalAction(
            f"route {rid} is blocked by {'Bigfoot' if route == state.bigfoot else 'the Leviathan'}",
            "action.route",
            reason="isla_route_blocked",
            params={"route": rid},
        )
    rtype = T.ROUTE_TYPE[route]
    shaman = action.shaman
    if shaman is not None and rtype not in T.LAND_TYPES:
        raise _shaman_refusal("a Shaman converts cards for a mountain, desert or jungle route")
    for i, c in enumerate(action.cards):
        kind = shaman.into if shaman is not None and _KIND[c] == shaman.source else _KIND[c]
        if not (_WILD[c] or rtype in T.PAYS.get(kind, ())):
            raise IllegalAction(
                f"a {_KIND[c]} card does not pay a {rtype} route",
                f"action.cards[{i}]",
                reason="isla_card_not_for_route",
                params={"card": _ID[c], "type": rtype},
            )
    if shaman is not None and not any(_KIND[c] == shaman.source for c in action.cards):
        raise _shaman_refusal(f"the Shaman has no {shaman.source} card to convert")
    return exits[route]


def _flight_bid(state: IslaState, action: Bid, dest: int) -> None:
    """Every rule of a flight bid checked."""
    if dest == state.location:
        raise IllegalAction(
            "the expedition is there already", "action.flight", reason="isla_flight_here"
        )
    if action.shaman is not None:
        raise _shaman_refusal("a Shaman converts cards for a mountain, desert or jungle route")
    if not action.cards or not all(_WILD[c] for c in action.cards):
        raise IllegalAction(
            "a flight is paid with Drako and Zeppelin cards only",
            "action.cards",
            reason="isla_flight_cards",
        )


def check_bid(state: IslaState, seat: int, action: Bid) -> dict:
    """The bid record ``action`` asks for (its shape checked by its declaration,
    ``games.isla_dorada.actions.Bid``), every rule checked; nothing changes here."""
    _own(state, seat, action)
    if action.route is not None:
        route, dest = action.route, _route_bid(state, action, action.route)
    else:
        assert action.flight is not None  # the declaration names one of them
        route, dest = -1, action.flight
        _flight_bid(state, action, dest)
    cards = list(action.cards)
    value = sum(_VALUE[c] for c in cards)
    gold = sum(_GOLD[c] for c in cards)
    need = minimum(state, seat)
    if value < need:
        raise IllegalAction(
            f"the bid is worth {value}; at least {need} is needed",
            "action.cards",
            reason="isla_bid_too_low",
            params={"value": value, "need": need},
        )
    if gold > state.gold[seat]:
        raise IllegalAction(
            f"the bid's Drako and Zeppelin cards cost {gold} gold; you have {state.gold[seat]}",
            "action.cards",
            reason="isla_not_enough_gold",
            params={"cost": gold, "gold": state.gold[seat]},
        )
    if action.ovetos is not None and value < T.OVETOS_MIN:
        raise IllegalAction(
            f"Ovetos needs a bid of {T.OVETOS_MIN} or more",
            "action.ovetos",
            reason="isla_ovetos_low",
            params={"min": T.OVETOS_MIN},
        )
    shaman = action.shaman
    return {
        "route": route,
        "to": dest,
        "cards": cards,
        "value": value,
        "gold": gold,
        "shaman": -1 if shaman is None else shaman.card,
        "from": "" if shaman is None else shaman.source,
        "into": "" if shaman is None else shaman.into,
        "ovetos": -1 if action.ovetos is None else action.ovetos,
        "sangaia": -1 if action.sangaia is None else action.sangaia,
    }


def bid_json(bid: dict) -> dict[str, Any]:
    """A bid as the views and events show it (its cards are public once bid)."""
    out: dict[str, Any] = {
        "to": T.LOC_IDS[bid["to"]],
        "route": T.ROUTE_IDS[bid["route"]] if bid["route"] >= 0 else None,
        "flight": bid["route"] < 0,
        "cards": [T.adv_json(c) for c in bid["cards"]],
        "value": bid["value"],
        "gold": bid["gold"],
    }
    if bid["shaman"] >= 0:
        out["shaman"] = {"card": T.adv_json(bid["shaman"]), "from": bid["from"], "to": bid["into"]}
    for key in ("ovetos", "sangaia"):
        if bid[key] >= 0:
            out[key] = T.adv_json(bid[key])
    return out


def _return_bid(state: IslaState, seat: int) -> None:
    bid = state.bids[seat]
    if bid is not None:
        state.hands[seat].extend(_bid_cards(bid))
        state.bids[seat] = None


def _remove(hand: list[int], cards: list[int]) -> None:
    for c in cards:
        hand.remove(c)


def _next_turn(state: IslaState) -> None:
    n = state.seats
    if state.turn == state.leader:
        state.opened = True
    t = state.turn
    for _ in range(n):
        t = (t + 1) % n
        if not state.barred[t]:
            break
    state.turn = t
    state.juju_turn = False


def _over(state: IslaState) -> str | None:
    """``"won"`` / ``"idle"`` when the auction has ended, else ``None``."""
    for s in range(state.seats):
        if not state.barred[s] and s != state.high and not state.passed[s]:
            return None
    return "won" if state.high >= 0 else "idle"


def place_bid(state: IslaState, seat: int, bid: dict, events: list[dict]) -> str | None:
    """Apply a parsed bid; returns ``"won"`` when the auction ends (Ovetos or nobody left)."""
    _return_bid(state, seat)
    _remove(state.hands[seat], _bid_cards(bid))
    state.bids[seat] = bid
    state.high = seat
    state.passed = [False] * state.seats
    state.stats["bids"] += 1
    events.append({"type": "bid", "seat": seat, "bid": bid_json(bid)})
    if bid["ovetos"] >= 0:
        state.stats["ovetos"] += 1
        events.append({"type": "ovetos", "seat": seat})
        return "won"
    _next_turn(state)
    return _over(state)


def pass_turn(state: IslaState, seat: int, events: list[dict]) -> str | None:
    state.passed[seat] = True
    events.append({"type": "pass", "seat": seat})
    _next_turn(state)
    return _over(state)


def check_juju(state: IslaState, seat: int, action: Juju) -> tuple[int, int]:
    """The Juju card and the seat it bars, every rule checked; nothing changes here."""
    if state.juju_turn:
        raise IllegalAction("one Juju per turn", "action.type", reason="isla_one_juju", params={})
    card, target = action.card, action.target
    cid = _ID[card]
    if card not in state.hands[seat]:
        raise IllegalAction(
            f"card {cid} is not in your hand",
            "action.card",
            reason="isla_not_your_card",
            params={"card": cid},
        )
    if _KIND[card] != "juju":
        raise IllegalAction(
            f"card {cid} is not a juju",
            "action.card",
            reason="isla_wrong_card",
            params={"card": cid, "kind": "juju"},
        )
    if target >= state.seats:
        raise InvalidInput(
            f"target must be a seat number, got {target!r}",
            "action.target",
            reason="malformed_action",
        )
    if target == seat or state.barred[target]:
        raise IllegalAction(
            f"seat {target} cannot be barred now",
            "action.target",
            reason="isla_juju_target",
            params={"target": target},
        )
    return card, target


def play_juju(
    state: IslaState, seat: int, card: int, target: int, events: list[dict]
) -> str | None:
    """Bar ``target`` from this auction (its bid returns to its hand); the turn stays."""
    state.hands[seat].remove(card)
    state.discard.append(card)
    state.barred[target] = True
    state.juju_turn = True
    state.stats["jujus"] += 1
    _return_bid(state, target)
    events.append({"type": "juju", "seat": seat, "target": target, "card": T.adv_json(card)})
    if state.high == target:
        best = -1
        for s in range(state.seats):
            b = state.bids[s]
            if b is not None and (best < 0 or b["value"] > state.bids[best]["value"]):  # type: ignore[index]
                best = s
        state.high = best
        state.passed = [False] * state.seats
    return None


def settle(state: IslaState, events: list[dict]) -> int:
    """End the auction: the high bidder (``-1``: nobody) pays and leads; the other standing bids
    go back to their hands. Returns the winner."""
    winner = state.high
    for s in range(state.seats):
        if s != winner:
            _return_bid(state, s)
    if winner < 0:
        return -1
    bid = state.bids[winner]
    assert bid is not None
    state.bids[winner] = None
    state.discard.extend(_bid_cards(bid))
    state.gold[winner] -= bid["gold"]
    state.leader = winner
    state.wins[winner] += 1
    state.win = bid
    state.stats["winning_value"] += bid["value"]
    if bid["value"] == 0:
        state.stats["zero_bids"] += 1
    if bid["shaman"] >= 0:
        state.stats["shamans"] += 1
    events.append({"type": "won", "seat": winner, "bid": bid_json(bid)})
    return winner
