"""Isla Dorada's piece of the review: decisions judged by the planner's valuation, and each
seat's score so far. Everything is a pure function of one seat's view.

The game page has no helper panel, so neither has the review (the position itself is shown).

**Decisions** rated, in the ``planner`` bot's own values (``games.isla_dorada.planner``: what a
place is worth to me — my treasures and mission there, minus my curses — plus what lies within
reach of it, discounted per route; gold 1:1, cards at ``CARD_COST`` per value point), the unit
*planner points*:

- *bids*: a bid is worth the outlook of where it takes the expedition minus what paying it
  would cost the bidder (the cheapest way its own hand pays that number on that route: cards
  and gold), relative to the current high bid's outcome (or, with none, the average open
  route); a pass is worth 0; Juju against the high bidder is worth what the best open route
  gains over the high bid when that reaches ``JUJU_AT`` (the planner's own rule), else 0. Any
  bid made is valued, also one that is not among the representative forms listed.
- *payments*: the winner's way to pay is worth minus what it costs (cards at ``CARD_COST`` per
  value point, gold 1:1).
- *moves*: continuing along a river (or a detour) is worth the outlook where it arrives,
  stopping the outlook here.
- *treasure plays*: the points the plays score.

Setup, news, draws, lightning cards and discards are not rated.

Marks (loss in planner points): **best** ≤ 0.000001, **good** ≤ 0.5, **inaccuracy** ≤ 2 (about
one treasure card's points given away), **mistake** above.

**Score so far** (the chart), from the seat's own view: gold, plus played treasures and their
bonuses, minus played curses, plus the destiny card's points while its mission is achieved; at
the end, the score.
"""

from __future__ import annotations

from games.analysis import Analyst, Judgement, Thresholds, best_of
from games.base import Action
from games.isla_dorada import tables as T
from games.isla_dorada.planner import Mind, baseline, bid_gain, juju_gain
from games.review import merged_with_own

THRESHOLDS = Thresholds(good=0.5, inaccuracy=2.0)


def _bid_values(mind: Mind, view: dict, actions: list[Action]) -> dict[int, float] | None:
    base = baseline(mind, view)
    out: dict[int, float] = {}
    for i, a in enumerate(actions):
        kind = a.get("type")
        if kind == "pass":
            out[i] = 0.0
        elif kind == "juju":
            out[i] = juju_gain(mind, view, a, base)
        elif kind == "bid":
            try:
                gain = bid_gain(mind, a, base)
            except (KeyError, TypeError, ValueError):
                return None  # a bid the view cannot value
            if gain is None:
                return None
            out[i] = gain
    return out


def _pay_values(mind: Mind, actions: list[Action]) -> dict[int, float] | None:
    out: dict[int, float] = {}
    for i, a in enumerate(actions):
        try:
            cards = [T.CARD_INDEX[c][1] for c in a["cards"]]
        except (KeyError, TypeError):
            return None
        out[i] = -mind.payment_cost(cards)
    return out


def _move_values(mind: Mind, view: dict, actions: list[Action]) -> dict[int, float] | None:
    move = view.get("move")
    if move is None:
        return None
    options = {o["route"]: T.LOC_INDEX[o["to"]] for o in move["options"]}
    stay = mind.outlook[mind.here] if mind.here != T.CRASH else 0.0
    out: dict[int, float] = {}
    for i, a in enumerate(actions):
        kind = a.get("type")
        if kind == "stop":
            out[i] = stay
        elif kind == "continue":
            nxt = move["options"][0]
            out[i] = mind.arrive_value(T.LOC_INDEX[nxt["to"]], T.ROUTE_INDEX[nxt["route"]])
        elif kind == "detour" and a.get("route") in options:
            out[i] = mind.arrive_value(options[a["route"]], T.ROUTE_INDEX[a["route"]])
        else:
            return None
    return out


def _treasure_values(view: dict, actions: list[Action]) -> dict[int, float] | None:
    me = view["players"][view["you"]]
    hand = {c["id"]: c for c in me["hand"] or []}
    mine = {t["id"]: t for t in me["treasures"] or []}
    out: dict[int, float] = {}
    for i, a in enumerate(actions):
        total = 0.0
        try:
            for p in a["plays"]:
                total += mine[p["card"]]["points"]
                if "bonus" in p:
                    total += hand[p["bonus"]]["points"]
        except (KeyError, TypeError):
            return None
        out[i] = total
    return out


def judge(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    phase = view["phase"]
    actions = [*legal, played]  # the move made is valued too (bids may not be a listed form)
    values: dict[int, float] | None
    if phase == "bid":
        values = _bid_values(Mind(view), view, actions)
    elif phase == "pay":
        values = _pay_values(Mind(view), actions)
    elif phase == "move":
        values = _move_values(Mind(view), view, actions)
    elif phase == "treasure":
        values = _treasure_values(view, actions)
    else:
        return None
    if values is None:
        return None
    played_value = values.pop(len(legal))
    best = best_of(values) if values else None
    if best is None or values[best] <= played_value:
        return Judgement(played_value, played_value, played, len(values), {"phase": phase})
    return Judgement(played_value, values[best], legal[best], len(values), {"phase": phase})


def score_so_far(view: dict) -> float:
    seat = view["you"]
    if view.get("over"):
        return float(view["scores"][seat])
    p = view["players"][seat]
    played = p["played"]
    total = p["gold"]
    for t in played["treasures"]:
        total += t["card"]["points"] + (t["bonus"]["points"] if "bonus" in t else 0)
    total -= sum(c["points"] for c in played["curses"])
    mission = (view.get("mine") or {}).get("mission")
    if mission and mission.get("achieved") and p.get("destiny"):
        total += p["destiny"]["points"]
    return float(total)


#: Every hand and goal card, and what each seat alone saw (``mine_all``: its offers, its
#: treasure plays chosen but not yet revealed, its mission's progress).
full_view = merged_with_own("mine", "mine_all")

ANALYST = Analyst("planner_points", "score", THRESHOLDS, judge, score_so_far)
