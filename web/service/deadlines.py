"""Deadlines: when the table acts next (a timed phase's end, a seat's turn clock), from the
engine's clocks and the log's times.

An engine's running clocks are ``Timer(since, seconds, action)`` (``GameKind.timer``: a timed
phase's, or the turn clock that runs out first) and its turn clocks (``GameKind.turn_clocks``:
seat → ``since``, option ``turn_seconds``): a clock started after the ``since``-th log entry,
whose time (on the service's clock; the game's creation time for 0) is its start. The absolute
deadline, and each seat's turn deadline, are stored with the game on every append, so any
process can see which games are due (``GameStore.due``) and a page can show each seat's time
left. ``GameSessions.settle`` has the table play the timer's action (``GameKind.timeout_action``)
as a system entry (seat ``None``) once the clock passes the deadline: on the next read, poll or
action of anyone, or by the table runner (``web.service.table``). Two processes that settle the
same deadline at once cannot both succeed: settling runs in the game's write transaction, which
re-reads the deadline and the version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import GameKind
from games.turns import TURN_TIMEOUT
from web.storage import GameRecord

Clock = Callable[[], float]


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


def deadlines_of(
    kind: GameKind,
    state: Any,
    before: int,
    game: GameRecord,
    times: dict[int, float],
    entry_time: Callable[[int], float],
) -> tuple[float | None, dict[int, float]]:
    """The deadline and the turn deadlines after an append. ``before``: the version before it;
    ``game``: the row as stored (its deadlines); ``times``: version → time of the entries just
    appended (and 0 → creation time for a new game); ``entry_time(v)``: the time of an older
    entry, read from the log."""
    timer = kind.timer(state)
    if timer is None:
        return None, {}
    if timer.action["type"] != TURN_TIMEOUT:
        # the stored deadline was this phase's unless a turn clock ran (then it was that one's)
        old = None if game.turn_deadlines else game.deadline
        return _ends(timer.since, timer.seconds, before, old, times, entry_time), {}
    turns = {
        seat: _ends(since, timer.seconds, before, game.turn_deadlines.get(seat), times, entry_time)
        for seat, since in kind.turn_clocks(state).items()
    }
    return turns[timer.action["seat"]], turns
