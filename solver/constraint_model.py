"""A second, independent formulation of the solver with python-constraint (``constraint``).

The treasure's space is one variable whose domain is the island spaces a treasure may be on; every
clue of a column is a ``FunctionConstraint`` on it, and every amulet removal another. The solutions
are the candidates; a play is legal iff adding the card's constraint leaves between 1 and |C| − 1
solutions (rules §3).

It shares nothing with the bitmask engine but the ``Island``'s raw data (``terrain``,
``landmarks``): regions are flood-filled here, distances are brute-force cube distances, and the
sea is "any hex that is not an island space". Tests cross-check the two on many random islands,
columns and hands; ``bench/solver_bench.py`` uses this as the baseline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from constraint import FunctionConstraint, Problem

from hexmap.island import Island
from solver.clues import Clue
from solver.options import DEFAULT_OPTIONS, SolverOptions

Space = tuple[int, int]
#: The six neighbour offsets of rules §1 (written out here on purpose, not imported).
_OFFSETS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_VAR = "treasure"


def _cube_distance(a: Space, b: Space) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


class ConstraintModel:
    """The constraint formulation for one island under one set of options."""

    def __init__(self, island: Island, options: SolverOptions = DEFAULT_OPTIONS) -> None:
        self.options = options
        self.terrain: dict[Space, str] = {(h[0], h[1]): t for h, t in island.terrain.items()}
        self.landmarks: dict[Space, str] = {
            (lm.space[0], lm.space[1]): lm.kind for lm in island.landmarks
        }
        self.domain: list[Space] = sorted(
            s for s in self.terrain if options.treasure_on_landmarks or s not in self.landmarks
        )
        self._largest = self._largest_regions()
        self._dist: dict[tuple[str, bool], dict[Space, float]] = {}

    # --- geometry, computed here from the raw terrain ----------------------------------------

    def _largest_regions(self) -> dict[str, frozenset[Space]]:
        seen: set[Space] = set()
        best: dict[str, frozenset[Space]] = {}
        for start in sorted(self.terrain):
            if start in seen:
                continue
            kind = self.terrain[start]
            region, stack = {start}, [start]
            while stack:
                q, r = stack.pop()
                for dq, dr in _OFFSETS:
                    n = (q + dq, r + dr)
                    if n not in region and self.terrain.get(n) == kind:
                        region.add(n)
                        stack.append(n)
            seen |= region
            if len(region) > len(best.get(kind, ())):
                best[kind] = frozenset(region)
        return best

    def target_spaces(self, clue: Clue) -> list[Space]:
        """The island spaces of a clue's target (not for the sea)."""
        t = clue.target
        if t in ("palm", "hut", "statue"):
            return [s for s, k in self.landmarks.items() if k == t]
        if clue.largest:
            return sorted(self._largest.get(t, ()))
        return [s for s, k in self.terrain.items() if k == t]

    def distance_to(self, clue: Clue) -> dict[Space, float]:
        """Least hex distance from every island space to the clue's target (inf if none)."""
        key = (clue.target, clue.largest)
        field = self._dist.get(key)
        if field is None:
            if clue.target == "sea":
                field = {s: self._sea_distance(s) for s in self.terrain}
            else:
                targets = self.target_spaces(clue)
                field = {
                    s: min((_cube_distance(s, x) for x in targets), default=float("inf"))
                    for s in self.terrain
                }
            self._dist[key] = field
        return field

    def _sea_distance(self, s: Space) -> float:
        """Least distance to a hex that is not an island space (searched up to radius 3)."""
        q, r = s
        best = float("inf")
        for dq in range(-3, 4):
            for dr in range(-3, 4):
                n = (q + dq, r + dr)
                if n not in self.terrain:
                    best = min(best, _cube_distance(s, n))
        return best

    def predicate(self, clue: Clue) -> Callable[[Space], bool]:
        """The clue as a test on one island space (rules §2)."""
        if clue.relation == "in":
            if clue.largest:
                region = self._largest.get(clue.target, frozenset())

                def positive(x: Space) -> bool:
                    return x in region

            else:
                terrain, target = self.terrain, clue.target

                def positive(x: Space) -> bool:
                    return terrain[x] == target

        else:
            dist = self.distance_to(clue)
            lo = 0 if self.options.near_includes_target else 1
            d = clue.distance or 0

            def positive(x: Space) -> bool:
                return lo <= dist[x] <= d

        if clue.negated:
            return lambda x: not positive(x)
        return positive

    # --- the constraint problem --------------------------------------------------------------

    def problem(self, clues: Sequence[Clue], removed: Iterable[Space] = ()) -> Problem:
        """One variable (the treasure's space); one constraint per clue and per removal."""
        p = Problem()
        p.addVariable(_VAR, self.domain)
        for clue in clues:
            p.addConstraint(FunctionConstraint(self.predicate(clue)), [_VAR])
        gone = frozenset((h[0], h[1]) for h in removed)
        if gone:
            p.addConstraint(FunctionConstraint(lambda x: x not in gone), [_VAR])
        return p

    def candidates(self, clues: Sequence[Clue], removed: Iterable[Space] = ()) -> frozenset[Space]:
        """The solutions of the column's problem: its candidates."""
        return frozenset(sol[_VAR] for sol in self.problem(clues, removed).getSolutions())

    def play(
        self, clues: Sequence[Clue], removed: Iterable[Space], card: Clue, before: int | None = None
    ) -> tuple[bool, int]:
        """``(legal, remaining)`` of playing ``card`` on the column (``remaining`` = |C ∩ S|)."""
        removed = list(removed)
        if before is None:
            before = len(self.candidates(clues, removed))
        remaining = len(self.candidates([*clues, card], removed))
        return 0 < remaining < before, remaining

    def query(
        self, maps: Sequence[tuple[Sequence[Clue], Iterable[Space]]], hand: Sequence[Clue]
    ) -> list[tuple[frozenset[Space], int, list[int], list[bool]]]:
        """For each ``(clues, removed)`` map: candidates, count, remaining and legality per card."""
        out = []
        for clues, removed in maps:
            removed = list(removed)
            cands = self.candidates(clues, removed)
            n = len(cands)
            plays = [self.play(clues, removed, card, n) for card in hand]
            out.append((cands, n, [r for _, r in plays], [legal for legal, _ in plays]))
        return out


def constraint_candidates(
    island: Island,
    clues: Sequence[Clue],
    removed: Iterable[Any] = (),
    options: SolverOptions = DEFAULT_OPTIONS,
) -> frozenset[Space]:
    """Candidates of one column by the constraint formulation (a fresh model each call)."""
    return ConstraintModel(island, options).candidates(clues, removed)
