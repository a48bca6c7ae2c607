"""Isla Dorada bots: ``random`` (any legal action) and ``planner`` (``games.isla_dorada.planner``).

Each is a callable ``(view, legal_actions, rng) -> action`` that sees only its seat's view.
"""

from __future__ import annotations

import random

from games.base import Action, Bot
from games.isla_dorada.planner import plan


def random_bot(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return dict(rng.choice(legal))


BOTS: dict[str, Bot] = {"random": random_bot, "planner": plan}
