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

Measured against the 50 ms tick it replaces (``bench/bot_tables_bench.py``): a normal bot's
reply no longer waits for the tick, and a ring costs one ``send`` (a few microseconds).
"""

from __future__ import annotations

import contextlib
import os
import socket

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
