"""What of a game kind the base's helpers use (``games.turns``, ``games.autoplay``): ``Playable``.

``games.base.GameKind`` is the one implementation; its helpers are typed against this protocol
instead of importing it, so ``games.base`` imports them and none of them imports it back (no
import circle inside ``games``). ``Timer``, the clock a kind's ``timer`` gives, lives here for
the same reason (``games.base`` re-exports it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from games.actions import Action
from games.gametype import GameType
from games.phases import Event
from games.thinking import Thinking

#: A bot: ``(view, legal actions, rng) -> action`` (``games.autoplay``).
Bot = Callable[[dict, list[Action], random.Random], Action | None]


@dataclass(frozen=True)
class Timer:
    """A phase that ends by the clock: it began after the ``since``-th log entry, lasts
    ``seconds``, and when it runs out the table plays ``action`` (seat ``SYSTEM``)."""

    since: int
    seconds: float
    action: Action


class Playable(Protocol):
    """The part of ``games.base.GameKind`` that games played by bots and the table use."""

    type: GameType

    @property
    def name(self) -> str: ...

    @property
    def gentlest_bot(self) -> str: ...

    @property
    def bots(self) -> Mapping[str, Bot]: ...

    def new_state(self, seed: int, seats: int, options: dict | None = None) -> Any: ...

    def apply(
        self, state: Any, seat: int | None, action: Any, *, limits: bool = False
    ) -> list[Event]: ...

    def to_act(self, state: Any) -> list[int]: ...

    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...

    def is_over(self, state: Any) -> bool: ...

    def timer(self, state: Any) -> Timer | None: ...

    def turn_clocks(self, state: Any) -> dict[int, int]: ...

    def timeout_action(self, state: Any, rng: random.Random, seat: int | None = None) -> Action: ...

    def bot_action(
        self, state: Any, seat: int, level: str, rng: random.Random, thinking: Thinking = ...
    ) -> Action | None: ...

    def finish(self, state: Any, end: str, events: list[Event]) -> None: ...
