"""What the strong bot keeps of the goal cards it is dealt: at the setup two starting treasures
of three and one destiny card of two, at a cable news one treasure card of two or two of
three. Each legal choice is scored by a linear estimate of the seat's final margin (its score
less the best other seat's), ``WEIGHTS`` times the choice's ``setup_features`` or
``news_features``, and the best is kept. It reads only the seat's view.

**Why a fitted estimate, not the planner's rule.** The planner keeps the starting treasures
nearest the crash site and the destiny card of the likelier mission kind
(``planner.MISSION_ODDS``); measured on games whose keeps were drawn at random, that does no
better than a random keep. The weights in ``data/keep_value.json`` are fitted by
``games.isla_dorada.keep_fit`` on such games (planners for every other step), so each weight is
what keeping that card, or that combination, was worth in points at the end; its file says how
well the fitted choice did on the held-out games (the README has the figures).

The features of a choice are the cards kept (one indicator per card: a card's place, points and
mission carry most of its worth) and a few combinations with what else the seat holds: a
starting treasure at or next to its curse's place, treasures toward its mission's places or
family, two kept treasures near each other, and its mission against its hand (wild cards for a
flights or gold mission, Kayaks for a rivers mission, the hand's value for a leader or
treasures mission). A news card is judged also by where the expedition stands: its points by
routes from there, by the markers left and late in the game, whether its place is explored, and
what else the seat holds there or nearby.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from games.base import Action
from games.isla_dorada import tables as T

_WEIGHTS_FILE = Path(__file__).parent / "data" / "keep_value.json"

#: What a seat's hand is worth toward a mission, per mission kind: the hand's feature.
_MISSION_HAND = {
    "flights": "wild",
    "gold": "wild",
    "rivers": "kayak",
    "leader": "value",
    "treasures": "value",
}
#: A hand's value is counted from this (the six cards of a setup hand are worth about 8).
_HAND_VALUE_FROM = 8


def _near(a: int, b: int, routes: int) -> bool:
    """Whether places ``a`` and ``b`` are at most ``routes`` routes apart."""
    return 0 <= T.DIST[a][b] <= routes


def _hand_facts(view: dict) -> dict[str, float]:
    hand = [T.CARD_INDEX[c["id"]][1] for c in view["players"][view["you"]]["hand"] or []]
    return {
        "wild": float(sum(1 for c in hand if T.ADV_WILD[c])),
        "kayak": float(sum(1 for c in hand if T.ADV_KIND[c] == "kayak")),
        "value": float(sum(T.ADV_VALUE[c] for c in hand) - _HAND_VALUE_FROM),
    }


def _mission_places(destiny: dict | None) -> tuple[str | None, list[int]]:
    """A destiny card's mission kind and the places it names (a pair mission's two)."""
    if not destiny:
        return None, []
    return destiny["mission"], [T.LOC_INDEX[x] for x in destiny.get("locations", [])]


def setup_features(view: dict, action: Action) -> dict[str, float]:
    """The features of a setup choice (``action``: the starting treasure and destiny card
    given up) for the seat whose view this is."""
    me = view["you"]
    dropped = {action["discard_treasure"], action["discard_destiny"]}
    kept = [c for c in view["mine"]["offer"] if c["id"] not in dropped]
    starts = [T.LOC_INDEX[c["location"]] for c in kept if c["kind"] == "treasure"]
    destiny = next(c for c in kept if c["kind"] == "destiny")
    curses = [T.LOC_INDEX[c["location"]] for c in view["players"][me]["curses"] or []]
    out = {f"keep:{c['id']}": 1.0 for c in kept}
    out["start_at_curse"] = float(sum(loc in curses for loc in starts))
    out["start_near_curse"] = float(sum(any(_near(loc, c, 1) for c in curses) for loc in starts))
    mission, places = _mission_places(destiny)
    if mission == "family":
        out["family_starts"] = float(sum(T.LOC_FAMILY[loc] == destiny["family"] for loc in starts))
    if mission == "pair":
        out["pair_starts"] = float(sum(loc in places for loc in starts))
        out["pair_near_starts"] = float(
            sum(any(_near(loc, p, 1) for p in places) for loc in starts)
        )
    if len(starts) == 2:
        out["starts_adjacent"] = float(_near(starts[0], starts[1], 1))
        out["starts_close"] = float(_near(starts[0], starts[1], 2))
    if mission in _MISSION_HAND:
        out[f"{mission}_hand"] = _hand_facts(view)[_MISSION_HAND[mission]]
    return out


def news_features(view: dict, action: Action) -> dict[str, float]:
    """The features of a cable news choice (``action``: the treasure cards kept) for the seat
    whose view this is."""
    me = view["you"]
    mine = view["players"][me]
    offer = {c["id"]: c for c in view["mine"]["offer"]}
    here = T.LOC_INDEX[view["expedition"]]
    explored = {T.LOC_INDEX[x] for x in view["explored"]}
    held = [T.LOC_INDEX[t["location"]] for t in mine["treasures"] or []]
    curses = {T.LOC_INDEX[c["location"]] for c in mine["curses"] or []}
    mission, places = _mission_places(mine["destiny"])
    left = view["markers_left"] / T.MARKERS
    late = float(view["markers_left"] <= T.MARKERS - T.RED_MARKERS[-1])  # the last news
    out: dict[str, float] = {}

    def add(name: str, value: float) -> None:
        out[name] = out.get(name, 0.0) + value

    for cid in action["keep"]:
        card = offer[cid]
        loc, points = T.LOC_INDEX[card["location"]], float(card["points"])
        routes = T.DIST[here][loc]
        routes = 4 if routes < 0 else min(routes, 4)
        add(f"keep:{cid}", 1.0)
        add(f"points_at_{routes}", points)
        add("points_left", points * left)
        add("points_routes_left", points * routes * left)
        add("points_late", points * late)
        add("routes_late", routes * late)
        add("explored", float(loc in explored))
        add("at_held", float(loc in held))
        add("near_held", float(any(_near(loc, h, 1) for h in held if h != loc)))
        add("at_curse", float(loc in curses))
        if mission == "family":
            add("family", float(T.LOC_FAMILY[loc] == mine["destiny"]["family"]))
        if mission == "pair":
            add("pair_open", float(loc in places and loc not in explored))
            add("pair_near", float(any(_near(loc, p, 1) for p in places)))
    return out


#: The features of a choice, per phase.
FEATURES: dict[str, Callable[[dict, Action], dict[str, float]]] = {
    "setup": setup_features,
    "news": news_features,
}


def _load_weights() -> dict[str, dict[str, float]]:
    data = json.loads(_WEIGHTS_FILE.read_text())
    return {phase: dict(data["weights"][phase]) for phase in FEATURES}


#: Per phase, the weight of each feature (a feature with no weight counts 0).
WEIGHTS = _load_weights()


def value(weights: dict[str, float], features: dict[str, float]) -> float:
    """The estimate of a choice: its features times their weights."""
    return sum(weights.get(name, 0.0) * x for name, x in features.items())


def values(view: dict, choices: Sequence[Action]) -> list[float]:
    """The estimate of each of ``choices`` (a setup's or a cable news') for the seat whose view
    this is: what the bot weighs and the review judges by."""
    phase = view["phase"]
    weights, features = WEIGHTS[phase], FEATURES[phase]
    return [value(weights, features(view, a)) for a in choices]


def best(view: dict, legal: Sequence[Action]) -> Action:
    """The choice of ``legal`` (a setup or a cable news) with the best estimate (the first of
    equals)."""
    estimates = values(view, legal)
    return dict(legal[estimates.index(max(estimates))])
