"""The lobby with 10,000 open tables: what its list costs the server, against ``/healthz``.

A SQLite file is filled in process with 10,000 open DAO tables (a guest in seat 0, the other
seats listed for anyone, one in ten with a clock, one in five casual) and, beside them, 2,000
finished games, which the lobby's partial indexes never read; a gunicorn server
(``gunicorn.conf.py``, ``make run``'s settings) serves it. Figures, the median of interleaved
rounds with their range:

1. the server's CPU per request (its processes' /proc times around a wrk load over 4
   connections) of ``GET /healthz``, of the lobby's list ``GET /api/lobby/dao`` (the 50
   longest waiting tables and the count of all: target at most 2× /healthz, i.e. the ratio
   /healthz CPU ÷ its CPU ≥ 0.5, the issue's figure) and of the lobby page ``/dao``;
2. in process, the store's read behind one list when no answer is kept (every
   ``LIST_FRESH_S`` a process reads the list once a kind: ``web.lobby_api``): the 50 tables and
   the count, wall ms (no target; printed so the kept answer's share is seen).

Usage: ``.venv/bin/python bench/lobby_bench.py [--rounds 5] [--seconds 2] [--tables 10000]
[--quick]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, report, sqlite_store  # noqa: E402
from bench.http_load import Request, healthz_figure, healthz_ratio, load_args, server_us, wrk_rounds  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402
from web.lobby_api import LIST_SIZE  # noqa: E402
from web.storage import HUMAN, OVER, GameRecord, Seat, new_token  # noqa: E402
from web.storage.sqlite import SqliteStore  # noqa: E402

#: The lobby's list costs at most two health checks (ratio /healthz ÷ it ≥ 1/2).
TARGET_TIMES = 2.0
KIND = "dao"


def fill(store: SqliteStore, tables: int, finished: int) -> None:
    """``tables`` open DAO tables and ``finished`` finished games (module doc)."""
    now = time.time()
    for i in range(tables + finished):
        seats = [Seat(0, HUMAN, f"Guest {i}", token_hash="x")]
        seats += [Seat(n, HUMAN, listed=True) for n in (1, 2, 3)[: 1 + i % 3]]
        options = {"time_bank_s": 600, "increment_s": 5} if i % 10 == 0 else {}
        game = GameRecord(new_token()[:12], KIND, options, i, seats)
        game.rated = i % 5 != 0
        game.to_act = [0]
        if i < tables:
            game.lobby_until = now + 3600
        store.create(game, [])
        if i >= tables:  # ended: out of the lobby
            with store.transaction(game.id) as tx:
                tx.append([], OVER, None)


def read_ms(store: SqliteStore, times: int) -> float:
    """Wall ms of the store's read behind one list (module doc, 2): the median of ``times``."""
    took = []
    for _ in range(times):
        t0 = time.perf_counter()
        listed = store.open_tables(KIND, LIST_SIZE)
        store.open_table_count(KIND)
        took.append((time.perf_counter() - t0) * 1000)
        assert len(listed) == LIST_SIZE
    return statistics.median(took)


def main() -> None:
    a, seconds, tables = load_args(__doc__, "tables", 10_000, 200, "open tables")
    with sqlite_store("lobby") as (database, store):
        fill(store, tables, tables // 5)
        with Gunicorn(database, start_timeout=60) as server:
            url = server.url
            asked = {
                "healthz": [Request("GET", "/healthz")],
                "list": [Request("GET", f"/api/lobby/{KIND}")],
                "page": [Request("GET", f"/{KIND}")],
            }
            listed = requests.get(f"{url}/api/lobby/{KIND}", timeout=30).json()
            if listed["count"] != tables or len(listed["tables"]) != LIST_SIZE:
                raise SystemExit(f"the lobby lists {listed['count']} tables, not {tables}")
            loads = wrk_rounds(server.pid, url, asked, a.rounds, seconds)
        reads = [read_ms(store, 20 if a.quick else 100) for _ in range(a.rounds)]
    us = server_us(loads)
    base = us["healthz"]
    figures = [
        healthz_figure("lobby", base),
        healthz_ratio(
            "lobby",
            "list",
            f"GET /api/lobby/{KIND} with {tables:,} open tables",
            us,
            target=(">=", 1 / TARGET_TIMES),
        ),
        healthz_ratio("lobby", "page", f"the lobby page /{KIND} with {tables:,} open tables", us),
        Figure(
            "lobby.read_ms",
            f"the store's read of {LIST_SIZE} of {tables:,} open tables and their count "
            "(once a second a kind a process)",
            reads,
            "ms",
        ),
    ]
    report("lobby", figures, a, open_tables=tables)


if __name__ == "__main__":
    main()
