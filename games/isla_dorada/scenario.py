"""Constructed positions for rule scenarios, tests and examples.

``game()`` deals a real game and makes every seat's setup choice, so play starts at round 1's
auction; the helpers then move *physical* cards between places (never creating any), so every
position still holds all 112 adventure and 112 goal cards (``adventure_cards``, ``goal_cards``).
"""

from __future__ import annotations

from games.isla_dorada import tables as T
from games.isla_dorada.engine import KIND
from games.isla_dorada.state import IslaState


def game(seats: int = 3, seed: int = 0, empty_hands: bool = True) -> IslaState:
    """A game at round 1's auction (each seat dropped its first starting treasure and destiny
    card); with ``empty_hands`` the adventure hands go back under the deck."""
    state = KIND.new_state(seed, seats)
    for s in range(seats):
        KIND.apply(state, s, KIND.legal_actions(state, s)[0])
    if empty_hands:
        for s in range(seats):
            state.deck[:0] = state.hands[s]
            state.hands[s] = []
    return state


def _take_adventure(state: IslaState, kind: str) -> int:
    for pile in (state.deck, state.discard, state.display):
        for c in pile:
            if T.ADV_KIND[c] == kind:
                pile.remove(c)
                return c
    raise ValueError(f"no free {kind} card")


def give(state: IslaState, seat: int, *kinds: str) -> list[str]:
    """Move one free card of each kind (deck, discard, then display) into ``seat``'s hand; their
    ids."""
    out = []
    for kind in kinds:
        c = _take_adventure(state, kind)
        state.hands[seat].append(c)
        out.append(T.ADV_ID[c])
    return out


def stack(state: IslaState, *kinds: str) -> list[str]:
    """Put one card of each kind on top of the deck, the first kind on the very top."""
    cards = [_take_adventure(state, k) for k in kinds]
    state.deck.extend(reversed(cards))
    return [T.ADV_ID[c] for c in cards]


def show(state: IslaState, *kinds: str) -> list[str]:
    """Make the display exactly these kinds (the old face-up cards go under the deck)."""
    state.deck[:0] = state.display
    state.display = []
    cards = [_take_adventure(state, k) for k in kinds]
    state.display = cards
    return [T.ADV_ID[c] for c in cards]


def bonus(state: IslaState, seat: int, family: str) -> str:
    """Give ``seat`` a bonus card of ``family``."""
    for pile in (state.deck, state.discard, state.display):
        for c in pile:
            if T.ADV_KIND[c] == "bonus" and T.ADV_FAMILY[c] == family:
                pile.remove(c)
                state.hands[seat].append(c)
                return T.ADV_ID[c]
    raise ValueError(f"no free {family} bonus card")


def goal(state: IslaState, seat: int, deck: str, location: str | None = None) -> str:
    """Move a goal card of ``deck`` (``treasure``, ``curse``; for ``location``) from its deck or
    from out of the game to ``seat``."""
    loc = T.LOC_INDEX[location] if location else None
    piles = {"treasure": (state.tdeck, state.out), "curse": (state.cdeck, state.out)}[deck]
    for pile in piles:
        for g in pile:
            if T.GOAL_DECK[g] == deck and (loc is None or T.GOAL_LOC[g] == loc):
                pile.remove(g)
                (state.treasures if deck == "treasure" else state.curses)[seat].append(g)
                return T.GOAL_ID[g]
    raise ValueError(f"no free {deck} card for {location}")


def clear_goals(state: IslaState) -> None:
    """Every held treasure and curse card goes out of the game (face down)."""
    for s in range(state.seats):
        state.out.extend(state.treasures[s] + state.curses[s])
        state.treasures[s] = []
        state.curses[s] = []


def route(a: str, b: str) -> str:
    """The id of the route between two locations."""
    ia, ib = T.LOC_INDEX[a], T.LOC_INDEX[b]
    for r in range(T.ROUTE_COUNT):
        if {T.ROUTE_A[r], T.ROUTE_B[r]} == {ia, ib}:
            return T.ROUTE_IDS[r]
    raise ValueError(f"no route {a}-{b}")


def at(state: IslaState, location: str) -> None:
    state.location = T.LOC_INDEX[location]


def number(card_id: str) -> int:
    """An adventure card id's number (``"a17"`` → 17): the order ways to pay are listed in."""
    return T.CARD_INDEX[card_id][1]


def ids(state: IslaState, seat: int, kind: str) -> list[str]:
    return [T.ADV_ID[c] for c in state.hands[seat] if T.ADV_KIND[c] == kind]


def adventure_cards(state: IslaState) -> list[int]:
    """Every adventure card wherever it is (deck, display, discard, hands, the special cards
    shown with standing bids, in use). A treasure play chosen but not revealed is still held."""
    cards = state.deck + state.display + state.discard + [c for h in state.hands for c in h]
    for bid in state.bids:
        if bid is not None:
            cards += [bid[k] for k in ("shaman", "ovetos", "sangaia") if bid[k] >= 0]
    if state.lightning is not None:
        cards.append(state.lightning["card"])
    for s in range(state.seats):
        cards += [b for _, b, _ in state.played_treasures[s] if b >= 0]
    return cards


def goal_cards(state: IslaState) -> list[int]:
    """Every goal card wherever it is (decks, out, held, offered, played)."""
    cards = state.tdeck + state.cdeck + state.ddeck + state.out
    for s in range(state.seats):
        cards += state.treasures[s] + state.curses[s] + state.offers[s] + state.played_curses[s]
        cards += [g for g, _, _ in state.played_treasures[s]]
        if state.destiny[s] >= 0:
            cards.append(state.destiny[s])
    return cards
