"""The end of the game: destiny missions and the score breakdown (rules, End and scoring).

A seat scores 1 per gold left, plus its played treasure cards (starting and standard) and bonus
cards, plus its destiny card's points if the mission is achieved, minus its played curse cards.
Missions (``data/cards.json``, ``destiny``), checked on the finished game:

- ``family``: ``count`` locations of the ``family`` carry an exploration marker;
- ``pair``: both ``locations`` carry a marker;
- ``flights``: the expedition flew ``count`` times (anyone's flights);
- ``rivers``: the expedition travelled ``count`` river routes (each leg, continuations too);
- ``leader``: the seat won ``count`` auctions;
- ``treasures``: the seat played ``count`` treasure cards;
- ``gold``: the seat has ``count`` gold left.
"""

from __future__ import annotations

from games.isla_dorada import tables as T
from games.isla_dorada.state import IslaState


def mission_progress(state: IslaState, seat: int, card: int) -> tuple[int, int]:
    """``(done, needed)`` for destiny ``card`` held by ``seat`` (achieved when done >= needed)."""
    m = T.GOAL_MISSION[card]
    assert m is not None
    kind = m["mission"]
    if kind == "family":
        done = sum(
            1
            for loc in range(T.LOC_COUNT)
            if T.LOC_FAMILY[loc] == m["family"] and state.explored[loc]
        )
        return done, m["count"]
    if kind == "pair":
        locs = [T.LOC_INDEX[x] for x in m["locations"]]
        return sum(1 for loc in locs if state.explored[loc]), len(locs)
    if kind == "flights":
        return state.flights, m["count"]
    if kind == "rivers":
        return state.river_steps, m["count"]
    if kind == "leader":
        return state.wins[seat], m["count"]
    if kind == "treasures":
        return len(state.played_treasures[seat]), m["count"]
    if kind == "gold":
        return state.gold[seat], m["count"]
    raise ValueError(f"unknown mission {kind!r}")


def achieved(state: IslaState, seat: int) -> bool:
    card = state.destiny[seat]
    if card < 0:
        return False
    done, needed = mission_progress(state, seat, card)
    return done >= needed


def breakdown(state: IslaState, seat: int) -> dict[str, int]:
    """``{"gold", "treasures", "bonuses", "destiny", "curses", "total"}`` (curses positive)."""
    treasures = sum(T.GOAL_POINTS[g] for g, _, _ in state.played_treasures[seat])
    bonuses = sum(T.ADV_POINTS[b] for _, b, _ in state.played_treasures[seat] if b >= 0)
    destiny = T.GOAL_POINTS[state.destiny[seat]] if achieved(state, seat) else 0
    curses = sum(T.GOAL_POINTS[c] for c in state.played_curses[seat])
    gold = state.gold[seat]
    return {
        "gold": gold,
        "treasures": treasures,
        "bonuses": bonuses,
        "destiny": destiny,
        "curses": curses,
        "total": gold + treasures + bonuses + destiny - curses,
    }
