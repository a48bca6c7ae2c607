"""Tobago bots: callables ``(view, legal_actions, rng) -> action`` that see only their seat's view.

- ``random``: a random legal action. It first picks an action *type* uniformly, then an action
  of that type, so that a rare choice (``raise``, ``exchange``) is not drowned by the dozens of
  ``drive`` destinations; otherwise it knows nothing (``legal_only``: no view is built for it).
- ``strategic``: see ``games.tobago.strategy`` (uses the solver's hints for clue plays).
"""

from __future__ import annotations

import random

from games.base import Action, Bot, legal_only
from games.tobago.strategy import strategic_bot


@legal_only
def random_bot(legal: list[Action], rng: random.Random) -> Action:
    """A random legal action: a uniformly random type, then a uniformly random action of it."""
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    kind = rng.choice(sorted(by_type))
    return dict(rng.choice(by_type[kind]))


BOTS: dict[str, Bot] = {"random": random_bot, "strategic": strategic_bot}
