"""Raising and sharing a treasure (rules §7), curses, the map's restart, statues (§6), the end (§8).

Offers are asked one seat at a time: the seat owning the lowest remaining marker of the column
(the raiser's, then the last clue's, upwards) that has not declined the face-up card yet. A seat
owning several markers is asked once per card, at its lowest marker; accepting removes that
marker. The turned card's value is public (it is turned face up); which cards each seat drew is
known to that seat only (kept in its ``memory``); the raiser's extra card and the pile's order are
known to nobody.
"""

from __future__ import annotations

from typing import Any

from games.state import enter
from games.tobago.engine import (
    clue_named,
    draw_clue,
    emit,
    end_game,
    next_turn,
    placement_ok,
    xy,
)
from games.tobago.rules import CURSE, TREASURE_VALUES
from games.tobago.state import Sharing, TobagoState, TreasureMap


def value_label(card: int) -> int | str:
    """A treasure card's public face: its gold value, or ``"curse"``."""
    v = TREASURE_VALUES[card]
    return "curse" if v == CURSE else v


def _draw_treasure(state: TobagoState, sharing: Sharing, events: list[dict]) -> int | None:
    """Top treasure card; if the deck is empty the discards become a new deck (rules §8) and the
    game will end after this sharing."""
    if not state.treasure_deck:
        sharing.last = True
        if state.treasure_discard:
            state.treasure_deck = state.treasure_discard
            state.treasure_discard = []
            state.rng.shuffle(state.treasure_deck)
            emit(state, events, "treasure_deck_reshuffled", cards=len(state.treasure_deck))
    return state.treasure_deck.pop() if state.treasure_deck else None


def offeree(state: TobagoState) -> int | None:
    """The seat asked about the face-up card now (None when every marker owner declined, or
    when no card is face up)."""
    sh = state.sharing
    if state.phase != "sharing" or sh is None or sh.offer is None:
        return None
    # ``markers_bottom_up``'s first seat not in ``declined``, without the list built (a
    # strong bot's rollouts ask this at every answer).
    m = state.maps[sh.map]
    declined = sh.declined
    if m.raiser is not None and m.raiser not in declined:
        return m.raiser
    for entry in reversed(m.clues):
        if entry.markers and entry.seat not in declined:
            return entry.seat
    return None


def start_sharing(state: TobagoState, map_index: int, raiser: int, events: list[dict]) -> None:
    """The raiser's marker goes under the column; shares are drawn; the first card is turned."""
    m = state.maps[map_index]
    m.raiser = raiser
    state.players[raiser].markers -= 1
    state.sharings += 1
    state.bump("treasures_raised")
    sh = state.sharing = Sharing(number=state.sharings, map=map_index, raiser=raiser)
    enter(state, "sharing")
    shares = [0] * state.seats
    for seat in m.markers_bottom_up():
        shares[seat] += 1
    emit(state, events, "raised", seat=raiser, map=m.colour, at=xy(state.atv(raiser)))
    for k in range(state.seats):
        seat = (raiser + k) % state.seats
        drawn = []
        for _ in range(shares[seat]):
            card = _draw_treasure(state, sh, events)
            if card is None:
                break
            drawn.append(card)
        if drawn:
            sh.pile.extend(drawn)
            state.players[seat].memory.append(
                {"sharing": sh.number, "map": m.colour, "values": [value_label(c) for c in drawn]}
            )
    extra = _draw_treasure(state, sh, events)
    if extra is not None:
        sh.pile.append(extra)
    state.rng.shuffle(sh.pile)
    emit(
        state,
        events,
        "sharing_started",
        map=m.colour,
        raiser=raiser,
        shares=shares,
        cards=len(sh.pile),
    )
    _turn_next_card(state, sh, events)


def _turn_next_card(state: TobagoState, sh: Sharing, events: list[dict]) -> None:
    m = state.maps[sh.map]
    if not sh.pile or not m.markers_bottom_up():
        _finish(state, sh, events)
        return
    card = sh.pile.pop()
    sh.revealed.append(card)
    if TREASURE_VALUES[card] == CURSE:
        _curse(state, sh, card, events)
        return
    sh.offer = card
    sh.declined = []
    emit(
        state, events, "card_turned", value=value_label(card), to=offeree(state), left=len(sh.pile)
    )


def to_act(state: TobagoState) -> list[int]:
    """Who acts in a sharing: the seat asked about the face-up card."""
    seat = offeree(state)
    return [] if seat is None else [seat]


def legal(state: TobagoState, seat: int) -> list[dict]:
    return [{"type": "accept"}, {"type": "decline"}]


def accept(state: TobagoState, seat: int, action: Any, events: list[dict]) -> None:
    """``seat`` takes the face-up card and gives back its lowest marker of the column."""
    sh = state.sharing_now()
    m = state.maps[sh.map]
    card = sh.offered()
    state.players[seat].treasures.append(card)
    if m.raiser == seat:
        m.raiser = None
    else:
        entry = next(e for e in reversed(m.clues) if e.seat == seat and e.markers > 0)
        entry.markers -= 1
    state.players[seat].markers += 1
    sh.offer = None
    emit(state, events, "card_accepted", seat=seat, value=value_label(card))
    _turn_next_card(state, sh, events)


def decline(state: TobagoState, seat: int, action: Any, events: list[dict]) -> None:
    """``seat`` says no; the card goes to the next marker owner, or to the discards."""
    sh = state.sharing_now()
    card = sh.offered()
    sh.declined.append(seat)
    emit(state, events, "card_declined", seat=seat, value=value_label(card))
    nxt = offeree(state)
    if nxt is None:
        state.treasure_discard.append(card)
        emit(state, events, "card_discarded", value=value_label(card))
        sh.offer = None
        _turn_next_card(state, sh, events)
    else:
        emit(state, events, "card_offered", value=value_label(card), to=nxt)


def _curse(state: TobagoState, sh: Sharing, card: int, events: list[dict]) -> None:
    """Sharing stops (§7.4): the curse card, and any other curse not yet handed out, leave the
    game; the other undealt cards go to the treasure discard pile; marker owners are cursed."""
    m = state.maps[sh.map]
    curses = [card] + [c for c in sh.pile if TREASURE_VALUES[c] == CURSE]
    state.treasure_removed.extend(curses)
    discarded = [c for c in sh.pile if TREASURE_VALUES[c] != CURSE]
    state.treasure_discard.extend(discarded)
    sh.pile = []
    state.bump("curses")
    lost = []
    for seat in sorted(set(m.markers_bottom_up())):
        p = state.players[seat]
        state.bump("cursed_players")
        if p.amulets > 0:
            p.amulets -= 1
            state.amulet_supply += 1
            lost.append({"seat": seat, "lost": "amulet"})
        elif p.treasures:
            best = max(p.treasures, key=lambda c: (TREASURE_VALUES[c], -c))
            p.treasures.remove(best)
            state.treasure_discard.append(best)
            lost.append({"seat": seat, "lost": "treasure"})
        else:
            lost.append({"seat": seat, "lost": "nothing"})
    emit(
        state,
        events,
        "curse",
        map=m.colour,
        removed=len(curses),
        discarded=len(discarded),
        cursed=lost,
    )
    _finish(state, sh, events)


def _finish(state: TobagoState, sh: Sharing, events: list[dict]) -> None:
    """Leftovers discarded, the column cleared; then the end (§8) or the restart and statues."""
    m = state.maps[sh.map]
    state.treasure_discard.extend(sh.pile)
    sh.pile = []
    sh.offer = None
    for e in m.clues:
        state.clue_discard.append(e.card)
        state.players[e.seat].markers += e.markers
    if m.raiser is not None:
        state.players[m.raiser].markers += 1
    m.clues = []
    m.removed = 0
    m.raiser = None
    state.refresh(m)
    emit(state, events, "sharing_ended", map=m.colour)
    if sh.last or not state.treasure_deck:
        if state.treasure_deck:
            why = "the treasure deck ran out; its reshuffled discards finished the last sharing"
            end_game(state, events, why, "deck_reshuffled")
        else:
            end_game(state, events, "the treasure deck is used up", "deck_empty")
        return
    _restart(state, m, sh.raiser, events)
    _statues(state, events)
    state.sharing = None
    enter(state, "turn")
    next_turn(state, events)


def _restart(state: TobagoState, m: TreasureMap, raiser: int, events: list[dict]) -> None:
    """The raiser turns clue cards until one leaves a candidate on the empty map ``m`` and puts
    a compass marker on it (a card that leaves none is discarded)."""
    tries = len(state.clue_deck) + len(state.clue_discard)
    for _ in range(tries):
        card = draw_clue(state, events)
        if card is None:
            return
        if placement_ok(state, m, card):
            state.place_clue(m, card, raiser)
            emit(state, events, "map_restarted", map=m.colour, seat=raiser, **clue_named(card))
            return
        state.clue_discard.append(card)
        emit(state, events, "clue_discarded", **clue_named(card), why="leaves no candidate")


def _statues(state: TobagoState, events: list[dict]) -> None:
    """Each statue puts an amulet on the last island space it faces, then turns clockwise."""
    for statue in state.statues:
        space, facing = statue
        end = state.island.statue_ray(space, facing)
        if end not in state.amulets and state.amulet_supply > 0:
            state.amulets.append(end)
            state.amulet_supply -= 1
            emit(state, events, "amulet_appeared", at=xy(end), statue=xy(space))
        statue[1] = (facing + 5) % 6
        emit(state, events, "statue_turned", statue=xy(space), facing=statue[1])
