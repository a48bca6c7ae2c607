"""The solver's rule options (rules §2), a small frozen value with a JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from errors import InvalidInput

_OPTION_KEYS = ("near_includes_target", "treasure_on_landmarks")


@dataclass(frozen=True, slots=True)
class SolverOptions:
    """Rule options that change which spaces a clue or a treasure allows.

    - ``near_includes_target`` (default false): "within d of X" means ``0 ≤ dist ≤ d`` instead of
      ``1 ≤ dist ≤ d``, i.e. the spaces of X itself count as near X.
    - ``treasure_on_landmarks`` (default true): a treasure may lie on a landmark's space; when
      false, landmark spaces are never candidates.
    """

    near_includes_target: bool = False
    treasure_on_landmarks: bool = True
    #: Dense key 0–3 for the engine's per-island tables (not part of equality).
    code: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        for key in _OPTION_KEYS:
            if not isinstance(getattr(self, key), bool):
                raise InvalidInput(f"{key} must be true or false", key)
        code = 2 * self.near_includes_target + self.treasure_on_landmarks
        object.__setattr__(self, "code", code)

    def to_json(self) -> dict[str, bool]:
        return {
            "near_includes_target": self.near_includes_target,
            "treasure_on_landmarks": self.treasure_on_landmarks,
        }

    @classmethod
    def from_json(cls, data: Any, field: str = "options") -> SolverOptions:
        """Options from ``{"near_includes_target": bool, "treasure_on_landmarks": bool}``.

        Missing keys take their defaults; ``None`` means all defaults.
        """
        if data is None:
            return DEFAULT_OPTIONS
        if not isinstance(data, dict):
            raise InvalidInput(f"must be an object, got {type(data).__name__}", field)
        for key, value in data.items():
            if key not in _OPTION_KEYS:
                raise InvalidInput(f"unknown option {key!r}", f"{field}.{key}")
            if not isinstance(value, bool):
                raise InvalidInput(f"{key} must be true or false", f"{field}.{key}")
        return _BY_CODE[
            2 * data.get("near_includes_target", False) + data.get("treasure_on_landmarks", True)
        ]


DEFAULT_OPTIONS = SolverOptions()
_BY_CODE = [SolverOptions(bool(c & 2), bool(c & 1)) for c in range(4)]
