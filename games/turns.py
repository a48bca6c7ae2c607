"""What the table does in every game, whatever its kind: turn clocks, move limits, and the end of
a game whose log is full. ``games.base.GameKind`` runs them; an engine declares only the limits
of its phases' moves (``games.phases.Move.limit``) and how its game ends early (``finish``).

**Turn clocks.** Every kind takes the option ``turn_seconds`` (``TURN_SECONDS``: off by
default; 10 s to 7 days): the time a seat to act may take. A seat's clock starts after the log
entry in which it became one of the seats to act, acted (and is to act again), or the game
entered a phase (``GameState.turn_since``). The clocks run only in a phase without a running
timer of its own: a timed phase (Dragon's Gold's negotiation and market) lets every seat act as
often as it likes until its own timer ends it. The clock that runs out first (the lowest seat
among equals) is the game's ``Timer`` (``GameKind.timer``), with the action ``{"type":
"turn_timeout", "seat": s}``; when it runs out, the table plays for that seat:
``GameKind.timeout_action`` asks the kind's gentlest bot (``GameKind.gentlest_bot``) for seat
``s``'s move from ``s``'s view alone, and the log keeps ``{"type": "turn_timeout", "seat": s,
"move": <that move>}`` with seat ``null``, so a game replays (and imports) with no clock and no
bot. Its events are ``{"type": "turn_timeout", "seat": s}``, then the move's own. The seat plays
for itself again when its turn comes back.

**Move limits.** A phase may limit how many actions of a type one seat takes each time the game
enters it (``Move.limit``; counted in ``GameState.phase_moves``): what a seat has spent is left
out of its legal actions (so bots and the table never choose it), and a player's new action past
it is refused (``move_limit``, with the type and the limit; ``GameKind.apply(..., limits=True)``,
as the service applies players' actions). So a phase in which seats act as often as they like
(a negotiation against the clock) cannot fill a log. A log replays as it was written: a game
stored before a limit existed keeps the moves it had.

**A full log.** The service caps a game's log (``web.service.sessions``); the entry that reaches
the cap is followed by the table's ``END_LOG_FULL`` (``{"type": "end", "end": "log_full"}``,
seat ``null``): the game ends there, scored as it stands (the engine's ``finish``). Its events
are ``{"type": "game_ended", "end": "log_full"}``, then the engine's own end.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from errors import IllegalAction
from games.actions import Action, check_shape
from games.gametype import OptionSpec
from games.phases import Event, Phase
from games.state import GameState

if TYPE_CHECKING:
    from games.base import GameKind

#: The longest turn a game may allow: 7 days.
MAX_TURN_SECONDS = 7 * 86_400
#: The option every kind takes: the seconds a seat to act may take (``None``: no turn clock).
TURN_SECONDS = OptionSpec("turn_seconds", None, bounds=(10, MAX_TURN_SECONDS))
#: The options the base adds to every kind (described under ``games.options.<name>``).
BASE_OPTIONS: tuple[OptionSpec, ...] = (TURN_SECONDS,)
#: The type of the table's action when a seat's turn clock runs out (and of its first event).
TURN_TIMEOUT = "turn_timeout"
#: Why a game ended early because its log was full.
LOG_FULL = "log_full"
#: The table's last entry of a game whose log is full.
END_LOG_FULL: dict[str, Any] = {"type": "end", "end": LOG_FULL}


def turn_seconds(state: GameState) -> int | None:
    """The game's turn limit in seconds (``None``: no turn clock)."""
    seconds = state.options.get(TURN_SECONDS.name)
    return None if seconds is None else int(seconds)


def start_clocks(state: GameState, to_act: list[int]) -> None:
    """The clocks of a new game: every seat to act starts now (after entry 0)."""
    if turn_seconds(state) is not None:
        state.turn_since = {seat: state.moves for seat in to_act}


def track(state: GameState, before: list[int], after: list[int], actor: int | None) -> None:
    """After an action (``actor``: the seat it was played for, ``None`` for the table's own):
    the clock of each seat to act now restarts if it was not to act before, if it acted, or if
    the game entered a phase; the others keep theirs."""
    moves = state.moves
    entered = state.phase_since == moves
    old = state.turn_since
    state.turn_since = {
        seat: moves if entered or seat == actor or seat not in before else old.get(seat, moves)
        for seat in after
    }


def clocks(state: GameState, to_act: Callable[[], list[int]]) -> dict[int, int]:
    """Seat → the move after which its running turn clock started (empty: no clock runs)."""
    if turn_seconds(state) is None:
        return {}
    since = state.turn_since
    return {seat: since.get(seat, state.phase_since) for seat in to_act()}


def first_clock(running: dict[int, int]) -> tuple[int, int] | None:
    """The clock that runs out first, ``(seat, since)``: the oldest start, the lowest seat among
    equals (``None``: none runs)."""
    if not running:
        return None
    seat = min(running, key=lambda s: (running[s], s))
    return seat, running[seat]


def _key(seat: int, kind: str) -> str:
    return f"{seat}:{kind}"


def check_limit(state: GameState, phase: Phase[Any], seat: int, kind: str) -> None:
    """Refuse one more action of ``kind`` by ``seat`` when it has taken its phase's limit."""
    limit = phase.limits.get(kind)
    if limit is not None and state.phase_moves.get(_key(seat, kind), 0) >= limit:
        raise IllegalAction(
            f"a seat takes at most {limit} {kind!r} actions in this phase",
            "action.type",
            reason="move_limit",
            params={"action": kind, "limit": limit},
        )


def within_limits(
    state: GameState, phase: Phase[Any], seat: int, legal: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """``legal`` without the actions of a type ``seat`` has taken its limit of."""
    if not phase.limits:
        return legal
    spent = {
        kind
        for kind, limit in phase.limits.items()
        if state.phase_moves.get(_key(seat, kind), 0) >= limit
    }
    return [a for a in legal if a.get("type") not in spent] if spent else legal


def counted(
    state: GameState, phase: Phase[Any], seat: int, kind: str, work: Callable[[], None]
) -> None:
    """Do ``work`` (an action of ``kind`` by ``seat``), counting it when the phase limits
    ``kind``; a refusal (``work`` raises before it changes anything) leaves the count."""
    if kind not in phase.limits:
        work()
        return
    key = _key(seat, kind)
    spent = state.phase_moves.get(key, 0)
    state.phase_moves[key] = spent + 1
    try:
        work()
    except BaseException:
        if spent:
            state.phase_moves[key] = spent
        else:
            state.phase_moves.pop(key, None)
        raise


def timeout_action(kind: GameKind, state: GameState, rng: random.Random) -> Action:
    """What the table plays when ``kind.timer(state)`` runs out: a phase's ``timeout`` as it
    is; for a turn clock, the move of ``kind.gentlest_bot`` from the late seat's view (a random
    legal action if it has nothing to say), as ``{"type": "turn_timeout", "seat", "move"}``."""
    timer = kind.timer(state)
    if timer is None:
        raise ValueError(f"{kind.name}: no clock runs")
    if timer.action["type"] != TURN_TIMEOUT:
        return dict(timer.action)
    seat = timer.action["seat"]
    move = None
    if kind.gentlest_bot in kind.bots:
        move = kind.bot_action(state, seat, kind.gentlest_bot, rng)
    if move is None:
        move = rng.choice(kind.legal_actions(state, seat))
    return {**timer.action, "move": copy.deepcopy(move)}


def table_work(
    kind: GameKind, state: GameState, phase: Phase[Any], action: Action
) -> tuple[int | None, Callable[[list[Event]], None]]:
    """The table's action (seat ``None``) checked, as ``(the seat it plays for, the work that
    applies it)``: the end of a full log, the running phase timer's ``timeout``, or a turn
    clock's ``turn_timeout`` (the late seat's move, checked as that seat's own)."""
    if action == END_LOG_FULL:

        def end(events: list[Event]) -> None:
            events.append({"type": "game_ended", "end": LOG_FULL})
            kind.finish(state, LOG_FULL, events)
            if not kind.is_over(state):
                raise RuntimeError(f"{kind.name}.finish left the game running")

        return None, end
    timer = kind.timer(state)
    late = None if timer is None else timer.action.get("seat")
    timeout = phase.timer
    if timer is not None and late is None and action == timer.action and timeout is not None:
        return None, lambda events: timeout.apply(state, events)
    if (
        late is not None
        and action.get("type") == TURN_TIMEOUT
        and action.get("seat") == late
        and set(action) == {"type", "seat", "move"}
    ):
        check_shape(action["move"], "action.move")
        play = kind._seat_work(state, phase, late, action["move"])

        def played_for(events: list[Event]) -> None:
            events.append({"type": TURN_TIMEOUT, "seat": late})
            play(events)

        return late, played_for
    raise IllegalAction(
        "only the running timer's action is taken without a seat",
        "seat",
        reason="not_a_timeout",
    )
