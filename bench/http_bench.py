"""HTTP throughput of the game API on the production server (gunicorn on loopback).

Starts gunicorn (2 worker processes, gevent, like ``make run``) on a fresh SQLite
file (``--database postgres``: a throw-away PostgreSQL cluster, ``tests/pg_support.py``), then
runs 8 concurrent client processes per phase and prints requests per second with the p50/p99
latency and the server's CPU time per request (its workers' user + system time from /proc,
which other work on a shared machine does not change), each against ``GET /healthz`` measured
in the same run (the baseline: Flask + gunicorn with no game work). Phases that are compared with the baseline run in short interleaved rounds
(``--rounds``), and the ratio printed is the median of the rounds' ratios, so that other work on
a shared machine weighs on both sides alike:

1. ``GET /api/games/<id>`` - one game, a seat's token, the seat's view and legal actions;
2. ``POST /api/games/<id>/actions`` on many games at once - each client plays its own games
   (one human seat against a bot), so every request is a version-checked write of the human's
   action; the bot's reply is played by the server's table process and followed (not timed)
   with the events long-poll and a GET, whose CPU the HTTP workers' figure includes (target:
   >= 0.5x baseline);
3. cold ``GET /api/games/<id>`` (a second server keeps no state between requests,
   ``TOBAGO_STATE_CACHE=0``): a 10-entry game against 1,225- and 1,249-entry Tobago games, which
   are rebuilt from the snapshot at 1,200 and a tail of 25 (the average) and 49 entries (the
   longest; a snapshot is stored every 50) (target: within 2x of the 10-entry game, i.e.
   >= 0.5x its req/s);
4. open game pages: ``--pages`` long-polls wait on a game (``events?wait=``, as a game page
   without ``EventSource`` does) while one client times an unrelated ``GET /api/games/kinds``;
   printed: how many wait at once and the unrelated request's worst latency (thousands of
   pages: ``bench/live_bench.py``).

Usage: ``.venv/bin/python bench/http_bench.py [--game tobago] [--seconds 4] [--clients 8]
[--database sqlite|postgres] [--skip-cold] [--skip-pages]``. The test game Blind Auction is
available as ``--game blind_auction``.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing as mp
import multiprocessing.pool
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import APP_WITH_TESTGAME, Gunicorn, workers_cpu_seconds  # noqa: E402
from web.storage.states import SNAPSHOT_EVERY  # noqa: E402

#: Lengths of the games read cold: the short baseline, then a snapshot at 1,200 and the
#: average tail (``SNAPSHOT_EVERY`` / 2) and the longest one (``SNAPSHOT_EVERY`` - 1).
COLD_LENGTHS = (10, 1200 + SNAPSHOT_EVERY // 2, 1200 + SNAPSHOT_EVERY - 1)


def new_game(url: str, game: str, level: str, seed: int) -> tuple[str, str, dict]:
    seats = [{"type": "human", "name": "bench"}, {"type": "bot", "level": level}]
    resp = requests.post(url + "/api/games", json={"game": game, "seats": seats, "seed": seed})
    resp.raise_for_status()
    body = resp.json()
    token = body["seats"][0]["token"]
    me = requests.get(f"{url}/api/games/{body['id']}", headers=auth(token)).json()
    return body["id"], token, me


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def client_get(args: tuple) -> tuple[list[float], int]:
    """Loop ``GET url`` for ``seconds``; returns latencies (s) and the count of non-200s."""
    url, headers, seconds = args
    lat: list[float] = []
    errors = 0
    with requests.Session() as http:
        end = time.perf_counter() + seconds
        while (t0 := time.perf_counter()) < end:
            resp = http.get(url, headers=headers)
            lat.append(time.perf_counter() - t0)
            errors += resp.status_code != 200
    return lat, errors


def client_actions(args: tuple) -> tuple[list[float], int]:
    """Play this client's games round-robin for ``seconds``, one action per request."""
    url, game, level, seconds, index, per_client = args
    lat: list[float] = []
    errors = 0
    seed = index * 1000 + random.randrange(10**6) * 10**4
    games = [new_game(url, game, level, seed + i) for i in range(per_client)]
    with requests.Session() as http:
        end = time.perf_counter() + seconds
        i = 0
        while time.perf_counter() < end:
            gid, token, me = games[i % len(games)]
            if me["over"] or not me["legal_actions"]:
                seed += 1
                games[i % len(games)] = new_game(url, game, level, seed + per_client)
                continue
            body = {"version": me["version"], "action": me["legal_actions"][0]}
            t0 = time.perf_counter()
            resp = http.post(f"{url}/api/games/{gid}/actions", json=body, headers=auth(token))
            lat.append(time.perf_counter() - t0)
            if resp.status_code == 200:
                me = resp.json()
                if me["bot"] == "thinking":  # the table's bot answers as an event: wait for it
                    after = me["version"]
                    http.get(f"{url}/api/games/{gid}/events?after={after}&wait=5")
                    me = http.get(f"{url}/api/games/{gid}", headers=auth(token)).json()
                games[i % len(games)] = (gid, token, me)
            else:
                errors += 1
                games[i % len(games)] = (
                    gid,
                    token,
                    http.get(f"{url}/api/games/{gid}", headers=auth(token)).json(),
                )
            i += 1
    return lat, errors


def run_phase(pool: mp.pool.Pool, fn: Callable, args: list[tuple], seconds: float) -> dict:
    results = pool.map(fn, args)
    lat = sorted(x for r in results for x in r[0])
    n = len(lat)
    return {
        "n": n,
        "rps": n / seconds,
        "p50": statistics.median(lat) * 1000 if lat else float("nan"),
        "p99": lat[min(n - 1, int(n * 0.99))] * 1000 if lat else float("nan"),
        "errors": sum(r[1] for r in results),
    }


def merge(rounds: list[dict]) -> dict:
    """Several rounds of one phase as one row (req/s averaged, latencies of the last round)."""
    return {
        "n": sum(r["n"] for r in rounds),
        "rps": statistics.mean(r["rps"] for r in rounds),
        "p50": statistics.median(r["p50"] for r in rounds),
        "p99": max(r["p99"] for r in rounds),
        "errors": sum(r["errors"] for r in rounds),
    }


def line(name: str, r: dict, ratio: float | None = None, of: str = "baseline") -> str:
    tail = f"  {ratio:.2f}x {of}" if ratio is not None else ""
    cpu = f"   server CPU {r['cpu_ms']:.2f} ms/req" if "cpu_ms" in r else ""
    return (
        f"{name:<46} {r['rps']:6.0f} req/s   p50 {r['p50']:5.1f} ms   p99 {r['p99']:6.1f} ms"
        f"{cpu}   ({r['n']} requests, {r['errors']} non-200){tail}"
    )


#: A phase: the client function and, for a round's seconds, the arguments of each client.
Phase = tuple[Callable, Callable[[float], list[tuple]]]


def interleaved(
    pool: mp.pool.Pool,
    rounds: int,
    seconds: float,
    phases: dict[str, Phase],
    master: int,
) -> tuple[dict[str, dict], dict[str, float]]:
    """Run each phase ``rounds`` times, in turn; each phase's merged row (with the server's CPU
    time per request, ``cpu_ms``: what other work on the machine does not change) and the
    median of its per-round ratio to the first phase."""
    per: dict[str, list[dict]] = {name: [] for name in phases}
    cpu: dict[str, float] = dict.fromkeys(phases, 0.0)
    for _ in range(rounds):
        for name, (fn, args) in phases.items():
            before = workers_cpu_seconds(master)
            per[name].append(run_phase(pool, fn, args(seconds), seconds))
            cpu[name] += workers_cpu_seconds(master) - before
    first = next(iter(phases))
    ratios = {
        name: statistics.median(r["rps"] / b["rps"] for r, b in zip(rs, per[first], strict=True))
        for name, rs in per.items()
    }
    rows = {name: merge(rs) for name, rs in per.items()}
    for name, row in rows.items():
        row["cpu_ms"] = cpu[name] / max(row["n"], 1) * 1000
    return rows, ratios


# --- cold reads -----------------------------------------------------------------------------


def prepare_long_games(database: str, lengths: tuple[int, ...]) -> dict[int, str]:
    """Tobago games of exactly these log lengths (four human seats playing random legal moves,
    written through the service's own sessions before the server starts); id per length."""
    from games.base import get_kind
    from web.storage import open_store
    from web.storage.sessions import GameSessions

    kind = get_kind("tobago")
    sessions = GameSessions(open_store(database))
    made: dict[int, str] = {}
    seed = 1
    for length in sorted(lengths):
        while length not in made:
            game, _, _ = sessions.create("tobago", [{"type": "human"}] * 4, None, seed)
            rng = random.Random(seed)
            seed += 1
            for _ in range(length):
                row, state = sessions.current(game.id)
                if kind.is_over(state):
                    break
                seat = rng.choice(kind.to_act(state))
                action = rng.choice(kind.legal_actions(state, seat))
                sessions.act(game.id, seat, row.version, action, row)
            if sessions.store.version(game.id) == length and not sessions.store.get(game.id).over:
                made[length] = game.id
    sessions.store.close()
    return made


# --- open game pages ------------------------------------------------------------------------


def pages_phase(url: str, game_id: str, pages: int, wait: float) -> dict[str, Any]:
    """``pages`` long-polls at once and one unrelated GET every 50 ms while they wait."""
    statuses: list[int] = []
    lock = threading.Lock()

    def poll() -> None:
        with contextlib.suppress(requests.RequestException):
            resp = requests.get(
                f"{url}/api/games/{game_id}/events?after=0&wait={wait:g}", timeout=wait + 30
            )
            with lock:
                statuses.append(resp.status_code)

    threads = [threading.Thread(target=poll, daemon=True) for _ in range(pages)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    lat: list[float] = []
    end = time.monotonic() + wait - 1.5
    while time.monotonic() < end:
        t0 = time.monotonic()
        requests.get(url + "/api/games/kinds", timeout=60)
        lat.append(time.monotonic() - t0)
        time.sleep(0.05)
    for t in threads:
        t.join(wait + 30)
    return {
        "waited": statuses.count(200),
        "refused": statuses.count(503),
        "worst": max(lat) * 1000,
        "p50": statistics.median(lat) * 1000,
        "n": len(lat),
    }


@contextlib.contextmanager
def database_for(kind: str, tmp: str) -> Iterator[str]:
    """A fresh database: a SQLite file in ``tmp``, or a database on a throw-away cluster."""
    if kind == "sqlite":
        yield os.path.join(tmp, "bench.sqlite3")
        return
    from tests.pg_support import PostgresCluster

    with PostgresCluster() as cluster:
        yield cluster.new_database()


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--game", default="tobago")
    ap.add_argument("--level", default=None, help="bot level (default: random, or the first)")
    ap.add_argument("--seconds", type=float, default=4.0, help="per phase (split in rounds)")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games-per-client", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    ap.add_argument("--pages", type=int, default=20, help="long-polls in the pages phase")
    ap.add_argument("--skip-cold", action="store_true")
    ap.add_argument("--skip-pages", action="store_true")
    a = ap.parse_args()
    per_round = a.seconds / a.rounds

    with (
        tempfile.TemporaryDirectory(prefix="http-bench-") as tmp,
        database_for(a.database, tmp) as database,
    ):
        long_games = {} if a.skip_cold else prepare_long_games(database, COLD_LENGTHS[1:])
        server = Gunicorn(
            database, APP_WITH_TESTGAME, workers=a.workers, threads=a.threads, start_timeout=60
        )
        with server:
            url = server.url
            kinds = {k["name"]: k for k in requests.get(url + "/api/games/kinds").json()["kinds"]}
            if a.game not in kinds:
                raise SystemExit(f"unknown game {a.game!r}; known: {', '.join(kinds)}")
            bots = kinds[a.game]["bots"]
            level = a.level or ("random" if "random" in bots else bots[0])
            print(
                f"gunicorn {a.workers} workers (gevent) on 127.0.0.1, "
                f"{'SQLite WAL' if a.database == 'sqlite' else 'PostgreSQL'}; {a.clients} client "
                f"processes, {a.rounds} interleaved rounds of {per_round:g} s per phase; game "
                f"{a.game} (human vs {level} bot); {os.cpu_count()} CPUs shared with clients"
            )
            gid, token, _ = new_game(url, a.game, level, 1)
            game_url = f"{url}/api/games/{gid}"
            with mp.Pool(a.clients) as pool:
                pool.map(client_get, [(url + "/healthz", {}, 0.3)] * a.clients)  # warm up
                pool.map(client_get, [(game_url, auth(token), 0.3)] * a.clients)
                rows, ratios = interleaved(
                    pool,
                    a.rounds,
                    per_round,
                    master=server.pid,
                    phases={
                        "base": (client_get, lambda s: [(url + "/healthz", {}, s)] * a.clients),
                        "get": (
                            client_get,
                            lambda s: [(game_url, auth(token), s)] * a.clients,
                        ),
                        "post": (
                            client_actions,
                            lambda s: [
                                (url, a.game, level, s, i, a.games_per_client)
                                for i in range(a.clients)
                            ],
                        ),
                    },
                )
                games = a.clients * a.games_per_client
                print(line("GET /healthz (baseline)", rows["base"]))
                print(line("GET /api/games/<id> (seat view, one game)", rows["get"], ratios["get"]))
                print(
                    line(
                        f"POST .../actions ({games} games, +bot reply)",
                        rows["post"],
                        ratios["post"],
                    )
                )
        if long_games:
            cold_phase(a, database, long_games, per_round)
        if not a.skip_pages:
            with Gunicorn(database, workers=a.workers, threads=a.threads) as srv:
                body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 1}
                gid = requests.post(srv.url + "/api/games", json=body).json()["id"]
                r = pages_phase(srv.url, gid, a.pages, wait=8)
                print(
                    f"{a.pages} open game pages (long-polls): {r['waited']} wait at once,"
                    f" {r['refused']} told 503; unrelated GET p50 {r['p50']:.1f} ms,"
                    f" worst {r['worst']:.0f} ms ({r['n']} requests)"
                )


def cold_phase(a: argparse.Namespace, database: str, long_games: dict[int, str], s: float) -> None:
    """Cold reads: a server that keeps no state (every GET rebuilds the game)."""
    env = {"TOBAGO_STATE_CACHE": "0"}
    with Gunicorn(database, workers=a.workers, threads=a.threads, env=env) as server:
        url = server.url
        seats = [{"type": "human"}] * 4
        body = requests.post(url + "/api/games", json={"game": "tobago", "seats": seats, "seed": 3})
        short = body.json()["id"]
        tokens = [t["token"] for t in body.json()["seats"]]
        for _ in range(COLD_LENGTHS[0]):  # a short game of the same kind, 10 entries
            me = [requests.get(f"{url}/api/games/{short}", headers=auth(t)).json() for t in tokens]
            seat = next(m for m in me if m["legal_actions"])
            move = {"version": seat["version"], "action": seat["legal_actions"][0]}
            requests.post(
                f"{url}/api/games/{short}/actions", json=move, headers=auth(tokens[seat["seat"]])
            ).raise_for_status()
        assert requests.get(f"{url}/api/games/{short}").json()["version"] == COLD_LENGTHS[0]

        def spectators(game_url: str) -> Callable[[float], list[tuple]]:
            return lambda sec: [(game_url, {}, sec)] * a.clients

        phases: dict[str, Phase] = {
            str(length): (client_get, spectators(f"{url}/api/games/{gid}"))
            for length, gid in [(COLD_LENGTHS[0], short), *sorted(long_games.items())]
        }
        with mp.Pool(a.clients) as pool:
            rows, ratios = interleaved(pool, a.rounds, s, phases, server.pid)
    print(line(f"cold GET, Tobago game of {COLD_LENGTHS[0]} entries", rows[str(COLD_LENGTHS[0])]))
    for length in sorted(long_games):
        tail = length % SNAPSHOT_EVERY
        print(
            line(
                f"cold GET, {length} entries (snapshot + {tail} replayed)",
                rows[str(length)],
                ratios[str(length)],
                f"the {COLD_LENGTHS[0]}-entry game",
            )
        )


if __name__ == "__main__":
    main()
