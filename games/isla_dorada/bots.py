"""Isla Dorada bots, callables ``(view, legal_actions, rng) -> action`` that see only their seat's
view. The levels (``games.base.LEVELS``; the older names stay as aliases, ``ALIASES``): ``easy``
(was ``random``: any legal action) and ``normal`` (was ``planner``: ``games.isla_dorada.planner``).
There is no ``strong`` level yet (it comes later): ``normal`` is the strongest, and the only
levels offered are these two.
"""

from __future__ import annotations

import random

from games.base import Action, Bot, legal_only
from games.isla_dorada.planner import plan


@legal_only
def random_bot(legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly (``legal_only``: no view is built for it)."""
    return dict(rng.choice(legal))


BOTS: dict[str, Bot] = {"easy": random_bot, "normal": plan}
ALIASES: dict[str, str] = {"random": "easy", "planner": "normal"}
