"""Deadlines of timed phases: when one ends (from the engine's ``Timer`` and the log's times).

An engine declares a timed phase with ``Timer(since, seconds, action)``: the phase began after the
``since``-th log entry, whose time (on the service's clock; the game's creation time for 0)
starts it. The absolute deadline is stored with the game on every append, so any process can see
which games are due (``GameStore.due``). ``GameSessions.settle`` applies the timer's action as a
system entry (seat ``None``) once the clock passes the deadline: on the next read, poll or action
of anyone, or by the table runner (``web.storage.table``). Two processes that settle the same
deadline at once cannot both succeed: settling runs in the game's write transaction, which
re-reads the deadline and the version.
"""

from __future__ import annotations

from collections.abc import Callable

from games.base import Timer

Clock = Callable[[], float]


def deadline_of(
    timer: Timer | None,
    before: int,
    old_deadline: float | None,
    times: dict[int, float],
    entry_time: Callable[[int], float],
) -> float | None:
    """The deadline after an append. ``before``: the version before it; ``old_deadline``: the
    stored one; ``times``: version → time of the entries just appended (and 0 → creation time for
    a new game); ``entry_time(v)``: the time of an older entry, read from the log."""
    if timer is None:
        return None
    if timer.since in times:
        start = times[timer.since]
    elif timer.since <= before and old_deadline is not None:
        return old_deadline  # the same phase goes on: its clock is unchanged
    else:
        start = entry_time(timer.since)
    return start + timer.seconds
