"""A game's public log pushed as it grows: Server-Sent Events (``GET /api/games/<id>/stream``).

The answer is ``text/event-stream``: first ``retry: <ms>`` (a browser's ``EventSource``
reconnects that long after a drop, sending the last ``id`` it received as ``Last-Event-ID``:
3 to 6 s, drawn per stream, so that the pages of a restarted server do not all come back in the
same instant), then one
event per log entry, ``id:`` its version and ``data:`` the entry as the events endpoint gives
it (``{"version", "seat", "events", "time"}``: the acting seat and the public events, never the
action); a ``bot`` event (``data: {"version": V, "bot": "thinking" | "failed" | null}``) when
what the table's bots do changes (``GameRecord.bot``: a page says a bot is thinking, or
failed); each line of the game's table chat as a ``chat`` event (``data:`` the line as
``GET .../chat`` gives it: ``{"n", "seat", "text", "time"}``, ``web.service.chat``), in the
order of their numbers; a comment line at least every ``HEARTBEAT_S`` seconds while nothing
happens (so proxies and clients see a live connection); and when the game is over, after its
last entry and its last line, an ``end`` event (``data: {"version": V}``), and the stream
closes. It resumes after ``Last-Event-ID`` or ``?after=V&chat_after=n``.

**Ids.** An event's ``id`` says where the stream stands in both sequences: the version alone
while no chat line counts (``5``), and ``<version>:<lines>`` once the stream has sent a line or
was asked for the lines after some (``5:3``), so a browser's reconnection (its
``Last-Event-ID`` is the last id it received, of any event) resumes the entries and the lines
alike. A client that knows nothing of the chat keeps working: its entries' ``data`` are
unchanged, its numeric ``Last-Event-ID`` is still a version, and a ``chat`` event is one it
does not listen to.

A stream sleeps on the process's watcher (``web.storage.watch``): it costs a subscription, and
reads the store only when its game changed. The followers of one game in one process share
their reads (``_Shared``): after a wake-up the first to look reads the game's row and its new
chat lines, and the others take them from it while the watcher's mark of the game stands (a
table talking to fifty pages costs a worker one read per line, not fifty; ``bench/chat_bench.py``). A database that cannot be read meanwhile leaves the
stream open: it looks again every ``DATABASE_RETRY_S`` until the database answers. Under gunicorn's gevent worker it costs a greenlet
and a socket, not a thread.

**Ends.** A stream holds nothing once its client has gone: under gunicorn the stream watches
its connection (``ClientWatch``: gevent's event loop wakes it when the socket turns readable,
and a client that closed reads as the end of the socket), so a page closed or a client that
opens and drops streams is released at once, not when a write fails two heartbeats later;
without gevent the socket is looked at before each heartbeat, so within one heartbeat. A
stream whose game's rows were deleted (nothing wakes it for that) learns it at its next
heartbeat at the latest (the game's version is read then, once per game for all its followers
in the process) and ends with an ``end`` event ``data: {"version": V, "deleted": true}``.
Each open stream holds one of its client's stream places (``web.client_limits``), given back
when it closes.
"""

from __future__ import annotations

import random
import socket
import sys
import threading
import time
import weakref
from collections.abc import Callable, Generator, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from errors import DatabaseUnavailable, NotFound
from web.config import from_environment
from web.service.chat import CHAT_PAGE, check_chat_after, public_line
from web.service.following import EVENTS_PAGE, public_entry
from web.service.sessions import GameSessions
from web.storage import ActionRecord, GameRecord, GameStore
from web.storage.chat import ChatLine
from web.storage.watch import Subscription

#: A comment is sent when the stream has been silent this long (seconds;
#: ``TOBAGO_HEARTBEAT_S``, a process setting read through ``web.config``, so a bad value stops
#: the start): a gone client or a deleted game is noticed within it.
HEARTBEAT_S: float = from_environment("HEARTBEAT_S")
#: What a browser waits before reconnecting a dropped stream (milliseconds): at least this, at
#: most twice this (drawn per stream).
RETRY_MS = 3000
#: A stream that cannot read the database looks again after this long (seconds).
DATABASE_RETRY_S = 1.0
#: A game found in the store is taken to be there for this long by its other followers.
DELETED_CHECK_S = 1.0
_UNSEEN = object()
#: The newest chat lines kept per followed game for the process's other followers of it.
KEPT_LINES = 64


class _Shared:
    """What this process's followers of one game last read (module doc): the game's row as of
    the watcher's ``mark``, and the game's newest chat lines (lines never change once written).
    Kept while a stream of the game holds it (``shared``: weakly referenced)."""

    __slots__ = ("__weakref__", "checked", "data", "deleted", "game", "lines", "lock", "mark")

    def __init__(self) -> None:
        self.checked = float("-inf")  # when the game was last found in the store (monotonic)
        self.deleted = False
        self.mark: int | None = None
        self.game: GameRecord | None = None
        self.lines: dict[int, ChatLine] = {}
        self.data: dict[int, bytes] = {}  # each kept line's JSON, written once
        self.lock = threading.Lock()  # (gevent's under gunicorn: the others wait for one read)

    def lines_after(self, after: int, count: int) -> list[ChatLine] | None:
        """The lines ``after + 1 ...`` up to ``count`` (a page at most), if all are kept."""
        wanted = range(after + 1, min(count, after + CHAT_PAGE) + 1)
        if any(n not in self.lines for n in wanted):
            return None
        return [self.lines[n] for n in wanted]

    def keep(self, lines: list[ChatLine]) -> None:
        for line in lines:
            self.lines[line.n] = line
            self.data[line.n] = orjson.dumps(public_line(line))
        if len(self.lines) > KEPT_LINES:
            for n in sorted(self.lines)[:-KEPT_LINES]:
                del self.lines[n], self.data[n]


_SHARED: weakref.WeakValueDictionary[tuple[int, str], _Shared] = weakref.WeakValueDictionary()
_SHARED_LOCK = threading.Lock()


def shared(store: GameStore, game_id: str) -> _Shared:
    """The reads shared by this process's followers of ``game_id`` on ``store``."""
    with _SHARED_LOCK:
        found = _SHARED.get((id(store), game_id))
        if found is None:
            found = _SHARED[(id(store), game_id)] = _Shared()
        return found


def _under_gevent() -> bool:
    """Whether this process runs on gevent's loop (gunicorn's gevent worker patched it)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("socket"))


class ClientWatch:
    """Whether a stream's client has gone (module doc): its connection's socket (``None``:
    not known, never gone). Under gevent, ``wake`` is called as soon as the socket turns
    readable; ``gone`` then tells a closed connection from a spurious wake-up."""

    def __init__(self, sock: socket.socket | None, wake: Callable[[], None]) -> None:
        self.sock = sock
        self._io: Any = None
        if sock is not None and _under_gevent():
            from gevent import get_hub

            self._io = get_hub().loop.io(sock.fileno(), 1)  # 1: readable
            self._io.start(wake)

    def gone(self) -> bool:
        """Whether the client closed its end (or the connection broke)."""
        sock = self.sock
        if sock is None:
            return False
        try:
            timeout = sock.gettimeout()
            sock.settimeout(0.0)  # (a gevent socket waits for data unless non-blocking)
            try:
                data = sock.recv(1, socket.MSG_PEEK)
            finally:
                sock.settimeout(timeout)
        except BlockingIOError:  # nothing to read: still there
            return False
        except OSError:  # reset, or already closed
            return True
        if data:  # the client sent something (a pipelined request): no watching any more,
            self.stop()  # which would wake the stream again at once; heartbeats still tell
            return False
        return True

    def stop(self) -> None:
        if self._io is not None:
            self._io.stop()
            self._io.close()
            self._io = None


def event_id(version: int, lines: int) -> bytes:
    """An event's id (module doc): the version, then the chat lines read once there are any."""
    return b"%d" % version if lines == 0 else b"%d:%d" % (version, lines)


def entry_event(entry: dict, lines: int = 0) -> bytes:
    """One log entry as an event: ``id`` its version (and the chat lines sent, ``event_id``),
    ``data`` its JSON."""
    return b"id: %s\ndata: %s\n\n" % (event_id(entry["version"], lines), orjson.dumps(entry))


def chat_event(line: ChatLine, version: int, data: bytes | None = None) -> bytes:
    """One chat line as a ``chat`` event, after the entries up to ``version`` (``data``: the
    line's JSON, when already written)."""
    if data is None:
        data = orjson.dumps(public_line(line))
    return b"event: chat\nid: %s\ndata: %s\n\n" % (event_id(version, line.n), data)


def deleted_event(version: int) -> bytes:
    """The last event of a stream whose game was deleted after version ``version`` was sent."""
    return b"event: end\ndata: %s\n\n" % orjson.dumps({"version": version, "deleted": True})


#: What a stream does after a step: send more at once, wait for news, or close.
Step = Literal["again", "idle", "end"]


@dataclass
class _Position:
    """Where a stream stands: the last entry and chat line sent, since when it has been
    silent, what the bots did at the last look, and the game's row when just read."""

    seen: int
    heard: int
    quiet_since: float
    first: GameRecord | None
    shown: object = _UNSEEN


class EventStream:
    """The events of a game after version ``after`` and its chat lines after line
    ``chat_after``, as they come, until the game is over: an iterable of ``bytes`` for a
    streaming response. The watcher's subscription is taken when it is made (so a refusal is a
    plain error answer) and given back by ``close`` (the server calls it when the stream ends or
    the client goes away), which also calls ``release`` (the client's stream place). ``sock``:
    the client's connection, watched for its end (``ClientWatch``)."""

    def __init__(
        self,
        sessions: GameSessions,
        game_id: str,
        after: int,
        chat_after: int = 0,
        sock: socket.socket | None = None,
        release: Callable[[], None] | None = None,
    ) -> None:
        self.store = sessions.store
        self.game_id = game_id
        self._release = release
        self._shared = shared(self.store, game_id)
        self._client: ClientWatch | None = None
        self._subscription: AbstractContextManager[Subscription] | None = None
        try:
            self._subscription = self.store.watcher().subscribe(game_id)
            self.sub = self._subscription.__enter__()
            game = sessions.check_after(self.store.get(game_id), after)
            check_chat_after(game, chat_after)
            self._client = ClientWatch(sock, self.sub.nudge)
        except BaseException:
            self.close()
            raise
        self._events = self._run(after, chat_after, game)

    def __iter__(self) -> Iterator[bytes]:
        return self._events

    def close(self) -> None:
        if self._client is not None:
            self._client.stop()
            self._client = None
        if self._subscription is not None:
            self._subscription.__exit__(None, None, None)
            self._subscription = None
        if getattr(self, "_events", None) is not None:
            self._events.close()
        if self._release is not None:
            self._release()
            self._release = None

    def _gone(self) -> bool:
        return self._client is not None and self._client.gone()

    def _deleted(self) -> bool:
        """Whether the game's rows are gone: its version read, at most once per
        ``DELETED_CHECK_S`` for this process's followers of the game (their heartbeats come
        together: they were sent the same events), so each learns of a deletion within its
        heartbeat. A database that cannot answer: not known, so not deleted."""
        sh = self._shared
        with sh.lock:
            now = time.monotonic()
            if not sh.deleted and now - sh.checked >= min(DELETED_CHECK_S, HEARTBEAT_S / 2):
                try:
                    self.store.version(self.game_id)
                    sh.checked = now
                except NotFound:
                    sh.deleted = True
                except DatabaseUnavailable:
                    pass
            return sh.deleted

    def _look(
        self, game: GameRecord | None, seen: int, heard: int
    ) -> tuple[GameRecord, list[ActionRecord], list[ChatLine]]:
        """The game's row (``game`` when just read), its entries after ``seen`` and its chat
        lines after ``heard`` (a page of each)."""
        if game is None:
            game = self._row()
        entries: list[ActionRecord] = []
        if game.version > seen:
            upto = min(game.version, seen + EVENTS_PAGE)
            entries = self.store.actions(self.game_id, after=seen, upto=upto)
        return game, entries, self._lines(game, heard)

    def _row(self) -> GameRecord:
        """The game's row, read once per wake-up for this process's followers (``_Shared``):
        read after the mark was taken, it is at least as new as the change the mark stands for."""
        mark = self.store.watcher().mark(self.game_id)
        sh = self._shared
        with sh.lock:
            if mark is None or sh.mark != mark or sh.game is None:
                sh.game, sh.mark = self.store.get(self.game_id), mark
            return sh.game

    def _lines(self, game: GameRecord, heard: int) -> list[ChatLine]:
        """The chat lines after ``heard`` (a page), from the lines this process's followers
        of the game read last, or from the store."""
        if game.chat <= heard:
            return []
        sh = self._shared
        with sh.lock:
            found = sh.lines_after(heard, game.chat)
            if found is None:
                found = self.store.chat(self.game_id, heard, CHAT_PAGE)
                sh.keep(found)
            return found

    def _run(
        self, after: int, chat_after: int, first: GameRecord | None
    ) -> Generator[bytes, None, None]:
        yield b"retry: %d\n\n" % random.randint(RETRY_MS, 2 * RETRY_MS)
        pos = _Position(after, chat_after, time.monotonic(), first)
        look = True  # the first look is unconditional: changes before subscribing count
        while True:
            if look or self.sub.news(pos.seen):
                step = yield from self._update(pos)
                if step == "end":
                    return
                look = step == "again"
                if look:
                    continue
            if (yield from self._idle(pos)) == "end":
                return

    def _update(self, pos: _Position) -> Generator[bytes, None, Step]:
        """Look at the game and send what is new since ``pos`` (a page of entries and of chat
        lines, what the bots do, the end): ``"again"`` when there is more to send at once (or
        the database could not be read: after ``DATABASE_RETRY_S``), ``"end"`` when the
        stream is over, else ``"idle"``."""
        try:
            game, entries, lines = self._look(pos.first, pos.seen, pos.heard)
        except DatabaseUnavailable:  # the stream stays open: look again in a while
            self.sub.wait(DATABASE_RETRY_S)
            return "again"
        except NotFound:  # the game's rows were deleted
            self._shared.deleted = True
            yield deleted_event(pos.seen)
            return "end"
        pos.first = None  # (read after subscribing: a later change wakes the stream)
        before = pos.seen
        for a in entries:
            yield entry_event(public_entry(a), pos.heard)
            pos.seen = a.version
        for line in lines:
            yield chat_event(line, pos.seen, self._shared.data.get(line.n))
            pos.heard = line.n
        more = False
        if entries or lines:
            pos.quiet_since = time.monotonic()
            # a long log or chat: the next page at once
            more = pos.seen < game.version or pos.heard < game.chat
        if game.over and pos.seen >= game.version and pos.heard >= game.chat:
            yield b"event: end\ndata: %s\n\n" % orjson.dumps({"version": game.version})
            return "end"
        if more:
            return "again"
        if pos.shown is not _UNSEEN and game.bot != pos.shown and pos.seen == before:
            yield b"event: bot\ndata: %s\n\n" % orjson.dumps(
                {"version": game.version, "bot": game.bot}
            )  # (with new entries, a page reads its view anyway)
            pos.quiet_since = time.monotonic()
        pos.shown = game.bot
        return "idle"

    def _idle(self, pos: _Position) -> Generator[bytes, None, Step]:
        """Wait for news until the heartbeat is due, then send it (or end: the client has
        gone, the game's rows were deleted): ``"end"`` or ``"idle"``."""
        left = HEARTBEAT_S - (time.monotonic() - pos.quiet_since)
        if left > 0:
            return "end" if self.sub.wait(left) and self._gone() else "idle"
        if self._gone():
            return "end"
        if self._deleted():
            yield deleted_event(pos.seen)
            return "end"
        yield b": heartbeat\n\n"
        pos.quiet_since = time.monotonic()
        return "idle"
