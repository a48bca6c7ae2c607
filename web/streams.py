"""A game's public log pushed as it grows: Server-Sent Events (``GET /api/games/<id>/stream``).

The answer is ``text/event-stream``: first ``retry: <ms>`` (a browser's ``EventSource``
reconnects that long after a drop, sending the last ``id`` it received as ``Last-Event-ID``:
3 to 6 s, drawn per stream, so that the pages of a restarted server do not all come back in the
same instant), then one
event per log entry, ``id:`` its version and ``data:`` the entry as the events endpoint gives
it (``{"version", "seat", "events", "time"}``: the acting seat and the public events, never the
action); a ``bot`` event (``data: {"version": V, "bot": "thinking" | "failed" | null}``) when
what the table's bots do changes (``GameRecord.bot``: a page says a bot is thinking, or
failed); a comment line at least every ``HEARTBEAT_S`` seconds while nothing happens (so
proxies and clients see a live connection); and when the game is over, after its last entry,
an ``end`` event (``data: {"version": V}``), and the stream closes. It resumes after
``Last-Event-ID`` or ``?after=V``.

A stream sleeps on the process's watcher (``web.storage.watch``): it costs a subscription, and
reads the store only when its game changed. A database that cannot be read meanwhile leaves the
stream open: it looks again every ``DATABASE_RETRY_S`` until the database answers. Under gunicorn's gevent worker it costs a greenlet
and a socket, not a thread.
"""

from __future__ import annotations

import random
import time
from collections.abc import Generator, Iterator
from contextlib import AbstractContextManager

import orjson

from errors import DatabaseUnavailable
from web.service.sessions import EVENTS_PAGE, GameSessions, public_entry
from web.storage import ActionRecord, GameRecord
from web.storage.watch import Subscription

#: A comment is sent when the stream has been silent this long (seconds).
HEARTBEAT_S = 15.0
#: What a browser waits before reconnecting a dropped stream (milliseconds): at least this, at
#: most twice this (drawn per stream).
RETRY_MS = 3000
#: A stream that cannot read the database looks again after this long (seconds).
DATABASE_RETRY_S = 1.0
_UNSEEN = object()


def entry_event(entry: dict) -> bytes:
    """One log entry as an event: ``id`` its version, ``data`` its JSON."""
    return b"id: %d\ndata: %s\n\n" % (entry["version"], orjson.dumps(entry))


class EventStream:
    """The events of a game after version ``after``, as they come, until the game is over: an
    iterable of ``bytes`` for a streaming response. The watcher's subscription is taken when it
    is made (so a refusal is a plain error answer) and given back by ``close`` (the server calls
    it when the client goes away)."""

    def __init__(self, sessions: GameSessions, game_id: str, after: int) -> None:
        self.store = sessions.store
        self.game_id = game_id
        self._subscription: AbstractContextManager[Subscription] | None = (
            self.store.watcher().subscribe(game_id)
        )
        self.sub = self._subscription.__enter__()
        try:
            game = sessions.check_after(self.store.get(game_id), after)
        except BaseException:
            self.close()
            raise
        self._events = self._run(after, game)

    def __iter__(self) -> Iterator[bytes]:
        return self._events

    def close(self) -> None:
        if self._subscription is not None:
            self._subscription.__exit__(None, None, None)
            self._subscription = None
        if getattr(self, "_events", None) is not None:
            self._events.close()

    def _look(self, game: GameRecord | None, seen: int) -> tuple[GameRecord, list[ActionRecord]]:
        """The game's row (``game`` when just read) and its entries after ``seen`` (a page)."""
        if game is None:
            game = self.store.get(self.game_id)
        if game.version <= seen:
            return game, []
        upto = min(game.version, seen + EVENTS_PAGE)
        return game, self.store.actions(self.game_id, after=seen, upto=upto)

    def _run(self, after: int, first: GameRecord | None) -> Generator[bytes, None, None]:
        sub = self.sub
        yield b"retry: %d\n\n" % random.randint(RETRY_MS, 2 * RETRY_MS)
        seen = after
        quiet_since = time.monotonic()
        look = True  # the first look is unconditional: changes before subscribing count
        shown: object = _UNSEEN  # what the bots did at the last look
        while True:
            if look or sub.news(seen):
                look = False
                try:
                    game, entries = self._look(first, seen)
                except DatabaseUnavailable:  # the stream stays open: look again in a while
                    look = True
                    sub.wait(DATABASE_RETRY_S)
                    continue
                first = None  # (read after subscribing: a later change wakes the stream)
                before = seen
                if entries:
                    for a in entries:
                        yield entry_event(public_entry(a))
                        seen = a.version
                    quiet_since = time.monotonic()
                    look = seen < game.version  # a long log: the next page at once
                if game.over and seen >= game.version:
                    yield b"event: end\ndata: %s\n\n" % orjson.dumps({"version": game.version})
                    return
                if look:
                    continue
                if shown is not _UNSEEN and game.bot != shown and seen == before:
                    yield b"event: bot\ndata: %s\n\n" % orjson.dumps(
                        {"version": game.version, "bot": game.bot}
                    )  # (with new entries, a page reads its view anyway)
                    quiet_since = time.monotonic()
                shown = game.bot
            left = HEARTBEAT_S - (time.monotonic() - quiet_since)
            if left <= 0:
                yield b": heartbeat\n\n"
                quiet_since = time.monotonic()
                continue
            sub.wait(left)
