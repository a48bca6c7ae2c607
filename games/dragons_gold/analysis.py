"""Dragon's Gold's piece of the review: decisions judged by the greedy bot's values, and each
seat's hoard worth over the game. Everything is a pure function of one seat's view.

The game page has no helper panel, so neither has the review (the position itself is shown).

**Decisions** rated, in the ``greedy`` bot's own values (``games.dragons_gold.bots``): tokens
at their public worth (``splits.token_values``: gold 3, silver 1, red 1, black 7 or 12, a gem a
quarter of its majority), the unit *token points*:

- *fight plays*: a hunter on a dragon is worth what the greedy bot expects it to bring (the
  treasure times my share of the attack when it slays, less a negotiation's risk; a fraction of
  that for a play that does not slay yet). Plays the bot never makes (a Sword where it is not
  needed or does not slay) and item uses are not rated.
- *picking a lot* in a division: the lot's worth.
- *answering a market offer*: accepting is worth what I get less what I give; rejecting 0.

Negotiation proposals and answers (timed, simultaneous, and judged by patience rather than a
value), thefts and divisions are not rated.

Marks (loss in token points): **best** ≤ 0.000001, **good** ≤ 1 (a silver token), **inaccuracy**
≤ 3 (a gold token), **mistake** above.

**Hoard worth** (the chart), from the seat's own view: its hoard at the public token worth; at
the end, its score.
"""

from __future__ import annotations

from games.analysis import Analyst, Judgement, Thresholds, best_of
from games.base import Action
from games.dragons_gold.bots import _play_score
from games.dragons_gold.splits import token_values, worth
from games.review import merged_with_own

THRESHOLDS = Thresholds(good=1.0, inaccuracy=3.0)


def _values(view: dict) -> dict[str, float]:
    return token_values(view["seats"], view["options"]["advanced"])


def _fight(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    if played.get("type") != "play":
        return None
    values = _values(view)
    scores: dict[int, float] = {}
    for i, a in enumerate(legal):
        if a["type"] == "play":
            s = _play_score(view, a, values)
            if s is not None:
                scores[i] = s
    mine = _play_score(view, played, values)
    if mine is None or not scores:
        return None
    best = best_of(scores)
    if scores[best] <= mine:
        return Judgement(mine, mine, played, len(scores), {"phase": "fight"})
    return Judgement(mine, scores[best], legal[best], len(scores), {"phase": "fight"})


def _pick(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    lots = view["negotiation"]["lots"]
    values = _values(view)
    picks = {i: worth(lots[a["lot"]], values) for i, a in enumerate(legal) if a["type"] == "pick"}
    if played.get("type") != "pick" or not picks:
        return None
    mine = worth(lots[played["lot"]], values)
    best = best_of(picks)
    best_action = legal[best] if picks[best] > mine else played
    return Judgement(mine, max(mine, picks[best]), best_action, len(picks), {"phase": "pick"})


def _market(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    kind = played.get("type")
    if kind not in ("accept", "reject"):
        return None
    offers = {o["id"]: o for o in view["market"]["offers"]}
    offer = offers.get(played.get("offer"))
    if offer is None:
        return None
    values = _values(view)
    accept = worth(offer["give"], values) - worth(offer["get"], values)
    mine = accept if kind == "accept" else 0.0
    best_value = max(accept, 0.0)
    if best_value <= mine:
        return Judgement(mine, mine, played, 2, {"phase": "market"})
    other = {"type": "accept" if kind == "reject" else "reject", "offer": offer["id"]}
    return Judgement(mine, best_value, other, 2, {"phase": "market"})


def judge(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    phase = view["phase"]
    if phase == "fight":
        return _fight(view, legal, played)
    if phase == "market":
        return _market(view, legal, played)
    neg = view.get("negotiation")
    if phase == "negotiation" and neg is not None and neg["step"] == "pick":
        return _pick(view, legal, played)
    return None


def hoard_worth(view: dict) -> float:
    seat = view["me"]
    if view["phase"] == "over" and view["scores"] is not None:
        return float(view["scores"][seat])
    return float(worth(view["players"][seat]["hoard"] or {}, _values(view)))


#: Every hoard and hand, and what each seat alone learned (``notes_all``).
full_view = merged_with_own("notes", "notes_all")

ANALYST = Analyst("token_points", "hoard_worth", THRESHOLDS, judge, hoard_worth)
