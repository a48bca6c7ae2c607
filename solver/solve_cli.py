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
from i18n import catalogue, join_list, translate
from solver.answer import answer_json
from solver.clues import describe_clue
from solver.explain import Reason, explain_column
from solver.masks import clue_mask
from solver.solve import SolveRequest, parse_solve_request


def add_subcommand(subparsers: Any) -> argparse.ArgumentParser:
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
            print(json.dumps(answer_json(req), indent=2))
        else:
            print(render_text(req, args.lang))
    except ProjectError as e:
        print(f"error: {e.field}: {e.message}", file=sys.stderr)
        return 2
    return 0


def _space(h: Any) -> str:
    return f"({h[0]},{h[1]})"


def render_text(req: SolveRequest, lang: str = "en") -> str:
    """The readable report in ``lang``: per map its candidates, the steps and the exclusions; then
    the plays. Every line is worded from the catalogues (``i18n/<lang>/cli.json``)."""
    island, opts = req.island, req.options

    def tr(key: str, **params: Any) -> str:
        return translate(lang, key, **params)

    def map_name(mid: str) -> str:  # a map's colour in words when it is one, else its id
        return tr(f"map.{mid}") if lang != "en" and f"map.{mid}" in catalogue(lang) else mid

    yes_no = {True: tr("cli.true"), False: tr("cli.false")}
    out = [
        tr(
            "cli.island",
            name=island.name or tr("cli.given_in_full"),
            spaces=tr("cli.n_spaces", count=len(island)),
            landmarks=tr("cli.n_landmarks", count=len(island.landmarks)),
        ),
        tr(
            "cli.options",
            near=yes_no[opts.near_includes_target],
            landmarks=yes_no[opts.treasure_on_landmarks],
        ),
    ]
    counts: dict[str, int] = {}
    candidates: dict[str, int] = {}
    for m in req.maps:
        exp = explain_column(island, m.clues, m.removed, opts)
        counts[m.id], candidates[m.id] = exp.count, exp.candidates
        cands = " ".join(_space(h) for h in island.spaces_of(exp.candidates))
        head = tr("cli.map", map=map_name(m.id), count=exp.count)
        out += ["", head + (tr("cli.colon") + cands if cands else "")]
        out += [f"  {step.text(lang)}" for step in exp.steps]
        by_reason: dict[Reason, list[str]] = {}  # in the answer's order: as the column reads
        for h, why in exp.excluded:
            by_reason.setdefault(why, []).append(_space(h))
        for why, names in by_reason.items():
            spaces = " ".join(names)
            if isinstance(why, int):
                line = tr("cli.excluded_by_clue", n=why, clue=m.clues[why].notation, spaces=spaces)
            else:
                line = tr(f"cli.excluded_by_{why}", spaces=spaces)
            out.append(f"  {line}")
    if req.hand and req.maps:
        out += ["", tr("cli.plays")]
        for i, card in enumerate(req.hand):
            cells = []
            for m in req.maps:
                left = (candidates[m.id] & clue_mask(island, card, opts)).bit_count()
                legal = 0 < left < counts[m.id]
                key = "cli.legal" if legal else "cli.illegal"
                cells.append(tr(key, map=map_name(m.id), count=left))
            sentence = describe_clue(card, lang)
            out.append(
                f"  {i}. {card.notation} — {sentence}{tr('cli.colon')}{join_list(lang, cells)}"
            )
    return "\n".join(out)
