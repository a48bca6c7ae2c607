"""Live tables at scale: thousands of open game pages following their games by Server-Sent
Events, on ``make run``'s settings (gunicorn, gevent, 2 workers and the table's process).

For each count of open pages a fresh server on SQLite (``--streams``, default 1,000 / 5,000 /
10,000) or two servers on one PostgreSQL (``--pg-streams``, default 5,000: the pages split
between A and B, every move sent to A; keys ``live.pg_s<count>_...``) is started, and one asyncio process opens that many
streams (``GET /api/games/<id>/stream``, raw sockets: ``tests/sse_client.py``) over
``streams / --per-game`` DAO games. Then, for ``--seconds``, moves are made in ``--moving`` of
those games (one every ``--every`` seconds, round-robin, through server A), while a separate
process times an unrelated ``GET /api/games/kinds`` every 50 ms; a round is one such window
(``--rounds`` of them on the same open streams). Figures per count (``live.s<count>_...``):

- held: streams that connected and were still open at the end (all of them is the target); a
  stream refused while the server is swamped by the opening rush (503) is tried again after 3
  to 6 s, as a game page does (``--retries``), and counted (measured once);
- heard: per move, the time from its answer until *every* follower of that game has it, p99
  per round (target <= 1 s), and, on PostgreSQL, the same for B's followers alone;
- unrelated GET: p99 per round (target <= 100 ms);
- the largest HTTP worker's RSS (target <= 300 MB) and the table process's, once at the end;
  the server's CPU (every process, from /proc) as a share of one core per round;
- the load generator's own CPU share per round and its event loop's worst lag (it is not the
  bottleneck while both are small).

It raises its soft limit of open files to the hard limit (a stream is a socket on each side);
the server does the same (``gunicorn.conf.py``). Usage: ``.venv/bin/python bench/live_bench.py
[--streams 1000,5000,10000] [--pg-streams 5000] [--seconds 4] [--rounds 5]
[--quick]``; each round's details are printed as it ends.
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
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, parse, parser, quantile, report  # noqa: E402
from tests.servers import Gunicorn, server_cpu_seconds, table_pids, worker_pids  # noqa: E402
from tests.sse_client import Follower, page_address  # noqa: E402

HOST = "127.0.0.1"


def raise_open_files_limit() -> int:
    """The soft ``RLIMIT_NOFILE`` raised to the hard limit (where allowed); the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return soft


async def http(
    port: int, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
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


@dataclass
class Probed:
    """A round's meters beside its load: the load generator's loop lags and, once the round
    ends, the unrelated GETs' latencies (seconds)."""

    lags: list[float] = field(default_factory=list)
    unrelated: list[float] = field(default_factory=list)

    def figures(
        self, heard: list[float], missed: int, cpu: float, own: float, seconds: float
    ) -> dict[str, float]:
        """The figures every round gives (ms, and cores over ``seconds``): heard p99 (infinite
        when a line or move was ``missed`` by a follower), the unrelated GET's p99, the
        server's and the load generator's CPU, the worst lag."""
        ms = 1000
        return {
            "heard_p99_ms": quantile(heard, 0.99) * ms if not missed else float("inf"),
            "unrelated_p99_ms": quantile(self.unrelated, 0.99) * ms,
            "server_cpu": cpu / seconds,
            "own_cpu": own / seconds,
            "lag_ms": max(self.lags, default=0.0) * ms,
        }

    def said(self, heard: list[float], missed: int, own: float, seconds: float) -> list[str]:
        """A round's line's parts every round prints alike: how fast every follower heard, the
        unrelated GET's latencies, the load generator's CPU (over ``seconds``) and worst lag."""
        ms, unrelated = 1000, self.unrelated
        return [
            f"heard by every follower p50 {quantile(heard, 0.5) * ms:.0f} / p99"
            f" {quantile(heard, 0.99) * ms:.0f} ms ({missed} not heard by all within 10 s)",
            f"unrelated GET p50 {quantile(unrelated, 0.5) * ms:.1f} / p99"
            f" {quantile(unrelated, 0.99) * ms:.1f} ms ({len(unrelated)})",
            f"load generator {own / seconds:.0%} of a core, worst lag"
            f" {max(self.lags, default=0) * ms:.0f} ms",
        ]


@contextlib.asynccontextmanager
async def probed(port: int, seconds: float) -> AsyncIterator[Probed]:
    """Around a round: the unrelated probe (``probe``, in its own process, for ``seconds``) and
    the lag meter; what they measured is in the ``Probed`` once the block ends."""
    out = Probed()
    stop = asyncio.Event()
    meter = asyncio.create_task(lag_meter(out.lags, stop))
    receive, send = mp.Pipe(duplex=False)
    prober = mp.Process(target=probe, args=(port, seconds, send))
    prober.start()
    try:
        yield out
        out.unrelated = receive.recv()
    finally:
        prober.join()
        stop.set()
        await meter


async def open_streams(a: argparse.Namespace, ports: list[int], streams: int) -> dict[str, Any]:
    """Create the games and open ``streams`` followers over them (spread over the servers)."""
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
        f = Follower(HOST, ports[server], gid, retries=a.retries, source=page_address(i))
        followers[gid].append((server, f))
        tasks.append(asyncio.create_task(f.run()))
        if i % 200 == 199:
            await asyncio.sleep(0.05)  # a burst the listen backlog takes
    everyone = [f for fs in followers.values() for _, f in fs]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(f.connected.wait() for f in everyone)), 120)
    refused = Counter(
        f"status {f.status}" if f.status else (f.error or "no answer")[:60]
        for f in everyone
        if not f.connected.is_set()
    )
    connected = sum(f.connected.is_set() for f in everyone)
    retried = sum(f.tries > 1 for f in everyone if f.connected.is_set())
    print(
        f"\n{streams:,} streams over {n_games} games: {connected:,} connected in"
        f" {time.monotonic() - opened:.1f} s ({retried:,} after a refusal, tried again as a page"
        " does)" + (f"; not connected: {dict(refused)}" if refused else ""),
        flush=True,
    )
    return {"games": games, "followers": followers, "everyone": everyone, "tasks": tasks}


async def window(a: argparse.Namespace, ports: list[int], opened: dict[str, Any]) -> dict:
    """One round: moves in ``a.moving`` games for ``a.seconds`` with the unrelated probe."""
    games, followers = opened["games"], opened["followers"]
    async with probed(ports[0], a.seconds) as meters:
        cpu0, own0 = sum(server_cpu_seconds(p) for p in a.masters), time.process_time()
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
        cpu = sum(server_cpu_seconds(p) for p in a.masters) - cpu0
        own = time.process_time() - own0
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
    heard_text, unrelated, load = meters.said(heard, missed, own, a.seconds)
    print(
        f"  a round: {len(moves)} moves, {heard_text}; {unrelated}; server CPU {cpu:.1f} s; {load}",
        flush=True,
    )
    return {
        **meters.figures(heard, missed, cpu, own, a.seconds),
        "heard_b_p99_ms": quantile(heard_b, 0.99) * 1000,
    }


async def run_count(a: argparse.Namespace, ports: list[int], streams: int) -> list[Figure]:
    """Open ``streams`` followers, then ``a.rounds`` windows of moves: the count's figures."""
    opened = await open_streams(a, ports, streams)
    rows = [await window(a, ports, opened) for _ in range(a.rounds)]
    everyone = opened["everyone"]
    held = sum(f.connected.is_set() and not f.done for f in everyone)
    workers = [(pid, rss_mb(pid), sockets(pid)) for m in a.masters for pid in worker_pids(m)]
    tables = [rss_mb(pid) for m in a.masters for pid in table_pids(m)]
    for pid, rss, socks in workers:
        print(f"  HTTP worker {pid}: RSS {rss:.0f} MB, {socks:,} sockets")
    for f in everyone:
        f.close()
    await asyncio.gather(*opened["tasks"])

    def values(name: str) -> list[float]:
        return [r[name] for r in rows]

    pg = a.database == "postgres"
    k = f"live.{'pg_' if pg else ''}s{streams}"
    n = f"{streams:,} streams{' on 2 servers, PostgreSQL' if pg else ''}"
    figures = [
        Figure(f"{k}_held", f"{n}: held to the end", [float(held)], "", (">=", streams)),
        Figure(
            f"{k}_heard_p99_ms",
            f"{n}: a move heard by every follower, p99",
            values("heard_p99_ms"),
            "ms",
            ("<=", 1000.0),
        ),
        Figure(
            f"{k}_unrelated_p99_ms",
            f"{n}: unrelated GET /api/games/kinds, p99",
            values("unrelated_p99_ms"),
            "ms",
            ("<=", 100.0),
        ),
        Figure(
            f"{k}_worker_rss_mb",
            f"{n}: the largest HTTP worker's RSS",
            [max(rss for _, rss, _ in workers)],
            "MB",
            ("<=", 300.0),
            note=f"{len(workers)} workers; table process {max(tables, default=0):.0f} MB",
        ),
        Figure(
            f"{k}_server_cpu",
            f"{n}: server CPU while moves flow",
            values("server_cpu"),
            "cores",
            note=f"{a.moving} games moving, a move every {a.every:g} s",
        ),
        Figure(
            f"{k}_loadgen_cpu",
            f"{n}: the load generator's own CPU",
            values("own_cpu"),
            "cores",
            note=f"its loop's worst lag {max(values('lag_ms')):.0f} ms",
        ),
    ]
    if pg:
        figures.insert(
            2,
            Figure(
                f"{k}_heard_b_p99_ms",
                f"{n}: heard by every follower on server B (moves sent to A), p99",
                values("heard_b_p99_ms"),
                "ms",
                ("<=", 1000.0),
            ),
        )
    return figures


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
    ap = parser(__doc__)
    ap.add_argument("--streams", default="1000,5000,10000", help="counts on SQLite")
    ap.add_argument("--pg-streams", default="5000", help="counts on two PostgreSQL servers")
    ap.add_argument("--per-game", type=int, default=20, help="followers per game")
    ap.add_argument("--moving", type=int, default=10, help="games in which moves are made")
    ap.add_argument("--every", type=float, default=0.25, help="seconds between moves")
    ap.add_argument("--seconds", type=float, default=4.0, help="seconds of moves per round")
    ap.add_argument("--retries", type=int, default=5, help="a refused stream's tries, as a page")
    a = parse(ap)
    if a.quick:
        a.streams, a.pg_streams, a.seconds = "1000", "", 2.0
    limit = raise_open_files_limit()
    runs = [("sqlite", int(c)) for c in a.streams.split(",") if c] + [
        ("postgres", int(c)) for c in a.pg_streams.split(",") if c
    ]
    print(
        "live tables: one server on SQLite, then two servers on one PostgreSQL; gunicorn gevent"
        f" x 2 workers + the table process each; {os.cpu_count()} CPUs shared with the load"
        f" generator (one asyncio process) and the probe; open files {limit:,}"
    )
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="live-bench-") as tmp:
        for database, n in runs:
            if n + 200 > limit:
                raise SystemExit(f"{n:,} streams: only {limit:,} open files allowed")
            a.database = database
            count = 2 if database == "postgres" else 1
            with database_for(database, tmp, n) as db, servers(db, tmp, count, n) as ss:
                a.masters = [s.pid for s in ss]
                figures += asyncio.run(run_count(a, [s.port for s in ss], n))
    report("live", figures, a, per_game=a.per_game, moving=a.moving)


if __name__ == "__main__":
    main()
