"""Phases as data: what an engine declares of each phase of its game, and how the base runs them.

boardgame.io's phases are the model. A game is always in one phase (``GameState.phase``); an
engine declares each phase once as a ``Phase``:

- ``to_act(state)``: the seats that may act now (one, or several at once); a phase whose seats
  take turns declares its turn order there instead (``games.order``: round robin, once around,
  by a ranking, simultaneous), which is called the same way and holds the turn in the state;
- ``legal(state, seat)``: that seat's legal actions (JSON objects, for views and bots);
- ``moves``: the action types the phase accepts, each a ``Move``: the declared type
  (``games.actions.ActionType``) and the function that applies a checked action of it,
  ``apply(state, seat, action, events)``, which validates the position first and only then
  changes the state, appending the public events; optionally a ``limit``: how many actions of
  that type one seat may take each time the game enters the phase (a phase where seats act
  as often as they like, against a clock, so that no seat can fill the game's log: the base
  refuses one more with ``move_limit`` and leaves it out of the legal actions);
- ``timer`` (optional): a ``PhaseTimer``, the phase's time limit, ``seconds(state)`` (``None``:
  no clock in this game) and what the table's timeout does, ``apply(state, events)``;
- ``begin`` (optional): what happens when the game enters the phase, ``begin(state, events)``;
- ``stages`` (optional): the steps a turn of the phase goes through (boardgame.io's stages),
  each a ``Stage``: the action types it takes and, for each other type of the phase, the
  refusal; the running one is the base's ``GameState.stage`` (``None``: the first; an engine
  moves the turn on with ``games.state.to_stage``, and a turn handed out by the phase's turn
  order begins in the first), or what the optional ``stage(state)`` names. The base refuses a
  type the running stage does not take (after the declared shape, before the engine's own
  checks) and leaves it out of the legal actions, so an engine's moves never ask which step
  the turn is in;
- what the code that uses states asks of a phase, so that it never branches on phase names:
  ``view(state, seat)``, the phase's piece of a view (the base adds it to the engine's
  ``observe``); ``bot``, how each of the game's bots chooses in this phase, by the bot's name
  (``{"planner": ..., "candidates": ...}``: a game has several bots, each with its own piece
  and its own signature; a bot asks ``GameKind.bot_hook(phase, name)`` for the running
  phase's, and a phase without one for that bot leaves the bot's default);
  ``analysis(view, legal, played)``, how the review judges a move of this phase
  (``games.analysis``; ``None``: not judged).

The base (``games.base.GameKind``) checks an action against the running phase (an unknown type
is ``unknown_action``, a type of another phase ``action_not_now``, then the declared shape),
counts it (``GameState.moves``, which already counts the action while it applies) and runs it;
an engine moves the game to another phase with ``games.state.enter`` and the base then runs that
phase's ``begin`` after the action's own work: so one phase hands over to the next without
importing it, and a game's modules need no import cycle. The phase named ``over``
(``games.state.OVER``) ends the game; it is not declared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from errors import IllegalAction
from games.actions import Action, ActionType
from games.order import TurnOrder
from games.state import GameState

S = TypeVar("S", bound=GameState)
A = TypeVar("A", bound=ActionType)
Event = dict[str, Any]


@dataclass(frozen=True)
class Move(Generic[S, A]):
    """An action type a phase accepts (``declared``) and how a checked one applies; ``limit``:
    at most this many of them per seat each time the phase is entered (``None``: no limit)."""

    declared: type[A]
    apply: Callable[[S, int, A, list[Event]], None]
    limit: int | None = None

    @property
    def name(self) -> str:
        return self.declared.name()


@dataclass(frozen=True)
class PhaseTimer(Generic[S]):
    """A phase's time limit: ``seconds(state)`` (``None``: no clock runs in this game, e.g. an
    option is off) after the phase began; then the table plays ``{"type": "timeout"}``, which
    ``apply(state, events)`` applies."""

    seconds: Callable[[S], float | None]
    apply: Callable[[S, list[Event]], None]


@dataclass(frozen=True)
class Stage:
    """A step of a phase's turn: the action types it takes (``moves``), and for a type of the
    phase it does not take, the refusal ``(reason, sentence)`` (default ``action_not_now``)."""

    name: str
    moves: frozenset[str]
    refusals: Mapping[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Phase(Generic[S]):
    """One phase of a game, as its engine declares it (see the module docstring)."""

    name: str
    to_act: Callable[[S], list[int]]
    legal: Callable[[S, int], list[Action]]
    moves: tuple[Move[S, Any], ...] = ()
    timer: PhaseTimer[S] | None = None
    begin: Callable[[S, list[Event]], None] | None = None
    stages: tuple[Stage, ...] = ()
    stage: Callable[[S], str] | None = None
    view: Callable[[S, int | None], dict[str, Any]] | None = None
    bot: Mapping[str, Callable[..., Any]] | None = None
    analysis: Callable[[dict, list[Action], Action], Any] | None = None
    by_name: dict[str, Move[S, Any]] = field(init=False, repr=False, compare=False)
    #: The limited action types (``Move.limit``), type → limit.
    limits: dict[str, int] = field(init=False, repr=False, compare=False)
    #: The declared stages, by name.
    by_stage: dict[str, Stage] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name = {m.name: m for m in self.moves}
        if len(by_name) != len(self.moves):
            raise ValueError(f"phase {self.name!r} declares an action type twice")
        object.__setattr__(self, "by_name", by_name)
        limits = {m.name: m.limit for m in self.moves if m.limit is not None}
        object.__setattr__(self, "limits", limits)
        object.__setattr__(self, "by_stage", {st.name: st for st in self.stages})
        if self.stage is not None and not self.stages:
            raise ValueError(f"phase {self.name!r}: ``stage`` names stages it does not declare")
        for st in self.stages:
            unknown = (st.moves | st.refusals.keys()) - by_name.keys()
            if unknown:
                raise ValueError(f"phase {self.name!r}, stage {st.name!r}: no moves {unknown}")

    @property
    def turns(self) -> TurnOrder[S] | None:
        """The phase's declared turn order (``games.order``), if its seats take turns."""
        return self.to_act if isinstance(self.to_act, TurnOrder) else None

    def running_stage(self, state: S) -> Stage | None:
        """The stage the phase's turn is in now (``None``: the phase declares no stages)."""
        if not self.stages:
            return None
        name = state.stage if self.stage is None else self.stage(state)
        return self.stages[0] if name is None else self.by_stage[name]

    def check_stage(self, state: S, kind: str) -> None:
        """Refuse an action type the running stage does not take (its declared refusal)."""
        st = self.running_stage(state)
        if st is None or kind in st.moves:
            return
        reason, sentence = st.refusals.get(
            kind, ("action_not_now", f"a {kind!r} action is not possible now")
        )
        raise IllegalAction(
            sentence, "action", reason=reason, params={"action": kind, "stage": st.name}
        )

    def staged(self, state: S, legal: list[Action]) -> list[Action]:
        """``legal`` less the actions the running stage does not take."""
        st = self.running_stage(state)
        return legal if st is None else [a for a in legal if a["type"] in st.moves]


def begin_entered(phases: dict[str, Phase[Any]], state: GameState, events: list[Event]) -> None:
    """Run the ``begin`` of each phase the game entered (``games.state.enter``), in turn: a
    ``begin`` may itself move the game on."""
    while state.entering:
        state.entering = False
        phase = phases.get(state.phase)
        if phase is not None and phase.begin is not None:
            phase.begin(state, events)


def run(
    phases: dict[str, Phase[Any]], state: GameState, work: Callable[[list[Event]], None]
) -> list[Event]:
    """Count one action and do its ``work``; a refusal (the work raises before it changes
    anything) leaves the count as it was."""
    events: list[Event] = []
    state.moves += 1
    try:
        work(events)
    except BaseException:
        state.moves -= 1
        state.entering = False
        raise
    begin_entered(phases, state, events)
    return events
