"""Dragon's Gold's piece of the review: decisions judged by the strong bot
(``games.dragons_gold.strong``), the strongest Dragon's Gold level, and each seat's hoard worth
over the game. Everything is a pure function of one seat's view.

The game page has no helper panel, so neither has the review (the position itself is shown).

**Decisions** rated, in *points of lead* (the seat's score less the best other seat's):

- *fight plays*: the strong bot's candidates (the normal bot's play and the next best by its
  scoring, up to ``ANALYSIS_CANDIDATES``) and the play made are each played on in the same
  ``ANALYSIS_ROLLOUTS`` states sampled from the seat's view (``games.dragons_gold.sampling``),
  to the game's end by the strong bot's rollout policy (the others by the normal bot); a play's
  value is its mean final lead. The loss is the best play's mean less the play made's, **less
  one standard error of that paired difference** (the rollouts' noise; never below 0): a few
  imagined games give final leads tens of points apart, and without it the analysis called
  the strong bot's own plays mistakes about as often as anyone's (a winner by 57 points was
  once rated the worst player). Item uses are not rated.
- *picking a lot* in a division: the lead once the lot is mine, on the hoards the strong bot
  infers (``strong.Weigher``, ``ANALYSIS_SAMPLES`` draws).
- *answering a market offer*: the lead after accepting, or as it stands after rejecting, on
  the same inferred hoards.

Negotiation proposals and answers (timed and simultaneous: what a split brings depends on what
the others answer), thefts and divisions are not rated. The analysis has a budget of its own,
smaller than the bot's (it judges every decision of a game), and one fixed generator: the same
record gives the same analysis.

Marks (loss in points of lead, the final score difference the analysis expects): **best** ≤
0.5, **good** ≤ 2, **inaccuracy** ≤ 6 (about half a majority), **mistake** above.

**Hoard worth** (the chart), from the seat's own view: its hoard at the public token worth
(``splits.token_values``); at the end, its score.
"""

from __future__ import annotations

import math
import random
import statistics

from games.analysis import Analyst, Judgement, Thresholds, best_of, seeded
from games.base import Action, get_kind
from games.dragons_gold import strong
from games.dragons_gold.data import COLOURS
from games.dragons_gold.sampling import Inconsistent
from games.dragons_gold.splits import token_values, worth
from games.dragons_gold.views import declared_phase
from games.review import merged_with_own

THRESHOLDS = Thresholds(good=2.0, inaccuracy=6.0, best=0.5)
#: The analysis's think budget (module doc): states sampled per play, the most candidates beside
#: the play made, hoard draws to weigh a lot or a trade.
ANALYSIS_ROLLOUTS = 6
ANALYSIS_CANDIDATES = 3
ANALYSIS_SAMPLES = 8


def _values(view: dict) -> dict[str, float]:
    return token_values(view["seats"], view["options"]["advanced"])


def judge_fight(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    if played.get("type") != "play" or played not in legal:
        return None
    moves = strong.candidates(view, legal, ANALYSIS_CANDIDATES)
    if played not in moves:
        moves.append(played)
    if len(moves) < 2:
        return None
    rng = seeded()
    runs: list[list[float]] = []  # per sampled state, every move's final lead
    for _ in range(ANALYSIS_ROLLOUTS):
        found = strong.values(view, moves, random.Random(rng.randrange(2**63)), 1, strong.lead)
        if found is None:
            return None
        runs.append(found)
    values = {i: statistics.fmean(r[i] for r in runs) for i in range(len(moves))}
    best = best_of(values)
    mine = moves.index(played)
    diffs = [r[best] - r[mine] for r in runs]
    noise = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    if values[mine] + noise >= values[best]:
        best = mine  # no play clearly better than the one made (within the rollouts' noise)
    played_value = min(values[best], values[mine] + noise)
    detail = {"phase": "fight", "noise": round(noise, 3)}
    return Judgement(played_value, values[best], moves[best], len(moves), detail)


def _weigher(view: dict) -> strong.Weigher | None:
    try:
        return strong.Weigher.sampled(view, seeded(), ANALYSIS_SAMPLES)
    except Inconsistent:
        return None


def judge_pick(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    lots = view["negotiation"]["lots"]
    picks = [i for i, a in enumerate(legal) if a["type"] == "pick"]
    if played.get("type") != "pick" or played not in legal or not picks:
        return None
    weigher = _weigher(view)
    if weigher is None:
        return None
    me = view["me"]
    leads = {
        i: weigher.margin({me: {c: float(n) for c, n in lots[legal[i]["lot"]].items()}})
        for i in picks
    }
    best = best_of(leads)
    mine = legal.index(played)
    if leads[mine] >= leads[best]:
        best = mine
    return Judgement(leads[mine], leads[best], legal[best], len(picks), {"phase": "pick"})


def judge_market(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    kind = played.get("type")
    if kind not in ("accept", "reject"):
        return None
    offers = {o["id"]: o for o in view["market"]["offers"]}
    offer = offers.get(played.get("offer"))
    weigher = None if offer is None else _weigher(view)
    if offer is None or weigher is None:
        return None
    me = view["me"]
    mine = {c: float(offer["give"].get(c, 0) - offer["get"].get(c, 0)) for c in COLOURS}
    accepted = weigher.margin({me: mine, offer["from"]: {c: -n for c, n in mine.items()}})
    rejected = weigher.margin({})
    made = accepted if kind == "accept" else rejected
    if made >= max(accepted, rejected):
        return Judgement(made, made, played, 2, {"phase": "market"})
    other = {"type": "accept" if kind == "reject" else "reject", "offer": offer["id"]}
    return Judgement(made, max(accepted, rejected), other, 2, {"phase": "market"})


def judge(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """A move judged by its phase's own hook (``Phase.analysis``, declared with the phase in
    ``games.dragons_gold.engine``: the fight, the pick, the market); the settlement's steps,
    which views call ``negotiation``, by their step."""
    hook = get_kind("dragons_gold").phase_hook(declared_phase(view), "analysis")
    return None if hook is None else hook(view, legal, played)


def hoard_worth(view: dict) -> float:
    seat = view["me"]
    if view["phase"] == "over" and view["scores"] is not None:
        return float(view["scores"][seat])
    return float(worth(view["players"][seat]["hoard"] or {}, _values(view)))


#: Every hoard and hand, and what each seat alone learned (``notes_all``).
full_view = merged_with_own("notes", "notes_all")

ANALYST = Analyst("points_lead", "hoard_worth", THRESHOLDS, judge, hoard_worth)
