"""A slain dragon's settlement: sole slayer, negotiation, division, even split, wizard and thieves.

``slay`` draws the dragon's hidden treasure and opens ``state.settle`` (a ``Settlement``); its
steps are the game's phases ``proposals``, ``divide``, ``pick``, ``steal`` and ``look`` (views
call them all ``"negotiation"``, with the step); the slain dragon stays in the row with its
treasure until its split is settled. The participants are the owners of the hunters under it, in the order their first hunter
was played (lowest in the stack first); a participant's contribution is the attack of their hunters
there (Swords included).

- One participant: they take the whole treasure.
- Basic rules: if exactly one wizard is under the dragon, its owner first takes every red token
  (kept whatever follows).
- **Decision:** nothing left to split (a dragon with no tokens): no negotiation.
- The bag empty once the hidden treasure is drawn: each participant gets the same number of each
  colour; tokens that cannot be split evenly leave the game (the rules' Decision). **Decision:**
  that is the bag's state right after the slain dragon's own draw.
- Option ``negotiation="timed"`` (step ``"proposals"``, the only timed step): any participant may
  ``{"type": "propose", "shares": {"<seat>": {colour: n}, ...}}``, a complete split among the
  participants (a participant left out gets nothing; every token given, so neither a random nor a
  colour-blind split can be proposed, and only this treasure is bargained with). A new proposal
  replaces the current one and resets the answers. Every other participant answers
  ``{"type": "accept" | "reject", "proposal": n}`` (``n``: the current proposal's number, so an
  answer never lands on a proposal its sender has not seen); an answer can be changed. When every
  other participant accepts, the split is made. When the timer runs out first (the table's
  ``{"type": "timeout"}``), the whole treasure leaves the game.
- Option ``negotiation="division"``: the picking order is by contribution, highest first; equal
  contributions: the one whose first hunter lies lower in the stack picks first. The last in that
  order (the lowest contribution; **Decision:** among equals the later attacker) divides:
  ``{"type": "divide", "lots": [{colour: n}, ...]}`` (one lot per participant, every token in one
  lot, empty lots allowed); the others ``{"type": "pick", "lot": i}`` in order; the divider gets
  the lot left.
- After the split (also after a failed negotiation): advanced rules: each participant with a
  wizard under the dragon draws one magic item per red token they received in the split (not for
  tokens stolen). Then each thief under the dragon, in the order played, may steal from another
  participant who has tokens: ``{"type": "steal", "from": s}`` takes a random token; a player
  with their wizard and their thief under the dragon looks behind that screen instead and picks
  ``{"type": "take", "colour": c}``. An Amulet (advanced) in the victim's hand stops the theft.
  The seed's thief *may* take (可…拿取): ``{"type": "decline"}`` takes nothing (under the
  advanced rules a random black diamond can cost a thief its gem scoring). **Decision:** a
  wizard-and-thief player may decline after looking too (the look and the pick are one theft).
- Then the dragon leaves, its hunters go back face down to their owners, the row is refilled, the
  market opens if its card came up (``market``), and the seat left of the slaying player plays:
  the game enters the fight again, whose ``begin`` gives that seat its turn.
"""

from __future__ import annotations

import functools
from typing import Any

from errors import IllegalAction, InvalidInput
from games.base import Action, Event
from games.dragons_gold import market, table
from games.dragons_gold.actions import (
    AcceptProposal,
    Divide,
    Pick,
    Propose,
    RejectProposal,
    Steal,
    TakeColour,
)
from games.dragons_gold.data import COLOURS, ITEM_OF_CARD, add, count, empty, full, sparse
from games.dragons_gold.scoring import breakdown
from games.dragons_gold.splits import balanced_lots, token_values, weighted_split
from games.dragons_gold.table import FIGHT, DragonsGoldState, Settlement, Tokens
from games.order import no_turn
from games.state import OVER, enter

State = DragonsGoldState


def slay(state: State, index: int, slayer: int, events: list[Event]) -> None:
    """The ``index``-th dragon is slain by ``slayer``'s hunter: draw, then settle."""
    dragon = state.row[index]
    dragon.slain = True
    drawn = table.draw(state, table.DRAGONS[dragon.id]["hidden"])
    add(dragon.treasure, drawn)
    state.stats["slain"] += 1
    stack = dragon.stack
    participants = list(dict.fromkeys(e["seat"] for e in stack))
    attack = {p: sum(e["attack"] for e in stack if e["seat"] == p) for p in participants}
    first = {p: next(i for i, e in enumerate(stack) if e["seat"] == p) for p in participants}
    order = sorted(participants, key=lambda p: (-attack[p], first[p]))
    st = state.settle = Settlement(
        dragon=index,
        slayer=slayer,
        participants=participants,
        attack=[attack[p] for p in participants],
        order=order,
    )
    no_turn(state)
    events.append(
        {
            "type": "dragon_slain",
            "dragon": index,
            "id": dragon.id,
            "seat": slayer,
            "drawn": drawn,
            "treasure": dict(dragon.treasure),
            "participants": list(participants),
        }
    )
    treasure = dragon.treasure
    if len(participants) == 1:
        state.stats["sole"] += 1
        _share(state, {str(participants[0]): dict(treasure)}, "sole", events)
        _after_split(state, events)
        return
    wizards = [e["seat"] for e in stack if e["hunter"] == "wizard"]
    if not state.options["advanced"] and len(wizards) == 1 and treasure["red"]:
        red = treasure["red"]
        treasure["red"] = 0
        state.hoards[wizards[0]]["red"] += red
        st.wizard = {"seat": wizards[0], "red": red}
        events.append({"type": "wizard_took", "seat": wizards[0], "red": red})
    if count(treasure) == 0:
        st.mode = "none"
        _share(state, {}, "empty", events)
        _after_split(state, events)
    elif not state.bag:
        st.mode = "even"
        state.stats["even"] += 1
        k = len(participants)
        each = {c: n // k for c, n in treasure.items()}
        lost = {c: n % k for c, n in treasure.items()}
        add(state.removed, lost)
        for c in COLOURS:
            treasure[c] = each[c] * k
        _share(state, {str(p): dict(each) for p in participants}, "even", events)
        events[-1]["removed"] = lost
        _after_split(state, events)
    elif state.options["negotiation"] == "division":
        st.mode = "division"
        enter(state, "divide")
        state.stats["divisions"] += 1
    else:
        st.mode = "timed"
        enter(state, "proposals")
        state.stats["negotiations"] += 1
        events.append(
            {
                "type": "negotiation_started",
                "participants": list(participants),
                "seconds": state.options["negotiation_seconds"],
            }
        )


# --- who acts in each step -------------------------------------------------------------------


def participants(state: State) -> list[int]:
    """Who acts while proposals are made: every participant at once."""
    return list(state.settlement().participants)


def divider(state: State) -> list[int]:
    return [state.settlement().order[-1]]


def picker(state: State) -> list[int]:
    st = state.settlement()
    return [st.order[_picker(st)]]


def thief(state: State) -> list[int]:
    st = state.settlement()
    return [] if st.thief is None else [st.thief]


def _picker(st: Settlement) -> int:
    """Index in ``order`` of the seat to pick now: as many have picked as lots are taken."""
    assert st.taken is not None
    return sum(1 for t in st.taken if t is not None)


def _share(state: State, shares: dict[str, Tokens], outcome: str, events: list[Event]) -> None:
    """Move ``shares`` (seat text → tokens) from the dragon to the hoards."""
    st = state.settlement()
    dragon = state.row[st.dragon]
    for seat, tokens in shares.items():
        for c, n in tokens.items():
            dragon.treasure[c] -= n
            state.hoards[int(seat)][c] += n
    st.received = {seat: full(tokens) for seat, tokens in shares.items()}
    st.outcome = outcome
    events.append({"type": "treasure_shared", "outcome": outcome, "shares": dict(st.received)})


def _after_split(state: State, events: list[Event]) -> None:
    st = state.settlement()
    stack = state.row[st.dragon].stack
    if state.options["advanced"]:
        for p in st.participants:
            if any(e["seat"] == p and e["hunter"] == "wizard" for e in stack):
                red = (st.received or {}).get(str(p), {}).get("red", 0)
                if red:
                    table.draw_items(state, p, red, events)
    if len(st.participants) > 1:
        st.thieves = [e["seat"] for e in stack if e["hunter"] == "thief"]
    _next_thief(state, events)


def victims(state: State, thief: int) -> list[int]:
    """The other participants with tokens behind their screen."""
    st = state.settlement()
    return [p for p in st.participants if p != thief and count(state.hoards[p]) > 0]


def _next_thief(state: State, events: list[Event]) -> None:
    st = state.settlement()
    while st.thieves:
        thief = st.thieves[0]
        if victims(state, thief):
            enter(state, "steal")
            st.thief = thief
            st.victim = None
            return
        st.thieves.pop(0)
        events.append({"type": "theft_skipped", "seat": thief})
    st.thief = st.victim = None
    _finish(state, events)


def _finish(state: State, events: list[Event]) -> None:
    st = state.settlement()
    index = st.dragon
    dragon = state.row.pop(index)
    for e in dragon.stack:
        state.hunters[e["seat"]][e["hunter"]] = "down"
    events.append({"type": "dragon_left", "dragon": index, "id": dragon.id})
    state.settle = None
    table.refill(state, index, events)
    next_seat = (st.slayer + 1) % state.seats
    if not state.row:
        enter(state, OVER)
        no_turn(state)
        state.final = breakdown(state.hoards, state.options["advanced"])
        events.append({"type": "game_over", "scores": [r["total"] for r in state.final]})
    elif table.market_due(state):
        market.open_market(state, next_seat, events)
    else:
        FIGHT.start(state, next_seat)
        enter(state, "fight")  # its ``begin`` gives the turn to the seat that can play


# --- the actions -----------------------------------------------------------------------------


def _treasure(state: State) -> Tokens:
    return state.row[state.settlement().dragon].treasure


def _split_check(state: State, parts: list[Tokens], field: str) -> None:
    total = empty()
    for part in parts:
        add(total, part)
    if total != full(_treasure(state)):
        raise IllegalAction(
            "the split must give out exactly the dragon's treasure",
            field,
            reason="dg_split_mismatch",
            params={"treasure": full(_treasure(state))},
        )


def _shares(state: State, value: dict[str, Tokens]) -> dict[str, Tokens]:
    """A proposal's ``shares``: every participant present in the result (a participant left
    out gets nothing), the treasure given out exactly."""
    st = state.settlement()
    shares = {str(p): empty() for p in st.participants}
    for key, tokens in value.items():
        if key not in shares:
            raise IllegalAction(
                f"seat {key!r} did not take part in this fight",
                f"action.shares.{key}",
                reason="dg_not_a_participant",
                params={"seat": key, "participants": list(st.participants)},
            )
        shares[key] = dict(tokens)
    _split_check(state, list(shares.values()), "action.shares")
    return shares


def propose(state: State, seat: int, action: Propose, events: list[Event]) -> None:
    shares = _shares(state, action.shares)
    st = state.settlement()
    st.proposals += 1
    state.stats["proposals"] += 1
    st.proposal = {
        "number": st.proposals,
        "by": seat,
        "shares": shares,
        "answers": {str(p): None for p in st.participants if p != seat},
    }
    events.append({"type": "proposal", "seat": seat, "number": st.proposals, "shares": shares})


def answer(
    state: State, seat: int, action: AcceptProposal | RejectProposal, events: list[Event]
) -> None:
    st = state.settlement()
    proposal = st.proposal
    if proposal is None:
        raise IllegalAction(
            "there is no proposal to answer", "action.type", reason="dg_no_proposal"
        )
    if action.proposal != proposal["number"]:
        raise IllegalAction(
            f"the current proposal is number {proposal['number']}, not {action.proposal!r}",
            "action.proposal",
            reason="dg_stale_proposal",
            params={"proposal": proposal["number"]},
        )
    if proposal["by"] == seat:
        raise IllegalAction(
            "you made this proposal: make a new one instead",
            "action.type",
            reason="dg_own_proposal",
        )
    said = "accept" if action.type == "accept" else "reject"
    if proposal["answers"][str(seat)] == said:
        raise IllegalAction(
            f"you already answered {said}",
            "action.type",
            reason="dg_already_answered",
            params={"answer": said},
        )
    proposal["answers"][str(seat)] = said
    events.append({"type": "answer", "seat": seat, "number": proposal["number"], "answer": said})
    if all(a == "accept" for a in proposal["answers"].values()):
        state.stats["agreed"] += 1
        _share(state, proposal["shares"], "agreed", events)
        _after_split(state, events)


def timeout(state: State, events: list[Event]) -> None:
    """The negotiation's time ran out before an agreement: the whole treasure leaves."""
    st = state.settlement()
    state.stats["failed"] += 1
    treasure = _treasure(state)
    lost = dict(treasure)
    add(state.removed, lost)
    for c in COLOURS:
        treasure[c] = 0
    st.received = {}
    st.outcome = "failed"
    events.append({"type": "negotiation_failed", "removed": lost})
    _after_split(state, events)


def divide(state: State, seat: int, action: Divide, events: list[Event]) -> None:
    st = state.settlement()
    k = len(st.participants)
    if len(action.lots) != k:
        raise InvalidInput(
            f"lots must be a list of {k} lots, one per participant",
            "action.lots",
            reason="dg_lot_count",
            params={"lots": k},
        )
    lots = [dict(lot) for lot in action.lots]
    _split_check(state, lots, "action.lots")
    st.lots = lots
    st.taken = [None] * k
    enter(state, "pick")
    events.append({"type": "divided", "seat": seat, "lots": [dict(lot) for lot in lots]})


def pick(state: State, seat: int, action: Pick, events: list[Event]) -> None:
    st = state.settlement()
    lot, taken, lots = action.lot, st.taken, st.lots
    assert taken is not None and lots is not None
    if not lot < len(taken):
        raise InvalidInput(
            f"lot must be a lot number 0-{len(taken) - 1}, got {lot!r}",
            "action.lot",
            reason="dg_no_such_lot",
            params={"lots": len(taken)},
        )
    if taken[lot] is not None:
        raise IllegalAction(
            f"lot {lot} is taken", "action.lot", reason="dg_lot_taken", params={"lot": lot}
        )
    taken[lot] = seat
    events.append({"type": "lot_picked", "seat": seat, "lot": lot})
    left = [i for i, t in enumerate(taken) if t is None]
    if len(left) == 1:
        taken[left[0]] = st.order[-1]
        shares = {str(taken[i]): lots[i] for i in range(len(taken))}
        _share(state, shares, "divided", events)
        _after_split(state, events)


def steal(state: State, seat: int, action: Steal, events: list[Event]) -> None:
    st = state.settlement()
    victim = action.victim
    allowed = victims(state, seat)
    if victim not in allowed:
        raise IllegalAction(
            f"you can steal from {allowed}, not {victim!r}",
            "action.from",
            reason="dg_bad_victim",
            params={"victims": allowed},
        )
    theft: Event = {"type": "theft", "seat": seat, "from": victim}
    events.append(theft)
    amulets = [c for c in state.hands[victim] if ITEM_OF_CARD[c] == "amulet"]
    if amulets:
        state.hands[victim].remove(amulets[0])
        state.discard.append(amulets[0])
        events.append({"type": "item_used", "seat": victim, "card": table.card_json(amulets[0])})
        theft["blocked"] = True
        st.thieves.pop(0)
        _next_thief(state, events)
        return
    stack = state.row[st.dragon].stack
    if any(e["seat"] == seat and e["hunter"] == "wizard" for e in stack):
        enter(state, "look")
        st.victim = victim
        theft["looks"] = True
        return
    hoard = state.hoards[victim]
    pool = [c for c in COLOURS for _ in range(hoard[c])]
    colour = state.rng.choice(pool)
    _move_stolen(state, seat, victim, colour)
    st.thieves.pop(0)
    _next_thief(state, events)


def _move_stolen(state: State, thief: int, victim: int, colour: str) -> None:
    state.hoards[victim][colour] -= 1
    state.hoards[thief][colour] += 1
    state.stats["thefts"] += 1
    table.note(state, thief, {"type": "stole", "seat": victim, "colour": colour})
    table.note(state, victim, {"type": "robbed", "seat": thief, "colour": colour})


def take(state: State, seat: int, action: TakeColour, events: list[Event]) -> None:
    st = state.settlement()
    colour, victim = action.colour, st.victim
    assert victim is not None
    if state.hoards[victim][colour] == 0:
        raise IllegalAction(
            f"seat {victim} has no {colour!r} token",
            "action.colour",
            reason="dg_colour_not_held",
            params={"colour": colour},
        )
    _move_stolen(state, seat, victim, colour)
    events.append({"type": "theft_taken", "seat": seat, "from": victim})
    st.thieves.pop(0)
    _next_thief(state, events)


def decline(state: State, seat: int, action: Any, events: list[Event]) -> None:
    """The thief takes nothing (before choosing a screen, or after looking behind one)."""
    st = state.settlement()
    events.append({"type": "theft_declined", "seat": seat})
    st.thieves.pop(0)
    _next_thief(state, events)


# --- legal actions ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def _split_by_attack(
    treasure: tuple[tuple[str, int], ...],
    parts: tuple[int, ...],
    attack: tuple[int, ...],
    seats: int,
    advanced: bool,
) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """The proposal by attack, sparse and frozen (it is asked for at every step of a
    negotiation, which changes neither the treasure nor the attack)."""
    values = token_values(seats, advanced)
    split = weighted_split(dict(treasure), list(parts), [float(a) for a in attack], values)
    return tuple((p, tuple(sparse(t).items())) for p, t in split.items())


def legal_proposals(state: State, seat: int) -> list[Action]:
    """Representative proposals (``apply`` accepts any complete split): the split by
    contribution, and 'everything to one participant' for each; the answers to the current
    proposal. Tokens are listed sparse (only the colours given), as a client would write them."""
    st = state.settlement()
    treasure = full(_treasure(state))
    parts = st.participants
    by_attack = _split_by_attack(
        tuple(treasure.items()),
        tuple(parts),
        tuple(st.attack),
        state.seats,
        state.options["advanced"],
    )
    out: list[Action] = [{"type": "propose", "shares": {p: dict(t) for p, t in by_attack}}]
    for p in parts:
        shares = {str(q): (sparse(treasure) if q == p else {}) for q in parts}
        out.append({"type": "propose", "shares": shares})
    proposal = st.proposal
    if proposal is not None and proposal["by"] != seat:
        said = proposal["answers"][str(seat)]
        for kind in ("accept", "reject"):
            if said != kind:
                out.append({"type": kind, "proposal": proposal["number"]})
    return out


def legal_divide(state: State, seat: int) -> list[Action]:
    """Balanced lots, and 'one lot holds everything' (``apply`` accepts any division)."""
    treasure = full(_treasure(state))
    k = len(state.settlement().participants)
    values = token_values(state.seats, state.options["advanced"])
    lots = [sparse(lot) for lot in balanced_lots(treasure, k, values)]
    one: list[dict[str, Any]] = [sparse(treasure)] + [{} for _ in range(k - 1)]
    return [{"type": "divide", "lots": lots}, {"type": "divide", "lots": one}]


def legal_pick(state: State, seat: int) -> list[Action]:
    taken = state.settlement().taken or []
    return [{"type": "pick", "lot": i} for i, t in enumerate(taken) if t is None]


def legal_steal(state: State, seat: int) -> list[Action]:
    return [{"type": "steal", "from": v} for v in victims(state, seat)] + [{"type": "decline"}]


def legal_look(state: State, seat: int) -> list[Action]:
    victim = state.settlement().victim
    assert victim is not None
    hoard = state.hoards[victim]
    return [{"type": "take", "colour": c} for c in COLOURS if hoard[c]] + [{"type": "decline"}]
