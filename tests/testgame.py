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
(``registered``), and ``create_app_with_testgame`` does it for a gunicorn process.
"""

from __future__ import annotations

import random
from typing import Any

from errors import IllegalAction, InvalidInput
from games.base import GameKind, GameType, OptionSpec, Timer, register

NAME = "blind_auction"
SUITS = ("S", "H", "D", "C")
RANKS = tuple(range(1, 11))
PRIZES = tuple(range(1, 11))


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


class BlindAuction(GameKind):
    """The engine; the state is a plain JSON-able dict (all chance is dealt in ``setup``).

    Option ``bid_seconds`` (default ``None``: no clock) makes every round a timed phase: when
    it runs out, the table's ``{"type": "timeout"}`` makes every seat that has not bid yet bid
    its lowest card (the test game of the service's time model).
    """

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
            {"random": random_bot, "greedy": greedy_bot, "patient": patient_bot},
        )

    def setup(self, seed: int, seats: int, options: dict) -> dict:
        opts = options
        rng = random.Random(seed)
        deck = list(range(len(SUITS) * len(RANKS)))
        rng.shuffle(deck)
        per = opts["rounds"] + 1
        hands = [sorted(deck[i * per : (i + 1) * per]) for i in range(seats)]
        prizes = list(range(len(PRIZES)))
        rng.shuffle(prizes)
        return {
            "options": opts,
            "seats": seats,
            "round": 1,
            "hands": hands,
            "prize_deck": prizes[1:],
            "prize": prizes[0],
            "carry": 0,
            "bids": [None] * seats,
            "won": [[] for _ in range(seats)],
            "history": [],
            "over": False,
            "moves": 0,
            "round_since": 0,
        }

    def to_act(self, state: dict) -> list[int]:
        if state["over"]:
            return []
        return [s for s in range(state["seats"]) if state["bids"][s] is None]

    def legal(self, state: dict, seat: int) -> list[dict]:
        return [{"type": "bid", "card": c} for c in state["hands"][seat]]

    def timer(self, state: dict) -> Timer | None:
        seconds = state["options"]["bid_seconds"]
        if seconds is None or state["over"]:
            return None
        return Timer(state["round_since"], float(seconds), {"type": "timeout"})

    def play(self, state: dict, seat: int | None, action: dict) -> list[dict]:
        if seat is None:  # the clock ran out: the late seats bid their lowest card
            state["moves"] += 1
            events: list[dict] = []
            for s in self.to_act(state):
                card = min(state["hands"][s], key=rank)
                state["hands"][s].remove(card)
                state["bids"][s] = card
                events.append({"type": "bid_placed", "seat": s, "late": True})
            return events + self._resolve(state)
        if action["type"] != "bid":
            raise InvalidInput('an action is {"type": "bid", "card": <card id>}', "action.type")
        card = action.get("card")
        if isinstance(card, bool) or not isinstance(card, int):
            raise InvalidInput(f"card must be a card id, got {card!r}", "action.card")
        if set(action) - {"type", "card"}:
            raise InvalidInput(f"unknown fields {sorted(set(action) - {'type', 'card'})}", "action")
        if card not in state["hands"][seat]:
            raise IllegalAction(f"card {card} is not in seat {seat}'s hand", "action.card")
        # validated: mutate
        state["moves"] += 1
        state["hands"][seat].remove(card)
        state["bids"][seat] = card
        events = [{"type": "bid_placed", "seat": seat}]
        if all(b is not None for b in state["bids"]):
            events += self._resolve(state)
        return events

    def _resolve(self, state: dict) -> list[dict]:
        bids = state["bids"]
        top = max(rank(b) for b in bids)
        best = [s for s, b in enumerate(bids) if rank(b) == top]
        worth = PRIZES[state["prize"]] + state["carry"]
        winner = best[0] if len(best) == 1 else None
        state["carry"] = 0
        if winner is not None:
            state["won"][winner].append(worth)
        elif state["options"]["tie"] == "carry":
            state["carry"] = worth
        record = {
            "round": state["round"],
            "prize": prize_json(state["prize"]),
            "bids": [card_json(b) for b in bids],
            "winner": winner,
            "worth": worth,
        }
        state["history"].append(record)
        events = [{"type": "bids_revealed", **record}]
        state["bids"] = [None] * state["seats"]
        state["round_since"] = state["moves"]
        if state["round"] == state["options"]["rounds"]:
            state["over"] = True
            events.append({"type": "game_over", "scores": self.scores(state)})
        else:
            state["round"] += 1
            state["prize"] = state["prize_deck"].pop(0)
            events.append({"type": "prize_turned", "prize": prize_json(state["prize"])})
        return events

    def observe(self, state: dict, seat: int | None) -> dict:
        out = {
            "round": state["round"],
            "rounds": state["options"]["rounds"],
            "prize": prize_json(state["prize"]),
            "carry": state["carry"],
            "hand_sizes": [len(h) for h in state["hands"]],
            "bid_placed": [b is not None for b in state["bids"]],
            "won": [list(w) for w in state["won"]],
            "history": [dict(h) for h in state["history"]],
            "timed": state["options"]["bid_seconds"] is not None,
        }
        if seat is not None:
            out["hand"] = [card_json(c) for c in state["hands"][seat]]
            b = state["bids"][seat]
            out["bid"] = None if b is None else card_json(b)
        if state["over"]:
            out["hands"] = [[card_json(c) for c in h] for h in state["hands"]]
            out["unused_prizes"] = [prize_json(p) for p in state["prize_deck"]]
        return out

    def is_over(self, state: dict) -> bool:
        return state["over"]

    def scores(self, state: dict) -> list[float] | None:
        return [float(sum(w)) for w in state["won"]] if state["over"] else None

    def state_to_json(self, state: dict) -> dict:
        return state

    def state_from_json(self, data: dict) -> dict:
        if not isinstance(data, dict) or not {"hands", "bids", "seats"} <= data.keys():
            raise ValueError("not a Blind Auction state")  # a real engine would fail on it too
        return data

    def seat_count(self, state: dict) -> int:
        return state["seats"]

    def private_items(self, state: dict, seat: int) -> list[Any]:
        items = [card_json(c) for c in state["hands"][seat]]
        if state["bids"][seat] is not None:
            items.append(card_json(state["bids"][seat]))
        return items

    def hidden_items(self, state: dict) -> list[Any]:
        return [prize_json(p) for p in state["prize_deck"]]


class LeakyAuction(BlindAuction):
    """A deliberately broken variant: spectators see seat 0's hand (tests the leak detector)."""

    def observe(self, state: dict, seat: int | None) -> dict:
        out = super().observe(state, seat)
        if seat is None:
            out["peek"] = [card_json(c) for c in state["hands"][0]]
        return out


def thinking_bot(marks: str, seconds: float):
    """A bot that takes ``seconds`` to bid its first legal card, and first leaves a file named
    ``<pid>-<ns>`` in ``marks``: tests see which process thinks (and may kill it meanwhile)."""
    import os
    import time

    def think(view: dict, legal: list[dict], rng: random.Random) -> dict:
        with open(os.path.join(marks, f"{os.getpid()}-{time.monotonic_ns()}"), "w"):
            pass
        time.sleep(seconds)
        return legal[0]

    return think


def create_app_with_testgame():
    """App factory for a gunicorn process in tests and benches: the app with Blind Auction
    (with ``TOBAGO_TEST_THINKING_DIR`` set, also its bot level ``slow``: ``thinking_bot`` for
    ``TOBAGO_TEST_THINKING_S`` seconds, default 2)."""
    import os

    from app import create_app

    kind = BlindAuction()
    marks = os.environ.get("TOBAGO_TEST_THINKING_DIR")
    if marks:
        seconds = float(os.environ.get("TOBAGO_TEST_THINKING_S", 2))
        kind.bots = {**kind.bots, "slow": thinking_bot(marks, seconds)}
    register(kind)
    return create_app()
