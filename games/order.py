"""Turn orders as data: who plays next in a phase, declared once (boardgame.io's ``TurnOrder``).

A phase whose seats take turns declares a ``TurnOrder`` where it says who acts
(``games.phases.Phase``: ``to_act=round_robin()``); the base's part of every state holds the
turn (``games.state.GameState``): ``current``, the seat whose turn it is (``None``: nobody's,
e.g. every seat acts at once, or an order went once around), and ``order``, the seats in the
order this phase's turns go (for a simultaneous phase: empty, its seats are asked each time).
The presets:

- ``round_robin(skip)``: from the first seat up the seat numbers, wrapping, for as long as the
  phase runs; ``skip(state, seat)``: a seat passed over (a barred bidder);
- ``once_around()``: each seat once from the first; after the last ``current`` is ``None``;
- ``by_ranking(rank)``: the seats in the order ``rank(state)`` gives when the order starts (e.g.
  the lowest score first), each once;
- ``simultaneous(acting)``: every seat ``acting(state)`` names acts at once.

The engine says when turns begin and end, the order says who: ``start(state, first)`` hands the
first turn (a new round's starting seat), ``pass_turn(state)`` ends the current one and gives
the next seat as the order goes (``None`` once an order that goes around once is done; a
state whose order was never laid out goes in seat order), and the order is the phase's
``to_act``: called with a state it gives the seats that may act now. A turn handed out begins
in its phase's first stage (``GameState.stage`` back to ``None``: ``games.phases.Stage``).
Engines never write ``current`` or ``order`` themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from games.state import GameState

S = TypeVar("S", bound=GameState)

Preset = Literal["round_robin", "once_around", "ranking", "simultaneous"]


@dataclass(frozen=True)
class TurnOrder(Generic[S]):
    """How a phase hands out its turns (one of the presets below; module docstring). Called
    with a state, the seats that may act now: the current seat, or a simultaneous phase's."""

    preset: Preset
    #: ``round_robin``: a seat the turn passes over now (``None``: none is).
    skip: Callable[[S, int], bool] | None = None
    #: ``ranking``: the seats in playing order, computed when the order starts.
    rank: Callable[[S], list[int]] | None = None
    #: ``simultaneous``: the seats that act now.
    acting: Callable[[S], list[int]] | None = None

    def __call__(self, state: S) -> list[int]:
        if self.acting is not None:
            return self.acting(state)
        return [] if state.current is None else [state.current]

    def start(self, state: S, first: int = 0) -> int | None:
        """Hand out the first turn: to ``first`` (or, skipping, the first seat after it that
        is not passed over; a ranking's first seat), the order laid out; returns the seat."""
        state.stage = None
        if self.preset == "simultaneous":
            state.order, state.current = [], None
            return None
        if self.rank is not None:
            state.order = list(self.rank(state))
        else:
            state.order = [(first + k) % state.seats for k in range(state.seats)]
        state.current = state.order[0] if state.order else None
        if state.current is not None and self._skipped(state, state.current):
            return self.pass_turn(state)
        return state.current

    def pass_turn(self, state: S) -> int | None:
        """End the current seat's turn: the next seat as the order goes (round robin wraps and
        passes over skipped seats; the others end after their last seat: ``None``)."""
        if state.current is None:
            return None
        state.stage = None
        order = _laid_out(state, state.current)
        at = order.index(state.current)
        n = len(order)
        if self.preset != "round_robin":
            state.current = order[at + 1] if at + 1 < n else None
            return state.current
        for k in range(1, n + 1):
            seat = order[(at + k) % n]
            if not self._skipped(state, seat):
                state.current = seat
                return seat
        return state.current  # every other seat is passed over: the turn stays

    def _skipped(self, state: S, seat: int) -> bool:
        return self.skip is not None and self.skip(state, seat)


def no_turn(state: GameState) -> None:
    """Nobody has the turn (a phase whose seats do not take turns, the end of the game)."""
    state.current, state.order = None, []


def _laid_out(state: GameState, current: int) -> list[int]:
    """The state's order; for a state whose order was never laid out (one rebuilt from a view,
    a test's position), the seats in seat order, which is where every preset but a ranking
    starts a game."""
    return state.order if current in state.order else list(range(state.seats))


def round_robin(skip: Callable[[S, int], bool] | None = None) -> TurnOrder[S]:
    """Turns go up the seat numbers from the first, wrapping, passing over ``skip``'s seats."""
    return TurnOrder("round_robin", skip=skip)


def once_around() -> TurnOrder[S]:
    """Each seat once, up the seat numbers from the first; then nobody's turn."""
    return TurnOrder("once_around")


def by_ranking(rank: Callable[[S], list[int]]) -> TurnOrder[S]:
    """Each seat once, in the order ``rank(state)`` gives when the order starts."""
    return TurnOrder("ranking", rank=rank)


def simultaneous(acting: Callable[[S], list[int]]) -> TurnOrder[S]:
    """Every seat ``acting(state)`` names acts at once; nobody has the turn."""
    return TurnOrder("simultaneous", acting=acting)
