"""Stalled clients against an unrelated request's latency, under ``make run``'s settings.

Starts gunicorn twice on loopback with ``make run``'s defaults (2 workers x 8 threads): once with
plain ``gthread`` (the baseline: what ``make run`` served before ``gunicorn_worker.py``) and once
with ``gunicorn.conf.py`` (whatever worker it names). In each of ``--rounds`` interleaved
rounds, for each server and each kind of stalled client, it opens ``--count`` such sockets, then
times ``--tries`` requests ``GET /api/games/kinds`` on a fresh connection each (a request
unanswered within ``--timeout`` seconds counts as unanswered). Figures: the unrelated request's
worst latency per kind on ``make run``'s server (target < 1 s) and how many went unanswered on
each server. Kinds:

- ``upload``: ``Content-Length: 1000`` and then only ``{}``;
- ``headers``: a request line and half a header, never finished;
- ``silent``: connected, nothing sent;
- ``no-close``: asked with ``Connection: close``, read the answer, never closed.

Usage: ``.venv/bin/python bench/slowclient_bench.py [--count 20] [--tries 2] [--rounds 5]
[--quick]``.
"""

from __future__ import annotations

import http.client
import os
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, parse, parser, report  # noqa: E402
from tests.servers import CONFIG, Gunicorn  # noqa: E402

KINDS = ("upload", "headers", "silent", "no-close")


def open_stalled(port: int, kind: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    if kind == "upload":
        s.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{}"
        )
    elif kind == "headers":
        s.sendall(b"GET /api/games/kinds HTTP/1.1\r\nHo")
    elif kind == "no-close":
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: b\r\nConnection: close\r\n\r\n")
        s.recv(65536)
    return s


def unrelated(port: int, timeout: float) -> float | None:
    """Seconds ``GET /api/games/kinds`` takes on a new connection; None if unanswered."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/api/games/kinds")
        resp = conn.getresponse()
        resp.read()
        if resp.status != 200:
            return None
    except OSError:
        return None
    finally:
        conn.close()
    return time.perf_counter() - start


def measure(port: int, kind: str, count: int, tries: int, timeout: float) -> tuple[float, int]:
    """With ``count`` stalled sockets of ``kind`` open: the worst of ``tries`` unrelated
    requests (ms; ``timeout`` for an unanswered one) and how many went unanswered."""
    socks = [open_stalled(port, kind) for _ in range(count)]
    try:
        time.sleep(0.3)
        times: list[float] = []
        missed = 0
        for _ in range(tries):
            t = unrelated(port, timeout)
            if t is None:
                missed = tries - len(times)  # the pool is blocked: the rest would wait as long
                break
            times.append(t)
    finally:
        for s in socks:
            s.close()
    time.sleep(0.5)  # the baseline's threads see the closes and come free
    worst = timeout if missed else max(times)
    return worst * 1000, missed


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--count", type=int, default=20, help="stalled sockets of each kind")
    ap.add_argument("--tries", type=int, default=2, help="unrelated requests per kind and round")
    ap.add_argument("--timeout", type=float, default=2.0, help="seconds before unanswered")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=8)
    a = parse(ap)
    if a.quick:
        a.tries, a.timeout = 1, 1.0
    print(
        f"gunicorn {a.workers} workers x {a.threads} threads on 127.0.0.1; unrelated request "
        f"GET /api/games/kinds, {a.tries} tries per kind and round, unanswered after "
        f"{a.timeout:g} s; {a.count} stalled sockets; {os.cpu_count()} CPUs shared"
    )
    worst: dict[tuple[str, str], list[float]] = {}
    missed: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="slowclient-bench-") as tmp:
        baseline = Path(tmp) / "gthread.conf.py"
        baseline.write_text('worker_class = "gthread"\n')
        servers = {
            label: Gunicorn(
                Path(tmp) / f"{label}.sqlite3",
                workers=a.workers,
                threads=a.threads,
                start_timeout=60,
                config=config,
            ).start()
            for label, config in (("gthread", baseline), ("make_run", CONFIG))
        }
        try:
            for _ in range(a.rounds):
                for label, server in servers.items():
                    for kind in KINDS:
                        ms, n = measure(server.port, kind, a.count, a.tries, a.timeout)
                        worst.setdefault((label, kind), []).append(ms)
                        missed.setdefault((label, kind), []).append(n)
        finally:
            for server in servers.values():
                server.stop()
    figures = []
    for kind in KINDS:
        figures.append(
            Figure(
                f"slowclient.{kind.replace('-', '_')}_worst_ms",
                f"{a.count} stalled ({kind}): unrelated GET, worst (make run)",
                worst[("make_run", kind)],
                "ms",
                ("<=", 1000.0),
                note=f"{sum(missed[('make_run', kind)]):.0f} unanswered",
            )
        )
    for kind in KINDS:
        figures.append(
            Figure(
                f"slowclient.gthread_{kind.replace('-', '_')}_unanswered",
                f"{a.count} stalled ({kind}): unanswered per round, plain gthread",
                missed[("gthread", kind)],
                f"of {a.tries}",
                note="the baseline: make run's server before its own worker",
            )
        )
    report("slowclient", figures, a, workers=a.workers, threads=a.threads, count=a.count)


if __name__ == "__main__":
    main()
