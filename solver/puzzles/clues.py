"""The clue universe of teaching puzzles, clue costs and the clue mix of each difficulty.

**Puzzles use every clue kind of the rules (§2), not only the 52 deck cards.** The universe
(``solver/data/puzzle_clues.json``, 88 clues in a fixed order that puzzle codes index) is:

- ``in T``, ``not in T``, ``in the largest T``, ``not in the largest T`` for the six terrains;
- ``within d of X`` and ``not within d of X`` for d = 1, 2 and X each terrain, the sea, and each
  landmark kind (palm, hut, statue);
- ``within d of the largest T`` and ``not within d of the largest T`` for d = 1, 2 and each terrain.

The deck's kinds are a subset (the deck has negated "within" clues for 7 targets only and no
negated "largest" or "within … of the largest"); the rule-only kinds appear in hard puzzles.

What a clue *means* is defined once, by ``solver.engine.clue_mask``; this module only decides
which clues a puzzle may use and how hard each one is to read.

**Reading cost** of a clue (used by grading, see ``solver.puzzles``):
``1 + [negated] + [largest] + [distance 2]`` — one unit to apply it at all, one more for each
thing a reader must keep in mind (turning the set around, finding the one largest region,
counting two rings instead of one).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from solver.clues import Clue, parse_clue

DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")

_DATA = Path(__file__).parents[1] / "data" / "puzzle_clues.json"


@cache
def universe() -> tuple[Clue, ...]:
    """Every clue a puzzle may use, in code order (index = position)."""
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    return tuple(
        parse_clue(c, field=f"puzzle_clues.json.clues[{i}]") for i, c in enumerate(data["clues"])
    )


def reading_cost(clue: Clue) -> int:
    """``1 + negated + largest + (distance == 2)``: the grading weight of one clue."""
    return 1 + int(clue.negated) + int(clue.largest) + int(clue.distance == 2)


def is_deck_kind(clue: Clue) -> bool:
    """True for kinds the deck has (any target): not "not in the largest", not "near the largest"."""
    if clue.largest:
        return clue.relation == "in" and not clue.negated
    return True


def allowed(clue: Clue, difficulty: str) -> bool:
    """Whether ``difficulty`` may use ``clue``.

    easy: positive deck kinds at distance 1 (in T, in the largest T, within 1 of X);
    medium: every deck kind (adds negations and distance 2), for every target;
    hard: the whole universe (adds "not in the largest T" and "within d of the largest T").
    """
    if difficulty == "easy":
        return is_deck_kind(clue) and not clue.negated and clue.distance != 2
    if difficulty == "medium":
        return is_deck_kind(clue)
    return True


def pick_weight(clue: Clue, difficulty: str) -> float:
    """Relative chance of drawing ``clue`` while building a puzzle of ``difficulty``.

    Easy and medium draw every allowed clue alike; hard draws them in proportion to the square
    of their reading cost, so negations, "largest" and distance 2 dominate.
    """
    if difficulty == "hard":
        cost = reading_cost(clue)
        return float(cost * cost)
    return 1.0


@cache
def pool(difficulty: str) -> tuple[int, ...]:
    """Universe indices allowed for ``difficulty``."""
    return tuple(i for i, c in enumerate(universe()) if allowed(c, difficulty))
