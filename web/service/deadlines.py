"""Deadlines: when the table acts next (a timed phase's end, a seat's clock), from the engine's
clocks, the log's times and the seats' time banks.

An engine's running clocks are a timed phase's ``Timer(since, seconds, action)``
(``GameKind.timer``) or the seats' turn clocks (``GameKind.turn_clocks``: seat → ``since``): a
clock started after the ``since``-th log entry, whose time (on the service's clock; the game's
creation time for 0) is its start. How long a seat's clock lasts is the service's to say
(``games.turns``): ``turn_seconds`` (option), what is left of its bank (option
``time_bank_s``: ``web.service.banks``; ``EMPTY_BANK_MOVE_S`` when it is empty), or 0 s for a
seat marked absent. A seat's deadline is
its clock's start plus that; the game's deadline is the first of them (or the timed phase's
end). The deadline and each seat's deadline are stored with the game on every append
(``clocks_after``), with the banks, so any process can see which games are due
(``GameStore.due``) and a page can show each seat's time left. ``GameSessions.settle`` has the
table play for the seat whose clock ran out first (``late_seat``; the engine's
``timeout_action``), or the phase's timeout, as a system entry (seat ``None``) once the clock
passes the deadline: on the next read, poll or action of anyone, or by the table runner
(``web.service.table``). Two processes that settle the same deadline at once cannot both
succeed: settling runs in the game's write transaction, which re-reads the deadline and the
version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import turns
from games.base import GameKind
from web.service.banks import Banks, fold, opening
from web.storage import ActionRecord, GameRecord

Clock = Callable[[], float]
#: A move's time when a seat's bank is empty at the start of its turn (no increment refilled
#: it): a player back after the table played for them gets this long, not none at all.
EMPTY_BANK_MOVE_S = 10.0


def _ends(
    since: int,
    seconds: float,
    before: int,
    old: float | None,
    times: dict[int, float],
    entry_time: Callable[[int], float],
) -> float:
    """When a clock that started after entry ``since`` and lasts ``seconds`` runs out:
    ``old`` (its stored end) when it started before this append, else from the entry's time."""
    if since in times:
        return times[since] + seconds
    if since <= before and old is not None:
        return old  # the same clock goes on: unchanged
    return entry_time(since) + seconds


def banks_after(
    kind: GameKind, state: Any, game: GameRecord, entries: list[ActionRecord], now: float
) -> Banks | None:
    """The seats' banks after ``entries`` were appended to ``game`` (each with the clocks that
    ran after it); a new game's (none stored yet) when its clocks start at ``now``. ``None``:
    the game has no bank."""
    bank = turns.bank_seconds(state)
    if bank is None:
        return None
    if game.banks is None:  # a new game
        return opening(len(game.seats), bank, kind.turn_clocks(state), now)
    return fold(
        Banks.from_json(game.banks),
        turns.increment(state),
        ((e, e.clocks if e.clocks is not None else {}) for e in entries),
    )


def clocks_after(
    kind: GameKind,
    state: Any,
    before: int,
    game: GameRecord,
    entries: list[ActionRecord],
    now: float,
    entry_time: Callable[[int], float],
) -> tuple[float | None, dict[int, float], dict[str, Any] | None]:
    """The deadline, the seats' deadlines and the banks (as stored) after an append.
    ``before``: the version before it; ``game``: the row as stored (its deadlines and banks);
    ``entries``: the entries just appended (none: a new game, whose clocks start ``now``);
    ``entry_time(v)``: the time of an older entry, read from the log."""
    banks = banks_after(kind, state, game, entries, now)
    stored = None if banks is None else banks.to_json()
    times = {e.version: e.time for e in entries} if entries else {0: now}
    timer = kind.timer(state)
    if timer is None:
        return None, {}, stored
    if timer.action["type"] != turns.TURN_TIMEOUT:
        # the stored deadline was this phase's unless a turn clock ran (then it was that one's)
        old = None if game.turn_deadlines else game.deadline
        return _ends(timer.since, timer.seconds, before, old, times, entry_time), {}, stored
    ends: dict[int, float] = {}
    for seat, since in kind.turn_clocks(state).items():
        if banks is not None:  # an absent seat's clock is 0 s; an empty bank's a short move
            left = 0.0 if seat in state.absent else banks.left.get(seat, 0.0)
            if left <= 0 and seat not in state.absent:
                left = EMPTY_BANK_MOVE_S
            ends[seat] = banks.start.get(seat, now) + left
        else:
            seconds = float(turns.clock_seconds(state, seat))  # 0 s for an absent seat
            old = game.turn_deadlines.get(seat)
            ends[seat] = _ends(since, seconds, before, old, times, entry_time)
    return min(ends.values(), default=None), ends, stored


def late_seat(kind: GameKind, state: Any, game: GameRecord) -> int | None:
    """The seat whose clock runs out first by the stored deadlines (the oldest start, then the
    lowest seat, among equals); ``None`` when no seat's clock runs (a timed phase's timer)."""
    clocks = kind.turn_clocks(state)
    ends = {s: game.turn_deadlines[s] for s in clocks if s in game.turn_deadlines}
    if not ends:
        return None
    return min(ends, key=lambda s: (ends[s], clocks[s], s))
