"""What one seat can infer of the hidden Dragon's Gold tokens, and whole states sampled from its
view (*determinizations*, for the strong bot to play on with the real engine:
``games.dragons_gold.strong``).

**The unseen tokens.** The 126 tokens less those the view shows — the seat's own hoard, every
dragon's treasure, the tokens out of the game and the hoards it sees (shown at the market, or
the screen a wizard-and-thief looks behind) — lie in the bag or behind the other screens, whose
sizes the view gives (``bag``, ``players[i].tokens``). The view keeps no log of past splits,
so the rest is what the seat can pin down now:

- **floors**: a share just received in the running settlement (``negotiation.received``, public)
  is behind its receiver's screen (a theft of that settlement may since have moved one token
  of it: a floor larger than its screen is dropped); a hoard
  seen through a Crystal ball (the seat's notes) is still the owner's while their token count
  is unchanged (no token leaves a screen but by a theft or a trade, and none came in);
- **the rest** of the unseen tokens is spread uniformly over the places left (the other
  screens' free room and the bag).

``infer`` gives those facts; ``sample_hoards`` draws every other hoard (and the bag) consistent
with them. ``sample_state`` builds a whole fight state: the
hoards and the bag's order so drawn, the dragons left in the deck drawn from those not in the
row (the view says how many; those already gone are not listed, so any dragon not in the row
may be drawn), the others' magic items drawn from the cards neither in the seat's hand nor
discarded, and a new generator for later chance. Everything comes from ``rng``: the same view
and generator give the same samples. A view whose counts do not add up is ``Inconsistent``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.dragons_gold.data import COLOURS, DRAGONS, ITEM_OF_CARD, TOKEN_COUNTS, empty
from games.dragons_gold.table import Dragon, DragonsGoldState, Hunter, new
from games.state import generator

Tokens = dict[str, int]


class Inconsistent(ValueError):
    """The view's counts do not add up to the game's tokens."""


@dataclass(frozen=True)
class Inference:
    """What the seat knows of the others' hoards: ``known`` hoards (exactly), ``floors`` (at
    least these tokens), and the ``unseen`` tokens left to spread over the ``room`` of each
    screen not known (its count less its floor) and the ``bag``."""

    me: int
    known: dict[int, Tokens]
    floors: dict[int, Tokens]
    unseen: Tokens
    room: dict[int, int]
    bag: int


def _known(view: dict) -> dict[int, Tokens]:
    """The other hoards the seat sees: shown at the market, looked behind now, or seen through
    a Crystal ball while their token count is unchanged."""
    me, players = view["me"], view["players"]
    known: dict[int, Tokens] = {}
    for note in view["notes"]:
        seat = note.get("seat")
        if note["type"] == "looked" and sum(note["hoard"].values()) == players[seat]["tokens"]:
            known[seat] = dict(note["hoard"])
    market = view["market"]
    if market is not None:
        for entry in market["shown"]:
            known[entry["seat"]] = dict(entry["hoard"])
    neg = view["negotiation"]
    if neg is not None and neg["looking_at"] is not None:
        known[neg["looking_at"]["seat"]] = dict(neg["looking_at"]["hoard"])
    known.pop(me, None)
    return known


def _floors(view: dict, known: dict[int, Tokens]) -> dict[int, Tokens]:
    """The shares of the running settlement's split, each behind its receiver's screen."""
    me, players, neg = view["me"], view["players"], view["negotiation"]
    floors: dict[int, Tokens] = {}
    if neg is not None and neg["received"]:
        for key, share in neg["received"].items():
            seat = int(key)
            if seat != me and seat not in known:
                floors[seat] = {c: n for c, n in share.items() if n}
    return {s: f for s, f in floors.items() if sum(f.values()) <= players[s]["tokens"]}


def infer(view: dict) -> Inference:
    """The facts of the module doc, from ``view`` (a seat's view of a running game)."""
    me = view["me"]
    known = _known(view)
    floors = _floors(view, known)
    unseen = dict(TOKEN_COUNTS)
    seen: list[Tokens] = [view["players"][me]["hoard"] or {}, view["removed"]]
    seen += [d["treasure"] for d in view["dragons"]]
    seen += list(known.values()) + list(floors.values())
    for tokens in seen:
        for c, n in tokens.items():
            unseen[c] -= n
    room = {
        p["seat"]: p["tokens"] - sum(floors.get(p["seat"], {}).values())
        for p in view["players"]
        if p["seat"] != me and p["seat"] not in known
    }
    if min(unseen.values()) < 0 or sum(unseen.values()) != sum(room.values()) + view["bag"]:
        raise Inconsistent("the tokens of the view do not add up to the game's")
    return Inference(me, known, floors, unseen, room, view["bag"])


def sample_hoards(inference: Inference, rng: random.Random) -> tuple[dict[int, Tokens], list[str]]:
    """Every other seat's hoard and the bag (shuffled, drawn from its end), drawn uniformly
    consistently with ``inference``."""
    pool = [c for c in COLOURS for _ in range(inference.unseen[c])]
    rng.shuffle(pool)
    hoards = {s: dict(h) for s, h in inference.known.items()}
    for seat, n in inference.room.items():
        hoard = empty()
        for c, k in inference.floors.get(seat, {}).items():
            hoard[c] += k
        for _ in range(n):
            hoard[pool.pop()] += 1
        hoards[seat] = hoard
    return hoards, pool


def sample_state(view: dict, rng: random.Random) -> DragonsGoldState:
    """A whole fight-phase state consistent with ``view`` (module doc), hidden parts from
    ``rng``."""
    if view["phase"] != "fight":
        raise ValueError("only a fight's position is sampled")
    inference = infer(view)
    me, seats = view["me"], view["seats"]
    state, _ = new(0, seats, view["options"], generator(rng.randrange(2**63)))
    hoards, bag = sample_hoards(inference, rng)
    hoards[me] = dict(view["players"][me]["hoard"])
    state.hoards = [{c: hoards[s].get(c, 0) for c in COLOURS} for s in range(seats)]
    state.bag = bag
    state.removed = dict(view["removed"])
    row_ids = {d["id"] for d in view["dragons"]}
    state.deck = rng.sample([d for d in sorted(DRAGONS) if d not in row_ids], view["deck"])
    state.revealed = len(DRAGONS) - view["deck"]
    state.market_card = view["market_card"]
    state.row = [
        Dragon(d["id"], dict(d["treasure"]), [_hunter(e) for e in d["hunters"]], d["slain"])
        for d in view["dragons"]
    ]
    state.hunters = [dict(p["hunters"]) for p in view["players"]]
    state.current = view["turn"]
    state.moves = view["moves"]
    state.phase = "fight"
    _deal_items(state, view, rng)
    state.notes = [[] for _ in range(seats)]
    state.notes[me] = [dict(n) for n in view["notes"]]
    return state


def _hunter(entry: dict) -> Hunter:
    return {
        "seat": entry["seat"],
        "hunter": entry["hunter"],
        "attack": entry["attack"],
        "sword": entry["sword"],
    }


def _deal_items(state: DragonsGoldState, view: dict, rng: random.Random) -> None:
    me = view["me"]
    mine = [c["card"] for c in view["players"][me]["hand"] or []]
    discard = [c["card"] for c in view["discard"]]
    if not view["options"]["advanced"]:
        state.hands = [[] for _ in range(view["seats"])]
        state.item_deck, state.discard = [], []
        return
    unknown = [c for c in range(len(ITEM_OF_CARD)) if c not in mine and c not in discard]
    rng.shuffle(unknown)
    sizes = [0 if p["seat"] == me else p["items"] for p in view["players"]]
    if sum(sizes) + view["item_deck"] != len(unknown):
        raise Inconsistent("the magic items of the view do not add up")
    state.hands = [[unknown.pop() for _ in range(n)] for n in sizes]
    state.hands[me] = mine
    state.item_deck = unknown
    state.discard = discard
