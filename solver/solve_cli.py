"""``python -m solver solve FILE.json``: candidates, explanations and legal plays, readably.

``FILE.json`` holds the request of ``POST /api/tobago/solve`` (``-`` reads standard input);
``--json`` prints the API's response instead of text. Exit status 0, or 2 with ``error: FIELD:
MESSAGE`` on standard error for unreadable or invalid input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from errors import ProjectError
from solver.clues import describe_clue
from solver.explain import Reason, explain_column
from solver.masks import clue_mask
from solver.solve import SolveRequest, parse_solve_request, solve


def add_solve_subcommand(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``solve`` to an ``argparse`` subparsers object (handler in ``func``)."""
    parser = subparsers.add_parser(
        "solve",
        help="candidates, explanations and legal plays of a solve request (JSON file)",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("file", metavar="FILE.json", help="the request ('-' for stdin)")
    parser.add_argument("--json", action="store_true", help="print the API's JSON response")
    parser.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the text")
    parser.set_defaults(func=run)
    return parser


def _read(path: str) -> Any:
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise ProjectError(f"cannot read {path}: {e.strerror or e}", "file") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise ProjectError(f"{path} is not valid JSON: {e}", "file") from None


def run(args: argparse.Namespace) -> int:
    try:
        req = parse_solve_request(_read(args.file))
        if args.json:
            print(json.dumps(solve(req), indent=2))
        else:
            print(render_text(req, args.lang))
    except ProjectError as e:
        print(f"error: {e.field}: {e.message}", file=sys.stderr)
        return 2
    return 0


def _space(h: Any) -> str:
    return f"({h[0]},{h[1]})"


def render_text(req: SolveRequest, lang: str = "en") -> str:
    """The readable report: per map its candidates, the steps and the exclusions; then plays."""
    island, opts = req.island, req.options
    out = [
        f"Island {island.name or '(given in full)'}: {len(island)} spaces, "
        f"{len(island.landmarks)} landmarks",
        f"Options: near_includes_target={str(opts.near_includes_target).lower()}, "
        f"treasure_on_landmarks={str(opts.treasure_on_landmarks).lower()}",
    ]
    counts: dict[str, int] = {}
    candidates: dict[str, int] = {}
    for m in req.maps:
        exp = explain_column(island, m.clues, m.removed, opts)
        counts[m.id], candidates[m.id] = exp.count, exp.candidates
        cands = " ".join(_space(h) for h in island.spaces_of(exp.candidates))
        noun = "candidate" if exp.count == 1 else "candidates"
        out += ["", f"Map {m.id}: {exp.count} {noun}" + (f": {cands}" if cands else "")]
        out += [f"  {step.text(lang)}" for step in exp.steps]
        by_reason: dict[Reason, list[str]] = {}  # in the answer's order: as the column reads
        for h, why in exp.excluded:
            by_reason.setdefault(why, []).append(_space(h))
        for why, spaces in by_reason.items():
            if isinstance(why, int):
                label = f"clue {why} ({m.clues[why].notation})"
            else:
                label = "amulet removal" if why == "removed" else "landmark (no treasure there)"
            out.append(f"  excluded by {label}: {' '.join(spaces)}")
    if req.hand and req.maps:
        out += ["", "Plays (hand card on each map):"]
        for i, card in enumerate(req.hand):
            cells = []
            for m in req.maps:
                left = (candidates[m.id] & clue_mask(island, card, opts)).bit_count()
                legal = 0 < left < counts[m.id]
                cells.append(f"{m.id} {'legal' if legal else 'illegal'} ({left} left)")
            out.append(f"  {i}. {card.notation} — {describe_clue(card, lang)}: " + ", ".join(cells))
    return "\n".join(out)
