"""Constructed Dragon's Gold positions for rule scenarios, tests and examples.

``position`` builds a state with a chosen row, stacks, hoards, hands and bag while keeping all
126 tokens accounted for (whatever the position does not place lies in the bag; a smaller bag
puts the rest out of the game).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.dragons_gold.data import ATTACK, COLOURS, DRAGONS, ITEM_OF_CARD, TOKEN_COUNTS, full
from games.dragons_gold.engine import KIND
from games.dragons_gold.table import FIGHT, Dragon, DragonsGoldState


def position(
    seats: int = 4,
    options: dict | None = None,
    row: Iterable[tuple[int, dict[str, int]]] = ((1, {}), (2, {}), (3, {}), (4, {})),
    stacks: dict[int, list[tuple[int, str]]] | None = None,
    hoards: dict[int, dict[str, int]] | None = None,
    hands: dict[int, list[int]] | None = None,
    bag_top: Iterable[str] = (),
    bag: int | None = None,
    deck: list[int] | None = None,
    turn: int = 0,
    revealed: int | None = None,
) -> DragonsGoldState:
    """A fight position: ``row`` (dragon id, treasure) left to right; ``stacks``: row index →
    ``[(seat, hunter)]`` bottom first; ``bag_top``: the next tokens drawn, first drawn first;
    ``bag``: the bag's size (default: every token not placed); ``deck``: dragon ids, top first
    (default: the dragons not in the row, ascending); ``hands``: magic item cards (advanced)."""
    state = KIND.new_state(0, seats, options)
    left = dict(TOKEN_COUNTS)
    state.row = [Dragon(dragon_id, full(treasure)) for dragon_id, treasure in row]
    state.hoards = [full((hoards or {}).get(s, {})) for s in range(seats)]
    for tokens in [d.treasure for d in state.row] + state.hoards:
        for c, n in tokens.items():
            left[c] -= n
    top = list(bag_top)
    for c in top:
        left[c] -= 1
    if min(left.values()) < 0:
        raise ValueError(f"more tokens placed than the game has: {left}")
    rest = [c for c in COLOURS for _ in range(left[c])]
    size = len(rest) + len(top) if bag is None else bag
    keep = rest[: max(0, size - len(top))]
    state.removed = full({c: rest[len(keep) :].count(c) for c in COLOURS})
    state.bag = keep + top[::-1]  # the last is drawn first
    state.hunters = [dict.fromkeys(ATTACK, "up") for _ in range(seats)]
    for index, entries in (stacks or {}).items():
        for seat, hunter in entries:
            state.hunters[seat][hunter] = "played"
            state.row[index].stack.append(
                {"seat": seat, "hunter": hunter, "attack": ATTACK[hunter], "sword": False}
            )
    in_row = {d.id for d in state.row}
    state.deck = [d for d in sorted(DRAGONS) if d not in in_row] if deck is None else deck
    state.revealed = len(state.row) if revealed is None else revealed
    if state.options["advanced"]:
        state.hands = [list((hands or {}).get(s, [])) for s in range(seats)]
        held = {c for h in state.hands for c in h}
        state.item_deck = [c for c in range(len(ITEM_OF_CARD)) if c not in held]
    state.notes = [[] for _ in range(seats)]
    FIGHT.start(state, turn)
    return state


def cards_of(item: str) -> list[int]:
    """The card ids of one magic item kind."""
    return [c for c, name in enumerate(ITEM_OF_CARD) if name == item]
