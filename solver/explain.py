"""Explanations of a treasure map's column: why each non-candidate space is out, step by step.

For every island space that is not a candidate, the explanation names the first thing that
excludes it, in this order of precedence (the walk of ``solver.answer``, which every solve
answer shares):

1. ``"landmark"`` — with ``treasure_on_landmarks`` off, a landmark's space is never a candidate;
2. the index ``k`` of the first clue in the column whose mask does not hold the space;
3. ``"removed"`` — no clue excludes it: its marker was removed with an amulet.

The column is also told as steps: the spaces a treasure may be on, then "clue k leaves n spaces"
after each clue, then the amulet removals, if any. The sentences are in the message catalogues
(``i18n/<lang>/solver.json``, keys ``explain.*``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import i18n
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.answer import Reason, excluded_pairs, walk_column
from solver.clues import Clue, check_lang, describe_clue
from solver.compiled import compile_island
from solver.masks import removed_mask
from solver.options import DEFAULT_OPTIONS, SolverOptions

__all__ = ["ColumnExplanation", "Reason", "Step", "excluded_by", "explain_column"]


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
        lang = check_lang(lang)
        n = self.remaining
        spaces = i18n.translate(lang, "explain.space" if n == 1 else "explain.spaces")
        if self.index is None:
            return i18n.translate(lang, "explain.start", n=n, spaces=spaces)
        if self.index == "removed" or self.clue is None:
            return i18n.translate(lang, "explain.removed", n=n, spaces=spaces)
        return i18n.translate(
            lang,
            "explain.clue",
            k=self.index,
            clue=describe_clue(self.clue, lang),
            n=n,
            spaces=spaces,
        )

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
    #: ``(space, reason)`` for every island space that is not a candidate, in the solve
    #: answer's order: as the column reads (landmark, clue 0, 1, …, removed), by ``(q, r)``
    #: within a reason.
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


def explain_column(
    island: Island,
    clues: Sequence[Clue],
    removed: int = 0,
    options: SolverOptions = DEFAULT_OPTIONS,
) -> ColumnExplanation:
    """Explain a column (see the module doc). ``removed`` is a mask or an iterable of spaces."""
    t = compile_island(island, options)
    removed = removed_mask(island, removed)
    alive, pairs = excluded_pairs(t, clues, removed)
    steps = [Step(None, None, t.base.bit_count(), t.base)]
    for why, _gone, after in walk_column(t, clues, removed):
        if why != "landmark":
            clue = clues[why] if isinstance(why, int) else None
            steps.append(Step(why, clue, after.bit_count(), after))
    index = island.index
    excluded = tuple((index[i], why) for i, why in pairs)
    return ColumnExplanation(alive, excluded, tuple(steps))


def excluded_by(
    island: Island,
    clues: Sequence[Clue],
    removed: int = 0,
    options: SolverOptions = DEFAULT_OPTIONS,
) -> list[tuple[Hex, Reason]]:
    """Just the ``(space, reason)`` pairs of ``explain_column``, in its order."""
    return list(explain_column(island, clues, removed, options).excluded)
