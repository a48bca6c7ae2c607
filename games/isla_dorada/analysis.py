"""Isla Dorada's piece of the review: decisions judged by the strong bot
(``games.isla_dorada.strong``), the strongest Isla Dorada level, and each seat's score so far.
Everything is a pure function of one seat's view.

The game page has no helper panel, so neither has the review (the position itself is shown).

**Decisions** rated, in *points*:

- *bids* (and passes, Juju), where the strong bot searches: its candidates (the planner's move,
  a pass, the planner's next best bids, up to ``ANALYSIS_CANDIDATES``) and the move made are
  each played on in the same ``ANALYSIS_ROLLOUTS`` states sampled from the seat's view (the
  others' goal cards inferred, ``games.isla_dorada.inference``) to the end of the round's
  treasures, valued by the strong bot's estimate of the final lead (``strong.evaluate``: the
  seat's estimated score less the best other's); a move's value is its mean over the states.
  The loss is the best move's mean less the move made's, **less ``NOISE_SE`` standard errors
  of that paired difference** (state by state; never below 0), as Dragon's Gold's review does.
  An imagined round's lead varies by 2-3 points from state to state (more near the game's
  end, where the rollouts reach the final scores), so a mean over 8 states is noisy and the best
  of four noisy means beats the move made by chance alone. Before this discount the whole
  difference counted once the bot's own test passed (``strong.clearly_better``): over the
  trust bench's 20 games (``games.review_trust``) a normal seat's loss was 0.219 points a
  decision, 0.170 without the noise (the strong seat's 0.068 and 0.043). Whether the winner is
  rated at least as well as the lowest scorer stayed 11 of 18 judged games: normal seats all
  play the planner, so in many games it is the deal that decides (the strong seat itself scores
  least in some, rated best all the same), and 4 or 5 games (1 of 4, 1 of 5) say little.
- *setups* and *cable news* by the strong bot's own estimate of what each keep is worth
  (``games.isla_dorada.keeping``: points of final margin, fitted on games whose keeps were
  drawn at random), the keep made against the best.
- *payments*, *moves* and *treasure plays*, where the strong bot plays the planner's move
  (``games.isla_dorada.planner``), by the planner's values: a place is worth the seat's
  treasures and mission there, minus its curses, plus what lies within reach of it, discounted
  per route; gold 1:1, cards at ``CARD_COST`` per value point. The winner's way to pay is worth
  minus what it costs; continuing along a river (or a detour) the outlook where it arrives,
  stopping the outlook here; treasure plays the points they score.

Draws, lightning cards and discards are not rated. The analysis has a budget of
its own, smaller than the bot's (it judges every bid of a game), and one fixed generator: the
same record gives the same analysis.

Marks (loss in points): **best** ≤ 0.000001, **good** ≤ 0.5, **inaccuracy** ≤ 2 (about one
treasure card's points given away), **mistake** above.

**Score so far** (the chart), from the seat's own view: gold, plus played treasures and their
bonuses, minus played curses, plus the destiny card's points while its mission is achieved; at
the end, the score.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable

from games.analysis import Analyst, Judgement, Thresholds, best_of, seeded
from games.base import Action, get_kind
from games.isla_dorada import keeping, strong
from games.isla_dorada import tables as T
from games.isla_dorada.planner import Mind
from games.review import merged_with_own

THRESHOLDS = Thresholds(good=0.5, inaccuracy=2.0)
#: The analysis's think budget (module doc): states sampled per move, the most candidates
#: beside the move made.
ANALYSIS_ROLLOUTS = 8
ANALYSIS_CANDIDATES = 3
#: Standard errors of a bid's paired difference taken off its loss (module doc).
NOISE_SE = 1.0


def _bid(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """A bid judged by the strong bot's rollouts, less their noise (module doc)."""
    moves = strong.candidates(view, legal, ANALYSIS_CANDIDATES)
    if played not in moves:
        moves.append(played)
    if len(moves) < 2:
        return None
    found = strong.values(view, moves, seeded(), ANALYSIS_ROLLOUTS)
    if found is None:
        return None
    mine = moves.index(played)
    means = {i: statistics.fmean(v) for i, v in enumerate(found)}
    best = best_of(means)
    diffs = [b - m for b, m in zip(found[best], found[mine], strict=True)]
    noise = NOISE_SE * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    if means[mine] + noise >= means[best]:
        best = mine  # no move clearly better than the one made (within the rollouts' noise)
    played_value = min(means[best], means[mine] + noise)
    detail = {"phase": "bid", "noise": round(noise, 3)}
    return Judgement(played_value, means[best], moves[best], len(moves), detail)


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


def _keep_values(view: dict, actions: list[Action]) -> dict[int, float] | None:
    """Each setup or news choice by the strong bot's estimate (``None``: a choice it cannot
    read, as a stored record's malformed move)."""
    try:
        return dict(enumerate(keeping.values(view, actions)))
    except (KeyError, TypeError, StopIteration):
        return None


def judge(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """A move judged by its phase's own hook (``Phase.analysis``, declared with the phase in
    ``games.isla_dorada.engine``); a phase without one is not rated."""
    hook = get_kind("isla_dorada").phase_hook(view["phase"], "analysis")
    return None if hook is None else hook(view, legal, played)


def judge_bid(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """A bid (or a pass, a Juju): the strong bot's rollouts (module doc)."""
    return _bid(view, legal, played)


def judge_pay(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """A way to pay the winning bid, by the planner's values."""
    return _by_values(view, legal, played, lambda actions: _pay_values(Mind(view), actions))


def judge_move(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """A river or detour choice, by the planner's outlook."""
    return _by_values(view, legal, played, lambda actions: _move_values(Mind(view), view, actions))


def judge_treasures(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """Treasure plays, by the points they score."""
    return _by_values(view, legal, played, lambda actions: _treasure_values(view, actions))


def judge_keep(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """A setup or cable news keep, by the strong bot's estimate (``keeping``)."""
    return _by_values(view, legal, played, lambda actions: _keep_values(view, actions))


def _by_values(
    view: dict,
    legal: list[Action],
    played: Action,
    values_of: Callable[[list[Action]], dict[int, float] | None],
) -> Judgement | None:
    """The move made against the best of ``legal``, each valued by ``values_of`` (``None``:
    a move it cannot read, not rated)."""
    values = values_of([*legal, played])  # the move made is valued too
    if values is None:
        return None
    phase = view["phase"]
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

ANALYST = Analyst("points", "score", THRESHOLDS, judge, score_so_far)
