"""Live game states in one process: an LRU of recently used games, each brought up to a version
from the store's snapshot and the log's tail.

States are never the truth: the action log is. A state is rebuilt from ``(kind, seed, seats,
options)`` and the log, or, to bound the cost of a cold read, from the game's newest snapshot
(``GameStore.snapshot``, the engine's ``state_to_json``) and only the log entries after it, read
without their events. ``StateCache.saved`` writes a snapshot whenever a write carries the log
past a multiple of ``snapshot_every``. A snapshot that cannot be read back (an engine that
changed its format) is ignored: the log replays from the start.

Each cached game has a lock (in this process): a reader holds it while it builds its response, a
writer while it applies actions in place and commits; when anything fails after the state
changed, the entry is cleared and the next use rebuilds it.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from games.base import get_kind
from web.storage import GameRecord, GameStore

log = logging.getLogger(__name__)

#: A snapshot is stored each time the log passes a multiple of this many entries, so a cold
#: read replays at most this many (measured on Tobago: restoring a snapshot costs about as much
#: as replaying 5-10 entries, each replayed entry ~9 us; bench/http_bench.py, cold GET rows).
SNAPSHOT_EVERY = 50


@dataclass
class Entry:
    """One cached game: its state at ``version`` (-1: nothing cached), guarded by ``lock``."""

    lock: threading.Lock
    version: int = -1
    state: Any = None

    def clear(self) -> None:
        self.state, self.version = None, -1


class StateCache:
    """The process's live states over one store (see the module doc)."""

    def __init__(
        self, store: GameStore, size: int = 512, snapshot_every: int = SNAPSHOT_EVERY
    ) -> None:
        self.store = store
        self.size = size
        self.snapshot_every = snapshot_every
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def entry(self, game_id: str) -> Entry:
        """The cache entry of a game (created empty), marked as most recently used."""
        with self._lock:
            found = self._entries.get(game_id)
            if found is None:
                found = self._entries[game_id] = Entry(threading.Lock())
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)  # a holder of its lock finishes on its copy
            return found

    def forget(self, game_id: str | None = None) -> None:
        """Drop cached states (all of them without an id): the next read rebuilds them."""
        with self._lock:
            if game_id is None:
                self._entries.clear()
            else:
                self._entries.pop(game_id, None)

    def bring_up(self, entry: Entry, game: GameRecord) -> Any:
        """With ``entry.lock`` held: the entry's state brought to ``game.version`` in place, from
        the newest snapshot at or before it (or the start) when nothing usable is cached."""
        kind = get_kind(game.kind)
        if entry.state is None or entry.version > game.version:
            entry.clear()
            entry.state, entry.version = self._restore(game)
        if entry.version < game.version:
            try:
                tail = self.store.actions(
                    game.id, after=entry.version, upto=game.version, events=False
                )
                for a in tail:
                    kind.apply(entry.state, a.seat, a.action)
                    entry.version = a.version
            except BaseException:
                entry.clear()
                raise
        return entry.state

    def _restore(self, game: GameRecord) -> tuple[Any, int]:
        """The newest usable starting point for ``game``: its snapshot, or a new state."""
        kind = get_kind(game.kind)
        every = self.snapshot_every
        snap = self.store.snapshot(game.id) if 0 < every <= game.version else None
        if snap is not None and snap.version <= game.version:
            try:
                return kind.state_from_json(snap.state), snap.version
            except Exception as e:  # a cache: an unreadable one costs a full replay, no more
                log.warning("snapshot of %s at %d unreadable (%r)", game.id, snap.version, e)
        return kind.new_state(game.seed, len(game.seats), game.options), 0

    def saved(self, game: GameRecord, before: int, state: Any) -> None:
        """After a write from ``before`` to ``game.version`` (``entry.lock`` held): store a
        snapshot when the log passed a multiple of ``snapshot_every``. A failure is logged."""
        every = self.snapshot_every
        if every <= 0 or game.version // every == before // every:
            return
        try:
            data = get_kind(game.kind).state_to_json(state)
            self.store.save_snapshot(game.id, game.version, data)
        except Exception as e:  # the log is committed: a missing snapshot only costs replay
            log.warning("could not store a snapshot of %s: %r", game.id, e)
