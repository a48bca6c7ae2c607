"""Exact minimum set cover over bitmasks, for proven-minimal puzzles.

A puzzle for answer ``a`` leaves exactly one candidate when every *other* candidate space is
excluded by at least one of its clues. With ``U`` the non-answer candidates and, for each clue
``c`` true at ``a``, ``X_c = U & ~mask(c)`` the spaces it excludes, a puzzle is a set cover of
``U`` by the ``X_c`` and a minimal puzzle is a **minimum set cover** (equivalently a minimum
hitting set: every space of ``U`` is hit by a chosen clue).

The search is exact and proves its answer:

1. *Reduction*: identical sets are merged (the first, i.e. preferred, kept) and a set contained in
   another is dropped. Neither changes the minimum size: any cover using a dropped set stays a
   cover, of the same size, when it is swapped for the set containing it.
2. *Upper bound*: the greedy cover (largest new coverage first).
3. *Iterative deepening* for ``k = lower bound, …, greedy - 1``: a depth-first search that picks
   the uncovered element covered by the fewest sets and branches on the sets covering it (one of
   them must be in any cover), pruned by ``|R| > k_left * max_s |s ∩ R|`` and by a table of
   failed ``(remaining, budget)`` states. A depth that is searched to the end without a cover is
   a proof that no cover of that size exists; the first depth that finds one is the minimum.

Every number here is a Python ``int`` used as a bit set; nothing depends on the island.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from hexmap.island import bit_indices


@dataclass(frozen=True)
class CoverResult:
    """A minimum cover (indices into the caller's ``sets``) with the evidence of its minimality."""

    #: Indices of the chosen sets, a minimum cover.
    chosen: tuple[int, ...]
    #: Sizes proven impossible by exhaustive search (every k below ``len(chosen)`` not covered by
    #: the trivial lower bound is listed here).
    refuted: tuple[int, ...]
    #: The lower bound known before searching (ceil(|U| / largest set)).
    initial_lower_bound: int
    #: Search nodes visited, over all depths.
    nodes: int
    #: Further minimum covers found when asked (``alternatives > 0``), ``chosen`` first.
    all_minimum: tuple[tuple[int, ...], ...] = field(default=())

    @property
    def size(self) -> int:
        return len(self.chosen)


def reduce_sets(universe: int, sets: Sequence[int]) -> list[int]:
    """Indices of the sets kept after merging duplicates and dropping sets inside another.

    Sets are first clipped to ``universe``; empty ones are dropped. Among equal sets the one with
    the lowest index is kept, so callers list their preferred sets first.
    """
    clipped = [s & universe for s in sets]
    first: dict[int, int] = {}
    for i, s in enumerate(clipped):
        if s and s not in first:
            first[s] = i
    uniq = sorted(first.items(), key=lambda kv: -kv[0].bit_count())
    kept: list[tuple[int, int]] = []
    for s, i in uniq:
        # Sorted by size descending: only an earlier (not smaller) set can contain s.
        if not any(s & ~t == 0 for t, _ in kept):
            kept.append((s, i))
    return sorted(i for _, i in kept)


def greedy_cover(universe: int, sets: Sequence[int]) -> list[int] | None:
    """The greedy cover (most newly covered first, lowest index on ties), or None if none."""
    remaining = universe
    chosen: list[int] = []
    while remaining:
        best, gain = -1, 0
        for i, s in enumerate(sets):
            g = (s & remaining).bit_count()
            if g > gain:
                best, gain = i, g
        if best < 0:
            return None
        chosen.append(best)
        remaining &= ~sets[best]
    return chosen


class _Search:
    def __init__(self, sets: list[int], universe: int) -> None:
        self.sets = sets
        counts: dict[int, list[int]] = {}
        for i, s in enumerate(sets):
            for e in bit_indices(s):
                counts.setdefault(e, []).append(i)
        # Elements by how few sets cover them; their covering sets by size, largest first.
        self.order = sorted(bit_indices(universe), key=lambda e: (len(counts[e]), e))
        self.covering = {
            e: sorted(cs, key=lambda i: (-sets[i].bit_count(), i)) for e, cs in counts.items()
        }
        self.failed: dict[int, int] = {}
        self.nodes = 0
        self.found: list[tuple[int, ...]] = []
        self.limit = 1

    def run(self, remaining: int, budget: int, path: tuple[int, ...]) -> bool:
        """True when the solution limit is reached (stop searching)."""
        self.nodes += 1
        if remaining == 0:
            self.found.append(path)
            return len(self.found) >= self.limit
        if budget == 0 or self.failed.get(remaining, -1) >= budget:
            return False
        sets = self.sets
        if budget == 1:
            for i in self.covering[self._pick(remaining)]:
                if remaining & ~sets[i] == 0:
                    self.found.append((*path, i))
                    if len(self.found) >= self.limit:
                        return True
            self._fail(remaining, 1, path)
            return False
        need = remaining.bit_count()
        if max((s & remaining).bit_count() for s in sets) * budget < need:
            self._fail(remaining, budget, path)
            return False
        before = len(self.found)
        for i in self.covering[self._pick(remaining)]:
            if self.run(remaining & ~sets[i], budget - 1, (*path, i)):
                return True
        if len(self.found) == before:
            self._fail(remaining, budget, path)
        return False

    def _pick(self, remaining: int) -> int:
        for e in self.order:
            if remaining >> e & 1:
                return e
        raise AssertionError("unreachable: remaining is not empty")

    def _fail(self, remaining: int, budget: int, path: tuple[int, ...]) -> None:
        if self.failed.get(remaining, -1) < budget:
            self.failed[remaining] = budget


def minimum_cover(universe: int, sets: Sequence[int], alternatives: int = 0) -> CoverResult | None:
    """A proven minimum cover of ``universe`` by ``sets``, or None when no cover exists.

    With ``alternatives > 0`` up to that many further minimum covers (distinct as sets of
    indices) are collected into ``all_minimum`` once the minimum size is proven.
    """
    if universe == 0:
        return CoverResult((), (), 0, 0, ((),))
    keep = reduce_sets(universe, sets)
    reduced = [sets[i] & universe for i in keep]
    union = 0
    for s in reduced:
        union |= s
    if union != universe:
        return None
    greedy = greedy_cover(universe, reduced)
    assert greedy is not None
    need = universe.bit_count()
    biggest = max(s.bit_count() for s in reduced)
    lower = -(-need // biggest)
    search = _Search(reduced, universe)
    refuted: list[int] = []
    best: tuple[int, ...] = tuple(greedy)
    for k in range(lower, len(greedy)):
        search.found = []
        search.limit = 1
        search.run(universe, k, ())
        if search.found:
            best = search.found[0]
            break
        refuted.append(k)
    found_all: list[tuple[int, ...]] = [best]
    if alternatives > 0:
        seen = {frozenset(best)}
        search.found = []
        search.failed = {}
        search.limit = alternatives * 4 + 1
        search.run(universe, len(best), ())
        for sol in search.found:
            key = frozenset(sol)
            if key not in seen:
                seen.add(key)
                found_all.append(sol)
                if len(found_all) > alternatives:
                    break
    back = [tuple(sorted(keep[i] for i in sol)) for sol in found_all]
    return CoverResult(
        chosen=back[0],
        refuted=tuple(refuted),
        initial_lower_bound=lower,
        nodes=search.nodes,
        all_minimum=tuple(back),
    )


def brute_force_minimum(base: int, target: int, masks: Iterable[int], limit: int) -> int | None:
    """Reference answer for tests and the benchmark's baseline: the smallest ``k <= limit`` such
    that ``base`` AND some ``k`` distinct ``masks`` is exactly ``target``, by trying every
    combination in turn (None when no combination of at most ``limit`` does it)."""
    distinct = sorted(set(masks))
    for k in range(1, limit + 1):
        for combo in combinations(distinct, k):
            m = base
            for x in combo:
                m &= x
            if m == target:
                return k
    return None
