"""The bell: how a write that leaves a bot due wakes one idle thinker of the server at once,
whichever process wrote (an HTTP worker, a thinker, ``python app.py``'s request thread).

A bell is one UNIX datagram socket pair made before the server's processes are forked (the
gunicorn master's ``on_starting``, ``gunicorn.conf.py``; the parent of ``python -m
web.thinkers``), so every process of the server holds both ends: ``TOBAGO_THINKERS_BELL``
names their descriptors to the app each process builds (``inherited``). A writer ``ring``s: one
byte, never blocking (a full buffer means every thinker is busy and will look anyway when it is
done; the ring is dropped). An idle thinker waits on the reading end (``TableRunner``): the
kernel hands each datagram to one reader, so one ring wakes one idle thinker, not all of them,
and a busy thinker is not woken for a bot another one takes. A process without an inherited bell
(tests, a single ``python app.py``) needs none: its runner's own ``nudge`` wakes it.

**Across servers (PostgreSQL).** Every write to a PostgreSQL store already sends a
notification (``web.storage.postgres.CHANNEL``) that every server can hear; a thinker on
PostgreSQL listens to it too (``listen_postgres``, one connection a thinker process) and looks
at once when any server wrote (a ``bots_due`` query: one per write, and only while idle): a
thinkers-only server (``python -m web.thinkers``) takes another server's due bots without
waiting for its tick.

Measured against the 50 ms tick it replaces (``bench/bot_tables_bench.py``): a normal bot's
reply no longer waits for the tick, and a ring costs one ``send`` (a few microseconds).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

#: The environment variable that hands a bell's descriptors (``"<reader>,<writer>"``) to the
#: processes forked after it was made.
ENV = "TOBAGO_THINKERS_BELL"


class Bell:
    """A datagram socket pair: ``ring`` on one end, ``take`` on the other (module doc)."""

    def __init__(self, reader: socket.socket, writer: socket.socket) -> None:
        self.reader = reader
        self.writer = writer
        reader.setblocking(False)
        writer.setblocking(False)

    @classmethod
    def new(cls, inheritable: bool = False) -> Bell:
        """A fresh bell (``inheritable``: its descriptors survive an ``exec`` too)."""
        reader, writer = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        reader.set_inheritable(inheritable)
        writer.set_inheritable(inheritable)
        return cls(reader, writer)

    def env_value(self) -> str:
        """What ``ENV`` holds for the processes forked from this one."""
        return f"{self.reader.fileno()},{self.writer.fileno()}"

    def fileno(self) -> int:
        """The reading end (to wait on it with ``select``)."""
        return self.reader.fileno()

    def ring(self) -> None:
        """Wake one idle thinker; never blocks (a full bell: every thinker is busy)."""
        with contextlib.suppress(BlockingIOError, OSError):
            self.writer.send(b"!")

    def take(self, every: bool = False) -> bool:
        """Take one ring (``every``: all of them) if there is one; whether there was."""
        took = False
        while True:
            try:
                self.reader.recv(16)
            except (BlockingIOError, InterruptedError):
                return took
            except OSError:  # closed: nothing more to take
                return took
            took = True
            if not every:
                return took

    def close(self) -> None:
        self.reader.close()
        self.writer.close()


#: This process's view of the inherited bell (pid → bell): one socket object per descriptor.
_INHERITED: dict[int, Bell | None] = {}


def inherited() -> Bell | None:
    """The server's bell, made by the process that forked this one (``ENV``), or ``None``."""
    pid = os.getpid()
    if pid not in _INHERITED:
        _INHERITED[pid] = _open(os.environ.get(ENV, ""))
    return _INHERITED[pid]


def _open(value: str) -> Bell | None:
    try:
        reader, writer = (int(fd) for fd in value.split(","))
    except ValueError:
        return None
    try:
        found = [socket.socket(fileno=fd) for fd in (reader, writer)]
    except OSError:  # not open here (a process started otherwise, with the variable set)
        return None
    if any(s.type != socket.SOCK_DGRAM for s in found):  # not ours: leave it alone
        for s in found:
            s.detach()
        return None
    return Bell(*found)


def made_for_children() -> Bell:
    """A new bell, announced in this process's environment to the processes it forks next
    (the gunicorn master; ``python -m web.thinkers``); keep it referenced as long as they run."""
    bell = Bell.new(inheritable=True)
    os.environ[ENV] = bell.env_value()
    return bell


#: A lost ``LISTEN`` connection is opened again after this long (seconds).
RECONNECT_S = 0.5


def listen_postgres(url: str, wake: Callable[[], None], closed: threading.Event) -> threading.Event:
    """A daemon thread that calls ``wake()`` whenever any server writes a game of the
    PostgreSQL database at ``url`` (module doc), until ``closed`` is set; returns an event set
    once it listens (after a lost connection it wakes too: whatever happened meanwhile)."""
    import psycopg

    from web.storage.postgres import CHANNEL

    listening = threading.Event()

    def run() -> None:
        while not closed.is_set():
            try:
                with psycopg.connect(url, autocommit=True, connect_timeout=2) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    listening.set()
                    wake()
                    while not closed.is_set():
                        if any(True for _ in conn.notifies(timeout=1.0, stop_after=1)):
                            wake()
            except psycopg.Error as e:
                if closed.is_set():
                    return
                log.warning("the thinkers' listener lost PostgreSQL (%r); reconnecting", e)
                closed.wait(RECONNECT_S)

    threading.Thread(target=run, name="thinkers-listener", daemon=True).start()
    return listening
