"""Stalled clients against an unrelated request's latency, under ``make run``'s settings.

Starts gunicorn twice on loopback with 2 workers: once with plain ``gthread`` and 8 threads
(the baseline: what ``make run`` served before it used an event loop) and once with
``gunicorn.conf.py`` (gunicorn's gevent worker, as ``make run``). For each kind of stalled client and each count,
it opens that many sockets, then times ``GET /api/games/kinds`` on a fresh connection (a request
unanswered within ``--timeout`` seconds counts as unanswered) and prints p50, max and the count
unanswered. Kinds:

- ``upload``: ``Content-Length: 1000`` and then only ``{}``;
- ``headers``: a request line and half a header, never finished;
- ``silent``: connected, nothing sent;
- ``no-close``: asked with ``Connection: close``, read the answer, never closed.

Target: with 20 stalled sockets of any kind, an unrelated request answers within 1 s.
Usage: ``.venv/bin/python bench/slowclient_bench.py [--counts 16,20] [--tries 6]``.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def measure(port: int, kind: str, count: int, tries: int, timeout: float) -> str:
    socks = [open_stalled(port, kind) for _ in range(count)]
    try:
        time.sleep(0.3)
        times: list[float] = []
        missed = 0
        for _ in range(tries):
            t = unrelated(port, timeout)
            if t is None:
                missed += 1
                if missed >= 2:  # the pool is blocked: the rest would wait as long
                    missed = tries - len(times)
                    break
            else:
                times.append(t)
    finally:
        for s in socks:
            s.close()
    time.sleep(0.5)  # the baseline's threads see the closes and come free
    if not times:
        return f"{'-':>8} {'-':>8} {missed:>3}/{tries}"
    p50 = statistics.median(times) * 1000
    return f"{p50:8.1f} {max(times) * 1000:8.1f} {missed:>3}/{tries}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--counts", default="16,20")
    ap.add_argument("--tries", type=int, default=6)
    ap.add_argument("--timeout", type=float, default=2.0, help="seconds before unanswered")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=8)
    a = ap.parse_args()
    counts = [int(c) for c in a.counts.split(",")]
    print(
        f"gunicorn {a.workers} workers (gthread: x {a.threads} threads) on 127.0.0.1; unrelated request "
        f"GET /api/games/kinds, {a.tries} tries, unanswered after {a.timeout:g} s; "
        f"{os.cpu_count()} CPUs shared with the clients"
    )
    print(f"{'worker':<10} {'stalled':<9} {'n':>3} {'p50 ms':>8} {'max ms':>8} unanswered")
    with tempfile.TemporaryDirectory(prefix="slowclient-bench-") as tmp:
        baseline = Path(tmp) / "gthread.conf.py"
        baseline.write_text('worker_class = "gthread"\n')
        for label, config in (("gthread", baseline), ("gevent", CONFIG)):
            server = Gunicorn(
                Path(tmp) / f"{label}.sqlite3",
                workers=a.workers,
                threads=a.threads,
                start_timeout=60,
                config=config,
            )
            with server:
                print(
                    f"{label:<10} {'none':<9} {0:>3} {measure(server.port, 'silent', 0, a.tries, a.timeout)}"
                )
                for kind in KINDS:
                    for n in counts:
                        row = measure(server.port, kind, n, a.tries, a.timeout)
                        print(f"{label:<10} {kind:<9} {n:>3} {row}", flush=True)


if __name__ == "__main__":
    main()
