"""Bidding (rules, A round, 1): bids, passes, Juju, the legal forms, and the auction's end.

A bid action::

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
from games.isla_dorada.state import IslaState

_BID_KEYS = frozenset({"type", "route", "flight", "cards", "shaman", "ovetos", "sangaia"})
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
    state.phase = "bid"
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


def _card(value: Any, field: str, allowed: set[int], kind: str | None = None) -> int:
    """The adventure card ``value`` names, which must be among ``allowed`` (and of ``kind``)."""
    if not isinstance(value, str):
        raise InvalidInput(
            f"a card id is a string like 'a12', got {value!r}", field, reason="malformed_action"
        )
    found = T.CARD_INDEX.get(value)
    if found is None or found[0] != "a":
        raise InvalidInput(
            f"no adventure card {value!r}",
            field,
            reason="isla_no_such_card",
            params={"card": value},
        )
    card = found[1]
    if card not in allowed:
        raise IllegalAction(
            f"card {value} is not in your hand",
            field,
            reason="isla_not_your_card",
            params={"card": value},
        )
    if kind is not None and _KIND[card] != kind:
        raise IllegalAction(
            f"card {value} is not a {kind}",
            field,
            reason="isla_wrong_card",
            params={"card": value, "kind": kind},
        )
    return card


def parse_bid(state: IslaState, seat: int, action: dict) -> dict:
    """The bid record ``action`` asks for, every rule checked; nothing changes here."""
    extra = sorted(set(action) - _BID_KEYS)
    if extra:
        raise InvalidInput(
            f"unknown bid field {extra[0]!r}", f"action.{extra[0]}", reason="malformed_action"
        )
    allowed = set(available(state, seat))
    used: set[int] = set()

    def take(value: Any, field: str, kind: str | None = None) -> int:
        card = _card(value, field, allowed, kind)
        if card in used:
            raise InvalidInput(
                f"card {value} is named twice",
                field,
                reason="isla_card_twice",
                params={"card": value},
            )
        used.add(card)
        return card

    has_route, has_flight = "route" in action, "flight" in action
    if has_route == has_flight:
        raise InvalidInput(
            "a bid names a 'route' or a 'flight' destination (one of them)",
            "action.route",
            reason="isla_bid_target",
        )
    raw = action.get("cards", [])
    if not isinstance(raw, list):
        raise InvalidInput(
            "cards must be a list of card ids", "action.cards", reason="malformed_action"
        )
    cards = [take(v, f"action.cards[{i}]") for i, v in enumerate(raw)]
    shaman, src, into = -1, "", ""
    if "shaman" in action:
        sh = action["shaman"]
        if not isinstance(sh, dict) or set(sh) != {"card", "from", "to"}:
            raise InvalidInput(
                "shaman is {'card': id, 'from': kind, 'to': kind}",
                "action.shaman",
                reason="malformed_action",
            )
        shaman = take(sh["card"], "action.shaman.card", "shaman")
        src, into = sh["from"], sh["to"]
        if src not in T.SHAMAN_KINDS or into not in T.SHAMAN_KINDS or src == into:
            raise InvalidInput(
                "a Shaman turns Yak, Kamel or Gonogo cards into another of those kinds",
                "action.shaman",
                reason="isla_shaman_kinds",
            )
    ovetos = take(action["ovetos"], "action.ovetos", "ovetos") if "ovetos" in action else -1
    sangaia = take(action["sangaia"], "action.sangaia", "sangaia") if "sangaia" in action else -1

    if has_route:
        rid = action["route"]
        route = T.ROUTE_INDEX.get(rid) if isinstance(rid, str) else None
        if route is None:
            raise InvalidInput(f"no route {rid!r}", "action.route", reason="isla_no_such_route")
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
        dest = exits[route]
        if shaman >= 0 and rtype not in T.LAND_TYPES:
            raise IllegalAction(
                "a Shaman converts cards for a mountain, desert or jungle route",
                "action.shaman",
                reason="isla_shaman_kinds",
            )
        for i, c in enumerate(cards):
            kind = into if shaman >= 0 and _KIND[c] == src else _KIND[c]
            if not (_WILD[c] or rtype in T.PAYS.get(kind, ())):
                raise IllegalAction(
                    f"a {_KIND[c]} card does not pay a {rtype} route",
                    f"action.cards[{i}]",
                    reason="isla_card_not_for_route",
                    params={"card": _ID[c], "type": rtype},
                )
        if shaman >= 0 and not any(_KIND[c] == src for c in cards):
            raise IllegalAction(
                f"the Shaman has no {src} card to convert",
                "action.shaman",
                reason="isla_shaman_kinds",
            )
    else:
        loc = action["flight"]
        dest = T.LOC_INDEX.get(loc, -1) if isinstance(loc, str) else -1
        if dest < 0:
            raise InvalidInput(
                f"no location {loc!r}", "action.flight", reason="isla_no_such_location"
            )
        if dest == state.location:
            raise IllegalAction(
                "the expedition is there already", "action.flight", reason="isla_flight_here"
            )
        route = -1
        if shaman >= 0:
            raise IllegalAction(
                "a Shaman converts cards for a mountain, desert or jungle route",
                "action.shaman",
                reason="isla_shaman_kinds",
            )
        if not cards or not all(_WILD[c] for c in cards):
            raise IllegalAction(
                "a flight is paid with Drako and Zeppelin cards only",
                "action.cards",
                reason="isla_flight_cards",
            )
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
    if ovetos >= 0 and value < T.OVETOS_MIN:
        raise IllegalAction(
            f"Ovetos needs a bid of {T.OVETOS_MIN} or more",
            "action.ovetos",
            reason="isla_ovetos_low",
            params={"min": T.OVETOS_MIN},
        )
    return {
        "route": route,
        "to": dest,
        "cards": cards,
        "value": value,
        "gold": gold,
        "shaman": shaman,
        "from": src,
        "into": into,
        "ovetos": ovetos,
        "sangaia": sangaia,
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


def parse_juju(state: IslaState, seat: int, action: dict) -> tuple[int, int]:
    extra = sorted(set(action) - {"type", "card", "target"})
    if extra:
        raise InvalidInput(
            f"unknown juju field {extra[0]!r}", f"action.{extra[0]}", reason="malformed_action"
        )
    if state.juju_turn:
        raise IllegalAction("one Juju per turn", "action.type", reason="isla_one_juju", params={})
    card = _card(action.get("card"), "action.card", set(state.hands[seat]), "juju")
    target = action.get("target")
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < state.seats:
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
