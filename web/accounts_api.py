"""The accounts' JSON API: sign up, sign in and out, the account's own games, tokens, seats,
password and deletion; players' profiles and the leaderboards (``web.accounts.service``).

Paths clients rely on: ``POST /api/accounts``, ``POST /api/session``, ``DELETE /api/session``,
``GET /api/me``, ``GET /api/me/games``, ``POST /api/me/tokens``, ``GET /api/players/{name}``,
``GET /api/leaderboards/{kind}``; besides them ``DELETE /api/me/sessions`` (sign out
everywhere), ``GET /api/me/tokens``, ``DELETE /api/me/tokens/{token_id}``,
``POST /api/me/password``, ``DELETE /api/me`` and ``POST /api/me/seats`` (a guest's seats into
the account). Signing up or in sets the session cookie and answers its CSRF token
(``web.accounts.credentials``). The account's own routes take the cookie (writes with
``X-CSRF-Token``) or a personal access token; what changes the account itself (password,
tokens, sessions, deletion) takes the cookie only (403 ``session_needed``). Every answer here
is ``Cache-Control: no-store``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from errors import Forbidden, InvalidInput, NotFound, Unauthorized
from games.base import get_kind, kinds
from hexmap.sized_cache import SizedCache
from web.accounts import mail
from web.accounts import ratings as ratings_
from web.accounts.credentials import COOKIE, SESSION_S, Presented, csrf_token, current_account
from web.accounts.service import Accounts
from web.apidoc import E404_KIND, P_KIND, ApiRoutes, path_param, query_param, validated
from web.schemas_accounts import (
    DeleteIn,
    LeaderboardOut,
    MeOut,
    MyGamesOut,
    PasswordIn,
    PlayerOut,
    SeatsIn,
    SeatsMovedOut,
    SessionOut,
    SignInIn,
    SignUpIn,
    TokenCreatedOut,
    TokenIn,
    TokensOut,
)
from web.storage.accounts import Account, AccountsSql, PlayerGame, Rating

bp = Blueprint("accounts_api", __name__)
api = ApiRoutes(bp, "accounts")
E401 = "Not signed in (no session cookie or access token, or a session that has ended)"
E403 = (
    "A cookie write without the session's X-CSRF-Token (csrf_failed), an access token that is "
    "no account's (unknown_token), or an access token where the cookie is needed "
    "(session_needed)"
)
E429 = "Too many failed sign-ins for this name or from this address, or new accounts from it"
SIGNED_IN = {401: E401, 403: E403}
#: The most finished games one page of "my games" gives.
FINISHED_PAGE = 10
#: The most running games my games list (a turn-based player's dozens fit).
MAX_RUNNING = 500
#: Finished games' entries of my games, kept (``finished_entries``), and what each is counted.
FINISHED: SizedCache[dict[str, Any]] = SizedCache("my-finished-games", 4 << 20)
ENTRY_BYTES = 1200
#: The most players a leaderboard lists.
BOARD_SIZE = 100
#: The recent finished games a profile shows.
RECENT = 10
CSRF_HEADER = {
    "name": "X-CSRF-Token",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "The session's CSRF token (writes signed in by the cookie need it)",
}


def init_accounts(app: Flask) -> Accounts:
    """The process's accounts over its game sessions (``create_app`` calls it once); where an
    SMTP server is named, the table runner sends the turn e-mails (``web.accounts.mail``)."""
    sessions = app.extensions["game_sessions"]
    found = Accounts(sessions)
    app.extensions["accounts"] = found
    settings = mail.MailSettings.of(app.config)
    app.extensions["mail_settings"] = settings
    if settings.host is not None:
        store = found.store
        sessions.chores.append(
            (mail.TICK_S, lambda: mail.send_due(store, settings, sessions.clock()))
        )
    return found


def accounts() -> Accounts:
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return app.extensions["accounts"]


@bp.after_request
def _no_store(resp: Response) -> Response:
    resp.headers["Cache-Control"] = "no-store"
    return resp


def me(session_only: bool = False) -> Account:
    """The signed-in account of this request (401 ``sign_in_needed``); ``session_only``: by
    the session cookie, not an access token (403 ``session_needed``)."""
    a = accounts()
    if session_only and Presented.of_request().bearer is not None:
        raise Forbidden(
            "this needs the signed-in browser's session, not an access token",
            "Authorization",
            reason="session_needed",
        )
    found = current_account(a.store, a.now())
    if found is None:
        raise Unauthorized("sign in first", "Cookie", reason="sign_in_needed")
    return found


def _signed_in(account: Account, secret: str, status: int) -> Response:
    """The answer to a sign-up or sign-in: the name and the CSRF token, and the cookie."""
    resp = jsonify({"name": account.name, "csrf_token": csrf_token(secret)})
    resp.status_code = status
    resp.set_cookie(
        COOKIE,
        secret,
        max_age=SESSION_S,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
        path="/",
    )
    return resp


def _signed_out() -> Response:
    resp = Response(status=204)
    resp.delete_cookie(COOKIE, path="/", httponly=True, samesite="Lax", secure=request.is_secure)
    return resp


def _address() -> str:
    return request.remote_addr or "unknown"


def rating_out(r: Rating) -> dict[str, Any]:
    return {
        "game": r.kind,
        "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "ordinal": round(r.ordinal, 3),
        "games": r.games,
        "provisional": r.games < ratings_.PROVISIONAL_UNDER,
    }


def running_out(p: PlayerGame) -> dict[str, Any]:
    g = p.game
    mine = g.turn_deadlines.get(p.seat)
    return {
        "id": g.id,
        "game": g.kind,
        "seat": p.seat,
        "version": g.version,
        "to_act": g.to_act,
        "your_turn": p.seat in g.to_act,
        "deadline": mine if mine is not None else g.deadline,
        "seats": g.public_seats(),
        "updated": g.updated,
    }


def finished_out(p: PlayerGame) -> dict[str, Any]:
    g = p.game
    change = None if p.rating is None else {"before": p.rating[0], "after": p.rating[1]}
    return {
        "id": g.id,
        "game": g.kind,
        "seat": p.seat,
        "place": p.place,
        "score": p.score,
        "ended": p.ended,
        "seats": g.public_seats(),
        "rating": change,
    }


@api.post(
    "/api/accounts",
    "Make an account and sign this client in (the session cookie; its CSRF token answered)",
    request=SignUpIn,
    response=SessionOut,
    status=201,
    errors={
        400: "A name or password the rules refuse (the field is named)",
        409: "The name is taken (name_taken)",
        429: E429,
    },
)
def sign_up() -> Response:
    body = validated(SignUpIn)
    account, secret = accounts().sign_up(body.name, body.password, _address())
    return _signed_in(account, secret, 201)


@api.post(
    "/api/session",
    "Sign in: the session cookie, and its CSRF token for writes",
    request=SignInIn,
    response=SessionOut,
    errors={401: "No account has this name and password (wrong_credentials)", 429: E429},
)
def sign_in() -> Response:
    body = validated(SignInIn)
    account, secret = accounts().sign_in(body.name, body.password, _address())
    return _signed_in(account, secret, 200)


@api.delete(
    "/api/session",
    "Sign this browser out (its session ends on every server at once)",
    status=204,
    errors={403: E403},
    params=[CSRF_HEADER],
    cookie="optional",
)
def sign_out() -> Response:
    a = accounts()
    if current_account(a.store, a.now()) is not None:  # the CSRF check of a cookie write
        a.sign_out(request.cookies.get(COOKIE))
    return _signed_out()


@api.delete(
    "/api/me/sessions",
    "Sign out everywhere: every session of the account ends, this one too",
    status=204,
    errors=SIGNED_IN,
    params=[CSRF_HEADER],
    cookie="required",
)
def sign_out_everywhere() -> Response:
    accounts().sign_out_everywhere(me(session_only=True))
    return _signed_out()


@api.get(
    "/api/me",
    "The signed-in account: its name and ratings",
    response=MeOut,
    errors=SIGNED_IN,
    bearer="required",
    cookie="required",
)
def get_me() -> dict:
    account = me()
    a = accounts()
    email, off = a.store.email_of(account.id)
    return {
        "name": account.name,
        "created": account.created,
        "ratings": [rating_out(r) for r in a.ratings(account)],
        "email": email,
        "mail_off": off,
    }


@api.get(
    "/api/me/games",
    "The account's games from every device: the running ones (whose turn, the clock), and the "
    f"finished ones, newest first, {FINISHED_PAGE} at a time (before: the last one's ended)",
    response=MyGamesOut,
    errors={400: "A malformed before", **SIGNED_IN},
    params=[query_param("before", {"type": "number", "minimum": 0, "maximum": 1e12})],
    bearer="required",
    cookie="required",
)
def my_games() -> dict:
    raw = request.args.get("before")
    before = None
    if raw is not None:
        try:
            before = float(raw)
        except ValueError:
            before = -1.0
        if not 0 <= before <= 1e12:  # also nan
            raise InvalidInput(
                f"before must be a time in seconds, got {raw!r}", "before", reason="invalid"
            )
    a, account = accounts(), me()
    running = a.store.running_games(account.id, MAX_RUNNING)
    finished = finished_entries(
        a.store, account.id, float("inf") if before is None else before, FINISHED_PAGE + 1
    )
    return {
        "now": a.now(),
        "running": [running_out(p) for p in running],
        "finished": finished[:FINISHED_PAGE],
        "more": len(finished) > FINISHED_PAGE,
    }


def _finished_key(r: Mapping[str, Any]) -> tuple:
    """What a finished game's entry depends on: its seats move its ``updated``; its result and
    rating change are the seat's."""
    result = (r["seat"], r["place"], r["score"], r["ended"], r["mu_before"], r["mu_after"])
    return (r["id"], r["updated"], result)


def finished_entries(
    store: AccountsSql, account_id: str, before: float, limit: int
) -> list[dict[str, Any]]:
    """The account's finished games that ended before ``before``, newest first, ``limit`` of
    them, as ``finished_out`` gives them. Each entry is built once and kept in ``FINISHED``
    under what its row says (``_finished_key``), as the page keeps its items
    (``web.accounts_pages.finished_items``): the store is asked for those values alone, and
    whole rows are read only for what is not kept."""
    rows = store.finished_rows(account_id, before, limit, keys_only=True)
    found = [FINISHED.get(_finished_key(r)) for r in rows]
    if all(entry is not None for entry in found):
        return found  # type: ignore[return-value]
    rows = store.finished_rows(account_id, before, limit)
    return [
        FINISHED.get(key) or FINISHED.put(key, finished_out(store.player_game(r)), ENTRY_BYTES)
        for r in rows
        for key in (_finished_key(r),)
    ]


@api.post(
    "/api/me/tokens",
    "Make a personal access token for an API client (Authorization: Bearer <token>): it acts "
    "for the account's seats; shown once",
    request=TokenIn,
    response=TokenCreatedOut,
    status=201,
    errors={**SIGNED_IN, 409: "The account keeps 20 tokens already (too_many_tokens)"},
    params=[CSRF_HEADER],
    cookie="required",
)
def new_token() -> tuple[dict, int]:
    body = validated(TokenIn)
    token, secret = accounts().new_token(me(session_only=True), body.label)
    out = {"id": token.id, "label": token.label, "created": token.created, "used": None}
    return {**out, "token": secret}, 201


@api.get(
    "/api/me/tokens",
    "The account's access tokens (never the tokens)",
    response=TokensOut,
    errors=SIGNED_IN,
    cookie="required",
)
def list_tokens() -> dict:
    found = accounts().store.tokens(me(session_only=True).id)
    return {"tokens": [t.__dict__ for t in found]}


@api.delete(
    "/api/me/tokens/{token_id}",
    "Revoke an access token (at once, on every server)",
    status=204,
    errors={**SIGNED_IN, 404: "No token of the account has this id (no_such_token)"},
    params=[path_param("token_id", {"type": "string", "maxLength": 64}), CSRF_HEADER],
    cookie="required",
)
def revoke_token(token_id: str) -> Response:
    accounts().revoke_token(me(session_only=True), token_id)
    return Response(status=204)


@api.post(
    "/api/me/password",
    "Change the password (the current one first); every other session ends",
    request=PasswordIn,
    status=204,
    errors={**SIGNED_IN, 401: "Not signed in, or the current password is wrong", 429: E429},
    params=[CSRF_HEADER],
    cookie="required",
)
def change_password() -> Response:
    body = validated(PasswordIn)
    accounts().change_password(
        me(session_only=True), body.password, body.new_password, request.cookies.get(COOKIE)
    )
    return Response(status=204)


@api.delete(
    "/api/me",
    "Delete the account (the password first): its games stay, its seats read 'deleted "
    "player' and nobody holds them; its sessions, tokens and ratings go",
    request=DeleteIn,
    status=204,
    errors={**SIGNED_IN, 401: "Not signed in, or the password is wrong", 429: E429},
    params=[CSRF_HEADER],
    cookie="required",
)
def delete_account() -> Response:
    body = validated(DeleteIn)
    accounts().delete(me(session_only=True), body.password)
    return _signed_out()


@api.post(
    "/api/me/seats",
    "Move seats this client holds by seat token into the account (each answered moved or "
    "skipped with why)",
    request=SeatsIn,
    response=SeatsMovedOut,
    errors=SIGNED_IN,
    params=[CSRF_HEADER],
    bearer="required",
    cookie="required",
)
def move_seats() -> dict:
    body = validated(SeatsIn)
    held = [(s.game, s.seat, s.token) for s in body.seats]
    done = accounts().move_seats(me(), held)
    return {
        "moved": [{"game": m.game, "seat": m.seat} for m in done if m.reason is None],
        "skipped": [
            {"game": m.game, "seat": m.seat, "reason": m.reason}
            for m in done
            if m.reason is not None
        ],
    }


def player(name: str) -> tuple[Account, dict[str, Any]]:
    """A player's profile (``GET /api/players/{name}``), with the account."""
    a = accounts()
    account = a.named(name)
    rows = a.store.finished_rows(account.id, float("inf"), RECENT, public=True)
    recent = [a.store.player_game(r) for r in rows]
    return account, {
        "name": account.name,
        "created": account.created,
        "ratings": [rating_out(r) for r in a.ratings(account)],
        "stats": [
            {"game": kind, "played": played, "won": won} for kind, played, won in a.stats(account)
        ],
        "recent": [finished_out(p) for p in recent],
    }


@api.get(
    "/api/players/{name}",
    "A player's profile: games played and won per game, ratings, recent public games",
    response=PlayerOut,
    errors={404: "No player has this name (no_such_player)"},
    params=[path_param("name", {"type": "string", "minLength": 1, "maxLength": 200})],
)
def get_player(name: str) -> dict:
    return player(name)[1]


def leaderboard(kind_name: str) -> dict[str, Any]:
    """A game's leaderboard (``GET /api/leaderboards/{kind}``)."""
    if kind_name not in kinds():
        raise NotFound(f"no game kind {kind_name!r}", "kind", reason="unknown_game")
    kind = get_kind(kind_name)
    rows = accounts().store.leaderboard(kind.name, BOARD_SIZE)
    return {
        "game": kind.name,
        "provisional_under": ratings_.PROVISIONAL_UNDER,
        "players": [
            {"rank": i, "name": r.name, **{k: v for k, v in rating_out(r).items() if k != "game"}}
            for i, r in enumerate(rows, 1)
        ],
        "bots": [
            {"level": level, "mu": mu, "sigma": sigma}
            for level, (mu, sigma) in ratings_.anchors(kind).items()
        ],
    }


@api.get(
    "/api/leaderboards/{kind}",
    f"A game's top {BOARD_SIZE} rated players, by mu - 3 sigma, and the bots' fixed ratings",
    response=LeaderboardOut,
    errors={404: E404_KIND},
    params=[P_KIND],
)
def get_leaderboard(kind: str) -> dict:
    return leaderboard(kind)
