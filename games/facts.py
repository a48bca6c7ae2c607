"""A kind's static facts put to work: its options resolved, its seat count checked, and the
metadata a new-game form reads (``GameKind.resolve_options``, ``check_seats``, ``metadata``
call these with the kind's ``GameType``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from errors import InvalidInput
from games import turns
from games.gametype import GameType, OptionSpec
from i18n import translate


def resolve_options(game_type: GameType, given: dict | None) -> dict:
    """Defaults filled in, every given option validated; unknown names refused. The options
    every kind takes (``games.turns.BASE_OPTIONS``) are left out while off (``None``), so
    a game without them has the options it always had; one clock at most
    (``games.turns.check_clock_options``)."""
    given = {} if given is None else given
    if not isinstance(given, dict):
        raise InvalidInput("options must be an object", "options")
    specs = {o.name: o for o in game_type.options}
    for key in given:
        if key not in specs:
            known = ", ".join(specs) or "none"
            raise InvalidInput(
                f"unknown option {key!r} (known: {known})",
                f"options.{key}",
                reason="unknown_option",
                params={"option": key},
            )
    resolved = {
        name: spec.validate(given[name], f"options.{name}") if name in given else spec.default
        for name, spec in specs.items()
    }
    for base in turns.BASE_OPTIONS:  # the table's options are kept only when they are on
        if resolved.get(base.name) is None:
            resolved.pop(base.name, None)
    turns.check_clock_options(resolved)
    return resolved


def check_seats(game_type: GameType, seats: Any) -> None:
    """Refuse anything but a whole seat count within the game's bounds."""
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise InvalidInput("seat count must be an integer", "seats")
    low, high = game_type.min_seats, game_type.max_seats
    if not low <= seats <= high:
        raise InvalidInput(
            f"{game_type.name} takes {low}-{high} seats, got {seats}",
            "seats",
            reason="seat_count",
            params={"min": low, "max": high, "seats": seats},
        )


def metadata(game_type: GameType, levels: Mapping[str, Any], aliases: Mapping[str, str]) -> dict:
    """The game's facts for a new-game form, both languages' texts from the catalogues:
    ``levels`` are its bot levels (weakest first), ``aliases`` old level name → level."""
    t = game_type

    def text(lang: str, key: str) -> str:
        return translate(lang, f"games.{t.name}.{key}")

    def describe(lang: str, option: OptionSpec) -> str:
        if any(option is base for base in turns.BASE_OPTIONS):
            return translate(lang, f"games.options.{option.name}")
        return text(lang, f"options.{option.name}")

    return {
        "name": t.name,
        "title": text("en", "title"),
        "title_zh": text("zh", "title"),
        "min_seats": t.min_seats,
        "max_seats": t.max_seats,
        "chance": t.chance,
        "information": t.information,
        "turns": t.turns,
        "timed": t.timed,
        "options": [
            {
                "name": o.name,
                "default": o.default,
                "description": describe("en", o),
                "description_zh": describe("zh", o),
                **({"choices": list(o.choices)} if o.choices is not None else {}),
                **({"minimum": o.bounds[0], "maximum": o.bounds[1]} if o.bounds else {}),
                **({"pattern": o.pattern} if o.pattern is not None else {}),
            }
            for o in t.options
        ],
        "bots": list(levels),
        "levels": [
            {
                "name": level,
                "description": text("en", f"levels.{level}"),
                "description_zh": text("zh", f"levels.{level}"),
                "aliases": [old for old, new in aliases.items() if new == level],
            }
            for level in levels
        ],
    }
