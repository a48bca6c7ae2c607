"""DAO's piece of the review: the odds helper at any step, take/turn judged by the exact odds,
and each seat's score over the game. Everything is a pure function of one seat's view.

**The helper** is the odds panel the game page shows (``games.dao.odds.helper``): the bust
probability of turning counted over the never-seen cards, take against turn, element scores.

**Decisions.** Every turn is a choice between taking and turning. Both are valued as the
``ev`` bot values them (``odds.action_values`` with the next seat's reply weighed
``OPPONENT_WEIGHT / (seats - 1)``): my exact expected score change now, minus the expected gain
of the next seat facing the position my move leaves. The unit is *expected points*; the best
move is the higher value (a take on a tie, as the bot plays).

Marks (loss in expected points): **best** ≤ 0.000001, **good** ≤ 0.25 (a quarter of a point:
close calls, where the odds barely differ), **inaccuracy** ≤ 1 (a point given away on average),
**mistake** above (e.g. turning into a bust of a third or more against a sure gain).

**Score** (the chart): the seat's points of the finished rounds plus the best-element score of
its pile now, from its own view (its pile is the one pile it sees); at the end, its total.
"""

from __future__ import annotations

from games.analysis import Analyst, Judgement, Thresholds
from games.base import Action
from games.dao import odds
from games.dao.bots import OPPONENT_WEIGHT

THRESHOLDS = Thresholds(good=0.25, inaccuracy=1.0)


def values(view: dict) -> dict[str, float]:
    """``{"take": v, "turn": v}`` from the seat's ``view`` (the ``ev`` bot's values)."""
    weight = OPPONENT_WEIGHT / max(len(view["players"]) - 1, 1)
    pos = odds.position_from_view(view)
    return odds.action_values(pos, odds.others_estimate(view), weight)


def judge(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    kinds = {a.get("type") for a in legal}
    move = played.get("type")
    if kinds != {"take", "turn"} or not isinstance(move, str) or move not in kinds:
        return None
    if not view["display"]:
        return None
    v = values(view)
    best = "turn" if v["turn"] > v["take"] else "take"
    helper = view.get("helper") or {}
    detail = {
        "values": {k: round(x, 3) for k, x in v.items()},
        "bust_probability": round(helper.get("bust_probability", 0.0), 4),
        "take_gain": (helper.get("take") or {}).get("gain"),
        "turn_gain": round((helper.get("turn") or {}).get("gain", 0.0), 3),
    }
    return Judgement(v[move], v[best], {"type": best}, 2, detail)


def score_now(view: dict) -> float:
    """Finished rounds' points plus the pile's best-element score now (the total at the end)."""
    seat = view["you"]
    me = view["players"][seat]
    if view.get("over"):
        return float(me.get("total", 0))
    past = sum(r["scores"][seat] for r in view.get("finished", []))
    return float(past + (me.get("score") or 0))


def helper(view: dict, legal: list[Action]) -> dict | None:
    """The game page's helper (the odds), as the seat's view carries it."""
    return view.get("helper")


ANALYST = Analyst("expected_points", "score", THRESHOLDS, judge, score_now, helper)
