"""The account pages on the production server: ``/me`` and a profile, built on the server from
the store, by the server's CPU time per request against ``GET /healthz`` in the same round.

An account with 1,000 finished games (``--quick``: 50), each with its result and a rating
change as a game's end writes them, and one game in play, is written into a fresh SQLite file;
then gunicorn (``gunicorn.conf.py``, one worker) serves it on loopback and wrk asks, in
interleaved rounds: ``GET /healthz``; ``GET /me`` signed in (the session cookie: the session's
lookup, the running games, the newest finished ones); the account's profile
``/players/<name>`` as a guest sees it (games played and won per kind, ratings, the recent
games); a leaderboard (no target). Figures: /healthz's CPU per request, and each page's as a
ratio /healthz CPU / page CPU (target ≥ 1/3: a page costs at most three health checks).

Usage: ``.venv/bin/python bench/accounts_bench.py [--rounds 5] [--seconds 2] [--quick]``.
Needs Debian's wrk (``make wrk``).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from bench.common import Figure, parse, parser, report  # noqa: E402
from bench.http_bench import cpu_ratio, cpu_rounds  # noqa: E402
from bench.http_load import Request, wrk_load, wrk_path  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402
from web.accounts.credentials import COOKIE  # noqa: E402
from web.storage.accounts import RatingChange  # noqa: E402

NAME = "Bench Player"
#: A page may cost at most three health checks (healthz CPU / page CPU ≥ 1/3).
TARGET = (">=", 1 / 3)


def seed(database: str, finished: int) -> str:
    """The account ``NAME`` with ``finished`` finished DAO games against the easy bot (each its
    result and rating change) and one in play, in ``database``; its session cookie's value."""
    app = create_app({"TESTING": True, "DATABASE": database})
    client = app.test_client()
    signed = client.post("/api/accounts", json={"name": NAME, "password": "bench passphrase"})
    assert signed.status_code == 201, signed.get_json()
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    sessions = app.extensions["game_sessions"]
    account = app.extensions["accounts"].store.account_named(NAME.casefold())
    seats: list[dict[str, Any]] = [{"type": "human"}, {"type": "bot", "level": "easy"}]
    t0 = sessions.clock() - finished
    for i in range(finished + 1):
        game = sessions.create("dao", [dict(s) for s in seats], None, i, account)[0]
        if i == finished:
            break  # the last one is in play
        ended, place = t0 + i, 1 + i % 2
        with sessions.store.transaction(game.id) as tx:
            tx.accounts().end_players(game.id, {0: (place, 10.0 - place)}, ended)
            change = RatingChange(
                game.id, 0, account.id, "dao", place, (25.0, 8.3), (25.5, 8.1), ended
            )
            tx.accounts().save_changes([change])
    sessions.store.close()
    return cookie.value


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--seconds", type=int, default=2, help="seconds per load (whole)")
    ap.add_argument("--connections", type=int, default=4, help="wrk's keep-alive connections")
    a = parse(ap)
    if a.quick:
        a.seconds = 1
    wrk_path()
    finished = 50 if a.quick else 1000
    with tempfile.TemporaryDirectory(prefix="accounts-bench-") as tmp:
        database = f"{tmp}/bench.sqlite3"
        cookie = seed(database, finished)
        with Gunicorn(database, workers=1, start_timeout=60) as server:
            url = server.url
            signed_in = {"Cookie": f"{COOKIE}={cookie}"}
            loads = {
                "healthz": [Request("GET", "/healthz")],
                "me": [Request("GET", "/me", headers=signed_in)],
                "profile": [Request("GET", "/players/" + NAME.replace(" ", "%20"))],
                "board": [Request("GET", "/leaderboards/dao")],
            }
            print(
                f"gunicorn (1 worker, gunicorn.conf.py) on 127.0.0.1, SQLite WAL; an account "
                f"with {finished} finished games and one in play; wrk {a.connections} connections"
            )
            for reqs in loads.values():  # warm up, and every page answers
                warm = wrk_load(url, reqs, 1, a.connections)
                if warm.errors:
                    raise SystemExit(f"{reqs[0].path}: {warm.errors} requests failed")
            got = cpu_rounds(
                server.pid,
                a.rounds,
                {
                    name: partial(wrk_load, url, reqs, a.seconds, a.connections)
                    for name, reqs in loads.items()
                },
            )
    base = got["healthz"]
    figures = [
        Figure(
            "accounts.healthz_us",
            "GET /healthz, server CPU per request",
            [x.server_us for x in base],
            "µs",
        ),
        cpu_ratio(
            "accounts.me_ratio",
            f"/me signed in, {finished} finished games: /healthz CPU / page CPU",
            base,
            got["me"],
            TARGET,
        ),
        cpu_ratio(
            "accounts.profile_ratio",
            f"a profile, {finished} finished games: /healthz CPU / page CPU",
            base,
            got["profile"],
            TARGET,
        ),
        cpu_ratio(
            "accounts.board_ratio",
            "a leaderboard: /healthz CPU / page CPU",
            base,
            got["board"],
        ),
    ]
    print(f"(healthz {statistics.median(x.server_us for x in base):.0f} µs per request)")
    report("accounts", figures, args=a, finished_games=finished)


if __name__ == "__main__":
    main()
