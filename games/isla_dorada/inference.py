"""What one seat's view lets it infer of the other seats' hidden goal cards (for the strong
bot's sampled states, ``games.isla_dorada.sampling``): a weighted set of *particles* per other
seat, each a holding of goal cards (its destiny card, curse, starting and standard treasures)
drawn from the cards nobody has shown, weighted by how well it explains what that seat did in
the open. Only the view is read (its ``history`` of rounds, the played cards, the standing
bids, the goal-card counts), never the hidden state.

**How it came by them** (the draw, ``holding``). The cards are drawn as the planner would have
kept them: the better of two destiny cards by its mission's odds, two starting treasures of
three by their points and distance from the crash site, one of two and two of three treasures
of each cable news by their distance from where the news came (``planner._reach``).

**Where the expedition went** (hard evidence, kept soft). A curse is played the moment the
expedition reaches its place, and a player plays the treasures it holds where the expedition
stops (the planner always does): so a seat's curse from the setup is rarely at a place reached
since the setup, its starting treasures rarely at one reached since the setup, its standard
treasures rarely at one reached since the cable news that dealt them. A card at such a
place is drawn with weight ``MISSED`` instead of 1 (a human may keep a treasure back, a Bongo
play or a treasure map bend the story: never impossible).

**What it bid for** (soft evidence). The planner bids toward the place of its best outlook
(its treasures, less its curses, its mission's unexplored places, discounted by distance).
Every round's record names the auction's winner and where it took the expedition, and a
standing bid names its destination: each such choice weighs a holding by
``exp(beta * (outlook at the destination - the best outlook of a place the bid could have
named))``, the outlook reckoned from the holding as it was then (the treasures and curses the
seat played since added back, the standard treasures left out before the first news, the places
explored then), ``beta`` ``BETA_NOW`` for a standing bid and ``BETA_PAST`` for a won one.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from games.isla_dorada import tables as T
from games.isla_dorada.planner import MISSION_ODDS, outlook_at

#: How many holdings are drawn for each other seat per decision.
PARTICLES = 64
#: The draw weight of a card at a place the expedition reached while the seat held it.
MISSED = 0.05
#: How sharply a standing bid's destination picks the holdings it suits (per outlook point).
BETA_NOW = 3.0
#: The same for the destination of an auction the seat won in an earlier round.
BETA_PAST = 1.5

#: The starting treasures each seat keeps at setup (of those it is dealt, one leaves the game).
KEPT_STARTS: int = T.DEAL["keep_treasures"]


@dataclass(frozen=True)
class Choice:
    """A destination a seat chose (a bid it won, or its standing bid): from ``here`` to
    ``dest``, with the places explored then, the points it played since (added back to what
    it held then, by place), and whether its standard treasures were dealt by then."""

    here: int
    dest: int
    explored: frozenset[int]
    later: tuple[tuple[int, float], ...]
    standard: bool
    beta: float


@dataclass(frozen=True)
class News:
    """A cable news that dealt treasure cards: where the expedition stood, the places explored
    then, how many cards each seat drew and kept, and the places reached since."""

    here: int
    explored: frozenset[int]
    drawn: int
    kept: int
    since: frozenset[int]


@dataclass
class Evidence:
    """What one other seat showed: the places reached since the setup, the cable news so far,
    and the destinations it chose."""

    since_setup: frozenset[int]
    news: list[News]
    choices: list[Choice]


#: A holding of goal cards: by deck (``destiny``, ``curse``, ``start``, ``treasure``), the cards.
Holding = dict[str, list[int]]


def read_evidence(view: dict) -> dict[int, Evidence]:
    """Per other seat, what its view shows of its choices (module doc)."""
    me = view["you"]
    seats = len(view["players"])
    records = view["history"]
    arrivals = [T.LOC_INDEX[r["path"][-1]] for r in records]
    placed = 0
    news_after: int | None = None  # the index of the record after whose round the first news came
    news = []
    explored_then: set[int] = set()
    for i, r in enumerate(records):
        placed += bool(r["marker"])
        if r["marker"]:
            explored_then.add(arrivals[i])
        if r["marker"] and placed in T.NEWS:
            news_after = i if news_after is None else news_after
            drawn, kept = T.NEWS[placed]
            since = frozenset(arrivals[i + 1 :])
            news.append(News(arrivals[i], frozenset(explored_then), drawn, kept, since))
    out: dict[int, Evidence] = {}
    for s in range(seats):
        if s == me:
            continue
        choices = []
        explored: set[int] = set()
        for i, r in enumerate(records):
            if r["leader"] == s and len(r["path"]) > 1:
                choices.append(
                    Choice(
                        here=T.LOC_INDEX[r["path"][0]],
                        dest=T.LOC_INDEX[r["path"][1]],
                        explored=frozenset(explored),
                        later=_played_since(records, i, s),
                        standard=news_after is not None and i > news_after,
                        beta=BETA_PAST,
                    )
                )
            if r["marker"]:
                explored.add(arrivals[i])
        bid = view["players"][s]["bid"]
        if view["phase"] == "bid" and bid is not None:
            choices.append(
                Choice(
                    here=T.LOC_INDEX[view["expedition"]],
                    dest=T.LOC_INDEX[bid["to"]],
                    explored=frozenset(T.LOC_INDEX[x] for x in view["explored"]),
                    later=(),
                    standard=news_after is not None,
                    beta=BETA_NOW,
                )
            )
        out[s] = Evidence(frozenset(arrivals), news, choices)
    return out


def _played_since(records: list[dict], first: int, seat: int) -> tuple[tuple[int, float], ...]:
    """The points by place of the treasures (plus) and curses (minus) ``seat`` played in the
    rounds from record ``first`` on (it held them when it bid in that round)."""
    out = []
    for r in records[first:]:
        for t in r["treasures"]:
            if t["seat"] == seat:
                out.append((T.LOC_INDEX[t["card"]["location"]], float(t["card"]["points"])))
        for c in r["curses"]:
            if c["seat"] == seat:
                out.append((T.LOC_INDEX[c["card"]["location"]], -float(c["card"]["points"])))
    return tuple(out)


def place_values(holding: Holding, choice: Choice) -> list[float]:
    """What each place was worth to a seat holding ``holding`` when it made ``choice`` (the
    planner's reckoning, without the bonus and Bongo cards nobody sees)."""
    value = [0.0] * T.LOC_COUNT
    for g in holding["start"] + (holding["treasure"] if choice.standard else []):
        value[T.GOAL_LOC[g]] += T.GOAL_POINTS[g]
    for g in holding["curse"]:
        value[T.GOAL_LOC[g]] -= T.GOAL_POINTS[g]
    for loc, points in choice.later:
        value[loc] += points
    m = T.GOAL_MISSION[holding["destiny"][0]]
    if m is not None and m["mission"] == "family":
        for loc in range(T.LOC_COUNT):
            if T.LOC_FAMILY[loc] == m["family"] and loc not in choice.explored:
                value[loc] += m["points"] / max(m["count"], 1)
    elif m is not None and m["mission"] == "pair":
        for x in m["locations"]:
            if T.LOC_INDEX[x] not in choice.explored:
                value[T.LOC_INDEX[x]] += m["points"] / 2
    return value


def log_likelihood(holding: Holding, choices: list[Choice]) -> float:
    """How well ``holding`` explains the seat's ``choices`` (module doc), as a log weight."""
    total = 0.0
    for c in choices:
        places = [d for _, d in T.EXITS[c.here]] + [c.dest]
        outlook = outlook_at(place_values(holding, c), places)
        total += c.beta * (outlook[-1] - max(outlook))
    return total


def draw(pool: list[int], n: int, avoid: frozenset[int], rng: random.Random) -> list[int]:
    """``n`` cards of ``pool`` without repeats, a card at a place of ``avoid`` ``MISSED`` times
    as likely as another (weighted keys: Efraimidis and Spirakis)."""
    if n <= 0:
        return []
    random, log, where = rng.random, math.log, T.GOAL_LOC  # the loop's names, looked up once
    keys = [
        (log(u) / (MISSED if where[g] in avoid else 1.0) if (u := random()) > 0 else -math.inf, g)
        for g in pool
    ]
    keys.sort(reverse=True)
    return [g for _, g in keys[:n]]


def _reach(card: int, here: int, explored: frozenset[int]) -> float:
    """How the planner ranks a treasure card it is offered (``planner._reach``): its points
    discounted by the routes from ``here``, and a little more for a place not explored."""
    loc = T.GOAL_LOC[card]
    d = T.DIST[here][loc]
    return T.GOAL_POINTS[card] * (0.75 ** max(d, 0)) + (0.5 if loc not in explored else 0.0)


def _kept(cards: list[int], n: int, here: int, explored: frozenset[int]) -> list[int]:
    """The ``n`` of ``cards`` the planner keeps when offered them at ``here`` (``_reach``)."""
    return sorted(cards, key=lambda g: -_reach(g, here, explored))[:n]


def _mission_worth(card: int) -> float:
    m = T.GOAL_MISSION[card]
    return T.GOAL_POINTS[card] * MISSION_ODDS.get(m["mission"] if m else "", 0.4)


def holding(
    pools: dict[str, list[int]], counts: dict[str, int], evidence: Evidence, rng: random.Random
) -> Holding:
    """One holding of ``counts`` cards per deck, drawn as the planner would have come by it:
    the better destiny card of two, the starting treasures it keeps of one more drawn at the
    crash site, the treasures it keeps of each cable news's cards where the news came (any more
    drawn as they come, any fewer dropped at random: played, or from a treasure map), a card at
    a place reached since it was dealt drawn ``MISSED`` as often."""
    nothing = frozenset[int]()
    destiny = max(draw(pools["destiny"], 2, nothing, rng), key=_mission_worth)
    n = counts["start"]
    start = _kept(draw(pools["start"], n + 1, evidence.since_setup, rng), n, T.CRASH, nothing)
    curse = draw(pools["curse"], counts["curse"], evidence.since_setup, rng)
    m = counts["treasure"]
    treasure: list[int] = []
    for news in evidence.news:
        if len(treasure) >= m:
            break
        pool = [g for g in pools["treasure"] if g not in treasure]
        offer = draw(pool, news.drawn, news.since, rng)
        treasure += _kept(offer, news.kept, news.here, news.explored)
    if len(treasure) > m:
        treasure = rng.sample(treasure, m)
    elif len(treasure) < m:
        pool = [g for g in pools["treasure"] if g not in treasure]
        treasure += draw(pool, m - len(treasure), nothing, rng)
    return {"destiny": [destiny], "curse": curse, "start": start, "treasure": treasure}


def particles(
    pools: dict[str, list[int]],
    counts: dict[str, int],
    evidence: Evidence,
    rng: random.Random,
    size: int = PARTICLES,
) -> tuple[list[Holding], list[float]]:
    """``size`` holdings of ``counts`` cards per deck drawn from ``pools`` (``holding``), and
    their weights (``log_likelihood`` of the seat's choices)."""
    holdings = [holding(pools, counts, evidence, rng) for _ in range(size)]
    logs = [log_likelihood(h, evidence.choices) for h in holdings]
    top = max(logs)
    return holdings, [math.exp(x - top) for x in logs]
