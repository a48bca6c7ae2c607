"""A PostgreSQL outage under ``make run``'s settings: what clients are told while the database is
away, and how soon they are served again once it is back.

Starts a throw-away PostgreSQL cluster (``tests/pg_support.py``) and gunicorn on it, then keeps
clients asking (``tests/askers.py``: a game's view and its events, which need the database;
``/healthz`` and an island, which do not), stops the database for ``--outage`` seconds
(``pg_ctl stop -m fast``: every connection cut) and starts it again, ``--rounds`` times.
Figures, one value per round (an outage): answers with status 500 (target 0); the slowest
refusal (503 ``database_unavailable`` with ``Retry-After``, target within 2 s) and how many; the
requests that need no database during the outage (p99, target within 1 s); and the first good
game read after the database's return (target within 3 s). Each round's answers by status and
refusal reason are printed as it ends.

Usage: ``.venv/bin/python bench/outage_bench.py [--outage 6] [--rounds 5] [--quick]``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, parse, parser, quantile, report  # noqa: E402
from tests.askers import Answer, Askers  # noqa: E402
from tests.pg_support import PostgresCluster  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402


def outage_round(
    server: Gunicorn, pg: PostgresCluster, paths: list[str], seconds: float
) -> tuple[list[Answer], float, float]:
    """Clients asking ``paths`` while the database is away for ``seconds``: their answers and
    when the database went and came back."""
    with Askers(server.url, paths) as askers:
        time.sleep(2.0)
        down = time.monotonic()
        pg.pause()
        time.sleep(seconds)
        pg.resume()
        up = time.monotonic()
        time.sleep(5.0)
    return askers.log, down, up


def round_figures(
    log: list[Answer], down: float, up: float, game: str, free: list[str]
) -> dict[str, float]:
    """One round's values: 500s, slowest refusal (s), refusals, no-database p99 (ms), first
    good game read after the return (s)."""
    by_status = Counter(x.status for x in log)
    refused = [x for x in log if x.status == 503]
    during = [x.seconds for x in log if x.path in free and down < x.sent < up]
    good = [x.sent + x.seconds for x in log if x.path == game and x.status == 200 and x.sent > up]
    words = Counter((x.reason, x.retry_after) for x in refused)
    print(
        f"  a round: answers {dict(sorted(by_status.items(), key=str))}; refusals {dict(words)}",
        flush=True,
    )
    return {
        "errors_500": float(by_status.get(500, 0)),
        "refusal_s": max((x.seconds for x in refused), default=0.0),
        "refusals": float(len(refused)),
        "free_p99_ms": quantile(during, 0.99) * 1000,
        "first_read_s": (min(good) - up) if good else float("inf"),
    }


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--outage", type=float, default=6.0, help="seconds the database is away")
    a = parse(ap)
    if a.quick:
        a.outage = 2.0
    print(
        f"PostgreSQL away for {a.outage:g} s, {a.rounds} times; gunicorn as make run starts it;"
        f" {os.cpu_count()} CPUs shared with the database and the clients"
    )
    rows = []
    with tempfile.TemporaryDirectory(prefix="outage-bench-") as tmp, PostgresCluster() as pg:
        url = pg.new_database()
        with Gunicorn(url, log=Path(tmp) / "gunicorn.log", start_timeout=60) as server:
            body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 3}
            gid = requests.post(server.url + "/api/games", json=body, timeout=10).json()["id"]
            game, events = f"/api/games/{gid}", f"/api/games/{gid}/events?after=0"
            free = ["/healthz", "/api/tobago/islands/classic-1"]
            for _ in range(a.rounds):
                log, down, up = outage_round(server, pg, [game, events, *free], a.outage)
                rows.append(round_figures(log, down, up, game, free))

    def values(name: str) -> list[float]:
        return [r[name] for r in rows]

    figures = [
        Figure(
            "outage.errors_500",
            "answers with status 500, per outage",
            values("errors_500"),
            "",
            ("<=", 0.0),
        ),
        Figure(
            "outage.refusal_s",
            "the slowest 503 database_unavailable",
            values("refusal_s"),
            "s",
            ("<=", 2.0),
            note="0: none that round",
        ),
        Figure(
            "outage.refusals",
            "503 database_unavailable answers, per outage",
            values("refusals"),
            "",
            note="each with Retry-After",
        ),
        Figure(
            "outage.free_p99_ms",
            "requests needing no database, during the outage: p99",
            values("free_p99_ms"),
            "ms",
            ("<=", 1000.0),
            note="/healthz, an island",
        ),
        Figure(
            "outage.first_read_s",
            "first good game read after the database's return",
            values("first_read_s"),
            "s",
            ("<=", 3.0),
        ),
    ]
    report("outage", figures, a, outage_s=a.outage)


if __name__ == "__main__":
    main()
