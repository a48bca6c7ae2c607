"""A Dragon's Gold rollout's moves, cheaper: applied without the service's checks, each seat's
legal actions listed once a step, and a partial view.

``GameKind.apply`` is the one door for a player's move: it checks the action's shape, the
seat, the turn, the running stage and the phase's limits, parses the action against its
declaration, and keeps the turn clocks and the seats' presence. A strong bot's rollout
(``games.dragons_gold.strong``) applies a whole game of moves per trial, each chosen from the
engine's own legal actions for a seat to act, in a world the bot sampled (no turn clock runs
there, no seat is absent or late). ``play`` runs the same move of the same phase
(``Phase.by_name``, its ``Move.apply``, counted against the phase's limits, the phases entered
begun: ``games.phases.run``) and nothing else; the table's own actions (a timer's) still go
through ``GameKind.apply``. ``to_move`` lists the seats that may act with their legal actions,
once each (``GameKind.to_act`` then ``legal_actions`` listed them twice).

**The view** (``rollout_view``): a rollout's policies away from the fight (the normal bot's
negotiation, picks and thefts, the strong seat's public negotiation; the market is closed by
its clock in a rollout, and the fight is read from the state: ``games.dragons_gold.direct``)
read the seat, the seat count, the options, the bag's size, the tokens out of the game, the
dragons' treasures, the players' token counts, the seat's own hoard and hand, and the
settlement; ``rollout_view`` builds those entries as ``views.observe`` does (the same values:
``tests/test_dragons_gold_cheap.py`` compares them) and leaves the rest out (the hunters on
the dragons, the others' hunters and items, notes, the discard, the market, the scores).
The same moves, the same random draws in the same order: a rollout plays exactly the
game it played before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.actions import Action, parse
from games.base import GameKind
from games.dragons_gold import table
from games.dragons_gold.data import count, full
from games.dragons_gold.table import DragonsGoldState
from games.dragons_gold.views import _negotiation, phase_name
from games.phases import run
from games.turns import counted


def play(
    kind: GameKind[DragonsGoldState], state: DragonsGoldState, seat: int, action: Action
) -> None:
    """Apply ``action``, one of ``seat``'s legal actions now, to ``state`` (module doc)."""
    phase = kind.phases[state.phase]
    move = phase.by_name[action["type"]]
    checked = parse(move.declared, action)

    def work(events: list[dict]) -> None:
        counted(state, phase, seat, move.name, lambda: move.apply(state, seat, checked, events))

    run(kind.phases, state, work)


def to_move(
    kind: GameKind[DragonsGoldState], state: DragonsGoldState
) -> Iterator[tuple[int, list[Action]]]:
    """The seats that may act now, in ``GameKind.to_act``'s order, each with its legal actions
    (a seat with none left out: it has spent what the phase offers it), listed as they are
    asked for (a caller stops at the first seat that moves)."""
    phase = kind.phases[state.phase]
    for seat in phase.to_act(state):
        legal = kind._legal(state, phase, seat)
        if legal:
            yield seat, legal


def rollout_view(state: DragonsGoldState, seat: int) -> dict[str, Any]:
    """The entries of ``seat``'s view that a rollout's policies read (module doc)."""
    players: list[dict[str, Any]] = [
        {"seat": s, "tokens": count(state.hoards[s]), "hoard": None, "hand": None}
        for s in range(state.seats)
    ]
    players[seat]["hoard"] = dict(state.hoards[seat])
    players[seat]["hand"] = [table.card_json(c) for c in state.hands[seat]]
    return {
        "phase": phase_name(state),
        "me": seat,
        "seats": state.seats,
        "options": dict(state.options),
        "bag": len(state.bag),
        "removed": dict(state.removed),
        "dragons": [{"id": d.id, "treasure": full(d.treasure)} for d in state.row],
        "players": players,
        "negotiation": _negotiation(state, seat),
    }
