"""Reviewing a long game: stepping through its positions on the production server, by the
server's CPU per step against ``GET /healthz``, and a full Tobago analysis against a replay.

The game: a 4-seat Tobago game of about 450 actions, as long as games of today's rules run
(bots that wander the island a fifth of the time and otherwise pick any legal action, the
strategic bot's move when the table would stall: ``bench/tobago_games.py``; the first seed from
0 whose game has 450-495 actions), imported into a fresh gunicorn server (``gunicorn.conf.py``; ``POST
/api/games/import``) on its own SQLite file, once per round (each round steps a copy no worker
has seen). Figures, each the median of interleaved rounds with its range:

1. the server's CPU per request (its workers' /proc times around each load; one connection:
   wrk for ``GET /healthz``, the steps asked in order) of ``GET /healthz``, and of stepping:
   every step 0 … N asked once for a seat
   (its view, legal actions, the deduction helper and expected gold: nothing cached per step),
   the same steps again (the answers cached), and every step for everything (all hands, the
   helper of the seat to act), each as a ratio to /healthz; the slowest built step's latency
   (target < 20 ms; the steps are asked in order over one connection);
2. the first position asked of a copy (it replays the game and keeps its checkpoints);
3. in process: the whole game's analysis (``games.analysis.analyse``; target < 10 s) against a
   plain replay of its log and against building every seat's view at every step; the CPU time
   of what one answer computes (view, helper, expected gold), the worst step, with and without
   ``gc.freeze()`` (the tail of the steps is Python's full garbage collections, which each
   gunicorn worker avoids by freezing what it loaded);
4. the analysis through the service: from the first ``GET /analysis`` to ``done``.

Usage: ``.venv/bin/python bench/review_bench.py [--rounds 5] [--actions 450] [--quick]``
(``--quick``: a shorter game, every 20th step).
"""

from __future__ import annotations

import functools
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, interleaved, median_ratio, parse, parser, ratio, report  # noqa: E402
from bench.http_load import Load, Request, healthz_figure, measured, once_load, wrk_load, wrk_path  # noqa: E402
from bench.tobago_games import next_move  # noqa: E402
from games.analysis import analyse  # noqa: E402
from games.base import Action, get_kind, replay  # noqa: E402
from games.review import GameLog  # noqa: E402
from games.tobago.analysis import ANALYST  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402
from web.review import ANSWERS_BYTES  # noqa: E402

WANDER = 0.2
TARGET_STEP_MS = 20.0
TARGET_ANALYSIS_S = 10.0


def long_game(actions: int, seats: int = 4) -> GameLog:
    """The first seed's game with ``actions`` to ``actions`` + 10 % actions (module doc)."""
    kind = get_kind("tobago")
    for seed in range(1000):
        state = kind.new_state(seed, seats, {})
        rng = random.Random(seed)
        log: list[tuple[int | None, Action]] = []
        while not kind.is_over(state) and len(log) <= actions * 1.1:
            seat, action = next_move(kind, state, rng, WANDER, first=True)
            kind.apply(state, seat, action)
            log.append((seat, action))
        if kind.is_over(state) and actions <= len(log) <= actions * 1.1:
            return GameLog.of("tobago", seed, seats, {}, log)
    raise RuntimeError("no game of that length")


def in_process_steps(log: GameLog, freeze: bool, every: int = 1) -> list[float]:
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
    for k in range(0, log.steps + 1, every):
        t0 = time.process_time()
        view = positions.view(k, 1)
        ANALYST.helper(view, [])
        ANALYST.expected(view)
        out.append(time.process_time() - t0)
    if freeze:
        gc.unfreeze()
    return out


def record_of(log: GameLog) -> dict:
    kind = get_kind("tobago")
    return {
        "game": "tobago",
        "options": kind.resolve_options({}, log.seats),
        "seed": log.seed,
        "seats": [{"index": i, "type": "human", "name": f"P{i + 1}"} for i in range(log.seats)],
        "actions": [{"seat": s, "action": a} for s, a in log.actions],
    }


def in_process_work(log: GameLog, every: int) -> dict[str, Callable[[], float]]:
    """What ``main`` measures in process, each returning its figure: a replay, every seat's
    view at every step, the analysis (CPU seconds), the worst answer of a step (ms; default gc
    and after ``gc.freeze()``)."""
    kind = get_kind("tobago")

    def replay_s() -> float:
        t = time.process_time()
        replay(kind, log.seed, log.seats, log.options, log.actions)
        return time.process_time() - t

    def views_s() -> float:
        t = time.process_time()
        state = kind.new_state(log.seed, log.seats, log.options)
        for seat, action in log.actions:
            for s in range(log.seats):
                kind.view(state, s)
            kind.apply(state, seat, action)
        return time.process_time() - t

    def analysis_s() -> float:
        t = time.process_time()
        analyse(log, ANALYST)
        return time.process_time() - t

    def worst_step_ms(freeze: bool) -> float:
        return max(in_process_steps(log, freeze, every)) * 1000

    return {
        "replay": replay_s,
        "views": views_s,
        "analysis": analysis_s,
        "default": functools.partial(worst_step_ms, False),
        "frozen": functools.partial(worst_step_ms, True),
    }


def figures_of(
    log: GameLog,
    loads: dict[str, list[Load]],
    firsts: list[float],
    cpu: dict[str, list[float]],
    service: float,
) -> list[Figure]:
    """The review's figures from a run's measurements: the HTTP ``loads`` per kind of request,
    the first positions' latencies (ms), the in-process ``cpu`` work per round, the service's
    analysis time (s)."""
    base = [x.server_us for x in loads["healthz"]]
    figures = [healthz_figure("review", base)]
    for name, words in (
        ("built", "a step for a seat, built"),
        ("cached", "the same step again, cached"),
        ("all", "a step for everything, built"),
    ):
        us = [x.server_us for x in loads[name]]
        note = f"{statistics.median(us):.0f} µs per step"
        if name == "cached":
            size = statistics.median(x.nbytes / x.requests for x in loads[name])
            note += (
                f"; the answers cache ({ANSWERS_BYTES >> 20} MB) holds about "
                f"{ANSWERS_BYTES / (size + 100):,.0f} answers of {size / 1000:.0f} kB"
            )
        figures.append(
            ratio(
                f"review.step_{name}_ratio",
                f"review: {words}: /healthz CPU / step CPU",
                base,
                us,
                note=note,
            )
        )
    figures += [
        Figure(
            "review.step_built_worst_ms",
            "review: slowest built step, latency (one connection)",
            [x.max_ms for x in loads["built"]],
            "ms",
            ("<=", TARGET_STEP_MS),
            note=f"p99 {statistics.median(x.p99_ms for x in loads['built']):.1f} ms",
        ),
        Figure("review.first_position_ms", "review: the first position of a game", firsts, "ms"),
        Figure(
            "review.analysis_s",
            f"Tobago analysis of {log.steps} actions, in process (CPU)",
            cpu["analysis"],
            "s",
            ("<=", TARGET_ANALYSIS_S),
            note=f"{median_ratio(cpu['analysis'], cpu['replay']):.0f}x a replay",
        ),
        ratio(
            "review.analysis_vs_views",
            "analysis / every seat's view at every step",
            cpu["analysis"],
            cpu["views"],
        ),
        Figure(
            "review.answer_worst_default_ms",
            "a step's answer in process, worst, default gc",
            cpu["default"],
            "ms",
        ),
        Figure(
            "review.answer_worst_frozen_ms",
            "a step's answer in process, worst, after gc.freeze()",
            cpu["frozen"],
            "ms",
            ("<=", TARGET_STEP_MS),
        ),
        Figure(
            "review.analysis_service_s",
            "analysis through the service, to done",
            [service],
            "s",
            ("<=", TARGET_ANALYSIS_S),
            note="once",
        ),
    ]
    return figures


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--actions", type=int, default=450)
    ap.add_argument("--every", type=int, default=1, help="step through every Nth step")
    ap.add_argument("--seconds", type=int, default=2, help="seconds of /healthz per round")
    a = parse(ap)
    if a.quick:
        a.actions, a.every, a.seconds = 300, 5, 1
    wrk_path()
    t0 = time.perf_counter()
    log = long_game(a.actions)
    print(
        f"game: tobago, 4 seats, seed {log.seed}, {log.steps} actions "
        f"(found in {time.perf_counter() - t0:.1f} s)"
    )
    record = record_of(log)
    steps = range(0, log.steps + 1, a.every)
    with (
        tempfile.TemporaryDirectory() as tmp,
        Gunicorn(Path(tmp) / "bench.sqlite3", workers=1) as server,
        requests.Session() as http,
    ):
        url = server.url
        copies = []
        for _ in range(a.rounds):
            game = http.post(url + "/api/games/import", json=record)
            if game.status_code != 201:
                raise SystemExit(f"import refused: {game.text}")
            copies.append(game.json()["id"])
        healthz = [Request("GET", "/healthz")]
        wrk_load(url, healthz, 1, 1)  # warm up
        loads: dict[str, list[Load]] = {"healthz": [], "built": [], "cached": [], "all": []}
        firsts: list[float] = []
        copy = iter(copies)

        def load(name: str, reqs: list[Request], once: bool) -> float:
            if once:  # every step once
                got = measured(server.pid, lambda: once_load(url, reqs))
            else:
                got = measured(server.pid, lambda: wrk_load(url, reqs, a.seconds, 1))
            if got.errors:
                raise RuntimeError(f"{name}: {got.errors} requests failed")
            loads[name].append(got)
            return got.server_us

        def stepping() -> float:
            """One copy: the first position, every step built, cached, and for everything."""
            gid = next(copy)
            t = time.perf_counter()
            http.get(f"{url}/api/games/{gid}/positions/0?seat=0").raise_for_status()
            firsts.append((time.perf_counter() - t) * 1000)
            seat = [Request("GET", f"/api/games/{gid}/positions/{k}?seat=1") for k in steps]
            every = [Request("GET", f"/api/games/{gid}/positions/{k}") for k in steps]
            load("built", seat, True)
            load("cached", seat, True)
            return load("all", every, True)

        cpu = interleaved(
            a.rounds,
            {
                "healthz": functools.partial(load, "healthz", healthz, False),
                "stepping": stepping,
                **in_process_work(log, a.every),
            },
        )
        t = time.perf_counter()
        gid = copies[0]
        while http.get(f"{url}/api/games/{gid}/analysis").json()["status"] == "running":
            time.sleep(0.05)
        service = time.perf_counter() - t
    figures = figures_of(log, loads, firsts, cpu, service)
    report("review", figures, a, actions=log.steps, every=a.every)


if __name__ == "__main__":
    main()
