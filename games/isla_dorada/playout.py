"""A rollout's moves applied to a sampled state without the service's checks (the strong bot's
rollouts, ``games.isla_dorada.strong``).

``GameKind.apply`` is the one door for a player's move: it checks the action's shape, the seat,
the turn, the action's type and the running stage before it applies the move, then keeps the
turn clocks, the seats' presence and the last events. A rollout applies thousands of moves a
decision, each one of the engine's own legal actions for the seat to act: ``play`` skips the
checks a legal action always passes (shape, seat, turn, type, stage) and does everything else
as ``apply`` does (the action parsed against its declaration, the same move of the same phase
counted against the phase's limits, the phases entered begun, the clocks, the presence, the
last events). It must only ever see a legal action of the seat to act;
``tests/test_isla_dorada_cheap.py`` checks that it leaves a state exactly as ``apply`` does.
"""

from __future__ import annotations

from typing import Any

from games import turns
from games.actions import Action, parse
from games.isla_dorada.state import IslaState
from games.phases import run


def play(kind: Any, state: IslaState, seat: int, action: Action) -> None:
    """Apply ``action``, one of ``seat``'s legal actions now, to ``state`` (module doc)."""
    if action["type"] == turns.BACK:
        kind.apply(state, seat, action)
        return
    phase = kind.phases[state.phase]
    move = phase.by_name[action["type"]]
    checked = parse(move.declared, action)

    def work(events: list[dict]) -> None:
        turns.counted(
            state, phase, seat, move.name, lambda: move.apply(state, seat, checked, events)
        )

    before = phase.to_act(state) if turns.clocked(state) else None
    events = run(kind.phases, state, work)
    turns.mark_presence(state, seat, action, seat, events)
    if before is not None:
        turns.track(state, before, kind.to_act(state), seat)
    kind.after_action(state, seat, action, events)
