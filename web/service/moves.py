"""Moves applied to a live state: the engine's ``apply`` with its refusals kept, and the bots'
moves, which a table runner plays (``web.service.table``), never a player's request.

An engine's refusal is a ``ProjectError`` (a 4xx). Any other exception is a bug, never an
answer: every action is checked against its declaration (``games.actions``) before the engine
sees it, so odd input is refused there; the exception propagates (a logged 500 in production, a
failing test under ``TESTING``) and the caller drops the state it may have half-changed.

Bots are deterministic from the log: each bot move's generator is seeded from the game's seed
and the move's version (``"<seed>/<version>"``, ``table_rng``; so is the table's move for a
seat whose turn clock ran out), so replaying a game, or another runner taking over the move of
one that crashed, gives the same move. A bot that crashes, chooses an action
the engine refuses, or whose move crashes the engine is ``BotFailed``: the runner logs it with
its traceback and marks the game, which never moves on by a move its bot did not choose.

**Quick bots answer in the player's write.** A table whose bots all read only their legal
actions (``games.base.legal_only``: the ``easy`` level of Tobago, DAO and Isla Dorada; no
view, no search: microseconds a move) needs no runner: ``quick_table`` says so, and the
player's write appends their move and the bots' replies, seeded as above, in one transaction
(at most ``QUICK_BUDGET_S`` of their thinking; a runner plays the rest). Every other bot (``normal``,
``strong``, anything that reads a view) thinks in the table's runner, never in a request.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from errors import ProjectError
from games import turns
from games.base import GameKind, next_bot_action
from games.thinking import DEFAULT as FULL_THINKING
from games.thinking import Thinking
from web.service.deadlines import Clock
from web.storage import BOT, ActionRecord, GameRecord

#: Thinking the quick bots may do in a player's write (after a move; then a runner goes on).
QUICK_BUDGET_S = 0.002


class BotFailed(Exception):
    """A bot could not make its move (its exception, or the engine's refusal, is the cause);
    the state may have changed on the way: drop it."""


def table_rng(seed: int, version: int) -> random.Random:
    """The generator of the table's move (a bot's, or a late seat's) that is log entry
    ``version`` of the game of ``seed``."""
    return random.Random(f"{seed}/{version}")


def apply_move(
    kind: GameKind, state: Any, seat: int | None, action: dict, limits: bool = False
) -> list[dict]:
    """The engine's ``apply`` (``limits``: a player's new action, checked against its phase's
    limits); a refusal names its field (``action`` when the engine named none). Anything else
    the engine raises is its bug and propagates (module doc)."""
    try:
        events = kind.apply(state, seat, action, limits=limits)
    except ProjectError as e:
        if e.field is None:
            e.field = "action"
        raise
    return list(events or [])


def clocks_now(kind: GameKind, state: Any) -> dict[int, int] | None:
    """The turn clocks that run now, kept with the entry just applied in a game with time banks
    (``ActionRecord.clocks``: their fold reads them, ``web.service.banks``); ``None`` in
    another game."""
    return kind.turn_clocks(state) if turns.bank_seconds(state) is not None else None


def bot_levels(game: GameRecord) -> list[str | None]:
    """Each seat's bot level, ``None`` for a human seat."""
    return [s.level if s.type == BOT else None for s in game.seats]


def quick_table(kind: GameKind, game: GameRecord) -> bool:
    """Whether every bot of ``game`` reads only its legal actions (module doc: their replies
    come with the player's move); ``False`` for a table without bots."""
    levels = [level for level in bot_levels(game) if level is not None]
    return bool(levels) and all(
        not getattr(kind.bots.get(level), "needs_view", True) for level in levels
    )


def bot_to_act(kind: GameKind, state: Any, game: GameRecord) -> bool:
    """Whether a bot seat is among those to act and may have something to say (then a
    runner asks it; in a timed phase it may still wait). A seat the phase says every bot
    waits at (``bot_waits``) is not: the page would say "thinking" for nothing."""
    if kind.is_over(state):
        return False
    levels = bot_levels(game)
    return any(
        levels[seat] is not None and not bot_waits(kind, state, seat) for seat in kind.to_act(state)
    )


def bot_waits(kind: GameKind, state: Any, seat: int) -> bool:
    """Whether the running phase's ``Phase.bot["waits"]`` piece says a bot of any level at
    ``seat`` says nothing now, on its view and legal actions (Dragon's Gold's market: its
    offer is out and none to it waits for an answer). Bots are deterministic functions of
    the state, so such a bot cannot act until another entry is appended."""
    phase = kind.phase(state)
    piece = None if phase is None else kind.bot_hook(phase.name, "waits")
    return piece is not None and bool(
        piece(kind.view(state, seat), kind.legal_actions(state, seat))
    )


def bot_moves(
    kind: GameKind,
    game: GameRecord,
    state: Any,
    version: int,
    clock: Clock,
    room: Callable[[int], None],
    budget_s: float,
    thinking: Thinking = FULL_THINKING,
) -> list[ActionRecord]:
    """Bots act on ``state`` (at ``version``; one log entry each) until none wants to (a human
    must act, a timed phase waits for its clock, the game ends) or, after a move, ``budget_s``
    seconds have passed (the moves so far are then written, and the runner comes back for the
    rest). ``room(v)`` refuses entry ``v`` when the log is full; ``clock`` stamps each entry;
    ``thinking`` is what a searching bot may spend (the table's effort: ``web.service.table``)."""
    out: list[ActionRecord] = []
    levels = bot_levels(game)
    started = time.monotonic()
    while not kind.is_over(state):
        # made only when a bot asks (seeding costs microseconds; most loops end at a human)
        rngs: list[random.Random] = []

        def rng_for(made: list[random.Random] = rngs, entry: int = version + 1) -> random.Random:
            if not made:
                made.append(table_rng(game.seed, entry))
            return made[0]

        try:
            found = next_bot_action(kind, state, levels, rng_for, thinking)
        except Exception as e:  # a bot bug: the game waits, the bug is logged (never a guess)
            raise BotFailed(f"a {kind.name} bot failed at version {version + 1}: {e!r}") from e
        if found is None:
            break
        seat, action = found
        version += 1
        try:
            room(version)
        except ProjectError:  # the log is full: write what is done (the state is untouched)
            if out:
                break
            raise
        try:
            events = apply_move(kind, state, seat, action)
        except ProjectError as e:  # refused: the bot's bug
            raise BotFailed(
                f"{kind.name} refused the {levels[seat]} bot's move {action!r} for seat {seat}"
                f" at version {version}: {e.message}"
            ) from e
        except Exception as e:  # the engine's bug, met by a bot: the game waits, it is logged
            raise BotFailed(
                f"the {levels[seat]} bot's move {action!r} for seat {seat} crashed {kind.name}"
                f" at version {version}: {e!r}"
            ) from e
        out.append(ActionRecord(version, seat, action, events, clock(), clocks_now(kind, state)))
        if time.monotonic() - started >= budget_s:
            break
    return out
