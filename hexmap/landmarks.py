"""Landmark placement as a constraint problem, solved with python-constraint (rules §1).

One variable per landmark (3 palms, 4 huts, 3 statues). Every domain holds the island's dry-land
spaces (as space indices) in an order drawn from the seed, so the backtracking solver's first
solution is a seeded random placement. The constraints:

- one landmark per space (``AllDifferentConstraint`` over all ten variables);
- landmarks of one kind at least 4 apart (``FarApartConstraint``, one per kind, which also prunes
  the domains of the kind's unassigned variables by forward checking);
- statues not next to the sea (``InSetConstraint`` with the inland dry spaces).

Statue facings are then drawn from the same seeded generator. The same island and seed give the
same placement on any machine: the generator is a private ``random.Random`` seeded with a string,
and every collection is iterated in sorted order.

When no placement exists, ``InvalidInput`` says which kind does not fit, or that the kinds do not
fit together.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from constraint import (
    AllDifferentConstraint,
    BacktrackingSolver,
    Constraint,
    Domain,
    InSetConstraint,
    Problem,
)

from errors import InvalidInput
from hexmap.island import Island, Landmark
from hexmap.seeds import check_seed
from hexmap.terrain import DRY_LAND, LANDMARK_COUNTS, SAME_KIND_MIN_DISTANCE

#: Constraint checks the solver may make before giving up on an island (a safety net: islands
#: that fit at all are solved in a few hundred checks).
SEARCH_BUDGET = 200_000


class SearchBudgetExceeded(Exception):
    """Raised from inside the solver when ``SEARCH_BUDGET`` checks have been spent."""


#: What python-constraint passes a constraint: its variables (landmark names), their domains
#: (space indices) and the values assigned so far.
Names = Sequence[str]
Domains = dict[str, Domain]
Assigned = dict[str, int]


class FarApartConstraint(Constraint):
    """The given variables take spaces pairwise at least ``SAME_KIND_MIN_DISTANCE`` apart.

    Values are space indices; ``near[i]`` is the bitmask of the spaces closer than the minimum
    distance to space ``i`` (``Island.within_masks``). With forward checking, every value too close
    to an assigned variable is hidden from the domains of the unassigned ones, so a dead end shows
    as an empty domain at once. ``budget`` (a one-item list shared by the problem's constraints)
    caps the number of checks.
    """

    def __init__(self, near: Sequence[int], budget: list[int]) -> None:
        self._near = near
        self._budget = budget

    def __call__(
        self, variables: Names, domains: Domains, assignments: Assigned, forwardcheck: bool = False
    ) -> bool:
        self._budget[0] -= 1
        if self._budget[0] < 0:
            raise SearchBudgetExceeded
        near = self._near
        blocked = 0
        for v in variables:
            value = assignments.get(v)
            if value is None:
                continue
            if (blocked >> value) & 1:
                return False
            blocked |= near[value]
        if forwardcheck and blocked:
            for v in variables:
                if v in assignments:
                    continue
                domain = domains[v]
                for value in domain[:]:
                    if (blocked >> value) & 1:
                        domain.hideValue(value)
                if not domain:
                    return False
        return True


class _IncreasingConstraint(Constraint):
    """Symmetry breaking for the one-kind feasibility check: values strictly increase."""

    def __call__(
        self, variables: Names, domains: Domains, assignments: Assigned, forwardcheck: bool = False
    ) -> bool:
        values = [assignments.get(v) for v in variables]
        last = -1
        for value in values:
            if value is None:
                continue
            if value <= last:
                return False
            last = value
        return True


def _variables() -> list[tuple[str, str]]:
    """``[("palm", "palm1"), ...]`` in a fixed order: palms, huts, statues."""
    return [(kind, f"{kind}{i + 1}") for kind, n in LANDMARK_COUNTS.items() for i in range(n)]


def _near_table(island: Island) -> tuple[int, ...]:
    """For each space index, the mask of island spaces closer than the minimum distance."""
    return island.within_masks(SAME_KIND_MIN_DISTANCE - 1)


def allowed_spaces(island: Island) -> dict[str, list[int]]:
    """Space indices each kind may stand on: dry land; statues also away from the sea."""
    dry = [i for i, h in enumerate(island.index) if island.terrain[h] in DRY_LAND]
    coast = island.coast
    inland = [i for i in dry if island.index[i] not in coast]
    return {kind: inland if kind == "statue" else dry for kind in LANDMARK_COUNTS}


def place_landmarks(island: Island, seed: int) -> Island:
    """A copy of ``island`` with 3 palms, 4 huts and 3 statues placed from ``seed`` (rules §1).

    Raises ``InvalidInput`` (field ``landmarks``) when the island has no legal placement.
    """
    check_seed(seed, "landmarks_seed")
    rng = random.Random(f"tobago-landmarks:{seed}")
    near = _near_table(island)
    allowed = allowed_spaces(island)
    dry = allowed["palm"]
    budget = [SEARCH_BUDGET]
    problem = Problem(BacktrackingSolver(forwardcheck=True))
    variables = _variables()
    order = list(dry)
    rng.shuffle(order)  # one seeded order shared by every variable's domain
    for _kind, var in variables:
        problem.addVariable(var, order)
    problem.addConstraint(AllDifferentConstraint(), [v for _, v in variables])
    for kind in LANDMARK_COUNTS:
        same = [v for k, v in variables if k == kind]
        problem.addConstraint(FarApartConstraint(near, budget), same)
    inland = set(allowed["statue"])
    problem.addConstraint(InSetConstraint(inland), [v for k, v in variables if k == "statue"])
    try:
        solution = problem.getSolution() if dry else None
    except SearchBudgetExceeded:
        solution = None
    if not solution:
        raise _no_placement(island, near, allowed)
    landmarks = []
    for kind in LANDMARK_COUNTS:
        spaces = sorted(island.index[solution[v]] for k, v in variables if k == kind)
        for h in spaces:
            facing = rng.randrange(6) if kind == "statue" else None
            landmarks.append(Landmark(kind, h, facing))
    return island.with_landmarks(landmarks)


def kind_fits(island: Island, kind: str, near: Sequence[int] | None = None) -> bool:
    """Whether ``kind``'s landmarks alone fit on ``island`` (allowed spaces, far enough apart)."""
    near = near if near is not None else _near_table(island)
    spaces = allowed_spaces(island)[kind]
    n = LANDMARK_COUNTS[kind]
    if len(spaces) < n:
        return False
    problem = Problem(BacktrackingSolver(forwardcheck=True))
    names = [f"{kind}{i + 1}" for i in range(n)]
    problem.addVariables(names, spaces)
    problem.addConstraint(FarApartConstraint(near, [SEARCH_BUDGET]), names)
    problem.addConstraint(_IncreasingConstraint(), names)
    try:
        return problem.getSolution() is not None
    except SearchBudgetExceeded:
        return False


def _no_placement(
    island: Island, near: Sequence[int], allowed: dict[str, list[int]]
) -> InvalidInput:
    """The clearest error for an island without a placement: which kind does not fit."""
    for kind, n in LANDMARK_COUNTS.items():
        if not kind_fits(island, kind, near):
            where = "dry-land spaces away from the sea" if kind == "statue" else "dry-land spaces"
            return InvalidInput(
                f"no room for {n} {kind}s at least {SAME_KIND_MIN_DISTANCE} apart on the "
                f"island's {len(allowed[kind])} {where}",
                "landmarks",
            )
    return InvalidInput(
        "no placement of all 10 landmarks exists: each kind fits alone, but not all together "
        "on separate spaces",
        "landmarks",
    )
