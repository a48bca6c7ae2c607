"""Live game states in one process: the recently used games within a memory budget, each brought
up to a version from the store's snapshot and the log's tail.

States are never the truth: the action log is. A state is rebuilt from ``(kind, seed, seats,
options)`` and the log, or, to bound the cost of a cold read, from the game's newest snapshot
(``GameStore.snapshot``, the engine's ``state_to_json``) and only the log entries after it, read
without their events. ``StateCache.saved`` writes a snapshot whenever a write carries the log
past a multiple of ``snapshot_every``. A snapshot that cannot be read back (an engine that
changed its format) is ignored: the log replays from the start, read with its events, which the
replay must give back (``web.service.replay``: a game stored under earlier rules is refused
with ``rules_changed``, and the refusal is kept for its version, so asking again costs no
replay).

**Memory.** The cache keeps at most ``budget`` estimated bytes (``hexmap.sized_cache``: least
recently used out first; ``STATE_CACHE_BYTES`` unless ``TOBAGO_STATE_CACHE`` says otherwise;
0 keeps nothing). A state's estimate (``estimated_bytes``) is ``STATE_FACTOR`` times the length
of its snapshot's JSON text, the generator aside (a ``random.Random``: ``GENERATOR_BYTES``), plus
the island's own estimate for a state that holds one (a Tobago state: ``Island.nbytes``),
measured whenever a state is built (restored from its snapshot, or new and replayed) and each
time a snapshot is written, plus ``ENTRY_BYTES`` for every log entry applied to it in place
since (``tests/test_state_cache.py`` holds the estimate at or above what a state reaches, within
8x, for every game kind).

Each cached game has a lock (in this process): a reader holds it while it builds its response, a
writer while it applies actions in place and commits; when anything fails after the state
changed, the entry is cleared and the next use rebuilds it.
"""

from __future__ import annotations

import copy
import logging
import re
import threading
from dataclasses import dataclass
from typing import Any

import orjson

from errors import IllegalAction, InvalidInput
from games.base import GameKind, get_kind
from hexmap.island import Island
from hexmap.sized_cache import SizedCache
from web.service.replay import check_end, replay_entry, start
from web.storage import GameRecord, GameStore

log = logging.getLogger(__name__)

#: A snapshot is stored each time the log passes a multiple of this many entries, so a cold
#: read replays at most this many (measured on Tobago: restoring a snapshot costs about as much
#: as replaying 5-10 entries, each replayed entry ~9 us; bench/http_bench.py, cold GET rows).
SNAPSHOT_EVERY = 50
#: The memory budget of one process's states (``TOBAGO_STATE_CACHE``): about 250 Tobago games
#: (a Tobago state is 90-120 kB, a DAO or Dragon's Gold state 5-25 kB).
STATE_CACHE_BYTES = 32 * 1024 * 1024
#: A live state's memory, its generator and island aside, as a multiple of its snapshot's JSON
#: text without the generator: measured 6.2-9.4x for Tobago (with the last 64-128 events),
#: 7.8-11.3x DAO, 6.5-8.4x Isla Dorada, 4.3-4.7x Dragon's Gold.
STATE_FACTOR = 14
#: A ``random.Random`` (``sys.getsizeof``: its 625 words of state), and the key of its
#: ``getstate()`` in every snapshot (``games.state.common_json``), 7 kB of JSON.
GENERATOR_BYTES = 2600
GENERATOR_KEY = "rng"
#: What one log entry applied in place may add to a state before the next measurement (a Tobago
#: entry: 1-2 events of about 260 bytes).
ENTRY_BYTES = 400
#: An entry without its state: the entry, its lock and the cache's slot.
EMPTY_ENTRY_BYTES = 300

_UNITS = {"": 1, "B": 1, "KB": 1024, "K": 1024, "MB": 1024**2, "M": 1024**2, "GB": 1024**3}
_UNITS["G"] = _UNITS["GB"]


def parse_budget(text: str) -> int:
    """A byte budget as ``TOBAGO_STATE_CACHE`` gives it: bytes (``33554432``) or with a binary
    unit (``32MB``, ``32M``, ``512KB``, ``1GB``). ``ValueError`` for anything else."""
    m = re.fullmatch(r"\s*(\d+)\s*([A-Za-z]*)\s*", text)
    unit = m.group(2).upper() if m else None
    if m is None or unit not in _UNITS:
        raise ValueError(f"a size in bytes or with KB, MB or GB is expected, got {text!r}")
    return int(m.group(1)) * _UNITS[unit]


def estimated_bytes(snapshot: dict[str, Any], state: Any) -> int:
    """The estimated memory of ``state`` from its snapshot (``state_to_json``; module doc)."""
    own = {k: v for k, v in snapshot.items() if k != GENERATOR_KEY}
    text = orjson.dumps(own, option=orjson.OPT_NON_STR_KEYS)
    island = getattr(state, "island", None)
    held = island.nbytes() if isinstance(island, Island) else 0
    generator = GENERATOR_BYTES if GENERATOR_KEY in snapshot else 0
    return STATE_FACTOR * len(text) + generator + held


@dataclass
class Entry:
    """One cached game: its state at ``version`` (-1: nothing cached), guarded by ``lock``;
    ``nbytes`` is the state's estimated memory, measured at version ``measured`` (-1: not yet)."""

    lock: threading.Lock
    version: int = -1
    state: Any = None
    nbytes: int = 0
    measured: int = -1
    #: The game at this version no longer replays (``rules_changed``), and the refusal.
    refused: tuple[int, IllegalAction] | None = None

    def clear(self) -> None:
        self.state, self.version, self.measured, self.refused = None, -1, -1, None


class StateCache:
    """The process's live states over one store (see the module doc)."""

    def __init__(
        self,
        store: GameStore,
        budget: int = STATE_CACHE_BYTES,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.store = store
        self.budget = budget
        self.snapshot_every = snapshot_every
        self._entries: SizedCache[Entry] = SizedCache("states", budget)

    def entry(self, game_id: str) -> Entry:
        """The cache entry of a game (created empty), marked as most recently used. With no
        budget, a new entry that is not kept."""
        if self.budget <= 0:
            return Entry(threading.Lock())
        found = self._entries.get(game_id)
        if found is None:  # a holder of an evicted entry's lock finishes on its copy
            found = self._entries.put(game_id, Entry(threading.Lock()), EMPTY_ENTRY_BYTES)
        return found

    def forget(self, game_id: str | None = None) -> None:
        """Drop cached states (all of them without an id): the next read rebuilds them."""
        if game_id is None:
            self._entries.clear()
        else:
            self._entries.discard(game_id)

    def stats(self) -> dict[str, int]:
        """Games kept, their estimated bytes, the budget and evictions so far."""
        return self._entries.stats()

    def bring_up(self, entry: Entry, game: GameRecord) -> Any:
        """With ``entry.lock`` held: the entry's state brought to ``game.version`` in place, from
        the newest snapshot at or before it (or the start) when nothing usable is cached. A
        stored entry refused, or a replay from the start that departs from the log, is 409
        ``rules_changed`` (``web.service.replay``)."""
        kind = get_kind(game.kind)
        if entry.refused is not None and entry.refused[0] == game.version:
            raise copy.copy(entry.refused[1])
        try:
            self._replay(kind, entry, game)
        except BaseException as e:
            entry.clear()
            if isinstance(e, IllegalAction) and e.reason == "rules_changed":
                entry.refused = (game.version, e)
            raise
        if entry.measured < 0:  # new, or remembered unmeasured: measure it once
            snapshot = kind.state_to_json(entry.state)
            self._measured(game.id, entry, estimated_bytes(snapshot, entry.state))
        elif entry.measured < entry.version:  # grown in place since it was measured
            grown = ENTRY_BYTES * (entry.version - entry.measured)
            self._measured(game.id, entry, entry.nbytes + grown)
        return entry.state

    def _replay(self, kind: GameKind, entry: Entry, game: GameRecord) -> None:
        """``entry``'s state brought to ``game.version`` (``bring_up``); a replay from the
        start (no usable snapshot) compares each entry's events with those it recorded."""
        compare = False
        if entry.state is None or entry.version > game.version:
            entry.clear()
            entry.state, entry.version, snapshot = self._restore(game)
            compare = snapshot is None
            if snapshot is not None:
                self._measured(game.id, entry, estimated_bytes(snapshot, entry.state))
        if entry.version < game.version:
            tail = self.store.actions(
                game.id, after=entry.version, upto=game.version, events=compare
            )
            for a in tail:
                replay_entry(kind, game, entry.state, a, compare)
                entry.version = a.version
            if compare:
                check_end(kind, game, entry.state)

    def _measured(self, game_id: str, entry: Entry, nbytes: int) -> None:
        """``entry``'s state (at ``entry.version``) is estimated at ``nbytes``: charge the cache
        the difference (unless the entry is no longer the one kept for the game)."""
        delta, entry.nbytes, entry.measured = nbytes - entry.nbytes, nbytes, entry.version
        if self._entries.get(game_id) is entry:
            self._entries.charge(game_id, delta)

    def _restore(self, game: GameRecord) -> tuple[Any, int, dict[str, Any] | None]:
        """The newest usable starting point for ``game``: its snapshot (returned too, for the
        estimate), or a new state."""
        kind = get_kind(game.kind)
        every = self.snapshot_every
        snap = self.store.snapshot(game.id) if 0 < every <= game.version else None
        if snap is not None and snap.version <= game.version:
            try:
                return kind.state_from_json(snap.state), snap.version, snap.state
            except InvalidInput as e:  # an older format: a cache, so it costs a replay, no more
                log.warning("snapshot of %s at %d unreadable (%r)", game.id, snap.version, e)
        return start(kind, game), 0, None

    def saved(self, game: GameRecord, before: int, state: Any) -> None:
        """After a write from ``before`` to ``game.version`` (``entry.lock`` held): store a
        snapshot when the log passed a multiple of ``snapshot_every`` (and measure the cached
        state by it). A failure is logged."""
        every = self.snapshot_every
        if every <= 0 or game.version // every == before // every:
            return
        try:
            data = get_kind(game.kind).state_to_json(state)
            self.store.save_snapshot(game.id, game.version, data)
        except Exception:  # the log is committed and answered: a missing snapshot costs a replay
            log.exception("could not store a snapshot of %s", game.id)
            return
        found = self._entries.get(game.id)
        if found is not None and found.state is state and found.version == game.version:
            self._measured(game.id, found, estimated_bytes(data, state))
