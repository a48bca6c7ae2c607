"""Dragon's Gold views: exactly what one seat (or a spectator) may see, and what is secret.

The view contract (API clients and tests read these fields; ``data/view_schema.json`` is the
schema, the README and the OpenAPI description point to it):

- ``phase``: ``"fight" | "negotiation" | "market" | "over"``; ``turn``: the seat to play in the
  fight (else ``null``); ``me``: the viewing seat (``null``: a spectator);
- ``bag``: tokens left in the bag (a count); ``removed``: ``{colour: n}`` tokens that left the
  game; ``deck``: dragons left in the deck; ``market_card``: ``"deck" | "open" | "gone"``;
- ``dragons``: the row, ``[{"id", "strength", "treasure": {colour: n}, "hunters": [{"seat",
  "hunter", "attack", "sword"}], "attack", "slain"}]``, the first hunter played first; a slain
  dragon stays, with its treasure, until its split is settled;
- ``players[i]``: ``seat``, ``tokens`` (a count, public), ``hoard`` (``{colour: n}`` for the seat
  itself, and for everyone once the game is over; ``null`` for others while it runs),
  ``hunters`` (hunter → ``"up" | "down" | "played"``), ``items`` (magic items in hand, a count)
  and ``hand`` (the cards, ``[{"card", "item"}]``, like ``hoard``);
- ``negotiation``: the slain dragon's settlement (``null`` outside it): participants, their
  attack, picking order, ``mode`` (``"sole" | "timed" | "division" | "even" | "none"``), ``step``
  (``"proposals" | "divide" | "pick" | "steal" | "look"``), the current ``proposal`` with its
  answers, ``proposals`` (how many were made: the bots' patience grows with it), lots, thieves;
  ``looking_at`` (the looking thief's view only) is the hoard a wizard-and-thief player picks from;
- ``market``: open offers, who is done, hoards shown by their owners, the offers refused and
  how many offers each seat made (``null`` when closed);
- ``notes``: what only this seat learned (thefts' colours, items drawn, a look behind a screen);
- ``discard``: used magic items (public); ``item_deck``: cards left there;
- ``scores`` (``null`` while the game runs), ``breakdown`` (per seat: token points, sets,
  majorities, total) and ``winners``.
"""

from __future__ import annotations

from typing import Any

from games.dragons_gold import table
from games.dragons_gold.data import DRAGONS, count, full
from games.dragons_gold.table import SETTLEMENT, Dragon, DragonsGoldState
from games.state import OVER

State = DragonsGoldState


def phase_name(state: State) -> str:
    """The phase as views name it: every step of a settlement is the ``"negotiation"``."""
    return "negotiation" if state.phase in SETTLEMENT else state.phase


def declared_phase(view: dict[str, Any]) -> str:
    """The declared phase (``games.dragons_gold.engine.PHASES``) a view is in: its ``phase``,
    or a settlement's step (views call every step the ``"negotiation"``), for the code that
    asks the phase's hooks (``GameKind.phase_hook``)."""
    neg = view.get("negotiation")
    return neg["step"] if view["phase"] == "negotiation" and neg is not None else view["phase"]


def _dragon(dragon: Dragon) -> dict[str, Any]:
    return {
        "id": dragon.id,
        "strength": DRAGONS[dragon.id]["strength"],
        "treasure": full(dragon.treasure),
        "hunters": [dict(e) for e in dragon.stack],
        "attack": table.attack(dragon),
        "slain": dragon.slain,
    }


def _negotiation(state: State, seat: int | None) -> dict[str, Any] | None:
    st = state.settle
    if st is None:
        return None
    proposal = st.proposal
    out = {
        "dragon": st.dragon,
        "slayer": st.slayer,
        "participants": list(st.participants),
        "attack": list(st.attack),
        "order": list(st.order),
        "divider": st.order[-1],
        "mode": st.mode,
        "step": state.phase,
        "seconds": state.options["negotiation_seconds"] if st.mode == "timed" else None,
        "wizard": None if st.wizard is None else dict(st.wizard),
        "proposals": st.proposals,
        "proposal": None
        if proposal is None
        else {
            "number": proposal["number"],
            "by": proposal["by"],
            "shares": {k: dict(v) for k, v in proposal["shares"].items()},
            "answers": dict(proposal["answers"]),
        },
        "lots": None if st.lots is None else [dict(lot) for lot in st.lots],
        "taken": None if st.taken is None else list(st.taken),
        "outcome": st.outcome,
        "received": None if st.received is None else {k: dict(v) for k, v in st.received.items()},
        "thieves": list(st.thieves),
        "thief": st.thief,
        "victim": st.victim,
        "looking_at": None,
    }
    if state.phase == "look" and seat is not None and seat == st.thief:
        assert st.victim is not None
        out["looking_at"] = {"seat": st.victim, "hoard": dict(state.hoards[st.victim])}
    return out


def _market(state: State) -> dict[str, Any] | None:
    mk = state.market
    if mk is None:
        return None
    return {
        "offers": [{**o, "give": dict(o["give"]), "get": dict(o["get"])} for o in mk.offers],
        "done": list(mk.done),
        "shown": [{"seat": s, "hoard": dict(state.hoards[s])} for s in mk.shown],
        "seconds": state.options["market_seconds"],
        "refused": [{**o, "give": dict(o["give"]), "get": dict(o["get"])} for o in mk.refused],
        "made": [mk.made.get(str(s), 0) for s in range(state.seats)],
    }


def observe(state: State, seat: int | None) -> dict[str, Any]:
    over = state.phase == OVER
    players = []
    for s in range(state.seats):
        visible = over or s == seat
        players.append(
            {
                "seat": s,
                "tokens": count(state.hoards[s]),
                "hoard": dict(state.hoards[s]) if visible else None,
                "hunters": dict(state.hunters[s]),
                "items": len(state.hands[s]),
                "hand": [table.card_json(c) for c in state.hands[s]] if visible else None,
            }
        )
    final = state.final
    scores = None if final is None else [row["total"] for row in final]
    return {
        "phase": phase_name(state),
        "me": seat,
        "seats": state.seats,
        "options": dict(state.options),
        "turn": state.current,
        "moves": state.moves,
        "bag": len(state.bag),
        "deck": len(state.deck),
        "market_card": state.market_card,
        "removed": dict(state.removed),
        "dragons": [_dragon(d) for d in state.row],
        "players": players,
        "negotiation": _negotiation(state, seat),
        "market": _market(state),
        "notes": [] if seat is None else [dict(n) for n in state.notes[seat]],
        "discard": [table.card_json(c) for c in state.discard],
        "item_deck": len(state.item_deck),
        "scores": scores,
        "breakdown": None if final is None else final,
        "winners": [] if scores is None else [s for s, v in enumerate(scores) if v == max(scores)],
    }


def hoard_exposed(state: State, seat: int) -> bool:
    """Another seat legitimately sees ``seat``'s hoard as it is now, in a view of its own: a
    wizard-and-thief looking behind this screen, or a Crystal ball's snapshot (held in another
    seat's notes) equal to it. (A hoard shown at the market is in every view: still declared,
    the owner's view shows it twice.) Equal values cannot be told apart, so a snapshot equal to
    this hoard exposes it whoever was looked at."""
    st = state.settle
    if st is not None and state.phase == "look" and st.victim == seat:
        return True
    hoard = state.hoards[seat]
    return any(
        n["type"] == "looked" and n["hoard"] == hoard
        for other, notes in enumerate(state.notes)
        if other != seat
        for n in notes
    )


def private_items(state: State, seat: int) -> list[Any]:
    """The hoard (unless someone else sees it now), the cards in hand and the notes; once over,
    the hoards and hands only (every view shows them then)."""
    hand = [table.card_json(c) for c in state.hands[seat]]
    if state.phase == OVER:
        return [dict(state.hoards[seat]), *hand]
    items: list[Any] = [] if hoard_exposed(state, seat) else [dict(state.hoards[seat])]
    return items + hand + [dict(n) for n in state.notes[seat]]


def hidden_items(state: State) -> list[Any]:
    """The deck's dragon cards, the item deck's cards and the bag's order."""
    out: list[Any] = [dict(DRAGONS[d]) for d in state.deck]
    out += [table.card_json(c) for c in state.item_deck]
    if state.bag:
        out.append(list(state.bag))
    return out
