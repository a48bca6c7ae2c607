"""What an account does: sign up, sign in and out (here or everywhere), change its password,
delete itself, make and revoke access tokens, take the seats this browser holds as a guest, and
what a page shows of it (my games, a profile, a leaderboard).

``Accounts`` works over the game service's store and clock (``web.service.sessions``): one per
process, as ``GameSessions`` is. Secrets (a session's cookie, an access token) are 256 random
bits given once; the store keeps their SHA-256 only. Passwords are argon2id hashes
(``web.accounts.passwords``); failed sign-ins and new accounts are limited
(``web.accounts.limits``); an unknown name is answered as a wrong password is, after the same
work. An account holds at most one seat of a game.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from errors import IllegalAction, InvalidInput, NotFound, ProjectError, Unauthorized
from games.base import get_kind
from hexmap.sized_cache import SizedCache
from web.accounts import limits, passwords
from web.accounts.credentials import SESSION_S, TOKEN_PREFIX
from web.accounts.names import account_name, name_key
from web.accounts.results import places
from web.service.sessions import GameSessions
from web.storage import GameRecord, hash_token, new_token, token_matches
from web.storage.accounts import AccessToken, Account, Rating
from web.storage.sql import SqlStore

#: The most access tokens an account keeps at once.
MAX_TOKENS = 20
#: The most seats one request moves into an account.
MAX_MOVED = 100
#: Players' games played and won per kind, as counted (``Accounts.stats``), per process.
STATS: SizedCache[list[tuple[str, int, int]]] = SizedCache("account-stats", 1 << 20)
#: A player's counts of games played and won are counted again at least this often (s).
STATS_S = 60


@dataclass(frozen=True)
class Moved:
    """A guest's seat offered to an account: moved, or why not (``reason``)."""

    game: str
    seat: int
    reason: str | None = None


def wrong_credentials() -> Unauthorized:
    """The one answer to a sign-in whose name or password is wrong (which one is not said)."""
    return Unauthorized(
        "no account has this name and password", "password", reason="wrong_credentials"
    )


class Accounts:
    """Every account operation, over ``sessions``' store and clock (module doc)."""

    def __init__(self, sessions: GameSessions) -> None:
        store = sessions.store
        assert isinstance(store, SqlStore)
        self.store: SqlStore = store
        self.sessions = sessions

    def now(self) -> float:
        return self.sessions.clock()

    # --- signing up, in and out -------------------------------------------------------------

    def _session(self, account: Account) -> str:
        """A new session of ``account``: its cookie's secret (given once)."""
        secret, now = new_token(), self.now()
        self.store.new_session(hash_token(secret), account.id, now, now + SESSION_S)
        return secret

    def sign_up(self, raw_name: str, password: str, address: str) -> tuple[Account, str]:
        """A new account, signed in: it and its session's secret. 409 ``name_taken`` for a
        name another account has (whatever its case)."""
        name = account_name(raw_name)
        passwords.check_new(password, name)
        now = self.now()
        limits.SIGN_UPS.check(self.store, address, now)
        account = Account(secrets.token_urlsafe(12), name, passwords.hash_password(password), now)
        if not self.store.create_account(account, name_key(name)):
            raise IllegalAction(
                f"the name {name!r} is taken", "name", reason="name_taken", params={"name": name}
            )
        limits.SIGN_UPS.count_one(self.store, address, now)
        return account, self._session(account)

    def sign_in(self, raw_name: str, password: str, address: str) -> tuple[Account, str]:
        """The account of this name and password, and a new session's secret. Limited per name
        and per address (429); a wrong name or password is the same 401 either way."""
        key = name_key(raw_name)[:200]
        now = self.now()
        limits.SIGN_IN_NAME.check(self.store, key, now)
        limits.SIGN_IN_ADDRESS.check(self.store, address, now)
        account = self.store.account_named(key)
        ok = passwords.matches(account.password_hash if account else None, password)
        if account is None or not ok:
            limits.SIGN_IN_NAME.count_one(self.store, key, now)
            limits.SIGN_IN_ADDRESS.count_one(self.store, address, now)
            raise wrong_credentials()
        limits.SIGN_IN_NAME.clear(self.store, key)
        if passwords.needs_rehash(account.password_hash):
            self.store.set_password(account.id, passwords.hash_password(password))
        return account, self._session(account)

    def sign_out(self, secret: str | None) -> None:
        """End the session whose cookie holds ``secret`` (nothing for none)."""
        if secret:
            self.store.end_session(hash_token(secret))

    def sign_out_everywhere(self, account: Account, keep: str | None = None) -> None:
        """End every session of ``account`` but the one whose cookie holds ``keep``."""
        self.store.end_sessions(account.id, hash_token(keep) if keep else "")

    def _check_password(self, account: Account, password: str) -> None:
        """The account's own password again (limited as sign-ins are: 401, then 429)."""
        key, now = name_key(account.name), self.now()
        limits.SIGN_IN_NAME.check(self.store, key, now)
        if not passwords.matches(account.password_hash, password):
            limits.SIGN_IN_NAME.count_one(self.store, key, now)
            raise Unauthorized("the password is wrong", "password", reason="wrong_password")

    def change_password(self, account: Account, current: str, new: str, keep: str | None) -> None:
        """A new password; every other session ends (OWASP: a changed password signs the
        other browsers out)."""
        self._check_password(account, current)
        passwords.check_new(new, account.name, "new_password")
        self.store.set_password(account.id, passwords.hash_password(new))
        self.sign_out_everywhere(account, keep)

    def delete(self, account: Account, password: str) -> int:
        """Delete the account: its seats read "deleted player" and nobody holds them (their
        games stay), then its sessions, tokens, rows and ratings go. Returns the games
        touched."""
        self._check_password(account, password)
        games = self.store.account_game_ids(account.id)
        for game_id in games:
            with self.store.transaction(game_id) as tx:
                for seat in tx.game.seats:
                    if seat.account == account.id:
                        seat.account, seat.name, seat.token_hash = None, None, None
                        seat.deleted = True
                tx.set_seats(tx.game.seats)
        self.store.delete_account(account.id)
        return len(games)

    # --- access tokens --------------------------------------------------------------------

    def new_token(self, account: Account, label: str) -> tuple[AccessToken, str]:
        """A personal access token (the token itself given once)."""
        if self.store.token_count(account.id) >= MAX_TOKENS:
            raise IllegalAction(
                f"an account keeps at most {MAX_TOKENS} access tokens: revoke one first",
                "label",
                reason="too_many_tokens",
                params={"limit": MAX_TOKENS},
            )
        token, token_id, now = TOKEN_PREFIX + new_token(), secrets.token_urlsafe(9), self.now()
        self.store.new_token(token_id, hash_token(token), account.id, label, now)
        return AccessToken(token_id, label, now, None), token

    def revoke_token(self, account: Account, token_id: str) -> None:
        if not self.store.revoke_token(account.id, token_id):
            raise NotFound(f"no access token {token_id!r}", "token_id", reason="no_such_token")

    # --- seats ------------------------------------------------------------------------------

    def move_seats(self, account: Account, held: list[tuple[str, int, str]]) -> list[Moved]:
        """Move the seats a browser holds as a guest (``(game, seat, its token)``) into the
        account; each answered moved, or why not (no such game, a token of no seat, a seat held
        already, the account holds a seat of that game). A finished game's seat gets its
        result (it was not rated: only a game's end rates it)."""
        if len(held) > MAX_MOVED:
            raise InvalidInput(
                f"at most {MAX_MOVED} seats at a time",
                "seats",
                reason="too_many_seats",
                params={"limit": MAX_MOVED},
            )
        return [self._move(account, game_id, seat, token) for game_id, seat, token in held]

    def _move(self, account: Account, game_id: str, index: int, token: str) -> Moved:
        try:
            game = self.store.get(game_id)
        except ProjectError:  # no such game (a page may hold another server's)
            return Moved(game_id, index, "no_such_game")
        result = self._result(game, index) if game.over else None
        with self.store.transaction(game_id) as tx:
            seats = tx.game.seats
            if not 0 <= index < len(seats) or not token_matches(token, seats[index].token_hash):
                return Moved(game_id, index, "not_a_seat_token")
            if tx.game.seat_of_account(account.id) is not None:
                return Moved(game_id, index, "already_seated")
            if seats[index].account is not None:
                return Moved(game_id, index, "seat_taken")
            seats[index].account, seats[index].name = account.id, account.name
            tx.set_seats(seats)
            if result is not None:
                tx.accounts().end_players(game_id, {index: result}, tx.game.updated)
        return Moved(game_id, index)

    def _result(self, game: GameRecord, seat: int) -> tuple[int, float] | None:
        """A finished game's ``(place, score)`` for ``seat``."""
        kind = get_kind(game.kind)
        state = self.sessions.state_of(game)
        scores = kind.scores(state)
        if scores is None or not 0 <= seat < len(scores):
            return None
        return places(scores, kind.winners(state))[seat], scores[seat]

    # --- what pages show ------------------------------------------------------------------

    def named(self, raw_name: str) -> Account:
        """The account of a name (404 ``no_such_player``)."""
        found = self.store.account_named(name_key(raw_name)[:200])
        if found is None:
            raise NotFound(f"no player {raw_name!r}", "name", reason="no_such_player")
        return found

    def ratings(self, account: Account) -> list[Rating]:
        return self.store.ratings(account.id)

    def stats(self, account: Account) -> list[tuple[str, int, int]]:
        """The account's games played and won per kind (the store reads every row of the
        account's): counted again when the account finishes another game (its last end, read
        from the index alone) and at least every ``STATS_S`` seconds (a finished game a guest
        moved into the account ended before the last one)."""
        key = (account.id, self.store.last_finished(account.id), int(self.now() // STATS_S))
        found = STATS.get(key)
        if found is None:
            found = STATS.put(key, self.store.stats(account.id), 200)
        return found
