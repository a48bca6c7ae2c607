"""A game's static facts (``GameType``) and its rule options (``OptionSpec``): what any caller may
know of a game without a state (the new-game form, the API description, the simulator)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from errors import InvalidInput


@dataclass(frozen=True)
class OptionSpec:
    """A rule option: its name, default and allowed values: ``choices`` (``None``: any value of
    the default's type), for an integer option ``bounds`` (inclusive; with the default ``None``,
    an integer option that may be left off: ``null`` or an integer within them), for a string
    option a ``pattern`` (a regular expression the whole value matches, shown in the API
    description). Its description is in the catalogues, key ``games.<game>.options.<name>``
    (``games.options.<name>`` for the options every game takes, ``games.turns``)."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    bounds: tuple[int, int] | None = None
    pattern: str | None = None

    @property
    def integer_or_none(self) -> bool:
        """An integer option that may be left off (``None``, the default)."""
        return self.default is None and self.bounds is not None and self.choices is None

    def validate(self, value: Any, field_path: str) -> Any:
        if self.choices is not None:
            # Same type and equal: ``True`` is not the choice ``1``, ``0`` is not ``False``/``None``.
            if not any(type(value) is type(c) and value == c for c in self.choices):
                raise InvalidInput(
                    f"must be one of {', '.join(map(repr, self.choices))}, got {value!r}",
                    field_path,
                    reason="not_a_choice",
                    params={"choices": list(self.choices)},
                )
        elif isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise InvalidInput(f"must be true or false, got {value!r}", field_path)
        elif isinstance(self.default, int) or self.integer_or_none:
            if value is None and self.integer_or_none:
                return value
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput(f"must be an integer, got {value!r}", field_path)
            if self.bounds is not None and not self.bounds[0] <= value <= self.bounds[1]:
                low, high = self.bounds
                raise InvalidInput(
                    f"must be between {low} and {high}, got {value}",
                    field_path,
                    reason="out_of_range",
                    params={"min": low, "max": high},
                )
        elif isinstance(self.default, str):
            if not isinstance(value, str):
                raise InvalidInput(f"must be a string, got {value!r}", field_path)
            if self.pattern is not None and re.fullmatch(self.pattern, value) is None:
                raise InvalidInput(
                    f"must match {self.pattern}, got {value!r}",
                    field_path,
                    reason="no_match",
                    params={"pattern": self.pattern},
                )
        return value


@dataclass(frozen=True)
class GameType:
    """The static facts of a game: what any caller may know without a state.

    ``chance``: ``"seeded"`` (shuffles and draws from the game's seed) or ``"none"``.
    ``information``: ``"imperfect"`` when some seat sees what another does not.
    ``turns``: ``"sequential"`` (one seat at a time) or ``"simultaneous"`` (some phases let
    several seats act at once, e.g. secret choices or a negotiation).
    ``timed``: some phases end by the clock (``GameKind.timer``).
    Titles and option descriptions are in the catalogues (``games.<name>.title``,
    ``games.<name>.options.<option>``).
    """

    name: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...] = ()
    chance: Literal["seeded", "none"] = "seeded"
    information: Literal["perfect", "imperfect"] = "imperfect"
    turns: Literal["sequential", "simultaneous"] = "sequential"
    timed: bool = False
