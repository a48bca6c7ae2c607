"""The strong bot's rollouts made cheaper, the same computation (``games.isla_dorada.strong``):
a lean view for the planner's moves inside a rollout, and a copy of a sampled state.

**The lean view** (``planner_view``). A rollout asks the planner for every seat's move, and the
full view (``views.observe``) builds the map, the history and the played cards through JSON each
time, most of which the planner never reads. ``planner_view`` builds only the parts the planner
reads (the seat's cards, gold, the expedition, the explored places, the blockers, the face-up
cards, the markers left, every seat's gold, hand size and standing bid, and the running phase's
piece) exactly as ``observe`` builds them; any other key, at the top, in a seat's entry or in
``mine``, is looked up in the full view, built then (``Lean``): the planner sees the same values
whatever it reads by ``[]`` (it must not test keys with ``in`` or ``get``: ``planner`` does not).
A lean view describes the state as it was when made: use it before the state changes.

**The copy** (``copy_state``). The search samples one state per seed and hands every candidate
its own copy (``games.search.Problem.copy``) instead of sampling it again: the lists and dicts of
the state copied, its generator too (its later draws are the same as the original's), nothing
shared that a move changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from functools import partial
from typing import Any

from games.isla_dorada import auction as A
from games.isla_dorada import tables as T
from games.isla_dorada.state import IslaState
from games.isla_dorada.views import _order
from games.state import OVER, Generator

_adv = T.adv_json
_goal = T.goal_json


#: Each adventure card's place in a view's hand (``views._order`` of its JSON): sorting the
#: cards by it, stably, gives the order ``observe`` sorts their JSON in.
_HAND_ORDER = tuple(_order(T.ADV_JSON[c]) for c in range(T.ADV_COUNT))


class Lean(dict[str, Any]):
    """A view's parts built so far; any other key is read from ``full()`` (the whole view or
    its part, built once, when first needed)."""

    def __init__(self, parts: dict[str, Any], full: Callable[[], dict]) -> None:
        super().__init__(parts)
        self._full = full

    def __missing__(self, key: str) -> Any:
        return self._full()[key]


def planner_view(kind: Any, state: IslaState, seat: int) -> dict:
    """``seat``'s view for the planner (module doc): the parts it reads as ``observe`` builds
    them, the rest from the full view if asked for. The whole view for a finished game."""
    if state.phase == OVER:
        full: dict = kind.view(state, seat)
        return full
    cache: list[dict] = []

    def whole() -> dict:
        if not cache:
            cache.append(kind.view(state, seat))
        return cache[0]

    bidding = state.phase == "bid"
    players = []
    for s in range(state.seats):
        bid = state.bids[s] if bidding else None
        parts: dict[str, Any] = {
            "seat": s,
            "gold": state.gold[s],
            "hand_size": len(state.hands[s]),
            "bid": A.bid_json(bid) if bid is not None else None,
        }
        if s == seat:
            parts["hand"] = [_adv(c) for c in sorted(state.hands[s], key=_HAND_ORDER.__getitem__)]
            parts["treasures"] = [_goal(g) for g in state.treasures[s]]
            parts["curses"] = [_goal(g) for g in state.curses[s]]
            parts["destiny"] = _goal(state.destiny[s]) if state.destiny[s] >= 0 else None
        else:
            parts["hand"] = parts["treasures"] = parts["curses"] = parts["destiny"] = None
        players.append(Lean(parts, partial(_entry, whole, s)))
    view = Lean(
        {
            "expedition": T.LOC_IDS[state.location],
            "markers_left": state.markers_left,
            "phase": state.phase,
            "you": seat,
            "players": players,
            "display": [_adv(c) for c in state.display],
            "bigfoot": T.ROUTE_IDS[state.bigfoot] if state.bigfoot >= 0 else None,
            "leviathan": T.ROUTE_IDS[state.leviathan] if state.leviathan >= 0 else None,
            "explored": {T.LOC_IDS[i]: n for i, n in enumerate(state.explored) if n},
            "mine": Lean(
                {"offer": [_goal(g) for g in state.offers[seat]]}, lambda: whole()["mine"]
            ),
        },
        whole,
    )
    phase = kind.phase(state)
    if phase is not None and phase.view is not None:
        view.update(phase.view(state, seat))
    return view


def _entry(whole: Callable[[], dict], seat: int) -> dict:
    """Seat ``seat``'s entry of the full view ``whole()``."""
    entry: dict = whole()["players"][seat]
    return entry


def _copy(value: Any) -> Any:
    """A copy of plain data: lists, dicts and sets copied all the way down."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    return value


def _flat(value: Any) -> Any:
    """A copy of a list, dict or set of scalars (or ``None``)."""
    return None if value is None else value.copy()


def _nested(value: list) -> list:
    """A copy of a list of lists of scalars."""
    return [x.copy() for x in value]


def _bids(value: list) -> list:
    """A copy of a list of flat dicts or ``None``."""
    return [None if x is None else x.copy() for x in value]


def _stats(value: dict) -> dict:
    """A copy of the statistics: counts, and lists of counts."""
    return {k: v.copy() if isinstance(v, list) else v for k, v in value.items()}


#: How each field's data is copied, by its shape (``_copy``, all the way down, for the rest).
_SHAPES: dict[str, Callable[[Any], Any]] = {
    **dict.fromkeys(
        (
            "options",
            "turn_since",
            "phase_moves",
            "timeouts",
            "absent",
            "order",
            "gold",
            "destiny",
            "chosen",
            "deck",
            "display",
            "discard",
            "tdeck",
            "cdeck",
            "ddeck",
            "out",
            "explored",
            "passed",
            "barred",
            "win",
            "path",
            "news",
            "wins",
        ),
        _flat,
    ),
    **dict.fromkeys(("hands", "treasures", "curses", "offers", "played_curses"), _nested),
    "bids": _bids,
    "stats": _stats,
}
_FIELDS = tuple((f.name, _SHAPES.get(f.name, _copy)) for f in fields(IslaState) if f.name != "rng")


def copy_state(state: IslaState) -> IslaState:
    """A copy of ``state`` sharing nothing a move changes: every field's data copied by its
    shape (``_SHAPES``), its generator too (the copy's next draws are the original's)."""
    rng = Generator()
    rng.setstate(state.rng.getstate())
    return IslaState(rng=rng, **{name: how(getattr(state, name)) for name, how in _FIELDS})
