"""``python -m solver puzzles``: write a printable sheet of puzzles, or list puzzle codes.

Registered by the solver CLI with ``add_subcommand(subparsers)``; also runnable on its
own as ``python -m solver.puzzles.cli``. Examples::

    python -m solver puzzles --count 20 --difficulty hard --out sheet.html
    python -m solver puzzles --count 5 --difficulty easy            # codes and grades
    python -m solver puzzles --count 5 --minimal --answers          # with answers (teachers)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import progress
from errors import ProjectError
from i18n import translate
from solver.puzzles.clues import DIFFICULTIES
from solver.puzzles.codes import puzzle_code
from solver.puzzles.sheet import MAX_SHEET, render_sheet, sheet_puzzles
from solver.puzzles.text import LANGS

#: The most puzzles a list of codes asks for (a sheet holds ``MAX_SHEET``).
MAX_LIST = 10_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--count",
        type=int,
        default=10,
        help=f"number of puzzles (a sheet: 1-{MAX_SHEET}; a list of codes: 1-{MAX_LIST})",
    )
    parser.add_argument("--difficulty", choices=DIFFICULTIES, default="medium")
    parser.add_argument("--seed", type=int, default=1, help="first puzzle seed (then +1, +2, …)")
    parser.add_argument("--lang", choices=LANGS, default="en", help="language of the sheet")
    parser.add_argument("--minimal", action="store_true", help="proven-minimal puzzles")
    parser.add_argument("--out", help="write the printable HTML sheet here ('-' for stdout)")
    parser.add_argument("--answers", action="store_true", help="list answers with the codes")
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar (it shows on a terminal's stderr when a run takes over a second)",
    )


def add_subcommand(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``puzzles`` subcommand to an ``argparse`` subparsers object; returns its parser.

    The handler is stored as the parser default ``func`` (call ``args.func(args)``).
    """
    parser = subparsers.add_parser(
        "puzzles",
        help="teaching puzzles: a printable sheet or a list of codes",
        description=__doc__.split("\n\n")[0],
    )
    add_arguments(parser)
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Do what the parsed arguments ask; 0 on success, 2 on bad input (message on stderr)."""
    try:
        step = progress.bar(args.count, "puzzles", quiet=args.quiet)
        limit = MAX_SHEET if args.out else MAX_LIST
        puzzles = sheet_puzzles(
            args.count, args.difficulty, args.seed, args.minimal, step, limit=limit
        )
        step.close()
    except ProjectError as e:
        print(f"error: {e.field}: {e.message}", file=sys.stderr)
        return 2
    if args.out:
        html = render_sheet(puzzles, lang=args.lang, difficulty=args.difficulty)
        if args.out == "-":
            sys.stdout.write(html)
        else:
            Path(args.out).write_text(html, encoding="utf-8")
            print(f"wrote {len(puzzles)} {args.difficulty} puzzles to {args.out}", file=sys.stderr)
        return 0
    for i, p in enumerate(puzzles):
        line = (
            f"{args.seed + i}\t{puzzle_code(p)}\t{p.difficulty}\t"
            f"{translate(args.lang, 'cli.n_points', count=p.grade.points)}\t"
            f"{translate(args.lang, 'cli.n_clues', count=len(p.clue_ids))}"
        )
        if args.answers:
            line += f"\t({p.answer.q}, {p.answer.r})"
        print(line)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.puzzles.cli", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
