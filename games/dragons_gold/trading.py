"""How every Dragon's Gold bot level trades at the market (``games.dragons_gold.market``): it
makes and accepts swaps that raise its own estimate of its score, from its seat's view only, and
leaves when no swap helps.

**The normal estimate** (``Estimate``, levels ``easy`` and ``normal``): the points of gold,
silver, red and the black diamond, plus for each gem colour its majority times the chance of
holding the most, and (advanced rules) 5 per full set, the diamond's owner scoring no gems.
The chance of a majority with ``k`` tokens is ``1 / (1 + exp(-SLOPE × (k - rival)))`` (0 with
none), where ``rival`` is the most any other seat is thought to hold: a shown hoard's count, or
for a hidden screen its share of the colour's unseen tokens (the colour's tokens less mine,
those in the open, out of the game and in shown hoards, spread over the bag and the hidden
screens by their sizes, which are public). So a gem is worth most where a majority is in the
balance, and two seats each strong in another colour both gain by swapping.

**The normal policy** (``normal_market``), each time the bot is asked:

1. an offer made to me: accept it when my estimate rises by more than ``GAIN``, else reject;
2. my own offer stands: wait (``None``) for its answer (or the market's clock);
3. after ``MAX_OFFERS`` offers of mine in this market: leave (``done``);
4. the one-for-one swap that raises my estimate most, to a partner still in the market who
   may hold what I ask (a shown hoard that does not hold it is skipped; the others by most
   tokens first), never an offer refused before (the market keeps them, public): offer it;
5. no such swap: leave.

Every offer a bot makes raises its own estimate; an accepted one changes hoards, a refused one
is never repeated, and a bot makes at most ``MAX_OFFERS``: every bot leaves in the end, and the
market closes (or its clock closes it). The ``easy`` level takes a random helpful swap instead
of the best.

The strong level's trading is ``games.dragons_gold.strong_trading``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from games.base import Action
from games.dragons_gold.data import COLOURS, GEMS, SCORING, TOKEN_COUNTS, empty
from games.dragons_gold.scoring import majority_points
from games.dragons_gold.splits import token_values

#: How sharply the chance of a majority turns around the rival's count (per token).
SLOPE = 1.2
#: A swap must raise an estimate (points) by more than this to be made or accepted.
GAIN = 0.05
#: The most offers a bot makes in one market.
MAX_OFFERS = 6

Tokens = dict[str, int]


@dataclass(frozen=True)
class Estimate:
    """A seat's estimate of its score from its hoard (module doc): ``rival[g]`` is the most any
    other seat is thought to hold of gem ``g``."""

    advanced: bool
    majority: int
    rival: dict[str, float]

    def __call__(self, hoard: Tokens) -> float:
        table = SCORING["advanced" if self.advanced else "basic"]
        total = float(sum(hoard.get(c, 0) * p for c, p in table["points"].items()))
        if self.advanced and hoard.get("black", 0):
            return total  # the diamond's owner scores no gems
        for g in GEMS:
            k = hoard.get(g, 0)
            if k:
                total += self.majority / (1 + math.exp(-SLOPE * (k - self.rival[g])))
        if self.advanced:
            total += min(hoard.get(g, 0) for g in GEMS) * table["set"]
        return total


def estimate_of(view: dict) -> Estimate:
    """The normal estimate of the viewing seat (module doc), from its view."""
    me, players = view["me"], view["players"]
    shown = {s["seat"]: s["hoard"] for s in (view["market"] or {}).get("shown", [])}
    seen = empty()
    for d in view["dragons"]:
        for c, n in d["treasure"].items():
            seen[c] += n
    for c, n in view["removed"].items():
        seen[c] += n
    mine = players[me]["hoard"] or {}
    hidden = [p for p in players if p["seat"] != me and p["seat"] not in shown]
    places = view["bag"] + sum(p["tokens"] for p in hidden)
    rival: dict[str, float] = {}
    for g in GEMS:
        unseen = TOKEN_COUNTS[g] - mine.get(g, 0) - seen[g]
        unseen -= sum(h.get(g, 0) for s, h in shown.items() if s != me)
        best = max((float(h.get(g, 0)) for s, h in shown.items() if s != me), default=0.0)
        for p in hidden:
            if places:
                best = max(best, max(0, unseen) * p["tokens"] / places)
        rival[g] = best
    advanced = view["options"]["advanced"]
    return Estimate(advanced, majority_points(view["seats"], advanced), rival)


def change(hoard: Tokens, give: Tokens, get: Tokens) -> Tokens:
    out = dict(hoard)
    for c, n in give.items():
        out[c] = out.get(c, 0) - n
    for c, n in get.items():
        out[c] = out.get(c, 0) + n
    return out


def offer_key(to: int, give: Tokens, get: Tokens) -> tuple:
    return (to, tuple(give.get(c, 0) for c in COLOURS), tuple(get.get(c, 0) for c in COLOURS))


def refused_offers(view: dict) -> set[tuple]:
    me = view["me"]
    return {
        offer_key(o["to"], o["give"], o["get"])
        for o in view["market"]["refused"]
        if o["from"] == me
    }


def partners(view: dict, colour: str) -> list[int]:
    """Seats still in the market that may hold ``colour``: shown hoards holding it, then the
    hidden screens with tokens, most tokens first."""
    me, mk = view["me"], view["market"]
    shown = {s["seat"]: s["hoard"] for s in mk["shown"]}
    out = []
    for p in sorted(view["players"], key=lambda p: (-p["tokens"], p["seat"])):
        s = p["seat"]
        if s == me or s in mk["done"] or not p["tokens"]:
            continue
        if s in shown and not shown[s].get(colour, 0):
            continue
        out.append(s)
    return out


Answer = Callable[[dict], bool]


def answer(view: dict, legal: list[Action], good: Answer) -> Action | None:
    """Accept the first offer to me that ``good`` approves (and I can honour), else reject
    the first offer to me; ``None`` with no offer to me."""
    offers = {o["id"]: o for o in view["market"]["offers"]}
    for a in legal:
        if a["type"] == "accept" and good(offers[a["offer"]]):
            return dict(a)
    for a in legal:
        if a["type"] == "reject":
            return dict(a)
    return None


def waiting(view: dict) -> bool:
    me = view["me"]
    return any(o["from"] == me for o in view["market"]["offers"])


def waits(view: dict, legal: list[Action]) -> bool:
    """Whether a bot of every level says nothing here (the phase's ``Phase.bot["waits"]``):
    no offer to me to answer and my own offer out, so ``market_step`` waits (``easy`` too:
    its coin's other side is ``normal_market``). The table then marks no bot due for it
    (``web.service.moves.bot_to_act``): it cannot act before someone else does."""
    return not any(a["type"] in ("accept", "reject") for a in legal) and waiting(view)


def swaps(view: dict) -> list[tuple[Tokens, Tokens]]:
    """The swaps (give, get) a bot considers: one or two tokens of a colour I hold for one of
    another colour, never less public worth (``splits.token_values``) to the partner than it
    gives: a partner is not asked to take a plain loss."""
    mine = view["players"][view["me"]]["hoard"] or {}
    points = token_values(view["seats"], view["options"]["advanced"])
    out = []
    for a in COLOURS:
        for n in (1, 2):
            if mine.get(a, 0) < n:
                continue
            for b in COLOURS:
                if b != a and n * points[a] >= points[b] - 1e-9:
                    out.append(({a: n}, {b: 1}))
    return out


def offer(to: int, give: Tokens, get: Tokens) -> Action:
    return {"type": "offer", "to": to, "give": dict(give), "get": dict(get)}


def normal_market(
    view: dict, legal: list[Action], rng: random.Random | None = None
) -> Action | None:
    """The normal policy (module doc); with ``rng`` (the easy level), a random helpful swap."""
    me = view["me"]
    mine = view["players"][me]["hoard"] or {}
    estimate = estimate_of(view)
    now = estimate(mine)

    def good(o: dict) -> bool:
        return estimate(change(mine, o["get"], o["give"])) > now + GAIN

    return market_step(view, legal, good, lambda: _normal_offer(view, estimate, rng))


def market_step(
    view: dict, legal: list[Action], good: Callable[[dict], bool], propose: Callable[[], Action]
) -> Action | None:
    """A step of every level's market policy: accept an offer to me that ``good`` likes (or
    reject it: ``answer``); wait while my own offer is out; leave once I made ``MAX_OFFERS``;
    else my own offer, ``propose()``."""
    answered = answer(view, legal, good)
    if answered is not None:
        return answered
    if waiting(view):
        return None
    if view["market"]["made"][view["me"]] >= MAX_OFFERS:
        return {"type": "done"}
    return propose()


def _normal_offer(view: dict, estimate: Estimate, rng: random.Random | None) -> Action:
    """The swap with the best gain by my ``estimate`` (with ``rng``: a random helpful one) to a
    partner who has not refused it, or leaving."""
    mine = view["players"][view["me"]]["hoard"] or {}
    now = estimate(mine)
    refused = refused_offers(view)
    ranked = []
    for n, (give, get) in enumerate(swaps(view)):
        gain = estimate(change(mine, give, get)) - now
        if gain > GAIN:
            ranked.append((-gain, n, give, get))
    ranked.sort(key=lambda r: (r[0], r[1]))
    if rng is not None:
        rng.shuffle(ranked)
    for _, _, give, get in ranked:
        for to in partners(view, next(iter(get))):
            if offer_key(to, give, get) not in refused:
                return offer(to, give, get)
    return {"type": "done"}
