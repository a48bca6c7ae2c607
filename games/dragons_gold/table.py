"""The Dragon's Gold state and the small operations every phase shares.

The state is a plain JSON-able dict (its snapshot is a deep copy):

- ``seed``, ``seats``, ``options``, ``moves`` (actions applied so far, timeouts included);
- ``bag``: the tokens left, in draw order (the last is drawn first); ``deck``: dragon ids, the
  top first; ``revealed``: dragons revealed so far; ``market_card``: ``"deck" | "open" | "gone"``;
- ``row``: the dragons on the table, each ``{"id", "treasure": {colour: n}, "stack": [{"seat",
  "hunter", "attack", "sword"}], "slain"}`` (the first hunter played lies lowest, first);
- ``hunters``: per seat, hunter → ``"up" | "down" | "played"``; ``hoards``: per seat
  ``{colour: n}`` behind the screen; ``removed``: tokens that left the game;
- ``phase``: ``"fight" | "negotiation" | "market" | "over"``; ``turn``: the seat to play in the
  fight; ``settle``: the slain dragon's settlement (``games.dragons_gold.settle``); ``market``:
  the open market (``games.dragons_gold.market``); ``phase_since``: ``moves`` when the timed
  phase began;
- ``hands``, ``item_deck``, ``discard``: magic item card ids (advanced rules);
- ``notes``: per seat, what only that seat learned (a theft's colour, a look behind a screen);
- ``stats``: counts for ``games.simulate``; ``final``: the score breakdown once over.

All chance comes from the seed: the bag, the deck and the item deck are shuffled in ``new``, and a
random choice during play (a thief's token, a reshuffle of the item discards) uses
``event_rng``, a generator seeded by the game's seed and the number of the action, so
``(seed, seats, options, log)`` replays the same game.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import Event
from games.dragons_gold.data import (
    COLOURS,
    DRAGONS,
    HUNTERS,
    ITEM_OF_CARD,
    MARKET_AFTER,
    ROW_SIZE,
    TOKEN_COUNTS,
    empty,
)

State = dict[str, Any]


def new(seed: int, seats: int, options: dict) -> tuple[State, list[Event]]:
    """A new game: bag, deck and item deck shuffled, 4 dragons revealed with their visible
    treasure, (advanced) one magic item dealt to each seat; seat 0 starts."""
    rng = random.Random(seed)
    bag = [c for c in COLOURS for _ in range(TOKEN_COUNTS[c])]
    rng.shuffle(bag)
    deck = sorted(DRAGONS)
    rng.shuffle(deck)
    items = list(range(len(ITEM_OF_CARD))) if options["advanced"] else []
    rng.shuffle(items)
    state: State = {
        "seed": seed,
        "seats": seats,
        "options": dict(options),
        "moves": 0,
        "bag": bag,
        "deck": deck,
        "revealed": 0,
        "market_card": "deck",
        "row": [],
        "hunters": [dict.fromkeys(HUNTERS, "up") for _ in range(seats)],
        "hoards": [empty() for _ in range(seats)],
        "removed": empty(),
        "phase": "fight",
        "turn": 0,
        "settle": None,
        "market": None,
        "phase_since": 0,
        "hands": [[] for _ in range(seats)],
        "item_deck": items,
        "discard": [],
        "notes": [[] for _ in range(seats)],
        "stats": {
            "slain": 0,
            "sole": 0,
            "negotiations": 0,
            "agreed": 0,
            "failed": 0,
            "divisions": 0,
            "even": 0,
            "thefts": 0,
            "trades": 0,
            "overwhelmed": 0,
            "proposals": 0,
        },
        "final": None,
    }
    events: list[Event] = []
    refill(state, 0, events)
    if options["advanced"]:
        for s in range(seats):
            draw_items(state, s, 1, events)
    return state, events


def event_rng(state: State, salt: str = "") -> random.Random:
    """The generator of a chance event during the current action (replays exactly)."""
    return random.Random(f"dragons_gold:{state['seed']}:{state['moves']}:{salt}")


def draw(state: State, n: int) -> dict[str, int]:
    """Up to ``n`` tokens from the bag (fewer when it runs dry)."""
    out = empty()
    bag = state["bag"]
    for _ in range(min(n, len(bag))):
        out[bag.pop()] += 1
    return out


def refill(state: State, at: int, events: list[Event]) -> None:
    """Reveal dragons until the row holds 4 (the first new one at index ``at``), each with its
    visible treasure; none comes out once the bag or the deck is empty."""
    while len(state["row"]) < ROW_SIZE and state["bag"] and state["deck"]:
        card = DRAGONS[state["deck"].pop(0)]
        treasure = draw(state, card["visible"])
        dragon = {
            "id": card["id"],
            "treasure": treasure,
            "stack": [],
            "slain": False,
        }
        index = min(at, len(state["row"]))
        state["row"].insert(index, dragon)
        at = len(state["row"])
        state["revealed"] += 1
        events.append(
            {
                "type": "dragon_revealed",
                "dragon": index,
                "id": card["id"],
                "strength": card["strength"],
                "treasure": dict(treasure),
            }
        )


def market_due(state: State) -> bool:
    """The market card lies on top of the deck now (its 7 dragons are out) and is still there."""
    return state["market_card"] == "deck" and state["revealed"] >= MARKET_AFTER


def draw_items(state: State, seat: int, n: int, events: list[Event]) -> None:
    """``seat`` draws ``n`` magic items (the discards are shuffled into a new deck when the deck
    runs out; with neither, no more are drawn). The cards are private: the event gives a count."""
    got = 0
    for _ in range(n):
        if not state["item_deck"] and state["discard"]:
            state["item_deck"] = list(state["discard"])
            state["discard"] = []
            event_rng(state, "reshuffle").shuffle(state["item_deck"])
            events.append({"type": "items_reshuffled", "cards": len(state["item_deck"])})
        if not state["item_deck"]:
            break
        card = state["item_deck"].pop()
        state["hands"][seat].append(card)
        note(state, seat, {"type": "item_drawn", "item": ITEM_OF_CARD[card]})
        got += 1
    if got:
        events.append({"type": "items_drawn", "seat": seat, "count": got})


def card_json(card: int) -> dict[str, Any]:
    """A magic item card as views show it: ``{"card": 7, "item": "sword"}``."""
    return {"card": card, "item": ITEM_OF_CARD[card]}


def note(state: State, seat: int, fact: dict[str, Any]) -> None:
    """Record something only ``seat`` learned, numbered by the action that taught it."""
    state["notes"][seat].append({"move": state["moves"], **fact})


def in_front(state: State, seat: int) -> list[str]:
    """``seat``'s hunters in front of them (face up or down), in hunter order."""
    return [h for h, where in state["hunters"][seat].items() if where != "played"]


def strength(dragon: dict) -> int:
    return DRAGONS[dragon["id"]]["strength"]


def attack(dragon: dict) -> int:
    return sum(entry["attack"] for entry in dragon["stack"])
