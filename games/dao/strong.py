"""DAO's strong bot: determinized rollouts of take against turn, played to the game's end by the
normal policy. It reads only its seat's view.

**What it samples** (``sample``): the cards never seen face up (``view["unseen"]``: the decks
of this round and of the rounds to come, whose order nobody knows) are shuffled into this
round's deck (``view["deck"]`` cards) and the later rounds' decks; the cards in the other
seats' piles are known together (every card reaches a pile through the face-up display: all 60
less the unseen, my pile, the display and the finished rounds, as ``odds.others_estimate``
counts them) but not who holds which, so they are dealt out at random to the other seats in
the counts the view shows (with 2 seats that is exactly the opponent's pile). A view that does
not add up (``Inconsistent``) gives the default move.

**A rollout** (``Table``, a compact copy of the engine's rules on card types: a whole 4-seat
game by the normal rule in about 0.3 ms, some fifteen times less than through the engine with a
view per action) applies the candidate for this seat and plays every seat, this one too, by the
``normal`` level's rule (``greedy_move``: the better immediate expected score change, exactly
the choice ``bots.greedy_bot`` makes from a view) to the game's end, the later rounds included.
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

from games.base import Action
from games.dao import cards as C
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
_TAKE = {"type": "take"}
_TURN = {"type": "turn"}


class Inconsistent(ValueError):
    """The view's counts do not add up to a deck of 60 cards."""


#: The search's settings: 64 rollouts a decision at full effort, shared by take and turn (160
#: before the search raced and each deal was sampled once for both actions).
SETTINGS = Settings("dao", 64, MARGIN, Inconsistent)


def greedy_move(
    g: list[int], n: int, disp: list[int], pool: list[int], unseen: int, match_first: bool
) -> bool:
    """Whether the normal level turns (``True``) or takes: turning's expected immediate score
    change against taking's, counted as ``odds.turn_odds`` and ``odds.take_gain`` count them
    (the same sums in the same order, so the same choice as ``bots.greedy_bot``)."""
    first = disp[0]
    e0 = _ELEMENT[first]
    best = max(g)
    take = g[e0] + _VALUE[first] + 1
    for i in range(_NE):
        if i != e0 and g[i] > take:
            take = g[i]
    take_gain = take - best - 1
    total = 0
    for t in disp:
        total += _VALUE[t]
    room = C.BUST_ABOVE - total
    if room >= C.VALUES[-1] or not unseen:
        return take_gain < 0  # turning changes nothing now: turn only when a take costs
    match_v = _VALUE[disp[0] if match_first else disp[-1]]
    gb = list(g)
    for t in disp:
        gb[_ELEMENT[t]] += _VALUE[t] + 1
    nb = n + len(disp) + 1
    base = best - n
    order = sorted(range(_NE), key=gb.__getitem__, reverse=True)
    top, second = order[0], order[1]
    gain_sum = 0.0
    for t in range(C.TYPE_COUNT):
        k = pool[t]
        v = _VALUE[t]
        if not k or v <= room or v == match_v:
            continue
        e = _ELEMENT[t]
        other = gb[second] if e == top else gb[top]
        mine = gb[e] + v + 1
        gain_sum += k * ((mine if mine > other else other) - nb - base)
    return gain_sum / unseen > take_gain


class Table:
    """A DAO game in compact form for rollouts: card types instead of ids, each pile as its
    per-element gains ``g`` (values plus one per card, ``cards.pile_gains``) and size ``n``.
    The rules are the engine's (``games.dao.engine``): take, turn, bust and its exception, the
    refill of an empty display, the round's end the moment its deck is empty, the next round
    started by the next seat."""

    __slots__ = (
        "decks",
        "disp",
        "g",
        "match_first",
        "n",
        "pool",
        "round",
        "seats",
        "to_move",
        "totals",
        "unseen",
    )

    def __init__(
        self,
        decks: list[list[int]],
        disp: list[int],
        piles: tuple[list[list[int]], list[int]],
        totals: list[float],
        round_: int,
        match_first: bool,
    ) -> None:
        self.decks = decks  # this round's deck first, then the later rounds'; the top card last
        self.disp = disp
        self.g, self.n = piles
        self.totals = totals  # the finished rounds' points per seat
        self.seats = len(self.g)
        self.round = round_
        self.to_move = 0
        self.match_first = match_first
        self.pool = [0] * C.TYPE_COUNT
        for deck in decks:
            for t in deck:
                self.pool[t] += 1
        self.unseen = sum(self.pool)

    def copy(self) -> Table:
        """An independent copy (a world the search plays several candidates in)."""
        other = Table.__new__(Table)
        other.decks = [list(d) for d in self.decks]
        other.disp = list(self.disp)
        other.g = [list(g) for g in self.g]
        other.n = list(self.n)
        other.totals = list(self.totals)
        other.pool = list(self.pool)
        for name in ("seats", "round", "to_move", "match_first", "unseen"):
            setattr(other, name, getattr(self, name))
        return other

    def take(self, seat: int) -> None:
        self.to_move = (seat + 1) % self.seats
        t = self.disp.pop(0)
        self.g[seat][_ELEMENT[t]] += _VALUE[t] + 1
        self.n[seat] += 1
        if not self.disp:
            self._refill()

    def turn(self, seat: int) -> None:
        self.to_move = (seat + 1) % self.seats
        deck, disp = self.decks[0], self.disp
        t = deck.pop()
        self.pool[t] -= 1
        self.unseen -= 1
        match = disp[0] if self.match_first else disp[-1]
        disp.append(t)
        total = 0
        for c in disp:
            total += _VALUE[c]
        if total > C.BUST_ABOVE and _VALUE[t] != _VALUE[match]:
            g = self.g[seat]
            for c in disp:
                g[_ELEMENT[c]] += _VALUE[c] + 1
            self.n[seat] += len(disp)
            disp.clear()
        if not deck:
            self._end_round()
        elif not disp:
            self._refill()

    def _refill(self) -> None:
        deck = self.decks[0]
        for _ in range(min(C.DISPLAY_SIZE, len(deck))):
            t = deck.pop()
            self.pool[t] -= 1
            self.unseen -= 1
            self.disp.append(t)
        if not deck:
            self._end_round()

    def _end_round(self) -> None:
        for s in range(self.seats):
            self.totals[s] += max(self.g[s]) - self.n[s]
        self.disp = []
        self.decks.pop(0)
        if self.decks:
            self.g = [[0] * _NE for _ in range(self.seats)]
            self.n = [0] * self.seats
            self.to_move = self.round % self.seats
            self.round += 1
            self._refill()

    def play_out(self) -> list[float]:
        """Every seat plays the normal level's rule to the game's end; the final totals."""
        while self.decks:
            s = self.to_move
            if greedy_move(
                self.g[s], self.n[s], self.disp, self.pool, self.unseen, self.match_first
            ):
                self.turn(s)
            else:
                self.take(s)
        return self.totals


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


def _dealt(players: list[dict], me: int, pool: list[int]) -> tuple[list[list[int]], list[int]]:
    """Each seat's hand as (points per element, card count): mine as I see it, the others'
    dealt from the shuffled ``pool`` in seat order."""
    g = [[0] * _NE for _ in players]
    n = [0] * len(players)
    for c in players[me]["cards"] or []:
        g[me][C.ELEMENT_INDEX[c["element"]]] += c["value"] + 1
        n[me] += 1
    for s, p in enumerate(players):
        if s == me:
            continue
        for t in pool[: p["count"]]:
            g[s][_ELEMENT[t]] += _VALUE[t] + 1
        n[s] = p["count"]
        pool = pool[p["count"] :]
    return g, n


def sample(view: dict, rng: random.Random) -> Table:
    """A whole game drawn from ``view`` (module doc), ready for the seat ``view["you"]`` to
    move: the unseen cards shuffled into the decks, the others' cards dealt out at random."""
    me = view["you"]
    unseen = [0] * C.TYPE_COUNT
    for e, name in enumerate(C.ELEMENTS):
        for i, k in enumerate(view["unseen"][name]):
            unseen[e * _NV + i] = k
    others = _others(view, unseen)
    players = view["players"]
    held = [p["count"] for s, p in enumerate(players) if s != me]
    if min(others) < 0 or sum(others) != sum(held) or not view["display"]:
        raise Inconsistent("the view's cards do not add up")
    deck = _expand(unseen)
    later = view["rounds"] - view["round"]
    if view["deck"] > len(deck) or (later == 0) != (view["deck"] == len(deck)):
        raise Inconsistent("the view's decks do not add up")
    rng.shuffle(deck)
    decks = [deck[: view["deck"]]]
    rest = deck[view["deck"] :]
    for r in range(later):
        size = len(rest) // (later - r)
        decks.append(rest[:size])
        rest = rest[size:]
    pool = _expand(others)
    rng.shuffle(pool)
    hands = _dealt(players, me, pool)
    totals = [0.0] * len(players)
    for finished in view.get("finished", []):
        for s, points in enumerate(finished["scores"]):
            totals[s] += points
    disp = [C.type_of(C.ELEMENT_INDEX[c["element"]], c["value"]) for c in view["display"]]
    match_first = view["options"].get("bust_match") == "first"
    table = Table(decks, disp, hands, totals, view["round"], match_first)
    table.to_move = me
    return table


def evaluate(final: list[float], seat: int) -> float:
    """A rollout's value: the win share (ties shared) plus ``POINT_WEIGHT`` x ``lead`` (the
    seat's total less the best other seat's)."""
    return win_share(final, seat) + POINT_WEIGHT * lead(final, seat)


def rollout(table: Table, seat: int, move: Action) -> list[float]:
    """Play ``move`` for ``seat`` on ``table``, then the game out; the final totals."""
    if move["type"] == "turn":
        table.turn(seat)
    else:
        table.take(seat)
    return table.play_out()


Value = Callable[[list[float], int], float]


def values(
    view: dict, moves: list[Action], rng: random.Random, each: int, value: Value = evaluate
) -> list[float] | None:
    """Every move's mean ``value`` over the same ``each`` sampled deals (``None``: the view does
    not add up): the comparison the review's analysis makes."""
    seat = view["you"]
    return mean_values(
        moves,
        rng,
        each,
        lambda move, world: value(rollout(sample(view, world), seat, move), seat),
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
    problem: Problem[Table] = Problem(
        moves,
        lambda r: sample(view, r),
        lambda table, move: evaluate(rollout(table, seat, move), seat),
        Table.copy,
    )
    return search(SETTINGS, problem, rng, thinking)
