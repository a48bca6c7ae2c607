"""Tobago pages benchmark: what a game page asks the server for on every position.

A game page, after each move it shows, asks ``POST /api/tobago/helper`` (why every space is out,
driving costs, the ranked plays of a 4-card hand) for the seat's public position. The baseline is
``POST /api/tobago/solve`` on the same position (candidates, explanations and hand legality: the
part of the helper's work the solver already does). Positions come from real games: a bot game on
classic-1 is played and its view is taken after every turn.

Printed, all measured through the Flask test client (no network; CPU time of this process),
each the median of interleaved rounds with the range: the median µs per request for the helper
and for the solve baseline and their ratio; the median µs to render the game page's HTML
(template + i18n catalogue) against ``GET /healthz``.

Usage: ``.venv/bin/python bench/pages_bench.py [--rounds 5] [--quick]``
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from bench.common import Figure, cpu_median, interleaved, parse, parser, ratio, report  # noqa: E402
from games.base import get_kind  # noqa: E402


def positions(n_games: int = 2) -> list[dict]:
    """Helper request bodies from the views of bot games (seat 0's view after each action)."""
    kind = get_kind("tobago")
    out = []
    for seed in range(n_games):
        state = kind.new_state(seed, 4, {"island": "classic-1"})
        rng = random.Random(seed)
        while not kind.is_over(state):
            seat = kind.to_act(state)[0]
            kind.apply(state, seat, kind.bot_action(state, seat, "strategic", rng))
            v = kind.view(state, 0)
            if v["phase"] != "turn" or not v["players"][0]["atv"]:
                continue
            out.append(
                {
                    "island": {"name": "classic-1", "landmarks_seed": seed},
                    "maps": [
                        {
                            "id": m["colour"],
                            "clues": [c["clue"] for c in m["clues"]],
                            "removed": m["removed"],
                        }
                        for m in v["maps"]
                    ],
                    "hand": [c["clue"] for c in v["players"][0]["hand"]],
                    "me": v["players"][0]["atv"],
                    "others": [p["atv"] for p in v["players"][1:] if p["atv"]],
                    "lang": "en",
                }
            )
    return out


def median_us(fn: Callable[[Any], Any], items: Sequence[Any]) -> float:
    """The median over ``items`` of one call's CPU time, in µs."""
    return cpu_median(fn, items) * 1e6


def main() -> None:
    args = parse(parser(__doc__))
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": f"{tmp}/bench.sqlite3"})
        client = app.test_client()
        bodies = positions(1 if args.quick else 2)
        solve_bodies = [
            {"island": b["island"], "maps": b["maps"], "hand": b["hand"]} for b in bodies
        ]

        def helper(body: dict) -> None:
            assert client.post("/api/tobago/helper", json=body).status_code == 200

        def solve(body: dict) -> None:
            assert client.post("/api/tobago/solve", json=body).status_code == 200

        helper(bodies[0])
        solve(solve_bodies[0])
        print(f"positions: {len(bodies)} (seat 0's view after each action of bot games)")
        pages = ["/tobago/games/abc"] * 50
        got = interleaved(
            args.rounds,
            {
                "helper": lambda: median_us(helper, bodies),
                "solve": lambda: median_us(solve, solve_bodies),
                "page": lambda: median_us(client.get, pages),
                "healthz": lambda: median_us(client.get, ["/healthz"] * 50),
            },
        )
    figures = [
        Figure("pages.helper_us", "POST /api/tobago/helper (test client)", got["helper"], "µs"),
        ratio(
            "pages.helper_vs_solve",
            "helper / solve on the same position",
            got["helper"],
            got["solve"],
            note=f"solve {statistics.median(got['solve']):.0f} µs",
        ),
        Figure("pages.game_page_us", "GET a game page (test client)", got["page"], "µs"),
        ratio(
            "pages.game_page_vs_healthz",
            "game page / GET /healthz",
            got["page"],
            got["healthz"],
            note=f"healthz {statistics.median(got['healthz']):.0f} µs",
        ),
    ]
    report("pages", figures, args, positions=len(bodies))


if __name__ == "__main__":
    main()
