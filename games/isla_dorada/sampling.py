"""A whole Isla Dorada state sampled from one seat's view during an auction or a draw: the
hidden parts drawn at random, consistently with what the view shows (a *determinization*, for
the strong bot to simulate with the real engine: ``games.isla_dorada.strong``).

What the view shows is copied as it is: the expedition, the round, the markers, the leader,
gold, the explored places, the figures, flights and river steps, every seat's played treasures
(with their bonus and Bongo cards) and curses, auctions won, the face-up cards, the standing
bids with the special cards shown with them, who passed or is barred, whose turn it is (in a
draw: who draws, the step, and so how many seats are still to draw), and the seat's own hand,
treasures, curses and destiny card. What it hides is drawn:

- **adventure cards**: the 112 less the seat's hand, the face-up display, the special cards
  lying with standing bids and the bonus cards played are shuffled; the other hands (their
  sizes as the view says) are dealt from the cards without the lightning symbol (a lightning
  card is used the moment it is taken, so no hand holds one), and what is left makes the
  discards and the deck, their sizes as the view says;
- **goal cards**: every other seat holds one destiny card, its curses (one dealt at setup,
  none left once it played a curse: a Voodoo's extra curse is not in the view, so it is not
  guessed) and treasure cards for the rest of its goal-card count, of which the two starting
  treasures it kept (less those it played) are drawn from the starting treasures nobody has
  shown, the others from the standard ones; the treasure, curse and destiny decks get what is
  left (their sizes are not in the view), the starting treasures left are out of the game.
  Which cards each other seat holds is drawn from what the view lets us infer
  (``goal_belief``, ``games.isla_dorada.inference``): the places the expedition reached while
  it held them, and the destinations it chose (the auctions it won, its standing bid), weigh
  holdings drawn once per decision, and each sampled state takes one by weight (without the
  others' goals the rollouts' other seats chase places of random cards, and the search lost to
  the planner).

The sampled state has its own generator (its seed drawn from ``rng``), so later chance events
(a reshuffle, a thief's pick) are drawn too, and no history (nothing the rules read).
Everything is drawn from ``rng``: the same view and generator give the same state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.isla_dorada import payment as M
from games.isla_dorada import tables as T
from games.isla_dorada.inference import (
    KEPT_STARTS,
    PARTICLES,
    Holding,
    particles,
    read_evidence,
)
from games.isla_dorada.state import IslaState, new_stats
from games.state import generator

#: The phases a view can be sampled in (the strong bot searches its bids and its draws).
SAMPLED_PHASES = frozenset({"bid", "draw"})


class Inconsistent(ValueError):
    """The view does not add up to the game's cards (another rule set, or no auction running)."""


def _adv(card: dict | None) -> int:
    return -1 if card is None else T.CARD_INDEX[card["id"]][1]


def _goal(card: dict) -> int:
    return T.CARD_INDEX[card["id"]][1]


def _bid(view_bid: dict) -> dict[str, Any]:
    """A standing bid as the state keeps it, from the view's spoken form."""
    shaman = view_bid.get("shaman")
    return {
        "route": -1 if view_bid["route"] is None else T.ROUTE_INDEX[view_bid["route"]],
        "to": T.LOC_INDEX[view_bid["to"]],
        "value": view_bid["value"],
        "shaman": -1 if shaman is None else _adv(shaman["card"]),
        "from": "" if shaman is None else shaman["from"],
        "into": "" if shaman is None else shaman["to"],
        "ovetos": _adv(view_bid.get("ovetos")),
        "sangaia": _adv(view_bid.get("sangaia")),
    }


def sample_state(view: dict, rng: random.Random, belief: GoalBelief | None = None) -> IslaState:
    """One state consistent with ``view`` (a seat's view during an auction; see the module
    doc), every hidden part drawn from ``rng``, the other seats' goal cards from ``belief``
    (``goal_belief``; worked out here when not given)."""
    if view["phase"] not in SAMPLED_PHASES or view["you"] is None:
        raise Inconsistent(f"no sampling in phase {view['phase']!r}")
    me: int = view["you"]
    players = view["players"]
    seats = len(players)
    bidding = view["phase"] == "bid"
    auction: dict[str, Any] = view["auction"] if bidding else {"high": None, "turn": 0}
    draw = view.get("draw") or {"seat": 0, "step": "take"}
    explored = [0] * T.LOC_COUNT
    for loc, n in view["explored"].items():
        explored[T.LOC_INDEX[loc]] = n
    bids = [None if p["bid"] is None else _bid(p["bid"]) for p in players]
    state = IslaState(
        seed=0,
        seats=seats,
        options={},
        rng=generator(rng.randrange(2**63)),
        phase=view["phase"],
        moves=view["actions"],
        round=view["round"],
        markers_left=view["markers_left"],
        leader=view["leader"],
        location=T.LOC_INDEX[view["expedition"]],
        gold=[p["gold"] for p in players],
        destiny=[-1] * seats,
        offers=[[] for _ in range(seats)],
        chosen=[False] * seats,
        display=[_adv(c) for c in view["display"]],
        bigfoot=-1 if view["bigfoot"] is None else T.ROUTE_INDEX[view["bigfoot"]],
        leviathan=-1 if view["leviathan"] is None else T.ROUTE_INDEX[view["leviathan"]],
        explored=explored,
        bids=bids,
        high=-1 if auction["high"] is None else auction["high"],
        current=auction["turn"] if bidding else draw["seat"],
        passed=[p["passed"] for p in players],
        barred=[p["barred"] for p in players],
        juju_turn=bidding and _juju_played(view, me),
        draw_left=(view["leader"] - draw["seat"]) % seats or seats,
        draw_step=draw["step"],
        pending=[None] * seats,
        played_treasures=[
            [
                [_goal(t["card"]), _adv(t.get("bonus")), _adv(t.get("bongo"))]
                for t in p["played"]["treasures"]
            ]
            for p in players
        ],
        played_curses=[[_goal(c) for c in p["played"]["curses"]] for p in players],
        wins=[p["wins"] for p in players],
        flights=view["flights"],
        river_steps=view["river_steps"],
        stats=new_stats(seats),
    )
    _deal_adventure(state, view, rng)
    _deal_goals(state, view, belief or goal_belief(view, rng), rng)
    return state


def _juju_played(view: dict, me: int) -> bool:
    """Whether the seat to act already played a Juju this turn (the last action was its Juju:
    a Juju does not end the turn)."""
    return any(e["type"] == "juju" and e["seat"] == me for e in view["last_events"])


def _deal_adventure(state: IslaState, view: dict, rng: random.Random) -> None:
    me = view["you"]
    players = view["players"]
    known = {_adv(c) for c in players[me]["hand"]}
    known.update(state.display)
    for bid in state.bids:
        if bid is not None:
            known.update(bid[k] for k in ("shaman", "ovetos", "sangaia") if bid[k] >= 0)
    for plays in state.played_treasures:
        known.update(bonus for _, bonus, _ in plays if bonus >= 0)
    pool = [c for c in range(T.ADV_COUNT) if c not in known]
    rng.shuffle(pool)
    plain = [c for c in pool if not T.ADV_LIGHTNING[c]]
    sizes = [0 if s == me else p["hand_size"] for s, p in enumerate(players)]
    if sum(sizes) > len(plain) or sum(sizes) + view["deck"] + view["discard"] != len(pool):
        raise Inconsistent("the adventure cards of the view do not add up")
    hands: list[list[int]] = []
    for s, n in enumerate(sizes):
        if s == me:
            hands.append([_adv(c) for c in players[me]["hand"]])
            continue
        hand = _paying_hand(plain, n, state.gold[s], state.bids[s])
        hands.append(hand)
        taken = set(hand)
        plain = [c for c in plain if c not in taken]
    dealt = {c for s, h in enumerate(hands) if s != me for c in h}
    rest = [c for c in pool if c not in dealt]
    state.hands = hands
    state.discard = rest[: view["discard"]]
    state.deck = rest[view["discard"] :]


def _paying_hand(plain: list[int], n: int, gold: int, bid: dict | None) -> list[int]:
    """``n`` cards of the shuffled ``plain`` for a hand: with a standing ``bid``, the cards
    that pay its route first (in their drawn order) until the hand can pay its number (a
    spoken number is one the bidder's hand pays), then the next cards drawn."""
    if bid is None or bid["value"] <= 0:
        return plain[:n]
    rtype = None if bid["route"] < 0 else T.ROUTE_TYPE[bid["route"]]
    conv = None if bid["shaman"] < 0 else (bid["from"], bid["into"])
    hand: list[int] = []
    if conv is not None:  # a Shaman bid: the hand holds a card it converts
        hand += [c for c in plain if T.ADV_KIND[c] == conv[0]][:1]
    for c in plain:
        if len(hand) >= n or M.most(hand, gold, rtype, conv) >= bid["value"]:
            break
        if c not in hand and M.pays(c, rtype, conv):
            hand.append(c)
    if M.most(hand, gold, rtype, conv) < bid["value"]:
        raise Inconsistent("no hand of the unseen cards pays a standing bid")
    chosen = set(hand)
    return hand + [c for c in plain if c not in chosen][: n - len(hand)]


@dataclass
class GoalBelief:
    """What the view says of the other seats' goal cards: the cards nobody has shown, by deck,
    and per other seat how many of each deck it holds and its weighted holdings
    (``inference.particles``)."""

    pools: dict[str, list[int]]
    counts: dict[int, dict[str, int]]
    holdings: dict[int, tuple[list[Holding], list[float]]]


def goal_belief(view: dict, rng: random.Random, size: int = PARTICLES) -> GoalBelief:
    """The other seats' goal cards as far as ``view`` tells (``inference``; ``size`` holdings
    per seat), drawn from ``rng``: worked out once per decision, then drawn from for every
    sampled state."""
    me = view["you"]
    players = view["players"]
    mine = players[me]
    shown = {_goal(c) for c in mine["treasures"] + mine["curses"]}
    shown.update(_goal(c) for c in view["mine"]["offer"])
    if mine["destiny"] is not None:
        shown.add(_goal(mine["destiny"]))
    for p in players:
        shown.update(_goal(t["card"]) for t in p["played"]["treasures"])
        shown.update(_goal(c) for c in p["played"]["curses"])
    pools = {deck: [g for g in T.GOALS_OF[deck] if g not in shown] for deck in T.GOALS_OF}
    evidence = read_evidence(view)
    counts: dict[int, dict[str, int]] = {}
    holdings = {}
    for s, p in enumerate(players):
        if s == me:
            continue
        held = p["goal_cards"] - 1  # one destiny card each after the setup
        played_curse = bool(p["played"]["curses"])
        played_starts = sum(
            1 for t in p["played"]["treasures"] if T.GOAL_DECK[_goal(t["card"])] == "start"
        )
        curses = min(held, 0 if played_curse else T.DEAL["curses"])
        starts = min(held - curses, max(0, KEPT_STARTS - played_starts))
        if held < 0 or curses > len(pools["curse"]) or starts > len(pools["start"]):
            raise Inconsistent("the goal cards of the view do not add up")
        if not pools["destiny"] or held - curses - starts > len(pools["treasure"]):
            raise Inconsistent("the goal cards of the view do not add up")
        counts[s] = {
            "destiny": 1,
            "curse": curses,
            "start": starts,
            "treasure": held - curses - starts,
        }
        holdings[s] = particles(pools, counts[s], evidence[s], rng, size)
    return GoalBelief(pools, counts, holdings)


def _deal_goals(state: IslaState, view: dict, belief: GoalBelief, rng: random.Random) -> None:
    """Each other seat gets one of its holdings in ``belief`` drawn by weight among those that
    share no card with the seats dealt before it (none left: a fresh draw of what is left)."""
    me = view["you"]
    mine = view["players"][me]
    pools = {deck: list(cards) for deck, cards in belief.pools.items()}
    taken: set[int] = set()
    state.treasures = [[] for _ in range(state.seats)]
    state.curses = [[] for _ in range(state.seats)]
    for s in range(state.seats):
        if s == me:
            state.treasures[s] = [_goal(c) for c in mine["treasures"]]
            state.curses[s] = [_goal(c) for c in mine["curses"]]
            state.destiny[s] = -1 if mine["destiny"] is None else _goal(mine["destiny"])
            continue
        holdings, weights = belief.holdings[s]
        free = [
            (h, w)
            for h, w in zip(holdings, weights, strict=True)
            if not any(g in taken for cards in h.values() for g in cards)
        ]
        if free:
            chosen = rng.choices([h for h, _ in free], [w for _, w in free])[0]
        else:
            chosen = {d: rng.sample(pools[d], n) for d, n in belief.counts[s].items()}
        for deck, cards in chosen.items():
            taken.update(cards)
            pools[deck] = [g for g in pools[deck] if g not in taken]
        state.destiny[s] = chosen["destiny"][0]
        state.curses[s] = list(chosen["curse"])
        state.treasures[s] = chosen["start"] + chosen["treasure"]
    for cards in pools.values():
        rng.shuffle(cards)
    state.tdeck = pools["treasure"]
    state.cdeck = pools["curse"]
    state.ddeck = pools["destiny"]
    state.out = pools["start"]
