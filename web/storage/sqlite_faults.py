"""What a SQLite error means for a request, how a lock held by another process is waited for,
and what this process knows of its writes.

A fault of the database is answered in words (503 with ``Retry-After``), never a 500:

- "database is locked" (another process holds SQLite's lock past the wait): 503
  ``database_unavailable``;
- ``SQLITE_FULL`` (the disk is full, or the file reached the size it may take:
  ``PRAGMA max_page_count``): 503 ``storage_full``;
- ``SQLITE_READONLY`` (a read-only volume or file, or a file moved away): 503
  ``storage_read_only``;
- ``SQLITE_IOERR`` (a read or write the system refused): ``storage_full`` when the file
  system has (almost) no room left, which is what a refused write then means (SQLite reports
  ``ENOSPC`` as ``SQLITE_FULL`` only for the write that hit it), else ``database_unavailable``;
- ``SQLITE_CANTOPEN`` (a ``-wal`` or ``-shm`` file that cannot be opened): ``database_unavailable``.

SQLite rolls a transaction back by itself on some of these (``SQLITE_FULL`` does); the store
rolls back what is left open (``web.storage.sqlite``): nothing of a refused write is kept.

A lock held by another process is waited for by sleeping between tries (``waiting_for_locks``,
``while_locked``: a gevent sleep under gevent), not in SQLite's busy handler, which sleeps in C
and would hold up an event loop.

``WriteHealth`` is what ``/healthz`` reads: whether this process's store refuses writes now
(read-only), or refused one for want of room within the last ``FULL_HOLD_S``, without asking
the database (``/healthz`` is the benches' baseline: no query).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable
from typing import TypeVar

from errors import DatabaseUnavailable, StorageFull, StorageReadOnly

T = TypeVar("T")
log = logging.getLogger(__name__)

#: SQLite's primary result codes met here (an extended code's low byte is its primary code).
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14

#: Free bytes of the database's file system under which an I/O error is taken for a full disk.
LOW_SPACE_BYTES = 1 << 20

#: How long opening a file waits for another process that holds it (WAL switch, schema).
OPEN_WAIT_S = 30.0

#: How long ``/healthz`` tells of a write refused for want of room (seconds).
FULL_HOLD_S = 30.0


def primary_code(e: sqlite3.Error) -> int | None:
    """SQLite's primary result code of ``e`` (``None`` when the error carries none)."""
    code = getattr(e, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def locked(e: sqlite3.Error) -> bool:
    """Whether ``e`` is "database is locked" (or busy): another connection holds the lock."""
    return primary_code(e) in (SQLITE_BUSY, SQLITE_LOCKED) or "locked" in str(e) or "busy" in str(e)


def low_space(path: str) -> bool:
    """Whether the file system holding ``path`` has less than ``LOW_SPACE_BYTES`` free for
    this process (``False`` when that cannot be told)."""
    try:
        found = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    return found.f_bavail * found.f_frsize < LOW_SPACE_BYTES


def refusal(e: sqlite3.Error, path: str) -> DatabaseUnavailable | None:
    """The 503 that SQLite's error ``e`` on the database ``path`` stands for (module doc), or
    ``None``: an error of the code (a statement SQLite refused), left to be a 500."""
    if locked(e):
        return DatabaseUnavailable(f"the game database is locked: {e}")
    code = primary_code(e)
    if code == SQLITE_FULL:
        return StorageFull(f"the game database has no room to grow: {e}")
    if code == SQLITE_READONLY:
        return StorageReadOnly(f"the game database is read-only: {e}")
    if code == SQLITE_IOERR and low_space(path):
        return StorageFull(f"the game database's disk is full: {e}")
    if code in (SQLITE_IOERR, SQLITE_CANTOPEN):
        return DatabaseUnavailable(f"the game database could not be read or written: {e}")
    return None


def roll_back(conn: sqlite3.Connection) -> bool:
    """Roll back the transaction left open on ``conn``, if any (SQLite ends some itself, as
    on ``SQLITE_FULL``); whether the connection is still fit for use."""
    if not conn.in_transaction:
        return True
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        log.warning("could not roll back on %r", conn, exc_info=True)
        return False
    return True


def while_locked(step: Callable[[], None]) -> None:
    """Run ``step`` until it gets past "database is locked", for up to ``OPEN_WAIT_S``.
    When several workers open one new file at once, one of them switches it to WAL while the
    others open it: the switch takes a lock for which SQLite does not wait on the busy timeout,
    and a connection opened meanwhile may find the file locked on its first statement; each
    attempt starts again from a fresh connection."""
    deadline = time.monotonic() + OPEN_WAIT_S
    pause = 0.002
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as e:
            if not locked(e) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def waiting_for_locks(step: Callable[[], T], deadline: float, wait_s: float) -> T:
    """Run a step of the writing connection (its opening, its ``BEGIN IMMEDIATE``), whose busy
    handler is off (it sleeps in C, and would hold up every other request of an event loop):
    while another process holds the lock, sleep between tries (1 ms, 2 ms, 4 ms ... 50 ms) until
    ``deadline`` (monotonic; the request asked ``wait_s`` before it), then refuse the request
    (``DatabaseUnavailable``). Once SQLite's write lock is held, no statement of the
    transaction waits for another writer."""
    pause = 0.001
    while True:
        try:
            return step()
        except sqlite3.OperationalError as e:
            if not locked(e):
                raise
            left = deadline - time.monotonic()
            if left <= 0:
                raise DatabaseUnavailable(
                    f"the game database stayed locked for {wait_s:g} s"
                ) from e
        time.sleep(min(pause, left))
        pause = min(pause * 2, 0.05)


class WriteHealth:
    """Whether this process's store can write, as ``/healthz`` tells it: never when it serves a
    read-only database; not for ``FULL_HOLD_S`` after a write refused for want of room, or for
    a file found read-only (a write that needs no new room may still go through meanwhile: a
    monitor is told of the trouble until no write has met it for that long). Per process: each
    gunicorn worker tells its own."""

    def __init__(self, read_only: bool) -> None:
        self.read_only = read_only
        #: The reason of the last write refused as full or read-only, and when (monotonic).
        self._last: tuple[str, float] | None = None

    def refused(self, e: DatabaseUnavailable) -> None:
        """A write was refused with ``e``: remembered when it was for want of room, or for a
        read-only file."""
        if isinstance(e, StorageFull | StorageReadOnly):
            self._last = (e.reason, time.monotonic())

    def refusal(self) -> str | None:
        """Why writes are refused now (``storage_read_only``, ``storage_full``), or ``None``."""
        if self.read_only:
            return "storage_read_only"
        last = self._last
        if last is not None and time.monotonic() - last[1] < FULL_HOLD_S:
            return last[0]
        return None
