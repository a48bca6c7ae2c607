"""Dragon's Gold's market marks no bot due that cannot act (``Phase.bot["waits"]``,
``web.service.moves.bot_to_act``): a bot whose own offer is out and which has no offer to
answer says nothing at every level, so the table would ask it for nothing and the page would say
"thinking" for nothing (the bot-tables bench's long-poll waiting out its time)."""

from __future__ import annotations

import random
from types import SimpleNamespace

from games.base import SYSTEM, get_kind
from web.service.moves import bot_to_act, bot_waits

KIND = get_kind("dragons_gold")
LEVELS = ("easy", "normal", "strong")


def _walk(seed: int, level: str):
    """States of a division game (seat 0 a random human, seats 1-2 ``level`` bots) as the
    table plays it: the bots' moves while one has something to say, else the human's."""
    state = KIND.new_state(seed, 3, {"negotiation": "division"})
    rng = random.Random(seed)
    for _ in range(2000):
        if KIND.is_over(state):
            return
        yield state
        acting = KIND.to_act(state)
        bot = next(
            (
                (s, a)
                for s in acting
                if s and (a := KIND.bot_action(state, s, level, random.Random(s))) is not None
            ),
            None,
        )
        if bot is not None:
            KIND.apply(state, *bot)
        elif 0 in acting and (legal := KIND.legal_actions(state, 0)):
            KIND.apply(state, 0, rng.choice(legal))
        else:  # only the market's clock can move it on
            KIND.apply(state, SYSTEM, {"type": "timeout"})


def test_a_market_bot_said_to_wait_says_nothing_at_every_level_and_others_are_asked():
    waited = asked = 0
    for seed in range(3):
        for state in _walk(seed, "normal"):
            if state.phase != "market":
                continue
            for seat in KIND.to_act(state):
                if not seat:
                    continue
                if bot_waits(KIND, state, seat):
                    waited += 1
                    for level in LEVELS:
                        for r in range(3):
                            got = KIND.bot_action(state, seat, level, random.Random(r))
                            assert got is None, (level, got)
                else:
                    asked += 1
    assert waited and asked  # both cases were met


def test_no_bot_is_due_while_every_bot_at_the_market_waits():
    game = SimpleNamespace(
        seats=[
            SimpleNamespace(type=t, level=lv)
            for t, lv in (("human", None), ("bot", "normal"), ("bot", "normal"))
        ]
    )
    seen = set()
    for state in _walk(1, "normal"):
        bots = [s for s in KIND.to_act(state) if s]
        if state.phase == "market" and bots:
            due = bot_to_act(KIND, state, game)
            assert due == any(not bot_waits(KIND, state, s) for s in bots)
            seen.add(due)
    assert seen == {True, False}
