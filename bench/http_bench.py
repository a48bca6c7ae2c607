"""The game API on the production server (gunicorn as ``make run`` configures it, on loopback),
by the server's CPU time per request against ``GET /healthz`` in the same round.

The server runs ``gunicorn.conf.py`` (whatever worker it names; ``--workers`` workers) on a
fresh SQLite file (``--database postgres``: a throw-away PostgreSQL cluster,
``tests/pg_support.py``). Each figure is the median of ``--rounds`` interleaved rounds with its
range. The primary figures are the server's CPU per request (its workers' user + system time
from /proc around each load, ``bench/http_load.py``) as a ratio to ``/healthz``'s (healthz /
endpoint: 1.0 = no dearer than a health check); throughput beside them.

1. ``GET /api/games/<id>``: one game, a seat's token, the seat's view and legal actions (wrk);
2. ``POST /api/games/<id>/actions`` on many games at once: client processes (``--clients``)
   each play their own games (one human seat against a bot of ``--level``, by default the
   first level the game offers, ``easy``; the human plays a random legal action, seeded), so
   every move is a version-checked write with the human's action and the bot's reply
   (target: ≥ 0.60 of /healthz). Wherever the bot's reply is computed, its server CPU counts: a client whose move
   does not come back with its turn again waits for the reply (``events?wait=``) and reads its
   view, and the figure is the server's CPU per move. The games are created before the rounds,
   and so are the spares that replace those that end (a Tobago game against the easy bot
   stalls within ~20 moves; a creation is no move: it counts only when the spares run out, and
   the note says how many games ended and how many were created within the rounds); the
   clients' own CPU per move is printed too;
3. cold ``GET /api/games/<id>`` (a second server keeps no state, ``TOBAGO_STATE_CACHE=0``): a
   10-entry game against 425- and 449-entry Tobago games (about as long as games of today's
   rules run, ``bench/tobago_games.py``), which are rebuilt from the snapshot at 400 and a tail
   of 25 (the average) and 49 entries (the longest; a snapshot is stored every 50) (target: within 2x of the 10-entry game's CPU, i.e. ≥ 0.5);
4. open game pages: ``--pages`` long-polls wait on a game at once (``events?wait=``, the game
   page's fallback and the API clients' way; the live pages' streams are ``live_bench.py``'s)
   while one client times an unrelated ``GET /api/games/kinds`` every 50 ms; figures: how many
   waited (every one: no per-process cap, a waiting request costs a socket, not a thread) and
   the unrelated request's worst latency (target < 1 s).

Usage: ``.venv/bin/python bench/http_bench.py [--rounds 5] [--seconds 2] [--game tobago]
[--database sqlite|postgres] [--skip-cold] [--skip-pages] [--quick]``. The test game Blind
Auction is available as ``--game blind_auction``. Needs Debian's wrk (``make wrk``).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
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
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, Target, parse, parser, ratios, report  # noqa: E402
from bench.http_load import Load, Request, cpu_rounds, healthz_figure, wrk_load, wrk_path  # noqa: E402
from bench.tobago_games import next_move  # noqa: E402
from tests.servers import APP_WITH_TESTGAME, Gunicorn  # noqa: E402
from web.service.states import SNAPSHOT_EVERY  # noqa: E402

#: Lengths of the games read cold: the short baseline, then a snapshot at 400 and the
#: average tail (``SNAPSHOT_EVERY`` / 2) and the longest one (``SNAPSHOT_EVERY`` - 1).
COLD_LENGTHS = (10, 400 + SNAPSHOT_EVERY // 2, 400 + SNAPSHOT_EVERY - 1)
TARGET_POST = 0.60
TARGET_COLD = 0.50
TARGET_UNRELATED_MS = 1000.0


class Api:
    """A keep-alive JSON client on one server (the standard library's: cheap to run)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port, timeout=60
        )

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        self.conn.request(method, path, body=data, headers=headers)
        resp = self.conn.getresponse()
        text = resp.read()
        return resp.status, json.loads(text) if text else None

    def close(self) -> None:
        self.conn.close()


#: A game a client plays: id, its seat's token, the seat's last view.
Game = tuple[str, str, dict]


def new_game(api: Api, game: str, level: str, seed: int) -> Game:
    seats = [{"type": "human", "name": "bench"}, {"type": "bot", "level": level}]
    status, body = api.call("POST", "/api/games", {"game": game, "seats": seats, "seed": seed})
    if status != 201:
        raise RuntimeError(f"could not create a game: {status} {body}")
    token = body["seats"][0]["token"]
    return body["id"], token, api.call("GET", f"/api/games/{body['id']}", token=token)[1]


def my_turn(api: Api, game: Game) -> Game:
    """The game once it is this seat's turn again (or over): the bot's reply awaited through
    the events long-poll when it did not come with the answer."""
    gid, token, me = game
    for _ in range(50):
        if me["over"] or me["legal_actions"]:
            break
        api.call("GET", f"/api/games/{gid}/events?after={me['version']}&wait=5")
        me = api.call("GET", f"/api/games/{gid}", token=token)[1]
    return gid, token, me


def client_moves(args: tuple) -> tuple[list[Game], list[Game], int, int, int, float]:
    """Play ``games`` round-robin for ``seconds``, one move per POST (a random legal action,
    seeded); a game that ends is replaced by one of ``spares`` (created before the load), or a
    new one when none is left. Returns the games and spares as they are now, the moves made, the
    refusals, the games created meanwhile and this process's CPU."""
    url, game, level, seconds, games, spares, seed = args
    cpu0 = time.process_time()
    rng = random.Random(seed)
    api = Api(url)
    moves = errors = created = 0
    end = time.perf_counter() + seconds
    i = 0
    while time.perf_counter() < end:
        k = i % len(games)
        gid, token, me = games[k]
        if me["over"]:
            if spares:
                games[k] = spares.pop()
            else:
                games[k] = new_game(api, game, level, seed + i)
                created += 1
            continue
        body = {"version": me["version"], "action": rng.choice(me["legal_actions"])}
        status, answer = api.call("POST", f"/api/games/{gid}/actions", body, token)
        moves += 1
        if status != 200:
            errors += 1
            answer = api.call("GET", f"/api/games/{gid}", token=token)[1]
        games[k] = my_turn(api, (gid, token, answer))
        i += 1
    api.close()
    return games, spares, moves, errors, created, time.process_time() - cpu0


class Moves:
    """The POST phase's games, kept across rounds, the spare games that replace those that end
    (``prepare``, before each round's load: their creation is no move), and one round's load."""

    def __init__(self, url: str, game: str, level: str, clients: int, per_client: int) -> None:
        self.url, self.game, self.level = url, game, level
        self.seed = 0
        self.games = [[self._new() for _ in range(per_client)] for _ in range(clients)]
        self.spares: list[list[Game]] = [[] for _ in range(clients)]
        self.want = per_client
        self.round = 0
        #: Games that ended within each round (replaced by spares), and created within it.
        self.ended: list[int] = []
        self.created: list[int] = []

    def _new(self, api: Api | None = None) -> Game:
        own = api or Api(self.url)
        self.seed += 1
        found = my_turn(own, new_game(own, self.game, self.level, self.seed))
        if api is None:
            own.close()
        return found

    def prepare(self) -> None:
        """Spares for the next round: twice as many per client as the most that ended."""
        api = Api(self.url)
        for spares in self.spares:
            while len(spares) < self.want:
                spares.append(self._new(api))
        api.close()

    def load(self, pool: mp.pool.Pool, seconds: float) -> Load:
        self.round += 1
        args = [
            (
                self.url,
                self.game,
                self.level,
                seconds,
                games,
                self.spares[c],
                10**6 * self.round + 10**4 * c,
            )
            for c, games in enumerate(self.games)
        ]
        t0 = time.perf_counter()
        results = pool.map(client_moves, args)
        elapsed = time.perf_counter() - t0
        used = [len(self.spares[c]) - len(r[1]) + r[4] for c, r in enumerate(results)]
        self.games, self.spares = [r[0] for r in results], [r[1] for r in results]
        self.want = max(self.want, 2 * max(used))
        self.ended.append(sum(used))
        self.created.append(sum(r[4] for r in results))
        return Load(
            requests=sum(r[2] for r in results),
            errors=sum(r[3] for r in results),
            seconds=elapsed,
            client_s=sum(r[5] for r in results),
        )


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def cpu_ratio(
    key: str,
    label: str,
    base: list[Load],
    loads: list[Load],
    target: Target | None = None,
    each: str = "request",
    more: str = "",
) -> Figure:
    """The ratio per round of the baseline's server CPU per request to ``loads``'."""
    us = [x.server_us for x in loads]
    return Figure(
        key,
        label,
        ratios([b.server_us for b in base], us),
        "x",
        target,
        note=f"{statistics.median(us):.0f} µs per {each}{more}",
    )


def throughput(key: str, label: str, loads: list[Load], by: str, unit: str = "req/s") -> Figure:
    return Figure(
        key,
        label,
        [x.rps for x in loads],
        unit,
        note=f"{by}: {statistics.median(x.client_us for x in loads):.0f} µs CPU each",
    )


# --- cold reads -----------------------------------------------------------------------------


def prepare_long_games(database: str, lengths: tuple[int, ...]) -> dict[int, str]:
    """Tobago games of exactly these log lengths (four human seats playing random legal moves
    that do not let the table stall, ``bench/tobago_games.py``, written through the service's
    own sessions before the server starts); id per length."""
    from games.base import get_kind
    from web.service.sessions import GameSessions
    from web.storage import open_store

    kind = get_kind("tobago")
    sessions = GameSessions(open_store(database))
    made: dict[int, str] = {}
    seed = 1
    for length in sorted(lengths):
        while length not in made:
            game, _, _, _ = sessions.create("tobago", [{"type": "human"}] * 4, None, seed)
            rng = random.Random(seed)
            seed += 1
            for _ in range(length):
                row, state = sessions.current(game.id)
                if kind.is_over(state):
                    break
                seat, action = next_move(kind, state, rng)
                sessions.act(game.id, seat, row.version, action, row)
            if sessions.store.version(game.id) == length and not sessions.store.get(game.id).over:
                made[length] = game.id
    sessions.store.close()
    return made


def short_game(url: str) -> str:
    """A 4-seat Tobago game of ``COLD_LENGTHS[0]`` entries, played over HTTP."""
    api = Api(url)
    seats = [{"type": "human"}] * 4
    body = api.call("POST", "/api/games", {"game": "tobago", "seats": seats, "seed": 3})[1]
    gid, tokens = body["id"], [t["token"] for t in body["seats"]]
    for _ in range(COLD_LENGTHS[0]):
        views = [api.call("GET", f"/api/games/{gid}", token=t)[1] for t in tokens]
        seat = next(v for v in views if v["legal_actions"])
        move = {"version": seat["version"], "action": seat["legal_actions"][0]}
        status, _ = api.call("POST", f"/api/games/{gid}/actions", move, tokens[seat["seat"]])
        assert status == 200
    api.close()
    return gid


def cold_figures(a: argparse.Namespace, database: str, long_games: dict[int, str]) -> list[Figure]:
    """Cold reads: a server that keeps no state (every GET rebuilds the game)."""
    env = {"TOBAGO_STATE_CACHE": "0"}
    with Gunicorn(database, workers=a.workers, env=env, start_timeout=60) as server:
        games = {COLD_LENGTHS[0]: short_game(server.url), **long_games}

        def spectators(gid: str) -> Callable[[], Load]:
            reqs = [Request("GET", f"/api/games/{gid}")]
            return lambda: wrk_load(server.url, reqs, a.seconds, a.connections)

        got = cpu_rounds(server.pid, a.rounds, {str(n): spectators(g) for n, g in games.items()})
    base = got[str(COLD_LENGTHS[0])]
    figures = [
        Figure(
            "http.cold_short_us",
            f"cold GET, Tobago game of {COLD_LENGTHS[0]} entries, server CPU",
            [x.server_us for x in base],
            "µs",
        )
    ]
    for length in sorted(long_games):
        figures.append(
            cpu_ratio(
                f"http.cold_{length}_ratio",
                f"cold GET, {length} entries (snapshot + {length % SNAPSHOT_EVERY}) vs "
                f"{COLD_LENGTHS[0]}",
                base,
                got[str(length)],
                (">=", TARGET_COLD),
            )
        )
    return figures


# --- open game pages ------------------------------------------------------------------------


def pages_round(url: str, game_id: str, pages: int, wait: float) -> dict[str, float]:
    """``pages`` long-polls at once and one unrelated GET every 50 ms while they wait."""
    statuses: list[int] = []
    lock = threading.Lock()

    def poll() -> None:
        api = Api(url)
        with contextlib.suppress(OSError):
            status, _ = api.call("GET", f"/api/games/{game_id}/events?after=0&wait={wait:g}")
            with lock:
                statuses.append(status)
        api.close()

    threads = [threading.Thread(target=poll, daemon=True) for _ in range(pages)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    lat: list[float] = []
    end = time.monotonic() + wait - 1.0
    while time.monotonic() < end:
        api = Api(url)
        t0 = time.monotonic()
        api.call("GET", "/api/games/kinds")
        lat.append(time.monotonic() - t0)
        api.close()
        time.sleep(0.05)
    for t in threads:
        t.join(wait + 30)
    return {"waited": statuses.count(200), "worst_ms": max(lat) * 1000}


def pages_figures(a: argparse.Namespace, database: str) -> list[Figure]:
    """The pages rounds on a server as ``make run`` starts it."""
    wait = 3.0 if a.quick else 4.0
    with Gunicorn(database, workers=a.workers, start_timeout=60) as srv:
        body = {"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 1}
        api = Api(srv.url)
        gid = api.call("POST", "/api/games", body)[1]["id"]
        api.close()
        rows = [pages_round(srv.url, gid, a.pages, wait) for _ in range(a.rounds)]
    what = f"{a.pages} open pages (long-polls)"
    return [
        Figure(
            "http.pages_worst_ms",
            f"{what}: unrelated GET, worst",
            [r["worst_ms"] for r in rows],
            "ms",
            ("<=", TARGET_UNRELATED_MS),
        ),
        Figure(
            "http.pages_waiting",
            f"{what}: long-polls that waited to the end",
            [r["waited"] for r in rows],
            "",
            (">=", a.pages),
            note="the others refused or cut",
        ),
    ]


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
    ap = parser(__doc__)
    ap.add_argument("--game", default="tobago")
    ap.add_argument("--level", default=None, help="bot level (default: random, or the first)")
    ap.add_argument("--seconds", type=int, default=2, help="seconds per load (whole)")
    ap.add_argument("--connections", type=int, default=4, help="wrk's keep-alive connections")
    ap.add_argument("--clients", type=int, default=4, help="client processes for the moves")
    ap.add_argument("--games-per-client", type=int, default=8)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    ap.add_argument("--pages", type=int, default=200, help="long-polls in the pages phase")
    ap.add_argument("--skip-cold", action="store_true")
    ap.add_argument("--skip-pages", action="store_true")
    a = parse(ap)
    if a.quick:
        a.seconds, a.clients, a.games_per_client, a.pages = 1, 2, 2, 20
    wrk_path()

    figures: list[Figure] = []
    with (
        tempfile.TemporaryDirectory(prefix="http-bench-") as tmp,
        database_for(a.database, tmp) as database,
    ):
        long_games = {} if a.skip_cold else prepare_long_games(database, COLD_LENGTHS[1:])
        server = Gunicorn(database, APP_WITH_TESTGAME, workers=a.workers, start_timeout=60)
        with server, mp.Pool(a.clients) as pool:
            url = server.url
            api = Api(url)
            kinds = {k["name"]: k for k in api.call("GET", "/api/games/kinds")[1]["kinds"]}
            if a.game not in kinds:
                raise SystemExit(f"unknown game {a.game!r}; known: {', '.join(kinds)}")
            bots = kinds[a.game]["bots"]
            level = a.level or ("random" if "random" in bots else bots[0])
            gid, token, _ = new_game(api, a.game, level, 1)
            api.close()
            print(
                f"gunicorn ({a.workers} worker(s), gunicorn.conf.py) on 127.0.0.1, "
                f"{'SQLite WAL' if a.database == 'sqlite' else 'PostgreSQL'}; game {a.game} "
                f"(human vs {level} bot); wrk {a.connections} connections, {a.clients} client "
                f"processes for the moves; {os.cpu_count()} CPUs shared with the clients"
            )
            healthz = [Request("GET", "/healthz")]
            view = [Request("GET", f"/api/games/{gid}", headers=auth(token))]
            moves = Moves(url, a.game, level, a.clients, a.games_per_client)
            wrk_load(url, healthz + view, 1, a.connections)  # warm up
            got = cpu_rounds(
                server.pid,
                a.rounds,
                {
                    "healthz": lambda: wrk_load(url, healthz, a.seconds, a.connections),
                    "get": lambda: wrk_load(url, view, a.seconds, a.connections),
                    "post": lambda: moves.load(pool, a.seconds),
                },
                prepare={"post": moves.prepare},
            )
        base = got["healthz"]
        figures += [
            healthz_figure("http", [x.server_us for x in base]),
            cpu_ratio("http.get_ratio", "seat view GET: /healthz CPU / GET CPU", base, got["get"]),
            cpu_ratio(
                "http.post_ratio",
                f"move + bot reply ({a.clients * a.games_per_client} games): /healthz CPU / move CPU",
                base,
                got["post"],
                (">=", TARGET_POST),
                each="move",
                more=f"; {level} bot; {sum(moves.ended)} games ended in the rounds, "
                f"{sum(moves.created)} created within them",
            ),
            throughput("http.healthz_rps", "GET /healthz, req/s (wrk)", base, "wrk"),
            throughput("http.get_rps", "seat view GET, req/s (wrk)", got["get"], "wrk"),
            throughput(
                "http.post_rps",
                "moves + bot reply, moves/s (client processes)",
                got["post"],
                "clients",
                "moves/s",
            ),
        ]
        if long_games:
            figures += cold_figures(a, database, long_games)
        if not a.skip_pages:
            figures += pages_figures(a, database)
    report("http", figures, a, workers=a.workers, database=a.database, game=a.game)


if __name__ == "__main__":
    main()
