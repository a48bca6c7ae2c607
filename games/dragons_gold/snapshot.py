"""The JSON snapshot of a Dragon's Gold state (the engine's part; the base keeps its own:
``games.state.common_json``): plain JSON, dragons and the settlement and market as objects."""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any

from games.dragons_gold.table import Dragon, DragonsGoldState, Market, Settlement


def to_json(state: DragonsGoldState) -> dict[str, Any]:
    return {
        "bag": list(state.bag),
        "deck": list(state.deck),
        "revealed": state.revealed,
        "market_card": state.market_card,
        "row": [d.to_json() for d in state.row],
        "hunters": [dict(h) for h in state.hunters],
        "hoards": [dict(h) for h in state.hoards],
        "removed": dict(state.removed),
        "settle": None if state.settle is None else asdict(state.settle),  # copies, deep
        "market": None if state.market is None else asdict(state.market),
        "hands": [list(h) for h in state.hands],
        "item_deck": list(state.item_deck),
        "discard": list(state.discard),
        "notes": copy.deepcopy(state.notes),
        "stats": dict(state.stats),
        "final": copy.deepcopy(state.final),
    }


def from_json(data: dict[str, Any], common: dict[str, Any]) -> DragonsGoldState:
    """The state of a ``to_json`` snapshot, with the base's part ``common``."""
    settle, market = data["settle"], data["market"]
    return DragonsGoldState(
        **common,
        bag=list(data["bag"]),
        deck=list(data["deck"]),
        revealed=int(data["revealed"]),
        market_card=data["market_card"],
        row=[Dragon.from_json(d) for d in data["row"]],
        hunters=[dict(h) for h in data["hunters"]],
        hoards=[dict(h) for h in data["hoards"]],
        removed=dict(data["removed"]),
        settle=None if settle is None else Settlement(**copy.deepcopy(settle)),
        market=None if market is None else Market(**copy.deepcopy(market)),
        hands=[list(h) for h in data["hands"]],
        item_deck=list(data["item_deck"]),
        discard=list(data["discard"]),
        notes=copy.deepcopy(data["notes"]),
        stats=dict(data["stats"]),
        final=copy.deepcopy(data["final"]),
    )
