"""The strong Dragon's Gold level at the market (the normal level's policy:
``games.dragons_gold.trading``).

**The strong level** (``strong_market``) rates a swap by its *margin* on the hoards it infers
(``strong.Weigher``: its score less the best other seat's, the real scoring, the mean over
drawn hoards), so a token handed to the likely leader costs more than one handed to a trailing
seat. It accepts an offer that raises its margin by more than ``GAIN``; it offers the swap
with the best expected gain, the margin's rise times the share of draws in which the partner
holds what is asked and would gain by its own (normal) estimate, with the others' counts of
that draw as its rivals. Steps 2, 3 and 5 are the normal policy's.
"""

from __future__ import annotations

import random

from games.base import Action
from games.dragons_gold.data import COLOURS, GEMS
from games.dragons_gold.sampling import Inconsistent
from games.dragons_gold.scoring import majority_points
from games.dragons_gold.strong import Weigher
from games.dragons_gold.trading import (
    GAIN,
    Estimate,
    change,
    market_step,
    normal_market,
    offer,
    offer_key,
    partners,
    refused_offers,
    swaps,
)

#: Hoards drawn to weigh swaps.
SAMPLES = 8


def _partner_gains(
    weigher: Weigher, view: dict, to: int, give: dict[str, int], get: dict[str, int]
) -> float:
    """The share of the weigher's draws in which ``to`` holds ``get`` and gains by its normal
    estimate (the draw's other counts its rivals) from my ``give`` for its ``get``."""
    advanced = view["options"]["advanced"]
    majority = majority_points(view["seats"], advanced)
    yes = 0
    for draw in weigher.draws:
        theirs = draw[to]
        if any(theirs[c] < k for c, k in get.items()):
            continue
        rival = {g: max(h[g] for s, h in enumerate(draw) if s != to) for g in GEMS}
        est = Estimate(advanced, majority, rival)
        hoard = {c: int(n) for c, n in theirs.items()}
        if est(change(hoard, get, give)) > est(hoard) + GAIN:
            yes += 1
    return yes / len(weigher.draws)


def _strong_offer(view: dict, weigher: Weigher) -> Action:
    me = view["me"]
    still = weigher.margin({})
    refused = refused_offers(view)
    best: tuple[float, int, int] | None = None
    choice: Action = {"type": "done"}
    for n, (give, get) in enumerate(swaps(view)):
        theirs = {c: float(k) for c, k in give.items()}
        for c, k in get.items():
            theirs[c] = theirs.get(c, 0.0) - k
        mine = {c: -k for c, k in theirs.items()}
        for to in partners(view, next(iter(get))):
            if offer_key(to, give, get) in refused:
                continue
            rise = weigher.margin({me: mine, to: theirs}) - still
            if rise <= GAIN:
                continue
            worth = rise * _partner_gains(weigher, view, to, give, get)
            key = (worth, -n, -to)
            if worth > 0 and (best is None or key > best):
                best, choice = key, offer(to, give, get)
    return choice


def strong_market(view: dict, legal: list[Action], rng: random.Random) -> Action | None:
    """The strong level's policy (module doc); a view that does not add up gives the normal
    policy's move."""
    try:
        weigher = Weigher.sampled(view, rng, SAMPLES)
    except Inconsistent:
        return normal_market(view, legal)
    me = view["me"]
    still = weigher.margin({})

    def good(o: dict) -> bool:
        mine = {c: float(o["give"].get(c, 0) - o["get"].get(c, 0)) for c in COLOURS}
        theirs = {c: -n for c, n in mine.items()}
        return weigher.margin({me: mine, o["from"]: theirs}) > still + GAIN

    return market_step(view, legal, good, lambda: _strong_offer(view, weigher))
