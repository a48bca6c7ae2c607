"""DAO's piece of the review: the odds helper at any step, take/turn judged by the strong bot's
rollouts (``games.dao.strong``, the strongest DAO level), and each seat's score over the game.
Everything is a pure function of one seat's view.

**The helper** is the odds panel the game page shows (``games.dao.odds.helper``): the bust
probability of turning counted over the never-seen cards, take against turn, element scores.

**Decisions.** Every turn is a choice between taking and turning. Both are played on as the
strong bot plays them (``strong.values``): in the same ``ANALYSIS_ROLLOUTS`` deals sampled from
the seat's view, to the game's end by the normal rule for every seat; a move's value is its
mean final *lead* (the seat's total less the best other seat's, in points). The analysis has
one fixed generator, so the same record gives the same analysis; a view that does not add up
is not rated. The best move is the higher value (a take on a tie).

Marks (loss in points of lead): **best** ≤ 0.000001, **good** ≤ 0.75 (about twice the
rollouts' noise: at 64 deals two analyses of a take against a turn on other samples differed by
a median 0.47 points, measured on 30 positions; at 128 about 0.33), **inaccuracy** ≤ 2.5,
**mistake** above. Turning onto a display one card from a bust, against a sure +4 take, loses
about 1.4 points of lead: an inaccuracy (the bust brings cards too, and the take leaves the
next seats a fat display).

**Score** (the chart): the seat's points of the finished rounds plus the best-element score of
its pile now, from its own view (its pile is the one pile it sees); at the end, its total.
"""

from __future__ import annotations

from games.analysis import Analyst, Judgement, Thresholds, seeded
from games.base import Action
from games.dao import strong
from games.search import lead

THRESHOLDS = Thresholds(good=0.75, inaccuracy=2.5)
#: The analysis's think budget: deals sampled per move (module doc); the bot's own is larger.
ANALYSIS_ROLLOUTS = 128
_MOVES: list[Action] = [{"type": "take"}, {"type": "turn"}]


def values(view: dict) -> dict[str, float] | None:
    """``{"take": v, "turn": v}`` from the seat's ``view``: each move's mean final lead over the
    same sampled deals (``None``: the view does not add up)."""
    found = strong.values(view, _MOVES, seeded(), ANALYSIS_ROLLOUTS, lead)
    return None if found is None else {"take": found[0], "turn": found[1]}


def judge(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    kinds = {a.get("type") for a in legal}
    move = played.get("type")
    if kinds != {"take", "turn"} or not isinstance(move, str) or move not in kinds:
        return None
    if not view["display"]:
        return None
    v = values(view)
    if v is None:
        return None
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


ANALYST = Analyst("points_lead", "score", THRESHOLDS, judge, score_now, helper)
