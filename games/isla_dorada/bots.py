"""Isla Dorada bots, callables ``(view, legal_actions, rng) -> action`` that see only their seat's
view. The levels (``games.base.LEVELS``; the older names stay as aliases, ``ALIASES``): ``easy``
(was ``random``: any legal action), ``normal`` (was ``planner``: ``games.isla_dorada.planner``)
and ``strong`` (``games.isla_dorada.strong``: determinized one-round rollouts of a few candidate
bids, the others' goal cards inferred from the view, ``games.isla_dorada.inference``; within a
think budget counted in rollouts).
"""

from __future__ import annotations

import random

from games.base import Action, Bot, legal_only
from games.isla_dorada.planner import plan
from games.isla_dorada.strong import strong_bot


@legal_only
def random_bot(legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly (``legal_only``: no view is built for it)."""
    return dict(rng.choice(legal))


BOTS: dict[str, Bot] = {"easy": random_bot, "normal": plan, "strong": strong_bot}
ALIASES: dict[str, str] = {"random": "easy", "planner": "normal"}
