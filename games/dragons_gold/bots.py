"""Dragon's Gold bots: callables ``(view, legal_actions, rng) -> action | None``; views only.

The levels (``games.base.LEVELS``; the older names stay as aliases, ``ALIASES``):

- ``easy`` (``random``): a uniformly random legal action. In a timed phase (the negotiation's
  proposals, the market) it first flips a coin and, half the time, says nothing (``None``): on
  the simulated clock of ``games.base.play_bots`` the phase then ends when every bot keeps
  quiet at once. At the market it trades as the normal level does, taking a random helpful
  swap instead of the best (``games.dragons_gold.trading``).
- ``normal`` (``greedy``): a stated, deterministic policy, ``games.dragons_gold.greedy``
  (tokens at their public worth, splits by attack, a patience that grows with the proposals).
- ``strong``: ``games.dragons_gold.strong`` (determinized rollouts of the fight over a few
  candidate plays, the others' hoards inferred from the view: ``games.dragons_gold.sampling``;
  splits weighed by what they are worth to each seat on those hoards), within a think budget
  counted in rollouts; at the market, ``games.dragons_gold.strong_trading`` (swaps weighed by
  its margin on the hoards it infers).

Every level trades at the market: it makes and accepts swaps that raise its own estimate of
its score, and leaves when none does (``games.dragons_gold.trading``).
"""

from __future__ import annotations

import random

from games.base import Action, Bot, get_kind
from games.dragons_gold.greedy import greedy_bot
from games.dragons_gold.strong import strong_bot
from games.dragons_gold.views import declared_phase
from games.search import thinker
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking


def _timed(view: dict) -> bool:
    """Whether the view's phase runs against a clock (it declares a ``PhaseTimer``)."""
    phase = get_kind("dragons_gold").phases.get(declared_phase(view))
    return phase is not None and phase.timer is not None


def random_bot(view: dict, legal: list[Action], rng: random.Random) -> Action | None:
    """Any legal action; in a timed phase, half the time nothing; at the market, a random
    helpful swap."""
    if _timed(view) and rng.random() < 0.5:
        return None
    piece = get_kind("dragons_gold").bot_hook(declared_phase(view), "easy")
    return dict(rng.choice(legal)) if piece is None else piece(view, legal, rng)


@thinker
def strong_level(
    view: dict, legal: list[Action], rng: random.Random, thinking: Thinking = DEFAULT_THINKING
) -> Action | None:
    """The strong bot (``strong.strong_bot``, within ``thinking``'s budget), trading at the
    market by ``strong_market`` (the phase's ``Phase.bot["strong_level"]`` piece)."""
    piece = get_kind("dragons_gold").bot_hook(declared_phase(view), "strong_level")
    return strong_bot(view, legal, rng, thinking) if piece is None else piece(view, legal, rng)


BOTS: dict[str, Bot] = {"easy": random_bot, "normal": greedy_bot, "strong": strong_level}
ALIASES: dict[str, str] = {"random": "easy", "greedy": "normal"}
