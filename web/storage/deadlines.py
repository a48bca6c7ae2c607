"""Deadlines of timed phases: when one ends (from the engine's ``Timer`` and the log's times), and
the per-process timer that settles them without any request.

An engine declares a timed phase with ``Timer(since, seconds, action)``: the phase began after the
``since``-th log entry, whose time (on the service's clock; the game's creation time for 0)
starts it. The absolute deadline is stored with the game on every append, so any process can see
which games are due (``GameStore.due``). ``GameSessions.settle`` applies the timer's action as a
system entry (seat ``None``) once the clock passes the deadline: on the next read, poll or action
of anyone, or from ``DeadlineTimer``, a thread per process. Two processes that settle the same
deadline at once cannot both succeed: settling runs in the game's write transaction, which
re-reads the deadline and the version.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from games.base import Timer

if TYPE_CHECKING:
    from web.storage.sessions import GameSessions

log = logging.getLogger(__name__)

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


class DeadlineTimer:
    """A daemon thread that settles every due deadline each ``tick`` seconds (by the sessions'
    clock). It holds the sessions weakly and ends with them, or on ``stop``."""

    def __init__(self, sessions: GameSessions, tick: float) -> None:
        self._sessions = weakref.ref(sessions)
        self.tick = tick
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="deadline-timer", daemon=True)

    def start(self) -> DeadlineTimer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.tick):
            sessions = self._sessions()
            if sessions is None:
                return
            try:
                sessions.settle_due()
            except Exception:  # a bad game must not stop the timer of every other game
                log.exception("settling deadlines failed")
            del sessions
