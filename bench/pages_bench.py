"""Tobago pages benchmark: what a game page asks the server for on every position.

A game page, after each move it shows, asks ``POST /api/tobago/helper`` (why every space is out,
driving costs, the ranked plays of a 4-card hand) for the seat's public position. The baseline is
``POST /api/tobago/solve`` on the same position (candidates, explanations and hand legality: the
part of the helper's work the solver already does). Positions come from real games: a bot game on
classic-1 is played and its view is taken after every turn.

Printed, all measured in this run through the Flask test client (no network): the median µs per
request for the helper and for the solve baseline and their ratio; the median µs to render the
game page's HTML (template + i18n catalogue) against ``GET /healthz``.

Usage: ``.venv/bin/python bench/pages_bench.py [--rounds 3]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
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


def median_us(fn, items, rounds: int) -> float:
    best = []
    for _ in range(rounds):
        times = []
        for it in items:
            t = time.perf_counter()
            fn(it)
            times.append(time.perf_counter() - t)
        best.append(statistics.median(times))
    return min(best) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": f"{tmp}/bench.sqlite3"})
        client = app.test_client()
        bodies = positions()
        solve_bodies = [
            {"island": b["island"], "maps": b["maps"], "hand": b["hand"]} for b in bodies
        ]

        def helper(body):
            assert client.post("/api/tobago/helper", json=body).status_code == 200

        def solve(body):
            assert client.post("/api/tobago/solve", json=body).status_code == 200

        helper(bodies[0])
        solve(solve_bodies[0])
        h = median_us(helper, bodies, args.rounds)
        s = median_us(solve, solve_bodies, args.rounds)
        print(f"positions: {len(bodies)} (seat 0's view after each action of 2 bot games)")
        print(f"POST /api/tobago/helper  median {h:9.0f} µs")
        print(f"POST /api/tobago/solve   median {s:9.0f} µs  (baseline)")
        print(f"helper / solve           {h / s:9.2f}×")
        pages = ["/tobago/games/abc"] * 50
        g = median_us(lambda url: client.get(url), pages, args.rounds)
        z = median_us(lambda url: client.get(url), ["/healthz"] * 50, args.rounds)
        print(f"GET game page            median {g:9.0f} µs")
        print(f"GET /healthz             median {z:9.0f} µs  (baseline)")
        print(f"page / healthz           {g / z:9.2f}×")


if __name__ == "__main__":
    main()
