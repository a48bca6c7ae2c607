"""Teaching puzzles: an island, a few clues, exactly one answer (see ``generate`` for the rules).

- ``generate``: the puzzle value, generation (random irredundant and proven-minimal), the
  explanation order and the grade;
- ``clues``: the clue universe (every clue kind of the rules), reading costs, difficulty mixes;
- ``cover``: exact minimum set cover (branch and bound) behind minimal mode;
- ``source``: where a puzzle's island comes from (``IslandRef``: a built-in name or a seed);
- ``codes``: seeds, the daily puzzle, and the short puzzle codes;
- ``text``: the explanation in English and Traditional Chinese (from the message catalogues);
- ``sheet``: the printable class sheet (standalone HTML);
- ``cli``: ``python -m solver puzzles``.

The names most callers need are re-exported here.
"""

from solver.puzzles.generate import (
    Grade,
    MinimalProof,
    Puzzle,
    Step,
    check_difficulty,
    from_clues,
    make_minimal_puzzle,
    make_puzzle,
)

__all__ = [
    "Grade",
    "MinimalProof",
    "Puzzle",
    "Step",
    "check_difficulty",
    "from_clues",
    "make_minimal_puzzle",
    "make_puzzle",
]
