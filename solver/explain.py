"""Explanations of a treasure map's column: why each non-candidate space is out, step by step.

For every island space that is not a candidate, the explanation names the first thing that
excludes it, in this order of precedence:

1. ``"landmark"`` — with ``treasure_on_landmarks`` off, a landmark's space is never a candidate;
2. the index ``k`` of the first clue in the column whose mask does not hold the space;
3. ``"removed"`` — no clue excludes it: its marker was removed with an amulet.

The column is also told as steps: the spaces a treasure may be on, then "clue k leaves n spaces"
after each clue, then the amulet removals, if any.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from hexmap.hexes import Hex
from hexmap.island import Island
from solver.clues import Clue, describe_clue
from solver.masks import IslandMasks, compile_island, play_refusal, removed_mask
from solver.options import DEFAULT_OPTIONS, SolverOptions

#: Why a space is out: a clue index, ``"removed"`` or ``"landmark"``.
Reason = int | str


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a column: after ``clue`` (index ``index``) ``remaining`` spaces are left.

    ``index`` is ``None`` for the start (every space a treasure may be on) and ``"removed"`` for
    the amulet removals.
    """

    index: int | str | None
    clue: Clue | None
    remaining: int
    mask: int

    def text(self, lang: str = "en") -> str:
        """The step as a sentence in English (``en``) or Traditional Chinese (``zh``)."""
        n = self.remaining
        if lang == "en":
            spaces = "space" if n == 1 else "spaces"
            if self.index is None:
                return f"{n} {spaces} may hold the treasure"
            if self.index == "removed":
                return f"amulet removals leave {n} {spaces}"
            assert self.clue is not None
            return f"clue {self.index} ({describe_clue(self.clue)}) leaves {n} {spaces}"
        if self.index is None:
            return f"寶藏可能在 {n} 格中"
        if self.index == "removed":
            return f"用護身符移除標記後剩下 {n} 格"
        assert self.clue is not None
        return f"線索 {self.index}（{describe_clue(self.clue, 'zh')}）後剩下 {n} 格"

    def to_json(self) -> dict:
        return {
            "index": self.index,
            "clue": self.clue.notation if self.clue is not None else None,
            "remaining": self.remaining,
            "text": self.text(),
        }


@dataclass(frozen=True, slots=True)
class ColumnExplanation:
    """Candidates of a column, the reason for every excluded space, and the steps."""

    candidates: int
    #: ``(space, reason)`` for every island space that is not a candidate, sorted by ``(q, r)``.
    excluded: tuple[tuple[Hex, Reason], ...]
    steps: tuple[Step, ...]

    @property
    def count(self) -> int:
        return self.candidates.bit_count()

    def reason_of(self, space: tuple[int, int]) -> Reason | None:
        """Why ``space`` is out, or None if it is a candidate (or not an island space)."""
        for h, why in self.excluded:
            if h == space:
                return why
        return None

    def to_json(self) -> dict:
        return {
            "count": self.count,
            "excluded": [{"space": [h.q, h.r], "by": why} for h, why in self.excluded],
            "steps": [s.to_json() for s in self.steps],
        }


def walk_column(
    t: IslandMasks, clues: Sequence[Clue], removed: int = 0
) -> Iterator[tuple[Reason, int, int]]:
    """The column one exclusion at a time: ``(reason, newly excluded mask, candidates after)``.

    Yields ``"landmark"`` first (the spaces outside the base, possibly none), then one item per
    clue (reason = its index), then ``"removed"`` if ``removed`` holds an island space.
    """
    full = t.island.full_mask
    alive = t.base
    yield "landmark", full & ~alive, alive
    for k, clue in enumerate(clues):
        after = alive & t.mask(clue)
        yield k, alive & ~after, after
        alive = after
    if removed & full:
        after = alive & ~removed
        yield "removed", alive & ~after, after


def own_target(t: IslandMasks, clues: Sequence[Clue], by: Reason, bit: int) -> bool:
    """Whether space ``bit`` was ruled out by a positive 'within N of X' clue because it is one
    of X's own spaces (0 away), which the rules do not count (unless the island's masks were
    compiled with near_includes_target)."""
    if not isinstance(by, int) or t.options.near_includes_target:
        return False
    clue = clues[by]
    if clue.relation != "near" or clue.negated:
        return False
    return bool(t.target_mask(clue) >> bit & 1)


def excluded_json(t: IslandMasks, clues: Sequence[Clue], reasons: dict[int, Reason]) -> list[dict]:
    """The helper's ``excluded`` list: every ruled-out space, by what, and whether it is the
    near clue's own target (``own``), in index order. One form for every helper answer."""
    index = t.island.index
    return [
        {
            "space": [index[i].q, index[i].r],
            "by": reasons[i],
            "own": own_target(t, clues, reasons[i], i),
        }
        for i in sorted(reasons)
    ]


def play_refusals(t: IslandMasks, columns: Sequence, hand: Sequence[Clue]) -> list[dict]:
    """Every (hand card, map) that is no legal play, with ``solver.masks.play_refusal``'s reason:
    what a disabled clue button says."""
    out = []
    masks = [t.mask(c) for c in hand]
    for col in columns:
        alive = t.column(col.clues, col.removed)
        for hi, mask in enumerate(masks):
            refusal = play_refusal(alive, mask)
            if refusal is not None:
                out.append({"hand_index": hi, "map": col.id, "reason": refusal})
    return out


def reasons_by_index(
    t: IslandMasks, clues: Sequence[Clue], removed: int = 0
) -> tuple[int, dict[int, Reason]]:
    """Candidates, and the reason for every excluded space keyed by its index (the fast form)."""
    reasons: dict[int, Reason] = {}
    alive = t.base
    for why, gone, after in walk_column(t, clues, removed):
        alive = after
        while gone:
            low = gone & -gone
            reasons[low.bit_length() - 1] = why
            gone ^= low
    return alive, reasons


def explain_column(
    island: Island,
    clues: Sequence[Clue],
    removed: int = 0,
    options: SolverOptions = DEFAULT_OPTIONS,
) -> ColumnExplanation:
    """Explain a column (see the module doc). ``removed`` is a mask or an iterable of spaces."""
    t = compile_island(island, options)
    removed = removed_mask(island, removed)
    alive, reasons = reasons_by_index(t, clues, removed)
    steps = [Step(None, None, t.base.bit_count(), t.base)]
    for why, _gone, after in walk_column(t, clues, removed):
        if why != "landmark":
            clue = clues[why] if isinstance(why, int) else None
            steps.append(Step(why, clue, after.bit_count(), after))
    index = island.index
    excluded = tuple((index[i], reasons[i]) for i in sorted(reasons))
    return ColumnExplanation(alive, excluded, tuple(steps))


def excluded_by(
    island: Island,
    clues: Sequence[Clue],
    removed: int = 0,
    options: SolverOptions = DEFAULT_OPTIONS,
) -> list[tuple[Hex, Reason]]:
    """Just the ``(space, reason)`` pairs of ``explain_column``, sorted by ``(q, r)``."""
    return list(explain_column(island, clues, removed, options).excluded)
