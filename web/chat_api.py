"""The table chat's API (issue 41): ``POST /api/games/{game_id}/chat`` (a seat writes a line)
and ``GET /api/games/{game_id}/chat?after=n`` (anyone reads the lines after line ``n``).

A line is written for the seat the request acts for, exactly as a move is
(``web.accounts.credentials.acting_seat``: a seat token, the seat a signed-in account holds by
its session cookie with ``X-CSRF-Token``, or a personal access token); a spectator is refused
(401 without a credential, 403 for an account or a token with no seat here). The rules and the
limits are ``web.service.chat``'s; the text's, ``web.schemas_chat``'s. New lines reach the
game's followers as ``chat`` events on its stream (``web.streams``), and the events long-poll
returns when one comes (``chat_after``).
"""

from __future__ import annotations

from flask import Blueprint

from web.apidoc import ApiRoutes, query_param, validated
from web.games_api import (
    E400,
    E401,
    E403,
    E404,
    E413,
    GAME_ID,
    MAX_AFTER,
    int_arg,
    request_seat,
    sessions,
)
from web.schemas_chat import MAX_CHARS, ChatIn, ChatLineOut, ChatOut
from web.service.chat import BURST, CHAT_PAGE, MAX_LINES, chat_page, post_line, public_line

bp = Blueprint("chat_api", __name__)
api = ApiRoutes(bp, "games")


@api.post(
    "/api/games/{game_id}/chat",
    "Write a line in the game's table chat, for the seat the credentials act for (seats "
    "write, spectators read); it reaches the game's followers as a `chat` event on its stream",
    request=ChatIn,
    response=ChatLineOut,
    status=201,
    errors={
        400: E400 + f": a line longer than {MAX_CHARS} characters (chat_too_long), with a "
        "control character or a line break (chat_control_character), with a character a "
        "reader cannot see (chat_hidden_character), or only spaces (chat_empty)",
        401: E401,
        403: E403,
        404: E404,
        409: "The game is over: its chat is closed and stays readable (chat_closed), or the "
        f"chat holds {MAX_LINES} lines already (chat_full)",
        413: E413,
        429: f"The seat writes faster than one line a second after a burst of {BURST} "
        "(chat_too_fast): Retry-After says when it may write again",
    },
    params=[GAME_ID],
    bearer="required",
    cookie="required",
)
def post_chat(game_id: str) -> tuple[dict, int]:
    s = sessions()
    game = s.store.get(game_id)
    seat = request_seat(game, required=True)
    assert seat is not None  # required: no credential was a 401 already
    body = validated(ChatIn)
    return public_line(post_line(s.store, s.clock, game_id, seat, body.text)), 201


@api.get(
    "/api/games/{game_id}/chat",
    f"The game's table chat after line `after`, at most {CHAT_PAGE} lines (`more`: ask again "
    "after the last); anyone may read it, a finished game's too",
    response=ChatOut,
    errors={
        400: E400,
        404: E404,
        409: "`after` is beyond the chat's line count (after_past_chat)",
    },
    params=[
        GAME_ID,
        query_param(
            "after",
            {"type": "integer", "minimum": 0, "maximum": MAX_AFTER},
            "Return the lines numbered above this (default 0; at most the chat's line count, "
            "else 409)",
        ),
    ],
)
def get_chat(game_id: str) -> dict:
    after = int_arg("after", 0, 0, MAX_AFTER)
    return chat_page(sessions().store, game_id, after)
