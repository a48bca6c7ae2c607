"""HTTP throughput of the game API on the production server (gunicorn on loopback).

Starts gunicorn (2 worker processes x 8 threads, buffered gthread, like ``make run``) on a fresh
SQLite file, then runs 8 concurrent client processes per phase and prints requests per second
with the p50/p99 latency:

1. ``GET /healthz`` - the baseline: Flask + gunicorn with no game work, same run, same machine;
2. ``GET /api/games/<id>`` - one game, a seat's token, the seat's view and legal actions;
3. ``POST /api/games/<id>/actions`` on many games at once - each client plays its own games
   (one human seat against a bot), so every request is a version-checked transaction with the
   human's action and the bot's answer, each appended to the log.

Usage: ``.venv/bin/python bench/http_bench.py [--game dao] [--seconds 5] [--clients 8]``.
The test game Blind Auction is available as ``--game blind_auction``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import APP_WITH_TESTGAME, Gunicorn  # noqa: E402


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
    seed = index * 1000
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
                games[i % len(games)] = (gid, token, resp.json())
            else:
                errors += 1
                games[i % len(games)] = (
                    gid,
                    token,
                    http.get(f"{url}/api/games/{gid}", headers=auth(token)).json(),
                )
            i += 1
    return lat, errors


def run_phase(pool: mp.pool.Pool, fn, args: list[tuple], seconds: float) -> dict:
    start = time.perf_counter()
    results = pool.map(fn, args)
    wall = time.perf_counter() - start
    lat = sorted(x for r in results for x in r[0])
    errors = sum(r[1] for r in results)
    n = len(lat)
    return {
        "n": n,
        "rps": n / seconds,
        "p50": statistics.median(lat) * 1000 if lat else float("nan"),
        "p99": lat[min(n - 1, int(n * 0.99))] * 1000 if lat else float("nan"),
        "errors": errors,
        "wall": wall,
    }


def line(name: str, r: dict, baseline: dict | None = None) -> str:
    ratio = f"  {r['rps'] / baseline['rps']:.2f}x baseline" if baseline else ""
    return (
        f"{name:<44} {r['rps']:8.0f} req/s   p50 {r['p50']:6.1f} ms   p99 {r['p99']:6.1f} ms"
        f"   ({r['n']} requests, {r['errors']} non-200){ratio}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="dao")
    ap.add_argument("--level", default=None, help="bot level (default: the game's first)")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games-per-client", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=8)
    a = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="http-bench-") as tmp:
        server = Gunicorn(
            os.path.join(tmp, "bench.sqlite3"),
            APP_WITH_TESTGAME,  # the app, plus the test game
            workers=a.workers,
            threads=a.threads,
            start_timeout=60,
        )
        with server:
            url = server.url
            kinds = {k["name"]: k for k in requests.get(url + "/api/games/kinds").json()["kinds"]}
            if a.game not in kinds:
                raise SystemExit(f"unknown game {a.game!r}; known: {', '.join(kinds)}")
            bots = kinds[a.game]["bots"]
            level = a.level or ("random" if "random" in bots else bots[0])
            print(
                f"gunicorn {a.workers} workers x {a.threads} threads (buffered gthread) on 127.0.0.1, "
                f"SQLite WAL; {a.clients} client processes, {a.seconds:g} s per phase; "
                f"game {a.game} (human vs {level} bot); {os.cpu_count()} CPUs shared with clients"
            )
            gid, token, _ = new_game(url, a.game, level, 1)
            with mp.Pool(a.clients) as pool:
                pool.map(client_get, [(url + "/healthz", {}, 0.3)] * a.clients)  # warm up
                base = run_phase(
                    pool, client_get, [(url + "/healthz", {}, a.seconds)] * a.clients, a.seconds
                )
                print(line("GET /healthz (baseline)", base))
                game_url = f"{url}/api/games/{gid}"
                pool.map(client_get, [(game_url, auth(token), 0.3)] * a.clients)
                get = run_phase(
                    pool, client_get, [(game_url, auth(token), a.seconds)] * a.clients, a.seconds
                )
                print(line("GET /api/games/<id> (seat view, one game)", get, base))
                act_args = [
                    (url, a.game, level, a.seconds, i, a.games_per_client) for i in range(a.clients)
                ]
                acts = run_phase(pool, client_actions, act_args, a.seconds)
                games = a.clients * a.games_per_client
                print(line(f"POST .../actions ({games} games at once, +bot)", acts, base))


if __name__ == "__main__":
    main()
