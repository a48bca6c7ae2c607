"""What every phase of an Isla Dorada round shares: the start of a round, the end of the game,
the rules' refusal and the check of a chosen set of cards (``rounds`` and ``drawing`` both use
them)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from errors import IllegalAction, InvalidInput
from games.isla_dorada.auction import start_auction
from games.isla_dorada.scoring import breakdown
from games.isla_dorada.state import IslaState
from games.state import OVER, enter


def illegal(message: str, field: str, reason: str, **params: Any) -> IllegalAction:
    return IllegalAction(message, field, reason=reason, params=params)


def check_distinct(
    cards: Collection[Any], count: int, message: str, field: str, reason: str
) -> None:
    """Refuse (400 ``reason`` on ``field``, with ``count``) unless ``cards`` are exactly ``count``
    different cards: a discard or a choice of news names each card once."""
    if len(cards) != count or len(set(cards)) != count:
        raise InvalidInput(message, field, reason=reason, params={"count": count})


# --- rounds and the end ----------------------------------------------------------------------


def start_round(state: IslaState, events: list[dict]) -> None:
    state.round += 1
    state.stats["rounds"] = state.round
    state.news = None
    state.path = []
    start_auction(state)
    events.append({"type": "round", "round": state.round, "leader": state.leader})


def finish(state: IslaState, reason: str, events: list[dict]) -> None:
    enter(state, OVER)
    state.end = reason
    totals = [breakdown(state, s)["total"] for s in range(state.seats)]
    events.append({"type": "game_over", "reason": reason, "scores": totals})
