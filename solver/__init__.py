"""Tobago's clue deduction: clues, candidates, legal plays, explanations, hints.

Everything a caller needs is re-exported here; see ``solver.engine`` for the engine interface and
``solver.clues`` for the clue notation. ``solver`` never imports Flask.
"""

from solver.clues import Clue, all_clues, describe_clue, format_clue, parse_clue
from solver.deck import DECK
from solver.engine import (
    DEFAULT_OPTIONS,
    ColumnExplanation,
    Hint,
    MapAnalysis,
    MapColumn,
    SolverOptions,
    Step,
    base_mask,
    clue_mask,
    column_mask,
    compile_island,
    evaluate,
    explain_column,
    hints,
    is_legal_play,
    legal_plays,
)

__all__ = [
    "DECK",
    "DEFAULT_OPTIONS",
    "Clue",
    "ColumnExplanation",
    "Hint",
    "MapAnalysis",
    "MapColumn",
    "SolverOptions",
    "Step",
    "all_clues",
    "base_mask",
    "clue_mask",
    "column_mask",
    "compile_island",
    "describe_clue",
    "evaluate",
    "explain_column",
    "format_clue",
    "hints",
    "is_legal_play",
    "legal_plays",
    "parse_clue",
]
