"""Declared action types: each action of a game is declared once, and checked before its engine.

An action type is a pydantic model (``ActionType``) naming its ``type`` and its fields::

    class Drive(ActionType):
        type: Literal["drive"]
        to: Space

Models are strict and closed: a field of another JSON type, a missing field or an unknown one is
refused, and a boolean is never taken for a declared integer (a seat, a card number). ``parse``
turns an action (a JSON object) into its model, or raises ``InvalidInput`` with the field's path
(``action.cards[2]``) and one shared reason for each way a shape can be wrong:
``unknown_field``, ``missing_field``, ``not_an_integer``, ``malformed_action``. A field whose
values a game names (a map's colour, a card id, a route) is declared with ``OneOf`` or
``Named`` (``Annotated[str, OneOf(...)]``), which refuse another value with the game's own reason (``unknown_map``,
``isla_no_such_card``...); a model's own rules across fields raise ``refuse``. What depends on
the position (is the card in my hand? is that seat still in the market?) stays the engine's.

Engines receive the model instance, typed; the log keeps the action as it was sent. The same
declarations give each game's JSON Schema of its actions (``GameKind.action_schema``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal, NoReturn, TypeVar, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ValidationError,
)
from pydantic_core import PydanticCustomError, core_schema
from pydantic_core.core_schema import ErrorType

from errors import InvalidInput

#: An action as sent: a JSON object with a string ``type``.
Action = dict[str, Any]
#: The seat of an action the table takes itself (a timeout): no seat.
SYSTEM = None
A = TypeVar("A", bound="ActionType")

#: The largest number any action field takes without a game's own limit: the largest integer a
#: JSON reader in a browser keeps exactly (2^53 - 1).
MAX_NUMBER = 2**53 - 1
#: A whole number of 0 or more: a seat, a position in a row, a card number.
Number = Annotated[int, Field(ge=0, le=MAX_NUMBER)]


#: Pydantic's range errors: (the reason, the bound's key in the error's context, what makes
#: the bound inclusive for an integer).
_RANGE_ERRORS = {
    "less_than_equal": ("number_too_large", "le", 0),
    "less_than": ("number_too_large", "lt", -1),
    "greater_than_equal": ("number_too_small", "ge", 0),
    "greater_than": ("number_too_small", "gt", 1),
}


def range_refusal(
    kind: str, context: Mapping[str, Any], field: str, name: str
) -> InvalidInput | None:
    """A number outside its field's bounds, as pydantic reports it (``kind``, ``context``), as
    the domain error: ``number_too_large`` or ``number_too_small`` with the inclusive ``limit``
    (never the number given, which may be too large to write); ``None`` for another error."""
    found = _RANGE_ERRORS.get(kind)
    if found is None:
        return None
    reason, key, step = found
    limit = context[key]
    limit = limit + step if isinstance(limit, int) else limit
    word = "at most" if reason == "number_too_large" else "at least"
    return InvalidInput(
        f"{field} is {word} {limit}", field, reason=reason, params={"name": name, "limit": limit}
    )


class ActionType(BaseModel):
    """The base of every declared action type (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    type: str

    @classmethod
    def name(cls) -> str:
        """The ``type`` this model declares (its ``Literal``)."""
        return _name_of(cls)


def check_shape(action: Any, field: str) -> None:
    """Refuse anything but a JSON object with a string ``type`` (``malformed_action``)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise InvalidInput(
            'an action is a JSON object with a string \'type\', e.g. {"type": "take"}',
            f"{field}.type" if isinstance(action, dict) else field,
            reason="malformed_action",
        )


@cache
def _name_of(model: type[ActionType]) -> str:
    (name,) = get_args(model.model_fields["type"].annotation)
    return str(name)


@cache
def bare(name: str) -> type[ActionType]:
    """The declared action type ``name`` with no field but its ``type`` (``{"type": "pass"}``)."""
    model: type[ActionType] = type(
        f"Bare_{name}",
        (ActionType,),
        {"__annotations__": {"type": Literal[name]}, "__module__": __name__},
    )
    return model


def refuse(reason: str, message: str, at: str | None = None, **params: Any) -> NoReturn:
    """Inside a declaration's validator: refuse the value with ``reason`` (``params`` are what
    its sentence names; ``at``: the field of the model at fault, for a model's own check);
    ``parse`` makes it an ``InvalidInput`` at the value's path."""
    context = {"message": message, **params}
    if at is not None:
        context["at"] = at
    raise PydanticCustomError(reason, "{message}", context)


@dataclass(frozen=True)
class OneOf:
    """A string field naming one of ``values`` (``Annotated[str, OneOf(...)]``); another string
    is refused with ``reason`` (params ``{"value": given}``); ``what`` names such a value."""

    values: tuple[str, ...]
    reason: str
    what: str

    def check(self, value: str) -> str:
        if value not in self.values:
            refuse(self.reason, f"no {self.what} {value!r}", value=value)
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(self, schema: Any, handler: GetJsonSchemaHandler) -> Any:
        return {"type": "string", "enum": list(self.values)}


@dataclass(frozen=True, eq=False)  # hashed by identity: typing hashes ``Annotated`` metadata
class Named:
    """A string field naming an entry of ``table`` (a card id, a route id), whose value is the
    entry (``Annotated[int, Named(...)]``): another name is refused with ``reason``, another JSON
    type as ``malformed_action``. The schema lists the names, or gives their ``pattern``."""

    table: Mapping[str, Any]
    reason: str
    what: str
    pattern: str | None = None

    def look_up(self, value: Any) -> Any:
        if not isinstance(value, str):
            refuse("malformed_action", f"a {self.what} is named by a string, got {value!r}")
        if value not in self.table:
            refuse(self.reason, f"no {self.what} {value!r}", value=value)
        return self.table[value]

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return core_schema.no_info_plain_validator_function(self.look_up)

    def __get_pydantic_json_schema__(self, schema: Any, handler: GetJsonSchemaHandler) -> Any:
        if self.pattern is None:
            return {"type": "string", "enum": list(self.table)}
        return {"type": "string", "pattern": self.pattern, "description": f"a {self.what}"}


@dataclass(frozen=True, eq=False)  # hashed by identity, as ``Named``
class Parsed:
    """A field read by ``read(value)``, a parser of the game's that raises ``InvalidInput`` for
    a bad value (e.g. ``hexmap.island_json.parse_space`` with the field ``""``): its reason, its
    params and its field (below this one) are kept (a bare ``invalid`` becomes
    ``malformed_action``); ``schema`` is its JSON Schema (``Annotated[Hex, Parsed(...)]``)."""

    read: Callable[[Any], Any]
    schema: Mapping[str, Any]

    def parse(self, value: Any) -> Any:
        try:
            return self.read(value)
        except InvalidInput as e:
            reason = "malformed_action" if e.reason == "invalid" else e.reason
            below = (e.field or "").lstrip(".") or None
            refuse(reason, e.message, at=below, **e.params)

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return core_schema.no_info_plain_validator_function(self.parse)

    def __get_pydantic_json_schema__(self, schema: Any, handler: GetJsonSchemaHandler) -> Any:
        return dict(self.schema)


#: Pydantic's error types refused as ``not_an_integer``; the others of its own (not a
#: declaration's ``refuse``) as ``malformed_action``.
_INTEGER_ERRORS = frozenset(("int_type", "int_from_float", "int_parsing"))
#: A field the declaration does not have, or one it needs: (reason, message).
_FIELD_ERRORS = {
    "extra_forbidden": ("unknown_field", "unknown field {key!r} for a {name!r} action"),
    "missing": ("missing_field", "a {name!r} action needs {key!r}"),
}
_PYDANTIC_ERRORS = frozenset(get_args(ErrorType))


def parse(declared: type[A], action: Action) -> A:
    """``action`` checked against its declaration: the model, or an ``InvalidInput``."""
    if len(action) == 1 and len(declared.model_fields) == 1:  # a bare type: nothing to check
        return _bare_instance(declared)  # (the base has matched the ``type`` already)
    try:
        return declared.model_validate(action)
    except ValidationError as e:
        raise _refusal(declared.name(), e) from None


@cache
def _bare_instance(declared: type[A]) -> A:
    """The one (frozen) instance of a bare action type."""
    return declared.model_validate({"type": declared.name()})


def _path(loc: Iterable[int | str]) -> str:
    out = "action"
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _refusal(name: str, error: ValidationError) -> InvalidInput:
    """The first problem of a refused action, as the domain error (unknown fields first, then
    missing ones, as the engines checked them before)."""
    errors = error.errors(include_url=False)
    order = {"extra_forbidden": 0, "missing": 1}
    first = min(errors, key=lambda e: order.get(e["type"], 2))
    kind, loc, value = first["type"], tuple(first["loc"]), first.get("input")
    context = dict(first.get("ctx") or {})
    field = _path(loc)
    at = context.pop("at", None)
    if at is not None:  # below the value pydantic names: a field of it, or an item
        field += at if at.startswith("[") else f".{at}"
        loc += (at,)
    key = str(loc[-1]) if loc else "type"
    if kind in _FIELD_ERRORS:
        reason, message = _FIELD_ERRORS[kind]
        return InvalidInput(
            message.format(key=key, name=name),
            field,
            reason=reason,
            params={"name": key, "action": name},
        )
    out_of_range = range_refusal(kind, context, field, key)
    if out_of_range is not None:
        return out_of_range
    if kind in _INTEGER_ERRORS:
        return InvalidInput(
            f"{field} must be an integer, got {value!r}",
            field,
            reason="not_an_integer",
            params={"name": key},
        )
    if kind not in _PYDANTIC_ERRORS:  # a declaration's own reason (``refuse``)
        message = str(context.pop("message"))
        return InvalidInput(message, field, reason=kind, params=context)
    return InvalidInput(
        f"{field}: {first['msg'].lower()}, got {value!r}",
        field,
        reason="malformed_action",
        params={"name": key},
    )
