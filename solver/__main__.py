"""``python -m solver <command>``: the solver's command line.

Subcommands come from the ``solver/*_cli.py`` modules and the ``cli`` module of each subpackage
(``solver/*/cli.py``): each defines ``add_subcommand(subparsers)``, which adds a parser and sets
its ``func`` default to a handler ``func(args) -> int`` (the exit status). Adding a command is
adding such a module; nothing here changes. Today: ``solve``
(``solver/solve_cli.py``) and ``puzzles`` (``solver/puzzles/cli.py``).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every discovered subcommand."""
    parser = argparse.ArgumentParser(prog="python -m solver", description=__doc__.split("\n")[0])
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    package_dir = Path(__file__).parent
    names = []
    for info in pkgutil.iter_modules([str(package_dir)]):
        if info.name.endswith("_cli"):
            names.append(f"solver.{info.name}")
        elif info.ispkg and (package_dir / info.name / "cli.py").exists():
            names.append(f"solver.{info.name}.cli")
    for name in sorted(names):
        importlib.import_module(name).add_subcommand(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
