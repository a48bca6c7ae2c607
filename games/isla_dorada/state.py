"""The state of one Isla Dorada game, the deal that starts it, and its JSON snapshot.

Cards are ints (``games.isla_dorada.tables``); decks keep their top card *last*. The state
extends ``games.state.GameState`` (seed, seats, options, the game's one generator, the phase,
the moves); everything else in it is plain data, so a snapshot round-trips exactly and ``(seed,
seats, options, action log)`` replays the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from errors import InvalidInput
from games.isla_dorada import tables as T
from games.state import GameState

#: The phases, in the order a round runs them (``setup`` once, ``over`` at the end).
PHASES = ("setup", "bid", "pay", "move", "treasure", "news", "draw", "lightning", "limit", "over")


@dataclass(kw_only=True)
class IslaState(GameState):
    """Everything about one game. Per-seat lists are indexed by seat (0 = the youngest)."""

    round: int = 0
    markers_left: int = T.MARKERS
    leader: int = 0
    location: int = T.CRASH
    gold: list[int] = field(default_factory=list)
    #: Adventure cards in hand (the special cards shown with a standing bid are out of the hand
    #: until it ends; a treasure play chosen but not yet revealed stays in it).
    hands: list[list[int]] = field(default_factory=list)
    #: Goal cards held: treasure cards (starting and standard), curse cards, the destiny card.
    treasures: list[list[int]] = field(default_factory=list)
    curses: list[list[int]] = field(default_factory=list)
    destiny: list[int] = field(default_factory=list)
    #: Cards dealt for a choice not yet made (setup: 3 starting treasures + 2 destiny cards;
    #: cable news: the treasure cards drawn) and how many treasure cards the news lets one keep.
    offers: list[list[int]] = field(default_factory=list)
    keep: int = 0
    #: Simultaneous phases (setup, treasure, news): who has chosen.
    chosen: list[bool] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    display: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    tdeck: list[int] = field(default_factory=list)
    cdeck: list[int] = field(default_factory=list)
    ddeck: list[int] = field(default_factory=list)
    #: Goal cards out of the game, face down (setup and news discards).
    out: list[int] = field(default_factory=list)
    bigfoot: int = -1
    leviathan: int = -1
    #: Exploration markers per location.
    explored: list[int] = field(default_factory=list)
    # --- the auction of this round ---
    #: Standing bid per seat, as spoken: ``{"route": r or -1, "to": loc, "value", "shaman": card
    #: or -1, "from", "into", "ovetos": card or -1, "sangaia": card or -1}`` (no paying cards).
    bids: list[dict | None] = field(default_factory=list)
    high: int = -1
    #: Seats that passed since the last bid (who passed), and seats barred by a Juju.
    passed: list[bool] = field(default_factory=list)
    barred: list[bool] = field(default_factory=list)
    juju_turn: bool = False
    #: This round's winning bid once the auction ended (its winner pays it, phase ``pay``).
    win: dict | None = None
    # --- moving ---
    #: A pending choice of the leader: ``{"kind": "detour"|"river", "options": [[route, dest]]}``.
    move: dict | None = None
    path: list[int] = field(default_factory=list)
    #: Treasure phase: the plays each seat chose (``[[treasure, bonus or -1, bongo or -1]]``),
    #: hidden until every seat has chosen: the cards stay in the seat's holdings till then.
    pending: list[list[list[int]] | None] = field(default_factory=list)
    #: Cable news due this round: ``[drawn, kept]`` or ``None``.
    news: list[int] | None = None
    # --- drawing ---
    draw_left: int = 0
    draw_step: str = "take"
    #: A lightning card being used: ``{"seat", "card", "then": "buy"|"next"}``.
    lightning: dict | None = None
    # --- what was played, for scoring and missions ---
    played_treasures: list[list[list[int]]] = field(default_factory=list)
    played_curses: list[list[int]] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    flights: int = 0
    river_steps: int = 0
    end: str | None = None
    history: list[dict] = field(default_factory=list)
    last_events: list[dict] = field(default_factory=list)
    stats: dict = field(default_factory=dict)


def new_stats(seats: int) -> dict:
    return {
        "rounds": 0,
        "crash_returns": 0,
        "flights": 0,
        "detours": 0,
        "river_continues": 0,
        "zero_bids": 0,
        "winning_value": 0,
        "bids": 0,
        "jujus": 0,
        "ovetos": 0,
        "shamans": 0,
        "lightning": 0,
        "reshuffles": 0,
        "buys": [0] * seats,
        "limit_discards": 0,
        "deck_draws": 0,
    }


def deal(seed: int, seats: int, options: dict, rng: random.Random) -> IslaState:
    """Shuffle every deck with the game's generator ``rng`` and deal (rules, Setup): 3 starting
    treasures and 2 destiny cards to choose from, 1 curse, 6 adventure cards without the
    lightning symbol, 10 gold; four adventure cards face up. Lightning cards skipped for the
    hands stay in the deck, which is shuffled again after the deal."""
    d = T.DEAL

    def shuffled(cards: Iterable[int]) -> list[int]:
        out = list(cards)
        rng.shuffle(out)
        return out

    starts = shuffled(T.GOALS_OF["start"])
    ddeck = shuffled(T.GOALS_OF["destiny"])
    cdeck = shuffled(T.GOALS_OF["curse"])
    tdeck = shuffled(T.GOALS_OF["treasure"])
    adventure = shuffled(range(T.ADV_COUNT))
    plain = [c for c in adventure if not T.ADV_LIGHTNING[c]]
    n = d["adventure"]
    hands = [sorted(plain[s * n : (s + 1) * n]) for s in range(seats)]
    dealt = {c for h in hands for c in h}
    deck = shuffled([c for c in adventure if c not in dealt])
    offers = []
    for _ in range(seats):
        offer = [starts.pop() for _ in range(d["start_treasures"])]
        offer += [ddeck.pop() for _ in range(d["destiny"])]
        offers.append(offer)
    curses = [[cdeck.pop() for _ in range(d["curses"])] for _ in range(seats)]
    display = [deck.pop() for _ in range(T.DISPLAY_SIZE)]
    return IslaState(
        seats=seats,
        seed=seed,
        options=dict(options),
        rng=rng,
        phase="setup",
        gold=[T.START_GOLD] * seats,
        hands=hands,
        treasures=[[] for _ in range(seats)],
        curses=curses,
        destiny=[-1] * seats,
        offers=offers,
        chosen=[False] * seats,
        deck=deck,
        display=display,
        tdeck=tdeck,
        cdeck=cdeck,
        ddeck=ddeck,
        out=list(starts),  # starting treasures not dealt (fewer than 6 seats) stay out
        explored=[0] * T.LOC_COUNT,
        bids=[None] * seats,
        passed=[False] * seats,
        barred=[False] * seats,
        pending=[None] * seats,
        played_treasures=[[] for _ in range(seats)],
        played_curses=[[] for _ in range(seats)],
        wins=[0] * seats,
        stats=new_stats(seats),
    )


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


#: The state's own fields (the base's part is ``games.state.common_json``'s).
_OWN = tuple(f.name for f in fields(IslaState) if f.name not in {g.name for g in fields(GameState)})


def to_json(state: IslaState) -> dict:
    """The engine's part of a snapshot."""
    return {name: _copy(getattr(state, name)) for name in _OWN}


def from_json(data: dict, common: dict[str, Any]) -> IslaState:
    """The state a ``to_json`` snapshot describes, with the base's part ``common``;
    ``InvalidInput`` for anything else."""
    state = IslaState(**common, **{name: _copy(data[name]) for name in _OWN})
    if state.phase not in PHASES or len(state.hands) != state.seats:
        raise InvalidInput("not an Isla Dorada state snapshot: phase or seats", "state")
    return state
