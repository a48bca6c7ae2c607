"""Live tables at scale: thousands of open game pages following their games by Server-Sent
Events, on ``make run``'s settings (gunicorn, gevent, 2 workers and the table's process).

For each count of open pages (``--streams``, default 1,000 / 5,000 / 10,000) a fresh server
(``--database sqlite``) or two servers on one PostgreSQL (``--database postgres``: the pages
split between A and B, every move sent to A) is started, and one asyncio process opens that many
streams (``GET /api/games/<id>/stream``, raw sockets: ``tests/sse_client.py``) over
``streams / --per-game`` DAO games. Then, for ``--seconds``, moves are made in ``--moving`` of
those games (one every ``--every`` seconds, round-robin, through server A), while a separate
process times an unrelated ``GET /api/games/kinds`` every 50 ms. Printed per count:

- held: streams that connected and were still open at the end (all of them is the target); a
  stream refused while the server is swamped by the opening rush (503) is tried again after 3
  to 6 s, as a game page does (``--retries``), and counted;
- heard: per move, the time from its answer until *every* follower of that game has it, p50 /
  p99 / max (target p99 <= 1 s), and, on PostgreSQL, the same for B's followers alone;
- unrelated GET: p50 / p99 / max (target p99 <= 100 ms);
- RSS of each HTTP worker (target <= 300 MB) with its open connections, and of the table's
  process; the HTTP workers' CPU seconds over the window (from /proc);
- the load generator's own CPU share and its event loop's worst lag (it is not the bottleneck
  while both are small).

It raises its soft limit of open files to the hard limit (a stream is a socket on each side);
the server does the same (``gunicorn.conf.py``). Usage: ``.venv/bin/python bench/live_bench.py
[--streams 1000,5000,10000] [--database sqlite|postgres] [--seconds 20]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Gunicorn, table_pids, worker_pids, workers_cpu_seconds  # noqa: E402
from tests.sse_client import Follower  # noqa: E402

HOST = "127.0.0.1"


def raise_open_files_limit() -> int:
    """The soft ``RLIMIT_NOFILE`` raised to the hard limit (where allowed); the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return soft


async def http(port: int, method: str, path: str, body: Any = None, token: str | None = None):
    """One request on its own connection: (status, JSON body)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n"
    head += f"Content-Length: {len(data)}\r\nContent-Type: application/json\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    raw = await reader.read()
    writer.close()
    top, _, payload = raw.partition(b"\r\n\r\n")
    return int(top.split(b" ", 2)[1]), json.loads(payload) if payload else None


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def sockets(pid: int) -> int:
    n = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            n += os.readlink(fd).startswith("socket:")
    return n


def probe(port: int, seconds: float, out: Any) -> None:
    """In its own process: an unrelated GET every 50 ms for ``seconds``; latencies to ``out``."""
    import http.client

    lat: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.monotonic()
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        try:
            conn.request("GET", "/api/games/kinds")
            resp = conn.getresponse()
            resp.read()
            if resp.status == 200:
                lat.append(time.monotonic() - t0)
        except OSError:
            pass
        finally:
            conn.close()
        time.sleep(0.05)
    out.send(lat)


async def lag_meter(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        t0 = time.monotonic()
        await asyncio.sleep(0.05)
        lags.append(time.monotonic() - t0 - 0.05)


async def run_count(a: argparse.Namespace, ports: list[int], streams: int) -> dict[str, Any]:
    """Open ``streams`` followers, move for ``a.seconds``, measure (the module doc)."""
    n_games = max(a.moving, streams // a.per_game)
    games = []
    for i in range(n_games):
        body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": i}
        status, game = await http(ports[0], "POST", "/api/games", body)
        assert status == 201, game
        games.append((game["id"], [s["token"] for s in game["seats"]]))
    followers: dict[str, list[tuple[int, Follower]]] = {gid: [] for gid, _ in games}
    tasks = []
    opened = time.monotonic()
    for i in range(streams):
        gid = games[i % n_games][0]
        server = (i // n_games) % len(ports)  # a game's followers spread over the servers
        f = Follower(HOST, ports[server], gid, retries=a.retries)
        followers[gid].append((server, f))
        tasks.append(asyncio.create_task(f.run()))
        if i % 200 == 199:
            await asyncio.sleep(0.05)  # a burst the listen backlog takes
    everyone = [f for fs in followers.values() for _, f in fs]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(f.connected.wait() for f in everyone)), 120)
    connected = sum(f.connected.is_set() for f in everyone)
    open_s = time.monotonic() - opened
    refused = Counter(
        f"status {f.status}" if f.status else (f.error or "no answer")[:60]
        for f in everyone
        if not f.connected.is_set()
    )
    retried = sum(f.tries > 1 for f in everyone if f.connected.is_set())

    stop = asyncio.Event()
    lags: list[float] = []
    meter = asyncio.create_task(lag_meter(lags, stop))
    receive, send = mp.Pipe(duplex=False)
    prober = mp.Process(target=probe, args=(ports[0], a.seconds, send))
    cpu0, own0 = sum(workers_cpu_seconds(p) for p in a.masters), time.process_time()
    prober.start()
    moves: list[tuple[str, int, float]] = []
    end = time.monotonic() + a.seconds
    k = 0
    while time.monotonic() < end:
        gid, tokens = games[k % a.moving]
        k += 1
        _, spectator = await http(ports[0], "GET", f"/api/games/{gid}")
        if spectator["over"]:
            continue
        seat = spectator["to_act"][0]
        _, me = await http(ports[0], "GET", f"/api/games/{gid}", token=tokens[seat])
        move = {"version": me["version"], "action": me["legal_actions"][0]}
        status, answer = await http(
            ports[0], "POST", f"/api/games/{gid}/actions", move, tokens[seat]
        )
        if status == 200:
            moves.append((gid, answer["version"], time.monotonic()))
        await asyncio.sleep(a.every)
    heard: list[float] = []
    heard_b: list[float] = []
    missed = 0
    for gid, version, at in moves:
        fs = followers[gid]
        await asyncio.gather(*(f.until(version, 10) for _, f in fs))
        fs = [(s, f) for s, f in fs if f.connected.is_set()]  # (the refused are counted apart)
        if any(version not in f.arrived for _, f in fs):
            missed += 1
            continue
        heard.append(max(f.arrived[version] for _, f in fs) - at)
        on_b = [f.arrived[version] for s, f in fs if s == 1]
        if on_b:
            heard_b.append(max(on_b) - at)
    cpu = sum(workers_cpu_seconds(p) for p in a.masters) - cpu0
    own = time.process_time() - own0
    window = a.seconds
    unrelated = receive.recv()
    prober.join()
    held = sum(f.connected.is_set() and not f.done for f in everyone)
    workers = [(pid, rss_mb(pid), sockets(pid)) for m in a.masters for pid in worker_pids(m)]
    tables = [rss_mb(pid) for m in a.masters for pid in table_pids(m)]
    stop.set()
    await meter
    for f in everyone:
        f.close()
    await asyncio.gather(*tasks)
    return {
        "streams": streams,
        "games": n_games,
        "connected": connected,
        "refused": refused,
        "retried": retried,
        "held": held,
        "open_s": open_s,
        "moves": len(moves),
        "missed": missed,
        "heard": heard,
        "heard_b": heard_b,
        "unrelated": unrelated,
        "workers": workers,
        "tables": tables,
        "cpu": cpu,
        "own": own,
        "window": window,
        "lag": max(lags) if lags else 0.0,
    }


def report(r: dict[str, Any], postgres: bool) -> None:
    h, u = r["heard"], r["unrelated"]
    ms = 1000
    print(
        f"\n{r['streams']:,} streams over {r['games']} games: {r['connected']:,} connected in"
        f" {r['open_s']:.1f} s ({r['retried']:,} after a refusal, tried again as a page does),"
        f" {r['held']:,} held to the end"
        + (f"; not connected: {dict(r['refused'])}" if r["refused"] else "")
    )
    print(
        f"  a move heard by every follower: p50 {pct(h, 0.5) * ms:.0f} ms, p99"
        f" {pct(h, 0.99) * ms:.0f} ms, max {max(h, default=float('nan')) * ms:.0f} ms"
        f" ({len(h)} moves, {r['missed']} not heard by all within 10 s)"
    )
    if postgres:
        b = r["heard_b"]
        print(
            f"  ... by every follower on server B (moves sent to A): p50 {pct(b, 0.5) * ms:.0f}"
            f" ms, p99 {pct(b, 0.99) * ms:.0f} ms"
        )
    print(
        f"  unrelated GET /api/games/kinds: p50 {pct(u, 0.5) * ms:.1f} ms, p99"
        f" {pct(u, 0.99) * ms:.1f} ms, max {max(u, default=float('nan')) * ms:.1f} ms ({len(u)})"
    )
    for pid, rss, socks in r["workers"]:
        print(f"  HTTP worker {pid}: RSS {rss:.0f} MB, {socks:,} sockets")
    for rss in r["tables"]:
        print(f"  table process: RSS {rss:.0f} MB")
    print(
        f"  HTTP workers' CPU {r['cpu']:.1f} s in {r['window']:g} s; load generator CPU"
        f" {r['own'] / r['window']:.0%} of one core, its loop's worst lag {r['lag'] * ms:.0f} ms"
    )


@contextlib.contextmanager
def servers(database: str, tmp: str, count: int, n: int) -> Iterator[list[Gunicorn]]:
    started = []
    try:
        for name in "ab"[:count]:
            log = Path(tmp) / f"gunicorn-{n}-{name}.log"
            started.append(Gunicorn(database, log=log, start_timeout=120).start())
        yield started
    finally:
        for s in started:
            s.stop()


@contextlib.contextmanager
def database_for(kind: str, tmp: str, n: int) -> Iterator[str]:
    if kind == "sqlite":
        yield os.path.join(tmp, f"live-{n}.sqlite3")
        return
    from tests.pg_support import PostgresCluster

    with PostgresCluster() as cluster:
        yield cluster.new_database()


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--streams", default="1000,5000,10000")
    ap.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    ap.add_argument("--per-game", type=int, default=20, help="followers per game")
    ap.add_argument("--moving", type=int, default=10, help="games in which moves are made")
    ap.add_argument("--every", type=float, default=0.25, help="seconds between moves")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--retries", type=int, default=5, help="a refused stream's tries, as a page")
    a = ap.parse_args()
    limit = raise_open_files_limit()
    counts = [int(c) for c in a.streams.split(",")]
    postgres = a.database == "postgres"
    print(
        f"live tables: {'two servers on one PostgreSQL' if postgres else 'one server, SQLite'};"
        f" gunicorn gevent x 2 workers + the table process each; {os.cpu_count()} CPUs shared"
        f" with the load generator (one asyncio process) and the probe; open files {limit:,}"
    )
    with tempfile.TemporaryDirectory(prefix="live-bench-") as tmp:
        for n in counts:
            if n + 200 > limit:
                print(f"\n{n:,} streams: skipped, {limit:,} open files allowed")
                continue
            with database_for(a.database, tmp, n) as db, servers(db, tmp, 1 + postgres, n) as ss:
                a.masters = [s.pid for s in ss]
                report(asyncio.run(run_count(a, [s.port for s in ss], n)), postgres)


if __name__ == "__main__":
    main()
