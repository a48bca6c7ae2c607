"""The lobby's JSON API: a game's open tables (``GET /api/lobby/{kind}``) and "Play now"
(``POST /api/quick-play``); the rules are ``web.service.lobby``.

The open tables of a kind are the same for every reader, and every lobby page asks again every
few seconds: each process keeps the answer's text for ``LIST_FRESH_S`` seconds, so a crowd of
lobby pages costs one query a second a kind, whatever the number of tables (at most
``LIST_SIZE`` are listed, the longest waiting first, with how many there are in all).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, current_app

from errors import NotFound
from games.base import kinds
from web.accounts.credentials import current_account
from web.apidoc import E404_KIND, P_KIND, ApiRoutes, validated
from web.games_api import sessions
from web.schemas_lobby import LobbyOut, QuickPlayIn, SeatedOut
from web.service import lobby
from web.storage import GameRecord
from web.storage.lobby import LobbySql

bp = Blueprint("lobby_api", __name__)
api = ApiRoutes(bp, "lobby")
#: The most tables a lobby answer lists.
LIST_SIZE = 50
#: How long a process serves a kind's open tables as it read them (seconds).
LIST_FRESH_S = 1.0
#: Kind → (until when, on the monotonic clock; the answer's JSON text).
_LISTED: dict[str, tuple[float, str]] = {}


def clock_of(options: dict[str, Any]) -> dict[str, Any]:
    """A table's time control as the lobby shows it: ``{"mode": none|turn|bank, ...}``."""
    if options.get("turn_seconds") is not None:
        return {"mode": "turn", "turn_seconds": options["turn_seconds"]}
    if options.get("time_bank_s") is not None:
        return {
            "mode": "bank",
            "time_bank_s": options["time_bank_s"],
            "increment_s": options.get("increment_s") or 0,
        }
    return {"mode": "none"}


def table_out(game: GameRecord) -> dict[str, Any]:
    """An open table as the lobby lists it."""
    return {
        "id": game.id,
        "game": game.kind,
        "seats": game.public_seats(),
        "free": lobby.waiting(game),
        "clock": clock_of(game.options),
        "rated": game.rated and not game.seed_chosen,
        "created": game.created,
        "fill_at": game.fill_at,
        "fill_level": game.fill_level,
        "expires": game.lobby_until,
    }


def listing(kind: str) -> str:
    """The JSON text of ``GET /api/lobby/{kind}`` (module doc: kept ``LIST_FRESH_S``)."""
    if kind not in kinds():
        raise NotFound(f"no game kind {kind!r}", "kind", reason="unknown_game")
    kept = _LISTED.get(kind)
    if kept is not None and kept[0] > time.monotonic():
        return kept[1]
    s = sessions()
    store = s.store
    assert isinstance(store, LobbySql)
    tables = store.open_tables(kind, LIST_SIZE)
    count = len(tables) if len(tables) < LIST_SIZE else store.open_table_count(kind)
    body = {
        "game": kind,
        "now": s.clock(),
        "count": count,
        "tables": [table_out(g) for g in tables],
    }
    app: Any = current_app
    text = app.json.dumps(body)
    _LISTED[kind] = (time.monotonic() + LIST_FRESH_S, text)
    return text


@api.get(
    "/api/lobby/{kind}",
    f"A game's open tables (a free seat anyone may take), the longest waiting first, at most "
    f"{LIST_SIZE}; count: how many there are. As read at most {LIST_FRESH_S:g} s before",
    response=LobbyOut,
    errors={404: E404_KIND},
    params=[P_KIND],
)
def get_lobby(kind: str) -> Response:
    return Response(listing(kind), mimetype="application/json")


@api.post(
    "/api/quick-play",
    "Play now: a seat at the longest waiting open table of the game that fits (its seat "
    "count within seats, the same time control), or a new table for the next player to find; "
    "its token given once (a signed-in player holds the seat by account too)",
    request=QuickPlayIn,
    response=SeatedOut,
    errors={
        400: "A malformed request, a seat count or time control the game refuses",
        403: "A cookie write without its X-CSRF-Token (csrf_failed)",
    },
    cookie="optional",
)
def quick_play() -> dict:
    body = validated(QuickPlayIn)
    s = sessions()
    holder = current_account(s.store, s.clock())  # type: ignore[arg-type]
    low, high = body.seats
    options = body.time_control.model_dump(exclude_none=True)
    seated = lobby.quick_play(
        s, body.game, (low, high), options, body.name, holder, frozenset(body.avoid)
    )
    game = seated.game
    _LISTED.pop(game.kind, None)  # this process's lobby shows the change at once
    return {
        "id": game.id,
        "game": game.kind,
        "seat": seated.seat,
        "token": seated.token,
        "joined": seated.joined,
        "seats": game.public_seats(),
    }
