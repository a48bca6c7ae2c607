"""Pydantic models of the game API's requests and responses (validation and OpenAPI in one).

Requests are parsed with ``web.apidoc.validated``; responses are built as plain dicts by
``web.storage.sessions`` and described here (``tests/test_openapi.py`` checks with schemathesis
that every response matches). Game-specific parts (options, actions, views, events) are JSON
objects whose shape each game documents: the API is the same for every game kind.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SEED = 2**63 - 1
Name = Field(default=None, min_length=1, max_length=40, description="Display name")


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatIn(_In):
    type: Literal["human", "bot"]
    name: str | None = Name
    level: str | None = Field(
        default=None, max_length=40, description="Bot level (bots only; default: the game's first)"
    )
    open: bool = Field(
        default=False,
        description="Human seats only: leave the seat free for someone to claim "
        "(POST /api/games/{id}/seats/{index}/claim) instead of returning its token now",
    )


class CreateGameIn(_In):
    game: str = Field(max_length=40, description="A game kind, see GET /api/games/kinds")
    seats: list[SeatIn] = Field(min_length=1, max_length=16)
    options: dict[str, Any] | None = Field(default=None, description="Rule options (see kinds)")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED, description="Random when absent")


class ActionIn(_In):
    version: int = Field(ge=0, description="The version the action was chosen at")
    action: dict[str, Any] = Field(description="One of the seat's legal_actions")


class ClaimIn(_In):
    name: str | None = Name


class RecordSeat(_In):
    index: int | None = Field(default=None, ge=0)
    type: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=40)
    level: str | None = Field(default=None, max_length=40)


class RecordAction(_In):
    seat: int | None = Field(
        ge=0, le=64, description="The seat that acted; null for the table's own action (a timeout)"
    )
    action: dict[str, Any]


class GameRecordIO(_In):
    """A finished game: what GET /record returns and POST /import accepts."""

    game: str = Field(max_length=40)
    options: dict[str, Any]
    seed: int = Field(ge=0, le=MAX_SEED)
    seats: list[RecordSeat] = Field(min_length=1, max_length=16)
    actions: list[RecordAction]


# --- responses -------------------------------------------------------------------------------


class SeatOut(BaseModel):
    index: int
    type: Literal["human", "bot"]
    name: str | None
    level: str | None
    open: bool = Field(description="A human seat nobody has claimed yet")


class SeatCreated(SeatOut):
    token: str | None = Field(
        description="The seat's bearer token (human seats that are not open); shown only once"
    )


class GameCreatedOut(BaseModel):
    id: str
    game: str
    version: int
    seats: list[SeatCreated]


class GameStateOut(BaseModel):
    id: str
    game: str
    version: int
    seat: int | None = Field(description="The seat the token belongs to; null for a spectator")
    to_act: list[int] = Field(description="Seats that may act now (several at once sometimes)")
    deadline: float | None = Field(
        description="When the running timed phase ends, in seconds on the server's clock "
        "(compare with now); null when no clock runs. At the deadline the table acts itself "
        "(a log entry with seat null)"
    )
    now: float = Field(description="The server's clock when this answer was made (seconds)")
    over: bool
    view: dict[str, Any] = Field(
        description="Exactly what this seat (or a spectator) may see; its shape is the game's "
        "(components View_<game> where the game describes it)"
    )
    legal_actions: list[dict[str, Any]] = Field(description="This seat's legal actions now")
    scores: list[float] | None = Field(description="One per seat once the game is over")
    winners: list[int] = Field(description="Seats with the best score once over")
    seats: list[SeatOut]


class EventEntry(BaseModel):
    version: int = Field(description="The action's version (the n-th action of the game)")
    seat: int | None = Field(
        description="The seat that acted; null for the table (a timed phase ran out)"
    )
    events: list[dict[str, Any]] = Field(description="The game's public events for that action")
    time: float = Field(description="Unix time")


class EventsOut(BaseModel):
    id: str
    version: int
    over: bool
    deadline: float | None = Field(description="As in the game: the running phase's end or null")
    now: float = Field(description="The server's clock (seconds)")
    events: list[EventEntry]


class GameSummary(BaseModel):
    id: str
    game: str
    version: int
    over: bool
    origin: Literal["play", "import"]
    seats: list[SeatOut]
    free_seats: list[int]
    created: float


class GameListOut(BaseModel):
    games: list[GameSummary]


class ClaimOut(BaseModel):
    id: str
    game: str
    index: int
    name: str | None
    token: str = Field(description="The seat's bearer token; shown only once")


class OptionOut(BaseModel):
    name: str
    default: Any
    description: str
    description_zh: str | None = None
    choices: list[Any] | None = None
    minimum: int | None = None
    maximum: int | None = None


class KindOut(BaseModel):
    name: str
    title: str
    title_zh: str
    min_seats: int
    max_seats: int
    chance: Literal["seeded", "none"]
    information: Literal["perfect", "imperfect"]
    turns: Literal["sequential", "simultaneous"]
    timed: bool = Field(description="Some phases end by the clock (see deadline in the game)")
    options: list[OptionOut]
    bots: list[str] = Field(description="Bot levels")


class KindsOut(BaseModel):
    kinds: list[KindOut]
