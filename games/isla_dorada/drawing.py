"""The end of an Isla Dorada round (rules, A round, 6): drawing adventure cards (face up or from
the deck, one purchase for 1 gold), the lightning cards that act the moment they are taken, and
the hand limit of 10; then the next round begins.

Actions (declared in ``games.isla_dorada.actions``; the rules checked before any change): draw
``{"type": "take", "card": "a12"}`` or ``{"type": "take", "deck": true}``, then ``{"type": "buy", ...}`` (same fields, once) or
``{"type": "done"}``; lightning ``{"type": "bigfoot", "route": "r3"}``, ``{"type": "leviathan",
"route": "r40"}``, ``{"type": "thief", "target": 2}``, ``{"type": "voodoo", "target": 1}``;
limit (every seat over 10 cards at once) ``{"type": "discard", "cards": ["a1", "a9"]}``.
"""

from __future__ import annotations

from typing import Any

from games.isla_dorada import tables as T
from games.isla_dorada.actions import Bigfoot, Buy, Discard, Leviathan, Take, Thief, Voodoo
from games.isla_dorada.phases import check_distinct, illegal, start_round
from games.isla_dorada.state import IslaState
from games.order import TurnOrder, round_robin
from games.state import enter

_KIND = T.ADV_KIND


# --- drawing ---------------------------------------------------------------------------------


def _reshuffle(state: IslaState, events: list[dict]) -> None:
    state.deck = state.discard
    state.discard = []
    state.rng.shuffle(state.deck)
    state.stats["reshuffles"] += 1
    events.append({"type": "reshuffle", "cards": len(state.deck)})


def _refill(state: IslaState, events: list[dict]) -> None:
    while len(state.display) < T.DISPLAY_SIZE and (state.deck or state.discard):
        if not state.deck:
            _reshuffle(state, events)
        card = state.deck.pop()
        state.display.append(card)
        events.append({"type": "face_up", "card": T.adv_json(card)})


def _can_draw(state: IslaState) -> bool:
    return bool(state.display or state.deck or state.discard)


#: The drawing's turn order: from the leader up the seat numbers, each seat once (``draw_left``
#: counts them; the drawing may end sooner, when no card is left).
DRAWS: TurnOrder[IslaState] = round_robin()


def begin_draw(state: IslaState, events: list[dict]) -> None:
    enter(state, "draw")
    DRAWS.start(state, state.leader)
    state.draw_left = state.seats
    state.draw_step = "take"
    if not _can_draw(state):
        _end_draw(state, events)


def legal_draw(state: IslaState, seat: int) -> list[dict[str, Any]]:
    kind = state.draw_step
    out: list[dict[str, Any]] = [{"type": kind, "card": T.ADV_ID[c]} for c in state.display]
    if state.deck or state.discard:
        out.append({"type": kind, "deck": True})
    if kind == "buy":
        out.append({"type": "done"})
    return out


def play_done(state: IslaState, seat: int, action: Any, events: list[dict]) -> None:
    """No purchase: the next seat draws."""
    if state.draw_step != "buy":
        raise illegal(
            f"now: {state.draw_step}", "action.type", "isla_draw_step", step=state.draw_step
        )
    _next_drawer(state, events)


def play_draw(state: IslaState, seat: int, action: Take | Buy, events: list[dict]) -> None:
    """``take`` (the free card) or ``buy`` (for 1 gold): a face-up card or the deck's top."""
    kind = action.type
    if kind != state.draw_step:
        raise illegal(
            f"now: {state.draw_step}", "action.type", "isla_draw_step", step=state.draw_step
        )
    if action.card is not None:
        card = action.card
        if card not in state.display:
            raise illegal(
                f"{T.ADV_ID[card]!r} is not face up",
                "action.card",
                "isla_not_face_up",
                card=T.ADV_ID[card],
            )
        state.display.remove(card)
        source = "display"
    else:
        if not (state.deck or state.discard):
            raise illegal("the deck is empty", "action.deck", "isla_deck_empty")
        if not state.deck:
            _reshuffle(state, events)
        card = state.deck.pop()
        source = "deck"
        state.stats["deck_draws"] += 1
    if kind == "buy":
        state.gold[seat] -= T.BUY_COST
        state.stats["buys"][seat] += 1
    lightning = T.ADV_LIGHTNING[card]
    event: dict[str, Any] = {"type": kind, "seat": seat, "from": source}
    if source == "display" or lightning:
        event["card"] = T.adv_json(card)
    events.append(event)
    _refill(state, events)
    then = "buy" if kind == "take" else "next"
    if lightning:
        _begin_lightning(state, seat, card, then, events)
        return
    state.hands[seat].append(card)
    _after_card(state, then, events)


def _after_card(state: IslaState, then: str, events: list[dict]) -> None:
    seat = state.current
    assert seat is not None
    enter(state, "draw")
    if then == "buy" and state.gold[seat] >= T.BUY_COST and _can_draw(state):
        state.draw_step = "buy"
    else:
        _next_drawer(state, events)


def _next_drawer(state: IslaState, events: list[dict]) -> None:
    state.draw_left -= 1
    state.draw_step = "take"
    if state.draw_left <= 0 or not _can_draw(state):
        _end_draw(state, events)
        return
    DRAWS.pass_turn(state)


def _end_draw(state: IslaState, events: list[dict]) -> None:
    if any(len(h) > T.HAND_LIMIT for h in state.hands):
        enter(state, "limit")
        events.append({"type": "hand_limit", "seats": over_limit(state)})
    else:
        start_round(state, events)


# --- lightning cards -------------------------------------------------------------------------


def _lightning_options(state: IslaState, seat: int, card: int) -> list[dict[str, Any]]:
    kind = _KIND[card]
    if kind == "bigfoot":
        return [
            {"type": kind, "route": T.ROUTE_IDS[r]} for r in T.LAND_ROUTES if r != state.bigfoot
        ]
    if kind == "leviathan":
        return [
            {"type": kind, "route": T.ROUTE_IDS[r]} for r in T.WATER_ROUTES if r != state.leviathan
        ]
    if kind == "thief":
        return [
            {"type": kind, "target": t} for t in range(state.seats) if t != seat and state.hands[t]
        ]
    if kind == "voodoo" and state.cdeck:
        return [{"type": kind, "target": t} for t in range(state.seats) if t != seat]
    return []


def _begin_lightning(state: IslaState, seat: int, card: int, then: str, events: list[dict]) -> None:
    state.stats["lightning"] += 1
    state.lightning = {"seat": seat, "card": card, "then": then}
    kind = _KIND[card]
    if kind == "map":
        if state.tdeck:
            state.treasures[seat].append(state.tdeck.pop())
            events.append({"type": "map", "seat": seat})
        _end_lightning(state, events)
    elif _lightning_options(state, seat, card):
        enter(state, "lightning")
    else:
        events.append({"type": "no_effect", "seat": seat, "card": T.adv_json(card)})
        _end_lightning(state, events)


def lightning_seat(state: IslaState) -> list[int]:
    """Who acts in the lightning phase: the seat that drew the card."""
    assert state.lightning is not None
    return [state.lightning["seat"]]


def legal_lightning(state: IslaState, seat: int) -> list[dict[str, Any]]:
    assert state.lightning is not None
    return _lightning_options(state, state.lightning["seat"], state.lightning["card"])


def _lightning_card(state: IslaState, kind: str) -> None:
    """Refuse another lightning action than the drawn card's."""
    assert state.lightning is not None
    drawn = _KIND[state.lightning["card"]]
    if kind != drawn:
        raise illegal(
            f"use the {drawn} card you drew", "action.type", "isla_lightning_now", kind=drawn
        )


def play_figure(
    state: IslaState, seat: int, action: Bigfoot | Leviathan, events: list[dict]
) -> None:
    """Bigfoot onto a land route, the Leviathan onto a water route (not where it stands)."""
    kind = action.type
    _lightning_card(state, kind)
    rid = T.ROUTE_IDS[action.route]
    if {"type": kind, "route": rid} not in legal_lightning(state, seat):
        raise illegal(
            f"{kind} cannot go to {rid!r}", "action.route", "isla_lightning_target", kind=kind
        )
    if kind == "bigfoot":
        state.bigfoot = action.route
    else:
        state.leviathan = action.route
    events.append({"type": kind, "seat": seat, "route": rid})
    _end_lightning(state, events)


def play_target(state: IslaState, seat: int, action: Thief | Voodoo, events: list[dict]) -> None:
    """The thief steals a random card of ``target``'s hand; voodoo gives it a curse."""
    kind, target = action.type, action.target
    _lightning_card(state, kind)
    if {"type": kind, "target": target} not in legal_lightning(state, seat):
        raise illegal(
            f"{kind} cannot go to {target!r}", "action.target", "isla_lightning_target", kind=kind
        )
    if kind == "thief":
        victim = state.hands[target]
        stolen = victim.pop(state.rng.randrange(len(victim)))
        state.hands[seat].append(stolen)
    else:
        state.curses[target].append(state.cdeck.pop())
    events.append({"type": kind, "seat": seat, "target": target})
    _end_lightning(state, events)


def _end_lightning(state: IslaState, events: list[dict]) -> None:
    assert state.lightning is not None
    state.discard.append(state.lightning["card"])
    then = state.lightning["then"]
    state.lightning = None
    _after_card(state, then, events)


# --- the hand limit --------------------------------------------------------------------------


def over_limit(state: IslaState) -> list[int]:
    return [s for s in range(state.seats) if len(state.hands[s]) > T.HAND_LIMIT]


def legal_discard(state: IslaState, seat: int) -> list[dict[str, Any]]:
    """Representative discards: each card of the hand with the first others to make the count."""
    hand = sorted(state.hands[seat])
    k = len(hand) - T.HAND_LIMIT
    seen: set[frozenset[int]] = set()
    out: list[dict[str, Any]] = []
    for c in hand:
        cards = [c] + [x for x in hand if x != c][: k - 1]
        key = frozenset(cards)
        if key not in seen:
            seen.add(key)
            out.append({"type": "discard", "cards": [T.ADV_ID[x] for x in cards]})
    return out


def play_discard(state: IslaState, seat: int, action: Discard, events: list[dict]) -> None:
    k = len(state.hands[seat]) - T.HAND_LIMIT
    cards = action.cards
    check_distinct(
        cards, k, f"discard exactly {k} different cards", "action.cards", "isla_discard_count"
    )
    hand = set(state.hands[seat])
    for i, card in enumerate(cards):
        if card not in hand:
            raise illegal(
                f"{T.ADV_ID[card]!r} is not in your hand",
                f"action.cards[{i}]",
                "isla_not_your_card",
                card=T.ADV_ID[card],
            )
    for c in cards:
        state.hands[seat].remove(c)
        state.discard.append(c)
    state.stats["limit_discards"] += k
    events.append({"type": "discard", "seat": seat, "count": k})
    if not over_limit(state):
        start_round(state, events)
