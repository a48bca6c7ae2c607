"""One greedy client's burst of streams against another client's reads (issue 44, item 4).

Starts gunicorn on loopback as ``make run`` does (``gunicorn.conf.py``, ``--workers`` 2, the
default caps: one client holds at most 1,250 open streams and 2,500 connections per worker,
``web.client_limits``; a connection's request waited for 60 s, not 10, so that a greedy client
slowed down by a loaded machine is still answered, ``main``). Two clients, each a loopback address of its own: the greedy one
(``127.0.0.2``) and another (``127.0.0.3``) that reads a game, ``GET /api/games/<id>`` every
``--every`` seconds on one kept-alive connection (as a browser's page does) and, at the same
time from another thread, on a fresh connection each time. The greedy client is a process of
its own (started before the phase it bursts in), so that its loop never holds up the measuring
threads. In each of ``--rounds`` rounds:

- **quiet**: the other client's reads alone, ``--seconds`` long (the baseline);
- **burst**: the greedy client opens ``--burst`` (6,000) streams at once (one asyncio loop,
  raw sockets), keeps those the server holds for ``--seconds`` and drops the refused ones (429
  in words), while the other client reads; holding them, it asks for ``--refusals`` (2,000)
  more streams at once, all refused (the **refusal phase**);
- **release**: the greedy client, holding its share in every worker, drops one stream and asks
  for a new one until one is held (a new connection lands on either worker): how soon a
  dropped stream's place comes back (item 5: the server watches each stream's socket).

Figures: the other client's GET p99 during the burst (target <= 100 ms) on its kept-alive
connection and on fresh connections, the same in quiet, the streams the greedy client got, the
release time, and the server's CPU per refused stream (all its processes' CPU from ``/proc``
during the refusal phase, the other client's reads paused meanwhile, over the streams refused):
on a shared machine the latencies are noisy, the CPU is what compares reliably.

Usage: ``.venv/bin/python bench/greedy_client_bench.py [--burst 6000] [--refusals 2000]
[--seconds 3] [--rounds 5] [--quick]``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import math
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, parse, parser, report  # noqa: E402
from bench.live_bench import raise_open_files_limit  # noqa: E402
from tests.servers import Gunicorn, server_cpu_seconds  # noqa: E402

HOST = "127.0.0.1"
#: What a burst gives: the statuses of its streams' answers (0: none), a dropped stream's place
#: back after (ms), how long the burst took (s), and the streams refused in the refusal phase.
Burst = tuple[Counter[int], float, float, int]
#: What the server's CPU did in a burst's refusal phase: CPU seconds, wall seconds.
Phase = tuple[float, float]
#: How long the greedy client waits for an answer's head: long, so that a loaded machine's slow
#: answers count as what they are (held or refused), not as the client's impatience.
HEAD_WAIT_S = 120.0
GREEDY, OTHER = "127.0.0.2", "127.0.0.3"
#: Set while the greedy client's refusal phase is measured: the other client's reads pause.
PAUSED = threading.Event()
#: Why the greedy client's streams got no answer (an error's name and number: a count each).
FAILURES: Counter[str] = Counter()
T = TypeVar("T")


def p99(times: list[float]) -> float:
    """The 99th percentile of ``times`` in ms (the worst when fewer than 100)."""
    if len(times) < 100:
        return max(times) * 1000
    return statistics.quantiles(times, n=100)[98] * 1000


class Reader(threading.Thread):
    """The other client: reads ``path`` every ``every`` seconds until stopped, on one kept-alive
    connection (``fresh``: a new connection each time); ``times`` in seconds (``timeout``
    for one unanswered)."""

    def __init__(self, port: int, path: str, every: float, fresh: bool) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.every, self.fresh = port, path, every, fresh
        self.times: list[float] = []
        self.failed = 0
        self.stop = threading.Event()

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(HOST, self.port, timeout=5, source_address=(OTHER, 0))

    def run(self) -> None:
        conn = self._connect()
        while not self.stop.is_set():
            if PAUSED.is_set():
                self.stop.wait(0.005)
                continue
            start = time.perf_counter()
            try:
                if self.fresh:
                    conn = self._connect()
                conn.request("GET", self.path)
                resp = conn.getresponse()
                resp.read()
                if resp.status != 200:
                    self.failed += 1
            except OSError:
                self.failed += 1
                conn.close()
                conn = self._connect()
            self.times.append(time.perf_counter() - start)
            if self.fresh:
                conn.close()
            self.stop.wait(max(0.0, self.every - (time.perf_counter() - start)))
        conn.close()


async def open_stream(port: int, gid: str) -> tuple[int, asyncio.StreamWriter | None]:
    """A stream from the greedy client: its status, and its writer when the server holds it."""
    try:
        reader, writer = await asyncio.open_connection(HOST, port, local_addr=(GREEDY, 0))
        writer.write(f"GET /api/games/{gid}/stream HTTP/1.1\r\nHost: b\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_WAIT_S)
    except (OSError, asyncio.IncompleteReadError, TimeoutError) as e:
        FAILURES[type(e).__name__ + (f" {e.errno}" if isinstance(e, OSError) else "")] += 1
        return 0, None
    status = int(head.split(b" ", 2)[1])
    if status == 200:
        return status, writer
    writer.close()
    return status, None


async def burst(
    port: int, gid: str, count: int, seconds: float, refusals: int, mark: Callable[[str], None]
) -> Burst:
    """Open ``count`` streams at once, hold the held ones ``seconds``; meanwhile, holding
    them, ask for ``refusals`` more (all refused: the refusal phase, its start and end told by
    ``mark``); the statuses, how long a dropped one's place took to come back (ms), how long
    the burst took (s) and the refusal phase's refused streams."""
    start = time.perf_counter()
    got = await asyncio.gather(*(open_stream(port, gid) for _ in range(count)))
    took = time.perf_counter() - start
    statuses = Counter(status for status, _ in got)
    held = [w for _, w in got if w is not None]
    mark("refusals")
    more = await asyncio.gather(*(open_stream(port, gid) for _ in range(refusals)))
    mark("refused")
    held += [w for _, w in more if w is not None]
    refused = sum(status == 429 for status, _ in more)
    await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - start - took)))
    released = float("nan")
    if held:
        held.pop().close()
        start = time.perf_counter()
        while time.perf_counter() - start < 30:
            status, writer = await open_stream(port, gid)
            if writer is not None:
                released = (time.perf_counter() - start) * 1000
                held.append(writer)
                break
    for w in held:
        w.close()
    await asyncio.sleep(0.5)
    if FAILURES:
        print(f"  (the greedy client's unanswered: {dict(FAILURES)})", flush=True)
    return statuses, released, took, refused


def greedy(
    port: int, gid: str, count: int, seconds: float, refusals: int, pipe: Connection
) -> None:
    """The greedy client, a process of its own (so that its loop never holds up the other
    client's measuring thread): says it is ready, bursts when told, and sends the refusal
    phase's marks and ``burst``'s results."""
    raise_open_files_limit()

    def mark(phase: str) -> None:  # told, and answered once the server's CPU is read
        pipe.send(phase)
        pipe.recv()

    pipe.send("ready")
    pipe.recv()
    pipe.send(asyncio.run(burst(port, gid, count, seconds, refusals, mark)))


class GreedyProcess:
    """``greedy`` in a process of its own, started (and its interpreter loaded) before the
    measured phase, so the phase measures the burst, not a Python starting up."""

    def __init__(
        self, port: int, gid: str, count: int, seconds: float, refusals: int, server: int
    ) -> None:
        self.server = server
        ctx = multiprocessing.get_context("spawn")
        self.pipe, theirs = ctx.Pipe()
        self.proc = ctx.Process(target=greedy, args=(port, gid, count, seconds, refusals, theirs))
        self.proc.start()
        assert self.pipe.recv() == "ready"

    def run(self) -> tuple[Burst, Phase]:
        """Burst and wait for the results; the CPU seconds of the server (master pid
        ``server``) during the refusal phase and that phase's wall seconds."""
        self.pipe.send("go")
        marks: dict[str, tuple[float, float]] = {}
        while isinstance(got := self.pipe.recv(), str):
            if got == "refusals":  # the other client's reads pause, theirs in flight end
                PAUSED.set()
                time.sleep(0.2)
            marks[got] = (server_cpu_seconds(self.server), time.perf_counter())
            if got == "refused":
                PAUSED.clear()
            self.pipe.send("ok")
        self.proc.join()
        (cpu0, t0), (cpu1, t1) = marks["refusals"], marks["refused"]
        return got, (cpu1 - cpu0, t1 - t0)


def measured(
    port: int, path: str, every: float, work: Callable[[], T]
) -> tuple[float, float, int, T]:
    """The other client's p99 (ms) kept-alive and fresh while ``work()`` runs; unanswered."""
    readers = [Reader(port, path, every, fresh) for fresh in (False, True)]
    for r in readers:
        r.start()
    result = work()
    for r in readers:
        r.stop.set()
        r.join()
    failed = sum(r.failed for r in readers)
    return p99(readers[0].times), p99(readers[1].times), failed, result


def new_game(port: int) -> str:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    body = '{"game": "dao", "seats": [{"type": "human"}, {"type": "human"}], "seed": 1}'
    conn.request("POST", "/api/games", body, {"Content-Type": "application/json"})
    resp = conn.getresponse()
    gid = json.loads(resp.read())["id"]
    conn.close()
    return gid


def run_rounds(a: argparse.Namespace, server: Gunicorn) -> dict[str, list[float]]:
    gid = new_game(server.port)
    path = f"/api/games/{gid}"
    rows: dict[str, list[float]] = {}
    for _ in range(a.rounds):
        kept, fresh, failed, _ = measured(server.port, path, a.every, lambda: time.sleep(a.seconds))
        rows.setdefault("quiet_kept", []).append(kept)
        rows.setdefault("quiet_fresh", []).append(fresh)
        greedy_client = GreedyProcess(server.port, gid, a.burst, a.seconds, a.refusals, server.pid)
        kept, fresh, failed, (result, (phase_cpu, phase_s)) = measured(
            server.port, path, a.every, greedy_client.run
        )
        statuses, released, took, refused = result
        # the refusal phase's server CPU (the other client's reads paused), per refused stream
        per_refused = phase_cpu / max(1, refused) * 1e6
        if refused >= a.refusals / 2:  # (else the phase measured something else: unanswered)
            rows.setdefault("cpu_per_refused", []).append(per_refused)
        rows.setdefault("burst_kept", []).append(kept)
        rows.setdefault("burst_fresh", []).append(fresh)
        rows.setdefault("unanswered", []).append(failed)
        rows.setdefault("held", []).append(statuses[200])
        rows.setdefault("refused", []).append(statuses[429])
        rows.setdefault("released", []).append(released)
        print(
            f"burst of {a.burst:,} ({took:.1f} s): {dict(statuses)}; other client's GET p99 {kept:.1f} ms "
            f"kept-alive, {fresh:.1f} ms fresh ({failed} unanswered); a dropped stream's "
            f"place back after {released:.1f} ms; then {refused:,} of {a.refusals:,} more "
            f"refused in {phase_s:.1f} s, server CPU {phase_cpu:.2f} s: {per_refused:.0f} µs "
            "per refused stream",
            flush=True,
        )
    return rows


def cpu_figure(a: argparse.Namespace, values: list[float]) -> Figure:
    """The server's CPU per refused stream: a value per round, or, when some rounds' refusal
    phases went unanswered (a starved greedy client on a loaded machine), the median of the
    others as one value."""
    note = "from /proc, the other's reads paused: steadier than latencies on a shared machine"
    if len(values) != a.rounds:
        note += f"; {len(values)} of {a.rounds} rounds' refusal phases refused, their median"
        values = [statistics.median(values)] if values else [math.nan]
    label = f"server CPU per refused stream ({a.refusals:,} asked at the cap)"
    return Figure("greedy_client.cpu_per_refused_us", label, values, "µs", note=note)


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--burst", type=int, default=6000, help="the greedy client's streams")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds each phase lasts")
    ap.add_argument("--every", type=float, default=0.02, help="seconds between the reads")
    ap.add_argument(
        "--refusals", type=int, default=2000, help="streams asked for while holding the cap"
    )
    ap.add_argument("--workers", type=int, default=2)
    a = parse(ap)
    if a.quick:
        a.burst, a.seconds, a.refusals = 300, 0.5, 100
    limit = raise_open_files_limit()
    # A greedy client slowed down by a loaded machine may take longer than the 10 s a
    # connection's request is waited for (``TOBAGO_IDLE_TIMEOUT_S``): its streams would end
    # unanswered, measuring the client. The quick run's cap is small, to be reached.
    env = {"TOBAGO_IDLE_TIMEOUT_S": "60"}
    if a.quick:
        env["TOBAGO_CLIENT_STREAMS"] = "100"
    print(
        f"gunicorn {a.workers} workers (make run's settings) on {HOST}; greedy client "
        f"{GREEDY}: {a.burst:,} streams at once; other client {OTHER}: GET a game every "
        f"{a.every * 1000:g} ms; {os.cpu_count()} CPUs shared; {limit} open files"
    )
    with (
        tempfile.TemporaryDirectory(prefix="greedy-bench-") as tmp,
        Gunicorn(
            Path(tmp) / "games.sqlite3", workers=a.workers, start_timeout=60, env=env
        ) as server,
    ):
        rows = run_rounds(a, server)
    figures = [
        Figure(
            "greedy_client.other_get_p99_ms",
            f"{a.burst:,} streams from one client: another's GET p99 (kept-alive)",
            rows["burst_kept"],
            "ms",
            ("<=", 100.0),
            note=f"{sum(rows['unanswered']):.0f} unanswered",
        ),
        Figure(
            "greedy_client.other_fresh_get_p99_ms",
            f"{a.burst:,} streams from one client: another's GET p99 (new connection)",
            rows["burst_fresh"],
            "ms",
            ("<=", 100.0),
        ),
        Figure(
            "greedy_client.quiet_get_p99_ms",
            "no burst: the other client's GET p99 (kept-alive)",
            rows["quiet_kept"],
            "ms",
            note="the baseline",
        ),
        Figure(
            "greedy_client.quiet_fresh_get_p99_ms",
            "no burst: the other client's GET p99 (new connection)",
            rows["quiet_fresh"],
            "ms",
            note="the baseline",
        ),
        Figure(
            "greedy_client.streams_held",
            f"streams of the {a.burst:,} the server held",
            rows["held"],
            "streams",
            ("<=", (100.0 if a.quick else 1250.0) * a.workers),
            note=f"the rest refused 429 (median {statistics.median(rows['refused']):.0f})",
        ),
        cpu_figure(a, rows.get("cpu_per_refused", [])),
        Figure(
            "greedy_client.release_ms",
            "a dropped stream's place back after",
            rows["released"],
            "ms",
            ("<=", 15000.0),
            note="within one heartbeat (15 s) is the target",
        ),
    ]
    report("greedy_client", figures, a, workers=a.workers, burst=a.burst)


if __name__ == "__main__":
    main()
