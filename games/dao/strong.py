"""DAO's strong bot: determinized rollouts of take against turn, played to the game's end by the
normal policy. It reads only its seat's view.

**What it samples** (``Dealer``): the cards never seen face up (``view["unseen"]``: the decks
of this round and of the rounds to come, whose order nobody knows) are shuffled into this
round's deck (``view["deck"]`` cards) and the later rounds' decks; the cards in the other
seats' piles are known together (every card reaches a pile through the face-up display: all 60
less the unseen, my pile, the display and the finished rounds, as ``odds.others_estimate``
counts them) but not who holds which, so they are dealt out at random to the other seats in
the counts the view shows (with 2 seats that is exactly the opponent's pile). A view that does
not add up (``Inconsistent``) gives the default move.

**A rollout** (``games.dao.rollout.Table``, a compact copy of the engine's rules on card
types, compiled by ``games.native`` when built: a whole 4-seat game by the normal rule in
about 0.05 ms, some ninety times less than through the engine with a view per action) applies
the candidate for this seat and plays every seat, this one too, by the ``normal`` level's rule
(``rollout.greedy_move``: the better immediate expected score change, exactly the choice
``bots.greedy_bot`` makes from a view) to the game's end, the later rounds included.
Its value is my win share (a win shared by k counts 1/k) plus ``POINT_WEIGHT`` x my final total
less the best other seat's (``evaluate``): the lead in points counts most, being far less noisy
than the win alone (at 4 seats against three normal bots, 160 rollouts a decision, the bot won
0.347 of 200 games so and 0.310 of the same games valued by the win alone).

**The choice**: the default move is the one-turn look-ahead (``bots.ev_bot``, the level this
one replaced, handed in by ``bots.strong_bot``); take and turn are each played in the same
determinizations (``games.search``), and the other action is played only when its
mean value beats the default's by more than ``MARGIN``.

**The think budget** is the shared search's (``games.search``): a count of rollouts, never a
clock, ``SETTINGS.rollouts`` at full effort unless the ``Thinking`` handed in names another for
``dao`` (where the bots run, ``DAO_STRONG_ROLLOUTS``, read by the app at start-up), scaled by its
effort; the same view, generator and ``Thinking`` give the same move. The search races: the
other action drops out as soon as it is clearly worse, which most decisions show in a few
rollouts (``bench/strong_bots_bench.py``'s DAO rows print the CPU p99 and the rollouts spent).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games import native
from games.base import Action
from games.dao import cards as C
from games.dao import rollout as rules
from games.search import Decision, Problem, Settings, lead, mean_values, search, win_share
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking

#: The other move is played only when its mean value beats the default's by more than this.
MARGIN = 0.01
#: What a point of final lead adds to a rollout's value (its win share counts 1).
POINT_WEIGHT = 1.0

_NE = len(C.ELEMENTS)
_NV = len(C.VALUES)
_ELEMENT = C.TYPE_ELEMENT
_VALUE = C.TYPE_VALUE
#: The compact rules the rollouts play (``games.dao.rollout``): its compiled copy when built
#: (``games.native``), else the module itself; ``Table`` is the class to deal worlds into.
RULES = native.load("games.dao.rollout")
Table: type[rules.Table] = RULES.Table
_TAKE = {"type": "take"}
_TURN = {"type": "turn"}


class Inconsistent(ValueError):
    """The view's counts do not add up to a deck of 60 cards."""


#: The search's settings: 160 rollouts a decision at full effort, shared by take and turn, raced
#: (64 held the CPU down before the rollouts were compiled, at a lower win share: README).
SETTINGS = Settings("dao", 160, MARGIN, Inconsistent)


def _counts(cards: list[dict], into: list[int]) -> None:
    """Take ``cards`` (JSON cards) off the per-type counts ``into``."""
    for c in cards:
        into[C.ELEMENT_INDEX[c["element"]] * _NV + C.VALUE_INDEX[c["value"]]] -= 1


def _expand(counts: list[int]) -> list[int]:
    return [t for t, k in enumerate(counts) for _ in range(k)]


def _others(view: dict, unseen: list[int]) -> list[int]:
    """The per-type counts of the cards the other seats hold: the game's cards less the unseen
    ones, mine, the display's and the finished rounds'."""
    others = [f - u for f, u in zip(C.FULL_TYPE_COUNTS, unseen, strict=True)]
    _counts(view["players"][view["you"]]["cards"] or [], others)
    _counts(view["display"], others)
    for finished in view.get("finished", []):
        for pile in finished["piles"]:
            _counts(pile, others)
        _counts(finished["left"], others)
    return others


class Dealer:
    """What a view fixes of the worlds drawn from it (module doc), read once per decision: the
    unseen cards, the others' cards, my pile, the display, the finished rounds' points. Each
    ``deal`` shuffles copies of the same lists with the generator given, so the same
    generator gives the same world. A view that does not add up raises ``Inconsistent``
    here."""

    def __init__(self, view: dict) -> None:
        me = self.me = view["you"]
        unseen = [0] * C.TYPE_COUNT
        for e, name in enumerate(C.ELEMENTS):
            for i, k in enumerate(view["unseen"][name]):
                unseen[e * _NV + i] = k
        others = _others(view, unseen)
        players = view["players"]
        self.counts = [p["count"] for p in players]  # pile sizes; mine from my cards, below
        held = sum(k for s, k in enumerate(self.counts) if s != me)
        if min(others) < 0 or sum(others) != held or not view["display"]:
            raise Inconsistent("the view's cards do not add up")
        self.deck = _expand(unseen)
        self.deck_size = view["deck"]
        self.later = view["rounds"] - view["round"]
        if self.deck_size > len(self.deck) or (self.later == 0) != (
            self.deck_size == len(self.deck)
        ):
            raise Inconsistent("the view's decks do not add up")
        self.held = _expand(others)
        self.mine = [0] * _NE
        mine = players[me]["cards"] or []
        for c in mine:
            self.mine[C.ELEMENT_INDEX[c["element"]]] += c["value"] + 1
        self.counts[me] = len(mine)
        self.totals = [0.0] * len(players)
        for finished in view.get("finished", []):
            for s, points in enumerate(finished["scores"]):
                self.totals[s] += points
        self.disp = [C.type_of(C.ELEMENT_INDEX[c["element"]], c["value"]) for c in view["display"]]
        self.round = view["round"]
        self.match_first = view["options"].get("bust_match") == "first"

    def deal(self, rng: random.Random) -> rules.Table:
        """A whole game, ready for my seat to move: the unseen cards shuffled into this
        round's deck and the later rounds' (split evenly), the others' cards shuffled and
        dealt out in seat order in the counts the view shows."""
        deck = list(self.deck)
        rng.shuffle(deck)
        decks = [deck[: self.deck_size]]
        rest = deck[self.deck_size :]
        for r in range(self.later):
            size = len(rest) // (self.later - r)
            decks.append(rest[:size])
            rest = rest[size:]
        pool = list(self.held)
        rng.shuffle(pool)
        g = [list(self.mine) if s == self.me else [0] * _NE for s in range(len(self.counts))]
        at = 0
        for s, count in enumerate(self.counts):
            if s != self.me:
                pile = g[s]
                for t in pool[at : at + count]:
                    pile[_ELEMENT[t]] += _VALUE[t] + 1
                at += count
        n = list(self.counts)
        table = Table(
            decks, list(self.disp), (g, n), list(self.totals), self.round, self.match_first
        )
        table.to_move = self.me
        return table


def evaluate(final: list[float], seat: int) -> float:
    """A rollout's value: the win share (ties shared) plus ``POINT_WEIGHT`` x ``lead`` (the
    seat's total less the best other seat's)."""
    return win_share(final, seat) + POINT_WEIGHT * lead(final, seat)


def rollout(table: rules.Table, seat: int, move: Action) -> list[float]:
    """Play ``move`` for ``seat`` on ``table``, then the game out; the final totals."""
    table.to_move = seat
    return table.play_out(move["type"] == "turn")


Value = Callable[[list[float], int], float]


def values(
    view: dict, moves: list[Action], rng: random.Random, each: int, value: Value = evaluate
) -> list[float] | None:
    """Every move's mean ``value`` over the same ``each`` sampled deals (``None``: the view does
    not add up): the comparison the review's analysis makes."""
    seat = view["you"]
    try:
        dealer = Dealer(view)
    except Inconsistent:
        return None
    return mean_values(
        moves,
        rng,
        each,
        lambda move, world: value(rollout(dealer.deal(world), seat, move), seat),
        Inconsistent,
    )


def choose(
    view: dict,
    legal: list[Action],
    rng: random.Random,
    default: Action,
    thinking: Thinking = DEFAULT_THINKING,
) -> Decision:
    """The strong bot's decision (module doc): take and turn in the same determinizations
    (``games.search``), ``default`` (the one-turn look-ahead's move) unless the other beats it
    by more than ``MARGIN``."""
    if len(legal) < 2:
        return Decision(dict(default))
    moves: list[Action] = [default, dict(_TAKE if default["type"] == "turn" else _TURN)]
    seat = view["you"]
    try:
        dealer = Dealer(view)
    except Inconsistent:
        return Decision(dict(default))
    problem: Problem[rules.Table] = Problem(
        moves,
        dealer.deal,
        lambda table, move: evaluate(rollout(table, seat, move), seat),
        Table.copy,
    )
    return search(SETTINGS, problem, rng, thinking)
