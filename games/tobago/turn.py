"""Actions of the setup and of a turn (rules §4, §5): their legality and their effect.

Each action type has a ``legal_*`` function (the actions of that type a seat may take now, for the
view and the bots) and an ``apply_*`` function, which ``games.tobago.kind`` declares as the
phase's move for that type: it receives the action checked against its declaration
(``games.tobago.actions``), first checks every rule (raising ``IllegalAction``) and only then
changes the state, so a refused action changes nothing.

A turn is one of three actions. Action 1 (``play_clue``, then more ``play_clue`` for an amulet
each, then ``extra_marker``) ends when the extra marker is placed, or by itself when nothing is
left to decide, or with ``end_turn`` when no extra marker can be placed. Action 2 is a series of
small actions (``drive``, ``pick_amulet``, ``spend_amulet``, ``remove_marker``) ended by
``end_turn`` or by ``raise``. Action 3 is ``exchange``.

The turn's steps are the ``turn`` phase's declared stages (``STAGES``, ``games.phases.Stage``):
``choose`` (nothing done yet: any action), ``clues`` (action 1 begun) and ``drive`` (action 2
begun), each with the action types it takes and the refusal of the others; the base refuses a
type the running stage does not take, so the moves here never ask which step the turn is in.
The stage is the base's (``GameState.stage``: ``None`` for ``choose``, where each turn begins,
or ``"clues"``, ``"drive"``, the views' ``turn.mode``); the moves here move it on with
``games.state.to_stage``.
"""

from __future__ import annotations

from typing import Any

from errors import IllegalAction
from games.phases import Stage
from games.state import enter, to_stage
from games.tobago import sharing
from games.tobago.actions import (
    Drive,
    ExtraMarker,
    FirstClue,
    PlaceAtv,
    PlayClue,
    Raise,
    RemoveMarker,
)
from games.tobago.engine import (
    SETUP,
    begin_first_clue,
    card_mask,
    clue_named,
    costs_from,
    draw_clue,
    emit,
    finish_first_clue,
    island_space,
    next_turn,
    placement_ok,
    refill,
    single_space,
    xy,
)
from games.tobago.rules import DRIVE_POINTS
from games.tobago.state import TobagoState
from hexmap.hexes import Hex
from solver.compiled import compile_island, remember
from solver.deck import DECK
from solver.engine import is_legal_play
from solver.masks import play_refusal

# --- the turn's stages ----------------------------------------------------------------------

#: Action 2's small actions.
_DRIVING = frozenset({"drive", "pick_amulet", "spend_amulet", "remove_marker", "raise"})
_EXCHANGE_MID_TURN = ("exchange_mid_turn", "an exchange is a whole turn's action")
_EXTRA_MARKER_NOT_NOW = (
    "extra_marker_not_now",
    "the extra marker follows your clue plays (action 1)",
)
_CLUES_PLAYED = ("clues_played_this_turn", "you played clues this turn (a turn is one action)")
_DRIVING_NOW = ("driving_this_turn", "you are driving this turn (a turn is one action)")
#: The steps of a turn (rules §5: a turn is one action), first the one a turn begins in.
STAGES: tuple[Stage, ...] = (
    Stage(
        "choose",
        frozenset({"play_clue", "exchange", "end_turn"}) | _DRIVING,
        {"extra_marker": _EXTRA_MARKER_NOT_NOW},
    ),
    Stage(
        "clues",
        frozenset({"play_clue", "extra_marker", "end_turn"}),
        {"exchange": _EXCHANGE_MID_TURN, **dict.fromkeys(_DRIVING, _CLUES_PLAYED)},
    ),
    Stage(
        "drive",
        frozenset({"end_turn"}) | _DRIVING,
        {
            "play_clue": _DRIVING_NOW,
            "extra_marker": _EXTRA_MARKER_NOT_NOW,
            "exchange": _EXCHANGE_MID_TURN,
        },
    ),
)
_TAKES = {st.name: st.moves for st in STAGES}


def stage(state: TobagoState) -> str:
    """The stage the turn is in (``STAGES``)."""
    return state.stage or "choose"


# --- setup --------------------------------------------------------------------------------


def legal_place_atv(state: TobagoState, seat: int) -> list[dict]:
    return [{"type": "place_atv", "at": [h.q, h.r]} for h in state.island.index]


def apply_place_atv(state: TobagoState, seat: int, action: PlaceAtv, events: list[dict]) -> None:
    at = island_space(state, action.at, "action.at")
    state.players[seat].atv = at
    emit(state, events, "atv_placed", seat=seat, at=xy(at))
    if SETUP.pass_turn(state) is None:
        enter(state, "first_clue")
        SETUP.start(state, 0)
        begin_first_clue(state, events)


def legal_first_clue(state: TobagoState, seat: int) -> list[dict]:
    if state.drawn is None:
        return []
    return [
        {"type": "first_clue", "map": m.colour}
        for m in state.maps
        if placement_ok(state, m, state.drawn)
    ]


def apply_first_clue(state: TobagoState, seat: int, action: FirstClue, events: list[dict]) -> None:
    m = state.maps[action.map]
    drawn = state.first_clue_card()
    if not placement_ok(state, m, drawn):
        why, reason = (
            ("it would leave no candidate", "removes_every_candidate")
            if not m.clues
            else ("it must remove a candidate and leave one", "must_remove_and_leave")
        )
        notation = DECK[drawn].notation
        raise IllegalAction(
            f"{notation} cannot go on the {m.colour} map: {why}",
            "action.map",
            reason=reason,
            params={"clue": notation, "map": m.colour},
        )
    state.place_clue(m, drawn, seat)
    emit(state, events, "first_clue", seat=seat, map=m.colour, **clue_named(drawn))
    state.drawn = None
    finish_first_clue(state, events)


# --- action 1: clues ----------------------------------------------------------------------


def extra_marker_targets(state: TobagoState, seat: int) -> list[tuple[int, int]]:
    """(map, clue index) of every clue card carrying exactly one of ``seat``'s markers."""
    if not state.options["extra_marker"] or state.players[seat].markers < 1:
        return []
    return [
        (mi, ci)
        for mi, m in enumerate(state.maps)
        for ci, e in enumerate(m.clues)
        if e.seat == seat and e.markers == 1
    ]


def _can_play(state: TobagoState, seat: int) -> tuple[str, str] | None:
    """Why ``seat`` may not play a clue now, as (reason, English sentence); None if it may."""
    p = state.players[seat]
    if p.markers < 1:
        return "no_marker_left", "you have no compass marker left"
    if state.stage == "clues" and p.amulets < 1:
        return (
            "extra_clue_needs_amulet",
            "another clue this turn costs an amulet and you have none",
        )
    return None


def legal_plays(state: TobagoState, seat: int) -> list[dict]:
    if _can_play(state, seat) is not None:
        return []
    masks = compile_island(state.island, state.solver_options).masks  # ``card_mask``'s table
    out = []
    for card in state.players[seat].hand:
        mask = masks[DECK[card].code]
        for m in state.maps:
            both = m.candidates & mask  # ``is_legal_play``, inlined: a rollout's hot loop
            if both and both != m.candidates:
                out.append({"type": "play_clue", "card": card, "map": m.colour})
    return out


def apply_play_clue(state: TobagoState, seat: int, action: PlayClue, events: list[dict]) -> None:
    card, mi = action.card, action.map
    cannot = _can_play(state, seat)
    if cannot is not None:
        raise IllegalAction(cannot[1], "action", reason=cannot[0])
    p = state.players[seat]
    if card not in p.hand:
        raise IllegalAction(
            f"card {card} is not in your hand",
            "action.card",
            reason="card_not_in_hand",
            params={"card": card},
        )
    m = state.maps[mi]
    if not is_legal_play(m.candidates, card_mask(state, card)):
        reason = play_refusal(m.candidates, card_mask(state, card)) or "removes_no_candidate"
        raise IllegalAction(
            f"{DECK[card].notation} is not a legal play on {m.colour}: {_REFUSAL_TEXT[reason]}",
            "action.card",
            reason=reason,
            params={"clue": DECK[card].notation, "card": card, "map": m.colour},
        )
    t = state.turn
    t.progress = True
    if state.stage == "clues":
        p.amulets -= 1
        state.amulet_supply += 1
        state.bump("amulets_spent")
        emit(state, events, "amulet_spent", seat=seat, use="clue")
    p.hand.remove(card)
    state.place_clue(m, card, seat)
    to_stage(state, "clues")
    t.plays += 1
    state.bump("clues_played")
    emit(
        state,
        events,
        "clue_played",
        seat=seat,
        map=m.colour,
        **clue_named(card),
        candidates=m.candidates.bit_count(),
    )
    if not extra_marker_targets(state, seat) and not legal_plays(state, seat):
        _finish_clues(state, seat, events)


#: The English of ``solver.masks.play_refusal``'s reasons.
_REFUSAL_TEXT = {
    "map_located": "the map is located already",
    "removes_every_candidate": "it would remove every candidate",
    "removes_no_candidate": "it removes no candidate",
}


def legal_extra_markers(state: TobagoState, seat: int) -> list[dict]:
    return [
        {"type": "extra_marker", "map": state.maps[mi].colour, "clue": ci}
        for mi, ci in extra_marker_targets(state, seat)
    ]


def apply_extra_marker(
    state: TobagoState, seat: int, action: ExtraMarker, events: list[dict]
) -> None:
    mi, ci = action.map, action.clue
    if (mi, ci) not in extra_marker_targets(state, seat):
        if not state.options["extra_marker"]:
            raise IllegalAction(
                "the extra_marker rule option is off", "action", reason="extra_marker_off"
            )
        if state.players[seat].markers < 1:
            raise IllegalAction(
                "you have no compass marker left", "action", reason="no_marker_left"
            )
        raise IllegalAction(
            "that clue card does not carry exactly one of your markers",
            "action.clue",
            reason="extra_marker_target",
            params={"map": state.maps[mi].colour, "clue_number": ci + 1},
        )
    state.turn.progress = True
    e = state.maps[mi].clues[ci]
    e.markers = 2
    state.players[seat].markers -= 1
    emit(state, events, "extra_marker", seat=seat, map=state.maps[mi].colour, clue=ci)
    _finish_clues(state, seat, events)


def _finish_clues(state: TobagoState, seat: int, events: list[dict]) -> None:
    refill(state, seat, events)
    next_turn(state, events)


# --- action 3: exchange -------------------------------------------------------------------


def apply_exchange(state: TobagoState, seat: int, action: Any, events: list[dict]) -> None:
    p = state.players[seat]
    if not p.hand:
        raise IllegalAction(
            "you have no clue card to exchange", "action", reason="exchange_empty_hand"
        )
    n = len(p.hand)
    state.clue_discard.extend(p.hand)
    p.hand = []
    for _ in range(n):
        card = draw_clue(state, events)
        if card is None:
            break
        p.hand.append(card)
    state.bump("exchanges")
    emit(state, events, "exchanged", seat=seat, cards=n)
    next_turn(state, events)


# --- action 2: drive ----------------------------------------------------------------------


def _drive_state(state: TobagoState, seat: int) -> tuple[Hex, int, int]:
    """(start, base points, amulet points) of the drive, as if it started now if it has not."""
    t = state.turn
    if state.stage == "drive":
        return (t.start if t.start is not None else state.atv(seat)), t.points, t.bonus
    return state.atv(seat), DRIVE_POINTS, 0


def _begin_drive(state: TobagoState, seat: int) -> None:
    t = state.turn
    if state.stage is None:
        to_stage(state, "drive")
        t.start = state.players[seat].atv
        t.points = DRIVE_POINTS
        t.bonus = 0
        state.bump("drives")


def _pick_cost(state: TobagoState, seat: int, start: Hex) -> int:
    return 0 if state.players[seat].atv == start else 1


def _reachable(state: TobagoState, seat: int, budget: int) -> tuple[tuple[int, int], ...]:
    """The spaces a drive from the seat's ATV reaches within ``budget`` points (at least one
    step away), in the drive table's order, kept per geometry, space and budget (a strong bot's
    rollouts ask for the same few thousand again and again)."""
    island, at = state.island, state.atv(seat)

    def build() -> tuple[tuple[int, int], ...]:
        costs = costs_from(island, at)
        return tuple((h.q, h.r) for h, c in costs.items() if 1 <= c <= budget)

    return remember(
        ("drive-reach", island.geometry_key, at, budget), build, lambda xs: 100 + 72 * len(xs)
    )


def _drives(state: TobagoState, seat: int, budget: int, shared: bool) -> list[dict]:
    """The drive actions within ``budget``: new dicts, or with ``shared`` the ones kept per
    geometry, space and budget (built once: a strong bot's rollouts list the same drives again
    and again, and only read them; never hand them to anyone who may change them)."""
    if not shared:
        return [{"type": "drive", "to": [q, r]} for q, r in _reachable(state, seat, budget)]
    island, at = state.island, state.atv(seat)
    kept: tuple[dict, ...] = remember(
        ("drive-actions", island.geometry_key, at, budget),
        lambda: tuple(_drives(state, seat, budget, False)),
        lambda xs: 100 + 330 * len(xs),
    )
    return list(kept)


def legal_drive(state: TobagoState, seat: int, shared: bool = False) -> list[dict]:
    """The drive's small actions now (``shared``: the drives are ``_drives``' kept ones)."""
    start, points, bonus = _drive_state(state, seat)
    p = state.players[seat]
    out: list[dict] = []
    budget = points + bonus
    if budget:
        out += _drives(state, seat, budget, shared)
    if p.atv in state.amulets and points >= _pick_cost(state, seat, start):
        out.append({"type": "pick_amulet"})
    if p.amulets:
        out.append({"type": "spend_amulet"})
        for m in state.maps:
            n = m.candidates.bit_count()
            if n >= 2:  # any map, whatever its count; never its last candidate (§5)
                for h in state.island.spaces_of(m.candidates):
                    out.append({"type": "remove_marker", "map": m.colour, "space": [h.q, h.r]})
    if p.markers:
        for m in state.maps:
            if single_space(state, m) == p.atv:
                out.append({"type": "raise", "map": m.colour})
    return out


def apply_drive(state: TobagoState, seat: int, action: Drive, events: list[dict]) -> None:
    to = island_space(state, action.to, "action.to")
    start, points, bonus = _drive_state(state, seat)
    p = state.players[seat]
    frm = state.atv(seat)
    cost = costs_from(state.island, frm)[to]
    if cost == 0:
        raise IllegalAction(
            "your ATV is already there",
            "action.to",
            reason="atv_already_there",
            params={"space": [to.q, to.r]},
        )
    if cost > points + bonus:
        raise IllegalAction(
            f"that drive costs {cost} points and you have {points + bonus}",
            "action.to",
            reason="drive_too_far",
            params={"space": [to.q, to.r], "cost": cost, "count": points + bonus},
        )
    _begin_drive(state, seat)
    t = state.turn
    from_bonus = min(t.bonus, cost)
    t.bonus -= from_bonus
    t.points -= cost - from_bonus
    p.atv = to
    emit(state, events, "drove", seat=seat, to=xy(to), cost=cost, **{"from": xy(frm)})


def apply_pick_amulet(state: TobagoState, seat: int, action: Any, events: list[dict]) -> None:
    start, points, _ = _drive_state(state, seat)
    p = state.players[seat]
    if p.atv not in state.amulets:
        raise IllegalAction("there is no amulet on your space", "action", reason="no_amulet_here")
    cost = _pick_cost(state, seat, start)
    if points < cost:
        raise IllegalAction(
            "picking up an amulet costs 1 movement point (not an amulet's)",
            "action",
            reason="pick_needs_point",
        )
    _begin_drive(state, seat)
    state.turn.points -= cost
    state.amulets.remove(p.atv)
    p.amulets += 1
    state.bump("amulets_picked")
    emit(state, events, "amulet_picked", seat=seat, at=xy(p.atv), cost=cost)


def apply_spend_amulet(state: TobagoState, seat: int, action: Any, events: list[dict]) -> None:
    _drive_state(state, seat)
    p = state.players[seat]
    if p.amulets < 1:
        raise IllegalAction("you have no amulet", "action", reason="no_amulet")
    _begin_drive(state, seat)
    p.amulets -= 1
    state.amulet_supply += 1
    state.turn.bonus += 1
    state.bump("amulets_spent")
    emit(state, events, "amulet_spent", seat=seat, use="move")


def apply_remove_marker(
    state: TobagoState, seat: int, action: RemoveMarker, events: list[dict]
) -> None:
    mi = action.map
    h = island_space(state, action.space, "action.space")
    _drive_state(state, seat)
    p = state.players[seat]
    m = state.maps[mi]
    if p.amulets < 1:
        raise IllegalAction(
            "removing a candidate marker costs an amulet and you have none",
            "action",
            reason="remove_needs_amulet",
            params={"map": m.colour},
        )
    n = m.candidates.bit_count()
    bit = 1 << state.island.bit[h]
    if not m.candidates & bit:
        raise IllegalAction(
            f"({h.q}, {h.r}) is not a candidate of {m.colour}",
            "action.space",
            reason="not_a_candidate",
            params={"space": [h.q, h.r], "map": m.colour},
        )
    if n < 2:
        raise IllegalAction(
            "the last candidate marker is never removed",
            "action.space",
            reason="last_candidate",
            params={"space": [h.q, h.r], "map": m.colour},
        )
    _begin_drive(state, seat)
    state.turn.progress = True
    p.amulets -= 1
    state.amulet_supply += 1
    m.removed |= bit
    state.refresh(m)
    state.bump("amulets_spent")
    state.bump("markers_removed")
    emit(state, events, "marker_removed", seat=seat, map=m.colour, space=xy(h), candidates=n - 1)


def apply_raise(state: TobagoState, seat: int, action: Raise, events: list[dict]) -> None:
    mi = action.map
    _drive_state(state, seat)
    p = state.players[seat]
    m = state.maps[mi]
    where = single_space(state, m)
    if where is None:
        raise IllegalAction(
            f"the {m.colour} treasure is not located (one candidate needed)",
            "action.map",
            reason="not_located",
            params={"map": m.colour, "count": m.candidates.bit_count()},
        )
    if where != p.atv:
        raise IllegalAction(
            f"your ATV is not on the {m.colour} treasure's space",
            "action.map",
            reason="atv_not_on_treasure",
            params={"map": m.colour, "space": [where.q, where.r]},
        )
    if p.markers < 1:
        raise IllegalAction(
            "you have no compass marker left to raise with", "action", reason="no_marker_left"
        )
    _begin_drive(state, seat)
    state.turn.progress = True
    sharing.start_sharing(state, mi, seat, events)


def legal_end_turn(state: TobagoState, seat: int) -> list[dict]:
    if state.stage == "clues" and extra_marker_targets(state, seat):
        return []
    return [{"type": "end_turn"}]


def apply_end_turn(state: TobagoState, seat: int, action: Any, events: list[dict]) -> None:
    """End the turn (with nothing done this turn: a pass)."""
    if state.stage == "clues":
        if extra_marker_targets(state, seat):
            raise IllegalAction(
                "place your extra compass marker first", "action", reason="extra_marker_first"
            )
        _finish_clues(state, seat, events)
        return
    emit(state, events, "turn_ended", seat=seat, passed=state.stage is None)
    next_turn(state, events)


def legal_turn(state: TobagoState, seat: int, shared: bool = False) -> list[dict]:
    """Every action of the turn's seat now, of the types its stage takes: clue plays, extra
    markers, the exchange, the drive's small actions, the end of the turn. ``shared``: the
    drive actions are kept ones, read only (``_drives``: the strong bot's rollouts)."""
    takes = _TAKES[stage(state)]
    out = legal_plays(state, seat) if "play_clue" in takes else []
    if "extra_marker" in takes:
        out += legal_extra_markers(state, seat)
    if "exchange" in takes and state.players[seat].hand:
        out.append({"type": "exchange"})
    if "drive" in takes:
        out += legal_drive(state, seat, shared)
    out += legal_end_turn(state, seat)
    return out
