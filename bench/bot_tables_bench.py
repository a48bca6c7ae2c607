"""Bot tables at scale (issue 42): N tables of one human and two bots, the humans moving at a
player's pace (a move every 10 s) or fast (every 2 s), against real servers on ``make run``'s
settings (gunicorn, gevent, 2 HTTP workers, a thinker per core).

Rows (``--rows``; each on a fresh server): a kind, a bot level, a pace and its number of tables
(the issue's target sizes: 100 tables against strong bots at a player's pace, 20 fast, 500
against normal bots; ``--scale`` multiplies every size, ``--tables`` sets them all: the machine
is shared, so a run at the full sizes is the operator's to make). Each table is a thread: its
human waits for their turn (the events long-poll), keeps the pace (the next move ``pace``
seconds after the last one) and posts a random legal action; a game that ends is replaced by a
new one. Per round (``--window`` seconds, ``--rounds`` of them on the same load, after a warm-up
of one window):

- reply p50 / p99: from the answer to the human's move until it is their turn again with no
  bot thinking (only moves that a bot answered), the target at the issue's size;
- queue wait p99: how long a due bot waited before a thinker took it, and the mean effort the
  thinkers granted (``web.service.table.effort_for``; 1 = a strong bot's full budget), both
  from the thinkers' decisions log (``TOBAGO_DECISIONS_LOG``);
- the thinkers' CPU (their processes' user + system time from /proc) in cores, and decisions
  (bot writes) per second.

The PostgreSQL rows (``--no-pg``: none; a quick run has none): two servers on one throw-away
PostgreSQL (``tests/pg_support.py``) with one thinker each, to stand for two machines: server A
(HTTP and a table process) alone, then with B, a thinkers-only server (``python -m web.thinkers
--processes 1``); the humans play through A, ``--pg-tables`` tables of ``--pg-row`` (enough to
keep one thinker busy). Capacity is the bot writes per second at that load (``pg_capacity``: with
B / without), which B should double where it has cores of its own (here the two share this
machine's two cores with everything else). ``--pin`` stands for two one-core machines instead:
this bench and all it starts (PostgreSQL, server A with its thinker, the players) run on core 0
and B's thinker alone on core 1, so B brings a core of its own (its rows are ``pg_pinned_*``,
with no targets: A alone has one core for everything).

Usage: ``.venv/bin/python bench/bot_tables_bench.py [--rows tobago-strong-slow,...]
[--scale 0.05 | --tables 4] [--window 10] [--rounds 5] [--no-pg | --pin] [--quick]``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, parse, parser, quantile, report  # noqa: E402
from tests.servers import Gunicorn, pids_cpu_seconds, table_pids  # noqa: E402

PLAYER_PACE_S = 10.0
FAST_PACE_S = 2.0


@dataclass(frozen=True)
class Row:
    """One load: ``tables`` tables of ``kind`` (a human, two ``level`` bots), a move every
    ``pace`` seconds; ``target``: the reply p99 the issue asks at that size (seconds)."""

    kind: str
    level: str
    pace: float
    tables: int
    target: float | None

    @property
    def pace_name(self) -> str:
        return "slow" if self.pace >= PLAYER_PACE_S else "fast"

    @property
    def key(self) -> str:
        return f"{self.kind}_{self.level}_{self.pace_name}"

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.level}-{self.pace_name}"


ROWS = {
    r.name: r
    for r in (
        Row("tobago", "strong", PLAYER_PACE_S, 100, 1.5),
        Row("tobago", "strong", FAST_PACE_S, 20, 2.0),
        Row("isla_dorada", "strong", PLAYER_PACE_S, 100, 1.5),
        Row("isla_dorada", "strong", FAST_PACE_S, 20, 2.0),
        Row("dragons_gold", "strong", PLAYER_PACE_S, 100, 1.5),
        Row("dragons_gold", "strong", FAST_PACE_S, 20, 2.0),
        Row("tobago", "normal", PLAYER_PACE_S, 500, 0.3),
        Row("tobago", "normal", FAST_PACE_S, 100, None),
        Row("dao", "strong", FAST_PACE_S, 20, None),
    )
}
#: Options that keep a table's waits the bots' (Dragon's Gold's timed negotiation waits for
#: its clock, not for a bot).
OPTIONS = {"dragons_gold": {"negotiation": "division"}}


class Table(threading.Thread):
    """One table's human (module doc): replies timed as ``(when, seconds)``."""

    def __init__(self, url: str, row: Row, seed: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.url, self.row, self.seed, self.stop = url, row, seed, stop
        self.http = requests.Session()
        self.rng = random.Random(seed)
        #: ``(when it came, seconds)`` of each bot reply.
        self.replies: list[tuple[float, float]] = []
        #: When the answer to the human's move came, while its bots' reply is awaited.
        self.pending: float | None = None
        self.errors = 0

    def new_game(self) -> tuple[str, dict]:
        seats = [{"type": "human"}] + [{"type": "bot", "level": self.row.level}] * 2
        body = {
            "game": self.row.kind,
            "seats": seats,
            "seed": self.seed,
            "options": OPTIONS.get(self.row.kind, {}),
        }
        self.seed += 1000
        made = self.http.post(f"{self.url}/api/games", json=body, timeout=30).json()
        return made["id"], {"Authorization": f"Bearer {made['seats'][0]['token']}"}

    def my_turn(self, gid: str, auth: dict) -> dict:
        while not self.stop.is_set():
            me = self.http.get(f"{self.url}/api/games/{gid}", headers=auth, timeout=30).json()
            if me["over"] or (me["legal_actions"] and me["bot"] != "thinking"):
                return me
            self.http.get(
                f"{self.url}/api/games/{gid}/events?after={me['version']}&wait=5", timeout=30
            )
        return {"over": True}

    def run(self) -> None:
        time.sleep(self.rng.uniform(0, self.row.pace))  # the tables' moves spread over a pace
        gid, auth = self.new_game()
        while not self.stop.is_set():
            try:
                gid, auth = self.play(gid, auth)
            except (requests.RequestException, KeyError, ValueError):
                self.errors += 1
                time.sleep(1.0)

    def play(self, gid: str, auth: dict) -> tuple[str, dict]:
        me = self.my_turn(gid, auth)
        if me["over"]:
            return self.new_game()
        moved = time.monotonic()
        answer = self.http.post(
            f"{self.url}/api/games/{gid}/actions",
            json={"version": me["version"], "action": self.rng.choice(me["legal_actions"])},
            headers=auth,
            timeout=30,
        )
        if answer.status_code != 200:  # a bot of a simultaneous phase took the version first
            return gid, auth
        after = answer.json()
        answered = time.monotonic()
        if after["over"] or not (after["legal_actions"] and after["bot"] != "thinking"):
            self.pending = answered
            again = self.my_turn(gid, auth)
            self.pending = None
            if not self.stop.is_set() and not again["over"]:
                done = time.monotonic()
                self.replies.append((done, done - answered))
        self.stop.wait(max(0.0, moved + self.row.pace - time.monotonic()))
        return gid, auth


def decisions(path: Path, since: float) -> list[dict]:
    """The thinkers' decisions log lines appended at or after ``since`` (wall clock)."""
    out = []
    with contextlib.suppress(OSError), path.open(encoding="utf-8") as f:
        for line in f:
            with contextlib.suppress(ValueError):
                d = json.loads(line)
                if d.get("at", 0) >= since:
                    out.append(d)
    return out


def measure(
    url: str, row: Row, tables: int, a: argparse.Namespace, log: Path, thinkers: Any
) -> list[dict[str, float]]:
    """``a.rounds`` windows of ``tables`` tables of ``row`` on the server at ``url``; one dict
    of figures per round. ``thinkers()``: the thinkers' pids now."""
    stop = threading.Event()
    players = [Table(url, row, 1 + i, stop) for i in range(tables)]
    for p in players:
        p.start()
    stop.wait(a.window)  # warm-up: every table started, the queue at its pace
    out = []
    for _ in range(a.rounds):
        pids = thinkers()
        cpu0, t0, wall0 = pids_cpu_seconds(pids), time.monotonic(), time.time()
        stop.wait(a.window)
        cpu1, t1 = pids_cpu_seconds(pids), time.monotonic()
        replies = [s for p in players for when, s in p.replies if t0 <= when < t1]
        waiting = [t1 - p.pending for p in players if p.pending is not None]
        made = [d for d in decisions(log, wall0) if d["at"] < time.time()]
        out.append(
            {
                # (no reply came in the round: the longest still awaited, a lower bound; 0 when
                # no human waited for a bot at all)
                "p50": quantile(replies or waiting or [0.0], 0.5),
                "p99": quantile(replies or waiting or [0.0], 0.99),
                "replies": len(replies),
                "bounds": 0 if replies else 1,
                "wait_p99": quantile(
                    [d["waited"] for d in made] or [0.0], 0.99
                ),  # (none: none waited)
                "effort": statistics.fmean([d["effort"] for d in made]) if made else 1.0,
                "cpu": (cpu1 - cpu0) / (t1 - t0),
                "per_s": len(made) / (t1 - t0),
            }
        )
        print(f"    {row.key} x{tables}: {out[-1]}", flush=True)
    stop.set()
    for p in players:
        p.join(40)
    if sum(p.errors for p in players):
        print(f"    ({sum(p.errors for p in players)} request errors)", flush=True)
    return out


def figures_of(key: str, label: str, rounds: list[dict], row: Row, tables: int) -> list[Figure]:
    """The figures of one row's rounds (module doc); the target only at the issue's size."""
    judged = tables >= row.tables and row.target is not None
    size = f"{tables} tables"
    if row.target is not None and not judged:
        size += f" (the target, p99 ≤ {row.target:g} s, is at {row.tables})"
    replies = sum(int(r["replies"]) for r in rounds)
    bounds = sum(int(r["bounds"]) for r in rounds)
    if bounds:
        size += f"; {bounds} rounds without a reply: their longest wait, a lower bound"

    def ok(name: str) -> list[float]:
        found = [r[name] for r in rounds if r[name] == r[name]]  # (NaN: no reply that round)
        return found or [float("nan")]

    return [
        Figure(
            f"{key}_p99_s",
            f"{label}: bot reply p99",
            ok("p99"),
            "s",
            ("<=", row.target) if judged and row.target else None,
            f"{size}; p50 {statistics.median(ok('p50')):.3f} s; {replies} replies",
        ),
        Figure(f"{key}_p50_s", f"{label}: bot reply p50", ok("p50"), "s"),
        Figure(
            f"{key}_wait_p99_s",
            f"{label}: a due bot's wait for a thinker, p99",
            ok("wait_p99"),
            "s",
            note=f"mean effort granted {statistics.median(ok('effort')):.2f}",
        ),
        Figure(f"{key}_effort", f"{label}: mean effort granted a decision", ok("effort"), ""),
        Figure(
            f"{key}_thinkers_cpu",
            f"{label}: the thinkers' CPU",
            ok("cpu"),
            "cores",
            note=f"{statistics.median(ok('per_s')):.1f} bot writes/s",
        ),
    ]


def finite(figures: list[Figure]) -> list[Figure]:
    """The figures with a value (a row whose tables never moved has none: said, left out)."""
    out = []
    for f in figures:
        if f.median == f.median:
            out.append(f)
        else:
            print(f"  ({f.key}: nothing measured, left out)", flush=True)
    return out


def label_of(row: Row) -> str:
    pace = "a player's pace" if row.pace >= PLAYER_PACE_S else "fast"
    return f"{row.kind} vs 2 {row.level}, {pace}"


def server_env(log: Path) -> dict[str, str]:
    return {"TOBAGO_DECISIONS_LOG": str(log)}


def sqlite_rows(a: argparse.Namespace, tmp: Path) -> list[Figure]:
    out: list[Figure] = []
    for name in a.rows:
        row = ROWS[name]
        tables = a.tables or max(1, round(row.tables * a.scale))
        log = tmp / f"{name}.jsonl"
        db = tmp / f"{name}.sqlite3"
        with Gunicorn(db, env=server_env(log), log=tmp / f"{name}.log", start_timeout=60) as s:
            rounds = measure(s.url, row, tables, a, log, lambda s=s: table_pids(s.pid))
        out += figures_of(f"bot_tables.{row.key}", label_of(row), rounds, row, tables)
    return out


@contextlib.contextmanager
def thinkers_only(
    database: str, log: Path, out: Path, cores: set[int] | None = None
) -> Iterator[list[int]]:
    """``python -m web.thinkers --processes 1`` on ``database`` (on ``cores`` if given); yields
    its pids."""
    env = {**os.environ, "TOBAGO_DATABASE": database, "PYTHONPATH": str(ROOT), **server_env(log)}
    with out.open("ab") as f:
        proc = subprocess.Popen(
            [sys.executable, "-m", "web.thinkers", "--processes", "1"],
            cwd=ROOT,
            env=env,
            stdout=f,
            stderr=f,
            preexec_fn=None if cores is None else lambda: os.sched_setaffinity(0, cores),
        )
    try:
        time.sleep(3.0)
        yield [proc.pid, *_children(proc.pid)]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def pg_rows(a: argparse.Namespace, tmp: Path) -> list[Figure]:
    from tests.pg_support import PostgresCluster

    row = ROWS[a.pg_row]
    tables = a.pg_tables
    cores = os.sched_getaffinity(0)
    if a.pin:
        os.sched_setaffinity(0, {0})  # (module doc: all this process starts runs on core 0)
    cluster = PostgresCluster().start()
    out: list[Figure] = []
    prefix = "pg_pinned" if a.pin else "pg"
    try:
        per_s: dict[str, list[float]] = {}
        for setup in ("alone", "with_thinkers"):
            url = cluster.new_database()
            log = tmp / f"pg-{setup}.jsonl"
            env = {**server_env(log), "TOBAGO_TABLE_PROCESSES": "1"}
            with (
                Gunicorn(url, env=env, log=tmp / f"pg-{setup}.log", start_timeout=60) as s,
                contextlib.ExitStack() as more,
            ):
                extra: list[int] = []
                if setup == "with_thinkers":
                    b_cores = {1} if a.pin else None
                    extra = more.enter_context(thinkers_only(url, log, tmp / "b.log", b_cores))

                def pids(s: Gunicorn = s, extra: list[int] = extra) -> list[int]:
                    return table_pids(s.pid) + extra

                rounds = measure(s.url, row, tables, a, log, pids)
            label = f"PostgreSQL, {'A alone' if setup == 'alone' else 'A + thinkers-only B'}"
            if a.pin:
                label += " (one core each)"
            key = f"bot_tables.{prefix}_{setup}_{row.key}"
            judged = dataclasses.replace(row, target=None) if a.pin else row
            shown = figures_of(key, f"{label}: {label_of(row)}", rounds, judged, tables)
            out += shown[:1] + (shown[3:] if a.pin else [])  # (pinned: effort, thinkers' CPU)
            per_s[setup] = [r["per_s"] for r in rounds]
            out.append(
                Figure(f"{key}_per_s", f"{label}: bot writes/s", per_s[setup], "/s", note="")
            )
        ratio = [
            b / a_ if a_ else float("nan")
            for a_, b in zip(per_s["alone"], per_s["with_thinkers"], strict=True)
        ]
        out.append(
            Figure(
                f"bot_tables.{prefix}_capacity",
                "PostgreSQL: bot writes/s with a thinkers-only server / without",
                ratio,
                "x",
                note=f"{tables} tables of {row.key}; one thinker each, "
                + ("A on core 0, B on core 1" if a.pin else "sharing this machine's cores"),
            )
        )
    finally:
        cluster.stop()
        os.sched_setaffinity(0, cores)
    return out


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--rows", default=",".join(ROWS), help=f"rows of {list(ROWS)}")
    ap.add_argument("--scale", type=float, default=1.0, help="every row's tables times this")
    ap.add_argument("--tables", type=int, default=0, help="every row's tables (0: its own)")
    ap.add_argument("--window", type=float, default=20.0, help="seconds a round")
    ap.add_argument("--no-pg", action="store_true", help="leave out the PostgreSQL rows")
    ap.add_argument("--pin", action="store_true", help="PostgreSQL rows: A on core 0, B on 1")
    ap.add_argument("--pg-row", default="tobago-strong-fast", help="the PostgreSQL rows' load")
    ap.add_argument("--pg-tables", type=int, default=20, help="the PostgreSQL rows' tables")
    a = parse(ap)
    a.rows = [r for r in a.rows.split(",") if r]
    if a.quick:
        a.rows, a.tables, a.window = ["tobago-normal-fast"], 2, 4.0
    unknown = set(a.rows) - set(ROWS)
    if unknown:
        ap.error(f"no such rows: {sorted(unknown)}; known: {list(ROWS)}")
    with tempfile.TemporaryDirectory(prefix="bot-tables-") as tmp:
        figures = sqlite_rows(a, Path(tmp))
        if not (a.no_pg or a.quick):
            figures += pg_rows(a, Path(tmp))
    report(
        "bot_tables",
        finite(figures),
        a,
        rows=a.rows,
        scale=a.scale,
        tables=a.tables,
        window_s=a.window,
        load=list(os.getloadavg()),
    )


if __name__ == "__main__":
    main()
