"""Knowing when a game moves: one watcher per store and process, which wakes every subscription
to a game (a Server-Sent Events stream, a long-poll) when the game's row changed.

A subscription costs a small object and an event in one process-wide table, never a query of its
own: however many pages follow however many games, the process learns of changes through one
channel, and wakes only the subscriptions of the games that changed. The store decides how it
learns (``GameStore.watcher``):

- SQLite (``web.storage.sqlite.SqliteWatcher``): one query per tick reads the rows changed since
  the last tick (every write bumps the row's ``seq`` from one counter inside its transaction, so
  the rows come in commit order and none is missed), whatever the number of subscriptions;
- PostgreSQL (``web.storage.postgres.PgWatcher``): one ``LISTEN`` connection hears the
  ``pg_notify`` each write sends at commit, from any server; after a lost connection every
  subscription is woken, so none misses a move made meanwhile.

A wake-up carries the version the watcher saw (``None``: not known, look again), so a woken
stream reads the store only when there is something new; and each wake-up of a game gives it a
new ``mark`` (a number of the process, never reused), by which the followers of one game in one
process share what one of them read after that wake-up (``web.streams``: a table's fifty pages
read its row and a new chat line once, not fifty times). The watcher's thread starts with the
first subscription (a process that never follows a game runs none) and again in a forked
child. Under gevent the thread is a greenlet and the events are gevent's: waiting costs no
thread.
"""

from __future__ import annotations

import logging
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager

from errors import DatabaseUnavailable

log = logging.getLogger(__name__)


class Subscription:
    """One follower of one game (see the module doc): ``wait`` sleeps until the watcher reports
    a change; ``news(seen)`` says whether the follower, which has read up to version ``seen``,
    should read the store again."""

    __slots__ = ("_event", "_unknown", "game_id", "version")

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        #: The newest version the watcher reported (-1: none yet).
        self.version = -1
        self._unknown = False  # True after a wake-up without a version
        self._event = threading.Event()

    def wait(self, timeout: float) -> bool:
        """Sleep until the game changed or ``timeout`` seconds passed; True when it changed."""
        woken = self._event.wait(timeout)
        self._event.clear()
        return woken

    def news(self, seen: int) -> bool:
        """Whether there may be versions after ``seen``; when so, the follower is taken to read
        the store now (call it just before reading: a change reported later wakes it again)."""
        if self._unknown or self.version > seen:
            self._unknown = False
            return True
        return False

    def nudge(self) -> None:
        """End a ``wait`` now without news of the game (a stream's client may have gone:
        ``web.streams``)."""
        self._event.set()

    def wake(self, version: int | None) -> None:
        """The game changed: now at ``version`` (``None``: not known)."""
        if version is None:
            self._unknown = True
        elif version > self.version:
            self.version = version
        self._event.set()


class Watcher(ABC):
    """The subscriptions of one process and the thread that learns of changes (module doc).
    A subclass's ``run`` calls ``listening()`` once it hears every change from then on."""

    name = "watcher"
    #: How long a first subscription waits for the thread to listen (then ``DatabaseUnavailable``).
    READY_S = 2.0

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, set[Subscription]] = {}
        self._marks: dict[str, int] = {}  # followed game -> the tick of its last wake-up
        self._tick = 0
        self._pid = -1
        self._ready = threading.Event()
        self._closed = threading.Event()

    @contextmanager
    def subscribe(self, game_id: str) -> Iterator[Subscription]:
        """A subscription to ``game_id`` for the block. It returns once the watcher listens, so
        a change committed after ``subscribe`` returned always wakes it."""
        sub = Subscription(game_id)
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
            if self._pid != os.getpid():  # the first subscription in this process
                self._pid = os.getpid()
                self._ready.clear()
                self._closed.clear()
                thread = threading.Thread(target=self._guarded, name=self.name, daemon=True)
                thread.start()
        try:
            if not self._ready.wait(self.READY_S):
                raise DatabaseUnavailable(f"the {self.name} cannot follow the database now")
            yield sub
        finally:
            with self._lock:
                found = self._subs.get(game_id)
                if found is not None:
                    found.discard(sub)
                    if not found:
                        del self._subs[game_id]
                        self._marks.pop(game_id, None)

    def listening(self) -> None:
        """Called by ``run`` once every later change will be heard."""
        self._ready.set()

    def mark(self, game_id: str) -> int | None:
        """The mark of the game's last wake-up in this process (module doc; ``None``: none
        since it is followed). What was read after a wake-up stands for every follower until
        the mark moves: a change reported later moves it, and wakes them again."""
        return self._marks.get(game_id)

    def wake(self, game_id: str, version: int | None) -> None:
        """Wake every subscription to ``game_id`` (the game is at ``version``, if known)."""
        with self._lock:
            found = list(self._subs.get(game_id, ()))
            if found:
                self._tick += 1
                self._marks[game_id] = self._tick
        for sub in found:
            sub.wake(version)

    def wake_all(self) -> None:
        """Wake every subscription, version unknown (after a lost connection)."""
        with self._lock:
            found = [sub for subs in self._subs.values() for sub in subs]
            for game_id in self._subs:
                self._tick += 1
                self._marks[game_id] = self._tick
        for sub in found:
            sub.wake(None)

    def _guarded(self) -> None:
        try:
            self.run(self._closed)
        except Exception:  # a dead watcher would leave every follower asleep: say so loudly
            log.exception("%s stopped", self.name)
        with self._lock:  # the next subscription starts a new thread
            self._pid = -1
        self.wake_all()

    @abstractmethod
    def run(self, closed: threading.Event) -> None:
        """The thread: learn of changes and ``wake`` their games until ``closed`` is set."""

    def close(self) -> None:
        self._closed.set()
