"""Paying a bid (rules, A round, 1): which adventure cards pay a route, the most a hand can pay,
the ways to pay a value, and the check of a payment. Pure functions of card indices
(``games.isla_dorada.tables``), shared by the engine (a bid is legal only if the bidder's hand
can pay it; the winner pays afterwards, ``auction``) and the planner (what a bid costs it).

A route of type ``rtype`` (``None``: a flight) is paid by the cards of the kind that pays it
(Yak mountain, Kamel desert, Gonogo jungle, Kayak any water: ``tables.PAYS``) and by Drako and
Zeppelin (wild; 1 and 3 gold each when played); a flight by Drako and Zeppelin alone. A Shaman's
``conversion`` ``(source, into)`` makes every card of kind ``source`` count as ``into`` (land
routes only). A payment's value is its cards' values summed: it reaches the bid, every card in it
is needed (without its least valuable card the others fall short of the bid) and the seat has
the gold its Drako and Zeppelin cards cost.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import product

from games.isla_dorada import tables as T

#: A Shaman's conversion: every card of the first kind counts as the second (``None``: none).
Conversion = tuple[str, str] | None

_KIND = T.ADV_KIND
_VALUE = T.ADV_VALUE
_GOLD = T.ADV_GOLD


def pays(card: int, rtype: str | None, conversion: Conversion = None) -> bool:
    """Whether ``card`` pays a route of type ``rtype`` (``None``: a flight)."""
    if T.ADV_WILD[card]:
        return True
    if rtype is None:
        return False
    kind = _KIND[card]
    if conversion is not None and kind == conversion[0]:
        kind = conversion[1]
    return rtype in T.PAYS.get(kind, ())


def _groups(cards: Iterable[int], rtype: str | None, conversion: Conversion) -> list[list[int]]:
    """The paying cards by kind (each group's cards alike in value and gold), lowest ids first."""
    by_kind: dict[str, list[int]] = {}
    for c in sorted(cards):
        if pays(c, rtype, conversion):
            by_kind.setdefault(_KIND[c], []).append(c)
    return list(by_kind.values())


#: Each wild kind's place in ``tables.WILD_KINDS`` (Drako, Zeppelin), its value and its gold.
_WILD_INDEX = {kind: i for i, kind in enumerate(T.WILD_KINDS)}
_WILD_VALUE = tuple(_VALUE[T.ADV_KIND.index(k)] for k in T.WILD_KINDS)
_WILD_GOLD = tuple(_GOLD[T.ADV_KIND.index(k)] for k in T.WILD_KINDS)


@cache
def _wild_most(counts: tuple[int, ...], gold: int) -> int:
    """The most ``counts`` wild cards of each wild kind pay within ``gold`` (each played card
    costs its kind's gold): every mix tried, once per (counts, gold) in a process."""
    best = 0
    for chosen in product(*(range(n + 1) for n in counts)):
        spent = sum(n * g for n, g in zip(chosen, _WILD_GOLD, strict=True))
        if spent <= gold:
            best = max(best, sum(n * v for n, v in zip(chosen, _WILD_VALUE, strict=True)))
    return best


class Purse:
    """A hand's paying power, worked out once (a bidder's legal bids ask it for every route):
    the value of each kind's paying cards, and the most its Drako and Zeppelin cards pay within
    its gold."""

    def __init__(self, cards: Iterable[int], gold: int) -> None:
        self.value: dict[str, int] = {}
        wild = [0] * len(T.WILD_KINDS)
        for c in cards:
            kind = _KIND[c]
            if T.ADV_WILD[c]:
                wild[_WILD_INDEX[kind]] += 1
            elif kind in T.PAYS:
                self.value[kind] = self.value.get(kind, 0) + _VALUE[c]
        self.wild = _wild_most(tuple(wild), gold)

    def most(self, rtype: str | None, conversion: Conversion = None) -> int:
        """The most the hand pays on a route of type ``rtype`` (``None``: a flight)."""
        total = self.wild
        if rtype is not None:
            for kind, value in self.value.items():
                if conversion is not None and kind == conversion[0]:
                    kind = conversion[1]
                if rtype in T.PAYS.get(kind, ()):
                    total += value
        return total


def most(cards: Iterable[int], gold: int, rtype: str | None, conversion: Conversion = None) -> int:
    """The most ``cards`` can pay on a route of type ``rtype`` with ``gold`` to spend."""
    return Purse(cards, gold).most(rtype, conversion)


def needed(cards: list[int], value: int) -> bool:
    """Every card is needed: the cards reach ``value`` and without the least one they do not."""
    total = sum(_VALUE[c] for c in cards)
    return total >= value and (not cards or total - min(_VALUE[c] for c in cards) < value)


def ways(
    cards: Iterable[int], gold: int, rtype: str | None, value: int, conversion: Conversion = None
) -> list[list[int]]:
    """Every way to pay ``value`` (cards alike count once: how many of each kind), each with the
    lowest card ids of its kinds, the fewest gold first; empty when the cards cannot pay it."""
    if value <= 0:
        return [[]]
    groups = _groups(cards, rtype, conversion)
    out: list[tuple[int, int, list[int]]] = []
    for counts in product(*(range(len(g) + 1) for g in groups)):
        chosen = [c for n, g in zip(counts, groups, strict=True) for c in g[:n]]
        cost = sum(_GOLD[c] for c in chosen)
        if cost <= gold and needed(chosen, value):
            out.append((cost, len(chosen), chosen))
    out.sort(key=lambda w: (w[0], w[1], w[2]))
    return [w[2] for w in out]


def cost(cards: Iterable[int]) -> int:
    """The gold a payment costs (its Drako and Zeppelin cards)."""
    return sum(_GOLD[c] for c in cards)
