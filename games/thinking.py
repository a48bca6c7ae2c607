"""What a searching bot may spend on one decision, handed to it by whoever asks it to move.

Budgets are data passed in, never read from the environment when a module is imported: the
service builds one ``Thinking`` from its configuration (``rollouts``, per game kind name) and the
table scales it by ``effort`` when its thinkers fall behind (a strong bot then plays the best move
found within that share of its budget). Tools and tests that ask a bot directly pass nothing and
get each game's default budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Thinking:
    """``rollouts``: a game kind's name → the number of rollouts its strong bot spends on a
    decision at full effort (a kind not named keeps its default); ``effort``: the share of that
    budget granted now, in (0, 1]."""

    rollouts: Mapping[str, int] = field(default_factory=dict)
    effort: float = 1.0

    def __post_init__(self) -> None:
        if not 0.0 < self.effort <= 1.0:
            raise ValueError(f"effort must be in (0, 1], not {self.effort!r}")

    def at(self, effort: float) -> Thinking:
        """The same budgets at another ``effort`` (clamped into (0, 1])."""
        return replace(self, effort=min(1.0, max(effort, 1e-3)))


#: Each game's default budget at full effort.
DEFAULT = Thinking()
