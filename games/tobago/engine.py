"""Shared machinery of the Tobago engine: setup, card draws, turn changes, the island check.

``new_state`` builds a game (rules §4); the phase modules (``turn``, ``sharing``) use the helpers
here. Every helper that changes the state is called only after the action was fully validated.
"""

from __future__ import annotations

import random
from typing import Any

from errors import IllegalAction
from games.order import TurnOrder, once_around, round_robin
from games.state import OVER, enter, to_stage
from games.tobago import islands
from games.tobago.rules import (
    AMULETS,
    COLOURS,
    COMPASS_MARKERS,
    CURSE_FREE_TOP,
    GOLD_VALUES,
    HAND_SIZE,
    TREASURE_CARDS,
    TREASURE_VALUES,
)
from games.tobago.state import LOG_KEPT, Player, TobagoState, TreasureMap, TurnState
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.compiled import drive_from
from solver.deck import DECK
from solver.engine import SolverOptions, clue_mask, is_legal_play

# --- small helpers ------------------------------------------------------------------------


def emit(state: TobagoState, events: list[dict], kind: str, **fields: Any) -> None:
    """Record a public event (returned by ``apply`` and kept in the state's log). The state
    keeps only the log's tail, as its snapshot does: past ``2 * LOG_KEPT`` events the oldest
    ``LOG_KEPT`` are dropped (counted in ``log_dropped``), so a live state no longer grows with
    its game (the service's action log holds every event)."""
    e = {"type": kind, **fields}
    events.append(e)
    state.log.append(e)
    if len(state.log) > 2 * LOG_KEPT:
        del state.log[:LOG_KEPT]
        state.log_dropped += LOG_KEPT


def clue_named(card: int) -> dict[str, Any]:
    """How an event names a clue card: its number and its notation (for the log's words)."""
    return {"card": card, "clue": DECK[card].notation}


def xy(h: Hex) -> list[int]:
    return [h.q, h.r]


def costs_from(island: Island, start: Hex) -> dict[Hex, int]:
    """Drive costs from ``start`` (rules §5): the table ``solver.compiled.drive_from`` keeps,
    shared with the solver's hints and the web helper (read only)."""
    return drive_from(island, start).costs


def card_mask(state: TobagoState, card: int) -> int:
    return clue_mask(state.island, DECK[card], state.solver_options)


def placement_ok(state: TobagoState, m: TreasureMap, card: int) -> bool:
    """Whether clue ``card`` may go to the bottom of ``m``'s column.

    On an empty column it must only leave a candidate (rules §4, and the restart of §7.5);
    on a started column it must be a legal play (§3), which a located map never allows.
    """
    mask = card_mask(state, card)
    if not m.clues:
        return m.candidates & mask != 0
    return is_legal_play(m.candidates, mask)


def single_space(state: TobagoState, m: TreasureMap) -> Hex | None:
    """The treasure's space when the map is located (one candidate), else None."""
    c = m.candidates
    if c and c & (c - 1) == 0:
        return state.island.index[c.bit_length() - 1]
    return None


# --- draws --------------------------------------------------------------------------------


def draw_clue(state: TobagoState, events: list[dict]) -> int | None:
    """Top clue card; an empty deck is first rebuilt from the shuffled discards (rules §5)."""
    if not state.clue_deck and state.clue_discard:
        state.clue_deck = state.clue_discard
        state.clue_discard = []
        state.rng.shuffle(state.clue_deck)
        emit(state, events, "clue_deck_reshuffled", cards=len(state.clue_deck))
    return state.clue_deck.pop() if state.clue_deck else None


def refill(state: TobagoState, seat: int, events: list[dict]) -> None:
    """Draw up to the hand size (fewer only if no clue card is left anywhere)."""
    hand = state.players[seat].hand
    size = HAND_SIZE[state.seats]
    drawn = 0
    while len(hand) < size:
        card = draw_clue(state, events)
        if card is None:
            break
        hand.append(card)
        drawn += 1
    if drawn:
        emit(state, events, "hand_refilled", seat=seat, cards=drawn)


#: Whole rounds in a row without progress after which the game ends (rules §8, Decision "a
#: table that stops playing"): ``STALL_ROUNDS × seats`` turns in a row, counted from any seat's.
STALL_ROUNDS = 2
#: Who acts in the setup's two phases (``place_atv``, ``first_clue``): each seat once, from 0.
SETUP: TurnOrder[TobagoState] = once_around()
#: Whose turn it is in the game proper: up the seat numbers from seat 0 (``games.order``).
TURNS: TurnOrder[TobagoState] = round_robin()


def stall_limit(state: TobagoState) -> int:
    """How many turns in a row without progress end the game."""
    return STALL_ROUNDS * state.seats


def next_turn(state: TobagoState, events: list[dict]) -> None:
    """The next seat's turn; or the end: when no compass marker is left to anyone (then no
    treasure can ever be raised again, so no marker can ever come back), or when the turn that
    ends completes two whole rounds without progress (rules §8: no clue played, no marker placed
    or removed, no treasure raised; exchanges, drives and passes make none)."""
    if all(p.markers == 0 for p in state.players):
        end_game(state, events, "no compass marker left to anyone", "no_markers")
        return
    if state.turn_number > 0:  # a turn ends (not the hand-over from the setup)
        state.idle_turns = 0 if state.turn.progress else state.idle_turns + 1
        if state.idle_turns >= stall_limit(state):
            why = f"{STALL_ROUNDS} whole rounds without a clue, a marker or a raised treasure"
            end_game(state, events, why, "stalled")
            return
        TURNS.pass_turn(state)
    state.turn_number += 1
    state.turn = TurnState()
    emit(state, events, "turn", seat=state.current, number=state.turn_number)


def end_game(state: TobagoState, events: list[dict], reason: str, end: str) -> None:
    """The game is over. ``end`` says why, for pages to word: ``deck_empty`` (the sharing that
    emptied the treasure deck), ``deck_reshuffled`` (the deck ran out during a sharing and its
    shuffled discards finished it: cards may be left), ``no_markers`` (nobody can raise any
    more) or ``stalled`` (two whole rounds without progress); the event also says
    how many treasure cards are left unused."""
    state.sharing = None
    enter(state, OVER)
    state.turn = TurnState()
    to_stage(state, None)
    scores = [sum(TREASURE_VALUES[c] for c in p.treasures) for p in state.players]
    emit(
        state,
        events,
        "game_over",
        scores=scores,
        reason=reason,
        end=end,
        treasure_deck=len(state.treasure_deck),
    )


# --- action fields -----------------------------------------------------------------------


def island_space(state: TobagoState, h: Hex, field: str) -> Hex:
    """``h`` (a declared space field, ``games.tobago.actions``), which must be an island space:
    sea is refused as illegal."""
    if h not in state.island.terrain:
        raise IllegalAction(
            f"({h.q}, {h.r}) is not an island space (sea is never entered)",
            field,
            reason="sea_space",
            params={"space": [h.q, h.r]},
        )
    return Hex(h.q, h.r)


# --- setup (rules §4) ---------------------------------------------------------------------


def treasure_deck(rng: random.Random) -> list[int]:
    """39 gold cards with the 2 curses shuffled into the bottom 27; the list's end is the top."""
    gold = list(range(len(GOLD_VALUES)))
    rng.shuffle(gold)
    top, bottom = gold[:CURSE_FREE_TOP], gold[CURSE_FREE_TOP:]
    bottom += list(range(len(GOLD_VALUES), TREASURE_CARDS))
    rng.shuffle(bottom)
    return bottom + top


def new_state(
    seed: int, seats: int, options: dict, rng: random.Random, island: Island | None = None
) -> TobagoState:
    """A game at its first step (ATV placement), dealt with the game's generator ``rng``.
    ``options`` are resolved already.

    ``island`` plays the game on a given island (tests, puzzles) instead of the one the options
    name; the state then keeps the island's JSON so that replays rebuild it.
    """
    if island is None:
        source = islands.source_for(options, seed)
        island = islands.island_from_source(source)
    else:
        source = islands.custom_source(island)
    solver_options = SolverOptions(
        options["near_includes_target"], options["treasure_on_landmarks"]
    )
    state = TobagoState(
        seed=seed,
        seats=seats,
        options=dict(options),
        rng=rng,
        phase="place_atv",
        island=island,
        solver_options=solver_options,
        island_source=source,
    )
    state.clue_deck = list(range(len(DECK)))
    rng.shuffle(state.clue_deck)
    state.treasure_deck = treasure_deck(rng)
    state.amulet_supply = AMULETS
    state.statues = [[lm.space, lm.facing or 0] for lm in island.landmarks if lm.kind == "statue"]
    state.maps = [TreasureMap(c) for c in COLOURS]
    for m in state.maps:
        state.refresh(m)
    for _ in range(seats):
        state.players.append(Player(markers=COMPASS_MARKERS))
    for p in state.players:
        p.hand = [state.clue_deck.pop() for _ in range(HAND_SIZE[seats])]
    state.log.append({"type": "setup", "seats": seats, "island": island.name, "seed": seed})
    SETUP.start(state, 0)
    return state


def begin_first_clue(state: TobagoState, events: list[dict]) -> None:
    """Draw the current seat's first clue card, face up; skip cards that fit no map."""
    while True:
        card = draw_clue(state, events)
        if card is None:  # no clue card left at all: nothing to place
            state.drawn = None
            finish_first_clue(state, events)
            return
        if any(placement_ok(state, m, card) for m in state.maps):
            state.drawn = card
            emit(state, events, "first_clue_drawn", seat=state.current, **clue_named(card))
            return
        state.clue_discard.append(card)
        emit(state, events, "clue_discarded", **clue_named(card), why="fits no map")


def finish_first_clue(state: TobagoState, events: list[dict]) -> None:
    """The next seat draws its first clue, or the game proper starts with seat 0."""
    if SETUP.pass_turn(state) is not None:
        begin_first_clue(state, events)
    else:
        enter(state, "turn")
        TURNS.start(state, 0)
        state.turn_number = 0
        next_turn(state, events)
