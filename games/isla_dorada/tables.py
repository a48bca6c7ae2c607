"""Isla Dorada's map and cards as tables, loaded once from ``data/map.json`` and ``data/cards.json``.

Everything is an ``int`` on the hot path: a location, a route, an adventure card (``0..111``)
and a goal card (``0..111``: starting treasures, then standard treasures, curses, destiny cards)
index the tuples below. The JSON forms (ids such as ``"a17"``, ``"t5"``, ``"r12"``) are built
once here; views copy them. Why the map and the splits are what they are is written in the data
files (``about``) and on the rules page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"
MAP_DATA: dict[str, Any] = json.loads((_DIR / "map.json").read_text(encoding="utf-8"))
CARD_DATA: dict[str, Any] = json.loads((_DIR / "cards.json").read_text(encoding="utf-8"))

# --- the map ---------------------------------------------------------------------------------

LAND_TYPES = ("mountain", "desert", "jungle")
WATER_TYPES = ("river", "lake", "sea")
ROUTE_TYPES = LAND_TYPES + WATER_TYPES
FAMILIES: tuple[str, ...] = tuple(MAP_DATA["families"])

LOC_IDS: tuple[str, ...] = tuple(loc["id"] for loc in MAP_DATA["locations"])
LOC_INDEX: dict[str, int] = {x: i for i, x in enumerate(LOC_IDS)}
LOC_COUNT = len(LOC_IDS)
CRASH: int = LOC_INDEX[MAP_DATA["crash_site"]]
LOC_FAMILY: tuple[str | None, ...] = tuple(loc["family"] for loc in MAP_DATA["locations"])

ROUTE_IDS: tuple[str, ...] = tuple(r["id"] for r in MAP_DATA["routes"])
ROUTE_INDEX: dict[str, int] = {x: i for i, x in enumerate(ROUTE_IDS)}
ROUTE_COUNT = len(ROUTE_IDS)
#: Per route: its ends (a river flows from ``ROUTE_A`` to ``ROUTE_B``) and its type.
ROUTE_A: tuple[int, ...] = tuple(LOC_INDEX[r["a"]] for r in MAP_DATA["routes"])
ROUTE_B: tuple[int, ...] = tuple(LOC_INDEX[r["b"]] for r in MAP_DATA["routes"])
ROUTE_TYPE: tuple[str, ...] = tuple(r["type"] for r in MAP_DATA["routes"])
ROUTE_LAND: tuple[bool, ...] = tuple(t in LAND_TYPES for t in ROUTE_TYPE)
LAND_ROUTES: tuple[int, ...] = tuple(r for r in range(ROUTE_COUNT) if ROUTE_LAND[r])
WATER_ROUTES: tuple[int, ...] = tuple(r for r in range(ROUTE_COUNT) if not ROUTE_LAND[r])


def _exits() -> tuple[tuple[tuple[int, int], ...], ...]:
    out: list[list[tuple[int, int]]] = [[] for _ in LOC_IDS]
    for r in range(ROUTE_COUNT):
        a, b = ROUTE_A[r], ROUTE_B[r]
        out[a].append((r, b))
        if ROUTE_TYPE[r] != "river":  # rivers flow one way only
            out[b].append((r, a))
    return tuple(tuple(e) for e in out)


#: Per location: ``(route, destination)`` for every route the expedition may leave it by.
EXITS: tuple[tuple[tuple[int, int], ...], ...] = _exits()
#: Per location: ``(route, other end)`` for every route touching it, whatever a river's
#: direction (the neighbours a flight's Sangaia goes on to).
LINKS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (r, ROUTE_B[r] if ROUTE_A[r] == loc else ROUTE_A[r])
        for r in range(ROUTE_COUNT)
        if loc in (ROUTE_A[r], ROUTE_B[r])
    )
    for loc in range(LOC_COUNT)
)
#: Per location: the locations joined to it by any route, either way (Bongo's "next to").
NEIGHBOURS: tuple[frozenset[int], ...] = tuple(
    frozenset({ROUTE_B[r] for r in range(ROUTE_COUNT) if ROUTE_A[r] == loc})
    | frozenset({ROUTE_A[r] for r in range(ROUTE_COUNT) if ROUTE_B[r] == loc})
    for loc in range(LOC_COUNT)
)


def _distances() -> tuple[tuple[int, ...], ...]:
    """Fewest routes between any two locations, following river arrows (directed BFS)."""
    rows = []
    for start in range(LOC_COUNT):
        dist = [-1] * LOC_COUNT
        dist[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for u in frontier:
                for _, v in EXITS[u]:
                    if dist[v] < 0:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
            frontier = nxt
        rows.append(tuple(dist))
    return tuple(rows)


#: ``DIST[a][b]``: routes from ``a`` to ``b`` along legal moves (``-1``: unreachable).
DIST: tuple[tuple[int, ...], ...] = _distances()

LOCATION_JSON: tuple[dict[str, Any], ...] = tuple(
    {k: v for k, v in loc.items()} for loc in MAP_DATA["locations"]
)
ROUTE_JSON: tuple[dict[str, Any], ...] = tuple(dict(r) for r in MAP_DATA["routes"])


def map_json() -> dict[str, Any]:
    """The view's ``map``: locations, routes and the crash site (fresh copies)."""
    return {
        "locations": [dict(x) for x in LOCATION_JSON],
        "routes": [dict(r) for r in ROUTE_JSON],
        "crash_site": LOC_IDS[CRASH],
        "families": list(FAMILIES),
    }


# --- adventure cards ---------------------------------------------------------------------------

ADVENTURE_KINDS: tuple[dict[str, Any], ...] = tuple(CARD_DATA["adventure"])
#: The kinds that pay routes as themselves (not wild): kind → the route types it pays.
PAYS: dict[str, frozenset[str]] = {
    k["kind"]: frozenset(k["pays"]) for k in ADVENTURE_KINDS if "pays" in k
}
#: Yak, Kamel, Gonogo: the kinds a Shaman converts between; kind → its land route type.
SHAMAN_KINDS: dict[str, str] = {k: next(iter(t)) for k, t in PAYS.items() if t <= set(LAND_TYPES)}
KIND_FOR_LAND: dict[str, str] = {t: k for k, t in SHAMAN_KINDS.items()}
WILD_KINDS: tuple[str, ...] = tuple(k["kind"] for k in ADVENTURE_KINDS if k.get("wild"))
LIGHTNING_KINDS: tuple[str, ...] = tuple(k["kind"] for k in ADVENTURE_KINDS if k.get("lightning"))


def _adventure_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for k in ADVENTURE_KINDS:
        faces = k.get("bonus") or [{}] * k["count"]
        if len(faces) != k["count"]:
            raise ValueError(f"cards.json: {k['kind']} lists {len(faces)} faces for {k['count']}")
        for face in faces:
            cards.append({"kind": k["kind"], **face})
    return cards


_ADV = _adventure_cards()
ADV_COUNT = len(_ADV)
ADV_KIND: tuple[str, ...] = tuple(c["kind"] for c in _ADV)
_KIND_FACTS = {k["kind"]: k for k in ADVENTURE_KINDS}
ADV_VALUE: tuple[int, ...] = tuple(int(_KIND_FACTS[c["kind"]].get("value", 0)) for c in _ADV)
ADV_GOLD: tuple[int, ...] = tuple(int(_KIND_FACTS[c["kind"]].get("gold", 0)) for c in _ADV)
ADV_WILD: tuple[bool, ...] = tuple(bool(_KIND_FACTS[c["kind"]].get("wild")) for c in _ADV)
ADV_LIGHTNING: tuple[bool, ...] = tuple(bool(_KIND_FACTS[c["kind"]].get("lightning")) for c in _ADV)
ADV_FAMILY: tuple[str | None, ...] = tuple(c.get("family") for c in _ADV)
ADV_POINTS: tuple[int, ...] = tuple(int(c.get("points", 0)) for c in _ADV)
ADV_ID: tuple[str, ...] = tuple(f"a{i}" for i in range(ADV_COUNT))
ADV_JSON: tuple[dict[str, Any], ...] = tuple({"id": ADV_ID[i], **c} for i, c in enumerate(_ADV))

# --- goal cards: starting treasures, treasures, curses, destiny ---------------------------------

GOAL_DECKS = (
    ("start", "s", CARD_DATA["starting_treasures"]),
    ("treasure", "t", CARD_DATA["treasures"]),
    ("curse", "c", CARD_DATA["curses"]),
    ("destiny", "d", CARD_DATA["destiny"]),
)
_GOALS: list[tuple[str, str, dict[str, Any]]] = []
for _deck, _prefix, _cards in GOAL_DECKS:
    for _i, _card in enumerate(_cards):
        _GOALS.append((_deck, f"{_prefix}{_i}", _card))
GOAL_COUNT = len(_GOALS)
GOAL_DECK: tuple[str, ...] = tuple(g[0] for g in _GOALS)
GOAL_ID: tuple[str, ...] = tuple(g[1] for g in _GOALS)
GOAL_LOC: tuple[int, ...] = tuple(
    LOC_INDEX[g[2]["location"]] if "location" in g[2] else -1 for g in _GOALS
)
GOAL_POINTS: tuple[int, ...] = tuple(int(g[2]["points"]) for g in _GOALS)
#: Per goal card: the destiny mission (``None`` for other cards).
GOAL_MISSION: tuple[dict[str, Any] | None, ...] = tuple(
    dict(g[2]) if g[0] == "destiny" else None for g in _GOALS
)
GOAL_FAMILY: tuple[str | None, ...] = tuple(
    LOC_FAMILY[GOAL_LOC[g]] if GOAL_LOC[g] >= 0 else None for g in range(GOAL_COUNT)
)
GOALS_OF: dict[str, tuple[int, ...]] = {
    d: tuple(g for g in range(GOAL_COUNT) if GOAL_DECK[g] == d) for d, _, _ in GOAL_DECKS
}
_KIND_OF_DECK = {
    "start": "treasure",
    "treasure": "treasure",
    "curse": "curse",
    "destiny": "destiny",
}


def _goal_json(g: int) -> dict[str, Any]:
    deck, gid, card = _GOALS[g]
    out: dict[str, Any] = {"id": gid, "kind": _KIND_OF_DECK[deck]}
    if deck == "start":
        out["start"] = True
    out.update(card)
    return out


GOAL_JSON: tuple[dict[str, Any], ...] = tuple(_goal_json(g) for g in range(GOAL_COUNT))
IS_TREASURE: tuple[bool, ...] = tuple(d in ("start", "treasure") for d in GOAL_DECK)

#: Any card id (``"a17"``, ``"t5"``...) → ``("a", adventure index)`` or ``("g", goal index)``.
CARD_INDEX: dict[str, tuple[str, int]] = {
    **{x: ("a", i) for i, x in enumerate(ADV_ID)},
    **{x: ("g", i) for i, x in enumerate(GOAL_ID)},
}


def adv_json(card: int) -> dict[str, Any]:
    return dict(ADV_JSON[card])


def goal_json(card: int) -> dict[str, Any]:
    return dict(GOAL_JSON[card])


# --- rules constants -----------------------------------------------------------------------------

RULES: dict[str, Any] = CARD_DATA["rules"]
START_GOLD: int = RULES["gold"]
MARKERS: int = RULES["markers"]
RED_MARKERS: tuple[int, ...] = tuple(RULES["red_markers"])
#: Marker number (1-based) → (treasure cards drawn, kept) of the cable news it brings.
NEWS: dict[int, tuple[int, int]] = {
    int(k): (int(v[0]), int(v[1])) for k, v in RULES["news"].items()
}
HAND_LIMIT: int = RULES["hand_limit"]
DISPLAY_SIZE: int = RULES["display"]
DEAL = RULES["deal"]
OVETOS_MIN: int = RULES["ovetos_min"]
BUY_COST: int = RULES["buy_cost"]
