"""DAO odds from one seat's view: the helper panel and the expected-value bot's arithmetic.

Everything here is a pure function of a view (no state, no hidden information). The next card
turned is equally likely to be any card never seen face up (``view["unseen"]``): the order of the
cards not yet seen is uniformly random, also in round 1 of the two-round game where the unseen
pool holds both halves. Probabilities are therefore exact counts over that pool.

Scores use the identity ``score = max_e (sum_e + count_e) - n``: each card of the chosen element
``e`` is worth its value plus one, every card is charged 1. We keep ``g[e] = sum_e + count_e`` per
element and ``n`` (pile size); adding a card of element ``e`` and value ``v`` adds ``v + 1`` to
``g[e]`` and 1 to ``n``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.dao import cards as C

_NE = len(C.ELEMENTS)
_NV = len(C.VALUES)
#: The (type, element, value) of every card type, for loops over the unseen pool.
_TYPES = tuple((t, C.TYPE_ELEMENT[t], C.TYPE_VALUE[t]) for t in range(C.TYPE_COUNT))


@dataclass
class Position:
    """The part of a view the odds need, in compact form."""

    g: Sequence[float]  # per element: sum of values + count, own pile (others: an estimate)
    n: float  # own pile size (others: an estimate)
    disp: list[tuple[int, int]]  # display as (element, value), first card first
    pool: list[int]  # per card type: unseen count
    unseen: int  # sum(pool)
    deck: int  # cards left in this round's deck
    match_first: bool  # bust_match == "first"

    @property
    def total(self) -> int:
        return sum(v for _, v in self.disp)

    def score(self) -> float:
        return max(self.g) - self.n


def position_from_view(view: dict) -> Position:
    """Read a seat's view (``view["you"]`` must be a seat whose cards are visible)."""
    pile = view["players"][view["you"]]["cards"] or []
    g = [0] * _NE
    for card in pile:
        g[C.ELEMENT_INDEX[card["element"]]] += card["value"] + 1
    pool = [0] * C.TYPE_COUNT
    for e, name in enumerate(C.ELEMENTS):
        for i, count in enumerate(view["unseen"][name]):
            pool[e * _NV + i] = count
    disp = [(C.ELEMENT_INDEX[c["element"]], c["value"]) for c in view["display"]]
    return Position(
        g=g,
        n=len(pile),
        disp=disp,
        pool=pool,
        unseen=sum(pool),
        deck=view["deck"],
        match_first=view["options"].get("bust_match") == "first",
    )


def _best_after(g: Sequence[float], e: int, add: int) -> float:
    """``max(g)`` after adding ``add`` to ``g[e]`` (without copying)."""
    best = g[e] + add
    for i in range(_NE):
        if i != e and g[i] > best:
            best = g[i]
    return best


def take_gain(pos: Position) -> float:
    """Score change of taking the display's first card."""
    e, v = pos.disp[0]
    return _best_after(pos.g, e, v + 1) - max(pos.g) - 1


@dataclass
class TurnOdds:
    """What turning the top card does, counted over the unseen pool."""

    bust_cards: int  # unseen cards that would bust
    save_cards: int  # unseen cards that exceed 12 but match (the exception)
    unseen: int
    expected_gain: float  # expected score change now (0 unless busting)
    gain_if_bust: float | None  # expected score change given a bust

    @property
    def bust_probability(self) -> float:
        return self.bust_cards / self.unseen if self.unseen else 0.0


def turn_odds(pos: Position) -> TurnOdds:
    """Exact bust probability and expected immediate score change of turning."""
    total = pos.total
    room = C.BUST_ABOVE - total
    match_v = pos.disp[0][1] if pos.match_first else pos.disp[-1][1]
    # The pile as it would be after a bust, before the turned card: own pile + the display.
    gb = list(pos.g)
    for e, v in pos.disp:
        gb[e] += v + 1
    nb = pos.n + len(pos.disp) + 1
    base = max(pos.g) - pos.n
    # Best and second best of gb, to get max(gb with gb[e] += v+1) in O(1).
    order = sorted(range(_NE), key=gb.__getitem__, reverse=True)
    top, second = order[0], order[1]
    bust = save = 0
    gain_sum = 0.0
    for t, e, v in _TYPES:
        k = pos.pool[t]
        if not k or v <= room:
            continue
        if v == match_v:
            save += k
            continue
        other = gb[second] if e == top else gb[top]
        mine = gb[e] + v + 1
        bust += k
        gain_sum += k * ((mine if mine > other else other) - nb - base)
    u = pos.unseen
    return TurnOdds(
        bust_cards=bust,
        save_cards=save,
        unseen=u,
        expected_gain=gain_sum / u if u else 0.0,
        gain_if_bust=gain_sum / bust if bust else None,
    )


def helper(view: dict) -> dict[str, Any] | None:
    """The helper panel for the seat in ``view``: odds of turning, take vs turn, element scores.

    ``None`` for a spectator view or a finished game. Gains are immediate score changes (a take
    is certain; a turn scores only when it busts); ``advice`` is the better of the two.
    """
    if view.get("you") is None or view.get("over") or not view["display"]:
        return None
    return position_helper(position_from_view(view))


def position_helper(pos: Position) -> dict[str, Any]:
    """``helper`` from a ``Position`` (the engine builds one straight from the state)."""
    odds = turn_odds(pos)
    take = take_gain(pos)
    scores = [g - pos.n for g in pos.g]
    best = max(scores)
    e, v = pos.disp[0]
    return {
        "bust_probability": odds.bust_probability,
        "bust_cards": odds.bust_cards,
        "save_cards": odds.save_cards,
        "unseen": odds.unseen,
        "take": {"card": {"element": C.ELEMENTS[e], "value": v}, "gain": take},
        "turn": {"gain": odds.expected_gain, "gain_if_bust": odds.gain_if_bust},
        "advice": "take" if take >= odds.expected_gain else "turn",
        "element_scores": dict(zip(C.ELEMENTS, scores, strict=True)),
        "best_element": C.ELEMENTS[scores.index(best)],
        "score": best,
    }


# --- look-ahead for the expected-value bot ---------------------------------------------------


def others_estimate(view: dict) -> tuple[list[float], float]:
    """The other seats' average pile as ``(g, n)``, from public knowledge only.

    Every card reaches a pile through the face-up display, so the cards in the other seats' piles
    (together) are: all 60, minus the never-seen ones, minus the seat's own, the display and the
    cards of finished rounds. With 2 seats that is exactly the opponent's pile; with more it is
    shared out evenly (who took what is not in the view).
    """
    counts = list(C.FULL_TYPE_COUNTS)

    def remove(cards: list[dict]) -> None:
        for c in cards:
            counts[C.ELEMENT_INDEX[c["element"]] * _NV + C.VALUE_INDEX[c["value"]]] -= 1

    for e, name in enumerate(C.ELEMENTS):
        for i, k in enumerate(view["unseen"][name]):
            counts[e * _NV + i] -= k
    remove(view["players"][view["you"]]["cards"] or [])
    remove(view["display"])
    for finished in view.get("finished", []):
        for pile in finished["piles"]:
            remove(pile)
        remove(finished["left"])
    share = max(len(view["players"]) - 1, 1)
    g = [0.0] * _NE
    n = 0
    for t, e, v in _TYPES:
        g[e] += counts[t] * (v + 1)
        n += counts[t]
    return [x / share for x in g], n / share


def _myopic(pos: Position) -> float:
    """Best immediate expected gain from ``pos``: what a greedy seat expects there."""
    take = take_gain(pos)
    turn = turn_odds(pos).expected_gain
    return take if take > turn else turn


def _fresh(g: list, n: float, pool: list[int], unseen: int) -> float:
    """A greedy seat's expected gain facing a refilled display: the first card if it helps.

    (Turning onto a fresh 3-card display can hardly bust, so its value is about 0.)
    """
    if not unseen:
        return 0.0
    base = max(g)
    acc = 0.0
    for t, e, v in _TYPES:
        if pool[t]:
            gain = _best_after(g, e, v + 1) - base - 1
            if gain > 0:
                acc += pool[t] * gain
    return acc / unseen


def action_values(
    pos: Position, opponent: tuple[list[float], float] | None = None, weight: float = 0.0
) -> dict[str, float]:
    """Expected value of ``take`` and ``turn``, looking ahead to the next seat's turn.

    Value = my expected score change now - ``weight`` x the expected score change of the next
    seat, who faces the position my action leaves (every turned card weighed by its exact odds)
    and is modelled as greedy with the pile ``opponent = (g, n)`` (see ``others_estimate``). A
    display emptied by a take or a bust is refilled with unknown cards: then the next seat gains
    the first card's value where it helps (``_fresh``). ``weight = 1 / (seats - 1)`` maximizes my
    score minus the others' average, which is what decides the winner; ``weight = 0`` is greedy.
    """
    values = {"take": float(take_gain(pos)), "turn": turn_odds(pos).expected_gain}
    if not weight or opponent is None or pos.deck < 1:
        return values
    og, on = opponent

    def next_seat(disp: list[tuple[int, int]], pool: list[int], unseen: int, deck: int) -> float:
        if not disp:
            return _fresh(og, on, pool, unseen)
        return _myopic(Position(og, on, disp, pool, unseen, deck, pos.match_first))

    values["take"] -= weight * next_seat(pos.disp[1:], pos.pool, pos.unseen, pos.deck)
    if pos.deck > 1 and pos.unseen:
        room = C.BUST_ABOVE - pos.total
        match_v = pos.disp[0][1] if pos.match_first else pos.disp[-1][1]
        pool = list(pos.pool)
        acc = 0.0
        for t, e, v in _TYPES:
            k = pool[t]
            if not k:
                continue
            pool[t] -= 1
            if v > room and v != match_v:  # I bust: the next seat faces a refilled display
                acc += k * _fresh(og, on, pool, pos.unseen - 1)
            else:
                acc += k * next_seat([*pos.disp, (e, v)], pool, pos.unseen - 1, pos.deck - 1)
            pool[t] += 1
        values["turn"] -= weight * acc / pos.unseen
    return values
