"""The ``planner`` bot: steer the expedition toward my treasures and mission, away from my curses.

It sees only its view (the map's static tables are public, so it reads them from ``tables``).

- **Places.** ``worth(loc)``: what stopping at ``loc`` is worth to me now: my treasure cards
  there (with a fitting bonus card), next door if I hold a Bongo, minus my curses there, plus my
  destiny mission's share (a family or pair location not explored yet) and a marker's value
  when the mission counts rivers. ``outlook(loc)`` adds the places I can reach from there,
  discounted by distance (``FUTURE`` per route), so the bot also moves *toward* its targets.
- **Bids.** Bids are spoken numbers: the planner sees the standing bids' routes and numbers,
  never the cards behind them (nobody does). Each legal bid form is valued as the outlook of
  where it takes the expedition (river continuations and Sangaia detours at their best) minus
  what paying it would cost me: the cheapest way my own hand pays that number on that route
  (``payment.ways``), gold 1:1 (gold is points) and cards at ``CARD_COST`` per value point
  (cards are future bids), and ``SPECIAL_COST`` per special card shown. Against the current high
  bid's outcome (or, with none, the average open route), the best positive gain is bid; else
  pass (with no bid standing it must open: its best form). Juju bars a high bidder whose move
  would cost me ``JUJU_AT`` or more. Having won, it pays the cheapest way (ties: the cards it
  needs least).
- **The rest.** Play every treasure card it can (with bonuses); keep the news cards and the
  starting treasures closest to reach; take the face-up card that pays the routes toward its
  targets (a treasure map or a thief is taken at once), buy a second card only while gold and
  markers are plentiful; Bigfoot and the Leviathan block the open route toward my worst place;
  the thief robs the biggest hand, voodoo curses the seat with the most played treasure points;
  over the hand limit it drops what pays no route it needs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from games.base import Action, get_kind
from games.isla_dorada import payment
from games.isla_dorada import tables as T

FUTURE = 0.55
CARD_COST = 0.45
#: What showing a special card with a bid costs (it is discarded if the bid wins).
SPECIAL_COST = 0.8
JUJU_AT = 3.0
#: Rough chance a destiny mission of each kind is achieved (keeps the likelier card at setup).
MISSION_ODDS = {
    "family": 0.35,
    "pair": 0.3,
    "flights": 0.6,
    "rivers": 0.6,
    "leader": 0.55,
    "treasures": 0.5,
    "gold": 0.45,
}
_KIND_PAYS = {k: set(t) for k, t in T.PAYS.items()}


#: ``_TOWARD[b][a]``: how much of place ``b``'s value the outlook from ``a`` counts,
#: ``FUTURE ** (routes from a to b - 1)`` (the outlook's table, computed once).
_TOWARD = tuple(
    tuple(FUTURE ** (T.DIST[a][b] - 1) for a in range(T.LOC_COUNT)) for b in range(T.LOC_COUNT)
)


def _outlook(value: list[float]) -> list[float]:
    """Per place ``a``: its value plus ``FUTURE`` times the best discounted value of another
    place (``_TOWARD``). Only the few places with a value are multiplied out: any other place
    counts 0, which is the best when all the valued places are worse."""
    columns = []
    for b, v in enumerate(value):
        if v:
            column = [v * f for f in _TOWARD[b]]
            column[b] = -math.inf  # not the place itself
            columns.append(column)
    zeros = len(value) - len(columns)
    if not columns:
        best = [-math.inf] * len(value)
    else:
        best = list(map(max, *columns)) if len(columns) > 1 else columns[0]
    out = []
    for a, here in enumerate(value):
        other = best[a]
        if zeros - (not here) > 0 and other < 0.0:
            other = 0.0
        out.append(here + FUTURE * (0.0 if other == -math.inf else other))
    return out


def outlook_at(value: list[float], places: list[int]) -> list[float]:
    """``_outlook(value)`` at ``places`` only, worked out as ``_outlook`` works it out (the
    same products, the first of equal maxima): the inference's likelihoods need a few."""
    valued = [(b, v) for b, v in enumerate(value) if v]
    zeros = len(value) - len(valued)
    out = []
    for a in places:
        other = -math.inf
        for i, (b, v) in enumerate(valued):
            x = -math.inf if b == a else v * _TOWARD[b][a]
            if i == 0 or x > other:
                other = x
        here = value[a]
        if zeros - (not here) > 0 and other < 0.0:
            other = 0.0
        out.append(here + FUTURE * (0.0 if other == -math.inf else other))
    return out


@lru_cache(maxsize=4096)
def outlook_of(value: tuple[float, ...]) -> tuple[float, ...]:
    """``_outlook`` of ``value``, remembered: a game's planners (and the strong bot's rollouts
    and inference) ask for the same place values again and again."""
    return tuple(_outlook(list(value)))


@lru_cache(maxsize=1 << 14)
def cheapest_payment(
    cards: tuple[int, ...], gold: int, rtype: str | None, value: int, conv: payment.Conversion
) -> float | None:
    """The least a payment of ``value`` on a route of type ``rtype`` costs a hand of ``cards``
    (sorted) with ``gold`` (``payment_cost``; ``None``: it cannot pay), remembered: the bids of
    many positions ask for the same hands' payments."""
    ways = payment.ways(cards, gold, rtype, value, conv)
    return min((payment_cost(w) for w in ways), default=None)


def payment_cost(cards: list[int]) -> float:
    """What paying with ``cards`` costs me: their gold, and their value as future bids."""
    return CARD_COST * sum(T.ADV_VALUE[c] for c in cards) + payment.cost(cards)


def needed_types(outlook: tuple[float, ...], here: int) -> dict[str, float]:
    """How much each route type out of ``here`` (and one step on) leads toward my best places
    (by their ``outlook``)."""
    need = dict.fromkeys(T.ROUTE_TYPES, 0.0)
    for r, d in T.EXITS[here]:
        gain = outlook[d]
        if gain > 0:
            need[T.ROUTE_TYPE[r]] += gain
        for r2, d2 in T.EXITS[d]:
            if outlook[d2] > 0:
                need[T.ROUTE_TYPE[r2]] += 0.4 * outlook[d2]
    return need


@lru_cache(maxsize=4096)
def _reckoned(value: tuple[float, ...], here: int) -> tuple[tuple[float, ...], Mapping[str, float]]:
    """The outlook of ``value`` and the route types it needs from ``here`` (``needed_types``,
    read-only), remembered: a game's planners (and the strong bot's rollouts) reckon the same
    places again and again."""
    outlook = outlook_of(value)
    return outlook, MappingProxyType(needed_types(outlook, here))


class Mind:
    """What the view says about my position, with the place values cached."""

    def __init__(self, view: dict) -> None:
        self.view = view
        me = view["you"]
        self.me = me
        p = view["players"][me]
        self.hand: list[dict] = p["hand"] or []
        #: My hand as card indices (the payment tables' form).
        self.cards = [T.CARD_INDEX[c["id"]][1] for c in self.hand]
        self._sorted = tuple(sorted(self.cards))
        self.gold: int = p["gold"]
        self.here = T.LOC_INDEX[view["expedition"]]
        self.explored = {T.LOC_INDEX[x] for x in view["explored"]}
        self.blocked = {T.ROUTE_INDEX[r] for r in (view["bigfoot"], view["leviathan"]) if r}
        self.has_bongo = any(c["kind"] == "bongo" for c in self.hand)
        value = self._card_values(p)
        self.mission = (p["destiny"] or {}).get("mission")
        self._add_mission(p["destiny"] or {}, value)
        self.value = value
        # outlook: the best discounted value within reach
        self.outlook, self.need_types = _reckoned(tuple(value), self.here)
        #: ``bid_cost``'s cheapest payment per (route type, number, conversion): the bid forms
        #: of one auction share them (every route of a type, with or without a special card).
        self._cheapest: dict[tuple[str | None, int, tuple[str, str] | None], float | None] = {}
        #: ``arrive_value`` per (destination, route, Sangaia).
        self._arrivals: dict[tuple[int, int, bool], float] = {}

    def _card_values(self, p: dict) -> list[float]:
        """Each place's value by my treasures (with my bonus for its family; with a bongo, 0.6
        of it to its neighbours) less my curses."""
        bonus_by_family: dict[str, int] = {}
        for c in self.hand:
            if c["kind"] == "bonus":
                bonus_by_family[c["family"]] = max(bonus_by_family.get(c["family"], 0), c["points"])
        value = [0.0] * T.LOC_COUNT
        for t in p["treasures"] or []:
            loc = T.LOC_INDEX[t["location"]]
            gain = t["points"] + bonus_by_family.get(T.LOC_FAMILY[loc] or "", 0)
            value[loc] += gain
            if self.has_bongo:
                for n in T.NEIGHBOURS[loc]:
                    value[n] += 0.6 * gain
        for c in p["curses"] or []:
            value[T.LOC_INDEX[c["location"]]] -= c["points"]
        return value

    def _add_mission(self, destiny: dict, value: list[float]) -> None:
        """My mission's points spread over the unexplored places it needs, into ``value``."""
        if self.mission == "family":
            for loc in range(T.LOC_COUNT):
                if T.LOC_FAMILY[loc] == destiny["family"] and loc not in self.explored:
                    value[loc] += destiny["points"] / max(destiny["count"], 1)
        elif self.mission == "pair":
            for x in destiny["locations"]:
                loc = T.LOC_INDEX[x]
                if loc not in self.explored:
                    value[loc] += destiny["points"] / 2

    def card_use(self, card: dict) -> float:
        """How useful an adventure card in hand is to me (for taking and discarding)."""
        kind = card["kind"]
        if kind in _KIND_PAYS:
            return 0.3 + sum(self.need_types[t] for t in _KIND_PAYS[kind]) / 6
        if kind in T.WILD_KINDS:
            return 1.0 if self.gold >= 4 else 0.3
        if kind == "bonus":
            mine = self.view["players"][self.me]["treasures"] or []
            return (
                2.0
                if any(T.LOC_FAMILY[T.LOC_INDEX[t["location"]]] == card["family"] for t in mine)
                else 0.1
            )
        if kind == "map":
            return 3.0
        if kind == "thief":
            return 1.5
        if kind == "bongo":
            return 0.8
        return 0.5

    def payment_cost(self, cards: list[int]) -> float:
        """What paying with ``cards`` costs me: their gold, and their value as future bids."""
        return payment_cost(cards)

    def bid_cost(self, action: Action) -> float | None:
        """What a bid form would cost me if it won: the cheapest way my hand pays its number on
        its route (with its Shaman's conversion), and its special cards (``None``: my hand
        cannot pay it)."""
        rtype = None if "flight" in action else T.ROUTE_TYPE[T.ROUTE_INDEX[action["route"]]]
        shaman = action.get("shaman")
        conv = None if shaman is None else (shaman["from"], shaman["to"])
        memo = (rtype, action["value"], conv)
        if memo not in self._cheapest:
            self._cheapest[memo] = cheapest_payment(
                self._sorted, self.gold, rtype, action["value"], conv
            )
        cheapest = self._cheapest[memo]
        if cheapest is None:
            return None
        shown = ("shaman" in action) + ("ovetos" in action) + ("sangaia" in action)
        return cheapest + SPECIAL_COST * shown

    def arrive_value(self, dest: int, via: int, sangaia: bool = False) -> float:
        """The outlook of a move to ``dest`` along ``via`` (``-1``: a flight), taking river
        continuations and a Sangaia detour at their best for me (remembered: an auction's bid
        forms lead to the same few places)."""
        key = (dest, via, sangaia)
        known = self._arrivals.get(key)
        if known is None:
            known = self._arrivals[key] = self._arrive(dest, via, sangaia)
        return known

    def _arrive(self, dest: int, via: int, sangaia: bool) -> float:
        """``arrive_value``, worked out."""
        if sangaia:
            if via >= 0:
                options = [
                    (r, d)
                    for r, d in T.EXITS[dest]
                    if r != via and r not in self.blocked and T.ROUTE_TYPE[r] == T.ROUTE_TYPE[via]
                ]
            else:  # a flight's Sangaia flies on to any neighbour
                options = [(-1, d) for r, d in T.LINKS[dest] if r not in self.blocked]
            if options:
                return max(self.arrive_value(d, r) for r, d in options)
        best = self.outlook[dest] if dest != T.CRASH else 0.2 * self.outlook[dest]
        if self.mission == "rivers" and via >= 0 and T.ROUTE_TYPE[via] == "river":
            best += 1.0
        if via >= 0 and T.ROUTE_TYPE[via] == "river":
            for r, d in T.EXITS[dest]:
                if T.ROUTE_TYPE[r] == "river" and r not in self.blocked:
                    best = max(best, self.arrive_value(d, r))
        return best


def _dest(mind: Mind, action: Action) -> tuple[int, int]:
    if "flight" in action:
        return T.LOC_INDEX[action["flight"]], -1
    r = T.ROUTE_INDEX[action["route"]]
    d = T.ROUTE_B[r] if T.ROUTE_A[r] == mind.here else T.ROUTE_A[r]
    return d, r


def baseline(mind: Mind, view: dict) -> float:
    """What the auction is worth to me if I do nothing: the high bid's outcome, or (none
    standing) the average open route's."""
    high = view["auction"]["high"]
    if high is not None:
        hb = view["players"][high]["bid"]
        via = T.ROUTE_INDEX[hb["route"]] if hb["route"] else -1
        return mind.arrive_value(T.LOC_INDEX[hb["to"]], via, "sangaia" in hb)
    exits = [(r, d) for r, d in T.EXITS[mind.here] if r not in mind.blocked]
    return sum(mind.arrive_value(d, r) for r, d in exits) / max(len(exits), 1)


def bid_gain(mind: Mind, action: Action, base: float) -> float | None:
    """A bid form's gain over ``base`` for me (``None``: my hand cannot pay it)."""
    cost = mind.bid_cost(action)
    if cost is None:
        return None
    dest, via = _dest(mind, action)
    return mind.arrive_value(dest, via, "sangaia" in action) - base - cost


def juju_gain(mind: Mind, view: dict, action: Action, base: float) -> float:
    """Barring the high bidder is worth what the best open route gains over its bid, once that
    reaches ``JUJU_AT`` (else nothing)."""
    high = view["auction"]["high"]
    if action.get("target") != high or high is None or high == mind.me:
        return 0.0
    alternatives = [mind.arrive_value(d, r) for r, d in T.EXITS[mind.here] if r not in mind.blocked]
    gain = max(alternatives, default=base) - base
    return gain if gain >= JUJU_AT else 0.0


def bid(mind: Mind, view: dict, legal: list[Action]) -> Action:
    base = baseline(mind, view)
    must_open = not any(a["type"] == "pass" for a in legal)
    best, best_gain = None, -1e18 if must_open else 0.0
    for action in legal:
        kind = action["type"]
        if kind == "juju" and juju_gain(mind, view, action, base) > 0:
            return dict(action)
        if kind != "bid":
            continue
        gain = bid_gain(mind, action, base)
        if gain is not None and gain > best_gain:
            best, best_gain = action, gain
    if best is None:
        return {"type": "pass"}
    return dict(best)


def pay(mind: Mind, view: dict, legal: list[Action]) -> Action:
    """The cheapest way to pay (ties: the cards I need least)."""
    by_id = {c["id"]: c for c in mind.hand}

    def key(a: Action) -> tuple[float, float]:
        cards = [T.CARD_INDEX[c][1] for c in a["cards"]]
        return mind.payment_cost(cards), sum(mind.card_use(by_id[c]) for c in a["cards"])

    cheapest: Action = min(legal, key=key)
    return dict(cheapest)


def treasures(mind: Mind, view: dict, legal: list[Action]) -> Action:
    def points(a: Action) -> float:
        total = 0.0
        hand = {c["id"]: c for c in view["players"][view["you"]]["hand"] or []}
        mine = {t["id"]: t for t in view["players"][view["you"]]["treasures"] or []}
        for p in a["plays"]:
            total += mine[p["card"]]["points"] + (hand[p["bonus"]]["points"] if "bonus" in p else 0)
            total -= 0.3 if "bongo" in p else 0
        return total

    best: Action = max(legal, key=points)
    return dict(best)


def _reach(mind: Mind, card: dict) -> float:
    loc = T.LOC_INDEX[card["location"]]
    d = T.DIST[mind.here][loc]
    return card["points"] * (0.75 ** max(d, 0)) + (0.5 if loc not in mind.explored else 0)


def setup(mind: Mind, view: dict, legal: list[Action]) -> Action:
    offer = {c["id"]: c for c in view["mine"]["offer"]}

    def keep_value(a: Action) -> float:
        kept = [
            c
            for cid, c in offer.items()
            if cid not in (a["discard_treasure"], a["discard_destiny"])
        ]
        total = 0.0
        for c in kept:
            if c["kind"] == "destiny":
                total += c["points"] * MISSION_ODDS.get(c["mission"], 0.4)
            else:
                total += _reach(mind, c)
        return total

    best: Action = max(legal, key=keep_value)
    return dict(best)


def news(mind: Mind, view: dict, legal: list[Action]) -> Action:
    offer = {c["id"]: c for c in view["mine"]["offer"]}
    return dict(max(legal, key=lambda a: sum(_reach(mind, offer[c]) for c in a["keep"])))


def draw(mind: Mind, view: dict, legal: list[Action]) -> Action:
    display = {c["id"]: c for c in view["display"]}
    step = view["draw"]["step"]
    if step == "buy":
        early = view["markers_left"] >= 8
        if not (early and mind.gold >= 7 and len(mind.hand) <= 6):
            return {"type": "done"}
    best, best_use = None, 0.9
    for a in legal:
        if "card" in a:
            use = mind.card_use(display[a["card"]])
            if use > best_use:
                best, best_use = a, use
    if best is not None:
        return dict(best)
    deck = [a for a in legal if a.get("deck")]
    if deck:
        return dict(deck[0])
    return dict(legal[0])


def lightning(mind: Mind, view: dict, legal: list[Action]) -> Action:
    kind = legal[0]["type"]
    players = view["players"]
    if kind in ("bigfoot", "leviathan"):
        worst, worst_value = None, 0.0
        routes = {a["route"]: a for a in legal}
        for r, d in T.EXITS[mind.here]:
            rid = T.ROUTE_IDS[r]
            if rid in routes and mind.outlook[d] < worst_value:
                worst, worst_value = routes[rid], mind.outlook[d]
        return dict(worst or legal[0])
    if kind == "thief":
        return dict(max(legal, key=lambda a: players[a["target"]]["hand_size"]))

    def shown(seat: int) -> int:
        return sum(t["card"]["points"] for t in players[seat]["played"]["treasures"])

    return dict(max(legal, key=lambda a: (shown(a["target"]), players[a["target"]]["gold"])))


def discard(mind: Mind, view: dict, legal: list[Action]) -> Action:
    by_id = {c["id"]: c for c in mind.hand}
    return dict(min(legal, key=lambda a: sum(mind.card_use(by_id[c]) for c in a["cards"])))


def move(mind: Mind, view: dict, legal: list[Action]) -> Action:
    move = view["move"]
    if move["kind"] == "detour":
        options = {o["route"]: T.LOC_INDEX[o["to"]] for o in move["options"]}
        return dict(
            max(
                legal,
                key=lambda a: mind.arrive_value(options[a["route"]], T.ROUTE_INDEX[a["route"]]),
            )
        )
    nxt = move["options"][0]
    go = mind.arrive_value(T.LOC_INDEX[nxt["to"]], T.ROUTE_INDEX[nxt["route"]])
    stay = mind.outlook[mind.here] if mind.here != T.CRASH else 0.0
    return {"type": "continue"} if go > stay else {"type": "stop"}


def plan(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The planner's action for ``view`` (deterministic: ``rng`` is not needed): the running
    phase's piece (``Phase.bot["planner"]``, declared with the phase in
    ``games.isla_dorada.engine``), each ``piece(mind, view, legal)``."""
    if len(legal) == 1:
        return dict(legal[0])
    piece = get_kind("isla_dorada").bot_hook(view["phase"], "planner")
    return dict(legal[0]) if piece is None else piece(Mind(view), view, legal)


__all__: list[Any] = ["plan", "Mind"]
