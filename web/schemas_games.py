"""Pydantic models of the game API's requests and responses (validation and OpenAPI in one).

Requests are parsed with ``web.apidoc.validated``; responses are built as plain dicts by
``web.storage.sessions`` and described here (``tests/test_openapi.py`` checks with schemathesis
that every response matches). Game-specific parts (options, actions, views, events) are JSON
objects whose shape each game documents: the API is the same for every game kind.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from games.base import GameKind, OptionSpec, kinds

MAX_SEED = 2**63 - 1
MAX_SEATS = 16
#: Text a store can keep: no NUL character (PostgreSQL's JSONB has none; both stores refuse it).
STORABLE_TEXT = r"^[^\x00]*$"
Name = Field(
    default=None, min_length=1, max_length=40, pattern=STORABLE_TEXT, description="Display name"
)
#: Where the per-kind variants of the request schemas live in the API description.
REF = "#/components/schemas/{}"


def _action_shape(value: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(value.get("type"), str):
        raise ValueError('an action is a JSON object with a string \'type\', e.g. {"type": "take"}')
    return value


ACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"type": "string", "description": "The action's kind"}},
    "additionalProperties": True,
    "description": "One of the seat's legal_actions (the other fields are the game's)",
}
#: An action: a JSON object with a string ``type``; the rest is the game's to judge.
ActionObject = Annotated[
    dict[str, Any], AfterValidator(_action_shape), WithJsonSchema(ACTION_SCHEMA)
]


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
    listed: bool = Field(
        default=False,
        description="Open seats only: list the game under GET /api/games?open=true for anyone "
        "to join; otherwise (the default) only the seat's share link leads to it",
    )


class CreateGameIn(_In):
    game: str = Field(max_length=40, description="A game kind, see GET /api/games/kinds")
    seats: list[SeatIn] = Field(min_length=1, max_length=MAX_SEATS)
    options: dict[str, Any] | None = Field(default=None, description="Rule options (see kinds)")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED, description="Random when absent")


class ActionIn(_In):
    version: int = Field(ge=0, description="The version the action was chosen at")
    action: ActionObject


class ClaimIn(_In):
    name: str | None = Name


class RecordSeat(_In):
    index: int | None = Field(default=None, ge=0)
    type: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=40, pattern=STORABLE_TEXT)
    level: str | None = Field(default=None, max_length=40)


class RecordAction(_In):
    seat: int | None = Field(
        ge=0, le=64, description="The seat that acted; null for the table's own action (a timeout)"
    )
    action: ActionObject


class GameRecordIO(_In):
    """A finished game: what GET /record returns and POST /import accepts."""

    game: str = Field(max_length=40)
    options: dict[str, Any]
    seed: int = Field(ge=0, le=MAX_SEED)
    seats: list[RecordSeat] = Field(min_length=1, max_length=MAX_SEATS)
    actions: list[RecordAction]


# --- the request schemas per game kind (API description) --------------------------------------
# The models above validate what every kind shares; the server then checks the seat count, bot
# levels and options against the kind. The description says all of it, one variant per kind,
# so that a body the description allows is one the server takes (until a game's rules judge).


def _option_schema(spec: OptionSpec) -> dict[str, Any]:
    if spec.choices is not None:
        return {"enum": list(spec.choices), "default": spec.default}
    if isinstance(spec.default, bool):
        return {"type": "boolean", "default": spec.default}
    if isinstance(spec.default, int):
        out: dict[str, Any] = {"type": "integer", "default": spec.default}
        if spec.bounds is not None:
            out["minimum"], out["maximum"] = spec.bounds
        return out
    if isinstance(spec.default, str):
        out = {"type": "string", "default": spec.default}
        if spec.pattern is not None:
            out["pattern"] = f"^(?:{spec.pattern})$"
        return out
    return {"default": spec.default}


def _options_schema(kind: GameKind) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {o.name: _option_schema(o) for o in kind.type.options},
        "description": "Rule options (defaults filled in for the ones left out)",
    }


_NAME = {
    "anyOf": [
        {"type": "string", "minLength": 1, "maxLength": 40, "pattern": STORABLE_TEXT},
        {"type": "null"},
    ]
}


def _seat_schemas(kind: GameKind) -> list[dict[str, Any]]:
    human = {
        "type": "object",
        "additionalProperties": False,
        "required": ["type"],
        "properties": {
            "type": {"const": "human"},
            "name": _NAME,
            "level": {"type": "null"},
            "open": {"type": "boolean", "description": SeatIn.model_fields["open"].description},
        },
    }
    bot = {
        "type": "object",
        "additionalProperties": False,
        "required": ["type"],
        "properties": {
            "type": {"const": "bot"},
            "name": _NAME,
            "level": {
                "anyOf": [{"enum": sorted(kind.bots)}, {"type": "null"}],
                "description": "Bot level (default: the game's first)",
            },
            "open": {"const": False},
        },
    }
    return [human, bot]


def _seats_schema(kind: GameKind, items: dict[str, Any]) -> dict[str, Any]:
    t = kind.type
    return {"type": "array", "minItems": t.min_seats, "maxItems": t.max_seats, "items": items}


def create_game_schema() -> dict[str, Any]:
    """``CreateGameIn`` per game kind: ``{"oneOf": [...], "$defs": {"CreateGame_<kind>": ...}}``
    (``web.openapi`` moves ``$defs`` into the components)."""
    defs: dict[str, Any] = {}
    for name, kind in sorted(kinds().items()):
        defs[f"CreateGame_{name}"] = {
            "type": "object",
            "title": f"CreateGame_{name}",
            "additionalProperties": False,
            "required": ["game", "seats"],
            "properties": {
                "game": {"const": name},
                "seats": _seats_schema(kind, {"oneOf": _seat_schemas(kind)}),
                "options": {"anyOf": [_options_schema(kind), {"type": "null"}]},
                "seed": {
                    "anyOf": [
                        {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
                        {"type": "null"},
                    ],
                    "description": "Random when absent",
                },
            },
        }
    return {"oneOf": [{"$ref": REF.format(n)} for n in defs], "$defs": defs}


def record_schema() -> dict[str, Any]:
    """``GameRecordIO`` per game kind, as ``create_game_schema``."""
    seat = {
        "type": "object",
        "additionalProperties": False,
        "required": ["type"],
        "properties": {
            "index": {
                "anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}],
                "description": "The seat's place in the list (optional)",
            },
            "type": {"enum": ["human", "bot"]},
            "name": {
                "anyOf": [
                    {"type": "string", "maxLength": 40, "pattern": STORABLE_TEXT},
                    {"type": "null"},
                ]
            },
            "level": {"anyOf": [{"type": "string", "maxLength": 40}, {"type": "null"}]},
        },
    }
    action = {
        "type": "object",
        "additionalProperties": False,
        "required": ["seat", "action"],
        "properties": {
            "seat": {
                "anyOf": [{"type": "integer", "minimum": 0, "maximum": 64}, {"type": "null"}],
                "description": RecordAction.model_fields["seat"].description,
            },
            "action": ACTION_SCHEMA,
        },
    }
    defs: dict[str, Any] = {}
    for name, kind in sorted(kinds().items()):
        defs[f"GameRecord_{name}"] = {
            "type": "object",
            "title": f"GameRecord_{name}",
            "additionalProperties": False,
            "required": ["game", "options", "seed", "seats", "actions"],
            "properties": {
                "game": {"const": name},
                "options": _options_schema(kind),
                "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
                "seats": _seats_schema(kind, seat),
                "actions": {"type": "array", "items": action},
            },
        }
    return {"oneOf": [{"$ref": REF.format(n)} for n in defs], "$defs": defs}


# --- responses -------------------------------------------------------------------------------


class SeatOut(BaseModel):
    index: int
    type: Literal["human", "bot"]
    name: str | None
    level: str | None
    open: bool = Field(description="A human seat nobody has claimed yet")
    listed: bool = Field(
        default=False, description="An open seat anyone may find (not by its share link only)"
    )


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
    bot: Literal["thinking", "failed"] | None = Field(
        description="The table's bots: `thinking` while a bot's move is due (it comes as an "
        "event: the stream, or events?wait=), `failed` when the last one tried failed (the "
        "table tries again later); null when no bot is to act"
    )
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
    more: bool = Field(description="More entries follow the last one returned (a page is full)")
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
    pattern: str | None = Field(default=None, description="A string option's values match it")


class LevelOut(BaseModel):
    name: str = Field(description="A bot level (easy, normal, strong): a seat's level")
    description: str = Field(description="How a bot of this level plays, in English")
    description_zh: str = Field(description="The same in Traditional Chinese")
    aliases: list[str] = Field(description="Older names of this level (stored games keep them)")


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
    bots: list[str] = Field(description="Bot levels, weakest first (the first is the default)")
    levels: list[LevelOut] = Field(description="The bot levels with how each plays")


class KindsOut(BaseModel):
    kinds: list[KindOut]
