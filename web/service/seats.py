"""Seats, their tokens and their invitations: who may act for a seat, and who may take a free one.

A human seat is held by whoever has its **token** (256 bits, given once: at creation, or to the
one who claims the seat; stored as its SHA-256 and compared in constant time). A human seat
created ``open`` is free until someone claims it (``POST /api/games/<id>/seats/<i>/claim``):

- a **listed** seat (``"listed": true``) is for anyone: the game shows under
  ``GET /api/games?open=true`` and the seat is claimed with the game's id alone;
- any other open seat is an **invitation**: it carries a secret (256 bits, given once, in the
  creator's share link; stored hashed like a token), and claiming it needs the secret
  (``invite``): without it, or with a wrong one, 403 ``invite_required``, the same answer
  either way. A seat free from before invitations existed has no secret, so no link claims it.

A signed-in player's seat is held by their account as well as by its token
(``web.accounts``): any browser signed in to the account acts for it.

A game whose free seats are all invitations is **link-only**: it leaves the public lists
(``GameRecord.public``), so neither its id nor its seats are shown to strangers.
"""

from __future__ import annotations

from typing import Any, Protocol

from errors import Forbidden, IllegalAction, InvalidInput, NotFound, Unauthorized
from games.base import GameKind
from web.storage import BOT, HUMAN, GameRecord, GameStore, Seat, hash_token, new_token
from web.storage import token_matches as matches

#: Sanity cap on tokens and invitation secrets presented (ours are 43 characters).
MAX_TOKEN_LEN = 256


class Holder(Protocol):
    """A signed-in player who takes a seat (``web.storage.accounts.Account``)."""

    id: str
    name: str


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (``None`` without a header)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized(
            "use the header 'Authorization: Bearer <seat token>'",
            "Authorization",
            reason="bad_authorization",
        )
    if len(token) > MAX_TOKEN_LEN:
        raise Forbidden(
            "this token is not a seat of this game", "Authorization", reason="not_a_seat_token"
        )
    return token


def seat_of(game: GameRecord, token: str | None, required: bool) -> int | None:
    """The seat whose token this is; ``None`` for no token (401 when ``required``)."""
    if token is None:
        if required:
            raise Unauthorized(
                "this needs a seat token: 'Authorization: Bearer <seat token>'",
                "Authorization",
                reason="seat_token_needed",
            )
        return None
    found = None
    for seat in game.seats:  # compare with every seat: no early exit to time
        if matches(token, seat.token_hash):
            found = seat.index
    if found is None:
        raise Forbidden(
            "this token is not a seat of this game", "Authorization", reason="not_a_seat_token"
        )
    return found


def new_seats(
    kind: GameKind, specs: list[dict[str, Any]], holder: Holder | None = None
) -> tuple[list[Seat], dict[int, str], dict[int, str]]:
    """The seats of a new game from the request's ``specs``, with the tokens of the human seats
    that are not open and the invitation secrets of the open seats that are not listed (both
    seat → secret, returned once; only their hashes are kept). A signed-in creator
    (``holder``) holds the first human seat that is not open by account, under the
    account's name; any other such seat is held by its token alone."""
    rows: list[Seat] = []
    tokens: dict[int, str] = {}
    invites: dict[int, str] = {}
    for i, spec in enumerate(specs):
        if spec["type"] == BOT:
            if spec.get("open"):
                raise InvalidInput("only human seats can be open", f"seats[{i}].open")
            level = spec.get("level") or (next(iter(kind.bots)) if kind.bots else None)
            if level not in kind.bots:
                known = ", ".join(kind.bots) or "none"
                raise InvalidInput(
                    f"unknown bot level {level!r} for {kind.name} (known: {known})",
                    f"seats[{i}].level",
                )
            rows.append(Seat(i, BOT, spec.get("name") or f"{level} bot", level))
            continue
        if spec.get("level") is not None:
            raise InvalidInput("only bot seats have a level", f"seats[{i}].level")
        if spec.get("listed") and not spec.get("open"):
            raise InvalidInput(
                "only open seats can be listed", f"seats[{i}].listed", reason="listed_not_open"
            )
        seat = Seat(i, HUMAN, spec.get("name"), listed=bool(spec.get("listed")))
        secret = new_token()
        if not spec.get("open"):
            tokens[i], seat.token_hash = secret, hash_token(secret)
            if holder is not None and not any(r.account for r in rows):
                seat.account, seat.name = holder.id, holder.name
        elif not seat.listed:
            invites[i], seat.invite_hash = secret, hash_token(secret)
        rows.append(seat)
    return rows, tokens, invites


def is_public(seats: list[Seat]) -> bool:
    """Whether a new game belongs in the public lists: unless every free seat is an
    invitation."""
    invited = any(s.invite_hash is not None for s in seats)
    return not invited or any(s.free_listed for s in seats)


def claim(
    store: GameStore,
    game_id: str,
    index: int,
    name: str | None,
    invite: str | None,
    holder: Holder | None = None,
) -> tuple[GameRecord, str]:
    """Give a free human seat's token, once (an invitation needs its secret). A signed-in
    player (``holder``) holds it by account too, under the account's name (409
    ``already_seated`` when the account holds a seat of this game already)."""
    with store.transaction(game_id) as tx:
        game = tx.game
        if not 0 <= index < len(game.seats):
            raise NotFound(
                f"this game has seats 0-{len(game.seats) - 1}, not {index}",
                "index",
                reason="no_such_seat",
                params={"count": len(game.seats), "seat": index},
            )
        seat = game.seats[index]
        if game.over:
            raise IllegalAction("the game is over", "index", reason="game_over")
        if seat.type != HUMAN:
            raise IllegalAction(
                f"seat {index} is a bot", "index", reason="seat_is_bot", params={"seat": index}
            )
        if not seat.free:
            raise IllegalAction(
                f"seat {index} has been claimed already",
                "index",
                reason="seat_taken",
                params={"seat": index},
            )
        if not seat.listed:
            given = invite if invite is not None and len(invite) <= MAX_TOKEN_LEN else None
            if given is None or not matches(given, seat.invite_hash):
                raise Forbidden(
                    f"seat {index} is an invitation: claim it with its share link's secret",
                    "invite",
                    reason="invite_required",
                    params={"seat": index},
                )
        if holder is not None and game.seat_of_account(holder.id) is not None:
            raise IllegalAction(
                "this account holds a seat of this game already",
                "index",
                reason="already_seated",
                params={"seat": game.seat_of_account(holder.id)},
            )
        token = new_token()
        seat.token_hash, seat.invite_hash = hash_token(token), None
        if holder is not None:
            seat.account, seat.name = holder.id, holder.name
        elif name:
            seat.name = name
        tx.set_seats(game.seats)
    return game, token
