"""DAO's rules in compact form, for the strong bot's rollouts (``games.dao.strong``): a whole
game on card types, played to its end by the normal level's rule for every seat.

Cards are types (``cards``: element x value, 25 of them); a pile is its per-element gains
(value plus one per card, ``cards.pile_gains``) and its size; the display keeps its sum of
values. The rules are the engine's (``games.dao.engine``) and the choice is the normal bot's
(``bots.greedy_bot``): ``tests/test_dao_strong.py`` plays both against the engine.

This module is the hot loop of every DAO decision (a strong decision plays up to 160 whole
games), so it is written for ``games.native``: plain typed Python that mypyc compiles to C
when ``make`` builds it, the same code, about three times faster (``tests/test_native.py``
checks the compiled copy gives the same games). It imports nothing but the card tables.
"""

# games.native: compiled

from __future__ import annotations

from typing import Final

from games.dao import cards as C

_NE: Final[int] = len(C.ELEMENTS)
_NV: Final[int] = len(C.VALUES)
_TYPES: Final[int] = C.TYPE_COUNT
_ELEMENT: Final[tuple[int, ...]] = C.TYPE_ELEMENT
_VALUE: Final[tuple[int, ...]] = C.TYPE_VALUE
_VALUES: Final[tuple[int, ...]] = C.VALUES
_BUST: Final[int] = C.BUST_ABOVE
_DISPLAY: Final[int] = C.DISPLAY_SIZE
#: The values a turned card busts a display with, each as its gain and ``(element, type)`` pairs.
_Busting = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]

#: A display whose total is at most this cannot bust on the next turn (the largest value fits).
_SAFE: Final[int] = _BUST - _VALUES[-1]


def _allowed(room: int, match_value: int) -> _Busting:
    """The values a turned card busts the display with (above ``room``, not the matched
    value), each as its gain (value plus one) and every element's ``(element, type)``."""
    return tuple(
        (v + 1, tuple((e, e * _NV + i) for e in range(_NE)))
        for i, v in enumerate(_VALUES)
        if v > room and v != match_value
    )


#: ``_allowed`` for every room below the largest value (a room below -1 busts as -1 does) and
#: every matched value, looked up per turn.
_BUSTING: Final[dict[tuple[int, int], _Busting]] = {
    (room, m): _allowed(room, m) for room in range(-1, _VALUES[-1]) for m in _VALUES
}


def greedy_move(
    g: list[int],
    disp: list[int],
    pool: list[int],
    unseen: int,
    match_first: bool,
    total: int | None = None,
) -> bool:
    """Whether the normal level turns (``True``) or takes, for a pile of per-element gains
    ``g``: turning's expected immediate score change against taking's, as ``odds.turn_odds``
    and ``odds.take_gain`` count them, so the same choice as ``bots.greedy_bot``. ``total`` is
    the display's sum of values when the caller keeps it (else it is summed here).

    Taking the first card scores ``take`` (its element's gain with the card, or the best
    element's) less the best now, less one for the card: it costs nothing only when the card
    makes its element the best. Turning changes nothing unless it may bust (``turn_gains``)."""
    first = disp[0]
    best = max(g)
    take = g[_ELEMENT[first]] + _VALUE[first] + 1
    if total is None:
        total = sum(_VALUE[t] for t in disp)
    if total <= _SAFE or not unseen:
        return take <= best  # turning changes nothing now: turn only when a take costs
    return turn_gains(g, best, take, disp, pool, unseen, match_first)


def turn_gains(
    g: list[int],
    best: int,
    take: int,
    disp: list[int],
    pool: list[int],
    unseen: int,
    match_first: bool,
) -> bool:
    """Whether turning a card onto a display that may bust gains more, in expectation, than
    taking (``greedy_move``). The sums are of whole numbers, so they are kept whole: turning's
    expected gain beats taking's (``gain / unseen > take_gain``) exactly when
    ``gain > take_gain * unseen``. A bust's score is the best element's with the display added,
    where an element's rival is the best other element (the second best for the best one)."""
    take_gain = (take if take > best else best) - best - 1
    room = _BUST
    gb = list(g)
    for t in disp:
        v = _VALUE[t]
        room -= v
        gb[_ELEMENT[t]] += v + 1
    match_value = _VALUE[disp[0] if match_first else disp[-1]]
    first_best = max(gb)
    top = gb.index(first_best)
    gb[top] = -1
    second_best = max(gb)
    gb[top] = first_best
    gain = cards = 0
    for plus, types in _BUSTING[room if room > -1 else -1, match_value]:
        for e, t in types:
            k = pool[t]
            if k:
                mine = gb[e] + plus
                other = second_best if e == top else first_best
                gain += k * (mine if mine > other else other)
                cards += k
    lost = best + len(disp) + 1  # the score now, and a point less per card a bust adds
    return gain - lost * cards > take_gain * unseen


class Table:
    """A DAO game in compact form for rollouts: card types instead of ids, each pile as its
    per-element gains ``g`` (values plus one per card, ``cards.pile_gains``) and size ``n``,
    the display's sum of values kept as ``total``.
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
        "total",
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
        self.total = sum(_VALUE[t] for t in disp)
        self.g, self.n = piles
        self.totals = totals  # the finished rounds' points per seat
        self.seats = len(self.g)
        self.round = round_
        self.to_move = 0
        self.match_first = match_first
        self.pool = [0] * _TYPES
        for deck in decks:
            for t in deck:
                self.pool[t] += 1
        self.unseen = sum(self.pool)

    def copy(self) -> Table:
        """An independent copy (a world the search plays several candidates in)."""
        other = Table(
            [list(d) for d in self.decks],
            list(self.disp),
            ([list(g) for g in self.g], list(self.n)),
            list(self.totals),
            self.round,
            self.match_first,
        )
        other.to_move = self.to_move
        return other

    def play_out(self, first: bool | None = None) -> list[float]:
        """Play the game to its end, every seat by the normal level's rule (``greedy_move``);
        with ``first``, the seat to move turns (``True``) or takes (``False``) first. The
        final totals; the table is left at the game's end.

        The hot loop of every rollout: the display, its total, the deck and the unseen count
        live in locals here, and the rest (refills, a round's end) in ``_settle``."""
        if not self.decks:
            return self.totals  # the game is over
        pool, seats, match_first = self.pool, self.seats, self.match_first
        g, n, disp, total, unseen = self.g, self.n, self.disp, self.total, self.unseen
        deck = self.decks[0]
        s = self.to_move
        turning = first
        while True:
            pile = g[s]
            if turning is None:  # the normal rule (``greedy_move``), its quick case inline
                best = max(pile)
                t = disp[0]
                take = pile[_ELEMENT[t]] + _VALUE[t] + 1
                if total <= _SAFE or not unseen:
                    turning = take <= best
                else:
                    turning = turn_gains(pile, best, take, disp, pool, unseen, match_first)
            if turning:
                t = deck.pop()
                pool[t] -= 1
                unseen -= 1
                v = _VALUE[t]
                match = _VALUE[disp[0] if match_first else disp[-1]]
                disp.append(t)
                total += v
                if total > _BUST and v != match:
                    for c in disp:
                        pile[_ELEMENT[c]] += _VALUE[c] + 1
                    n[s] += len(disp)
                    disp.clear()
                    total = 0
            else:
                t = disp.pop(0)
                total -= _VALUE[t]
                pile[_ELEMENT[t]] += _VALUE[t] + 1
                n[s] += 1
            turning = None
            s = (s + 1) % seats
            if not deck or not disp:
                self.disp, self.total, self.unseen, self.to_move = disp, total, unseen, s
                if not self._settle():
                    return self.totals
                g, n, disp, total, unseen = self.g, self.n, self.disp, self.total, self.unseen
                deck = self.decks[0]
                s = self.to_move

    def _settle(self) -> bool:
        """After a move: end the round if its deck is empty, else refill an empty display
        (which may empty the deck too). Whether the game goes on."""
        while self.decks:
            deck = self.decks[0]
            if deck and self.disp:
                return True
            if deck:
                for _ in range(min(_DISPLAY, len(deck))):
                    t = deck.pop()
                    self.pool[t] -= 1
                    self.unseen -= 1
                    self.disp.append(t)
                    self.total += _VALUE[t]
                continue
            for s in range(self.seats):
                self.totals[s] += max(self.g[s]) - self.n[s]
            self.disp = []
            self.total = 0
            self.decks.pop(0)
            if self.decks:
                self.g = [[0] * _NE for _ in range(self.seats)]
                self.n = [0] * self.seats
                self.to_move = self.round % self.seats
                self.round += 1
        return False
