"""Following a game: its public log entries after a version, and the long-poll that waits for
the next (``GET /api/games/{id}/events``; the stream, ``web.streams``, reads the same entries).

A waiting client sleeps on the process's watcher (``GameStore.wait``), so a move made through
another worker or server is seen too; a deadline that passes while it waits is settled; what
the page shows of the bots (``GameRecord.bot``) changing ends the wait as an entry does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from web.service.chat import check_chat_after
from web.storage import BOT_UNWATCHED, ActionRecord, GameRecord, GameStore

#: Long-polls wait at most this long.
MAX_WAIT_S = 25.0
#: ``events`` returns at most this many log entries (``more``: ask again after the last one).
EVENTS_PAGE = 500
#: A long-poll on a game whose deadline should have passed looks again this often (seconds).
DEADLINE_LOOK_S = 0.2


class GameSessions(Protocol):
    """What following needs of the game sessions (``web.service.sessions.GameSessions``, which
    imports this module: named here, not imported, so the two are no import circle)."""

    store: GameStore
    clock: Callable[[], float]

    def settle(self, game: GameRecord) -> GameRecord: ...

    def check_after(self, game: GameRecord, after: int) -> GameRecord: ...

    def _due(self, game: GameRecord) -> bool: ...


def public_entry(a: ActionRecord) -> dict[str, Any]:
    """A log entry as anyone may see it: the acting seat and the engine's public events, never
    the action itself (a secret simultaneous choice stays secret)."""
    return {"version": a.version, "seat": a.seat, "events": a.events, "time": a.time}


def events(
    sessions: GameSessions,
    game_id: str,
    after: int,
    wait: float,
    chat_after: int | None = None,
    bot_shown: str | None = BOT_UNWATCHED,
) -> dict:
    """Public events after version ``after`` (at most ``EVENTS_PAGE`` entries: ``more`` says
    whether the log goes on); waits up to ``wait`` seconds for one (with ``chat_after``: or
    for a chat line past that one, ``web.service.chat``; ``chat`` counts the lines), and
    returns early when what the page shows of the bots changes (``bot``, as in the game's
    state: ``thinking`` -> null or ``failed`` with no entry, or the reverse). With
    ``bot_shown`` (what the client shows now), it does not wait when the bots' mark is
    already another: a change between the client's last read and its wait is not missed.

    Waiting sleeps on the process's watcher (``GameStore.wait``: SQLite's one query a tick
    for all followed games, PostgreSQL's ``LISTEN/NOTIFY``), so a move made through another
    worker or server is seen too; a
    deadline that passes while waiting is settled (its timeout is an event like any other).
    Only the engine's public events and the acting seat (``None`` for the table) are
    returned, never the actions themselves (a secret simultaneous choice stays secret).
    """
    wait = min(max(wait, 0.0), MAX_WAIT_S)
    game = sessions.check_after(sessions.settle(sessions.store.get(game_id)), after)
    if chat_after is not None:
        check_chat_after(game, chat_after)
    talk = chat_after is not None and game.chat > chat_after
    bots_moved = bot_shown != BOT_UNWATCHED and game.bot != bot_shown  # since the client read
    news = talk or bots_moved or game.over  # over: final
    if game.version == after and wait > 0 and not news:
        game = wait_for_move(sessions, game, after, time.monotonic() + wait, chat_after)
    upto = min(game.version, after + EVENTS_PAGE)
    entries = sessions.store.actions(game_id, after=after, upto=upto)
    return {
        "id": game.id,
        "version": game.version,
        "over": game.over,
        "deadline": game.deadline,
        "now": sessions.clock(),
        "more": upto < game.version,
        "events": [public_entry(a) for a in entries],
        "chat": game.chat,
        "bot": game.bot,
    }


def wait_for_move(
    sessions: GameSessions,
    game: GameRecord,
    after: int,
    until: float,
    chat_after: int | None = None,
) -> GameRecord:
    """Wait until the log passes ``after`` (or the chat ``chat_after``), what the page
    shows of the bots (``GameRecord.bot``) changes from ``game``'s, or ``until``
    (monotonic seconds); the game's row then. A bot's mark cleared with nothing appended
    (a bot with nothing to say) ends the wait too, so a client is not left waiting on a
    "thinking" that is over. A running clock is looked at when, by its reading, the
    deadline should have come (at least every ``DEADLINE_LOOK_S``)."""
    bot_seen = game.bot
    while (left := until - time.monotonic()) > 0:
        step = left
        if game.deadline is not None and not game.over:
            step = min(left, max(DEADLINE_LOOK_S, game.deadline - sessions.clock()))
        sessions.store.wait(game.id, after, step, chat_after, bot_seen)
        game = sessions.store.get(game.id)
        talk = chat_after is not None and game.chat > chat_after
        if game.version > after or talk or game.bot != bot_seen:
            return game
        if sessions._due(game):
            game = sessions.settle(game)
            if game.version > after:
                return game
    return sessions.store.get(game.id)
