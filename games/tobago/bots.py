"""Tobago bots: callables ``(view, legal_actions, rng) -> action`` that see only their seat's view.

The levels (``games.base.LEVELS``; the older names stay as aliases, ``ALIASES``):

- ``easy`` (was ``random``): a random legal action. It first picks an action *type* uniformly,
  then an action of that type, so that a rare choice (``raise``, ``exchange``) is not drowned by
  the dozens of ``drive`` destinations; otherwise it knows nothing (``legal_only``: no view is
  built for it).
- ``normal`` (was ``strategic``): see ``games.tobago.strategy`` (the solver's hints for clue
  plays, fixed rules for the rest).
- ``strong``: see ``games.tobago.search`` (determinized rollouts of the normal bot's play over a
  few candidate moves, within a think budget counted in rollouts).
"""

from __future__ import annotations

import random

from games.base import Action, Bot, legal_only
from games.tobago.search import strong_bot
from games.tobago.strategy import strategic_bot


@legal_only
def random_bot(legal: list[Action], rng: random.Random) -> Action:
    """A random legal action: a uniformly random type, then a uniformly random action of it."""
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    kind = rng.choice(sorted(by_type))
    return dict(rng.choice(by_type[kind]))


BOTS: dict[str, Bot] = {"easy": random_bot, "normal": strategic_bot, "strong": strong_bot}
ALIASES: dict[str, str] = {"random": "easy", "strategic": "normal"}
