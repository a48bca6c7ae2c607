"""What the table does in every game, whatever its kind: turn clocks and time banks, absent
seats, move limits, and the end of a game whose log is full. ``games.base.GameKind`` runs them; an
engine declares only the limits of its phases' moves (``games.phases.Move.limit``) and how its
game ends early (``finish``).

**Clocks.** Every kind takes one clock option of two (``check_clock_options``: not both, 400
``clock_modes``): ``turn_seconds`` (``TURN_SECONDS``, 10 s to 7 days), the time a seat to act may
take for each move, or ``time_bank_s`` (``TIME_BANK_S``, 10 s to a day), a bank of time per seat
for the whole game, with ``increment_s`` (``INCREMENT_S``, 0 to 600 s; only with a bank, else
400 ``increment_without_bank``) added after each of its moves (Fischer's). All are off by
default and left out of a game's options while off. A seat's clock starts after the log entry
in which it became one of the seats to act, acted (and is to act again), came back, or the game
entered a phase (``GameState.turn_since``). The clocks run only in a phase without a running
timer of its own: a timed phase (Dragon's Gold's negotiation and market) lets every seat act as
often as it likes until its own timer ends it. ``GameKind.turn_clocks`` gives the seats whose
clock runs and when each started.

**Engines never know how long a clock lasts.** A turn clock lasts ``turn_seconds``, a bank
clock what is left of the seat's bank, which is the service's data (the log's times:
``web.service.banks``), and an absent seat's 0 s (``clock_seconds``); which clock runs out first
depends on the entries' times, so the service decides, and tells ``timeout_action`` the late
seat. The table then plays for it: the kind's gentlest bot's move
(``GameKind.gentlest_bot``) from that seat's view alone, and the log keeps ``{"type":
"turn_timeout", "seat": s, "move": <that move>}`` with seat ``null``; the engine takes it for
any seat whose clock runs, so a game replays (and imports) with no clock and no bot. Its events
are ``{"type": "turn_timeout", "seat": s}``, then the move's own. ``GameKind.timer`` still
gives the clock with the oldest start (the lowest seat among equals) and its nominal seconds
(a bank clock: the whole bank), what a game without a clock (the simulator) plays first.

**Absent seats.** Each move the table plays for a seat counts (``GameState.timeouts``); the
seat's own action clears the count. The ``ABSENT_AFTER``-th in a row marks the seat absent
(the entry's last event: ``{"type": "absent", "seat": s}``): from then on its clock is 0 s, so
the table plays its turns at once, until it is back: ``{"type": "back"}`` from that seat, at
any time (its turn or not; 409 ``not_absent`` when it is not absent; the event ``{"type":
"back", "seat": s}``; its clock, if it runs, starts again), or any action of its own, which
says so first (the same event before the move's own).

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
are ``{"type": "game_ended", "end": "log_full"}``, then the engine's own end. **An expired
table** (a game listed in the lobby whose free seat nobody took in time, ``web.service.lobby``)
ends the same way, by the table's ``END_EXPIRED`` (``"end": "expired"``): scored as it stands,
but neither rated nor counted in its players' results (``web.accounts.results``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any, Literal

from errors import IllegalAction, InvalidInput
from games.actions import Action, ActionType, check_shape
from games.gametype import OptionSpec
from games.phases import Event, Phase
from games.playing import Playable
from games.state import GameState

#: How the base checks a seat's move and makes it the work that applies it: ``(state, phase,
#: seat, action) -> work`` (``GameKind.seat_work``); the table's move for a late seat is
#: checked as that seat's own.
SeatWork = Callable[[Any, Phase[Any], int, Action], Callable[[list[Event]], None]]

#: The longest turn a game may allow: 7 days.
MAX_TURN_SECONDS = 7 * 86_400
#: The largest time bank: a day (a real-time game is played in one sitting).
MAX_BANK_SECONDS = 86_400
#: The largest increment: 10 minutes a move.
MAX_INCREMENT_SECONDS = 600
#: The option every kind takes: the seconds a seat to act may take (``None``: no turn clock).
TURN_SECONDS = OptionSpec("turn_seconds", None, bounds=(10, MAX_TURN_SECONDS))
#: Or a bank of seconds per seat for the whole game (``None``: none).
TIME_BANK_S = OptionSpec("time_bank_s", None, bounds=(10, MAX_BANK_SECONDS))
#: With a bank, the seconds added to a seat's bank after each of its moves (``None``: none).
INCREMENT_S = OptionSpec("increment_s", None, bounds=(0, MAX_INCREMENT_SECONDS))
#: The options the base adds to every kind (described under ``games.options.<name>``).
BASE_OPTIONS: tuple[OptionSpec, ...] = (TURN_SECONDS, TIME_BANK_S, INCREMENT_S)
#: The type of the table's action when a seat's turn clock runs out (and of its first event).
TURN_TIMEOUT = "turn_timeout"
#: Moves in a row the table plays for a seat before it is marked absent.
ABSENT_AFTER = 3
#: The type of a seat's action that says it is back (and of the event that says so).
BACK = "back"
#: The event of a seat marked absent.
ABSENT = "absent"


class Back(ActionType):
    """``{"type": "back"}``: the seat is back (it was marked absent); taken at any time."""

    type: Literal["back"]


#: Why a game ended early because its log was full.
LOG_FULL = "log_full"
#: Why a game ended early because its table waited in the lobby past its time, a seat still free
#: (``web.service.lobby``).
EXPIRED = "expired"
#: The table's last entry of a game whose log is full.
END_LOG_FULL: dict[str, Any] = {"type": "end", "end": LOG_FULL}
#: The table's last entry of a game whose table nobody came to fill in time.
END_EXPIRED: dict[str, Any] = {"type": "end", "end": EXPIRED}
#: The table's ends of a game, by their action (``table_work``).
ENDS = (END_LOG_FULL, END_EXPIRED)


def check_clock_options(options: dict[str, Any]) -> None:
    """Refuse a game with both clocks (``turn_seconds`` and ``time_bank_s``), or an increment
    without a bank (``options``: resolved, the options that are off left out)."""
    if TURN_SECONDS.name in options and TIME_BANK_S.name in options:
        raise InvalidInput(
            "a game has one clock: turn_seconds (a time per move) or time_bank_s (a bank per "
            "seat), not both",
            f"options.{TIME_BANK_S.name}",
            reason="clock_modes",
        )
    if INCREMENT_S.name in options and TIME_BANK_S.name not in options:
        raise InvalidInput(
            "increment_s is added to a time bank: it needs time_bank_s",
            f"options.{INCREMENT_S.name}",
            reason="increment_without_bank",
        )


def time_control(options: dict[str, Any]) -> str:
    """A game's clock in one word, for the lobby to match tables by (``web.service.lobby``):
    ``none``, ``turn:<seconds>`` (``turn_seconds``) or ``bank:<seconds>+<increment>``."""
    if options.get(TURN_SECONDS.name) is not None:
        return f"turn:{int(options[TURN_SECONDS.name])}"
    if options.get(TIME_BANK_S.name) is not None:
        return f"bank:{int(options[TIME_BANK_S.name])}+{int(options.get(INCREMENT_S.name) or 0)}"
    return "none"


def turn_seconds(state: GameState) -> int | None:
    """The game's turn limit in seconds (``None``: no turn clock)."""
    seconds = state.options.get(TURN_SECONDS.name)
    return None if seconds is None else int(seconds)


def bank_seconds(state: GameState) -> int | None:
    """Each seat's time bank at the start, in seconds (``None``: no bank)."""
    seconds = state.options.get(TIME_BANK_S.name)
    return None if seconds is None else int(seconds)


def increment(state: GameState) -> int:
    """The seconds added to a seat's bank after each of its moves (0 without one)."""
    return int(state.options.get(INCREMENT_S.name) or 0)


def clocked(state: GameState) -> bool:
    """Whether the seats' clocks run in this game (a turn clock or a bank)."""
    return turn_seconds(state) is not None or bank_seconds(state) is not None


def clock_seconds(state: GameState, seat: int) -> int:
    """How long ``seat``'s clock lasts when it starts, as far as the engine knows: 0 s for an
    absent seat, else ``turn_seconds``, or the whole bank (what is left of it is the
    service's: ``web.service.banks``)."""
    if seat in state.absent:
        return 0
    limit = turn_seconds(state)
    return limit if limit is not None else bank_seconds(state) or 0


def start_clocks(state: GameState, to_act: list[int]) -> None:
    """The clocks of a new game: every seat to act starts now (after entry 0)."""
    if clocked(state):
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
    if not clocked(state):
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


def timeout_action(
    kind: Playable, state: GameState, rng: random.Random, seat: int | None = None
) -> Action:
    """What the table plays when a clock runs out: a phase's ``timeout`` as it is; for a turn
    clock, the late seat's move by ``kind.gentlest_bot`` from its view (a random legal action
    if it has nothing to say), as ``{"type": "turn_timeout", "seat", "move"}``. ``seat``: the
    late seat, as the service found it (module doc); default the clock with the oldest start."""
    timer = kind.timer(state)
    if timer is None:
        raise ValueError(f"{kind.name}: no clock runs")
    if timer.action["type"] != TURN_TIMEOUT:
        return dict(timer.action)
    late = timer.action["seat"] if seat is None else seat
    if late not in kind.turn_clocks(state):
        raise ValueError(f"{kind.name}: seat {late}'s clock does not run")
    move = None
    if kind.gentlest_bot in kind.bots:
        move = kind.bot_action(state, late, kind.gentlest_bot, rng)
    if move is None:
        move = rng.choice(kind.legal_actions(state, late))
    return {"type": TURN_TIMEOUT, "seat": late, "move": copy.deepcopy(move)}


def table_work(
    kind: Playable, state: GameState, phase: Phase[Any], action: Action, seat_work: SeatWork
) -> tuple[int | None, Callable[[list[Event]], None]]:
    """The table's action (seat ``None``) checked, as ``(the seat it plays for, the work that
    applies it)``: the end of a full log or of an expired table, the running phase timer's ``timeout``, or a turn
    clock's ``turn_timeout`` for a seat whose clock runs (its move, checked as that seat's
    own)."""
    if action in ENDS:
        why = action["end"]

        def end(events: list[Event]) -> None:
            events.append({"type": "game_ended", "end": why})
            kind.finish(state, why, events)
            if not kind.is_over(state):
                raise RuntimeError(f"{kind.name}.finish left the game running")

        return None, end
    timer = kind.timer(state)
    timeout = phase.timer
    if timer is None:
        raise IllegalAction(
            "no clock runs: the table takes no action without a seat now",
            "seat",
            reason="not_a_timeout",
        )
    if timer.action["type"] != TURN_TIMEOUT and timeout is not None and action == timer.action:
        return None, lambda events: timeout.apply(state, events)
    late = action.get("seat")
    if (
        timer.action["type"] == TURN_TIMEOUT
        and action.get("type") == TURN_TIMEOUT
        and set(action) == {"type", "seat", "move"}
        and isinstance(late, int)
        and not isinstance(late, bool)
        and late in kind.turn_clocks(state)
    ):
        check_shape(action["move"], "action.move")
        play = seat_work(state, phase, late, action["move"])

        def played_for(events: list[Event]) -> None:
            events.append({"type": TURN_TIMEOUT, "seat": late})
            play(events)

        return late, played_for
    raise IllegalAction(
        "only the running timer's action is taken without a seat",
        "seat",
        reason="not_a_timeout",
    )


def back_work(state: GameState, seat: int) -> Callable[[list[Event]], None]:
    """``seat``'s ``{"type": "back"}`` checked (409 ``not_absent`` unless it is absent), as the
    work that clears its mark."""
    if seat not in state.absent:
        raise IllegalAction(
            f"seat {seat} is not marked absent",
            "action.type",
            reason="not_absent",
            params={"seat": seat},
        )

    def back(events: list[Event]) -> None:
        state.absent.discard(seat)
        state.timeouts.pop(seat, None)
        events.append({"type": BACK, "seat": seat})

    return back


def mark_presence(
    state: GameState, seat: int | None, action: Action, actor: int | None, events: list[Event]
) -> None:
    """After an applied action (``seat``: who sent it, ``actor``: the seat it was played for):
    the table's move for a late seat counts, its ``ABSENT_AFTER``-th in a row marks the seat
    absent; a seat's own move clears its count and, when it was absent, says it is back."""
    if actor is None or action.get("type") == BACK:
        return
    if seat is None:  # the table played for ``actor``, whose time ran out
        count = state.timeouts.get(actor, 0) + 1
        state.timeouts[actor] = count
        if count >= ABSENT_AFTER and actor not in state.absent:
            state.absent.add(actor)
            events.append({"type": ABSENT, "seat": actor})
        return
    state.timeouts.pop(actor, None)
    if actor in state.absent:
        state.absent.discard(actor)
        events.insert(0, {"type": BACK, "seat": actor})
