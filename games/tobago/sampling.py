"""A whole Tobago state sampled from one seat's view: the hidden parts drawn at random,
consistently with what the view shows (a *determinization*, for the search bot to simulate
with the real engine: ``games.tobago.search``).

What the view shows is copied as it is: the island, the columns with their cards and markers,
the candidates' removals, the ATVs, amulets, markers, the turn's progress, the sharing's face-up
card, who declined it and the cards turned, the seat's own hand, treasures and sharing memory,
the size of every hand, deck and pile, and the public log's tail. What it hides is drawn:

- **clue cards**: the 52 cards less the seat's hand, the cards in the columns and the face-up
  first-clue card are shuffled and dealt to the other hands, the clue deck and its discards
  (their sizes as the view says);
- **treasure cards**: the seat's own cards and the face-up offer (a card of its value) are
  set aside; the curses already out of the game go to the removed pile (it holds only curses);
  the seat's own draws for the running sharing that are not turned yet go back into the pile;
  the curses left go to places a curse can be, uniformly: the bottom 27 of the deck (rules §4:
  the top 12 cards never hold one), the discards (a sharing's leftovers) or the pile's unknown
  cards (never another seat's treasures: a curse is never taken); the gold cards left fill the
  rest, uniformly;
- **the others' draws** for the running sharing (their ``memory``, which the strategic bot
  reads): as many of the pile's and the turned cards as their shares, from the
  ``sharing_started`` event when the view's log still holds it.

The generator of the sampled state is new (its seed drawn from ``rng``), so later chance events
(reshuffles) are drawn too. Everything is drawn from ``rng``: the same view and generator give
the same state.
"""

from __future__ import annotations

import random
from typing import Any

from games.state import generator, to_stage
from games.tobago.islands import island_for_view
from games.tobago.rules import CURSE, CURSE_FREE_TOP, MAP_INDEX, TREASURE_CARDS, TREASURE_VALUES
from games.tobago.sharing import value_label
from games.tobago.state import (
    ClueEntry,
    Player,
    Sharing,
    TobagoState,
    TreasureMap,
    TurnState,
    copy_state,
)
from games.tobago.strategy import unturned_draws
from hexmap.hexes import Hex
from solver.deck import DECK
from solver.engine import SolverOptions

#: The gold cards' and the curses' ids.
_GOLD = [c for c in range(TREASURE_CARDS) if TREASURE_VALUES[c] != CURSE]
_CURSES = [c for c in range(TREASURE_CARDS) if TREASURE_VALUES[c] == CURSE]


class Inconsistent(ValueError):
    """The view's counts do not add up to the game's cards (a view of another rule set)."""


def _hex(v: Any) -> Hex | None:
    return None if v is None else Hex(v[0], v[1])


def _take_value(pool: list[int], label: int | str) -> int:
    """Remove and return a card of public face ``label`` from ``pool``."""
    for i, c in enumerate(pool):
        if value_label(c) == label:
            return pool.pop(i)
    raise Inconsistent(f"no treasure card {label!r} left to sample")


def sample_state(view: dict, rng: random.Random) -> TobagoState:
    """One state consistent with ``view`` (a seat's view of a running game; see the module
    doc), every hidden part drawn from ``rng``."""
    return Sampler(view)(rng)


class Sampler:
    """``sample_state`` for one view, many times: what the view fixes (the island, the columns
    and their candidates, the players' public parts, the seat's own cards, the turn) is built
    once, on the first call, and each world is a copy of it (``state.copy_state``) with the
    hidden parts drawn, the same draws in the same order as ``sample_state``'s. The strong
    bot's search samples a world per seed of a decision."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.skeleton: TobagoState | None = None

    def __call__(self, rng: random.Random) -> TobagoState:
        if self.skeleton is None:
            self.skeleton = _skeleton(self.view)
        state = copy_state(self.skeleton, generator(rng.randrange(2**63)))
        _deal_clues(state, self.view, rng)
        _deal_treasures(state, self.view, rng)
        return state


def _skeleton(view: dict) -> TobagoState:
    """The state's parts the view shows, nothing drawn (its generator a placeholder: each
    world gets its own)."""
    me = view["seat"]
    island = island_for_view(view["island"])
    opts = view["options"]
    players_view = view["players"]
    state = TobagoState(
        seed=0,
        seats=view["seats"],
        options=dict(opts),
        rng=_PLACEHOLDER,
        phase=view["phase"],
        island=island,
        solver_options=SolverOptions(opts["near_includes_target"], opts["treasure_on_landmarks"]),
        island_source=_source(view["island"]),
        current=view["current"],
        turn_number=view["turn_number"],
        idle_turns=view["stall"]["turns"],
        amulet_supply=view["amulet_supply"],
        amulets=[Hex(*a) for a in view["amulets_on_island"]],
        statues=[[Hex(*s["at"]), s["facing"]] for s in view["statues"]],
        log=list(view["log"]),
        log_dropped=view["log_size"] - len(view["log"]),
    )
    for m in view["maps"]:
        tm = TreasureMap(
            colour=m["colour"],
            clues=[ClueEntry(c["card"], c["seat"], c["markers"]) for c in m["clues"]],
            removed=island.mask_of(tuple(r) for r in m["removed"]),
            raiser=m["raiser"],
        )
        state.maps.append(tm)
        state.refresh(tm)
    for p in players_view:
        state.players.append(
            Player(atv=_hex(p["atv"]), amulets=p["amulets"], markers=p["markers_left"])
        )
    mine = state.players[me]
    mine.hand = [c["id"] for c in players_view[me]["hand"]]
    mine.treasures = [c["id"] for c in players_view[me]["treasures"]]
    mine.memory = [dict(r, values=list(r["values"])) for r in view["memory"]]
    t = view["turn"]
    state.turn = TurnState(t["plays"], _hex(t["start"]), t["points"], t["bonus"], t["progress"])
    to_stage(state, t["mode"])
    state.drawn = None if view["drawn"] is None else view["drawn"]["id"]
    state.sharings = max([r["sharing"] for r in view["memory"]] + [_sharing_number(view)])
    return state


#: The skeleton's generator: never drawn from (every world gets its own).
_PLACEHOLDER = generator(0)


def _source(ref: dict) -> dict:
    if "custom" in ref:
        return {"custom": ref["custom"], "key": ref["key"]}
    return {"spec": ref["spec"], "landmarks_seed": ref["landmarks_seed"]}


def _sharing_number(view: dict) -> int:
    sh = view["sharing"]
    return 0 if sh is None else sh["number"]


def _deal_clues(state: TobagoState, view: dict, rng: random.Random) -> None:
    me = view["seat"]
    seen = set(state.players[me].hand)
    seen.update(e.card for m in state.maps for e in m.clues)
    if state.drawn is not None:
        seen.add(state.drawn)
    unknown = [c for c in range(len(DECK)) if c not in seen]
    rng.shuffle(unknown)
    sizes = [p["hand_size"] if p["seat"] != me else 0 for p in view["players"]]
    if sum(sizes) + view["clue_deck"] + view["clue_discard"] != len(unknown):
        raise Inconsistent("the clue cards of the view do not add up")
    for seat, n in enumerate(sizes):
        if n:
            state.players[seat].hand = [unknown.pop() for _ in range(n)]
    state.clue_discard = [unknown.pop() for _ in range(view["clue_discard"])]
    state.clue_deck = unknown


def _sharing_pile(state: TobagoState, view: dict, gold: list[int]) -> tuple[list[int], int]:
    """A running sharing's state, its offer and the cards the seat drew taken off ``gold``:
    (the pile's cards the seat knows, how many it does not)."""
    sh_view = view["sharing"]
    if sh_view is None:
        return [], 0
    offer = None if sh_view["offer"] is None else _take_value(gold, sh_view["offer"])
    pile_known = [_take_value(gold, label) for label in unturned_draws(view)]
    pile_unknown = sh_view["cards_left"] - len(pile_known)
    if pile_unknown < 0:
        raise Inconsistent("the pile holds fewer cards than the seat drew")
    state.sharing = Sharing(
        number=sh_view["number"],
        map=MAP_INDEX[sh_view["map"]],
        raiser=sh_view["raiser"],
        offer=offer,
        declined=list(sh_view["declined"]),
        last=sh_view["last"],
    )
    return pile_known, pile_unknown


def _deal_treasures(state: TobagoState, view: dict, rng: random.Random) -> None:
    me = view["seat"]
    held = set(state.players[me].treasures)
    gold = [c for c in _GOLD if c not in held]
    curses = list(_CURSES)
    removed_n = view["treasure_removed"]
    if removed_n > len(curses):
        raise Inconsistent("more cards out of the game than curses")
    state.treasure_removed = [curses.pop() for _ in range(removed_n)]
    sh_view = view["sharing"]
    pile_known, pile_unknown = _sharing_pile(state, view, gold)
    deck_n, discard_n = view["treasure_deck"], view["treasure_discard"]
    others = [(p["seat"], p["treasure_count"]) for p in view["players"] if p["seat"] != me]
    if sum(n for _, n in others) + deck_n + discard_n + pile_unknown != len(gold) + len(curses):
        raise Inconsistent("the treasure cards of the view do not add up")
    # The places a curse may be: the deck's bottom (the top CURSE_FREE_TOP never hold one, but
    # a deck smaller than the rest is all bottom), the discards, the pile's unknown cards.
    curse_free_top = max(0, deck_n - (TREASURE_CARDS - CURSE_FREE_TOP))
    slots = [("deck", i) for i in range(deck_n - curse_free_top)]
    slots += [("discard", i) for i in range(discard_n)]
    slots += [("pile", i) for i in range(pile_unknown)]
    if len(slots) < len(curses):
        raise Inconsistent("no place left for the curses")
    cursed = set(rng.sample(range(len(slots)), len(curses)))
    rng.shuffle(gold)
    deck: list[int | None] = [None] * deck_n
    discard: list[int | None] = [None] * discard_n
    pile: list[int | None] = [None] * pile_unknown
    places = {"deck": deck, "discard": discard, "pile": pile}
    for k, (where, i) in enumerate(slots):
        if k in cursed:
            places[where][i] = curses.pop()
    for seat, n in others:
        state.players[seat].treasures = [gold.pop() for _ in range(n)]
    for cards in (deck, discard, pile):
        for i, c in enumerate(cards):
            if c is None:
                cards[i] = gold.pop()
    state.treasure_deck = [c for c in deck if c is not None]
    state.treasure_discard = [c for c in discard if c is not None]
    if state.sharing is not None:
        full = [c for c in pile if c is not None] + pile_known
        rng.shuffle(full)
        state.sharing.pile = full
        state.sharing.revealed = _revealed(sh_view, state.sharing.offer)
        _others_draws(state, view, [c for c in full if c not in pile_known], rng)


def _revealed(sh_view: dict, offer: int | None) -> list[int]:
    """Cards standing for the turned ones (their values are what anyone reads of them)."""
    out = []
    pool = list(range(TREASURE_CARDS))
    for label in sh_view["revealed"]:
        out.append(_take_value(pool, label))
    if offer is not None and out:
        out[-1] = offer
    return out


def _others_draws(state: TobagoState, view: dict, pile: list[int], rng: random.Random) -> None:
    """The other participants' memory of the running sharing: their shares' worth of the
    pile's unknown and the turned cards (the ``sharing_started`` event says the shares)."""
    sh = state.sharing
    assert sh is not None
    started = next(
        (e for e in reversed(view["log"]) if e["type"] == "sharing_started"),
        None,
    )
    if started is None:
        return
    me = view["seat"]
    pool = pile + sh.revealed
    rng.shuffle(pool)
    colour = state.maps[sh.map].colour
    for seat, n in enumerate(started["shares"]):
        if seat == me or n == 0:
            continue
        drawn = [pool.pop() for _ in range(min(n, len(pool)))]
        state.players[seat].memory.append(
            {"sharing": sh.number, "map": colour, "values": [value_label(c) for c in drawn]}
        )
