"""A finished game's positions, step by step: replay its log to any step and see it from any seat.

A ``GameLog`` is what a game's record holds (kind, seed, seat count, options, every action with
its seat); step ``k`` is the position after the first ``k`` actions (step 0: before the first).
``Positions`` rebuilds the state at any step by replay, from the nearest of its checkpoints
(the engine's own ``state_to_json`` snapshots, one every ``CHECKPOINT_EVERY`` steps, taken during
one replay at construction and kept as JSON text), so a step costs one snapshot load plus fewer than
``CHECKPOINT_EVERY`` actions however long the game is. Stepping forward from the last step asked
reuses that state instead (a reviewer mostly walks one step at a time).

What a seat sees at a step is exactly ``GameKind.view(state_k, seat)``: the engine's own view
rules, so a seat never sees more at step ``k`` than it saw when it played. The *full* view
(``seat=None`` here) is everything any seat knew at that step: the spectator's view with each
seat's own entry of ``players`` (its hand, its cards) taken from that seat's view
(``merged_players_view``). A game whose view has another shape gives its own merge, handed to
``Positions`` by the caller (the service takes it from the game's descriptor).

Pure and engine-only: no storage, no web, no clock; the same log always gives the same
positions.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from errors import InvalidInput, NotFound
from games.base import Action, GameKind, get_kind

#: One checkpoint (an engine snapshot) every this many steps.
CHECKPOINT_EVERY = 16
#: States of recently asked steps kept per game.
RECENT_STATES = 4
#: For ``Positions.nbytes``: a logged action's estimated size, and a live state's size as a
#: multiple of its snapshot's JSON text.
ACTION_BYTES = 500
STATE_FACTOR = 10
#: Everything any seat knew at a position: ``full_view(kind, state)``.
FullView = Callable[[GameKind, Any], dict]


@dataclass(frozen=True)
class GameLog:
    """A game as its record holds it: enough to replay every step."""

    kind: str
    seed: int
    seats: int
    options: dict[str, Any]
    #: ``(seat, action)`` per log entry, in order (seat ``None``: the table's own entry).
    actions: tuple[tuple[int | None, Action], ...] = field(default_factory=tuple)

    @property
    def steps(self) -> int:
        return len(self.actions)

    @classmethod
    def from_record(cls, record: dict) -> GameLog:
        """From the shape ``GET /api/games/<id>/record`` gives and ``POST /import`` takes."""
        return cls(
            record["game"],
            int(record["seed"]),
            len(record["seats"]),
            dict(record.get("options") or {}),
            tuple((a["seat"], a["action"]) for a in record["actions"]),
        )

    @classmethod
    def of(
        cls,
        kind: str,
        seed: int,
        seats: int,
        options: dict | None,
        actions: Iterable[tuple[int | None, Action]],
    ) -> GameLog:
        return cls(kind, seed, seats, dict(options or {}), tuple(actions))


def check_step(step: Any, steps: int) -> int:
    """A step number of a game with ``steps`` actions (0 … steps): ``InvalidInput`` for what is
    not a step number, ``NotFound`` for a step the game does not have."""
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        raise InvalidInput(f"step must be a number of actions, got {step!r}", "step")
    if step > steps:
        raise NotFound(
            f"step must be between 0 and {steps}, got {step!r}",
            "step",
            reason="no_such_step",
            params={"steps": steps},
        )
    return step


def merged_players_view(kind: GameKind, state: Any) -> dict:
    """Everything any seat knows: the spectator's view with each seat's own ``players`` entry
    from that seat's view (where the view has a ``players`` list indexed by seat)."""
    full = kind.view(state, None)
    players = full.get("players")
    if isinstance(players, list):
        for seat in range(kind.seat_count(state)):
            own = kind.view(state, seat).get("players")
            if isinstance(own, list) and seat < len(own) and seat < len(players):
                players[seat] = own[seat]
    return full


def merged_with_own(key: str, name: str) -> FullView:
    """A full view: ``merged_players_view`` plus ``name``, every seat's own ``key`` entry of
    its view in seat order (what each seat alone saw: ``notes_all``, ``memory_all``...)."""

    def full_view(kind: GameKind, state: Any) -> dict:
        full = merged_players_view(kind, state)
        full[name] = [kind.view(state, s).get(key) for s in range(kind.seat_count(state))]
        return full

    return full_view


class Positions:
    """Every position of one game's log, rebuilt on demand (thread-safe; states are shared:
    read them, never mutate them). ``full_view`` is the game's merge of what every seat knew
    (``merged_players_view`` unless the game gives its own)."""

    def __init__(
        self,
        log: GameLog,
        every: int = CHECKPOINT_EVERY,
        full_view: FullView | None = None,
    ) -> None:
        self.log = log
        self.kind = get_kind(log.kind)
        self.every = max(1, every)
        self.full_view: FullView = full_view or merged_players_view
        self._lock = threading.Lock()
        #: Engine snapshots as JSON text: one object each, nothing for the garbage collector to
        #: walk (a long game's snapshots as dicts hold hundreds of thousands of objects).
        self._checkpoints: list[str] = []
        state = self.kind.new_state(log.seed, log.seats, log.options)
        for k, (seat, action) in enumerate(log.actions):
            if k % self.every == 0:
                self._checkpoints.append(json.dumps(self.kind.state_to_json(state)))
            self.kind.apply(state, seat, action)
        if log.steps % self.every == 0:
            self._checkpoints.append(json.dumps(self.kind.state_to_json(state)))
        #: Recently asked states by step (newest last): a reviewer walks a step at a time.
        self._recent: OrderedDict[int, Any] = OrderedDict({log.steps: state})

    @property
    def steps(self) -> int:
        return self.log.steps

    def nbytes(self) -> int:
        """Estimated memory: the checkpoints' text, the log, and the recent states (each taken
        as ``STATE_FACTOR`` times its snapshot's text: objects weigh more than their JSON)."""
        texts = sum(len(c) + 60 for c in self._checkpoints)
        largest = max((len(c) for c in self._checkpoints), default=0)
        return (
            400
            + texts
            + ACTION_BYTES * self.log.steps
            + STATE_FACTOR * largest * (RECENT_STATES + 1)
        )

    def state(self, step: int) -> Any:
        """The state after ``step`` actions (shared: do not mutate). Built from the nearest
        earlier state kept (a checkpoint or a recently asked step), by replay."""
        check_step(step, self.steps)
        with self._lock:
            found = self._recent.get(step)
            if found is not None:
                self._recent.move_to_end(step)
                return found
            base = step // self.every
            start = base * self.every
            nearer = max((k for k in self._recent if start < k < step), default=None)
            if nearer is None:
                state = self.kind.state_from_json(json.loads(self._checkpoints[base]))
            else:
                start = nearer
                state = self.kind.state_from_json(self.kind.state_to_json(self._recent[nearer]))
            for seat, action in self.log.actions[start:step]:
                self.kind.apply(state, seat, action)
            self._recent[step] = state
            while len(self._recent) > RECENT_STATES:
                self._recent.popitem(last=False)
            return state

    def view(self, step: int, seat: int | None) -> dict:
        """What ``seat`` saw after ``step`` actions; ``None``: everything any seat knew."""
        state = self.state(step)
        if seat is None:
            return self.full_view(self.kind, state)
        return self.kind.view(state, seat)

    def to_act(self, step: int) -> list[int]:
        state = self.state(step)
        return [] if self.kind.is_over(state) else list(self.kind.to_act(state))

    def legal(self, step: int, seat: int) -> list[Action]:
        return self.kind.legal_actions(self.state(step), seat)


def walk(log: GameLog) -> Iterable[tuple[int, Any, Sequence[Any]]]:
    """``(k, state_k, entry)`` for every action ``entry = (seat, action)`` of the log, the state
    *before* it (one replay; the state object is reused and changes after each yield)."""
    kind = get_kind(log.kind)
    state = kind.new_state(log.seed, log.seats, log.options)
    for k, entry in enumerate(log.actions):
        yield k, state, entry
        kind.apply(state, entry[0], entry[1])
