"""Blind Auction: a small hidden-hand card game with simultaneous bids, for testing the game API.

It exists so the game service can be developed and tested against a real game with every feature
the API must handle: 2-4 seats, hidden hands, secret simultaneous actions, hidden chance (the prize
deck), options, several bot levels, and an end where every view shows everything.

Rules. A deck of 40 cards (suits S, H, D, C; ranks 1-10, each card with a unique ``id``) is shuffled
and every seat is dealt ``rounds + 1`` cards. A prize deck of ten cards (values 1-10) is shuffled;
each round turns its top card. Every seat secretly bids one card from its hand (all seats act at
once); when the last bid is in, the bids are shown, the highest rank wins the prize (a tie on the
highest rank discards the prize, or with ``tie="carry"`` adds its value to the next prize). After
``rounds`` rounds the score is the sum of prize values won; each seat keeps one card unplayed,
secret until the end.

A table cannot stall: there is no pass, every action is a bid of a hand card (or the table's
timeout, which bids for the late seats), so a game has at most ``rounds`` × (seats + 1) entries.

Nothing here is registered globally: tests register ``BlindAuction()`` with a fixture
(``registered``), and ``create_app_with_testgame`` does it for a gunicorn process. The game has
no web module, so the site serves it with the generic pages (``web.game_pages``):
``registered()`` puts the game and its strings (``STRINGS``, as its own catalogue would hold
them) in for a test, and ``BID_ANALYST`` is a small analyst for tests that give it a descriptor
of its own.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from errors import IllegalAction
from games.actions import ActionType, Number
from games.analysis import Analyst, Judgement, Thresholds
from games.base import GameKind, GameType, OptionSpec, register
from games.phases import Event, Move, Phase, PhaseTimer
from games.state import OVER, GameState, enter

NAME = "blind_auction"
SUITS = ("S", "H", "D", "C")
RANKS = tuple(range(1, 11))
PRIZES = tuple(range(1, 11))


def human_and_bots(*levels: str) -> list[dict[str, Any]]:
    """A table's seats for ``GameSessions.create``: a human, then a bot of each of ``levels``."""
    return [{"type": "human"}, *({"type": "bot", "level": level} for level in levels)]


def card_json(card: int) -> dict[str, Any]:
    """The JSON form of a card id ``0..39``: ``{"id": 17, "suit": "H", "rank": 8}``."""
    return {"id": card, "suit": SUITS[card // len(RANKS)], "rank": RANKS[card % len(RANKS)]}


def prize_json(prize: int) -> dict[str, Any]:
    """The JSON form of a prize card (its index in ``PRIZES``)."""
    return {"prize": prize, "value": PRIZES[prize]}


def rank(card: int) -> int:
    return RANKS[card % len(RANKS)]


def random_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Any legal bid."""
    return rng.choice(legal)


def patient_bot(view: dict, legal: list[dict], rng: random.Random) -> dict | None:
    """Never bids in a timed round (waits for the clock); bids its lowest card otherwise."""
    if view["timed"]:
        return None
    hand = sorted(view["hand"], key=lambda c: (c["rank"], c["id"]))
    return {"type": "bid", "card": hand[0]["id"]}


def greedy_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Bid the highest card for a big prize (6+ with carry), the lowest otherwise."""
    hand = sorted(view["hand"], key=lambda c: (c["rank"], c["id"]))
    worth = view["prize"]["value"] + view["carry"]
    card = hand[-1] if worth >= 6 else hand[0]
    return {"type": "bid", "card": card["id"]}


@dataclass(kw_only=True)
class AuctionState(GameState):
    """A Blind Auction game (all chance is dealt in ``setup``): phase ``bid``, then ``over``."""

    round: int
    hands: list[list[int]]
    prize_deck: list[int]
    prize: int
    carry: int
    bids: list[int | None]
    won: list[list[int]]
    history: list[dict]


class Bid(ActionType):
    """``{"type": "bid", "card": <card id>}``: one card of my hand, face down."""

    type: Literal["bid"]
    card: Number


def _bidders(state: AuctionState) -> list[int]:
    return [s for s in range(state.seats) if state.bids[s] is None]


def _legal(state: AuctionState, seat: int) -> list[dict]:
    return [{"type": "bid", "card": c} for c in state.hands[seat]]


def _bid(state: AuctionState, seat: int, action: Bid, events: list[Event]) -> None:
    if action.card not in state.hands[seat]:
        raise IllegalAction(f"card {action.card} is not in seat {seat}'s hand", "action.card")
    state.hands[seat].remove(action.card)
    state.bids[seat] = action.card
    events.append({"type": "bid_placed", "seat": seat})
    if all(b is not None for b in state.bids):
        _resolve(state, events)


def _late_bids(state: AuctionState, events: list[Event]) -> None:
    """The clock ran out: the late seats bid their lowest card."""
    for s in _bidders(state):
        card = min(state.hands[s], key=rank)
        state.hands[s].remove(card)
        state.bids[s] = card
        events.append({"type": "bid_placed", "seat": s, "late": True})
    _resolve(state, events)


def _resolve(state: AuctionState, events: list[Event]) -> None:
    bids = [b for b in state.bids if b is not None]
    top = max(rank(b) for b in bids)
    best = [s for s, b in enumerate(bids) if rank(b) == top]
    worth = PRIZES[state.prize] + state.carry
    winner = best[0] if len(best) == 1 else None
    state.carry = 0
    if winner is not None:
        state.won[winner].append(worth)
    elif state.options["tie"] == "carry":
        state.carry = worth
    record = {
        "round": state.round,
        "prize": prize_json(state.prize),
        "bids": [card_json(b) for b in bids],
        "winner": winner,
        "worth": worth,
    }
    state.history.append(record)
    events.append({"type": "bids_revealed", **record})
    state.bids = [None] * state.seats
    if state.round == state.options["rounds"]:
        enter(state, OVER)
        events.append({"type": "game_over", "scores": _scores(state)})
    else:
        enter(state, "bid")  # a new round: its clock starts again
        state.round += 1
        state.prize = state.prize_deck.pop(0)
        events.append({"type": "prize_turned", "prize": prize_json(state.prize)})


def _scores(state: AuctionState) -> list[float]:
    return [float(sum(w)) for w in state.won]


def _bid_seconds(state: AuctionState) -> float | None:
    return state.options["bid_seconds"]


PHASES = (
    Phase(
        "bid",
        to_act=_bidders,
        legal=_legal,
        moves=(Move(Bid, _bid),),
        timer=PhaseTimer(seconds=_bid_seconds, apply=_late_bids),
    ),
)


class BlindAuction(GameKind[AuctionState]):
    """The engine. Option ``bid_seconds`` (default ``None``: no clock) makes every round a timed
    phase: when it runs out, the table's ``{"type": "timeout"}`` makes every seat that has not
    bid yet bid its lowest card (the test game of the service's time model).
    """

    snapshot_format = 2

    def __init__(self, name: str = NAME) -> None:
        super().__init__(
            GameType(
                name,
                2,
                4,
                (
                    OptionSpec("rounds", 5, tuple(range(3, 9))),
                    OptionSpec("tie", "discard", ("discard", "carry")),
                    OptionSpec("bid_seconds", None, (None, 1, 2, 5, 30, 60)),
                ),
                chance="seeded",
                information="imperfect",
                turns="simultaneous",
                timed=True,
            ),
            PHASES,
            {"random": random_bot, "greedy": greedy_bot, "patient": patient_bot},
        )

    def setup(self, seed: int, seats: int, options: dict, rng: random.Random) -> AuctionState:
        deck = list(range(len(SUITS) * len(RANKS)))
        rng.shuffle(deck)
        per = options["rounds"] + 1
        hands = [sorted(deck[i * per : (i + 1) * per]) for i in range(seats)]
        prizes = list(range(len(PRIZES)))
        rng.shuffle(prizes)
        return AuctionState(
            seed=seed,
            seats=seats,
            options=options,
            rng=rng,
            phase="bid",
            round=1,
            hands=hands,
            prize_deck=prizes[1:],
            prize=prizes[0],
            carry=0,
            bids=[None] * seats,
            won=[[] for _ in range(seats)],
            history=[],
        )

    def observe(self, state: AuctionState, seat: int | None) -> dict:
        over = self.is_over(state)
        out = {
            "round": state.round,
            "rounds": state.options["rounds"],
            "prize": prize_json(state.prize),
            "carry": state.carry,
            "hand_sizes": [len(h) for h in state.hands],
            "bid_placed": [b is not None for b in state.bids],
            "won": [list(w) for w in state.won],
            "history": [dict(h) for h in state.history],
            "timed": state.options["bid_seconds"] is not None,
        }
        if seat is not None:
            out["hand"] = [card_json(c) for c in state.hands[seat]]
            b = state.bids[seat]
            out["bid"] = None if b is None else card_json(b)
        if over:
            out["hands"] = [[card_json(c) for c in h] for h in state.hands]
            out["unused_prizes"] = [prize_json(p) for p in state.prize_deck]
        return out

    def scores(self, state: AuctionState) -> list[float] | None:
        return _scores(state) if self.is_over(state) else None

    def finish(self, state: AuctionState, end: str, events: list[Event]) -> None:
        """The game ends now, scored by the prizes won so far."""
        enter(state, OVER)
        events.append({"type": "game_over", "end": end, "scores": _scores(state)})

    def encode(self, state: AuctionState) -> dict:
        return {
            "round": state.round,
            "hands": [list(h) for h in state.hands],
            "prize_deck": list(state.prize_deck),
            "prize": state.prize,
            "carry": state.carry,
            "bids": list(state.bids),
            "won": [list(w) for w in state.won],
            "history": [dict(h) for h in state.history],
        }

    def decode(self, data: dict, common: dict[str, Any]) -> AuctionState:
        return AuctionState(
            **common,
            round=data["round"],
            hands=[list(h) for h in data["hands"]],
            prize_deck=list(data["prize_deck"]),
            prize=data["prize"],
            carry=data["carry"],
            bids=list(data["bids"]),
            won=[list(w) for w in data["won"]],
            history=[dict(h) for h in data["history"]],
        )

    def private_items(self, state: AuctionState, seat: int) -> list[Any]:
        items = [card_json(c) for c in state.hands[seat]]
        bid = state.bids[seat]
        if bid is not None:
            items.append(card_json(bid))
        return items

    def hidden_items(self, state: AuctionState) -> list[Any]:
        return [prize_json(p) for p in state.prize_deck]


class LeakyAuction(BlindAuction):
    """A deliberately broken variant: spectators see seat 0's hand (tests the leak detector)."""

    def observe(self, state: AuctionState, seat: int | None) -> dict:
        out = super().observe(state, seat)
        if seat is None:
            out["peek"] = [card_json(c) for c in state.hands[0]]
        return out


def thinking_bot(marks: str, seconds: float, hang: str | None = None):
    """A bot that takes ``seconds`` to bid its first legal card, and first leaves a file named
    ``<pid>-<ns>`` in ``marks``: tests see which process thinks (and may kill it meanwhile).
    While the file ``hang`` exists it thinks on (a bot in an endless loop, until a test lets
    it go)."""
    import os
    import time

    def think(view: dict, legal: list[dict], rng: random.Random) -> dict:
        with open(os.path.join(marks, f"{os.getpid()}-{time.monotonic_ns()}"), "w"):
            pass
        time.sleep(seconds)
        while hang is not None and os.path.exists(hang):
            time.sleep(0.05)
        return legal[0]

    return think


#: The game's strings as its own catalogue would hold them (``i18n/<lang>/blind_auction.json``).
STRINGS: dict[str, dict[str, str]] = {
    "en": {
        f"games.{NAME}.title": "Blind Auction",
        f"games.{NAME}.actions.bid": "Bid card {card}",
        f"games.{NAME}.options.rounds": "Rounds (3-8)",
        f"games.{NAME}.options.tie": "A tie discards the prize or carries it to the next",
        f"games.{NAME}.options.bid_seconds": "Seconds to bid (null: no clock)",
    },
    "zh": {
        f"games.{NAME}.title": "暗標拍賣",
        f"games.{NAME}.actions.bid": "出牌 {card}",
        f"games.{NAME}.options.rounds": "回合數（3-8）",
        f"games.{NAME}.options.tie": "平手時獎品作廢或累積到下一回合",
        f"games.{NAME}.options.bid_seconds": "出價秒數（null：不計時）",
    },
}


@contextmanager
def registered(kind: GameKind | None = None) -> Iterator[pytest.MonkeyPatch]:
    """Blind Auction (or ``kind``) in the registry and ``STRINGS`` in the catalogues, for the
    ``with`` block (a module's fixture may hold it); yields the monkeypatch that undoes both,
    for more. The pages' string scripts are cached per page kind: emptied on the way in and out."""
    import games.base
    from i18n import catalogue
    from web.i18n import _script_tag

    games.base.kinds()  # the built-in games first
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(games.base._REGISTRY, NAME, kind or BlindAuction())
        for lang, strings in STRINGS.items():
            for key, text in strings.items():
                mp.setitem(catalogue(lang), key, text)
        _script_tag.cache_clear()
        try:
            yield mp
        finally:
            _script_tag.cache_clear()


def judge_bid(view: dict, legal: list[dict], played: dict) -> Judgement | None:
    """Bids judged by the greedy bot's rule, from the bidder's hand and the prize alone: a prize
    worth 6 or more (with the carry) is worth the highest card (a bid's value is its rank), a
    smaller one the lowest (value 11 - rank)."""
    if played.get("type") != "bid":
        return None
    big = view["prize"]["value"] + view["carry"] >= 6
    ranks = {c["id"]: c["rank"] for c in view["hand"]}

    def value(action: dict) -> float:
        rank = ranks[action["card"]]
        return float(rank if big else len(RANKS) + 1 - rank)

    best = max(legal, key=value)
    return Judgement(value(played), value(best), best, len(legal))


#: A small analyst for tests: bids judged by ``judge_bid``.
BID_ANALYST = Analyst("points", "score", Thresholds(good=1.0, inaccuracy=4.0), judge_bid)


def create_app_with_testgame():
    """App factory for a gunicorn process in tests and benches: the app with Blind Auction
    (with ``TOBAGO_TEST_THINKING_DIR`` set, also its bot level ``slow``: ``thinking_bot`` for
    ``TOBAGO_TEST_THINKING_S`` seconds, default 2, and on while ``TOBAGO_TEST_HANG_FILE``
    exists)."""
    import os

    from app import create_app

    kind = BlindAuction()
    marks = os.environ.get("TOBAGO_TEST_THINKING_DIR")
    if marks:
        seconds = float(os.environ.get("TOBAGO_TEST_THINKING_S", 2))
        hang = os.environ.get("TOBAGO_TEST_HANG_FILE")
        kind.bots = {**kind.bots, "slow": thinking_bot(marks, seconds, hang)}
    register(kind)
    return create_app()
