"""Load on a server over loopback, measured by the server's CPU time per request.

The primary figure of every HTTP bench is the CPU time the server's workers spend per request
(the user + system time of all its processes from ``/proc`` around a load,
``tests.servers.server_cpu_seconds``: the HTTP workers and the table's processes, where a move's
bot reply is computed; whatever else the machine runs does not change it much), as a ratio to ``GET /healthz``
measured in the same round. Throughput is printed beside it, from a load generator that is not
the bottleneck: Debian's ``wrk`` (one thread, keep-alive connections, written in C) for requests
whose bodies are known in advance; its own CPU per request is measured too.

- ``Request``: a method, a path, headers and a body.
- ``wrk_path()``: where ``wrk`` is, or ``SystemExit`` saying how to install it (``make wrk``:
  ``apt-get install -y wrk``).
- ``wrk_load(url, requests, seconds, connections)``: wrk cycling through ``requests`` (each
  connection sends the next one in the list) for ``seconds`` (whole seconds), as a ``Load``;
- ``once_load(url, requests, connections)``: each request sent once, from this process's
  threads (wrk cannot stop before its duration ends): for a list that must not repeat, such as
  positions never asked before;
- ``measured(master, run)``: a load with the server's CPU time around it (``Load.server_s``);
- ``cpu_rounds(master, rounds, loads)``: several named loads, each ``measured``, in interleaved
  rounds; ``wrk_rounds(master, url, asked, rounds, seconds)``: the same for wrk loads, each
  answered once first.
"""

from __future__ import annotations

import argparse
import functools
import http.client
import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import requests

from bench.common import Figure, interleaved, parse, parser, ratio
from tests.servers import server_cpu_seconds

WRK_HELP = "this bench needs Debian's wrk: make wrk (apt-get install -y wrk)"


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Load:
    """What one load did: ``requests`` answered (``errors`` of them not 2xx/3xx or failed) in
    ``seconds``; latency percentiles in ms; CPU seconds of the client and of the server."""

    requests: int
    errors: int
    seconds: float
    p99_ms: float = float("nan")
    max_ms: float = float("nan")
    client_s: float = 0.0
    server_s: float = 0.0
    #: Bytes of the answers' bodies (``once_load`` counts them).
    nbytes: int = 0

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    @property
    def server_us(self) -> float:
        """Server CPU µs per request."""
        return self.server_s / max(self.requests, 1) * 1e6

    @property
    def client_us(self) -> float:
        return self.client_s / max(self.requests, 1) * 1e6


def wrk_path() -> str:
    found = shutil.which("wrk")
    if found is None:
        raise SystemExit(WRK_HELP)
    return found


def load_args(
    doc: str | None, held: str, default: int, quick: int, what: str
) -> tuple[argparse.Namespace, int, int]:
    """The command line of a bench that loads a server holding many rows: ``parser``'s options,
    ``--seconds`` of each load (2; 1 in a quick run) and ``--<held>``, how many it holds
    (``default``; ``quick`` in a quick run; ``what``: its help). Stops at once without wrk.
    Returns the arguments, the seconds of each load and the rows held."""
    ap = parser(doc)
    ap.add_argument("--seconds", type=int, default=2, help="seconds of each load")
    ap.add_argument(f"--{held}", type=int, default=default, help=what)
    args = parse(ap)
    wrk_path()
    return args, 1 if args.quick else args.seconds, quick if args.quick else getattr(args, held)


def _lua_string(data: bytes) -> str:
    """``data`` as a Lua long string literal (the level chosen so the text cannot close it)."""
    text = data.decode()
    level = 0
    while f"]{'=' * level}]" in text:
        level += 1
    eq = "=" * level
    return f"[{eq}[{text}]{eq}]"


def _lua_script(requests: list[Request]) -> str:
    """A wrk script sending ``requests`` in turn and printing a JSON summary when done."""
    lines = ["local reqs = {"]
    for r in requests:
        headers = ", ".join(
            f"[ {_lua_string(k.encode())} ] = {_lua_string(v.encode())}"
            for k, v in r.headers.items()
        )
        body = _lua_string(r.body) if r.body else "nil"
        path = _lua_string(r.path.encode())
        lines.append(f'  wrk.format("{r.method}", {path}, {{{headers}}}, {body}),')
    lines += [
        "}",
        "local i = 0",
        "request = function()",
        "  i = i % #reqs + 1",
        "  return reqs[i]",
        "end",
        "done = function(summary, latency, requests)",
        "  local e = summary.errors",
        '  io.write(string.format(\'BENCH {"requests": %d, "us": %d, "errors": %d,'
        ' "p99_us": %d, "max_us": %d}\\n\', summary.requests,'
        " summary.duration, e.connect + e.read + e.write + e.status + e.timeout,"
        " latency:percentile(99), latency.max))",
        "end",
    ]
    return "\n".join(lines) + "\n"


def wrk_load(url: str, requests: list[Request], seconds: int, connections: int = 4) -> Load:
    """``requests`` sent in turn by wrk (one thread, ``connections`` keep-alive connections)
    to ``url`` for ``seconds`` whole seconds."""
    wrk = wrk_path()
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_lua_script(requests))
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(
            [
                wrk,
                "-t1",
                f"-c{connections}",
                f"-d{max(1, round(seconds))}s",
                "-s",
                script.name,
                url,
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        os.unlink(script.name)
    summary = next((ln for ln in out.stdout.splitlines() if ln.startswith("BENCH ")), None)
    if out.returncode != 0 or summary is None:
        raise RuntimeError(f"wrk failed ({out.returncode}): {out.stderr or out.stdout}")
    s = json.loads(summary.removeprefix("BENCH "))
    client = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Load(
        requests=s["requests"],
        errors=s["errors"],
        seconds=s["us"] / 1e6,
        p99_ms=s["p99_us"] / 1000,
        max_ms=s["max_us"] / 1000,
        client_s=client,
    )


def once_load(url: str, requests: list[Request], connections: int = 1) -> Load:
    """Each of ``requests`` sent once, in order, over ``connections`` keep-alive connections
    (one thread each); latencies and this process's CPU as wrk's."""
    parts = urlsplit(url)
    queue = list(reversed(requests))
    lock = threading.Lock()
    latencies: list[float] = []
    errors, received = [0], [0]

    def run() -> None:
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
        try:
            while True:
                with lock:
                    if not queue:
                        return
                    r = queue.pop()
                t0 = time.perf_counter()
                conn.request(r.method, r.path, body=r.body or None, headers=r.headers)
                resp = conn.getresponse()
                size = len(resp.read())
                took = time.perf_counter() - t0
                with lock:
                    latencies.append(took)
                    errors[0] += not 200 <= resp.status < 400
                    received[0] += size
        finally:
            conn.close()

    cpu0, t0 = time.process_time(), time.perf_counter()
    threads = [threading.Thread(target=run) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ms = sorted(x * 1000 for x in latencies)
    return Load(
        requests=len(ms),
        errors=errors[0],
        seconds=time.perf_counter() - t0,
        p99_ms=ms[int(0.99 * (len(ms) - 1))],
        max_ms=ms[-1],
        client_s=time.process_time() - cpu0,
        nbytes=received[0],
    )


#: After a load, the server finishes the requests still in flight before its CPU is read.
SETTLE_S = 0.1


def measured(master: int, run: Callable[[], Load]) -> Load:
    """``run()``'s load with the CPU time the server's processes spent on it."""
    before = server_cpu_seconds(master)
    load = run()
    time.sleep(SETTLE_S)
    load.server_s = server_cpu_seconds(master) - before
    return load


def wrk_rounds(
    master: int,
    url: str,
    asked: dict[str, list[Request]],
    rounds: int,
    seconds: int,
    connections: int = 4,
) -> dict[str, list[Load]]:
    """Each load of ``asked`` (a name → its requests) measured (``measured``: the server's CPU
    time around a ``wrk_load``) in ``rounds`` interleaved rounds, after its first request was
    answered 200 once (which warms it up; another answer is a ``SystemExit`` saying it); the
    loads by name. A load with failed requests is a ``RuntimeError``."""
    for reqs in asked.values():
        r = reqs[0]
        got = requests.request(
            r.method, url + r.path, data=r.body or None, headers=r.headers, timeout=30
        )
        if got.status_code != 200:
            raise SystemExit(f"{r.method} {r.path}: {got.status_code} {got.text[:200]}")
    loads = {
        name: functools.partial(wrk_load, url, reqs, seconds, connections)
        for name, reqs in asked.items()
    }
    return cpu_rounds(master, rounds, loads)


def server_us(loads: Mapping[str, list[Load]]) -> dict[str, list[float]]:
    """The server's CPU µs per request in each round, by the name of the load."""
    return {name: [x.server_us for x in got] for name, got in loads.items()}


def healthz_figure(bench: str, base: list[float]) -> Figure:
    """``<bench>.healthz_us``: the row an HTTP bench's ratios are taken against, printed first."""
    return Figure(f"{bench}.healthz_us", "GET /healthz, server CPU per request", base, "µs")


def healthz_ratio(
    bench: str, name: str, what: str, us: Mapping[str, list[float]], **more: Any
) -> Figure:
    """``<bench>.<name>_ratio``: ``/healthz``'s server CPU per request over the load ``name``'s,
    per round (``us``: ``server_us``; ``what``: the load in words; its median µs in the note;
    ``more``: the figure's ``target``)."""
    return ratio(
        f"{bench}.{name}_ratio",
        f"{what}: /healthz CPU / its CPU",
        us["healthz"],
        us[name],
        note=f"{statistics.median(us[name]):.0f} µs",
        **more,
    )


def cpu_rounds(
    master: int,
    rounds: int,
    loads: Mapping[str, Callable[[], Load]],
    prepare: Mapping[str, Callable[[], None]] | None = None,
) -> dict[str, list[Load]]:
    """Every load once per round, in turn, each with the server's CPU around it (and its
    ``prepare`` before it, outside the measure)."""
    out: dict[str, list[Load]] = {name: [] for name in loads}

    def run(name: str) -> float:
        if prepare and name in prepare:
            prepare[name]()
        got = measured(master, loads[name])
        if got.errors:
            raise RuntimeError(f"{name}: {got.errors} requests failed")
        out[name].append(got)
        return got.server_us

    interleaved(rounds, {name: functools.partial(run, name) for name in loads})
    return out
