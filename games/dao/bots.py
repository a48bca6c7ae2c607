"""DAO bots. Each is a callable ``(view, legal_actions, rng) -> action`` that sees only its view.

- ``random``: a uniformly random legal action (ignores the view).
- ``greedy``: the better immediate expected score change (the helper's advice), no look-ahead.
- ``ev``: expected score change looking one own decision ahead (``odds.action_values``), with the
  follow-up discounted by ``FOLLOW`` because other seats act in between.

The bust probabilities come from the view's ``unseen`` counts: the cards never seen face up.
"""

from __future__ import annotations

import random

from games.base import Action
from games.dao import odds

#: Weight of the follow-up decision in the ``ev`` bot (tuned with ``games.simulate``; see README).
FOLLOW = 0.5

_TAKE = {"type": "take"}
_TURN = {"type": "turn"}


def random_bot(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return dict(rng.choice(legal))


def _choose(legal: list[Action], values: dict[str, float]) -> Action:
    kinds = {a.get("type") for a in legal}
    if "turn" in kinds and ("take" not in kinds or values["turn"] > values["take"]):
        return dict(_TURN)
    return dict(_TAKE) if "take" in kinds else dict(legal[0])


def greedy_bot(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The action with the better immediate expected score change."""
    if len(legal) < 2:
        return dict(legal[0])
    return _choose(legal, odds.action_values(odds.position_from_view(view), 0.0))


def make_ev_bot(follow: float = FOLLOW):
    """An expected-value bot whose follow-up decision weighs ``follow`` (0 = greedy)."""

    def ev_bot(view: dict, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) < 2:
            return dict(legal[0])
        return _choose(legal, odds.action_values(odds.position_from_view(view), follow))

    ev_bot.__doc__ = f"Expected score change with a follow-up decision weighed {follow}."
    return ev_bot


ev_bot = make_ev_bot()

BOTS = {"random": random_bot, "greedy": greedy_bot, "ev": ev_bot}
