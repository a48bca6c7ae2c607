"""The table chat of every game: seats write, everyone reads (issue 41).

A line is a seat's (``web.accounts.credentials.acting_seat``: a seat token, or the seat a
signed-in account holds); the API checks its text (``web.schemas_chat.chat_text``) before it
comes here. Lines are stored with the game (``web.storage.chat``), never in the engine's log,
numbered 1, 2, ... per game; each added line wakes the game's followers on every server, whose
streams send it as a ``chat`` event (``web.streams``), and ``GET .../chat?after=n`` pages them.

**Limits.** A seat writes at most one line a second with a burst of ``BURST``: the generic cell
rate algorithm, over the seat's stored lines on the service's clock (``GameSessions.clock``).
Each line stores ``full_at``, when the seat could write its whole burst again (after a line
written at ``t``: ``max(full_at before, t) + RATE_S``); a line at ``now`` is allowed while
``full_at`` is at most ``(BURST - 1) * RATE_S`` ahead of ``now``, otherwise refused with 429
``chat_too_fast`` and ``Retry-After`` (the seconds until it is allowed). The check and the line
are one write transaction on the game's row, so the limit holds across workers and servers
(two lines of one seat never both pass on one allowance). A game's chat holds at most
``MAX_LINES`` lines (409 ``chat_full``), and closes when the game is over (409
``chat_closed``): a finished game's chat stays readable, in its review too.
"""

from __future__ import annotations

import math
from typing import Any

from errors import IllegalAction, TooManyRequests
from web.service.cursors import check_within
from web.service.deadlines import Clock
from web.storage import GameRecord, GameStore
from web.storage.chat import ChatLine

#: A seat's lines come at most one every this many seconds, on average ...
RATE_S = 1.0
#: ... with a burst of this many at once.
BURST = 5
#: The most lines one game's chat holds (a seat alone fills it in no less than 80 minutes).
MAX_LINES = 5_000
#: A page of lines (``GET .../chat``, a stream's read).
CHAT_PAGE = 500


def public_line(line: ChatLine) -> dict[str, Any]:
    """A line as anyone may read it (``ChatLineOut``): never its seat's allowance."""
    return {"n": line.n, "seat": line.seat, "text": line.text, "time": line.time}


def allowance(last: ChatLine | None, now: float) -> tuple[float, float]:
    """``(wait, full_at)`` for a seat's line at ``now`` after its ``last`` one: the seconds it
    must still wait (at most 0: allowed now) and its ``full_at`` once written."""
    full = now if last is None else max(last.full_at, now)
    return full - now - (BURST - 1) * RATE_S, full + RATE_S


def post_line(store: GameStore, clock: Clock, game_id: str, seat: int, text: str) -> ChatLine:
    """Add ``seat``'s line ``text`` (already checked) to the game's chat, in the game's write
    transaction (module doc): 409 ``chat_closed`` once the game is over, 409 ``chat_full``
    past ``MAX_LINES``, 429 ``chat_too_fast`` beyond the seat's rate."""
    with store.transaction(game_id) as tx:
        game = tx.game
        if game.over:
            raise IllegalAction(
                "the game is over: its chat is closed (it stays readable)",
                "text",
                reason="chat_closed",
            )
        if game.chat >= MAX_LINES:
            raise IllegalAction(
                f"this game's chat is full ({MAX_LINES} lines)",
                "text",
                reason="chat_full",
                params={"limit": MAX_LINES},
            )
        now = clock()
        wait, full_at = allowance(tx.last_chat(seat), now)
        if wait > 0:
            seconds = math.ceil(wait)
            refused = TooManyRequests(
                f"a seat writes at most {BURST} lines at once, then one a second: "
                f"try again in {seconds} s",
                seconds,
                "text",
                reason="chat_too_fast",
            )
            refused.params.update(count=seconds, burst=BURST)
            raise refused
        line = ChatLine(game.chat + 1, seat, text, now, full_at)
        tx.add_chat(line)
    return line


def check_chat_after(game: GameRecord, after: int) -> GameRecord:
    """``game``, when ``after`` is at most its chat's line count (409 ``after_past_chat``
    beyond: a conflict with the game's state, like ``after_past_version``)."""
    message = f"chat_after={after} is past the chat's {game.chat} lines"
    check_within(after, game.chat, message, "after_past_chat", "count")
    return game


def chat_page(store: GameStore, game_id: str, after: int) -> dict[str, Any]:
    """The game's lines after line ``after``, at most ``CHAT_PAGE`` (``ChatOut``; 404 for no
    such game, 409 ``after_past_chat``)."""
    game = check_chat_after(store.get(game_id), after)
    lines = store.chat(game_id, after, CHAT_PAGE) if after < game.chat else []
    last = lines[-1].n if lines else after
    return {
        "id": game.id,
        "count": max(game.chat, last),  # a line may have come between the two reads
        "over": game.over,
        "more": last < game.chat,
        "lines": [public_line(x) for x in lines],
    }
