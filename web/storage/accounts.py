"""Where players' accounts live: their tables, records and every statement, written once in SQL
over the game store's layer (``web.storage.sql``), so SQLite and PostgreSQL keep them alike.

Tables (``account_tables``, part of each database's schema and its migrations):

- ``accounts``: a player's name as written (NFKC), its key for uniqueness (``name_key``: the
  name case-folded, so "Ana" and "ANA" are one name) and the password's argon2id hash (never
  the password);
- ``web_sessions``: a signed-in browser, by the SHA-256 of its cookie's secret, with its end;
  removing the row signs that browser out at once on every server;
- ``access_tokens``: personal access tokens for API clients, by the SHA-256 of the token;
- ``attempts``: failed sign-ins and new accounts by key (a name, a client address) and time,
  what the limits count (``web.accounts.limits``);
- ``players``: the seats accounts hold, one row per (game, seat), kept in step with the
  game's seats by the store itself (``sync_players`` on every write of seats), with the
  result once the game is over: the index of "my games" and profiles;
- ``ratings``: each account's current rating per game kind (openskill's ``mu`` and ``sigma``,
  the leaderboard's ``ordinal`` = mu - 3 sigma, the rated games counted);
- ``rating_changes``: every rated seat of every rated game (accounts and the bots' anchors)
  with its place and its rating before and after, stored with the game when it ends and
  numbered in the order games were rated (``rated``), so the ratings can be rebuilt from the
  games (``web.accounts.ratings.rebuild``). A game's end locks its accounts' rows (in the
  order of their ids: no deadlock), so two games of one account are rated one after the
  other, on PostgreSQL too.

Deleting an account deletes its sessions, tokens, player rows and ratings (``ON DELETE
CASCADE``); its seats in games are rewritten as a deleted player's first
(``web.accounts.service``) and its rating changes stay, under its opaque id, for the rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from web.storage import GameRecord, Seat, turn_deadlines_from_json
from web.storage.dialect import Connection, Dialect, StoreLayer


def account_tables(real: str, serial: str) -> tuple[str, ...]:
    """The accounts' tables and indexes, ``real`` the database's floating-point type and
    ``serial`` its type of a column numbered in order of insertion."""
    return (
        f"""CREATE TABLE accounts (
            id        TEXT PRIMARY KEY,
            name      TEXT NOT NULL,
            name_key  TEXT NOT NULL UNIQUE,
            password  TEXT NOT NULL,
            created   {real} NOT NULL
        )""",
        f"""CREATE TABLE web_sessions (
            id_hash   TEXT PRIMARY KEY,
            account   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
            created   {real} NOT NULL,
            expires   {real} NOT NULL
        )""",
        "CREATE INDEX web_sessions_account ON web_sessions (account)",
        f"""CREATE TABLE access_tokens (
            id         TEXT PRIMARY KEY,
            token_hash TEXT NOT NULL UNIQUE,
            account    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
            label      TEXT NOT NULL,
            created    {real} NOT NULL,
            used       {real}
        )""",
        "CREATE INDEX access_tokens_account ON access_tokens (account)",
        f"CREATE TABLE attempts (key TEXT NOT NULL, time {real} NOT NULL)",
        "CREATE INDEX attempts_key ON attempts (key, time)",
        f"""CREATE TABLE players (
            game    TEXT NOT NULL REFERENCES games (id),
            seat    INTEGER NOT NULL,
            account TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
            kind    TEXT NOT NULL,
            joined  {real} NOT NULL,
            ended   {real},
            place   INTEGER,
            score   {real},
            PRIMARY KEY (game, seat)
        )""",
        # "my games" and a profile's counts read this index alone (kind and place in it)
        "CREATE INDEX players_account ON players (account, ended, kind, place)",
        f"""CREATE TABLE ratings (
            account TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
            kind    TEXT NOT NULL,
            mu      {real} NOT NULL,
            sigma   {real} NOT NULL,
            ordinal {real} NOT NULL,
            games   INTEGER NOT NULL,
            updated {real} NOT NULL,
            PRIMARY KEY (account, kind)
        )""",
        "CREATE INDEX ratings_board ON ratings (kind, ordinal)",
        f"""CREATE TABLE rating_changes (
            game         TEXT NOT NULL REFERENCES games (id),
            seat         INTEGER NOT NULL,
            account      TEXT,
            kind         TEXT NOT NULL,
            place        INTEGER NOT NULL,
            mu_before    {real} NOT NULL,
            sigma_before {real} NOT NULL,
            mu_after     {real} NOT NULL,
            sigma_after  {real} NOT NULL,
            time         {real} NOT NULL,
            rated        {serial},
            PRIMARY KEY (game, seat)
        )""",
        "CREATE INDEX rating_changes_rated ON rating_changes (rated)",
        "CREATE INDEX rating_changes_account ON rating_changes (account)",
    )


@dataclass
class Account:
    """A player's account: ``id`` is opaque (never shown), ``name`` as the player wrote it."""

    id: str
    name: str
    password_hash: str
    created: float


@dataclass
class AccessToken:
    """A personal access token as its owner sees it listed (the token itself is shown once)."""

    id: str
    label: str
    created: float
    used: float | None


@dataclass
class PlayerGame:
    """A seat an account holds, with its game's row (``ended`` ``None``: it runs); once over,
    the seat's ``place`` (1: a winner) and ``score``; ``rating`` the rating change the game
    gave it (``(mu before, mu after)``), if it was rated. A finished game's row is read as
    lists show it (``AccountsSql.listed_game``: no options or seed)."""

    seat: int
    joined: float
    ended: float | None
    place: int | None
    score: float | None
    rating: tuple[float, float] | None
    game: GameRecord


@dataclass
class Rating:
    """An account's rating in one game kind (openskill's Plackett-Luce ``mu`` and ``sigma``)."""

    kind: str
    mu: float
    sigma: float
    games: int
    updated: float
    #: The account's name (leaderboards).
    name: str = ""

    @property
    def ordinal(self) -> float:
        """The conservative rating leaderboards order by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass
class RatingChange:
    """One rated seat of a rated game: an account's (``account``) or a bot's anchor (``None``),
    its place (1: a winner) and its rating before and after the game."""

    game: str
    seat: int
    account: str | None
    kind: str
    place: int
    before: tuple[float, float]
    after: tuple[float, float]
    time: float


#: The columns of a finished game a list of games reads (``AccountsSql.listed_game``).
LISTED = ("id", "kind", "seats", "public", "status", "version", "updated")


class AccountStatements:
    """The accounts' statements in one database's words (its parameter mark, its row lock,
    the next number of ``rating_changes.rated``: ``next_rated``)."""

    def __init__(
        self, sql: Dialect, row_lock: str, game_columns: Sequence[str], next_rated: str
    ) -> None:
        say = sql.say
        game = ", ".join(f"g.{c}" for c in game_columns)
        self.new_account = say(
            "INSERT INTO accounts (id, name, name_key, password, created) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (name_key) DO NOTHING RETURNING id"
        )
        account = "SELECT id, name, password, created FROM accounts"
        self.account_by_key = say(f"{account} WHERE name_key = ?")
        self.account_by_id = say(f"{account} WHERE id = ?")
        self.set_password = say("UPDATE accounts SET password = ? WHERE id = ?")
        self.delete_account = say("DELETE FROM accounts WHERE id = ?")
        self.new_session = say(
            "INSERT INTO web_sessions (id_hash, account, created, expires) VALUES (?, ?, ?, ?)"
        )
        self.session_account = say(
            "SELECT a.id, a.name, a.password, a.created FROM web_sessions s"
            " JOIN accounts a ON a.id = s.account WHERE s.id_hash = ? AND s.expires > ?"
        )
        self.end_session = say("DELETE FROM web_sessions WHERE id_hash = ?")
        self.end_sessions = say("DELETE FROM web_sessions WHERE account = ? AND id_hash <> ?")
        self.expired_sessions = say("DELETE FROM web_sessions WHERE expires <= ?")
        self.new_token = say(
            "INSERT INTO access_tokens (id, token_hash, account, label, created)"
            " VALUES (?, ?, ?, ?, ?)"
        )
        self.tokens = say(
            "SELECT id, label, created, used FROM access_tokens WHERE account = ?"
            " ORDER BY created DESC"
        )
        self.count_tokens = say("SELECT COUNT(*) AS n FROM access_tokens WHERE account = ?")
        self.revoke_token = say(
            "DELETE FROM access_tokens WHERE account = ? AND id = ? RETURNING id"
        )
        self.token_account = say(
            "SELECT a.id, a.name, a.password, a.created, t.id AS token, t.used"
            " FROM access_tokens t JOIN accounts a ON a.id = t.account WHERE t.token_hash = ?"
        )
        self.token_used = say("UPDATE access_tokens SET used = ? WHERE id = ?")
        self.attempts = say(
            "SELECT COUNT(*) AS n, MIN(time) AS first FROM attempts WHERE key = ? AND time > ?"
        )
        self.new_attempt = say("INSERT INTO attempts (key, time) VALUES (?, ?)")
        self.old_attempts = say("DELETE FROM attempts WHERE key = ? AND time <= ?")
        self.clear_attempts = say("DELETE FROM attempts WHERE key = ?")
        self.new_player = say(
            "INSERT INTO players (game, seat, account, kind, joined) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game, seat) DO UPDATE SET account = excluded.account,"
            " joined = excluded.joined WHERE players.account <> excluded.account"
        )
        self.drop_player = say("DELETE FROM players WHERE game = ? AND seat = ?")
        self.end_player = say(
            "UPDATE players SET ended = ?, place = ?, score = ? WHERE game = ? AND seat = ?"
        )
        seat = "SELECT p.seat, p.joined, p.ended, p.place, p.score, r.mu_before, r.mu_after"
        joined = (
            " FROM players p JOIN games g ON g.id = p.game"
            " LEFT JOIN rating_changes r ON r.game = p.game AND r.seat = p.seat"
        )
        self.running = say(
            f"{seat}, {game}{joined} WHERE p.account = ? AND p.ended IS NULL"
            " ORDER BY g.updated DESC LIMIT ?"
        )
        # a finished game as lists show it (``listed_game``): what its seats and link need
        mine = f"{seat}, {', '.join(f'g.{c}' for c in LISTED)}{joined}"
        # the account's finished games for a page: (public only, the row's key only) -> SQL
        keys = (
            "SELECT p.game AS id, g.updated, p.seat, p.place, p.score, p.ended, r.mu_before,"
            " r.mu_after FROM players p JOIN games g ON g.id = p.game"
            " LEFT JOIN rating_changes r ON r.game = p.game AND r.seat = p.seat"
        )
        self.finished_page = {
            (public, keys_only): say(
                f"{keys if keys_only else mine} WHERE p.account = ? AND p.ended IS NOT NULL"
                f" AND p.ended < ?{' AND g.public' if public else ''}"
                " ORDER BY p.ended DESC LIMIT ?"
            )
            for public in (False, True)
            for keys_only in (False, True)
        }
        self.last_finished = say(
            "SELECT MAX(ended) AS last FROM players WHERE account = ? AND ended IS NOT NULL"
        )
        self.game_ids = say("SELECT game FROM players WHERE account = ?")
        self.stats = say(
            "SELECT kind, COUNT(*) AS played, SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS won"
            " FROM players WHERE account = ? AND place IS NOT NULL GROUP BY kind ORDER BY kind"
        )
        rating = "SELECT kind, mu, sigma, games, updated FROM ratings"
        self.ratings = say(f"{rating} WHERE account = ? ORDER BY kind")
        self.rating = say(f"{rating} WHERE account = ? AND kind = ?")
        self.lock_account = say(f"SELECT id FROM accounts WHERE id = ?{row_lock}")
        self.save_rating = say(
            "INSERT INTO ratings (account, kind, mu, sigma, ordinal, games, updated)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account, kind) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
            " games = excluded.games, updated = excluded.updated"
        )
        self.leaderboard = say(
            "SELECT r.kind, r.mu, r.sigma, r.games, r.updated, a.name FROM ratings r"
            " JOIN accounts a ON a.id = r.account WHERE r.kind = ?"
            " ORDER BY r.ordinal DESC, a.name_key LIMIT ?"
        )
        self.clear_ratings = "DELETE FROM ratings"
        changed = (
            "game, seat, account, kind, place, mu_before, sigma_before, mu_after, sigma_after, time"
        )
        self.new_change = say(
            f"INSERT INTO rating_changes ({changed}, rated)"
            f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {next_rated})"
        )
        self.changes = f"SELECT {changed} FROM rating_changes ORDER BY rated, seat"
        self.rewrite_change = say(
            "UPDATE rating_changes SET mu_before = ?, sigma_before = ?, mu_after = ?,"
            " sigma_after = ? WHERE game = ? AND seat = ?"
        )
        self.accounts_exist = "SELECT id FROM accounts"


def _account(row: Mapping[str, Any]) -> Account:
    return Account(row["id"], row["name"], row["password"], row["created"])


def sync_players(store: AccountsSql, conn: Connection, game: GameRecord, now: float) -> None:
    """Bring the ``players`` rows of ``game`` in step with its seats, in the write that sets
    them: a row for each seat an account holds, none for the others."""
    sql = store.account_sql
    for seat in game.seats:
        if seat.account is not None:
            conn.execute(sql.new_player, (game.id, seat.index, seat.account, game.kind, now))
        elif seat.type == "human":
            conn.execute(sql.drop_player, (game.id, seat.index))


def held(seats: Iterable[Seat]) -> bool:
    """Whether an account holds any of ``seats`` (a game of guests and bots needs no row)."""
    return any(s.account is not None for s in seats)


class AccountTransaction:
    """The account writes of a game's write transaction (``web.accounts.results``, when the
    game ends): the connection is the transaction's, so they commit or roll back with it."""

    def __init__(self, store: AccountsSql, conn: Connection) -> None:
        self.store = store
        self.conn = conn
        self.sql = store.account_sql

    def end_players(
        self, game_id: str, results: Mapping[int, tuple[int | None, float | None]], at: float
    ) -> None:
        """Each account seat's ``(place, score)`` as the game ended at ``at`` (``None``: a game
        that ended with no result, a table that expired in the lobby)."""
        for seat, (place, score) in results.items():
            self.conn.execute(self.sql.end_player, (at, place, score, game_id, seat))

    def lock_accounts(self, accounts: Iterable[str]) -> None:
        """Lock the accounts' rows until the commit, in the order of their ids (PostgreSQL's
        row locks; SQLite's write transaction holds the whole file): the ratings read next
        are the latest, and no other game's end changes them meanwhile."""
        for account in sorted(set(accounts)):
            self.conn.execute(self.sql.lock_account, (account,)).fetchone()

    def rating(self, account: str, kind: str) -> Rating | None:
        """An account's rating in ``kind`` (lock the account first: ``lock_accounts``)."""
        row = self.conn.execute(self.sql.rating, (account, kind)).fetchone()
        return None if row is None else _rating(row)

    def save_rating(self, account: str, rating: Rating) -> None:
        self.conn.execute(
            self.sql.save_rating,
            (
                account,
                rating.kind,
                rating.mu,
                rating.sigma,
                rating.ordinal,
                rating.games,
                rating.updated,
            ),
        )

    def save_changes(self, changes: Sequence[RatingChange]) -> None:
        for c in changes:
            self.conn.execute(
                self.sql.new_change,
                (c.game, c.seat, c.account, c.kind, c.place, *c.before, *c.after, c.time),
            )


def _rating(row: Mapping[str, Any]) -> Rating:
    return Rating(row["kind"], row["mu"], row["sigma"], row["games"], row["updated"])


class AccountsSql(StoreLayer):
    """The accounts' storage over a ``SqlStore``'s layer (mixed into ``SqlStore``)."""

    if TYPE_CHECKING:

        @property
        def account_sql(self) -> AccountStatements: ...

    # --- accounts ------------------------------------------------------------------------

    def create_account(self, account: Account, name_key: str) -> bool:
        """Insert a new account; ``False`` when its name (by ``name_key``) is taken."""
        a = account
        with self._writing() as conn:
            row = conn.execute(
                self.account_sql.new_account, (a.id, a.name, name_key, a.password_hash, a.created)
            ).fetchone()
        return row is not None

    def account_named(self, name_key: str) -> Account | None:
        row = self._one(self.account_sql.account_by_key, (name_key,))
        return None if row is None else _account(row)

    def account(self, account_id: str) -> Account | None:
        row = self._one(self.account_sql.account_by_id, (account_id,))
        return None if row is None else _account(row)

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self._writing() as conn:
            conn.execute(self.account_sql.set_password, (password_hash, account_id))

    def delete_account(self, account_id: str) -> None:
        """The account and what hangs on it (module doc); its games' seats are the caller's."""
        with self._writing() as conn:
            conn.execute(self.account_sql.delete_account, (account_id,))

    # --- sessions and tokens -------------------------------------------------------------

    def new_session(self, id_hash: str, account_id: str, now: float, expires: float) -> None:
        """A signed-in browser; sessions that have ended are cleared on the way."""
        with self._writing() as conn:
            conn.execute(self.account_sql.expired_sessions, (now,))
            conn.execute(self.account_sql.new_session, (id_hash, account_id, now, expires))

    def session_account(self, id_hash: str, now: float) -> Account | None:
        """The account of a session that has not ended."""
        row = self._one(self.account_sql.session_account, (id_hash, now))
        return None if row is None else _account(row)

    def end_session(self, id_hash: str) -> None:
        with self._writing() as conn:
            conn.execute(self.account_sql.end_session, (id_hash,))

    def end_sessions(self, account_id: str, keep_hash: str = "") -> None:
        """Every session of the account but the one hashed ``keep_hash`` (none: all)."""
        with self._writing() as conn:
            conn.execute(self.account_sql.end_sessions, (account_id, keep_hash))

    def new_token(
        self, token_id: str, token_hash: str, account_id: str, label: str, now: float
    ) -> None:
        with self._writing() as conn:
            conn.execute(self.account_sql.new_token, (token_id, token_hash, account_id, label, now))

    def tokens(self, account_id: str) -> list[AccessToken]:
        rows = self._all(self.account_sql.tokens, (account_id,))
        return [AccessToken(r["id"], r["label"], r["created"], r["used"]) for r in rows]

    def token_count(self, account_id: str) -> int:
        return int(self._one(self.account_sql.count_tokens, (account_id,))["n"])

    def revoke_token(self, account_id: str, token_id: str) -> bool:
        """Remove one of the account's tokens; ``False`` when it has none by that id."""
        with self._writing() as conn:
            row = conn.execute(self.account_sql.revoke_token, (account_id, token_id)).fetchone()
        return row is not None

    def token_account(self, token_hash: str, now: float, touch_after: float) -> Account | None:
        """The account of a personal access token; its ``used`` time is brought up to date
        when it is older than ``touch_after`` seconds (a write at most that often)."""
        row = self._one(self.account_sql.token_account, (token_hash,))
        if row is None:
            return None
        if row["used"] is None or now - row["used"] > touch_after:
            with self._writing() as conn:
                conn.execute(self.account_sql.token_used, (now, row["token"]))
        return _account(row)

    # --- attempts (web.accounts.limits) -----------------------------------------------------

    def attempts(self, key: str, since: float) -> tuple[int, float | None]:
        """How many attempts under ``key`` came after ``since``, and the first of them."""
        row = self._one(self.account_sql.attempts, (key, since))
        return int(row["n"]), row["first"]

    def add_attempt(self, key: str, now: float, forget_before: float) -> None:
        """Count one attempt under ``key``; older ones than ``forget_before`` are dropped."""
        with self._writing() as conn:
            conn.execute(self.account_sql.old_attempts, (key, forget_before))
            conn.execute(self.account_sql.new_attempt, (key, now))

    def clear_attempts(self, key: str) -> None:
        with self._writing() as conn:
            conn.execute(self.account_sql.clear_attempts, (key,))

    # --- players, results and ratings -------------------------------------------------------

    def player_game(self, r: Mapping[str, Any], seats: bool = True) -> PlayerGame:
        """A row of the account's games (``finished_rows``, ``running_rows``) as a record
        (``seats`` false: without its seats, for a page that may have built the game's item
        already)."""
        rated = r["mu_before"] is not None
        return PlayerGame(
            seat=r["seat"],
            joined=r["joined"],
            ended=r["ended"],
            place=r["place"],
            score=r["score"],
            rating=(r["mu_before"], r["mu_after"]) if rated else None,
            game=self.running_game(r, seats) if r["ended"] is None else self.listed_game(r, seats),
        )

    def running_game(self, r: Mapping[str, Any], seats: bool = True) -> GameRecord:
        """A running game's row as lists show it: ``listed_game`` and whose turn it is, with
        the deadlines (not its options, seed or time banks, which no list reads)."""
        game = self.listed_game(r, seats)
        turns = r["turn_deadlines"]
        game.deadline = r["deadline"]
        game.turn_deadlines = {} if turns is None else turn_deadlines_from_json(self._decode(turns))
        game.to_act = [] if r["to_act"] is None else list(self._decode(r["to_act"]))
        return game

    def listed_game(self, r: Mapping[str, Any], seats: bool = True) -> GameRecord:
        """A finished game's row as lists show it (``LISTED``: its id, kind, seats, whether it
        is public, its status, version and last change; not its options or seed, which a list
        never reads): a third of a whole row's decoding, for pages of many games."""
        return GameRecord(
            id=r["id"],
            kind=r["kind"],
            options={},
            seed=0,
            seats=[Seat.from_json(s) for s in self._decode(r["seats"])] if seats else [],
            version=r["version"],
            status=r["status"],
            public=bool(r["public"]),
            updated=r["updated"],
        )

    def finished_rows(
        self,
        account_id: str,
        before: float,
        limit: int,
        public: bool = False,
        keys_only: bool = False,
    ) -> list[Mapping[str, Any]]:
        """The account's finished games that ended before ``before``, newest first, ``limit``
        of them (``public``: of the public games only), as rows, unread: a
        page that keeps what it built from a finished game asks first for what tells a row
        from another (``keys_only``: the game's id and ``updated``, which moves with its
        seats, and the seat's result and rating change), and reads whole rows only for what
        it has not built (``player_game`` reads one)."""
        sql = self.account_sql.finished_page[public, keys_only]
        return self._all(sql, (account_id, before, limit))

    def last_finished(self, account_id: str) -> float | None:
        """When the account's last finished game ended (from the index alone)."""
        return self._one(self.account_sql.last_finished, (account_id,))["last"]

    def running_games(self, account_id: str, limit: int) -> list[PlayerGame]:
        """The account's running games, the latest moved first."""
        return [self.player_game(r) for r in self.running_rows(account_id, limit)]

    def running_rows(self, account_id: str, limit: int) -> list[Mapping[str, Any]]:
        """The rows of ``running_games``, unread (``player_game`` reads one)."""
        return self._all(self.account_sql.running, (account_id, limit))

    def account_game_ids(self, account_id: str) -> list[str]:
        return [r["game"] for r in self._all(self.account_sql.game_ids, (account_id,))]

    def stats(self, account_id: str) -> list[tuple[str, int, int]]:
        """Per game kind: finished games played, and won (first place, shared or not)."""
        rows = self._all(self.account_sql.stats, (account_id,))
        return [(r["kind"], int(r["played"]), int(r["won"] or 0)) for r in rows]

    def ratings(self, account_id: str) -> list[Rating]:
        return [_rating(r) for r in self._all(self.account_sql.ratings, (account_id,))]

    def leaderboard(self, kind: str, limit: int) -> list[Rating]:
        rows = self._all(self.account_sql.leaderboard, (kind, limit))
        return [Rating(**{**_rating(r).__dict__, "name": r["name"]}) for r in rows]

    def rating_changes(self) -> list[RatingChange]:
        """Every stored rating change, in the order the games were rated."""
        return [
            RatingChange(
                r["game"],
                r["seat"],
                r["account"],
                r["kind"],
                r["place"],
                (r["mu_before"], r["sigma_before"]),
                (r["mu_after"], r["sigma_after"]),
                r["time"],
            )
            for r in self._all(self.account_sql.changes)
        ]

    def replace_ratings(
        self, changes: Sequence[RatingChange], ratings: Mapping[str, Rating]
    ) -> None:
        """Rewrite every rating change and the current ratings (``ratings``: by
        ``"<account> <kind>"``) in one transaction (the rebuild); accounts deleted since keep
        their changes and get no rating row."""
        with self._writing() as conn:
            live = {r["id"] for r in conn.execute(self.account_sql.accounts_exist).fetchall()}
            for c in changes:
                conn.execute(self.account_sql.rewrite_change, (*c.before, *c.after, c.game, c.seat))
            conn.execute(self.account_sql.clear_ratings)
            tx = AccountTransaction(self, conn)
            for key, rating in ratings.items():
                account = key.split(" ", 1)[0]
                if account in live:
                    tx.save_rating(account, rating)
