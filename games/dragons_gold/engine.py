"""The Dragon's Gold game kind: options, turn structure, timers, dispatch to the phases.

Options: ``advanced`` (false: basic rules; true: magic items, the advanced wizard, thief and
scoring), ``negotiation`` (``"timed"``: proposals against the clock; ``"division"``: the
variant without negotiation), ``negotiation_seconds`` and ``market_seconds`` (the timers, default
60; 5-600). Seat 0 starts; play goes up the seat numbers ("left" is the next seat).

Who acts (``to_act``): in the fight, the seat whose turn it is; in a timed negotiation every
participant at once (propose, accept, reject); in a division the divider, then each picker; a
thief's owner to steal; at the market every player still in it. Timed phases (``timer``): the
negotiation's proposals and the market, each ending with the table's ``{"type": "timeout"}``.
The phases' modules document their actions: ``fight``, ``settle``, ``market``; the views,
``views``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from errors import IllegalAction
from games.base import Action, Event, GameKind, GameType, OptionSpec, Timer
from games.dragons_gold import fight, market, settle, table, views
from games.dragons_gold.bots import BOTS
from games.dragons_gold.data import count
from games.dragons_gold.table import State

NAME = "dragons_gold"
TIMEOUT: Action = {"type": "timeout"}
_OPTIONS = (
    OptionSpec("advanced", False),
    OptionSpec("negotiation", "timed", ("timed", "division")),
    OptionSpec("negotiation_seconds", 60, bounds=(5, 600)),
    OptionSpec("market_seconds", 60, bounds=(5, 600)),
)

#: The JSON Schema of every view (``view_schema``; tests validate real views against it).
VIEW_SCHEMA: dict = json.loads(
    (Path(__file__).parent / "data" / "view_schema.json").read_text(encoding="utf-8")
)


class DragonsGoldKind(GameKind):
    """Dragon's Gold behind the shared engine shape (state: ``games.dragons_gold.table``)."""

    def __init__(self) -> None:
        super().__init__(
            GameType(
                NAME,
                3,
                6,
                _OPTIONS,
                chance="seeded",
                information="imperfect",
                turns="simultaneous",
                timed=True,
            ),
            BOTS,
        )

    def setup(self, seed: int, seats: int, options: dict) -> State:
        state, _ = table.new(seed, seats, options)
        return state

    def seat_count(self, state: State) -> int:
        return state["seats"]

    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "fight":
            return [state["turn"]]
        if phase == "negotiation":
            return settle.to_act(state)
        if phase == "market":
            return market.to_act(state)
        return []

    def legal(self, state: State, seat: int) -> list[Action]:
        phase = state["phase"]
        if phase == "fight":
            return fight.legal(state, seat)
        if phase == "negotiation":
            return settle.legal(state, seat)
        return market.legal(state, seat)

    def timer(self, state: State) -> Timer | None:
        phase = state["phase"]
        if phase == "negotiation" and state["settle"]["step"] == "proposals":
            seconds = state["options"]["negotiation_seconds"]
        elif phase == "market":
            seconds = state["options"]["market_seconds"]
        else:
            return None
        return Timer(state["phase_since"], float(seconds), dict(TIMEOUT))

    def play(self, state: State, seat: int | None, action: Action) -> list[Event]:
        phase = state["phase"]
        if phase == "negotiation":
            return settle.play(state, seat, action)
        if phase == "market":
            return market.play(state, seat, action)
        assert seat is not None  # no timer runs in the fight
        kind = action["type"]
        if kind == "play":
            return fight.play_hunter(state, seat, action)
        if kind == "use":
            return fight.use_item(state, seat, action)
        raise IllegalAction(
            f"{kind!r} is not an action of the fight (play, use)",
            "action.type",
            reason="dg_wrong_step",
            params={"step": "fight", "action": kind},
        )

    def observe(self, state: State, seat: int | None) -> dict:
        return views.observe(state, seat)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def scores(self, state: State) -> list[float] | None:
        final = state["final"]
        return None if final is None else [row["total"] for row in final]

    def view_schema(self) -> dict:
        return copy.deepcopy(VIEW_SCHEMA)

    def state_to_json(self, state: State) -> dict:
        return copy.deepcopy(state)

    def state_from_json(self, data: dict) -> State:
        return copy.deepcopy(data)

    def statistics(self, state: State) -> dict:
        stats: dict[str, Any] = dict(state["stats"])
        stats["removed"] = count(state["removed"])
        stats["tokens"] = [count(h) for h in state["hoards"]]
        return stats

    def private_items(self, state: State, seat: int) -> list[Any]:
        return views.private_items(state, seat)

    def hidden_items(self, state: State) -> list[Any]:
        return views.hidden_items(state)


def token_total(state: State) -> int:
    """Tokens in the bag, on the dragons, behind the screens and out of the game: always 126."""
    return (
        len(state["bag"])
        + sum(count(d["treasure"]) for d in state["row"])
        + sum(count(h) for h in state["hoards"])
        + count(state["removed"])
    )


KIND = DragonsGoldKind()
