"""Memory of a gunicorn worker under every kind of traffic at once: every per-worker cache
filled past its budget (issues 14 and 25: caches bounded by bytes).

The server runs ``gunicorn.conf.py`` (``--workers`` workers, 1 by default: all the traffic on
one) on a SQLite file prepared before it starts with ``--games`` distinct running Tobago games
of ``--actions`` log entries each (4 human seats; written through the store with their
snapshots, but a third without one: games whose state is replayed from the start, as a game
stored before snapshots existed, or whose snapshot an engine can no longer read, is). Then
``--rounds`` rounds, each sending its share of every kind of traffic in turn:

- **games**: for a slice of the games (every game once over the run), the seat to act reads its
  view and plays its first legal action: each game's state is rebuilt from its snapshot and the
  log's tail and kept (the state cache, ``TOBAGO_STATE_CACHE``);
- **islands**: solve requests each naming an island never asked before (``{"generated": N}``):
  every island is generated, compiled and answered once (the catalog's islands, the compiled
  islands, the answer memos);
- **puzzles**: puzzles of seeds never asked before (the puzzle cache);
- **review**: finished games imported and stepped through (the review's positions and answers).

Printed: how many times over its budget the traffic asks each cache to keep (by the caches' own
estimates, measured in this process on the same requests or a sample of them: every figure
must be above 1 for the run to fill every cache), each worker's resident memory after start-up
and its peak (``VmHWM`` from /proc) after every round; the figure is the peak after the last
round (target ≤ 250 MB).

Usage: ``.venv/bin/python bench/memory_bench.py [--games 1000] [--actions 400] [--rounds 5]
[--quick]``
"""

from __future__ import annotations

import http.client
import json
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, parse_options, report  # noqa: E402
from bench.tobago_games import next_move  # noqa: E402
from tests.servers import Gunicorn, worker_pids  # noqa: E402

T = TypeVar("T")

TARGET_MB = 250.0
HAND = ["in:jungle", "near1:sea", "!near2:hut", "in:largest:lake", "near1:statue", "!in:beach"]


def memory_mb(pid: int) -> tuple[float, float]:
    """``(VmRSS, VmHWM)`` of ``pid`` in MB (current and peak resident memory)."""
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def random_game(kind: Any, seed: int, actions: int, finish: bool) -> tuple[Any, list]:
    """A 4-seat Tobago game of random legal actions that do not let the table stall
    (``bench/tobago_games.py``): ``actions`` of them (``finish``: to its end, at most 5,000);
    ``(state, [(seat, action, events)])``, or None if it ended too soon."""
    state = kind.new_state(seed, 4, {})
    rng = random.Random(seed)
    log: list[tuple[int, dict, list]] = []
    while not kind.is_over(state) and (finish or len(log) < actions) and len(log) < 5000:
        seat, action = next_move(kind, state, rng)
        log.append((seat, action, kind.apply(state, seat, action)))
    done = kind.is_over(state)
    return (state, log) if done == finish and len(log) >= actions else (None, log)


def prepare_games(
    database: str, games: int, actions: int
) -> tuple[list[tuple[str, list[str]]], int]:
    """``games`` running Tobago games of ``actions`` entries, written through the service's
    sessions and store (one transaction each, with its snapshot but for every third game):
    ``[(id, seat tokens)]``, and what the state cache would charge to keep them all."""
    from games.base import get_kind
    from web.service.sessions import GameSessions
    from web.service.states import estimated_bytes
    from web.storage import RUNNING, ActionRecord, open_store

    kind = get_kind("tobago")
    sessions = GameSessions(open_store(database))
    made: list[tuple[str, list[str]]] = []
    demand = 0
    seed = 0
    while len(made) < games:
        seed += 1
        state, log = random_game(kind, seed, actions, finish=False)
        if state is None:
            continue
        game, tokens, _, _ = sessions.create("tobago", [{"type": "human"}] * 4, None, seed)
        entries = [ActionRecord(v, s, a, e) for v, (s, a, e) in enumerate(log, 1)]
        with sessions.store.transaction(game.id) as tx:
            tx.append(entries, RUNNING, None)
            game = tx.game
        if len(made) % 3:
            sessions.states.saved(game, 0, state)
        made.append((game.id, [tokens[i] for i in range(4)]))
        demand += estimated_bytes(kind.state_to_json(state), state)
    sessions.store.close()
    return made, demand


def finished_records(count: int, first_seed: int) -> tuple[list[dict], int]:
    """Records of ``count`` finished random Tobago games, for ``POST /api/games/import``, and
    what the review's positions cache would charge to keep them all."""
    from games.base import get_kind
    from games.review import GameLog, Positions

    kind = get_kind("tobago")
    options = kind.resolve_options({}, 4)
    out: list[dict[str, Any]] = []
    demand = 0
    seed = first_seed
    while len(out) < count:
        seed += 1
        state, log = random_game(kind, seed, 0, finish=True)
        if state is None:
            continue
        out.append(
            {
                "game": "tobago",
                "options": options,
                "seed": seed,
                "seats": [{"index": i, "type": "human"} for i in range(4)],
                "actions": [{"seat": s, "action": a} for s, a, _ in log],
            }
        )
        steps = [(s, a) for s, a, _ in log]
        demand += Positions(GameLog.of("tobago", seed, 4, options, steps)).nbytes()
    return out, demand


def sampled_demand(islands: int, puzzles: int) -> dict[str, int]:
    """What the island, compiled-island and puzzle caches would charge for the bench's solve
    and puzzle requests, by their own estimates: the requests of a sample, made in this
    process, and scaled to the whole."""
    from hexmap.catalog import ISLANDS
    from solver.compiled import CACHE
    from web.puzzles_api import _PUZZLES, _by_seed
    from web.solver_api import solve_text

    n = min(islands, 20)
    ISLANDS.clear()  # this process's caches: what the sample adds, nothing evicted
    CACHE.clear()
    for seed in range(1, n + 1):
        solve_text(json.dumps(solve_body(seed)).encode())
    per_island = ISLANDS.nbytes, CACHE.nbytes
    k = min(puzzles, 4)
    for seed in range(1, k + 1):
        _by_seed(seed, "medium")
    return {
        "islands": per_island[0] * islands // n,
        "compiled islands": per_island[1] * islands // n,
        "puzzles": _PUZZLES.nbytes * puzzles // k,
    }


def solve_body(seed: int) -> dict:
    return {
        "island": {"generated": seed},
        "maps": [{"id": "white", "clues": ["!in:mountain", "near2:sea"]}],
        "hand": HAND,
    }


def cache_budgets() -> dict[str, int]:
    """Every per-worker cache's budget in bytes (README, "Memory per worker")."""
    from hexmap.catalog import ISLAND_CACHE_BYTES
    from solver.compiled import CACHE_BYTES
    from web.puzzles_api import PUZZLE_CACHE_BYTES
    from web.review import ANSWERS_BYTES, POSITIONS_BYTES
    from web.service.states import STATE_CACHE_BYTES

    return {
        "states": STATE_CACHE_BYTES,
        "review positions": POSITIONS_BYTES,
        "review answers": ANSWERS_BYTES,
        "islands": ISLAND_CACHE_BYTES,
        "compiled islands": CACHE_BYTES,
        "puzzles": PUZZLE_CACHE_BYTES,
    }


class Client:
    """Keep-alive JSON requests to the server, from ``threads`` threads at once."""

    def __init__(self, port: int, threads: int = 4) -> None:
        self.port, self.threads = port, threads
        self.count = 0
        self.position_bytes = 0
        self._lock = threading.Lock()

    def call(
        self,
        conn: http.client.HTTPConnection,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
    ) -> tuple[int, Any]:
        """One request; its status and JSON (and the answer's text length counted under the
        path's first segments, for what the review's answers cache keeps)."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        resp = conn.getresponse()
        data = resp.read()
        with self._lock:
            self.count += 1
            if "/positions/" in path:
                self.position_bytes += 100 + len(data)
        if resp.status >= 500:
            raise RuntimeError(f"{method} {path}: {resp.status} {data[:200]!r}")
        return resp.status, json.loads(data) if data else None

    def each(self, items: list[T], work: Callable[[http.client.HTTPConnection, T], None]) -> None:
        """``work(conn, item)`` for every item, spread over the threads."""
        errors: list[BaseException] = []
        queue = list(reversed(items))

        def run() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            try:
                while True:
                    with self._lock:
                        if not queue or errors:
                            return
                        item = queue.pop()
                    work(conn, item)
            except BaseException as e:  # noqa: BLE001 - kept for the main thread, which raises it
                errors.append(e)
            finally:
                conn.close()

        pool = [threading.Thread(target=run) for _ in range(self.threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        if errors:
            raise errors[0]


def main() -> None:
    a = parse_options(
        __doc__,
        {
            "games": (1000, "running long games"),
            "actions": (400, "log entries of each game"),
            "islands": (1500, "distinct islands solved"),
            "puzzles": (300, "distinct puzzles asked"),
            "reviews": (30, "finished games imported"),
            "steps": (60, "positions asked per review game"),
            "workers": (1, None),
        },
        quick={"games": 40, "actions": 150, "islands": 40, "puzzles": 6, "reviews": 2, "steps": 10},
    )
    rounds = a.rounds

    with tempfile.TemporaryDirectory() as tmp:
        database = os.path.join(tmp, "bench.sqlite3")
        t0 = time.perf_counter()
        games, states_demand = prepare_games(database, a.games, a.actions)
        records, positions_demand = finished_records(a.reviews, 10**6)
        demand = {
            "states": states_demand,
            "review positions": positions_demand,
            **sampled_demand(a.islands, a.puzzles),
        }
        print(
            f"{len(games)} running Tobago games of {a.actions} entries and {len(records)} "
            f"finished ones prepared in {time.perf_counter() - t0:.0f} s"
        )
        with Gunicorn(database, workers=a.workers, start_timeout=60) as server:
            pids = worker_pids(server.pid)
            client = Client(server.port)
            base = {pid: memory_mb(pid)[0] for pid in pids}
            print(
                f"gunicorn ({len(pids)} worker(s), gunicorn.conf.py); RSS after start-up: "
                + ", ".join(f"{mb:.1f} MB" for mb in base.values())
            )

            def play(conn: http.client.HTTPConnection, game: tuple[str, list[str]]) -> None:
                gid, tokens = game
                _, spectator = client.call(conn, "GET", f"/api/games/{gid}")
                seat = spectator["to_act"][0] if spectator.get("to_act") else None
                for token in tokens if seat is None else [tokens[seat]]:
                    _, me = client.call(conn, "GET", f"/api/games/{gid}", token=token)
                    if me["legal_actions"]:
                        move = {"version": me["version"], "action": me["legal_actions"][0]}
                        path = f"/api/games/{gid}/actions"
                        client.call(conn, "POST", path, move, token)
                        return

            def solve(conn: http.client.HTTPConnection, seed: int) -> None:
                status, _ = client.call(conn, "POST", "/api/tobago/solve", solve_body(seed))
                assert status == 200, status

            def puzzle(conn: http.client.HTTPConnection, seed: int) -> None:
                status, _ = client.call(conn, "GET", f"/api/tobago/puzzles?seed={seed}")
                assert status in (200, 409), status

            def review(conn: http.client.HTTPConnection, record: dict) -> None:
                status, game = client.call(conn, "POST", "/api/games/import", record)
                assert status == 201, (status, game)
                steps = len(record["actions"])
                for k in range(0, steps + 1, max(1, steps // a.steps)):
                    path = f"/api/games/{game['id']}/positions/{k}?seat={k % 4}"
                    client.call(conn, "GET", path)

            def share(items: list, r: int) -> list:
                return items[r * len(items) // rounds : (r + 1) * len(items) // rounds]

            peaks: list[dict[int, float]] = []
            for r in range(rounds):
                client.each(share(games, r), play)
                client.each(share(list(range(1, a.islands + 1)), r), solve)
                client.each(share(list(range(1, a.puzzles + 1)), r), puzzle)
                client.each(share(records, r), review)
                peaks.append({pid: memory_mb(pid)[1] for pid in pids})
                print(
                    f"  after round {r + 1}: peak RSS "
                    + ", ".join(f"{mb:.1f} MB" for mb in peaks[-1].values())
                    + f" ({client.count} requests so far)"
                )
            elapsed = time.perf_counter() - t0
    demand["review answers"] = client.position_bytes
    budgets = cache_budgets()
    print("the traffic asked each cache to keep (estimated) this many times its budget:")
    for name, asked in demand.items():
        print(f"  {name:<18} {asked / budgets[name]:6.2f} x  (budget {budgets[name] >> 20} MB)")
    peak = max(peaks[-1].values())
    figures = [
        Figure(
            "memory.peak_rss_mb",
            "peak RSS of a worker, every cache past its budget",
            [peak],
            "MB",
            ("<=", TARGET_MB),
            note=f"after {rounds} rounds of {len(games)} games, {a.islands} islands, "
            f"{a.puzzles} puzzles, {len(records)} reviews; start-up {min(base.values()):.0f} MB",
            extra={
                "per_round_mb": [max(p.values()) for p in peaks],
                "requests": client.count,
                "times_budget": {k: round(v / budgets[k], 2) for k, v in demand.items()},
            },
        )
    ]
    print(f"{client.count} requests in {elapsed:.0f} s")
    report("memory", figures, a, workers=a.workers, games=len(games), actions=a.actions)


if __name__ == "__main__":
    main()
