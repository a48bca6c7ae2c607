"""Dragon's Gold's strong bot made cheaper, the same decisions (``games.dragons_gold.playout``):
a rollout through ``playout`` plays exactly the game the service's door plays, move for move
and draw for draw; its partial view holds the whole view's entries; and the search chooses
the same move with the same values from the same view, generator and budget."""

from __future__ import annotations

import copy
import random

import pytest

from games.base import SYSTEM, get_kind
from games.dragons_gold import direct, playout, strong
from games.dragons_gold.greedy import greedy_bot
from games.dragons_gold.sampling import sample_state
from games.dragons_gold.scoring import scores
from games.dragons_gold.splits import token_values
from games.state import OVER
from games.thinking import Thinking
from tests.bots import dragons_gold_midgame

KIND = get_kind("dragons_gold")
OPTIONS = [
    None,
    {"advanced": True},
    {"negotiation": "division"},
    {"advanced": True, "negotiation": "division"},
]
CASES = [(seed, options) for seed in (1, 2, 3) for options in OPTIONS]


def rollout_by_views(kind, state, seat: int, action: dict) -> list[float]:
    """``rollout`` through the service's door: every move by ``GameKind.apply``, every seat's
    whole view: the reference the cheap ``rollout`` is held to."""
    kind.apply(state, seat, action)
    for _ in range(strong.ROLLOUT_ACTIONS):
        if state.phase == OVER:
            break
        if state.phase == "market" and not strong.TRADE_IN_ROLLOUTS:
            kind.apply(state, SYSTEM, kind.timeout_action(state, state.rng))
            continue
        for actor in kind.to_act(state):
            legal = kind.legal_actions(state, actor)
            if not legal:
                continue
            view = kind.view(state, actor)
            if actor == seat:
                move = strong.rollout_policy(view, legal)
            else:
                move = greedy_bot(view, legal, strong._NO_CHANCE)
            if move is not None:
                kind.apply(state, actor, move)
                break
        else:
            kind.apply(state, SYSTEM, kind.timeout_action(state, state.rng))
    return scores(state.hoards, state.options["advanced"])


def _same(a, b) -> None:
    assert KIND.encode(a) == KIND.encode(b)
    assert a.rng.getstate() == b.rng.getstate()
    assert (a.moves, a.phase, a.phase_moves, a.hoards, a.bag) == (
        b.moves,
        b.phase,
        b.phase_moves,
        b.hoards,
        b.bag,
    )


@pytest.mark.parametrize(("seed", "options"), CASES)
def test_a_rollout_plays_the_game_the_service_door_plays(seed, options):
    """From sampled worlds, each candidate's rollout through ``playout`` ends in the very state
    (and generator) the reference rollout (``GameKind.apply``, whole views) ends in."""
    for steps in (5, 40):
        state = dragons_gold_midgame(seed, options, steps)
        me = state.current
        view = KIND.view(state, me)
        legal = KIND.legal_actions(state, me)
        for k in range(3):
            world = sample_state(view, random.Random(seed * 100 + k))
            for move in strong.candidates(view, legal, strong.CANDIDATES):
                fast, slow = copy.deepcopy(world), copy.deepcopy(world)
                got = strong.rollout(KIND, fast, me, move)
                want = rollout_by_views(KIND, slow, me, move)
                assert got == want
                assert fast.phase == OVER
                _same(fast, slow)


@pytest.mark.parametrize(("seed", "options"), CASES)
def test_playout_lists_applies_and_views_as_the_engine_does(seed, options):
    """Along a whole game of normal bots from a midgame: ``to_move`` lists ``to_act``'s seats
    with their legal actions; ``playout.play`` leaves the state ``GameKind.apply`` leaves; and
    ``rollout_view`` holds every entry it has exactly as the seat's whole view does, and the normal
    bot's fight read from the state (``direct.Fight``) plays what it plays on the view."""
    state = dragons_gold_midgame(seed, options, 10)
    fight = direct.Fight(state.seats, state.options["advanced"])
    checked = fights = 0
    while state.phase != OVER:
        if state.phase == "market":  # closed by its clock in a rollout
            KIND.apply(state, SYSTEM, KIND.timeout_action(state, state.rng))
            continue
        listed = list(playout.to_move(KIND, state))
        want = [(s, KIND.legal_actions(state, s)) for s in KIND.to_act(state)]
        assert listed == [(s, legal) for s, legal in want if legal]
        move = None
        for seat, legal in listed:
            whole = KIND.view(state, seat)
            part = playout.rollout_view(state, seat)
            for key, value in part.items():
                if key not in ("players", "dragons"):
                    assert value == whole[key], key
            for key in ("players", "dragons"):
                for mine, theirs in zip(part[key], whole[key], strict=True):
                    assert mine == {k: theirs[k] for k in mine}
            move = greedy_bot(whole, legal, random.Random(0))
            if state.phase == "fight":
                assert fight.move(state, seat, legal) == move
                fights += 1
            else:
                assert greedy_bot(part, legal, random.Random(0)) == move
                assert strong.rollout_policy(part, legal) == strong.rollout_policy(whole, legal)
            if move is not None:
                fast, slow = copy.deepcopy(state), copy.deepcopy(state)
                playout.play(KIND, fast, seat, move)
                KIND.apply(slow, seat, move)
                _same(fast, slow)
                playout.play(KIND, state, seat, move)
                checked += 1
                break
        if move is None:
            KIND.apply(state, SYSTEM, KIND.timeout_action(state, state.rng))
    assert checked > 20 and fights > 10


def test_the_public_weigher_reads_a_split_as_the_weigher_does():
    """``PublicWeigher.split_margin`` (my share read in place) equals the base class's (every
    share copied to floats, then ``margin``), for random splits."""
    state = dragons_gold_midgame(2, None, 10)
    view = KIND.view(state, state.current)
    weigher = strong.PublicWeigher(view)
    rng = random.Random(3)
    colours = list(token_values(5, False))
    for _ in range(200):
        shares = {str(s): {c: rng.randrange(4) for c in rng.sample(colours, 3)} for s in range(5)}
        want = strong.Weigher.split_margin(weigher, shares)
        assert weigher.split_margin(shares) == want


@pytest.mark.parametrize(("seed", "options"), CASES)
def test_the_strong_fight_decides_as_the_reference_does(seed, options, monkeypatch):
    """The shared search over the cheap rollouts chooses the move, with the very values, that
    it chooses over the reference rollouts, positions some turns in."""
    thinking = Thinking(rollouts={"dragons_gold": 9})
    for steps in (8, 50):
        state = dragons_gold_midgame(seed, options, steps)
        me = state.current
        view, legal = KIND.view(state, me), KIND.legal_actions(state, me)
        fast = strong._fight(view, legal, random.Random(seed + steps), thinking)
        with monkeypatch.context() as m:
            m.setattr(strong, "rollout", rollout_by_views)
            slow = strong._fight(view, legal, random.Random(seed + steps), thinking)
        assert (fast.move, fast.index, fast.spent, fast.values) == (
            slow.move,
            slow.index,
            slow.spent,
            slow.values,
        )
