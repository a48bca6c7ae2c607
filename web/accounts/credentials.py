"""What a request presents to say who it is, and the seat it acts for.

Three credentials (OWASP's Session Management and CSRF Prevention cheat sheets):

- a **seat token** (``Authorization: Bearer <token>``, 43 characters): a guest's or an API
  client's hold on one seat (``web.service.seats``), unchanged;
- a **personal access token** (``Authorization: Bearer tbp_<43 characters>``): an API client
  acting for an account, made and revoked on the account page, stored as its SHA-256 like a seat
  token (the prefix tells the two apart: a seat token is never 47 characters);
- the **session cookie** of a signed-in browser (``COOKIE``: HttpOnly, SameSite=Lax, Secure when
  served over HTTPS, ``Path=/``, 30 days): 256 random bits whose SHA-256 names the session's row
  in the store, so signing out removes it on every server at once. Every write the cookie
  authenticates needs the session's **CSRF token** in ``X-CSRF-Token`` (403 ``csrf_failed``
  without it or with another): an HMAC of the session's secret, given by the sign-in's answer and
  written into every page of a signed-in browser, compared in constant time. A browser sends no
  ``Authorization`` header by itself, so a bearer token needs no CSRF token.

A bearer token wins over the cookie. With neither, or with a cookie whose session has ended, the
request is a guest's (a spectator's for a read).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from flask import g, request
from werkzeug.http import parse_cookie

from errors import Forbidden, Unauthorized
from web.service.seats import bearer_token, seat_of
from web.storage import GameRecord, hash_token
from web.storage.accounts import Account, AccountsSql

#: The session cookie's name.
COOKIE = "study_session"
#: How long a session lasts from its sign-in (seconds): the cookie's Max-Age and the row's end.
SESSION_S = 30 * 24 * 3600
#: What every personal access token starts with.
TOKEN_PREFIX = "tbp_"
#: A token's ``used`` time is written at most this often (seconds).
TOKEN_TOUCH_S = 3600.0
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def is_access_token(token: str) -> bool:
    """Whether a bearer token is a personal access token (not a seat token)."""
    return token.startswith(TOKEN_PREFIX) and len(token) == len(TOKEN_PREFIX) + 43


def csrf_token(secret: str) -> str:
    """The CSRF token of the session whose cookie holds ``secret`` (module doc)."""
    mac = hmac.new(secret.encode(), b"csrf token", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


@dataclass(frozen=True)
class Presented:
    """The credentials of one request: the ``Authorization`` header, the session cookie's
    value, the ``X-CSRF-Token`` header, and whether the request writes."""

    authorization: str | None
    cookie: str | None
    csrf: str | None
    write: bool

    @classmethod
    def of_request(cls) -> Presented:
        """The credentials of Flask's current request."""
        return cls(
            request.headers.get("Authorization"),
            request.cookies.get(COOKIE),
            request.headers.get("X-CSRF-Token"),
            request.method in WRITES,
        )

    @classmethod
    def of_environ(cls, environ: dict[str, Any]) -> Presented:
        """The credentials of a WSGI request (the lean path, ``web.lean``)."""
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        return cls(
            environ.get("HTTP_AUTHORIZATION"),
            cookies.get(COOKIE),
            environ.get("HTTP_X_CSRF_TOKEN"),
            environ.get("REQUEST_METHOD", "GET") in WRITES,
        )

    @property
    def bearer(self) -> str | None:
        return bearer_token(self.authorization)


def account_of(store: AccountsSql, presented: Presented, now: float) -> Account | None:
    """The account a request acts for: a personal access token's (403 ``unknown_token`` for
    one that is not, or no longer, an account's), or the session cookie's (a write without the
    session's CSRF token: 403 ``csrf_failed``); ``None`` for a seat token, a guest, or a
    cookie whose session has ended."""
    token = presented.bearer
    if token is not None:
        if not is_access_token(token):
            return None
        found = store.token_account(hash_token(token), now, TOKEN_TOUCH_S)
        if found is None:
            raise Forbidden(
                "this access token is not an account's (revoked, or mistyped)",
                "Authorization",
                reason="unknown_token",
            )
        return found
    if not presented.cookie or len(presented.cookie) > 256:
        return None
    found = store.session_account(hash_token(presented.cookie), now)
    if found is not None and presented.write:
        given = presented.csrf or ""
        if not hmac.compare_digest(given.encode(), csrf_token(presented.cookie).encode()):
            raise Forbidden(
                "a write signed in by the session cookie needs the session's X-CSRF-Token "
                "header (the pages send it; reload the page)",
                "X-CSRF-Token",
                reason="csrf_failed",
            )
    return found


def acting_seat(
    store: AccountsSql, game: GameRecord, presented: Presented, now: float, required: bool
) -> int | None:
    """The seat of ``game`` a request acts for: its seat token's, or the seat its account
    holds. ``None`` for a spectator; when ``required``: 401 without a credential (or a cookie
    whose session has ended: ``signed_out``), 403 for an account with no seat here."""
    token = presented.bearer
    if token is not None and not is_access_token(token):
        return seat_of(game, token, required)
    account = account_of(store, presented, now)
    if account is None:
        if not required:
            return None
        if presented.cookie:
            raise Unauthorized(
                "this browser's session has ended: sign in again", "Cookie", reason="signed_out"
            )
        return seat_of(game, None, required)  # the 401 a missing seat token always had
    seat = game.seat_of_account(account.id)
    if seat is None and required:
        raise Forbidden(
            f"the account {account.name} holds no seat of this game",
            "Authorization",
            reason="no_seat_here",
            params={"name": account.name},
        )
    return seat


def current_account(store: AccountsSql, now: float) -> Account | None:
    """The account of Flask's current request (``account_of``), worked out once a request."""
    if "account" not in g:
        g.account = account_of(store, Presented.of_request(), now)
    return g.account
