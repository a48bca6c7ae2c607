"""Moves applied to a live state: the engine's ``apply`` with its refusals kept and its crashes
made a 400, and bots acting until none wants to (``games.base.next_bot_action``).

Bots are deterministic from the log: each bot move's generator is seeded from the game's seed and
the move's version (``"<seed>/<version>"``), so replaying a game, or computing its bots' replies
again after a conflicting write, gives the same moves. A bot that fails or chooses an illegal
action falls back to a random legal one (logged), so a bot bug never stalls a game.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from errors import IllegalAction, InvalidInput, ProjectError
from games.base import GameKind, next_bot_action
from web.storage import BOT, ActionRecord, GameRecord
from web.storage.deadlines import Clock

log = logging.getLogger(__name__)

#: Bots may make at most this many moves in one request (a bot-only game plays to the end).
MAX_BOT_ACTIONS = 20_000


class EngineCrash(InvalidInput):
    """An engine failed on odd input with a Python error instead of refusing it (a 400)."""


def apply_move(kind: GameKind, state: Any, seat: int | None, action: dict) -> list[dict]:
    """The engine's ``apply`` with its reason kept; an engine crash on odd input is a 400
    (``EngineCrash``: the state may be half-changed, drop it)."""
    try:
        events = kind.apply(state, seat, action)
    except ProjectError as e:
        if e.field is None:
            e.field = "action"
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        log.warning("%s.apply crashed on %r: %r", kind.name, action, e)
        raise EngineCrash(f"malformed action for {kind.name}: {e!r}", "action") from e
    return list(events or [])


def run_bots(
    kind: GameKind,
    game: GameRecord,
    state: Any,
    version: int,
    clock: Clock,
    room: Callable[[int], None],
) -> list[ActionRecord]:
    """Bots act on ``state`` (at ``version``; one log entry each) until none wants to: a human
    must act, a timed phase waits for its clock, or the game ends. ``room(v)`` refuses entry
    ``v`` when the log is full; ``clock`` stamps each entry."""
    out: list[ActionRecord] = []
    levels = [s.level if s.type == BOT else None for s in game.seats]
    while not kind.is_over(state):
        if len(out) >= MAX_BOT_ACTIONS:
            raise IllegalAction(
                f"bots did not finish within {MAX_BOT_ACTIONS} moves",
                "seats",
                reason="bots_did_not_finish",
                params={"count": MAX_BOT_ACTIONS},
            )
        rng = random.Random(f"{game.seed}/{version + 1}")

        def rng_for(r: random.Random = rng) -> random.Random:
            return r

        try:
            found = next_bot_action(kind, state, levels, rng_for)
        except Exception as e:  # a bot bug must not stall the game: any legal move
            log.error("%s bot failed: %r", kind.name, e)
            seat = next(s for s in kind.to_act(state) if levels[s] is not None)
            found = (seat, rng.choice(kind.legal_actions(state, seat)))
        if found is None:
            break
        seat, action = found
        version += 1
        room(version)
        try:
            events = apply_move(kind, state, seat, action)
        except EngineCrash as e:  # the state may be half-changed: give up (rolled back)
            raise IllegalAction(
                f"{kind.name} failed on the {levels[seat]} bot's move for seat {seat}: {e.message}",
                "seats",
            ) from e
        except ProjectError as e:  # refused, state unchanged: fall back to a legal move
            log.error("%s bot chose an illegal action %r: %s", kind.name, action, e)
            action = rng.choice(kind.legal_actions(state, seat))
            events = apply_move(kind, state, seat, action)
        out.append(ActionRecord(version, seat, action, events, clock()))
    return out
