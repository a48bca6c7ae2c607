"""A rollout's moves applied to a sampled world without the service's checks.

``GameKind.apply`` is the one door for a player's move: it checks the action's shape, the
seat, the turn, the running stage, parses the action against its declaration, and keeps the
turn clocks and the seats' presence. A strong bot's rollout (``games.tobago.search``) applies
tens of thousands of moves a decision, each one chosen from the engine's own legal actions in a
world the bot sampled (no clock runs there, no seat is absent): ``play`` runs the same move of
the same phase (``Phase.by_name``, its ``Move.apply``, counted against the phase's limits, the
phases entered begun: ``games.phases.run``), with the parsed action kept per action (the
declared models are frozen), and nothing else. It must only ever see a legal action for the
seat to act; ``tests/test_tobago_direct.py`` checks that it leaves a world exactly as
``GameKind.apply`` does.
"""

from __future__ import annotations

from typing import Any

from games.actions import Action, parse
from games.base import GameKind
from games.phases import run
from games.tobago.state import TobagoState
from games.turns import counted

#: Parsed actions by their key (a rollout meets the same few hundred actions again and again).
_PARSED: dict[tuple, Any] = {}
#: The most parsed actions kept (Tobago's actions are few: drives, plays, answers...).
_KEPT = 20_000


def _key(action: Action) -> tuple:
    return tuple([(k, tuple(v) if v.__class__ is list else v) for k, v in action.items()])


def play(kind: GameKind[TobagoState], state: TobagoState, seat: int, action: Action) -> None:
    """Apply ``action``, one of ``seat``'s legal actions now, to ``state`` (module doc)."""
    phase = kind.phases[state.phase]
    move = phase.by_name[action["type"]]
    key = _key(action)
    checked = _PARSED.get(key)
    if checked is None:
        checked = parse(move.declared, action)
        if len(_PARSED) < _KEPT:
            _PARSED[key] = checked

    def work(events: list[dict]) -> None:
        counted(state, phase, seat, move.name, lambda: move.apply(state, seat, checked, events))

    if phase.limits:
        run(kind.phases, state, work)
    else:  # no move of the phase is counted (``counted`` would only call it)
        run(kind.phases, state, lambda events: move.apply(state, seat, checked, events))
