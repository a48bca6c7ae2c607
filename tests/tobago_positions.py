"""Building constructed Tobago positions for the tests.

Positions are played on ``tests.islands.stripes_island()`` by default (six vertical terrain
stripes, so every region and drive cost is easy to reason about). The helpers move cards between
the decks, hands and columns (never creating or losing one), so a constructed position keeps
every count the invariants check.
"""

from __future__ import annotations

import random

from games.tobago.kind import KIND
from games.tobago.rules import GOLD_VALUES, MAP_INDEX, TREASURE_VALUES
from games.tobago.state import ClueEntry, TobagoState
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.deck import DECK
from tests.islands import stripes_island


class NoShuffle(random.Random):
    """A generator whose ``shuffle`` keeps the order (sharing piles become predictable)."""

    def shuffle(self, x, *args, **kwargs) -> None:
        return None


def card(notation: str) -> int:
    """The id of the clue card with this notation (the first one if the deck has several)."""
    for i, c in enumerate(DECK):
        if c.notation == notation:
            return i
    raise KeyError(notation)


def gold(value: int, nth: int = 0) -> int:
    """The id of the ``nth`` gold card of ``value``."""
    ids = [i for i, v in enumerate(GOLD_VALUES) if v == value]
    return ids[nth]


CURSE_IDS = tuple(i for i, v in enumerate(TREASURE_VALUES) if v == 0)


def position(
    seats: int = 2,
    atvs: list[tuple[int, int]] | None = None,
    options: dict | None = None,
    island: Island | None = None,
    seed: int = 1,
    no_shuffle: bool = True,
) -> TobagoState:
    """A game on ``island`` (default ``stripes_island()``) at the start of seat 0's first turn:
    ATVs placed, every map empty, hands as dealt."""
    state = KIND.new_state_on(island or stripes_island(), seed, seats, options)
    if no_shuffle:
        rng = NoShuffle()
        rng.setstate(state.rng.getstate())
        state.rng = rng
    for i, p in enumerate(state.players):
        p.atv = Hex(*(atvs[i] if atvs else (0, 0)))
    state.phase = "turn"
    state.current = 0
    state.turn_number = 1
    return state


def _take_clue(state: TobagoState, c: int) -> None:
    for pile in [state.clue_deck, state.clue_discard, *(p.hand for p in state.players)]:
        if c in pile:
            pile.remove(c)
            return
    raise ValueError(f"clue card {c} is not in a deck or hand")


def give(state: TobagoState, seat: int, notations: list[str]) -> None:
    """Replace ``seat``'s hand by these cards (the old hand goes back on the deck)."""
    p = state.players[seat]
    state.clue_deck.extend(p.hand)
    p.hand = []
    for n in notations:
        c = card(n)
        _take_clue(state, c)
        p.hand.append(c)


def put_clue(state: TobagoState, colour: str, notation: str, seat: int, markers: int = 1) -> None:
    """Put a clue card at the bottom of a column with ``markers`` of ``seat``'s markers."""
    c = card(notation)
    _take_clue(state, c)
    m = state.maps[MAP_INDEX[colour]]
    m.clues.append(ClueEntry(c, seat, markers))
    state.players[seat].markers -= markers
    state.refresh(m)


def stack_treasures(state: TobagoState, turned: list[int]) -> None:
    """Arrange the treasure deck so that (with ``NoShuffle``) a sharing drawing
    ``len(turned)`` cards turns them in this order. Other cards go below."""
    rest = [c for c in state.treasure_deck if c not in turned]
    state.treasure_deck = rest + list(turned)


def candidates(state: TobagoState, colour: str) -> list[tuple[int, int]]:
    m = state.maps[MAP_INDEX[colour]]
    return [tuple(h) for h in state.island.spaces_of(m.candidates)]


def set_drawn(state: TobagoState, notation: str) -> None:
    """Make ``notation`` the face-up first-clue card (the previous one goes back on the deck)."""
    if state.drawn is not None:
        state.clue_deck.append(state.drawn)
    c = card(notation)
    _take_clue(state, c)
    state.drawn = c


def treasure_cards(state: TobagoState) -> list[int]:
    """Every treasure card wherever it is (decks, piles, players): always all 41, once each."""
    out = state.treasure_deck + state.treasure_discard + state.treasure_removed
    out += [c for p in state.players for c in p.treasures]
    if state.sharing is not None:
        out += state.sharing.pile
        if state.sharing.offer is not None:
            out.append(state.sharing.offer)
    return out


def clue_cards(state: TobagoState) -> list[int]:
    """Every clue card wherever it is: always all 52, once each."""
    out = state.clue_deck + state.clue_discard + [c for p in state.players for c in p.hand]
    out += [e.card for m in state.maps for e in m.clues]
    if state.drawn is not None:
        out.append(state.drawn)
    return out


def amulet_count(state: TobagoState) -> int:
    """Amulets in the supply, on the island and with the players: always 20."""
    return state.amulet_supply + len(state.amulets) + sum(p.amulets for p in state.players)


def markers_on_columns(state: TobagoState, seat: int) -> int:
    out = sum(e.markers for m in state.maps for e in m.clues if e.seat == seat)
    return out + sum(1 for m in state.maps if m.raiser == seat)


def take_treasure(state: TobagoState, seat: int, card_id: int) -> None:
    """Move a treasure card from the deck into ``seat``'s hand of treasure cards."""
    state.treasure_deck.remove(card_id)
    state.players[seat].treasures.append(card_id)


def stack_clues(state: TobagoState, notations: list[str]) -> None:
    """Put these clue cards on top of the clue deck, the last one on the very top."""
    for n in notations:
        c = card(n)
        _take_clue(state, c)
        state.clue_deck.append(c)
