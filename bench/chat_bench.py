"""The table chat at scale: a hundred tables talking while thousands of pages follow them by
Server-Sent Events, on ``make run``'s settings (gunicorn, gevent, 2 workers and the table's
process; one SQLite file).

One asyncio process (``tests/sse_client.py``, raw sockets) opens ``--followers`` streams over
``--tables`` DAO tables of four seats (issue 41's figures: 100 tables, 5,000 followers, 50 a
table). Then, for ``--seconds`` a round, lines are written at ``--rate`` a second (200), round
robin over the tables and their seats (each seat well under its limit of one line a second), by
``POST /api/games/<id>/chat`` with the seat's token over ``--connections`` kept-alive
connections (as pages keep theirs), while a separate process times an
unrelated ``GET /api/games/kinds`` every 50 ms (``bench/live_bench.py``'s probe). Figures
(``chat.*``), per round:

- held: streams that connected and were still open at the end (all of them is the target);
- heard: per line, the time from its POST's answer until *every* follower of that table has
  it as a ``chat`` event, p99 (target <= 1 s); lines not heard by all within 10 s count as
  infinitely late;
- unrelated GET: p99 (target <= 100 ms);
- refused lines: POSTs not answered 201 (a 429 would mean the bench outran a seat's limit; 0);
- the server's CPU (every process, from /proc) as a share of one core; the load generator's
  own CPU and its event loop's worst lag (it is not the bottleneck while both are small); the
  largest HTTP worker's RSS once at the end.

Usage: ``.venv/bin/python bench/chat_bench.py [--tables 100] [--followers 5000] [--rate 200]
[--seconds 4] [--rounds 5] [--quick]``; each round's details are printed as it ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, parse_options, quantile, report  # noqa: E402
from bench.live_bench import (  # noqa: E402
    HOST,
    http,
    probed,
    raise_open_files_limit,
    rss_mb,
    servers,
)
from tests.servers import server_cpu_seconds, table_pids, worker_pids  # noqa: E402
from tests.sse_client import Follower, page_address  # noqa: E402

SEATS = 4


class KeptAlive:
    """One HTTP/1.1 connection kept alive for the lines' POSTs (one request at a time; opened
    again when the server closed it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.lock = asyncio.Lock()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: Any, token: str) -> tuple[int, Any]:
        data = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(data)}\r\n"
            f"Content-Type: application/json\r\nAuthorization: Bearer {token}\r\n\r\n"
        )
        async with self.lock:
            for attempt in (1, 2):
                try:
                    if self.writer is None:
                        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
                    assert self.reader is not None
                    self.writer.write(head.encode() + data)
                    top = await self.reader.readuntil(b"\r\n\r\n")
                    length = next(
                        int(line.split(b":", 1)[1])
                        for line in top.split(b"\r\n")
                        if line.lower().startswith(b"content-length:")
                    )
                    payload = await self.reader.readexactly(length)
                    return int(top.split(b" ", 2)[1]), json.loads(payload)
                except (OSError, asyncio.IncompleteReadError):
                    self.close()
                    if attempt == 2:
                        raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def open_tables(a: argparse.Namespace, port: int) -> dict[str, Any]:
    """The tables and their followers (each table's followers, ``a.followers // a.tables``)."""
    tables = []
    for i in range(a.tables):
        body = {"game": "dao", "seats": [{"type": "human"}] * SEATS, "seed": i}
        status, game = await http(port, "POST", "/api/games", body)
        assert status == 201, game
        tables.append((game["id"], [s["token"] for s in game["seats"]]))
    followers: dict[str, list[Follower]] = {gid: [] for gid, _ in tables}
    tasks = []
    opened = time.monotonic()
    for i in range(a.followers):
        gid = tables[i % a.tables][0]
        f = Follower(HOST, port, gid, retries=a.retries, source=page_address(i))
        followers[gid].append(f)
        tasks.append(asyncio.create_task(f.run()))
        if i % 200 == 199:
            await asyncio.sleep(0.05)  # a burst the listen backlog takes
    everyone = [f for fs in followers.values() for f in fs]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(f.connected.wait() for f in everyone)), 120)
    connected = sum(f.connected.is_set() for f in everyone)
    print(
        f"\n{a.followers:,} streams over {a.tables} tables: {connected:,} connected in"
        f" {time.monotonic() - opened:.1f} s",
        flush=True,
    )
    return {"tables": tables, "followers": followers, "everyone": everyone, "tasks": tasks}


async def say(conn: KeptAlive, gid: str, token: str, text: str, out: list, refused: list) -> None:
    status, line = await conn.post(f"/api/games/{gid}/chat", {"text": text}, token)
    if status == 201:
        out.append((gid, line["n"], time.monotonic()))
    else:
        refused.append(status)


async def window(a: argparse.Namespace, port: int, opened: dict[str, Any], r: int) -> dict:
    """One round: lines at ``a.rate`` a second for ``a.seconds``, with the unrelated probe."""
    tables, followers = opened["tables"], opened["followers"]
    async with probed(port, a.seconds) as meters:
        cpu0, own0 = server_cpu_seconds(a.master), time.process_time()
        said: list[tuple[str, int, float]] = []
        refused: list[int] = []
        posts = []
        start = time.monotonic()
        k = 0
        while (due := start + k / a.rate) < start + a.seconds:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            gid, tokens = tables[k % a.tables]
            seat = (k // a.tables) % SEATS
            text = f"round {r} line {k}: deal?"
            conn = opened["connections"][k % len(opened["connections"])]
            posts.append(asyncio.create_task(say(conn, gid, tokens[seat], text, said, refused)))
            k += 1
        await asyncio.gather(*posts)
        cpu = server_cpu_seconds(a.master) - cpu0
        own = time.process_time() - own0
        heard: list[float] = []
        missed = 0
        for gid, n, at in said:
            fs = [f for f in followers[gid] if f.connected.is_set()]
            await asyncio.gather(*(f.until_line(n, 10) for f in fs))
            if any(n not in f.heard for f in fs):
                missed += 1
                continue
            heard.append(max(f.heard[n] for f in fs) - at)
    heard_text, unrelated, load = meters.said(heard, missed, own, a.seconds)
    print(
        f"  a round: {len(said)} lines ({len(said) / a.seconds:.0f}/s; {len(refused)} refused),"
        f" {heard_text}; {unrelated}; server CPU {cpu / a.seconds:.2f} cores; {load}",
        flush=True,
    )
    return {
        **meters.figures(heard, missed, cpu, own, a.seconds),
        "heard_p50_ms": quantile(heard, 0.5) * 1000,
        "refused": float(len(refused)),
        "rate": len(said) / a.seconds,
    }


async def run(a: argparse.Namespace, port: int) -> list[Figure]:
    opened = await open_tables(a, port)
    opened["connections"] = [KeptAlive(port) for _ in range(a.connections)]
    rows = [await window(a, port, opened, r) for r in range(a.rounds)]
    for conn in opened["connections"]:
        conn.close()
    everyone = opened["everyone"]
    held = sum(f.connected.is_set() and not f.done for f in everyone)
    workers = [rss_mb(pid) for pid in worker_pids(a.master)]
    tables = [rss_mb(pid) for pid in table_pids(a.master)]
    for f in everyone:
        f.close()
    await asyncio.gather(*opened["tasks"])

    def values(name: str) -> list[float]:
        return [r[name] for r in rows]

    n = f"{a.tables} tables, {a.followers:,} followers, {a.rate:g} lines/s"
    return [
        Figure(
            "chat.held", f"{n}: streams held to the end", [float(held)], "", (">=", a.followers)
        ),
        Figure(
            "chat.heard_p99_ms",
            f"{n}: a line heard by every follower of its table, p99",
            values("heard_p99_ms"),
            "ms",
            ("<=", 1000.0),
            note=f"p50 {sorted(values('heard_p50_ms'))[len(rows) // 2]:.0f} ms",
        ),
        Figure(
            "chat.unrelated_p99_ms",
            f"{n}: unrelated GET /api/games/kinds, p99",
            values("unrelated_p99_ms"),
            "ms",
            ("<=", 100.0),
        ),
        Figure(
            "chat.refused",
            f"{n}: lines refused",
            values("refused"),
            "",
            ("<=", 0.0),
            note=f"{min(values('rate')):.0f}-{max(values('rate')):.0f} lines/s written over"
            f" {a.connections} kept-alive connections",
        ),
        Figure(
            "chat.server_cpu",
            f"{n}: server CPU while lines flow",
            values("server_cpu"),
            "cores",
            note=f"largest HTTP worker {max(workers, default=0):.0f} MB, table process"
            f" {max(tables, default=0):.0f} MB",
        ),
        Figure(
            "chat.loadgen_cpu",
            f"{n}: the load generator's own CPU",
            values("own_cpu"),
            "cores",
            note=f"its loop's worst lag {max(values('lag_ms')):.0f} ms",
        ),
    ]


def main() -> None:
    a = parse_options(
        __doc__,
        {
            "tables": (100, "tables that talk"),
            "followers": (5000, "streams over the tables"),
            "rate": (200.0, "lines a second, all tables"),
            "seconds": (4.0, "seconds of lines per round"),
            "retries": (5, "a refused stream's tries, as a page"),
            "connections": (20, "kept-alive POST connections"),
        },
        quick={"tables": 10, "followers": 200, "rate": 20.0, "seconds": 2.0},
    )
    limit = raise_open_files_limit()
    if a.followers + 200 > limit:
        raise SystemExit(f"{a.followers:,} streams: only {limit:,} open files allowed")
    print(
        f"table chat: one server on SQLite, gunicorn gevent x 2 workers + the table process;"
        f" {os.cpu_count()} CPUs shared with the load generator (one asyncio process) and the"
        f" probe; open files {limit:,}"
    )
    with tempfile.TemporaryDirectory(prefix="chat-bench-") as tmp:
        db = os.path.join(tmp, "chat.sqlite3")
        with servers(db, tmp, 1, a.followers) as (server,):
            a.master = server.pid
            figures = asyncio.run(run(a, server.port))
    report("chat", figures, a, tables=a.tables, followers=a.followers, rate=a.rate)


if __name__ == "__main__":
    main()
