"""Pydantic models of the accounts API's requests and answers (``web.accounts_api``):
validation and OpenAPI in one, as ``web.schemas_games`` is for games."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field

from web.accounts.names import MAX_NAME, MIN_NAME
from web.accounts.passwords import MAX_PASSWORD, MIN_PASSWORD
from web.apidoc import StrictIn
from web.schemas_games import SeatOut, describe_name, plain_name
from web.text_rules import name_pattern

#: A game id (``web.games_api.GAME_ID_PATTERN``).
GAME_ID_TEXT = "^[A-Za-z0-9_-]{12}$"


def _plain(value: str) -> str:
    plain_name(value)
    return value


class SignUpIn(StrictIn):
    # the lengths are described here and judged by web.accounts (a refusal in words: reasons
    # name_length and password_length); pydantic keeps only a hard cap
    name: Annotated[str, AfterValidator(_plain)] = Field(
        max_length=200,
        description=f"{MIN_NAME}-{MAX_NAME} characters once in Unicode's NFKC form with single "
        "spaces: letters, marks, digits, spaces and _ - . ' (at least one letter or digit); "
        "unique whatever its case",
        json_schema_extra=lambda schema: schema.update(
            pattern=name_pattern(), minLength=MIN_NAME, maxLength=MAX_NAME
        ),
    )
    password: str = Field(
        max_length=1000,
        description="8-256 characters; not the name",
        json_schema_extra={"minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD},
    )


class SignInIn(StrictIn):
    name: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=MAX_PASSWORD)


class PasswordIn(StrictIn):
    password: str = Field(min_length=1, max_length=MAX_PASSWORD, description="The current one")
    new_password: str = Field(
        max_length=1000,
        description="8-256 characters; not the name",
        json_schema_extra={"minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD},
    )


class DeleteIn(StrictIn):
    password: str = Field(min_length=1, max_length=MAX_PASSWORD, description="The current one")


class TokenIn(StrictIn):
    label: Annotated[str, AfterValidator(_plain)] = Field(
        min_length=1,
        max_length=40,
        description="What the token is for (shown in the list of tokens)",
        json_schema_extra=describe_name,
    )


class HeldSeatIn(StrictIn):
    game: str = Field(pattern=GAME_ID_TEXT)
    seat: int = Field(ge=0, le=15)
    token: str = Field(min_length=1, max_length=256, description="The seat's token")


class SeatsIn(StrictIn):
    seats: list[HeldSeatIn] = Field(min_length=1, max_length=100)


class SessionOut(BaseModel):
    name: str
    csrf_token: str = Field(
        description="Send it as X-CSRF-Token with every write this session's cookie signs"
    )


class RatingOut(BaseModel):
    game: str
    mu: float = Field(description="openskill's skill estimate (new accounts: 25)")
    sigma: float = Field(description="Its uncertainty (new accounts: 8.33)")
    ordinal: float = Field(description="mu - 3 sigma: what leaderboards order by")
    games: int = Field(description="Rated games counted")
    provisional: bool = Field(description="Fewer rated games than the leaderboards' threshold")


class AccountOut(BaseModel):
    """What my page and a player's profile both say of an account."""

    name: str
    created: float
    ratings: list[RatingOut]


class MeOut(AccountOut):
    email: str | None = Field(description="Where turn e-mails go (null: none)")
    mail_off: bool = Field(description="Turn e-mails are turned off")


class EmailIn(StrictIn):
    email: str | None = Field(
        max_length=1000,
        description="An address for 'your turn' e-mails of turn-based games (null or empty: "
        "none); giving one turns them on",
    )


class EmailOut(BaseModel):
    email: str | None
    mail_off: bool


class StopMailIn(StrictIn):
    token: str = Field(min_length=1, max_length=100, description="The e-mail's unsubscribe link's")


class RatingChangeOut(BaseModel):
    before: float = Field(description="mu before the game")
    after: float = Field(description="mu after it")


class RunningGameOut(BaseModel):
    id: str
    game: str
    seat: int = Field(description="The account's seat")
    version: int
    to_act: list[int]
    your_turn: bool
    deadline: float | None = Field(
        description="When the account's turn clock runs out (service clock), else the game's "
        "next deadline; null: no clock runs"
    )
    seats: list[SeatOut]
    updated: float


class FinishedGameOut(BaseModel):
    id: str
    game: str
    seat: int
    place: int | None = Field(description="1: won (shared on a tie)")
    score: float | None
    ended: float
    seats: list[SeatOut]
    rating: RatingChangeOut | None = Field(description="The rating change, if it was rated")


class MyGamesOut(BaseModel):
    now: float = Field(description="The service's clock")
    running: list[RunningGameOut]
    finished: list[FinishedGameOut]
    more: bool = Field(description="Older finished games: ask again with before=<last ended>")


class TokenOut(BaseModel):
    id: str
    label: str
    created: float
    used: float | None


class TokenCreatedOut(TokenOut):
    token: str = Field(description="The token: shown once (Authorization: Bearer <token>)")


class TokensOut(BaseModel):
    tokens: list[TokenOut]


class MovedSeatOut(BaseModel):
    game: str
    seat: int


class SkippedSeatOut(MovedSeatOut):
    reason: str = Field(
        description="no_such_game, not_a_seat_token, already_seated (the account holds a "
        "seat of that game) or seat_taken"
    )


class SeatsMovedOut(BaseModel):
    moved: list[MovedSeatOut]
    skipped: list[SkippedSeatOut]


class StatOut(BaseModel):
    game: str
    played: int = Field(description="Finished games")
    won: int = Field(description="Finished in first place (shared or not)")


class PlayerOut(AccountOut):
    stats: list[StatOut]
    recent: list[FinishedGameOut] = Field(description="Recent finished public games")


class BoardRowOut(BaseModel):
    rank: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool


class BotAnchorOut(BaseModel):
    level: str
    mu: float = Field(description="The level's fixed rating (its tournament's)")
    sigma: float


class LeaderboardOut(BaseModel):
    game: str
    provisional_under: int
    players: list[BoardRowOut]
    bots: list[BotAnchorOut] = Field(
        description="The bot levels' fixed ratings: games against bots rate against them"
    )
