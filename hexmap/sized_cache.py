"""A thread-safe cache bounded by the memory of what it keeps (estimated bytes), not by a count.

Islands and everything compiled from them are immutable values that cost milliseconds to build
and a lookup to reuse, so the service keeps them; but requests may name any of millions of
islands, so what is kept must be bounded by memory. ``SizedCache`` keeps values with the byte
size their builder estimates (``nbytes``) and, when the total passes its budget, drops the least
recently used ones until it is back under three quarters of it (so evictions come in batches,
and their cost is spread over many inserts).

Reads take no lock: a hit is one dict lookup and a tick of a shared counter (both atomic under
CPython's global interpreter lock). Inserts, charges and evictions take the cache's lock. Two
threads that build the same value at once both build it; the first one stored is kept and
returned to both, so callers always share one object per key.

The estimates are deliberately simple functions of a value's sizes (``deep_size`` measures an
object graph for the tests that keep them honest).
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")

#: What an entry costs beyond its value: the entry object and its dict slot.
ENTRY_OVERHEAD = 120


class _Entry:
    __slots__ = ("value", "nbytes", "tick")

    def __init__(self, value: Any, nbytes: int, tick: int) -> None:
        self.value = value
        self.nbytes = nbytes
        self.tick = tick


class SizedCache(Generic[V]):
    """Values by key, at most ``budget`` estimated bytes in all, least recently used out first."""

    def __init__(self, name: str, budget: int) -> None:
        self.name = name
        self.budget = budget
        self._entries: dict[Hashable, _Entry] = {}
        self._clock = itertools.count()
        self._lock = threading.Lock()
        self.nbytes = 0
        self.evictions = 0

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def get(self, key: Hashable) -> V | None:
        """The value kept for ``key`` (and mark it used), or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        entry.tick = next(self._clock)
        return entry.value

    def put(self, key: Hashable, value: V, nbytes: int) -> V:
        """Keep ``value`` for ``key`` (costing ``nbytes``); returns the value kept, which is an
        earlier one if another thread stored ``key`` first."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                entry.tick = next(self._clock)
                return entry.value
            cost = nbytes + ENTRY_OVERHEAD
            self._entries[key] = _Entry(value, cost, next(self._clock))
            self.nbytes += cost
            if self.nbytes > self.budget:
                self._evict()
            return value

    def get_or_build(self, key: Hashable, build: Callable[[], V], size: Callable[[V], int]) -> V:
        """The value for ``key``, built (outside the lock) and kept on first use."""
        entry = self._entries.get(key)
        if entry is not None:
            entry.tick = next(self._clock)
            return entry.value
        value = build()
        return self.put(key, value, size(value))

    def charge(self, key: Hashable, nbytes: int) -> None:
        """Add ``nbytes`` to what ``key``'s entry costs (a value that keeps a growing memo)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return
            entry.nbytes += nbytes
            self.nbytes += nbytes
            if self.nbytes > self.budget:
                self._evict()

    def discard(self, key: Hashable) -> None:
        """Drop ``key``'s entry, if kept."""
        with self._lock:
            entry = self._entries.pop(key, None)
            if entry is not None:
                self.nbytes -= entry.nbytes

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.nbytes = 0

    def _evict(self) -> None:
        """Drop the least recently used entries until under 3/4 of the budget (lock held).

        The newest entry is never dropped, so one value larger than the whole budget is still
        kept (alone) rather than built again on every use.
        """
        low = self.budget * 3 // 4
        order = sorted(self._entries.items(), key=lambda kv: kv[1].tick)
        for key, entry in order[:-1]:
            if self.nbytes <= low:
                break
            del self._entries[key]
            self.nbytes -= entry.nbytes
            self.evictions += 1

    def stats(self) -> dict[str, int]:
        """Entries, estimated bytes, budget and evictions so far (for benches and tests)."""
        return {
            "entries": len(self._entries),
            "bytes": self.nbytes,
            "budget": self.budget,
            "evictions": self.evictions,
        }


def deep_size(obj: object, limit: int = 1_000_000) -> int:
    """Bytes of ``obj`` and every object it reaches through containers, slots and ``__dict__``
    (each counted once; classes, modules and functions are not followed). Slow: for tests that
    check the estimates, never for a hot path."""
    seen: set[int] = set()
    stack = [obj]
    total = 0
    while stack and len(seen) < limit:
        o = stack.pop()
        if id(o) in seen or isinstance(o, type | type(sys)) or callable(o):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, list | tuple | set | frozenset):
            stack.extend(o)
        elif not isinstance(o, str | bytes | int | float | bool | type(None)):
            d = getattr(o, "__dict__", None)
            if d is not None:
                stack.append(d)
            for cls in type(o).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    if hasattr(o, slot):
                        stack.append(getattr(o, slot))
    return total
