"""Dragon's Gold's strong bot: what it infers of the hidden tokens, states sampled from a view,
splits weighed on the inferred hoards, a move that depends on the view alone, and a short seeded
match against the normal bot."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import pytest

from games.base import get_kind
from games.dragons_gold import sampling, strong
from games.dragons_gold.engine import token_total
from games.dragons_gold.greedy import greedy_bot
from games.dragons_gold.scenario import position
from games.dragons_gold.splits import token_values, worth
from games.thinking import Thinking
from tests.bots import dragons_gold_midgame, strong_match

KIND = get_kind("dragons_gold")
SMALL = Thinking(rollouts={"dragons_gold": 4})


PUBLIC = ("phase", "turn", "bag", "deck", "market_card", "removed", "dragons", "seats")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_sampled_state_shows_the_seat_the_view_it_was_drawn_from(seed):
    state = dragons_gold_midgame(seed)
    me = state.current
    view = KIND.view(state, me)
    for k in range(5):
        sampled = sampling.sample_state(view, random.Random(k))
        assert token_total(sampled) == 126
        again = KIND.view(sampled, me)
        assert {f: again[f] for f in PUBLIC} == {f: view[f] for f in PUBLIC}
        assert again["players"] == view["players"]  # counts, hunters, my own hoard
        assert KIND.legal_actions(sampled, me) == KIND.legal_actions(state, me)
    draws = {
        tuple(
            tuple(sorted(h.items())) for h in sampling.sample_state(view, random.Random(k)).hoards
        )
        for k in range(5)
    }
    assert len(draws) > 1  # the hidden hoards are drawn, not copied


def test_the_inference_counts_every_unseen_token_and_pins_a_split_just_made():
    state = position(
        seats=3,
        row=[(1, {"gold": 2, "blue": 1}), (2, {}), (3, {}), (4, {})],
        stacks={0: [(0, "knight3")]},
        hoards={0: {"silver": 2}, 1: {"red": 1}, 2: {"green": 2}},
        bag_top=["gold", "blue", "blue"],
        turn=1,
    )
    KIND.apply(state, 1, {"type": "play", "hunter": "thief", "dragon": 0})  # 5 ≥ 5: slain
    assert state.phase == "proposals"
    shares = {"0": {"gold": 1, "blue": 1}, "1": {"gold": 2, "blue": 2}}
    KIND.apply(state, 0, {"type": "propose", "shares": shares})
    KIND.apply(state, 1, {"type": "accept", "proposal": 1})
    assert state.phase == "steal"  # seat 1's thief
    view = KIND.view(state, 0)
    inference = sampling.infer(view)
    assert inference.floors == {1: {"gold": 2, "blue": 2}}
    assert inference.room == {1: 1, 2: 2}  # seat 1: the red beyond its share
    assert sum(inference.unseen.values()) == view["bag"] + 3
    hoards, bag = sampling.sample_hoards(inference, random.Random(0))
    assert hoards[1]["gold"] >= 2 and hoards[1]["blue"] >= 2 and sum(hoards[1].values()) == 5
    assert len(bag) == view["bag"]


def _negotiation(my_hoard: dict[str, int]) -> dict:
    """Seat 0's view after seat 1 proposed the split by attack of a slain dragon's treasure
    (one blue, one gold, three silver; equal attack), the other screens nearly empty."""
    state = position(
        seats=4,
        row=[(1, {"blue": 1, "gold": 1}), (2, {}), (3, {}), (4, {})],
        stacks={0: [(0, "knight3")]},
        hoards={0: my_hoard, 1: {"silver": 1}, 2: {"silver": 1}, 3: {"gold": 1}},
        bag_top=["silver", "silver", "silver"],
        turn=1,
    )
    KIND.apply(state, 1, {"type": "play", "hunter": "knight3", "dragon": 0})
    assert state.phase == "proposals"
    KIND.apply(
        state, 1, greedy_bot(KIND.view(state, 1), KIND.legal_actions(state, 1), random.Random(0))
    )
    return KIND.view(state, 0)


def test_a_split_keeps_the_gem_that_wins_a_majority_and_gives_the_one_already_won():
    # No blue of mine: the blue decides the blue majority, so I give silver or gold instead.
    view = _negotiation({})
    weigher = strong.Weigher.sampled(view, random.Random(0), 8)
    split = strong.demand(view, weigher, set())
    assert split["0"]["blue"] == 1
    # Five blue of mine, a majority nobody can reach: the blue is what I give away.
    view = _negotiation({"blue": 5})
    split = strong.demand(view, strong.Weigher.sampled(view, random.Random(0), 8), set())
    assert split["1"]["blue"] == 1
    # Either way the other participant gets what the normal level accepts now (its fair share
    # less a patience of 2 proposals in 4).
    values = token_values(4, False)
    fair = worth(view["dragons"][0]["treasure"], values) / 2
    assert worth(split["1"], values) >= fair * 0.5


def test_the_strong_bot_proposes_its_demand_rather_than_accept_the_split_by_attack():
    view = _negotiation({"blue": 5})
    weigher = strong.Weigher.sampled(view, random.Random(0), 8)
    legal = [{"type": "propose", "shares": {}}, {"type": "accept", "proposal": 1}]
    action = strong.negotiate(view, legal, weigher)
    assert action is not None and action["type"] == "propose"
    assert action["shares"]["1"] == {"blue": 1}


def test_the_move_depends_on_the_view_alone():
    """Two states the seat cannot tell apart (the other screens and the bag hold other tokens,
    the counts unchanged) give the same move from the same generator."""
    state = dragons_gold_midgame(4)
    me = state.current
    other = copy.deepcopy(state)
    victim = next(s for s in range(other.seats) if s != me and sum(other.hoards[s].values()))
    given = next(c for c, n in other.hoards[victim].items() if n)
    swap = next(i for i, c in enumerate(other.bag) if c != given)
    other.hoards[victim][given] -= 1
    other.hoards[victim][other.bag[swap]] += 1
    other.bag[swap] = given
    random.Random(9).shuffle(other.bag)
    assert other.hoards != state.hoards and KIND.view(other, me) == KIND.view(state, me)
    moves = [
        strong.choose(KIND.view(s, me), KIND.legal_actions(s, me), random.Random(5), SMALL)
        for s in (state, other)
    ]
    assert moves[0] == moves[1]


def test_a_short_seeded_match_has_strong_ahead_of_normal(monkeypatch):
    """Five games at five seats, the strong seat in each seat once, on a small budget: it wins
    more than a fair share and scores more than the normal bots (the long figures:
    ``bench/strong_bots_bench.py``)."""
    monkeypatch.setattr(strong, "CANDIDATES", 2)
    monkeypatch.setattr(strong, "SAMPLES", 2)
    monkeypatch.setattr(strong, "SETTINGS", replace(strong.SETTINGS, rollouts=2))
    wins, mine, theirs = strong_match(KIND, 5, range(100, 105))
    assert wins >= 3 and mine > theirs, (wins, mine, theirs)
