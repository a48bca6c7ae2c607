"""Pydantic models of the game API's requests and responses (validation and OpenAPI in one).

Requests are parsed with ``web.apidoc.validated``; responses are built as plain dicts by
``web.service.sessions`` and described here (``tests/test_openapi.py`` checks with schemathesis
that every response matches). Game-specific parts (options, actions, views, events) are JSON
objects whose shape each game documents: the API is the same for every game kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, WithJsonSchema

from errors import InvalidInput
from games.base import GameKind, OptionSpec, kinds
from web.apidoc import SEED_SCHEMA, StrictIn
from web.text_rules import character_class, code_point, name_pattern, unfit_character

MAX_SEED = 2**63 - 1
MAX_SEATS = 16
#: The highest version a move may name: the largest integer a JSON reader in a browser keeps
#: exactly (2^53 - 1); no game comes near it.
MAX_VERSION = 2**53 - 1


def plain_name(value: str | None) -> str | None:
    """Refuse a name holding a character unfit to show (``web.text_rules``: controls, format
    and invisible characters, separators but the space, private use, unassigned, blank
    letters), naming it (the field is named by ``web.apidoc.validated``)."""
    found = None if value is None else unfit_character(value)
    if found is not None:
        code = code_point(found)
        if found == "\x00":
            raise InvalidInput(
                "text may not contain the NUL character (U+0000)", reason="nul_character"
            )
        raise InvalidInput(
            f"a name may not hold invisible, control or blank characters ({code}, "
            f"{character_class(found)})",
            reason="hidden_character",
            params={"character": code},
        )
    return value


def describe_name(schema: dict[str, Any]) -> None:
    """A name field's description (``json_schema_extra``): ``web.text_rules.name_pattern``."""
    schema["pattern"] = name_pattern()


def Name(max_length: int = 40, min_length: int | None = 1, description: str | None = None) -> Any:
    """A name field: at most ``max_length`` characters, none hidden (``plain_name``)."""
    return Field(
        default=None,
        min_length=min_length,
        max_length=max_length,
        description=description,
        json_schema_extra=describe_name,
    )


#: A name's type: checked by ``plain_name`` (the pattern is only described).
NameText = Annotated[str | None, AfterValidator(plain_name)]
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
    "description": "One of the seat's legal_actions (the other fields are the game's: "
    "components Actions_<game> describe each game's actions and their bounds)",
}
#: An action: a JSON object with a string ``type``; the rest is the game's to judge.
ActionObject = Annotated[
    dict[str, Any], AfterValidator(_action_shape), WithJsonSchema(ACTION_SCHEMA)
]


class SeatIn(StrictIn):
    type: Literal["human", "bot"]
    name: NameText = Name(description="Display name")
    level: str | None = Field(
        default=None, max_length=40, description="Bot level (bots only; default: the game's first)"
    )
    open: bool = Field(
        default=False,
        description="Human seats only: leave the seat free for someone to claim "
        "(POST /api/games/{id}/seats/{index}/claim) instead of returning its token now; "
        "unless listed, the seat is an invitation, claimed only with the secret returned for it "
        "(`invite`: put it in the share link)",
    )
    listed: bool = Field(
        default=False,
        description="Open seats only: list the game under GET /api/games?open=true for anyone "
        "to join with the game's id alone; otherwise (the default) the seat is an invitation "
        "and a game whose free seats are all invitations is in no public list",
    )


RATED = (
    "The table counts for the players' ratings when the game qualifies (accounts and bots, a "
    "seed the server chose); false: a casual table, never rated"
)
FILL_AFTER = (
    "Seconds after the table opens when bots of fill_level take its listed seats still free "
    "(null: they wait for players until the table expires)"
)
FILL_LEVEL = "The bots' level that fills the table (default: the game's first)"


class CreateGameIn(StrictIn):
    game: str = Field(max_length=40, description="A game kind, see GET /api/games/kinds")
    seats: list[SeatIn] = Field(min_length=1, max_length=MAX_SEATS)
    options: dict[str, Any] | None = Field(default=None, description="Rule options (see kinds)")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED, description="Random when absent")
    rated: bool = Field(default=True, description=RATED)
    fill_bots_after_s: int | None = Field(default=None, ge=10, le=3600, description=FILL_AFTER)
    fill_level: str | None = Field(default=None, max_length=40, description=FILL_LEVEL)


class ActionIn(StrictIn):
    version: int = Field(
        ge=0,
        le=MAX_VERSION,
        description='The version the action was chosen at (a {"type": "back"}, which every '
        "game takes from a seat marked absent, is taken at any version)",
    )
    action: ActionObject


class ClaimIn(StrictIn):
    name: NameText = Name(description="Display name")
    invite: str | None = Field(
        default=None,
        max_length=256,
        description="The invitation's secret, from the seat's share link (a seat that is not "
        "listed is claimed with it only)",
    )


class RecordSeat(StrictIn):
    index: int | None = Field(default=None, ge=0, le=MAX_SEATS - 1)
    type: Literal["human", "bot"]
    name: NameText = Name(min_length=None)
    level: str | None = Field(default=None, max_length=40)


class RecordAction(StrictIn):
    seat: int | None = Field(
        ge=0, le=64, description="The seat that acted; null for the table's own action (a timeout)"
    )
    action: ActionObject


class GameRecordIO(StrictIn):
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
    if isinstance(spec.default, int) or spec.integer_or_none:
        out: dict[str, Any] = {"type": "integer"}
        if spec.bounds is not None:
            out["minimum"], out["maximum"] = spec.bounds
        if spec.integer_or_none:
            return {"anyOf": [out, {"type": "null"}], "default": None}
        return {**out, "default": spec.default}
    if isinstance(spec.default, str):
        out = {"type": "string", "default": spec.default}
        if spec.pattern is not None:
            out["pattern"] = f"^(?:{spec.pattern})$"
        return out
    return {"default": spec.default}


def _given(*names: str) -> dict[str, Any]:
    """A JSON Schema: an object in which each of ``names`` is given, not null."""
    return {"required": list(names), "properties": {n: {"type": "integer"} for n in names}}


#: The clock options every kind takes (``games.turns.check_clock_options``): one clock, a time
#: per move or a bank per seat, and an increment only with a bank.
CLOCK_RULES: list[dict[str, Any]] = [
    {"not": _given("turn_seconds", "time_bank_s")},
    {"if": _given("increment_s"), "then": _given("time_bank_s")},
]


def _options_schema(kind: GameKind) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {o.name: _option_schema(o) for o in kind.type.options},
        "allOf": CLOCK_RULES,
        "description": "Rule options (defaults filled in for the ones left out); one clock: "
        "turn_seconds (a time per move) or time_bank_s (a bank per seat, with increment_s "
        "after each move)",
    }


#: The components of a seat's name (its long pattern written once in the description).
NAME_PARTS = {"SeatName": 1, "RecordSeatName": 0}


def _name_defs() -> dict[str, Any]:
    """``NAME_PARTS`` as schemas: 1-40 (or 0-40) characters fit to show, or null."""
    return {
        part: {
            "anyOf": [
                {"type": "string", "minLength": least, "maxLength": 40, "pattern": name_pattern()},
                {"type": "null"},
            ]
        }
        for part, least in NAME_PARTS.items()
    }


def _closed(required: list[str], properties: dict[str, Any], title: str = "") -> dict[str, Any]:
    """A JSON object of ``properties`` and nothing else, ``required`` among them."""
    return {
        "type": "object",
        **({"title": title} if title else {}),
        "additionalProperties": False,
        "required": required,
        "properties": properties,
    }


def _per_kind(title: str, required: list[str], properties: Callable[[GameKind], dict]) -> dict:
    """One ``<title>_<kind>`` variant per game kind: ``{"oneOf": [...], "$defs": {...}}``
    (``web.openapi`` moves ``$defs`` into the components), each with ``game`` the kind's name
    and ``properties(kind)``."""
    defs: dict[str, Any] = {}
    for name, kind in sorted(kinds().items()):
        own = {"game": {"const": name}, **properties(kind)}
        defs[f"{title}_{name}"] = _closed(required, own, f"{title}_{name}")
    refs = [{"$ref": REF.format(n)} for n in defs]
    return {"oneOf": refs, "$defs": {**defs, **_name_defs()}}


def _seat_variant(seat_type: str, **properties: Any) -> dict[str, Any]:
    """One seat variant of a new game's ``seats``: ``{"type": seat_type, "name": ...}`` and
    ``properties``, nothing else."""
    name = {"$ref": REF.format("SeatName")}
    return _closed(["type"], {"type": {"const": seat_type}, "name": name, **properties})


def _seat_schemas(kind: GameKind) -> list[dict[str, Any]]:
    human = _seat_variant(
        "human",
        level={"type": "null"},
        open={"type": "boolean", "description": SeatIn.model_fields["open"].description},
        listed={"type": "boolean", "description": SeatIn.model_fields["listed"].description},
    )
    # a listed seat is an open one (else 400 listed_not_open)
    human["if"] = {"required": ["listed"], "properties": {"listed": {"const": True}}}
    human["then"] = {"required": ["open"], "properties": {"open": {"const": True}}}
    bot = _seat_variant(
        "bot",
        level={
            "anyOf": [{"enum": sorted(kind.bots)}, {"type": "null"}],
            "description": "Bot level (default: the game's first)",
        },
        open={"const": False},
        listed={"const": False},
    )
    return [human, bot]


def _seats_schema(kind: GameKind, items: dict[str, Any]) -> dict[str, Any]:
    t = kind.type
    return {"type": "array", "minItems": t.min_seats, "maxItems": t.max_seats, "items": items}


def create_game_schema() -> dict[str, Any]:
    """``CreateGameIn`` per game kind: ``{"oneOf": [...], "$defs": {"CreateGame_<kind>": ...}}``
    (``web.openapi`` moves ``$defs`` into the components)."""

    def properties(kind: GameKind) -> dict[str, Any]:
        return {
            "seats": _seats_schema(kind, {"oneOf": _seat_schemas(kind)}),
            "options": {"anyOf": [_options_schema(kind), {"type": "null"}]},
            "seed": {"anyOf": [SEED_SCHEMA, {"type": "null"}], "description": "Random when absent"},
            "rated": {"type": "boolean", "description": RATED},
            "fill_bots_after_s": {
                "anyOf": [{"type": "integer", "minimum": 10, "maximum": 3600}, {"type": "null"}],
                "description": FILL_AFTER,
            },
            "fill_level": {
                "anyOf": [{"enum": list(kind.bots)}, {"type": "null"}],
                "description": FILL_LEVEL,
            },
        }

    return _per_kind("CreateGame", ["game", "seats"], properties)


def record_schema() -> dict[str, Any]:
    """``GameRecordIO`` per game kind, as ``create_game_schema``."""
    seat = _closed(
        ["type"],
        {
            "index": {
                "anyOf": [
                    {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
                    {"type": "null"},
                ],
                "description": "The seat's place in the list (optional)",
            },
            "type": {"enum": ["human", "bot"]},
            "name": {"$ref": REF.format("RecordSeatName")},
            "level": {"anyOf": [{"type": "string", "maxLength": 40}, {"type": "null"}]},
        },
    )
    seat_of_action = {
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 64}, {"type": "null"}],
        "description": RecordAction.model_fields["seat"].description,
    }
    action = _closed(["seat", "action"], {"seat": seat_of_action, "action": ACTION_SCHEMA})

    def properties(kind: GameKind) -> dict[str, Any]:
        return {
            "options": _options_schema(kind),
            "seed": SEED_SCHEMA,
            "seats": _seats_schema(kind, seat),
            "actions": {"type": "array", "items": action},
        }

    return _per_kind("GameRecord", ["game", "options", "seed", "seats", "actions"], properties)


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
    player: str | None = Field(
        default=None,
        description="The account holding the seat (its profile: /api/players/{player}); null "
        "for a guest's seat, a bot or a free seat",
    )
    deleted: bool = Field(
        default=False,
        description="The account that held the seat was deleted: it reads 'deleted player' "
        "and nobody holds it",
    )


class SeatCreated(SeatOut):
    token: str | None = Field(
        description="The seat's bearer token (human seats that are not open); shown only once"
    )
    invite: str | None = Field(
        description="An invitation's secret (open seats that are not listed): claiming the seat "
        "needs it, so it goes in the seat's share link (the join page reads it from "
        "`#invite=`); shown only once"
    )


SEED_CHOSEN = (
    "The game's creator chose its seed, so they know the deal (every hand, deck and bag): pages "
    "tell every seat. A seed left to the server stays secret until the end (the record)"
)


class GameCreatedOut(BaseModel):
    id: str
    game: str
    version: int
    seed_chosen: bool = Field(description=SEED_CHOSEN)
    seats: list[SeatCreated]


class GameStateOut(BaseModel):
    id: str
    game: str
    version: int
    seat: int | None = Field(description="The seat the token belongs to; null for a spectator")
    to_act: list[int] = Field(description="Seats that may act now (several at once sometimes)")
    deadline: float | None = Field(
        description="When the table acts next, in seconds on the server's clock (compare with "
        "now): the running timed phase's end, or the first seat's clock's (options "
        "turn_seconds, time_bank_s); null when no clock runs. At the deadline the table acts itself (a log entry with "
        "seat null: the phase's timeout, or the late seat's move, played by the game's "
        "gentlest bot)"
    )
    turn_deadlines: list[float | None] = Field(
        description="Per seat, when its clock runs out (option turn_seconds: its time for this "
        "move; time_bank_s: what is left of its bank; a seat marked absent: at once; server "
        "clock), or null when its clock does not run"
    )
    banks: list[float | None] = Field(
        description="Per seat, the seconds left in its time bank now (option time_bank_s: a "
        "running clock's bank less what it has used so far; increment_s is added after each "
        "of its moves, and after the table played for it the bank is just the increment); "
        "null for every seat of a game without banks"
    )
    absent: list[int] = Field(
        description="The seats marked absent: after 3 moves in a row that the table played "
        'for a seat whose time ran out, its clock is 0 s until it sends {"type": "back"} '
        "(at any version) or acts itself"
    )
    now: float = Field(description="The server's clock when this answer was made (seconds)")
    table_due: float | None = Field(
        None,
        description="When the table must act next by itself (server clock, seconds): the "
        "deadline, or the due bot's move; null when it has nothing to do (or only a failed "
        "bot's retry)",
    )
    behind: float | None = Field(
        None,
        description="How many seconds the table is late (its bots or clock), once that is "
        "more than 5 s; else null: the game page says the table is behind",
    )
    seed_chosen: bool = Field(description=SEED_CHOSEN)
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


class MoveOut(GameStateOut):
    """The answer to a move: the seat's game as after it, and what the move appended."""

    appended: list[EventEntry] = Field(
        description="The log entries this request appended, oldest first: the action, then "
        "the replies of bots that answer in the same write (and the table's end of a full "
        "log); each as `events` gives it. Other bots' replies come later, as events"
    )


class EventsOut(BaseModel):
    id: str
    version: int
    over: bool
    deadline: float | None = Field(description="As in the game: the running phase's end or null")
    now: float = Field(description="The server's clock (seconds)")
    more: bool = Field(description="More entries follow the last one returned (a page is full)")
    events: list[EventEntry]
    chat: int = Field(
        description="The lines of the game's table chat so far (GET /api/games/{game_id}/chat)"
    )
    bot: Literal["thinking", "failed"] | None = Field(
        description="The table's bots, as the game's `bot`: `thinking` while a bot's move is "
        "due, `failed` when the last one tried failed, null when no bot is to act. A wait "
        "also ends when this changes with no new entry (a bot found nothing to do)"
    )


class GameSummary(BaseModel):
    id: str
    game: str
    version: int
    over: bool
    origin: Literal["play", "import"]
    seed_chosen: bool = Field(description=SEED_CHOSEN)
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
