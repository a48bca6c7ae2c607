"""Pydantic models of the lobby's API (``web.lobby_api``): validation and OpenAPI in one."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from web.apidoc import StrictIn
from web.schemas_accounts import GAME_ID_TEXT
from web.schemas_games import FILL_LEVEL, Name, NameText, SeatOut


class TimeControlIn(StrictIn):
    """One clock or none: ``turn_seconds`` (a time per move), or ``time_bank_s`` with
    ``increment_s`` (a bank per seat); the game's option rules judge them."""

    turn_seconds: int | None = Field(default=None, ge=10, le=7 * 86_400)
    time_bank_s: int | None = Field(default=None, ge=10, le=6 * 3600)
    increment_s: int | None = Field(default=None, ge=0, le=600)


class QuickPlayIn(StrictIn):
    game: str = Field(max_length=40, description="A game kind, see GET /api/games/kinds")
    seats: list[Annotated[int, Field(ge=1, le=16)]] = Field(
        min_length=2,
        max_length=2,
        description="[fewest, most] seats at the table (a new table gets the fewest)",
    )
    time_control: TimeControlIn = Field(default_factory=TimeControlIn)
    name: NameText = Name(description="The name to sit under (a signed-in player's: the account's)")
    avoid: list[Annotated[str, StringConstraints(pattern=GAME_ID_TEXT)]] = Field(
        default_factory=list,
        max_length=50,
        description="Games not to join (a guest's own tables, which the server cannot tell)",
    )


class SeatedOut(BaseModel):
    id: str
    game: str
    seat: int
    token: str = Field(description="The seat's bearer token; shown only once")
    joined: bool = Field(description="Joined a waiting table (false: opened this one)")
    seats: list[SeatOut]


class ClockOut(BaseModel):
    mode: Literal["none", "turn", "bank"]
    turn_seconds: int | None = None
    time_bank_s: int | None = None
    increment_s: int | None = None


class TableOut(BaseModel):
    id: str
    game: str
    seats: list[SeatOut]
    free: list[int] = Field(description="The seats anyone may take")
    clock: ClockOut
    rated: bool = Field(description="Counts for the ratings (the host's choice)")
    created: float = Field(description="When it opened (the wait: now - created)")
    fill_at: float | None = Field(description="When bots take the free seats (null: never)")
    fill_level: str | None = Field(description=FILL_LEVEL)
    expires: float | None = Field(description="When the table closes if still not full")


class LobbyOut(BaseModel):
    game: str
    now: float = Field(description="The service's clock")
    count: int = Field(description="Open tables in all")
    tables: list[TableOut]
