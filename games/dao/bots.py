"""DAO bots. Each is a callable ``(view, legal_actions, rng) -> action`` that sees only its view.

The levels (``games.base.LEVELS``; the older names stay as aliases, ``ALIASES``):

- ``easy`` (was ``random``): a uniformly random legal action (ignores the view).
- ``normal`` (was ``greedy``): the better immediate expected score change (the helper's advice),
  no look-ahead.
- ``strong`` (``strong_bot``): determinized rollouts of take and turn, each played to the game's
  end by the normal rule for every seat in deals sampled from the view (``games.dao.strong``);
  its default move is the one-turn look-ahead ``ev_bot``.
- ``ev_bot`` (the ``strong`` level until the rollouts beat it; ``ev`` is an alias of ``strong``
  now): exact expected score change now, minus the expected gain of the next seat, who faces
  the position the action leaves (``odds.action_values``), my score minus the others' average.

The bust probabilities come from the view's ``unseen`` counts: the cards never seen face up.
"""

from __future__ import annotations

import random

from games.base import Action, Bot, legal_only
from games.dao import odds, strong
from games.search import thinker
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking

#: How much the next seat's gain counts against mine, times ``1 / (seats - 1)``. 1 = score minus
#: the others' average. Measured with ``games.simulate`` (README): with 2 seats the look-ahead
#: wins ~60% against ``greedy``; with 4 seats it is level with ``greedy`` (hence the rollouts).
OPPONENT_WEIGHT = 1.0

_TAKE = {"type": "take"}
_TURN = {"type": "turn"}


@legal_only
def random_bot(legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly (``legal_only``: no view is built for it)."""
    return dict(rng.choice(legal))


def _choose(legal: list[Action], values: dict[str, float]) -> Action:
    kinds = {a.get("type") for a in legal}
    if "turn" in kinds and ("take" not in kinds or values["turn"] > values["take"]):
        return dict(_TURN)
    return dict(_TAKE) if "take" in kinds else dict(legal[0])


def greedy_bot(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The action with the better immediate expected score change (the helper's advice)."""
    if len(legal) < 2:
        return dict(legal[0])
    return _choose(legal, odds.action_values(odds.position_from_view(view)))


def make_ev_bot(opponent_weight: float = OPPONENT_WEIGHT) -> Bot:
    """An expected-value bot weighing the next seat's gain ``opponent_weight / (seats - 1)``."""

    def ev_bot(view: dict, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) < 2:
            return dict(legal[0])
        weight = opponent_weight / max(len(view["players"]) - 1, 1)
        pos = odds.position_from_view(view)
        return _choose(legal, odds.action_values(pos, odds.others_estimate(view), weight))

    ev_bot.__doc__ = f"Expected value, the next seat's gain weighed {opponent_weight}/(seats-1)."
    return ev_bot


ev_bot = make_ev_bot()


@thinker
def strong_bot(
    view: dict, legal: list[Action], rng: random.Random, thinking: Thinking = DEFAULT_THINKING
) -> Action:
    """Determinized rollouts of take and turn (``games.dao.strong``) within ``thinking``'s
    budget, the one-turn look-ahead's move (``ev_bot``) the default."""
    default = ev_bot(view, legal, rng)
    assert default is not None  # the look-ahead always answers
    return strong.choose(view, legal, rng, default, thinking).move


BOTS: dict[str, Bot] = {"easy": random_bot, "normal": greedy_bot, "strong": strong_bot}
ALIASES: dict[str, str] = {"random": "easy", "greedy": "normal", "ev": "strong"}
