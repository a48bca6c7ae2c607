"""The JSON game API: one set of endpoints for every registered game kind.

Views only translate HTTP to ``web.service.sessions.GameSessions`` calls and back; every body is
parsed with ``validated(Model)`` and every route is served and described by one ``@api.get`` or
``@api.post`` (models in ``web.schemas_games``), so ``/openapi.json`` is built from the same schemas
that validate. Game ids have one shape (``GAME_ID_PATTERN``, matched by the route itself), so
``/api/games/import`` and ``/api/games/kinds`` are never read as a game.

Seat tokens travel as ``Authorization: Bearer <token>``; a signed-in account (its session cookie,
or a personal access token) acts for the seat it holds (``web.accounts.credentials``). A GET
without either is a spectator's; a response for a seat is built only from that seat's view
(``GameKind.view``).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request

from errors import InvalidInput
from games.base import kinds
from games.thinking import Thinking
from web.accounts.credentials import Presented, acting_seat, current_account
from web.apidoc import ApiRoutes, path_param, query_param, validated
from web.client_limits import client_address, stream_slots
from web.config import from_environment
from web.jsonbody import parse_json, read_body, request_bytes
from web.lean import LeanRequest, lean_pattern
from web.schemas_games import (
    ActionIn,
    ClaimIn,
    ClaimOut,
    CreateGameIn,
    EventsOut,
    GameCreatedOut,
    GameListOut,
    GameRecordIO,
    GameStateOut,
    KindsOut,
    MoveOut,
    create_game_schema,
    record_schema,
)
from web.service import following, lobby
from web.service.bell import Bell, inherited
from web.service.following import EVENTS_PAGE, MAX_WAIT_S
from web.service.sessions import GameSessions
from web.service.table_settings import TableSettings
from web.storage import BOT_UNWATCHED, GameRecord, open_store
from web.storage.accounts import Account, AccountsSql
from web.streams import HEARTBEAT_S, EventStream

bp = Blueprint("games_api", __name__)
api = ApiRoutes(bp, "games")
#: A game id: 12 URL-safe characters (``web.service.sessions.new_game_id``, 72 random bits).
GAME_ID_PATTERN = "^[A-Za-z0-9_-]{12}$"
GAME_ID = path_param(
    "game_id",
    {"type": "string", "pattern": GAME_ID_PATTERN},
    "The game's id (from POST /api/games)",
)
#: The largest ``after`` a client may ask about (the server's versions stay far below it).
MAX_AFTER = 2**62
#: The schema of ``after``: a version to read on from.
AFTER = {"type": "integer", "minimum": 0, "maximum": MAX_AFTER}
#: ``chat_after``: the table chat's lines already read (``web.chat_api``), for a stream or a
#: long-poll.
CHAT_AFTER = query_param(
    "chat_after",
    AFTER,
    "The table chat's lines already read: the lines numbered above this come too (default 0; "
    "at most the chat's line count, else 409 after_past_chat)",
)
#: ``bot`` of the events long-poll: what the client shows of the table's bots (``GameRecord.bot``).
BOTS_SHOWN: dict[str, str | None] = {"thinking": "thinking", "failed": "failed", "none": None}
#: A stream's ``Last-Event-ID``: the version, then (once the stream sent chat lines or was
#: asked for lines after some) ``:`` and the chat lines read.
_EVENT_ID = re.compile(r"([0-9]{1,19})(?::([0-9]{1,19}))?")
_INTEGER = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")
E400 = "Malformed request (the field is named)"
E404 = "No such game"
E413 = "Body larger than 1 MiB"
E401 = (
    "No seat token (Authorization: Bearer <token>) and no signed-in account, a malformed "
    "header, or a session that has ended (signed_out)"
)
E403 = (
    "A token that is not a seat of this game, an account that holds no seat here "
    "(no_seat_here), a cookie write without its X-CSRF-Token (csrf_failed), or an access token "
    "that is no account's (unknown_token)"
)
E409_RULES = (
    "A game stored under earlier rules (reason rules_changed): its log no longer replays as it"
    " was played"
)
E503 = "The game database cannot be reached now (Retry-After says when to retry)"
#: Where a new game's id leads (OpenAPI links, followed by clients and stateful testers).
_BY_ID: dict[str, object] = {"game_id": "$response.body#/id"}
GAME_LINKS = {
    "game": ("get /api/games/{game_id}", _BY_ID),
    "events": ("get /api/games/{game_id}/events", _BY_ID),
    "stream": ("get /api/games/{game_id}/stream", _BY_ID),
    "record": ("get /api/games/{game_id}/record", _BY_ID),
    "act": ("post /api/games/{game_id}/actions", _BY_ID),
    "claim": ("post /api/games/{game_id}/seats/{index}/claim", {**_BY_ID, "index": 0}),
}


def init_sessions(app: Flask) -> GameSessions:
    """Open the app's store and game sessions once, before serving (``create_app`` calls it):
    the clock is ``CLOCK`` (default ``time.time``), a log holds ``MAX_LOG_ENTRIES`` and live
    states are kept within ``STATE_CACHE_BYTES``; with ``TABLE_RUNNER`` a background thread settles due deadlines and
    plays due bots every ``TABLE_TICK_S`` seconds (``web.service.table``). Under ``TESTING`` a
    failing bot raises. ``QUICK_BOTS`` (default on): a table whose bots all choose from their
    legal actions alone gets their replies in the player's write (``web.service.moves``). The
    lobby's tidying is one of the runner's chores. ``BOT_ROLLOUTS`` (a game kind's name → its
    strong bot's rollouts a decision at full effort) is the bots' budget (``games.thinking``),
    ``BOT_LEASE_S`` how long a runner holds a game while its bot thinks, and ``DECISIONS_LOG`` a
    file the runner appends each bot write's effort to;
    a write that leaves a bot due rings the server's bell (``web.service.bell``)."""
    found = GameSessions(
        open_store(
            app.config["DATABASE"],
            app.config.get("SQLITE_LOCK_WAIT_S"),
            app.config.get("SQLITE_MAX_BYTES"),
            bool(app.config.get("DATABASE_READ_ONLY")),
        ),
        cache_bytes=app.config["STATE_CACHE_BYTES"],
        clock=app.config["CLOCK"],
        max_log=app.config["MAX_LOG_ENTRIES"],
        strict_bots=bool(app.config.get("TESTING")),
        quick_bots=bool(app.config.get("QUICK_BOTS", True)),
    )
    found.thinking = Thinking(rollouts=dict(app.config.get("BOT_ROLLOUTS", {})))
    found.lease_s = app.config["BOT_LEASE_S"]
    found.decisions_log = app.config.get("DECISIONS_LOG")
    found.bell = inherited()  # the server's thinkers' bell, if its processes share one
    app.extensions["game_sessions"] = found
    # the lobby's open tables are filled by bots and expire on time (web.service.lobby)
    found.chores.append((lobby.TIDY_S, lambda: lobby.tidy(found)))
    if app.config["TABLE_RUNNER"]:
        found.start_runner(app.config["TABLE_TICK_S"], _thinkers(found.bell))
    return found


def _thinkers(bell: Bell | None) -> int:
    """How many thinkers share the due bots with this process's runner: the server's table
    processes (``TABLE_PROCESSES``) when it shares their bell, else itself alone."""
    return max(1, int(from_environment("TABLE_PROCESSES"))) if bell is not None else 1


def sessions() -> GameSessions:
    """The process's game sessions over the app's store."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return app.extensions["game_sessions"]


def request_seat(game: GameRecord, required: bool) -> int | None:
    """The seat this request acts for: its seat token's or its account's
    (``web.accounts.credentials``)."""
    s = sessions()
    return acting_seat(_accounts(s), game, Presented.of_request(), s.clock(), required)


def _accounts(s: GameSessions) -> AccountsSql:
    store = s.store
    assert isinstance(store, AccountsSql)
    return store


def _holder() -> Account | None:
    """The signed-in account of a write (a session cookie's, with its CSRF token, or an access
    token's): it holds the seat it creates or claims; a seat token holds none."""
    s = sessions()
    return current_account(_accounts(s), s.clock())


def int_arg(name: str, default: int, low: int, high: int) -> int:
    """A query integer in decimal digits (no sign but ``-``, no spaces or underscores)."""
    raw = request.args.get(name)
    if raw is None:
        return default
    if _INTEGER.fullmatch(raw) is None or len(raw) > 25:
        raise InvalidInput(f"{name} must be an integer, got {raw!r}", name)
    value = int(raw)
    if not low <= value <= high:
        raise InvalidInput(f"{name} must be between {low} and {high}, got {value}", name)
    return value


@api.get(
    "/api/games/kinds",
    "Every game kind: seats, rule options, bot levels (for a new-game form)",
    response=KindsOut,
)
def list_kinds() -> dict:
    return {"kinds": [k.metadata() for _, k in sorted(kinds().items())]}


@api.post(
    "/api/games",
    "Start a game; tokens for human seats, and the secrets of the seats left open as "
    "invitations, are returned here, once",
    request=CreateGameIn,
    request_schema=create_game_schema,
    response=GameCreatedOut,
    links=GAME_LINKS,
    status=201,
    errors={
        400: E400 + ", or options the game refuses (e.g. both clocks, turn_seconds and "
        "time_bank_s: clock_modes; increment_s without a bank: increment_without_bank)",
        403: "A write signed in by the session cookie without its X-CSRF-Token (csrf_failed), "
        "or an access token that is no account's (unknown_token)",
        409: "A bot could not finish its moves",
        413: E413,
    },
    cookie="optional",
)
def create_game() -> tuple[dict, int]:
    body = validated(CreateGameIn)
    seats = [s.model_dump() for s in body.seats]
    holder = _holder()
    table = TableSettings(body.rated, body.fill_bots_after_s, body.fill_level)
    game, tokens, invites, _ = sessions().create(
        body.game, seats, body.options, body.seed, holder, table
    )
    out = {
        "id": game.id,
        "game": game.kind,
        "version": game.version,
        "seed_chosen": game.seed_chosen,
        "seats": [
            {**s, "token": tokens.get(s["index"]), "invite": invites.get(s["index"])}
            for s in game.public_seats()
        ],
    }
    return out, 201


@api.get(
    "/api/games",
    "List the public games, newest first (a game whose free seats are all invitations is not "
    "listed); open=true: running games with a listed free human seat",
    response=GameListOut,
    errors={400: E400},
    params=[
        query_param(
            "open", {"type": "boolean"}, "Only running games with a listed free human seat"
        ),
        query_param("limit", {"type": "integer", "minimum": 1, "maximum": 200}),
    ],
)
def list_games() -> dict:
    raw = request.args.get("open", "false")
    if raw not in ("true", "false"):
        raise InvalidInput(f"open must be true or false, got {raw!r}", "open")
    limit = int_arg("limit", 50, 1, 200)
    s = sessions()
    games = s.store.list_games(raw == "true", limit)
    return {"games": [s.summary(g) for g in games]}


@api.get(
    "/api/games/{game_id}",
    "The game as one seat sees it (bearer token), or as a spectator (no token)",
    response=GameStateOut,
    errors={401: E401, 403: E403, 404: E404, 409: E409_RULES},
    params=[GAME_ID],
    bearer="optional",
    cookie="optional",
)
def get_game(game_id: str) -> dict:
    s = sessions()
    with s.reading(game_id) as (game, state):
        return s.snapshot(game, request_seat(game, required=False), state)


@api.post(
    "/api/games/{game_id}/actions",
    "Act for the token's seat at a version; bots then move until a human must act",
    request=ActionIn,
    response=MoveOut,
    errors={
        400: E400 + ", or an action the game cannot read",
        401: E401,
        403: E403,
        404: E404,
        409: "Stale version (error.version is the current one), not this seat's turn, "
        'an illegal action (the game\'s reason; a {"type": "back"} from a seat not '
        "marked absent: not_absent), or a game stored under earlier rules (rules_changed)",
        413: E413,
    },
    params=[GAME_ID],
    bearer="required",
    cookie="required",
)
def post_action(game_id: str) -> Response:
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    text = move_text(app, game_id, Presented.of_request(), request_bytes())
    return Response(text, mimetype="application/json")


def move_text(app: Flask, game_id: str, presented: Presented, body: bytes) -> str:
    """The answer's JSON text to a move (``POST .../actions``): the game (404), the seat the
    credentials act for (401, 403: a seat token, or a signed-in account's seat), the body
    (400), then the move (``GameSessions.act``), written as the app's JSON. Served on the lean
    path too (``web.lean``: a move is the API's busiest request), with the same answers."""
    s: GameSessions = app.extensions["game_sessions"]
    game = s.store.get(game_id)
    seat = acting_seat(_accounts(s), game, presented, s.clock(), True)
    assert seat is not None  # required: no credential was a 401 already
    move = validated(ActionIn, parse_json(body))
    return app.json.dumps(s.act(game_id, seat, move.version, move.action, game)) + "\n"


def _lean_move(req: LeanRequest) -> str:
    return move_text(req.app, req.params["game_id"], Presented.of_environ(req.environ), req.body)


lean_pattern("POST", f"/api/games/(?P<game_id>{GAME_ID_PATTERN[1:-1]})/actions", _lean_move)


@api.get(
    "/api/games/{game_id}/events",
    f"Public events after a version, at most {EVENTS_PAGE} (`more`: ask again after the last); "
    "waits up to `wait` seconds (max 25) for one (long-poll), or with `chat_after` for a chat "
    "line; a wait also ends when the table's `bot` changes (a bot starts or stops thinking)",
    response=EventsOut,
    errors={
        400: E400,
        404: E404,
        409: "`after` is beyond the game's current version, or `chat_after` the chat's line count",
        503: E503,
    },
    params=[
        GAME_ID,
        query_param(
            "after",
            AFTER,
            "Return the actions with a version above this (default 0; at most "
            "the game's version, else 409)",
        ),
        query_param(
            "wait",
            {"type": "number", "minimum": 0, "maximum": MAX_WAIT_S},
            "Seconds to wait when nothing is new yet (default 0)",
        ),
        {
            **CHAT_AFTER,
            "description": "Also return when the table chat has a line numbered above this "
            "(`chat` counts the lines; read them with GET /api/games/{game_id}/chat); at most "
            "the chat's line count, else 409 after_past_chat",
        },
        query_param(
            "bot",
            {"type": "string", "enum": list(BOTS_SHOWN)},
            "What the client shows of the table's bots (`none`: no bot at work): when the "
            "table's `bot` is already another, the answer comes without waiting",
        ),
    ],
)
def get_events(game_id: str) -> dict:
    after = int_arg("after", 0, 0, MAX_AFTER)
    chat_after = int_arg("chat_after", 0, 0, MAX_AFTER) if "chat_after" in request.args else None
    raw = request.args.get("wait", "0")
    if _NUMBER.fullmatch(raw) is None or len(raw) > 40:
        raise InvalidInput(f"wait must be a number of seconds, got {raw!r}", "wait")
    wait = float(raw)
    if not 0 <= wait <= MAX_WAIT_S:  # also refuses nan and inf
        raise InvalidInput(f"wait must be between 0 and {MAX_WAIT_S:g} seconds", "wait")
    shown = request.args.get("bot")
    if shown is not None and shown not in BOTS_SHOWN:
        raise InvalidInput(f"bot must be one of {', '.join(BOTS_SHOWN)}, got {shown!r}", "bot")
    bot = BOT_UNWATCHED if shown is None else BOTS_SHOWN[shown]
    return following.events(sessions(), game_id, after, wait, chat_after, bot)


@api.get(
    "/api/games/{game_id}/stream",
    "The game's public events pushed as they come (Server-Sent Events): one event per log "
    "entry, `id` its version and `data` the entry as the events endpoint gives it; each table "
    "chat line as a `chat` event (`data` the line as GET /api/games/{game_id}/chat gives it), "
    "in order; once the stream has sent chat lines or was asked for lines after some, every "
    "`id` is `<version>:<lines>`; a comment "
    f"at least every {HEARTBEAT_S:g} s; after a finished game's last entry and line an `end` "
    'event (`data: {"version": V}`), then the stream closes (a game deleted meanwhile: an `end` '
    'event with `"deleted": true`, at the next heartbeat at the latest). Resumes after '
    "`Last-Event-ID` (which wins) or `after` and `chat_after`. At most `TOBAGO_CLIENT_STREAMS` "
    "open streams per client address and server process (429 beyond)",
    content_type="text/event-stream",
    errors={
        400: E400,
        404: E404,
        409: "`after` (or `Last-Event-ID`) is beyond the game's current version, or "
        "`chat_after` beyond the chat's line count",
        429: "This client holds its share of open streams already (`too_many_streams`; "
        "`Retry-After`)",
        503: E503,
    },
    params=[
        GAME_ID,
        query_param("after", AFTER, "Send the entries with a version above this (default 0)"),
        CHAT_AFTER,
        {
            "name": "Last-Event-ID",
            "in": "header",
            "schema": {"type": "string", "pattern": "^[0-9]{1,19}(:[0-9]{1,19})?$"},
            "description": "The last event's id (a reconnecting EventSource sends it): the "
            "version, then `:` and the chat lines received; a version alone (older clients) "
            "keeps `chat_after`",
        },
    ],
)
def stream_events(game_id: str) -> Response:
    after = int_arg("after", 0, 0, MAX_AFTER)
    chat_after = int_arg("chat_after", 0, 0, MAX_AFTER)
    resumed = request.headers.get("Last-Event-ID")
    if resumed is not None:
        found = _EVENT_ID.fullmatch(resumed)
        if found is None or max(int(n) for n in found.groups(0)) > MAX_AFTER:
            raise InvalidInput(
                "Last-Event-ID must be a version (digits), then ':' and the chat lines read, "
                f"got {resumed!r}",
                "Last-Event-ID",
            )
        after = int(found.group(1))
        if found.group(2) is not None:
            chat_after = int(found.group(2))
    client, slots = client_address(), stream_slots()
    slots.take_for(client)  # 429 beyond the client's share; given back when the stream closes
    stream = EventStream(
        sessions(),
        game_id,
        after,
        chat_after,
        sock=request.environ.get("gunicorn.socket"),
        release=lambda: slots.give(client),
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream, mimetype="text/event-stream", headers=headers)


@api.get(
    "/api/games/{game_id}/record",
    "The whole record of a finished game (options, seed, seats, every action)",
    response=GameRecordIO,
    errors={404: E404, 409: "The game is not over yet"},
    params=[GAME_ID],
)
def get_record(game_id: str) -> dict:
    s = sessions()
    return s.record(s.store.get(game_id))


@api.post(
    "/api/games/import",
    "Replay a finished game's record into a new finished game (for review)",
    request=GameRecordIO,
    request_schema=record_schema,
    response=GameStateOut,
    links={k: GAME_LINKS[k] for k in ("game", "events", "stream", "record")},
    status=201,
    errors={400: E400 + ", or a record that is refused or does not finish", 413: E413},
)
def import_game() -> tuple[dict, int]:
    body = validated(GameRecordIO)
    s = sessions()
    game, state = s.import_record(body.model_dump())
    return s.snapshot(game, None, state), 201


@api.post(
    "/api/games/{game_id}/seats/{index}/claim",
    "Take a free human seat: its token is returned once. A seat that is not listed is an "
    "invitation: claiming it needs the secret of its share link (`invite`)",
    request=ClaimIn,
    response=ClaimOut,
    errors={
        400: E400,
        403: "An invitation claimed without its secret, or with a wrong one "
        "(reason invite_required); a cookie write without its X-CSRF-Token (csrf_failed)",
        404: "No such game or seat",
        409: "Not a free human seat (a bot, claimed already, or the game is over), or the "
        "signed-in account holds a seat of this game already (already_seated)",
        413: E413,
    },
    params=[
        GAME_ID,
        path_param("index", {"type": "integer", "minimum": 0, "maximum": 15}),
    ],
    converters={"index": "int"},
    cookie="optional",
)
def claim_seat(game_id: str, index: int) -> dict:
    body: Any = ClaimIn() if not read_body() else validated(ClaimIn)
    game, token = sessions().claim(game_id, index, body.name, body.invite, _holder())
    seat = game.seats[index]
    return {"id": game.id, "game": game.kind, "index": index, "name": seat.name, "token": token}
