"""Bots at play: the bot shape, a game played by bots on a simulated clock, a log replayed.

Bots get only a seat's view and that seat's legal actions, never the state, so a bot cannot cheat
by construction. A bot is a callable ``(view, legal_actions, rng) -> action``; in a timed phase
(``GameType.timed``) it may return ``None``: nothing to say now (it waits for others or the clock).
A bot that reads only its legal actions says so with ``legal_only`` (its ``needs_view`` is
false): the seat's view, often the costliest part of a bot move, is then not built for it.
``GameKind.bot_action`` asks one; ``next_bot_action`` finds the bot seat that speaks next, and
``play_bots`` plays a game to its end (the simulator, the benches, the tests). ``games.base``
re-exports every name here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from games.actions import SYSTEM, Action
from games.phases import Event
from games.playing import Bot, Playable
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking

__all__ = ["Bot", "legal_only", "next_bot_action", "play_bots", "replay"]


class legal_only:
    """A bot that chooses from its legal actions alone: ``legal_only(fn)`` with ``fn(legal,
    rng)``. It is a ``Bot`` whose ``needs_view`` is false, so no view is built for it."""

    needs_view = False

    def __init__(self, choose: Callable[[list[Action], random.Random], Action | None]) -> None:
        self.choose = choose
        self.__doc__ = choose.__doc__
        self.__name__ = getattr(choose, "__name__", "bot")

    def __call__(self, view: dict, legal: list[Action], rng: random.Random) -> Action | None:
        return self.choose(legal, rng)


def replay(
    kind: Playable,
    seed: int,
    seats: int,
    options: dict | None,
    actions: Iterable[tuple[int | None, Action]],
) -> Any:
    """Rebuild a state from ``(seed, seats, options)`` and an action log of ``(seat, action)``
    (seat ``SYSTEM`` for the table's timeouts)."""
    state = kind.new_state(seed, seats, options)
    for seat, action in actions:
        kind.apply(state, seat, action)
    return state


def next_bot_action(
    kind: Playable,
    state: Any,
    levels: list[str | None],
    rng_for: Callable[[], random.Random],
    thinking: Thinking = DEFAULT_THINKING,
) -> tuple[int, Action] | None:
    """The first bot seat in ``to_act`` with something to say, and its action; ``None`` when no
    bot wants to act (humans must, or a timed phase waits for its clock). ``levels[seat]`` is a
    bot level or ``None`` for a human seat; ``rng_for()`` gives the generator for this move;
    ``thinking`` is what a searching bot may spend (``games.thinking``)."""
    timed = kind.type.timed
    for seat in kind.to_act(state):
        level = levels[seat]
        if level is None:
            continue
        rng = rng_for()
        action = kind.bot_action(state, seat, level, rng, thinking)
        if action is None:
            if timed:
                continue
            raise RuntimeError(f"{kind.name} bot {level!r} gave no action for seat {seat}")
        return seat, action
    return None


def play_bots(
    kind: Playable,
    state: Any,
    levels: list[str],
    rng: random.Random,
    max_actions: int = 100_000,
    on_action: Callable[[int | None, Action, list[Event]], None] | None = None,
    thinking: Thinking = DEFAULT_THINKING,
) -> int:
    """Let bots (one level per seat) play until the game ends, on a simulated clock: a timed
    phase ends (its timer's action, seat ``SYSTEM``) when no seat wants to act; the bots that
    search spend ``thinking``. Returns the number of actions."""
    n = 0
    bot_levels: list[str | None] = list(levels)
    while not kind.is_over(state):
        found = next_bot_action(kind, state, bot_levels, lambda: rng, thinking)
        if found is None:
            if kind.timer(state) is None:
                raise RuntimeError(f"{kind.name}: no bot can act and no clock runs")
            seat, action = SYSTEM, kind.timeout_action(state, rng)
        else:
            seat, action = found
        events = kind.apply(state, seat, action)
        if on_action is not None:
            on_action(seat, action, events)
        n += 1
        if n >= max_actions:
            raise RuntimeError(f"{kind.name}: no end after {max_actions} actions")
    return n
