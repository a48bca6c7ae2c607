"""Isla Dorada's piece of the review: decisions judged by the planner's valuation, and each
seat's score so far. Everything is a pure function of one seat's view.

The game page has no helper panel, so neither has the review (the position itself is shown).

**Decisions** rated, in the ``planner`` bot's own values (``games.isla_dorada.planner``: what a
place is worth to me — my treasures and mission there, minus my curses — plus what lies within
reach of it, discounted per route; gold 1:1, cards at ``CARD_COST`` per value point), the unit
*planner points*:

- *bids*: a bid is worth the outlook of where it takes the expedition minus the cards and gold
  it costs, relative to the current high bid's outcome (or, with none, the average open
  route); a pass is worth 0; Juju against the high bidder is worth what the best open route
  gains over the high bid when that reaches ``JUJU_AT`` (the planner's own rule), else 0. Any
  bid made is valued, also one that is not among the representative forms listed.
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

from typing import Any

from games.analysis import Analyst, Judgement, Thresholds, best_of
from games.base import Action, GameKind
from games.isla_dorada import tables as T
from games.isla_dorada.planner import JUJU_AT, Mind, _cost, _dest, my_cards
from games.review import merged_players_view

THRESHOLDS = Thresholds(good=0.5, inaccuracy=2.0)


def _bid_values(mind: Mind, view: dict, actions: list[Action]) -> dict[int, float] | None:
    kinds = my_cards(mind, view)
    auction = view["auction"]
    high = auction["high"]
    if high is not None:
        hb = view["players"][high]["bid"]
        via = T.ROUTE_INDEX[hb["route"]] if hb["route"] else -1
        baseline = mind.arrive_value(T.LOC_INDEX[hb["to"]], via, "sangaia" in hb)
    else:
        exits = [(r, d) for r, d in T.EXITS[mind.here] if r not in mind.blocked]
        baseline = sum(mind.arrive_value(d, r) for r, d in exits) / max(len(exits), 1)
    out: dict[int, float] = {}
    for i, a in enumerate(actions):
        kind = a.get("type")
        if kind == "pass":
            out[i] = 0.0
        elif kind == "juju":
            gain = 0.0
            if a.get("target") == high and high is not None and high != mind.me:
                alts = [
                    mind.arrive_value(d, r) for r, d in T.EXITS[mind.here] if r not in mind.blocked
                ]
                best_alt = max(alts, default=baseline) - baseline
                gain = best_alt if best_alt >= JUJU_AT else 0.0
            out[i] = gain
        elif kind == "bid":
            try:
                dest, via = _dest(mind, a)
                cost = _cost(a, kinds)
            except (KeyError, TypeError, ValueError):
                return None  # a bid naming cards the view does not show: cannot value it
            out[i] = mind.arrive_value(dest, via, "sangaia" in a) - baseline - cost
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


def full_view(kind: GameKind, state: Any) -> dict:
    """Every hand and goal card, and what each seat alone saw (``mine_all``: its offers,
    its treasure plays chosen but not yet revealed, its mission's progress)."""
    full = merged_players_view(kind, state)
    full["mine_all"] = [kind.view(state, s).get("mine") for s in range(kind.seat_count(state))]
    return full


class IslaAnalyst(Analyst):
    unit = "planner_points"
    chart = "score"
    thresholds = THRESHOLDS

    def judge(self, view: dict, legal: list[Action], played: Action) -> Judgement | None:
        return judge(view, legal, played)

    def expected(self, view: dict) -> float | None:
        return score_so_far(view)


ANALYST = IslaAnalyst()
