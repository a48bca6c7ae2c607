"""Isla Dorada bots: ``random`` (any legal action) and ``planner`` (``games.isla_dorada.planner``).

Each is a callable ``(view, legal_actions, rng) -> action`` that sees only its seat's view.
"""

from __future__ import annotations

import random

from games.base import Action, Bot, legal_only
from games.isla_dorada.planner import plan


@legal_only
def random_bot(legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly (``legal_only``: no view is built for it)."""
    return dict(rng.choice(legal))


BOTS: dict[str, Bot] = {"random": random_bot, "planner": plan}
