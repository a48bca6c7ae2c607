"""Reviewing a long game: stepping through its positions on the production server, and a full
Tobago analysis, each against a baseline measured in the same run.

The game: a 4-seat Tobago game of about 1,000 actions (bots that wander the island a fifth of
the time and otherwise pick any legal action; the first seed from 0 whose game has 1,000-1,100
actions), imported into a fresh gunicorn server (``POST /api/games/import``) on its own SQLite
file. Rows:

1. ``GET /healthz``: the server's floor (Flask + gunicorn, no work), p50 / p99 / max.
2. Stepping, warm server: after one position of the game has been asked (the server has built
   its checkpoints once), every step 0 … N is asked once for a seat (the seat's view, legal
   actions, the deduction helper and expected gold built for each: nothing cached per step),
   then for everything (all hands, the helper of the seat to act). Target: every step < 20 ms.
3. Stepping again (the answers cached): the same steps once more.
4. Analysis in process (``games.analysis.analyse``): the whole game's analysis against a plain
   replay of its log and against building every seat's view at every step (what the analysis
   must do at the least). Target: < 10 s.
5. Analysis through the service: from the first ``GET /analysis`` to ``done`` (background
   thread, polled every 50 ms).

And, in process, the CPU time of what one answer computes (view, helper, expected gold) per
step, with and without ``gc.freeze()``: the tail of every row is Python's full garbage
collections (about one step in 40 here), not the review's work.

Usage: ``.venv/bin/python bench/review_bench.py [--workers 1] [--actions 1000]``. With more than
one worker, the warm-up asks a position a few times so that each worker has built the game.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.analysis import analyse  # noqa: E402
from games.base import Action, get_kind, replay  # noqa: E402
from games.review import GameLog  # noqa: E402
from games.tobago.analysis import ANALYST  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402

WANDER = 0.2
DRIVE_STEPS = frozenset({"drive", "pick_amulet", "end_turn"})


def long_game(actions: int, seats: int = 4) -> GameLog:
    """The first seed's game with ``actions`` to ``actions`` + 10 % actions (module doc)."""
    kind = get_kind("tobago")
    for seed in range(1000):
        state = kind.new_state(seed, seats, {})
        rng = random.Random(seed)
        log: list[tuple[int | None, Action]] = []
        while not kind.is_over(state) and len(log) <= actions * 1.1:
            seat = kind.to_act(state)[0]
            legal = kind.legal_actions(state, seat)
            wander = [a for a in legal if a["type"] in DRIVE_STEPS]
            action = rng.choice(wander if wander and rng.random() < WANDER else legal)
            kind.apply(state, seat, action)
            log.append((seat, action))
        if kind.is_over(state) and actions <= len(log) <= actions * 1.1:
            return GameLog.of("tobago", seed, seats, {}, log)
    raise RuntimeError("no game of that length")


def timed_get(http: requests.Session, url: str) -> float:
    t0 = time.perf_counter()
    resp = http.get(url)
    took = time.perf_counter() - t0
    resp.raise_for_status()
    return took


def row(name: str, lat: list[float], target_ms: float | None = None, base: float | None = None):
    """Print p50 / p99 / max (ms), the p50's ratio to ``base`` and how many exceed the target."""
    ms = sorted(x * 1000 for x in lat)
    p50, p99, worst = statistics.median(ms), ms[int(0.99 * (len(ms) - 1))], ms[-1]
    ratio = "" if base is None else f"  p50 x{p50 / base:.1f}"
    over = ""
    if target_ms is not None:
        n = sum(x >= target_ms for x in ms)
        over = f"  {n} of {len(ms)} at or over {target_ms:g} ms"
    print(f"{name:<48} p50 {p50:6.2f}  p99 {p99:7.2f}  max {worst:7.2f} ms{ratio}{over}")
    return p50


def in_process_steps(log: GameLog, freeze: bool) -> list[float]:
    """CPU seconds per step of what a position answer computes (the seat's view, the helper,
    expected gold), in this process, after one step built the checkpoints; ``freeze``: with
    every object alive now moved out of the garbage collector's sight first (``gc.freeze``)."""
    from games.review import Positions

    positions = Positions(log)
    positions.view(0, 1)
    if freeze:
        gc.collect()
        gc.freeze()
    out = []
    for k in range(log.steps + 1):
        t0 = time.process_time()
        view = positions.view(k, 1)
        ANALYST.helper(view, [])
        ANALYST.expected(view)
        out.append(time.process_time() - t0)
    if freeze:
        gc.unfreeze()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--actions", type=int, default=1000)
    args = p.parse_args()

    t0 = time.perf_counter()
    log = long_game(args.actions)
    print(
        f"game: tobago, 4 seats, seed {log.seed}, {log.steps} actions "
        f"(found in {time.perf_counter() - t0:.1f} s)"
    )
    kind = get_kind("tobago")

    # --- in process: analysis against its baselines ----------------------------------------
    t0 = time.perf_counter()
    replay(kind, log.seed, log.seats, log.options, log.actions)
    t_replay = time.perf_counter() - t0
    t0 = time.perf_counter()
    state = kind.new_state(log.seed, log.seats, log.options)
    for seat, action in log.actions:
        for s in range(log.seats):
            kind.view(state, s)
        kind.apply(state, seat, action)
    t_views = time.perf_counter() - t0
    t0 = time.perf_counter()
    result = analyse(log, ANALYST)
    t_analysis = time.perf_counter() - t0
    rated = sum(s["rated"] for s in result["summary"])
    print(f"{'replay of the log (baseline)':<46} {t_replay * 1000:9.1f} ms")
    print(f"{'every seat view at every step (baseline)':<46} {t_views * 1000:9.1f} ms")
    print(
        f"{'full Tobago analysis, in process':<46} {t_analysis * 1000:9.1f} ms"
        f"  x{t_analysis / t_replay:.0f} replay, x{t_analysis / t_views:.1f} views;"
        f" {rated} decisions rated  {'ok' if t_analysis < 10 else 'OVER TARGET'} (target < 10 s)"
    )

    cpu = in_process_steps(log, freeze=False)
    row("a step's answer, in process, CPU", cpu, 20)
    row("the same after gc.freeze() (no full-GC pauses)", in_process_steps(log, freeze=True), 20)

    # --- the server -------------------------------------------------------------------------
    record = {
        "game": "tobago",
        "options": kind.resolve_options({}, log.seats),
        "seed": log.seed,
        "seats": [{"index": i, "type": "human", "name": f"P{i + 1}"} for i in range(log.seats)],
        "actions": [{"seat": s, "action": a} for s, a in log.actions],
    }
    with (
        tempfile.TemporaryDirectory() as tmp,
        Gunicorn(Path(tmp) / "bench.sqlite3", workers=args.workers, threads=8) as server,
    ):
        url = server.url
        with requests.Session() as http:
            game = http.post(url + "/api/games/import", json=record)
            if game.status_code != 201:
                raise SystemExit(f"import refused: {game.text}")
            gid = game.json()["id"]
            for _ in range(200):
                timed_get(http, url + "/healthz")
            health = [timed_get(http, url + "/healthz") for _ in range(500)]
            base = row("GET /healthz (baseline)", health)
            t0 = time.perf_counter()
            timed_get(http, f"{url}/api/games/{gid}/positions/0?seat=0")
            first = time.perf_counter() - t0
            for _ in range(3 * args.workers):
                timed_get(http, f"{url}/api/games/{gid}/positions/0?seat=0")
            print(f"{'first position asked (builds checkpoints)':<46} {first * 1000:9.1f} ms")
            steps = range(log.steps + 1)
            for label, query in (("seat 1", "?seat=1"), ("everything", "")):
                lat = [
                    timed_get(http, f"{url}/api/games/{gid}/positions/{k}{query}") for k in steps
                ]
                row(f"steps, warm server, each built: {label}", lat, 20, base)
            lat = [timed_get(http, f"{url}/api/games/{gid}/positions/{k}?seat=1") for k in steps]
            row("steps again (answers cached): seat 1", lat, 20, base)
            t0 = time.perf_counter()
            while http.get(f"{url}/api/games/{gid}/analysis").json()["status"] == "running":
                time.sleep(0.05)
            took = time.perf_counter() - t0
            print(
                f"{'analysis through the service (to done)':<46} {took * 1000:9.1f} ms"
                f"  {'ok' if took < 10 else 'OVER TARGET'} (target < 10 s)"
            )


if __name__ == "__main__":
    main()
