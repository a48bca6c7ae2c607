"""Memory of one gunicorn worker under many distinct islands (issue 14: bounded caches).

A real gunicorn worker (gevent, 1 worker, as ``make run`` starts each worker)
is sent distinct solve requests, each naming an island never asked before
(``{"island": {"generated": N}}``, ``N`` = 1, 2, 3, …, a short column and a hand), from 4
keep-alive client threads. Every island is generated, compiled and answered once, so every cache
on the way (the catalog's islands, the compiled islands, the answer memos) fills to its bound.

Printed, all measured in this run:

- the worker's resident memory (RSS, from ``/proc``) after start-up and a warm-up request: the
  baseline;
- its peak resident memory (``VmHWM``) after every ``--step`` requests, and at the end
  (target: under 250 MB at 6,600 requests);
- the requests per second of the whole run (generation dominates: a new island each time).

Usage: ``.venv/bin/python bench/memory_bench.py [--requests 6600] [--threads 4]``
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Gunicorn, worker_pids  # noqa: E402

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


def body(seed: int) -> bytes:
    return json.dumps(
        {
            "island": {"generated": seed},
            "maps": [{"id": "white", "clues": ["!in:mountain", "near2:sea"]}],
            "hand": HAND,
        }
    ).encode()


def send(port: int, seeds: list[int], threads: int) -> int:
    """Send one request per seed over ``threads`` keep-alive connections; how many answered."""
    ticket = itertools.count()
    done = [0] * threads
    errors: list[str] = []

    def run(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Content-Type": "application/json"}
        try:
            while True:
                i = next(ticket)
                if i >= len(seeds):
                    return
                conn.request("POST", "/api/tobago/solve", body=body(seeds[i]), headers=headers)
                resp = conn.getresponse()
                resp.read()
                if resp.status != 200:
                    errors.append(f"seed {seeds[i]}: {resp.status}")
                    return
                done[k] += 1
        finally:
            conn.close()

    pool = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    if errors:
        raise RuntimeError(f"request failed: {errors[0]}")
    return sum(done)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=6600, help="distinct islands asked")
    ap.add_argument("--step", type=int, default=1100, help="print the peak every STEP requests")
    ap.add_argument("--threads", type=int, default=4, help="client threads (keep-alive)")
    args = ap.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        Gunicorn(os.path.join(tmp, "bench.sqlite3"), workers=1, threads=8) as server,
    ):
        (pid,) = worker_pids(server.pid)
        send(server.port, [0], 1)  # warm-up: imports, the first island
        rss0, _ = memory_mb(pid)
        print("one gunicorn worker (gevent), distinct {'generated': N} solve requests")
        print(f"  after start-up and one request : RSS {rss0:6.1f} MB   (baseline)")
        t0 = time.perf_counter()
        sent = 0
        peak = rss0
        while sent < args.requests:
            n = min(args.step, args.requests - sent)
            send(server.port, list(range(sent + 1, sent + 1 + n)), args.threads)
            sent += n
            rss, peak = memory_mb(pid)
            print(
                f"  after {sent:5d} islands           : RSS {rss:6.1f} MB, peak {peak:6.1f} MB"
                f"   (+{peak - rss0:.1f} MB over the baseline)"
            )
        elapsed = time.perf_counter() - t0
        verdict = "meets" if peak < TARGET_MB else "misses"
        print(
            f"  peak RSS {peak:.1f} MB after {sent} distinct islands: {verdict} the "
            f"{TARGET_MB:.0f} MB target; {sent / elapsed:.0f} req/s over the run"
        )


if __name__ == "__main__":
    main()
