"""What every engine's state holds for the base (``GameState``), and the one seed convention.

An engine's state is a dataclass that extends ``GameState``: the base's part is the game's
``seed``, ``seats`` and resolved ``options``, its one random generator ``rng``, the running
``phase`` (the name of one of the engine's declared phases, ``games.phases``), the number of
``moves`` applied so far (timeouts included) and ``phase_since``, the move after which the
running phase began (its clock's start), and two records for the table (``games.turns``):
``turn_since`` (with a clock option, ``turn_seconds`` or ``time_bank_s``: for each seat to act,
the move after which its turn clock started), ``phase_moves`` (how many actions of each limited
type each seat has taken since the running phase began), ``timeouts`` (how many moves in a row
the table played for each seat whose time ran out) and ``absent`` (the seats marked absent after
``games.turns.ABSENT_AFTER`` such moves: the table plays for them at once until they are back),
and the turn: ``current``, the seat whose turn it is, ``order``, the seats in the order the
running phase's turns go (``games.order``: a phase declares its turn order), and ``stage``, the
step the turn is in (``games.phases.Stage``: a phase declares its stages; ``None``: the first,
where every turn begins). The base keeps ``moves``, ``phase_since`` and those four; engines
change ``phase`` only through ``enter``, ``current`` and ``order`` only through the running
phase's declared ``games.order.TurnOrder`` (which also puts a new turn in its first stage), and
``stage`` only through ``to_stage``.

**Seeds.** The base builds the generator, ``random.Random(seed)`` (``generator``), and hands it to
the engine's ``setup``, which shuffles the deal with it and keeps it in the state: every later
chance event (a reshuffle, a thief's draw) draws from that same generator, so ``(seed, seats,
options, action log)`` replays the same game. A snapshot keeps the generator as its
``getstate()`` (``generator_json`` / ``generator_from_json``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from errors import InvalidInput

#: The phase of a finished game (every engine's; it declares no actions).
OVER = "over"


@dataclass(kw_only=True)
class GameState:
    """The base's part of every state (see the module docstring)."""

    seed: int
    seats: int
    options: dict[str, Any]
    rng: random.Random
    phase: str
    moves: int = 0
    phase_since: int = 0
    #: Seat → the move after which its turn clock started (seats to act, ``turn_seconds`` on).
    turn_since: dict[int, int] = field(default_factory=dict)
    #: ``"<seat>:<type>"`` → actions of that limited type (``Move.limit``) in the running phase.
    phase_moves: dict[str, int] = field(default_factory=dict)
    #: Seat → moves in a row the table played for it (its time ran out); its own action clears it.
    timeouts: dict[int, int] = field(default_factory=dict)
    #: The seats marked absent (``games.turns``): their clock is 0 s until they are back.
    absent: set[int] = field(default_factory=set)
    #: The seat whose turn it is (``games.order``); ``None``: nobody's (all act at once, or none).
    current: int | None = None
    #: The seats in the order the running phase's turns go (``games.order.TurnOrder.start``).
    order: list[int] = field(default_factory=list)
    #: The stage the turn is in (``games.phases.Stage``, ``to_stage``); ``None``: its first.
    stage: str | None = None
    #: A phase was entered during the action being applied and its ``begin`` has not run yet
    #: (``games.phases``); always false between actions.
    entering: bool = field(default=False, repr=False, compare=False)


def enter(state: GameState, phase: str) -> None:
    """The game moves to ``phase`` (again, if it is the running one): its clock starts after
    the action being applied, and the base runs the phase's ``begin`` once that action's own
    work is done."""
    state.phase = phase
    state.phase_since = state.moves
    state.phase_moves = {}
    state.entering = True


def to_stage(state: GameState, stage: str | None) -> None:
    """The turn moves on to ``stage``, one the running phase declares (``None``: the first).
    The stage outlives a phase the turn hands over to (Tobago's sharing after a raise) and
    goes back to the first when a turn begins (``games.order.TurnOrder``)."""
    state.stage = stage


class Generator(random.Random):
    """A ``random.Random`` equal to another that would draw the same (states compare their
    generators by what they will draw, not by identity)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, random.Random):
            return NotImplemented
        return self.getstate() == other.getstate()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal now, not forever


def generator(seed: int) -> random.Random:
    """The game's one generator: the deal is shuffled with it, every later chance event too."""
    return Generator(seed)


def generator_json(rng: random.Random) -> list[Any]:
    """A generator's state as JSON: ``[version, [internal...], gauss]``."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def generator_from_json(data: Any) -> random.Random:
    """The generator ``generator_json`` describes."""
    version, internal, gauss = data
    rng = Generator()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def common_json(state: GameState) -> dict[str, Any]:
    """The base's part of a snapshot (``GameKind.state_to_json`` adds the engine's)."""
    return {
        "seed": state.seed,
        "seats": state.seats,
        "options": dict(state.options),
        "rng": generator_json(state.rng),
        "phase": state.phase,
        "moves": state.moves,
        "phase_since": state.phase_since,
        "turn_since": {str(seat): since for seat, since in state.turn_since.items()},
        "phase_moves": dict(state.phase_moves),
        "timeouts": {str(seat): n for seat, n in state.timeouts.items()},
        "absent": sorted(state.absent),
        "current": state.current,
        "order": list(state.order),
        "stage": state.stage,
    }


#: The version of ``common_json``'s form (a snapshot also says its engine's: ``GameKind``); raise
#: it when the base's part of a state changes, so that snapshots stored before are refused.
#: Entries added since with a default (``timeouts``, ``absent``: none before issue 41) keep it:
#: a snapshot without them reads as no seat timed out or absent. Format 3 (issue 45): the turn
#: (``current``, ``order``) moved from each engine's part into the base's; a snapshot of format 2
#: is refused and the log replayed, its engine's part naming the turn in its own words (the
#: engines' own formats stayed: this one refuses every snapshot of before).
#: Format 4 (issue 45): the stage of the turn (``stage``) moved into the base's part (Tobago's
#: ``turn.mode`` before); a snapshot of format 3 is refused and the log replayed.
COMMON_FORMAT = 4
#: The entries of ``common_json``: an engine's part of a snapshot uses none of these names.
COMMON_KEYS = frozenset(
    (
        "seed",
        "seats",
        "options",
        "rng",
        "phase",
        "moves",
        "phase_since",
        "turn_since",
        "phase_moves",
        "timeouts",
        "absent",
        "current",
        "order",
        "stage",
        "format",
    )
)


def common_from_json(data: dict[str, Any]) -> dict[str, Any]:
    """The base's part of a state, as keyword arguments of the engine's state class."""
    try:
        return {
            "seed": int(data["seed"]),
            "seats": int(data["seats"]),
            "options": dict(data["options"]),
            "rng": generator_from_json(data["rng"]),
            "phase": str(data["phase"]),
            "moves": int(data["moves"]),
            "phase_since": int(data["phase_since"]),
            "turn_since": {int(seat): int(v) for seat, v in data["turn_since"].items()},
            "phase_moves": {str(k): int(v) for k, v in data["phase_moves"].items()},
            "timeouts": {int(seat): int(n) for seat, n in data.get("timeouts", {}).items()},
            "absent": {int(seat) for seat in data.get("absent", [])},
            "current": None if data["current"] is None else int(data["current"]),
            "order": [int(seat) for seat in data["order"]],
            "stage": None if data["stage"] is None else str(data["stage"]),
        }
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise InvalidInput(f"not a state snapshot: {e!r}", "state") from None
