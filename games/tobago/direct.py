"""The strategic bot's move read straight from a state: the strong bot's rollout policy.

A rollout (``games.tobago.search``) plays every seat's strategic move (``games.tobago.strategy``,
the ``normal`` level) for a few turns in a world sampled from the searching seat's view. The
strategic bot reads a seat's JSON view; building that view and parsing it back into a
``strategy.Position`` for every move of every rollout was about half of a strong decision's CPU.
``direct_move`` makes the same choice from the state itself: ``StatePosition`` fills the
fields a ``Position`` parses out of the view that the strategy reads, from the state's objects
(the clue cards by their ``solver.deck.DECK`` entries, a map's candidate spaces while it has
``APPROACH_COUNT`` or fewer, the only counts the strategy lists them at), ranks the plays on the
state's candidate masks (``solver.hints.ranked_plays``, the same ranking as the view's columns
give), and the same choosing functions of ``games.tobago.strategy`` run on it. ``next_move`` is
a rollout's step: the seat to act and its move, the sharing's asked seat and the turn's legal
actions asked straight rather than through ``GameKind.to_act`` and ``legal_actions``.

**What it reads.** Only what ``seat``'s view would show: the public parts (the island, the
columns, the candidates, the ATVs, amulets and markers, the turn's progress, the stall count, the
drawn first-clue card, the running sharing's public face) and ``seat``'s own hand and sharing
memory. In a sampled world that is all the world holds for the seat, so the rollout player knows
no more than its view would have told it. ``tests/test_tobago_direct.py`` checks, over many
positions of many games, that ``direct_move`` and the view-based ``strategic_bot`` choose alike;
``tests/test_tobago_cheap_search.py`` that ``next_move`` is the engine's seat and that move.
"""

from __future__ import annotations

from games.actions import Action
from games.base import GameKind
from games.tobago.engine import stall_limit
from games.tobago.rules import DRIVE_POINTS
from games.tobago.sharing import offeree, value_label
from games.tobago.state import TobagoState
from games.tobago.strategy import (
    APPROACH_COUNT,
    Position,
    _by_type,
    _first_clue,
    _sharing,
    central_space,
    turn_step,
)
from games.tobago.turn import legal_turn
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.clues import Clue
from solver.compiled import compile_island, drive_from
from solver.deck import DECK
from solver.hints import Hint, ranked_plays


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
        self.rivals = [
            p.atv
            for i, p in enumerate(players)
            if i != seat and p.atv is not None and p.markers > 0
        ]
        self.amulets = me.amulets
        self.markers = me.markers
        self.hand_ids = list(me.hand)
        self.hand_clues = [DECK[c] for c in me.hand]
        self.drawn_clue = None if state.drawn is None else DECK[state.drawn]
        self.maps = []
        for m in state.maps:
            count = m.candidates.bit_count()
            cands = _spaces(island, m.candidates, count)
            self.maps.append({"colour": m.colour, "count": count, "cands": cands})
        self.columns = [(m.colour, m.candidates) for m in state.maps]
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
        self._tables: dict[Hex, dict[Hex, int]] = {}

    def ranked_hints(self, hand: list[Clue], best_only: bool = False) -> list[Hint]:
        """``Position.ranked_hints`` on the state's candidate masks (``solver.hints``'
        ``ranked_plays``): the same plays in the same order, without the columns' clues
        recombined or the spaces checked again."""
        assert self.me is not None
        island = self.island
        atvs = [drive_from(island, h) for h in (self.me, *self.rivals)]
        compiled = compile_island(island, self.options)
        return ranked_plays(self.columns, compiled, hand, atvs, best_only)


def _spaces(island: Island, mask: int, count: int) -> tuple[Hex, ...]:
    """A map's candidate spaces in index order while it has ``APPROACH_COUNT`` or fewer (the
    only counts the strategy reads them at); none listed for a larger map."""
    return tuple(island.spaces_of(mask)) if count <= APPROACH_COUNT else ()


def direct_move(state: TobagoState, seat: int, legal: list[Action]) -> Action:
    """The strategic bot's move for ``seat`` (one of ``legal``, its legal actions now), as
    ``strategy.strategic_bot`` would choose it from ``seat``'s view (module doc)."""
    if len(legal) == 1:
        return dict(legal[0])
    phase = state.phase
    if phase == "turn":
        return turn_step(StatePosition(state, seat), _by_type(legal))
    if phase == "sharing":
        return sharing_answer(state, seat)
    if phase == "first_clue":
        return _first_clue(StatePosition(state, seat), _by_type(legal))
    if phase == "place_atv":
        return {"type": "place_atv", "at": list(central_space(state.island))}
    return dict(legal[0])


def sharing_answer(state: TobagoState, seat: int) -> Action:
    """The strategic answer of ``seat``, the seat asked, to the face-up card: ``_sharing`` on
    the parts of the sharing's view it reads (the offer, the cards left, the column's markers,
    the cards turned) and the seat's memory, without the rest of the view (who is asked, who
    declined: an ``offeree`` walk per answer)."""
    sh = state.sharing
    assert sh is not None and sh.offer is not None
    face = {
        "number": sh.number,
        "offer": value_label(sh.offer),
        "cards_left": len(sh.pile),
        "markers": state.maps[sh.map].markers_bottom_up(),
        "revealed": [value_label(c) for c in sh.revealed],
    }
    return _sharing({"seat": seat, "sharing": face, "memory": state.players[seat].memory})


def next_move(kind: GameKind[TobagoState], state: TobagoState) -> tuple[int, Action]:
    """The seat to act in a rollout and its strategic move: what ``kind.to_act``,
    ``kind.legal_actions`` and ``direct_move`` give, with the rollout's two common steps
    asked straight (a sharing's answer: the seat asked, its two answers not listed; a turn:
    the current seat, ``turn.legal_turn``, which no stage or move limit filters further)."""
    phase = state.phase
    if phase == "sharing":
        asked = offeree(state)
        if asked is not None:
            return asked, sharing_answer(state, asked)
    elif phase == "turn" and state.current is not None:
        seat = state.current
        legal = legal_turn(state, seat, shared=True)  # read only: the moves returned are new
        if len(legal) == 1:
            return seat, legal[0]
        return seat, turn_step(StatePosition(state, seat), _by_type(legal))
    seat = kind.to_act(state)[0]
    legal = kind.legal_actions(state, seat)
    return seat, legal[0] if len(legal) == 1 else direct_move(state, seat, legal)
