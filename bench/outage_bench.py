"""A PostgreSQL outage under ``make run``'s settings: what clients are told while the database is
away, and how soon they are served again once it is back.

Starts a throw-away PostgreSQL cluster (``tests/pg_support.py``) and gunicorn on it, then keeps
clients asking (``tests/askers.py``: a game's view and its events, which need the database;
``/healthz`` and an island, which do not), stops the database for ``--outage`` seconds
(``pg_ctl stop -m fast``: every connection cut) and starts it again, ``--rounds`` times.
Printed per round: answers by status (target: 0 with status 500); how long the refusals took
(503 ``database_unavailable``, target: within 2 s) and their ``Retry-After``; the requests
that need no database meanwhile (p99); and the first good game read after the database's
return (target: within 3 s).

Usage: ``.venv/bin/python bench/outage_bench.py [--outage 6] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.askers import Askers  # noqa: E402
from tests.pg_support import PostgresCluster  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--outage", type=float, default=6.0, help="seconds the database is away")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    print(
        f"PostgreSQL away for {a.outage:g} s, {a.rounds} times; gunicorn as make run starts it;"
        f" {os.cpu_count()} CPUs shared with the database and the clients"
    )
    with tempfile.TemporaryDirectory(prefix="outage-bench-") as tmp, PostgresCluster() as pg:
        url = pg.new_database()
        with Gunicorn(url, log=Path(tmp) / "gunicorn.log", start_timeout=60) as server:
            body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 3}
            gid = requests.post(server.url + "/api/games", json=body, timeout=10).json()["id"]
            game, events = f"/api/games/{gid}", f"/api/games/{gid}/events?after=0"
            free = ["/healthz", "/api/tobago/islands/classic-1"]
            for r in range(a.rounds):
                with Askers(server.url, [game, events, *free]) as askers:
                    time.sleep(2.0)
                    down = time.monotonic()
                    pg.pause()
                    time.sleep(a.outage)
                    pg.resume()
                    up = time.monotonic()
                    time.sleep(5.0)
                log = askers.log
                by_status = Counter(x.status for x in log)
                refused = [x for x in log if x.status == 503]
                words = Counter((x.reason, x.retry_after) for x in refused)
                during = [x.seconds for x in log if x.path in free and down < x.sent < up]
                good = [
                    x.sent + x.seconds
                    for x in log
                    if x.path == game and x.status == 200 and x.sent > up
                ]
                first = min(good) - up if good else float("nan")
                slowest = max((x.seconds for x in refused), default=float("nan"))
                print(
                    f"round {r + 1}: answers {dict(sorted(by_status.items(), key=str))};"
                    f" 500s: {by_status.get(500, 0)}; refusals {dict(words)} within"
                    f" {slowest:.2f} s at most; no-database requests during the outage: p99"
                    f" {p99(during) * 1000:.1f} ms ({len(during)}); first good game read"
                    f" {first:.2f} s after the database's return"
                )


if __name__ == "__main__":
    main()
