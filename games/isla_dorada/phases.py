"""What every phase of an Isla Dorada round shares: the start of a round, the end of the game,
and the rules' refusal (``rounds`` and ``drawing`` both use them)."""

from __future__ import annotations

from typing import Any

from errors import IllegalAction
from games.isla_dorada.auction import start_auction
from games.isla_dorada.scoring import breakdown
from games.isla_dorada.state import IslaState
from games.state import OVER, enter


def illegal(message: str, field: str, reason: str, **params: Any) -> IllegalAction:
    return IllegalAction(message, field, reason=reason, params=params)


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
