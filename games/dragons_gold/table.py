"""The Dragon's Gold state and the small operations every phase shares.

The state is a dataclass (``DragonsGoldState``, extending ``games.state.GameState``: seed, seats,
options, the game's one generator, the phase, ``moves`` — the actions applied so far, timeouts
included):

- ``bag``: the tokens left, in draw order (the last is drawn first); ``deck``: dragon ids, the
  top first; ``revealed``: dragons revealed so far; ``market_card``: ``"deck" | "open" | "gone"``;
- ``row``: the dragons on the table (``Dragon``: its id, treasure ``{colour: n}``, the stack of
  hunters under it, the first played lowest, and whether it is slain);
- ``hunters``: per seat, hunter → ``"up" | "down" | "played"``; ``hoards``: per seat
  ``{colour: n}`` behind the screen; ``removed``: tokens that left the game;
- ``phase``: ``"fight"``, a step of a slain dragon's settlement (``"proposals" | "divide" |
  "pick" | "steal" | "look"``, views call them all ``"negotiation"``), ``"market"`` or
  ``"over"``; ``current`` (the base's): the seat to play in the fight; ``settle``: the settlement
  (``Settlement``, ``games.dragons_gold.settle``); ``market``: the open market (``Market``,
  ``games.dragons_gold.market``);
- ``hands``, ``item_deck``, ``discard``: magic item card ids (advanced rules);
- ``notes``: per seat, what only that seat learned (a theft's colour, a look behind a screen);
- ``stats``: counts for ``games.simulate``; ``final``: the score breakdown once over.

All chance comes from the seed (``games.state``): the bag, the deck and the item deck are
shuffled in ``new`` with the game's generator, and every random choice during play (a thief's
token, a reshuffle of the item discards) draws from the same generator, kept in the state, so
``(seed, seats, options, log)`` replays the same game. The snapshot (``to_json``) is plain JSON.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, TypedDict

from games.base import Event
from games.dragons_gold.data import (
    COLOURS,
    DRAGONS,
    HUNTERS,
    ITEM_OF_CARD,
    MARKET_AT,
    ROW_SIZE,
    TOKEN_COUNTS,
    empty,
)
from games.order import TurnOrder, round_robin
from games.state import GameState

#: Tokens by colour, every colour present (``data.full``).
Tokens = dict[str, int]
#: The steps of a slain dragon's settlement: the phases views call ``"negotiation"``.
SETTLEMENT = ("proposals", "divide", "pick", "steal", "look")


class Hunter(TypedDict):
    """A hunter under a dragon: its owner, which hunter, its attack (a Sword's 2 included)."""

    seat: int
    hunter: str
    attack: int
    sword: bool


@dataclass
class Dragon:
    """A dragon in the row, with its treasure and the hunters under it."""

    id: int
    treasure: Tokens
    stack: list[Hunter] = field(default_factory=list)
    slain: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "treasure": dict(self.treasure),
            "stack": [dict(e) for e in self.stack],
            "slain": self.slain,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dragon:
        stack: list[Hunter] = [
            {"seat": e["seat"], "hunter": e["hunter"], "attack": e["attack"], "sword": e["sword"]}
            for e in data["stack"]
        ]
        return cls(int(data["id"]), dict(data["treasure"]), stack, bool(data["slain"]))


class Proposal(TypedDict):
    """A split proposed in a timed negotiation and the other participants' answers."""

    number: int
    by: int
    shares: dict[str, Tokens]
    answers: dict[str, str | None]


@dataclass
class Settlement:
    """A slain dragon's settlement (``games.dragons_gold.settle``); ``mode``: ``"sole" |
    "timed" | "division" | "even" | "none"``."""

    dragon: int
    slayer: int
    participants: list[int]
    attack: list[int]
    order: list[int]
    mode: str = "sole"
    wizard: dict[str, int] | None = None
    proposal: Proposal | None = None
    proposals: int = 0
    lots: list[Tokens] | None = None
    taken: list[int | None] | None = None
    received: dict[str, Tokens] | None = None
    outcome: str | None = None
    thieves: list[int] = field(default_factory=list)
    thief: int | None = None
    victim: int | None = None


#: A market offer: its maker (``from``) gives ``give`` to ``to`` for ``get``.
Offer = TypedDict("Offer", {"id": int, "from": int, "to": int, "give": Tokens, "get": Tokens})


@dataclass
class Market:
    """The open market (``games.dragons_gold.market``): open offers, the next offer's number,
    who left, who showed their hoard, the seat to play when it closes, the offers refused (by
    their receiver) and how many offers each seat made (by seat number as text): the bots
    never repeat a refused offer and make a bounded number (``games.dragons_gold.trading``)."""

    offers: list[Offer]
    then: int
    next: int = 1
    done: list[int] = field(default_factory=list)
    shown: list[int] = field(default_factory=list)
    refused: list[Offer] = field(default_factory=list)
    made: dict[str, int] = field(default_factory=dict)


@dataclass(kw_only=True)
class DragonsGoldState(GameState):
    """Everything about one game (see the module docstring)."""

    bag: list[str]
    deck: list[int]
    revealed: int = 0
    market_card: str = "deck"
    row: list[Dragon] = field(default_factory=list)
    hunters: list[dict[str, str]] = field(default_factory=list)
    hoards: list[Tokens] = field(default_factory=list)
    removed: Tokens = field(default_factory=empty)
    settle: Settlement | None = None
    market: Market | None = None
    hands: list[list[int]] = field(default_factory=list)
    item_deck: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    notes: list[list[dict[str, Any]]] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    final: list[dict[str, Any]] | None = None

    def settlement(self) -> Settlement:
        """The settlement under way (its phases only)."""
        assert self.settle is not None, f"no settlement in phase {self.phase}"
        return self.settle

    def open_market(self) -> Market:
        """The open market (its phase only)."""
        assert self.market is not None, f"no market in phase {self.phase}"
        return self.market


#: The fight's turn order: up the seat numbers, from seat 0, then from the seat left of each
#: dragon's slayer (``games.order``; ``games.dragons_gold.fight`` passes over the seats that
#: cannot play).
FIGHT: TurnOrder[DragonsGoldState] = round_robin()


def new(
    seed: int, seats: int, options: dict, rng: random.Random
) -> tuple[DragonsGoldState, list[Event]]:
    """A new game: bag, deck and item deck shuffled with the game's generator, 4 dragons
    revealed with their visible treasure, (advanced) one magic item dealt to each seat; seat 0
    starts."""
    bag = [c for c in COLOURS for _ in range(TOKEN_COUNTS[c])]
    rng.shuffle(bag)
    deck = sorted(DRAGONS)
    rng.shuffle(deck)
    items = list(range(len(ITEM_OF_CARD))) if options["advanced"] else []
    rng.shuffle(items)
    state = DragonsGoldState(
        seed=seed,
        seats=seats,
        options=dict(options),
        rng=rng,
        phase="fight",
        bag=bag,
        deck=deck,
        hunters=[dict.fromkeys(HUNTERS, "up") for _ in range(seats)],
        hoards=[empty() for _ in range(seats)],
        hands=[[] for _ in range(seats)],
        item_deck=items,
        notes=[[] for _ in range(seats)],
        stats={
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
    )
    FIGHT.start(state, 0)
    events: list[Event] = []
    refill(state, 0, events)
    if options["advanced"]:
        for s in range(seats):
            draw_items(state, s, 1, events)
    return state, events


def draw(state: DragonsGoldState, n: int) -> Tokens:
    """Up to ``n`` tokens from the bag (fewer when it runs dry)."""
    out = empty()
    bag = state.bag
    for _ in range(min(n, len(bag))):
        out[bag.pop()] += 1
    return out


def refill(state: DragonsGoldState, at: int, events: list[Event]) -> None:
    """Reveal dragons until the row holds 4 (the first new one at index ``at``), each with its
    visible treasure; none comes out once the bag or the deck is empty."""
    while len(state.row) < ROW_SIZE and state.bag and state.deck:
        card = DRAGONS[state.deck.pop(0)]
        treasure = draw(state, card["visible"])
        index = min(at, len(state.row))
        state.row.insert(index, Dragon(card["id"], treasure))
        at = len(state.row)
        state.revealed += 1
        events.append(
            {
                "type": "dragon_revealed",
                "dragon": index,
                "id": card["id"],
                "strength": card["strength"],
                "treasure": dict(treasure),
            }
        )


def market_due(state: DragonsGoldState) -> bool:
    """The market card lies on top of the deck now and is still there: it was put under the 7th
    dragon of the deck left after the 4 starting dragons, so it comes up with the 11th dragon
    revealed in all (``data.MARKET_AT``)."""
    return state.market_card == "deck" and state.revealed >= MARKET_AT


def draw_items(state: DragonsGoldState, seat: int, n: int, events: list[Event]) -> None:
    """``seat`` draws ``n`` magic items (the discards are shuffled into a new deck when the deck
    runs out; with neither, no more are drawn). The cards are private: the event gives a count."""
    got = 0
    for _ in range(n):
        if not state.item_deck and state.discard:
            state.item_deck = list(state.discard)
            state.discard = []
            state.rng.shuffle(state.item_deck)
            events.append({"type": "items_reshuffled", "cards": len(state.item_deck)})
        if not state.item_deck:
            break
        card = state.item_deck.pop()
        state.hands[seat].append(card)
        note(state, seat, {"type": "item_drawn", "item": ITEM_OF_CARD[card]})
        got += 1
    if got:
        events.append({"type": "items_drawn", "seat": seat, "count": got})


def card_json(card: int) -> dict[str, Any]:
    """A magic item card as views show it: ``{"card": 7, "item": "sword"}``."""
    return {"card": card, "item": ITEM_OF_CARD[card]}


def note(state: DragonsGoldState, seat: int, fact: dict[str, Any]) -> None:
    """Record something only ``seat`` learned, numbered by the action that taught it."""
    state.notes[seat].append({"move": state.moves, **fact})


def strength(dragon: Dragon) -> int:
    return DRAGONS[dragon.id]["strength"]


def attack(dragon: Dragon) -> int:
    return sum(entry["attack"] for entry in dragon.stack)
