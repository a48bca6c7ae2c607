"""The strategic bot's move read straight from a state: the strong bot's rollout policy.

A rollout (``games.tobago.search``) plays every seat's strategic move (``games.tobago.strategy``,
the ``normal`` level) for a few turns in a world sampled from the searching seat's view. The
strategic bot reads a seat's JSON view; building that view and parsing it back into a
``strategy.Position`` for every move of every rollout was about half of a strong decision's CPU.
``direct_move`` makes the same choice from the state itself: ``StatePosition`` fills the same
fields a ``Position`` parses out of the view, from the state's objects (the clue cards by their
``solver.deck.DECK`` entries, the candidates by their masks), and the same choosing functions of
``games.tobago.strategy`` run on it.

**What it reads.** Only what ``seat``'s view would show: the public parts (the island, the
columns, the candidates, the ATVs, amulets and markers, the turn's progress, the stall count, the
drawn first-clue card, the running sharing's public face) and ``seat``'s own hand and sharing
memory. In a sampled world that is all the world holds for the seat, so the rollout player knows
no more than its view would have told it. ``tests/test_tobago_direct.py`` checks, over many
positions of many games, that ``direct_move`` and the view-based ``strategic_bot`` choose alike.
"""

from __future__ import annotations

from games.actions import Action
from games.tobago.engine import stall_limit
from games.tobago.rules import DRIVE_POINTS
from games.tobago.state import TobagoState
from games.tobago.strategy import (
    Position,
    _by_type,
    _first_clue,
    _sharing,
    central_space,
    turn_step,
)
from games.tobago.views import _sharing_view, hand_card
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.compiled import remember
from solver.deck import DECK
from solver.engine import MapColumn


class StatePosition(Position):
    """A ``Position`` for ``seat`` built from the state instead of the view (module doc)."""

    def __init__(self, state: TobagoState, seat: int) -> None:  # noqa: PLW0231 (no view)
        self.view = {}
        self.seat = seat
        island = self.island = state.island
        self.options = state.solver_options
        players = state.players
        me = players[seat]
        self.me = me.atv
        self.others = [p.atv for i, p in enumerate(players) if i != seat and p.atv is not None]
        self.rivals = [
            p.atv
            for i, p in enumerate(players)
            if i != seat and p.atv is not None and p.markers > 0
        ]
        self.amulets = me.amulets
        self.markers = me.markers
        self.hand = [hand_card(c) for c in me.hand]
        self.hand_clues = [DECK[c] for c in me.hand]
        self.drawn_clue = None if state.drawn is None else DECK[state.drawn]
        self.maps = []
        for m in state.maps:
            cands = _spaces(island, m.candidates)
            self.maps.append(
                {
                    "colour": m.colour,
                    "count": len(cands),
                    "cands": cands,
                    "column": MapColumn(m.colour, tuple(DECK[e.card] for e in m.clues), m.removed),
                }
            )
        self.seats = state.seats
        self.stall_turns = state.idle_turns
        self.stall_limit = stall_limit(state)
        t = state.turn
        self.progress = t.progress
        self.mode = state.stage
        if self.mode == "drive":
            self.points, self.bonus, self.start = t.points, t.bonus, t.start
        else:
            self.points, self.bonus, self.start = DRIVE_POINTS, 0, self.me
        self.amulet_spaces = set(state.amulets)


def _spaces(island: Island, mask: int) -> tuple[Hex, ...]:
    """A mask's spaces in index order, kept per island geometry (rollouts meet the same few
    candidate masks again and again; listing a mask's bits was a fifth of the policy's time)."""
    return remember(
        ("direct-spaces", island.geometry_key, mask),
        lambda: tuple(island.spaces_of(mask)),
        lambda spaces: 100 + 64 * len(spaces),
    )


def direct_move(state: TobagoState, seat: int, legal: list[Action]) -> Action:
    """The strategic bot's move for ``seat`` (one of ``legal``, its legal actions now), as
    ``strategy.strategic_bot`` would choose it from ``seat``'s view (module doc)."""
    if len(legal) == 1:
        return dict(legal[0])
    phase = state.phase
    if phase == "turn":
        return turn_step(StatePosition(state, seat), _by_type(legal))
    if phase == "sharing":
        memory = state.players[seat].memory
        return _sharing({"seat": seat, "sharing": _sharing_view(state), "memory": memory})
    if phase == "first_clue":
        return _first_clue(StatePosition(state, seat), _by_type(legal))
    if phase == "place_atv":
        return {"type": "place_atv", "at": list(central_space(state.island))}
    return dict(legal[0])
