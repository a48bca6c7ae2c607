"""Accounts: what a sign-in costs the server, "my games" and a profile of an account with 1,000
finished games, and rating a game as it ends.

A SQLite file is filled in process with one account, "Ana", holding a seat in 1,000 finished
games (over the four game kinds, each with its result and a stored rating change) and 5
running ones, plus "Bo" for the leaderboards; a gunicorn server (``gunicorn.conf.py``) serves
it. Figures, the median of interleaved rounds with their range:

1. the server's CPU per request (its processes' /proc times around a wrk load over 4
   connections) of ``GET /healthz``, of a sign-in (``POST /api/session``: argon2id is meant to
   cost, about 25 ms of a core; printed beside /healthz, no target), of Ana's games
   (``GET /api/me/games`` and the page ``/me``), her profile (``GET /api/players/Ana`` and
   ``/players/Ana``) and a leaderboard (``/leaderboards/<kind>``), each signed in by Ana's
   session cookie, each as a ratio /healthz CPU ÷ its CPU (the README's convention; target:
   my games and a profile ≥ 1/3, i.e. at most three health checks);
2. in process: rating a game as it ends (``web.accounts.results.record_end`` in the game's write
   transaction: two accounts and a bot, the players' results, the accounts locked, their
   ratings read, rated by openskill and written, and the commit), wall time per game (target
   ≤ 5 ms).

Usage: ``.venv/bin/python bench/accounts_bench.py [--rounds 5] [--seconds 2] [--quick]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import Figure, report, sqlite_store  # noqa: E402
from bench.http_load import Request, healthz_figure, healthz_ratio, load_args, server_us, wrk_rounds  # noqa: E402
from games.base import get_kind, kinds, play_bots  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402
from web.accounts import ratings  # noqa: E402
from web.accounts.credentials import COOKIE  # noqa: E402
from web.accounts.names import name_key  # noqa: E402
from web.accounts.passwords import hash_password  # noqa: E402
from web.accounts.results import record_end  # noqa: E402
from web.storage import BOT, HUMAN, OVER, GameRecord, Seat, new_token  # noqa: E402
from web.storage.accounts import Account, RatingChange  # noqa: E402
from web.storage.sqlite import SqliteStore  # noqa: E402

PASSWORD = "correct horse battery"
#: My games and a profile cost at most three health checks (ratio /healthz ÷ it ≥ 1/3).
TARGET_TIMES = 3.0
TARGET_RATE_MS = 5.0


def fill(store: SqliteStore, finished: int, running: int) -> Account:
    """Ana with ``finished`` finished games and ``running`` running ones (module doc), and Bo."""
    now = time.time()
    ana = Account(new_token()[:16], "Ana", hash_password(PASSWORD), now)
    bo = Account(new_token()[:16], "Bo", hash_password(PASSWORD), now)
    for a in (ana, bo):
        store.create_account(a, name_key(a.name))
    names = sorted(kinds())
    rng = random.Random(1)
    mine = {k: ratings.new_rating(k, now) for k in names}
    for i in range(finished + running):
        kind = names[i % len(names)]
        seats = [
            Seat(0, HUMAN, "Ana", token_hash="x", account=ana.id),
            Seat(1, BOT, "normal bot", "normal"),
            Seat(2, HUMAN, "Bo", token_hash="y", account=bo.id),
        ]
        game = GameRecord(new_token()[:12], kind, {}, i, seats)
        game.to_act = [0]
        store.create(game, [])
        if i >= finished:
            continue
        ended = now - (finished - i) * 60
        place = rng.choice([1, 2, 3])
        with store.transaction(game.id) as tx:
            tx.append([], OVER, None)
            tx.accounts().end_players(game.id, {0: (place, 10.0 * place), 2: (1, 30.0)}, ended)
            before = mine[kind]
            mu = before.mu + rng.uniform(-1, 1)
            change = RatingChange(
                game.id,
                0,
                ana.id,
                kind,
                place,
                (before.mu, before.sigma),
                (mu, before.sigma),
                ended,
            )
            tx.accounts().save_changes([change])
            mine[kind] = ratings.updated(before, change)
            tx.accounts().save_rating(ana.id, mine[kind])
    return ana


def raters(store: SqliteStore) -> list[Account]:
    """The two accounts whose games ``rate_ms`` ends."""
    players = []
    for name in ("Cyd", "Dia"):
        a = Account(new_token()[:16], name, "x", time.time())
        store.create_account(a, name_key(name))
        players.append(a)
    return players


def rate_ms(store: SqliteStore, players: list[Account], games: int) -> float:
    """Wall ms per game of rating it as it ends (module doc, 2): the median of ``games``."""
    kind = get_kind("dao")
    state = kind.new_state(5, 3, {})
    play_bots(kind, state, ["easy"] * 3, random.Random(5))
    now = time.time()
    took = []
    for i in range(games):
        seats = [
            Seat(0, HUMAN, "Cy", token_hash="x", account=players[0].id),
            Seat(1, HUMAN, "Di", token_hash="y", account=players[1].id),
            Seat(2, BOT, "normal bot", "normal"),
        ]
        game = GameRecord(new_token()[:12], kind.name, {}, i, seats)
        store.create(game, [])
        t0 = time.perf_counter()
        with store.transaction(game.id) as tx:
            tx.append([], OVER, None)
            record_end(tx, kind, state, now + i)
        took.append((time.perf_counter() - t0) * 1000)
    return statistics.median(took)


def main() -> None:
    a, seconds, finished = load_args(__doc__, "games", 1000, 50, "Ana's finished games")
    with sqlite_store("accounts") as (database, store):
        fill(store, finished, 5)
        rated = SqliteStore(str(database.parent / "rate.sqlite3"))
        with Gunicorn(database, start_timeout=60) as server:
            url = server.url
            signed = requests.post(
                f"{url}/api/session", json={"name": "Ana", "password": PASSWORD}, timeout=30
            )
            signed.raise_for_status()
            cookie = {"Cookie": f"{COOKIE}={signed.cookies[COOKIE]}"}
            kind = sorted(kinds())[0]
            body = f'{{"name": "Ana", "password": "{PASSWORD}"}}'.encode()
            json_type = {"Content-Type": "application/json"}
            asked = {
                "healthz": [Request("GET", "/healthz")],
                "sign_in": [Request("POST", "/api/session", body, json_type)],
                "me_api": [Request("GET", "/api/me/games", headers=cookie)],
                "me_page": [Request("GET", "/me", headers=cookie)],
                "profile_api": [Request("GET", "/api/players/Ana", headers=cookie)],
                "profile_page": [Request("GET", "/players/Ana", headers=cookie)],
                "board_page": [Request("GET", f"/leaderboards/{kind}", headers=cookie)],
            }
            loads = wrk_rounds(server.pid, url, asked, a.rounds, seconds)
        players = raters(rated)
        rate = [rate_ms(rated, players, 20 if a.quick else 200) for _ in range(a.rounds)]
        rated.close()
    us = server_us(loads)
    base = us["healthz"]
    figures = [
        healthz_figure("accounts", base),
        Figure(
            "accounts.sign_in_ms",
            "a sign-in (argon2id), server CPU per request",
            [v / 1000 for v in us["sign_in"]],
            "ms",
            note=f"{statistics.median(us['sign_in']) / statistics.median(base):.0f}× /healthz",
        ),
    ]
    for name, words in (
        ("me_api", "GET /api/me/games"),
        ("me_page", "the page /me"),
        ("profile_api", "GET /api/players/<name>"),
        ("profile_page", "the page /players/<name>"),
        ("board_page", "the page /leaderboards/<kind>"),
    ):
        target = (">=", 1 / TARGET_TIMES) if not name.startswith("board") else None
        figures.append(
            healthz_ratio(
                "accounts",
                name,
                f"{words} of an account with {finished} finished games",
                us,
                target=target,
            )
        )
    figures.append(
        Figure(
            "accounts.rate_game_ms",
            "rating a game as it ends (two accounts and a bot), its write transaction",
            rate,
            "ms",
            ("<=", TARGET_RATE_MS),
        )
    )
    report("accounts", figures, a, finished_games=finished)


if __name__ == "__main__":
    main()
