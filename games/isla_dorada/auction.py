"""Bidding (rules, A round, 1): spoken bids, passes, Juju, the winner's payment, the legal forms.

A bid is *spoken* (seed: 說出一個比現時出價為高的數目): the table sees the route (or the
flight) and the number, never the cards behind it. A bid action (declared in
``games.isla_dorada.actions``; ``check_bid`` judges it by the rules)::

    {"type": "bid", "route": "r12", "value": 3,                      # or "flight": "<location>"
     "shaman": {"card": "a77", "from": "kamel", "to": "yak"},         # optional, face up
     "ovetos": "a70", "sangaia": "a81"}                                # optional, face up

names an open route out of the expedition's location (a river only downstream; none that Bigfoot
or the Leviathan stands on) or a flight to any other location, and a number: it must beat the
current bid (with none standing, 0 is a bid: the leader opens, at 0 if it likes) and the
bidder's hand must be able to pay it on that route (``payment.most``: Yak pays mountain, Kamel
desert, Gonogo jungle, Kayak any water, Drako and Zeppelin anything within the bidder's gold; a
flight is paid with Drako and Zeppelin alone, so it is at least 1). The special cards played
with a bid are face up: a Shaman converts every card of one kind (Yak, Kamel, Gonogo) into
another for a land route (the hand must hold one to convert); Ovetos, with a bid of 4 or more,
ends the auction at once; Sangaia makes the winning move skip its destination
(``games.isla_dorada.rounds``). They lie with the seat's standing bid and go back to its hand
when the bid is raised, barred or beaten; the winner's are discarded.

With a bid standing, ``{"type": "pass"}`` ends the turn; a seat that passed bids again when the
turn reaches it. With none standing the seat to act must bid (the leader's opening; and after a
Juju barred the only bidder, the Juju's player): so every round has a winner.
``{"type": "juju", "card": "a60", "target": 2}`` (face up) bars seat 2 from the rest of this
auction (its standing bid, if any, is dropped; the best other standing bid leads again) and does
not end the turn; one Juju per turn. The auction ends when every other seat not barred has
passed since the last bid: the high bidder wins.

**Only the winner plays its cards** (phase ``pay``, the winner alone): ``{"type": "pay",
"cards": ["a3", "a40"]}``, cards of its hand that pay the route (with its Shaman's conversion)
worth at least the bid, each of them needed (``payment.needed``), with the gold their Drako and
Zeppelin cards cost. They are discarded and the gold paid; a bid of 0 is paid with nothing, so
it moves at once. Until then nobody learns which cards a bid would take: a losing bid's cards
are never named anywhere.

``legal_bids`` lists representative forms, not every number (the engine accepts any number
from the least bid to the most the hand pays): per open route the least bid, the same with
Sangaia, with Ovetos (at 4 or more), with each Shaman conversion; per other location the least
flight. ``legal_pay`` lists every way to pay (cards alike count once).
"""

from __future__ import annotations

from typing import Any

from errors import IllegalAction, InvalidInput
from games.isla_dorada import payment as M
from games.isla_dorada import tables as T
from games.isla_dorada.actions import Bid, Juju, Pay
from games.isla_dorada.state import IslaState
from games.order import TurnOrder, round_robin
from games.state import enter

_KIND = T.ADV_KIND
_ID = T.ADV_ID
#: The kinds of the special cards a bid may show, by the bid's field.
_SPECIALS = ("shaman", "ovetos", "sangaia")


def blocked(state: IslaState, route: int) -> bool:
    return route == state.bigfoot or route == state.leviathan


def open_exits(state: IslaState, loc: int | None = None) -> list[tuple[int, int]]:
    """``(route, destination)`` of every route out of ``loc`` (default: the expedition's) that no
    figure blocks."""
    here = state.location if loc is None else loc
    bf, lv = state.bigfoot, state.leviathan
    return [(r, d) for r, d in T.EXITS[here] if r != bf and r != lv]


#: The auction's turn order: from the leader up the seat numbers, passing over the seats a Juju
#: barred (``games.order``).
BIDS: TurnOrder[IslaState] = round_robin(skip=lambda state, seat: state.barred[seat])


def start_auction(state: IslaState) -> None:
    n = state.seats
    enter(state, "bid")
    state.bids = [None] * n
    state.high = -1
    state.passed = [False] * n
    state.barred = [False] * n
    BIDS.start(state, state.leader)
    state.juju_turn = False
    state.win = None


def minimum(state: IslaState) -> int:
    """The least bid now: one more than the high bid; with none standing, 0 (a flight: 1)."""
    if state.high >= 0:
        bid = state.bids[state.high]
        assert bid is not None
        return int(bid["value"]) + 1
    return 0


def available(state: IslaState, seat: int) -> list[int]:
    """The cards ``seat`` may bid with: its hand and its standing bid's special cards."""
    bid = state.bids[seat]
    if bid is None:
        return state.hands[seat]
    return state.hands[seat] + specials(bid)


def specials(bid: dict) -> list[int]:
    """The special cards shown with a bid (Shaman, Ovetos, Sangaia)."""
    return [bid[key] for key in _SPECIALS if bid[key] >= 0]


def conversion(bid: dict) -> M.Conversion:
    return (bid["from"], bid["into"]) if bid["shaman"] >= 0 else None


def route_type(bid: dict) -> str | None:
    """The type of the bid's route (``None``: a flight)."""
    return T.ROUTE_TYPE[bid["route"]] if bid["route"] >= 0 else None


def can_pay(state: IslaState, seat: int) -> dict[str, int]:
    """The most ``seat``'s hand can pay on each open route and on a flight (no Shaman)."""
    purse = M.Purse(available(state, seat), state.gold[seat])
    out = {T.ROUTE_IDS[r]: purse.most(T.ROUTE_TYPE[r]) for r, _ in open_exits(state)}
    out["flight"] = purse.most(None)
    return out


def legal_bids(state: IslaState, seat: int) -> list[dict[str, Any]]:
    """Pass (with a bid standing), Juju and the representative bid forms (module docstring)."""
    out: list[dict[str, Any]] = [{"type": "pass"}] if state.high >= 0 else []
    cards = available(state, seat)
    by_kind: dict[str, list[int]] = {}
    for c in sorted(cards):
        by_kind.setdefault(_KIND[c], []).append(c)
    if "juju" in by_kind and not state.juju_turn:
        jc = _ID[by_kind["juju"][0]]
        for t in range(state.seats):
            if t != seat and not state.barred[t]:
                out.append({"type": "juju", "card": jc, "target": t})
    need = minimum(state)
    purse = M.Purse(cards, state.gold[seat])
    first = {k: _ID[v[0]] for k, v in by_kind.items()}
    for route, _ in open_exits(state):
        out += _route_bids(route, need, purse, by_kind, first)
    fly = max(need, 1)
    if purse.most(None) >= fly:
        here = state.location
        out += [
            {"type": "bid", "flight": lid, "value": fly}
            for loc, lid in enumerate(T.LOC_IDS)
            if loc != here
        ]
    return out


def _route_bids(
    route: int,
    need: int,
    purse: M.Purse,
    by_kind: dict[str, list[int]],
    first: dict[str, str],
) -> list[dict[str, Any]]:
    """The representative bids on one open route: the least, with Sangaia, with Ovetos, with
    each Shaman exchange the purse can pay (module docstring)."""
    out: list[dict[str, Any]] = []
    rtype = T.ROUTE_TYPE[route]
    bid: dict[str, Any] = {"type": "bid", "route": T.ROUTE_IDS[route], "value": need}
    most = purse.most(rtype)
    if most >= need:
        out.append(bid)
        if "sangaia" in first:
            out.append({**bid, "sangaia": first["sangaia"]})
    if "ovetos" in first and most >= max(need, T.OVETOS_MIN):
        out.append({**bid, "value": max(need, T.OVETOS_MIN), "ovetos": first["ovetos"]})
    if "shaman" in first and rtype in T.LAND_TYPES:
        into = T.KIND_FOR_LAND[rtype]
        for src in T.SHAMAN_KINDS:
            if src != into and src in by_kind and purse.most(rtype, (src, into)) >= need:
                shaman = {"card": first["shaman"], "from": src, "to": into}
                out.append({**bid, "shaman": shaman})
    return out


def _own(state: IslaState, seat: int, action: Bid) -> None:
    """Every special card the bid shows must be ``seat``'s (its hand or its standing bid) and
    of its kind."""
    allowed = set(available(state, seat))
    named: list[tuple[str, int, str]] = []
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
        if _KIND[card] != kind:
            raise IllegalAction(
                f"card {cid} is not a {kind}",
                field,
                reason="isla_wrong_card",
                params={"card": cid, "kind": kind},
            )


def _shaman_refusal(message: str) -> IllegalAction:
    return IllegalAction(message, "action.shaman", reason="isla_shaman_kinds")


def _route_bid(state: IslaState, seat: int, action: Bid, route: int) -> int:
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
    shaman = action.shaman
    if shaman is not None:
        if T.ROUTE_TYPE[route] not in T.LAND_TYPES:
            raise _shaman_refusal("a Shaman converts cards for a mountain, desert or jungle route")
        if not any(_KIND[c] == shaman.source for c in available(state, seat)):
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


def check_bid(state: IslaState, seat: int, action: Bid) -> dict:
    """The bid record ``action`` asks for (its shape checked by its declaration,
    ``games.isla_dorada.actions.Bid``), every rule checked; nothing changes here."""
    _own(state, seat, action)
    if action.route is not None:
        route, dest = action.route, _route_bid(state, seat, action, action.route)
    else:
        assert action.flight is not None  # the declaration names one of them
        route, dest = -1, action.flight
        _flight_bid(state, action, dest)
    value = action.value
    need = minimum(state) if route >= 0 else max(minimum(state), 1)
    if value < need:
        raise IllegalAction(
            f"the bid is {value}; at least {need} is needed",
            "action.value",
            reason="isla_bid_too_low",
            params={"value": value, "need": need},
        )
    shaman = action.shaman
    rtype = T.ROUTE_TYPE[route] if route >= 0 else None
    conv = None if shaman is None else (shaman.source, shaman.into)
    most = M.most(available(state, seat), state.gold[seat], rtype, conv)
    if value > most:
        raise IllegalAction(
            f"your hand can pay at most {most} there",
            "action.value",
            reason="isla_cannot_pay",
            params={"value": value, "most": most},
        )
    if action.ovetos is not None and value < T.OVETOS_MIN:
        raise IllegalAction(
            f"Ovetos needs a bid of {T.OVETOS_MIN} or more",
            "action.ovetos",
            reason="isla_ovetos_low",
            params={"min": T.OVETOS_MIN},
        )
    return {
        "route": route,
        "to": dest,
        "value": value,
        "shaman": -1 if shaman is None else shaman.card,
        "from": "" if shaman is None else shaman.source,
        "into": "" if shaman is None else shaman.into,
        "ovetos": -1 if action.ovetos is None else action.ovetos,
        "sangaia": -1 if action.sangaia is None else action.sangaia,
    }


def bid_json(bid: dict) -> dict[str, Any]:
    """A bid as the views and events show it: the route or flight, the number and the special
    cards shown with it (never the cards that would pay it)."""
    out: dict[str, Any] = {
        "to": T.LOC_IDS[bid["to"]],
        "route": T.ROUTE_IDS[bid["route"]] if bid["route"] >= 0 else None,
        "flight": bid["route"] < 0,
        "value": bid["value"],
    }
    if bid["shaman"] >= 0:
        out["shaman"] = {"card": T.adv_json(bid["shaman"]), "from": bid["from"], "to": bid["into"]}
    for key in ("ovetos", "sangaia"):
        if bid[key] >= 0:
            out[key] = T.adv_json(bid[key])
    return out


def _return_bid(state: IslaState, seat: int) -> None:
    """A standing bid is dropped: its special cards go back to the hand."""
    bid = state.bids[seat]
    if bid is not None:
        state.hands[seat].extend(specials(bid))
        state.bids[seat] = None


def _next_turn(state: IslaState) -> None:
    BIDS.pass_turn(state)
    state.juju_turn = False


def _over(state: IslaState) -> bool:
    """Whether the auction has ended: a bid stands and every other seat not barred passed."""
    if state.high < 0:
        return False
    return all(state.barred[s] or s == state.high or state.passed[s] for s in range(state.seats))


def place_bid(state: IslaState, seat: int, bid: dict, events: list[dict]) -> bool:
    """Apply a checked bid; returns whether the auction ended (Ovetos, or nobody left)."""
    _return_bid(state, seat)
    for c in specials(bid):
        state.hands[seat].remove(c)
    state.bids[seat] = bid
    state.high = seat
    state.passed = [False] * state.seats
    state.stats["bids"] += 1
    events.append({"type": "bid", "seat": seat, "bid": bid_json(bid)})
    if bid["ovetos"] >= 0:
        state.stats["ovetos"] += 1
        events.append({"type": "ovetos", "seat": seat})
        return True
    _next_turn(state)
    return _over(state)


def pass_turn(state: IslaState, seat: int, events: list[dict]) -> bool:
    """A pass (with a bid standing); returns whether the auction ended."""
    if state.high < 0:
        raise IllegalAction(
            "no bid stands: open the auction (0 is a bid)",
            "action.type",
            reason="isla_open_the_auction",
        )
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


def play_juju(state: IslaState, seat: int, card: int, target: int, events: list[dict]) -> None:
    """Bar ``target`` from this auction (its bid is dropped; the best other one leads); the
    turn stays."""
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


def settle(state: IslaState, events: list[dict]) -> bool:
    """End the auction: the high bidder leads, its special cards are discarded, the other
    standing bids are dropped; it pays (phase ``pay``) unless its bid is 0. Returns whether it
    pays."""
    winner = state.high
    for s in range(state.seats):
        if s != winner:
            _return_bid(state, s)
    bid = state.bids[winner]
    assert bid is not None
    state.bids[winner] = None
    state.discard.extend(specials(bid))
    state.leader = winner
    state.wins[winner] += 1
    state.win = bid
    state.stats["winning_value"] += bid["value"]
    if bid["value"] == 0:
        state.stats["zero_bids"] += 1
    if bid["shaman"] >= 0:
        state.stats["shamans"] += 1
    events.append({"type": "won", "seat": winner, "bid": bid_json(bid)})
    if bid["value"] == 0:
        return False
    enter(state, "pay")
    return True


def legal_pay(state: IslaState, seat: int) -> list[dict[str, Any]]:
    """Every way the winner's hand pays its bid (cards alike count once)."""
    bid = state.win
    assert bid is not None
    ways = M.ways(
        state.hands[seat], state.gold[seat], route_type(bid), bid["value"], conversion(bid)
    )
    return [{"type": "pay", "cards": [_ID[c] for c in way]} for way in ways]


def check_pay(state: IslaState, seat: int, action: Pay) -> list[int]:
    """The cards the winner pays with, every rule checked; nothing changes here."""
    bid = state.win
    assert bid is not None
    hand = state.hands[seat]
    rtype = route_type(bid)
    for i, c in enumerate(action.cards):
        field = f"action.cards[{i}]"
        if c not in hand:
            raise IllegalAction(
                f"card {_ID[c]} is not in your hand",
                field,
                reason="isla_not_your_card",
                params={"card": _ID[c]},
            )
        if not M.pays(c, rtype, conversion(bid)):
            if rtype is None:
                raise IllegalAction(
                    "a flight is paid with Drako and Zeppelin cards only",
                    field,
                    reason="isla_flight_cards",
                )
            raise IllegalAction(
                f"a {_KIND[c]} card does not pay a {rtype} route",
                field,
                reason="isla_card_not_for_route",
                params={"card": _ID[c], "type": rtype},
            )
    cards = list(action.cards)
    worth = sum(T.ADV_VALUE[c] for c in cards)
    if worth < bid["value"]:
        raise IllegalAction(
            f"the cards are worth {worth}; the bid is {bid['value']}",
            "action.cards",
            reason="isla_pay_short",
            params={"worth": worth, "value": bid["value"]},
        )
    if not M.needed(cards, bid["value"]):
        raise IllegalAction(
            f"the bid is {bid['value']}: pay it without cards it does not need",
            "action.cards",
            reason="isla_pay_too_much",
            params={"worth": worth, "value": bid["value"]},
        )
    gold = M.cost(cards)
    if gold > state.gold[seat]:
        raise IllegalAction(
            f"these Drako and Zeppelin cards cost {gold} gold; you have {state.gold[seat]}",
            "action.cards",
            reason="isla_not_enough_gold",
            params={"cost": gold, "gold": state.gold[seat]},
        )
    return cards


def pay(state: IslaState, seat: int, cards: list[int], events: list[dict]) -> None:
    """The winner plays its cards (face up, discarded) and pays their gold."""
    for c in cards:
        state.hands[seat].remove(c)
    state.discard.extend(cards)
    gold = M.cost(cards)
    state.gold[seat] -= gold
    events.append(
        {"type": "paid", "seat": seat, "cards": [T.adv_json(c) for c in cards], "gold": gold}
    )
