"""Command line: ``python -m hexmap render classic-3 > island.svg``.

``render NAME`` draws a built-in island (``classic-1`` … ``classic-6``) or a generated one
(``generated:42`` or ``generated-42``); ``--coords`` writes coordinates in the hexes and
``--landmarks-seed N`` places the landmarks from another seed. ``list`` prints the built-in names.
"""

from __future__ import annotations

import argparse
import sys

from errors import ProjectError
from hexmap.catalog import builtin_names, island_by_name
from hexmap.seeds import parse_seed
from hexmap.svg import render_svg


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hexmap", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    render = sub.add_parser("render", help="write an island as SVG to standard output")
    render.add_argument("name", help="classic-1 … classic-6, or generated:SEED")
    render.add_argument("--coords", action="store_true", help="write q,r in every hex")
    render.add_argument("--landmarks-seed", metavar="N", help="place landmarks from seed N")
    render.add_argument("--size", type=float, default=24.0, help="hex radius in pixels")
    sub.add_parser("list", help="print the built-in island names")
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            print("\n".join(builtin_names()))
            return 0
        seed = None
        if args.landmarks_seed is not None:
            seed = parse_seed(args.landmarks_seed, "--landmarks-seed")
        island = island_by_name(args.name, seed)
        sys.stdout.write(render_svg(island, size=args.size, show_coords=args.coords) + "\n")
    except ProjectError as e:
        print(
            f"error: {e.field}: {e.message}" if e.field else f"error: {e.message}", file=sys.stderr
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
