"""Teaching puzzles: an island, a few clues, exactly one space where the treasure can be.

A **puzzle** is an island with landmarks plus a list of clues (from the universe of
``solver.puzzles.clues``: every clue kind of the rules, not only deck cards) whose candidates
(rules §3, default rule options) are exactly one space, the answer. Every puzzle is
**irredundant**: dropping any one clue leaves more than one candidate.

**Generation** (``make_puzzle``), deterministic from a ``random.Random``: pick an answer (hard
puzzles prefer answers at least 3 from every landmark), draw the clues true at the answer in a
random order weighted by the difficulty (``puzzle_clues.pick_weight``), keep each drawn clue that
removes a candidate until one candidate is left, then drop every clue the others make
unnecessary (one pass suffices: dropping clues never makes a kept clue unnecessary). The result
is graded; a puzzle whose measured grade is not the requested difficulty is thrown away and
another drawn.

**Minimal mode** (``make_minimal_puzzle``): the fewest clues for that island and answer, proven by
exact minimum set cover (``solver.puzzles.cover``: branch and bound with iterative deepening over
bitmasks; see there). Among the minimum covers it finds, the one whose grade fits the difficulty
best is kept. A minimum cover is irredundant by construction.

**Explanation**: a reader applies the clues one at a time, always the clue that removes the most
remaining candidates next (ties: the earlier clue), and stops at the answer. Each step names the
clue and the spaces it removes.

**Grading** (``grade``), measured on the explanation:

- ``steps``: the number of explanation steps (clue applications that remove at least one
  candidate; in an irredundant puzzle every clue is one step);
- ``points = Σ reading cost`` over the steps' clues, where a clue's reading cost is
  ``1 + [negated] + [largest] + [distance 2]``, i.e. ``points = steps + negated + largest +
  distance2``;
- the grade is **easy** when ``points ≤ 4``, **medium** when ``5 ≤ points ≤ 7`` and **hard** when
  ``points ≥ 8``.

So more clues, and clues that are harder to read (negations, "largest", distance 2), make a
harder puzzle; the mix of a difficulty (``puzzle_clues.allowed`` / ``pick_weight``) only makes
the target grade likely, it never decides it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import cached_property

from errors import InvalidInput
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.clues import Clue
from solver.compiled import CACHE, compile_island, remember
from solver.puzzles.clues import DIFFICULTIES, pick_weight, pool, reading_cost, universe
from solver.puzzles.cover import minimum_cover
from solver.puzzles.source import IslandRef

#: Upper bounds of ``points`` for easy and medium; anything above is hard.
EASY_MAX_POINTS = 4
MEDIUM_MAX_POINTS = 7
#: Hard puzzles prefer answers at least this far from every landmark.
FAR_FROM_LANDMARKS = 3
#: Draws before generation gives up on a difficulty for one island.
MAX_ATTEMPTS = 400
#: The most clues a generated puzzle may have (more is tiring rather than instructive).
MAX_PUZZLE_CLUES = 6
#: Minimum covers compared per answer in minimal mode.
MINIMAL_ALTERNATIVES = 24
#: Answers tried in minimal mode before the closest grade is accepted.
MINIMAL_ANSWERS = 12

MINIMAL_METHOD = (
    "exact minimum set cover: branch and bound with iterative deepening over bitmasks "
    "(every smaller clue count refuted by exhaustive search or by the counting bound)"
)


def check_difficulty(value: str, field: str = "difficulty") -> str:
    """``value`` if it names a difficulty, else ``InvalidInput`` naming ``field``."""
    if value not in DIFFICULTIES:
        raise InvalidInput(
            f"unknown difficulty {value!r}; expected one of {', '.join(DIFFICULTIES)}", field
        )
    return value


def grade_of_points(points: int) -> str:
    """The grade for a points total (see the module docstring)."""
    if points <= EASY_MAX_POINTS:
        return "easy"
    if points <= MEDIUM_MAX_POINTS:
        return "medium"
    return "hard"


def points_range(level: str) -> tuple[int, int | None]:
    """The points a puzzle of grade ``level`` has: ``(least, most)``, most None for hard (no
    upper bound). The one grading: ``grade_of_points(p) == level`` exactly when ``p`` is in this
    range; the list, the daily puzzle and the puzzle page all show a puzzle's measured grade."""
    check_difficulty(level)
    if level == "easy":
        return (0, EASY_MAX_POINTS)
    if level == "medium":
        return (EASY_MAX_POINTS + 1, MEDIUM_MAX_POINTS)
    return (MEDIUM_MAX_POINTS + 1, None)


# --- per-island tables --------------------------------------------------------------------


def universe_masks(island: Island) -> tuple[int, list[int]]:
    """``(base, masks)``: the base mask and each universe clue's mask ANDed with it.

    Taken from the compiled island (``solver.compiled``: the one definition of what a clue
    means, default rule options) and kept with it, once per island and landmark placement.
    """
    found = CACHE.get(("puzzle-universe", island.key))
    if found is None:
        t = compile_island(island)
        found = remember(
            ("puzzle-universe", island.key),
            lambda: (t.base, [t.masks[c.code] & t.base for c in universe()]),
            lambda v: 200 + len(v[1]) * (len(island) // 8 + 40),
        )
    return found


def _and(base: int, masks: list[int], clue_ids: Sequence[int]) -> int:
    m = base
    for i in clue_ids:
        m &= masks[i]
    return m


def candidates(island: Island, clue_ids: Sequence[int]) -> int:
    """The candidates mask left by universe clues ``clue_ids`` (default rule options)."""
    base, masks = universe_masks(island)
    return _and(base, masks, clue_ids)


def is_irredundant(island: Island, clue_ids: Sequence[int]) -> bool:
    """True when dropping any one clue leaves more than one candidate."""
    base, masks = universe_masks(island)
    for k in range(len(clue_ids)):
        if _and(base, masks, [c for j, c in enumerate(clue_ids) if j != k]).bit_count() <= 1:
            return False
    return True


def landmark_distance(island: Island) -> dict[Hex, int]:
    """Hex distance from each island space to the nearest landmark (absent: no landmarks)."""
    return island.distance_field(lm.space for lm in island.landmarks)


def far_from_landmarks(island: Island) -> int:
    """The mask of the spaces at least ``FAR_FROM_LANDMARKS`` from every landmark (all spaces
    when there is none): no landmark within ``FAR_FROM_LANDMARKS - 1`` of them."""
    t = compile_island(island)
    near = 0
    for lm in island.landmarks:
        near |= island.within_masks(FAR_FROM_LANDMARKS - 1)[island.bit[lm.space]]
    return t.geometry.full & ~near


# --- explanation and grade ----------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One explanation step: clue number ``position`` (0-based in the puzzle) removes spaces."""

    position: int
    clue_id: int
    removed: tuple[Hex, ...]
    remaining: int

    @property
    def clue(self) -> Clue:
        return universe()[self.clue_id]


@dataclass(frozen=True)
class Grade:
    """The measured grade of a puzzle (see the module docstring for the definition)."""

    steps: int
    negated: int
    largest: int
    distance2: int
    points: int
    level: str

    def to_json(self) -> dict:
        """Every field by its name (all are numbers or the level's name)."""
        return asdict(self)


def explain(island: Island, clue_ids: Sequence[int]) -> list[Step]:
    """The reader's order: repeatedly the clue removing the most candidates (ties: earlier)."""
    base, masks = universe_masks(island)
    cand = base
    left = list(range(len(clue_ids)))
    steps: list[Step] = []
    while left:
        best, gone = -1, 0
        for pos in left:
            g = (cand & ~masks[clue_ids[pos]]).bit_count()
            if g > gone:
                best, gone = pos, g
        if best < 0:
            break  # the remaining clues remove nothing
        left.remove(best)
        removed = cand & ~masks[clue_ids[best]]
        cand &= masks[clue_ids[best]]
        steps.append(Step(best, clue_ids[best], tuple(island.spaces_of(removed)), cand.bit_count()))
    return steps


def grade(steps: Sequence[Step]) -> Grade:
    """Grade from explanation steps: ``points = Σ reading_cost``; thresholds 4 and 7."""
    clues = [s.clue for s in steps]
    neg = sum(c.negated for c in clues)
    big = sum(c.largest for c in clues)
    far = sum(c.distance == 2 for c in clues)
    points = sum(reading_cost(c) for c in clues)
    return Grade(len(steps), neg, big, far, points, grade_of_points(points))


# --- the puzzle value ---------------------------------------------------------------------


@dataclass(frozen=True)
class MinimalProof:
    """Evidence that a puzzle has the fewest clues for its island, answer and clue pool."""

    clues: int
    pool: str
    initial_lower_bound: int
    refuted: tuple[int, ...]
    nodes: int
    method: str = MINIMAL_METHOD

    def to_json(self) -> dict:
        return {
            "method": self.method,
            "clues": self.clues,
            "pool": self.pool,
            "initial_lower_bound": self.initial_lower_bound,
            "refuted_sizes": list(self.refuted),
            "nodes": self.nodes,
        }


@dataclass(frozen=True)
class Puzzle:
    """An island and clue ids (universe indices, in the order shown) with exactly one answer."""

    island: Island = field(compare=False, repr=False)
    clue_ids: tuple[int, ...]
    answer: Hex
    #: Where the island comes from (rebuilds it): see ``solver.puzzles.source.IslandRef``.
    source: IslandRef | None = None
    proof: MinimalProof | None = None

    @property
    def clues(self) -> list[Clue]:
        u = universe()
        return [u[i] for i in self.clue_ids]

    @cached_property
    def steps(self) -> list[Step]:
        return explain(self.island, self.clue_ids)

    @cached_property
    def grade(self) -> Grade:
        return grade(self.steps)

    @property
    def difficulty(self) -> str:
        """The measured grade (never the requested difficulty)."""
        return self.grade.level

    @property
    def minimal(self) -> bool:
        return self.proof is not None

    def excluded_by(self, space: tuple[int, int]) -> Step | None:
        """The explanation step that removes ``space`` (None for the answer)."""
        h = Hex(*space)
        for s in self.steps:
            if h in s.removed:
                return s
        return None


def from_clues(island: Island, clue_ids: Sequence[int], source: IslandRef | None = None) -> Puzzle:
    """A puzzle from given clues; ``InvalidInput`` unless they leave exactly one candidate."""
    cand = candidates(island, clue_ids)
    if cand.bit_count() != 1:
        raise InvalidInput(
            f"these clues leave {cand.bit_count()} candidates, a puzzle needs exactly one", "clues"
        )
    return Puzzle(island, tuple(clue_ids), island.spaces_of(cand)[0], source)


# --- generation ---------------------------------------------------------------------------


def _answer_choices(island: Island, base: int, difficulty: str) -> list[Hex]:
    """Answers a difficulty draws from (hard: far from landmarks when any are), kept with the
    compiled island."""

    def build() -> tuple[list[Hex], list[Hex]]:
        spaces = island.spaces_of(base)
        far = island.spaces_of(base & far_from_landmarks(island))
        return spaces, far or spaces

    spaces, far = remember(
        ("puzzle-answers", island.key, base),
        build,
        lambda v: 200 + 8 * (len(v[0]) + len(v[1])),
    )
    return far if difficulty == "hard" else spaces


def _weighted_order(rng: random.Random, ids: Sequence[int], difficulty: str) -> list[int]:
    """A random order where heavier clues tend to come first (Efraimidis–Spirakis keys)."""
    u = universe()
    keyed = [(rng.random() ** (1.0 / pick_weight(u[i], difficulty)), i) for i in ids]
    keyed.sort(reverse=True)
    return [i for _, i in keyed]


def draw_irredundant(
    island: Island, rng: random.Random, difficulty: str, answer: Hex | None = None
) -> tuple[int, ...] | None:
    """One irredundant clue list for a random (or the given) answer, ungraded; None if stuck."""
    base, masks = universe_masks(island)
    if answer is None:
        answer = rng.choice(_answer_choices(island, base, difficulty))
    a = 1 << island.bit[answer]
    useful = [i for i in pool(difficulty) if masks[i] & a and masks[i] != base]
    cand = base
    chosen: list[int] = []
    for i in _weighted_order(rng, useful, difficulty):
        new = cand & masks[i]
        if new != cand:
            chosen.append(i)
            cand = new
            if cand == a:
                break
    if cand != a:
        return None  # this answer cannot be singled out with this difficulty's clues
    rng.shuffle(chosen)
    kept = list(chosen)
    for i in chosen:
        rest = [j for j in kept if j != i]
        if _and(base, masks, rest) == a:
            kept = rest
    return tuple(kept)


def make_puzzle(
    island: Island, rng: random.Random, difficulty: str, source: IslandRef | None = None
) -> Puzzle:
    """An irredundant puzzle whose measured grade is ``difficulty`` (``InvalidInput`` if none).

    Draws are repeated (up to ``MAX_ATTEMPTS``) until one has at most ``MAX_PUZZLE_CLUES`` clues
    and its grade matches.
    """
    check_difficulty(difficulty)
    for _ in range(MAX_ATTEMPTS):
        ids = draw_irredundant(island, rng, difficulty)
        if ids is None or len(ids) > MAX_PUZZLE_CLUES:
            continue
        p = from_clues(island, ids, source)
        if p.difficulty == difficulty:
            return p
    raise InvalidInput(
        f"no {difficulty} puzzle found on this island in {MAX_ATTEMPTS} draws", "difficulty"
    )


def _preference(difficulty: str, clue_id: int) -> tuple[int, int]:
    """Sort key for minimal mode: easy prefers cheap clues, hard costly ones."""
    cost = reading_cost(universe()[clue_id])
    return (cost if difficulty == "easy" else -cost, clue_id)


def minimal_clues(
    island: Island, answer: Hex, difficulty: str = "hard"
) -> tuple[list[tuple[int, ...]], MinimalProof] | None:
    """All minimum clue lists found (up to ``MINIMAL_ALTERNATIVES``) and the minimality proof.

    The pool is the difficulty's clues (hard: the whole universe). None when the answer cannot
    be singled out at all with that pool.
    """
    base, masks = universe_masks(island)
    a = 1 << island.bit[answer]
    if not base & a:
        return None
    ids = sorted(
        (i for i in pool(difficulty) if masks[i] & a), key=lambda i: _preference(difficulty, i)
    )
    universe_bits = base & ~a
    result = minimum_cover(
        universe_bits, [universe_bits & ~masks[i] for i in ids], MINIMAL_ALTERNATIVES
    )
    if result is None:
        return None
    covers = [tuple(ids[k] for k in cover) for cover in result.all_minimum]
    proof = MinimalProof(
        clues=result.size,
        pool=difficulty,
        initial_lower_bound=result.initial_lower_bound,
        refuted=result.refuted,
        nodes=result.nodes,
    )
    return covers, proof


def _fit(difficulty: str, points: int) -> int:
    """How far ``points`` is from the difficulty's range (0 = inside)."""
    lo, hi = {"easy": (0, EASY_MAX_POINTS), "medium": (EASY_MAX_POINTS + 1, MEDIUM_MAX_POINTS)}.get(
        difficulty, (MEDIUM_MAX_POINTS + 1, 10**6)
    )
    return max(lo - points, points - hi, 0)


def make_minimal_puzzle(
    island: Island,
    rng: random.Random,
    difficulty: str,
    source: IslandRef | None = None,
    answer: Hex | None = None,
) -> Puzzle:
    """A proven-minimal puzzle, its grade as close to ``difficulty`` as the answers allow.

    Tries up to ``MINIMAL_ANSWERS`` random answers that can be singled out (or only ``answer``);
    for each, the minimum covers found are graded and the best fit kept. Stops at the first
    exact fit.
    """
    check_difficulty(difficulty)
    base, _ = universe_masks(island)
    choices = [answer] if answer is not None else list(_answer_choices(island, base, difficulty))
    rng.shuffle(choices)
    best: tuple[int, Puzzle] | None = None
    tried = 0
    for a in choices:
        if tried == MINIMAL_ANSWERS:
            break
        found = minimal_clues(island, a, difficulty)
        if found is None:
            continue  # this answer cannot be singled out with the difficulty's clues
        tried += 1
        covers, proof = found
        for cover in covers:
            order = list(cover)
            rng.shuffle(order)
            p = Puzzle(island, tuple(order), a, source, proof)
            miss = _fit(difficulty, p.grade.points)
            if best is None or miss < best[0]:
                best = (miss, p)
            if miss == 0:
                return p
    if best is None:
        raise InvalidInput(f"no answer on this island can be singled out ({difficulty})", "seed")
    return best[1]
