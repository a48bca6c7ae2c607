"""The shared determinized search (``games.search``): its budget (the full count from the
``Thinking`` or the game's default, scaled by the effort, never below what still searches), its
race (a clearly worse candidate drops out, the budget left unspent), its choice (the default
unless clearly beaten), its determinism; and every game's strong bot through it: legal moves
from views only, the same decision from the same view, generator and ``Thinking``, and fewer
rollouts spent at a lower effort."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games import search as S
from games.base import SYSTEM, get_kind, next_bot_action
from games.dao import strong as dao_strong
from games.dao.bots import ev_bot
from games.dragons_gold import strong as dragons_gold_strong
from games.isla_dorada import strong as isla_dorada_strong
from games.isla_dorada.sampling import SAMPLED_PHASES
from games.thinking import Thinking
from games.tobago import search as tobago_search


class Nowhere(ValueError):
    """A view that does not add up (the synthetic game's)."""


SETTINGS = S.Settings("synthetic", 40, 0.05, Nowhere)


def problem(means: list[float], noise: float = 1.0) -> S.Problem[random.Random]:
    """Candidates whose value in a world is their mean plus the world's noise (common to all
    candidates, as a determinization is) plus a little of their own."""
    moves = [{"type": "move", "n": i} for i in range(len(means))]

    def play(world: random.Random, move: dict) -> float:
        shared = world.gauss(0.0, noise)
        own = random.Random(world.random() + move["n"]).gauss(0.0, 0.1)
        return means[move["n"]] + shared + own

    return S.Problem(moves, lambda r: random.Random(r.random()), play)


# --- the budget ---------------------------------------------------------------------------------


def test_the_budget_is_the_thinkings_count_or_the_default_times_the_effort():
    assert S.budget(SETTINGS, Thinking(), 4) == 40
    assert S.budget(SETTINGS, Thinking({"synthetic": 100}), 4) == 100
    assert S.budget(SETTINGS, Thinking({"other": 100}), 4) == 40
    assert S.budget(SETTINGS, Thinking(effort=0.5), 4) == 20
    assert S.budget(SETTINGS, Thinking(effort=0.01), 4) == 4  # one rollout a candidate at least
    assert S.budget(SETTINGS, Thinking({"synthetic": 3}), 4) == 0  # too few: the default move
    each = replace(SETTINGS, per_candidate=True, z=1.5)
    assert S.budget(each, Thinking(), 3) == 120
    assert S.budget(each, Thinking(effort=0.001), 3) == 6  # two a candidate for a paired test


def test_the_environment_is_read_at_the_edge_only():
    found = S.thinking_from_environ({"TOBAGO_STRONG_ROLLOUTS": "12", "PATH": "/bin"})
    assert found.rollouts == {"tobago": 12} and found.effort == 1.0
    with pytest.raises(ValueError, match="DAO_STRONG_ROLLOUTS"):
        S.thinking_from_environ({"DAO_STRONG_ROLLOUTS": "0"})


# --- the race and the choice --------------------------------------------------------------------


def test_a_clearly_better_candidate_wins_and_the_worse_ones_leave_early():
    decision = S.search(SETTINGS, problem([0.0, 3.0, -3.0, -2.0]), random.Random(1))
    assert decision.index == 1 and decision.move == {"type": "move", "n": 1}
    assert decision.budget == 40 and decision.spent < 40  # the race saved rollouts
    assert len(decision.values[2]) < len(decision.values[1])


def test_close_candidates_spend_the_whole_budget_and_keep_the_default():
    decision = S.search(SETTINGS, problem([0.0, 0.01, 0.0, -0.01], noise=1.0), random.Random(2))
    assert decision.index == 0 and decision.spent == 40


def test_the_default_is_kept_unless_another_beats_it_by_the_margin():
    wide = replace(SETTINGS, margin=1.0)
    assert S.search(wide, problem([0.0, 0.5]), random.Random(3)).index == 0
    assert S.search(wide, problem([0.0, 1.5]), random.Random(3)).index == 1


def test_the_paired_test_and_one_round_for_all_candidates():
    paired = replace(SETTINGS, z=1.5, halving=False, per_candidate=True, rollouts=8)
    decision = S.search(paired, problem([0.0, 0.3, -0.2], noise=1.0), random.Random(4))
    assert decision.index == 1  # the worlds' noise is shared: the pairing sees through it
    assert all(len(v) <= 8 for v in decision.values)


def test_the_decision_is_a_function_of_the_generator_and_the_thinking():
    p = problem([0.0, 0.2, 0.1, -0.1, 0.15])
    first = S.search(SETTINGS, p, random.Random(5), Thinking(effort=0.5))
    again = S.search(SETTINGS, p, random.Random(5), Thinking(effort=0.5))
    assert (first.index, first.spent, first.values) == (again.index, again.spent, again.values)


def test_no_choice_no_budget_or_a_view_that_does_not_add_up_give_the_default():
    assert S.search(SETTINGS, problem([1.0]), random.Random(0)).spent == 0
    poor = Thinking({"synthetic": 1})
    assert S.search(SETTINGS, problem([0.0, 5.0]), random.Random(0), poor).index == 0

    def nowhere(r: random.Random) -> random.Random:
        raise Nowhere("no such world")

    broken = replace(problem([0.0, 5.0]), sample=nowhere)
    assert S.search(SETTINGS, broken, random.Random(0)).move == {"type": "move", "n": 0}


def test_a_copied_world_is_sampled_once_per_seed():
    sampled = []
    p = problem([0.0, 0.0, 0.0])

    def sample(r: random.Random) -> random.Random:
        sampled.append(1)
        return random.Random(r.random())

    def copy(world: random.Random) -> random.Random:
        other = random.Random()
        other.setstate(world.getstate())
        return other

    plain = S.search(SETTINGS, p, random.Random(6))
    cached = S.search(SETTINGS, replace(p, sample=sample, copy=copy), random.Random(6))
    assert cached.values == plain.values and len(sampled) < cached.spent


def test_the_observer_hears_of_every_search(monkeypatch):
    heard = []
    monkeypatch.setattr(S, "observe", lambda kind, d: heard.append((kind, d.spent)))
    decision = S.search(SETTINGS, problem([0.0, 2.0]), random.Random(7))
    assert heard == [("synthetic", decision.spent)]


# --- every game's strong bot through it ---------------------------------------------------------

SMALL = {"tobago": 12, "dao": 16, "isla_dorada": 4, "dragons_gold": 6}
SEATS = {"tobago": 2, "dao": 4, "isla_dorada": 4, "dragons_gold": 5}


def searched_positions(name: str, seed: int, count: int) -> list[tuple[dict, list]]:
    """(view, legal) of ``count`` decisions the strong bot searches (every other one), from
    normal bots' games."""
    kind = get_kind(name)
    state = kind.new_state(seed, SEATS[name], None)
    rng = random.Random(seed)
    out: list[tuple[dict, list]] = []
    seen = 0
    while not kind.is_over(state) and len(out) < count:
        seat = kind.to_act(state)[0]
        view, legal = kind.view(state, seat), kind.legal_actions(state, seat)
        if len(legal) > 1 and searches(name, view, legal):
            seen += 1
            if seen % 2 == 0:
                out.append((view, legal))
        found = next_bot_action(kind, state, ["normal"] * SEATS[name], lambda: rng)
        if found is None:
            kind.apply(state, SYSTEM, kind.timeout_action(state, rng))
        else:
            kind.apply(state, *found)
    return out


def searches(name: str, view: dict, legal: list) -> bool:
    """Whether the strong bot searches at ``view``."""
    if name == "tobago":
        return len(tobago_search.candidates(view, legal, 3)) > 1
    if name == "dragons_gold":
        return view["phase"] == "fight"
    if name == "isla_dorada":
        return (
            view["phase"] in SAMPLED_PHASES
            and len(isla_dorada_strong.candidates(view, legal, 3)) > 1
        )
    return True


def decide(name: str, view: dict, legal: list, rng: random.Random, thinking: Thinking):
    """The strong bot's decision at ``view`` (a ``games.search.Decision``)."""
    if name == "tobago":
        return tobago_search.choose(view, legal, rng, thinking)
    if name == "dao":
        return dao_strong.choose(view, legal, rng, ev_bot(view, legal, rng), thinking)
    if name == "isla_dorada":
        return isla_dorada_strong.choose(view, legal, rng, thinking)
    return dragons_gold_strong._fight(view, legal, rng, thinking)


@pytest.fixture
def short(monkeypatch):
    monkeypatch.setattr(tobago_search, "HORIZON", 2)
    monkeypatch.setattr(tobago_search, "CANDIDATES", 3)


@pytest.mark.parametrize("name", sorted(SEATS))
def test_every_strong_bot_decides_from_the_view_alone_the_same_each_time(name, short):
    thinking = Thinking(rollouts=SMALL)
    spent = 0
    for view, legal in searched_positions(name, 3, 3):
        copy = json.loads(json.dumps(view))  # a view is JSON: nothing else reaches the bot
        first = decide(name, view, legal, random.Random(11), thinking)
        again = decide(name, copy, legal, random.Random(11), thinking)
        assert first.move in legal and first.move == again.move
        assert first.spent == again.spent <= max(first.budget, 0)
        spent += first.spent
    assert spent > 0  # the search ran


@pytest.mark.parametrize("name", sorted(SEATS))
def test_a_lower_effort_spends_fewer_rollouts_and_still_plays_a_legal_move(name, short):
    full = Thinking(rollouts=SMALL)
    low = full.at(0.25)
    spent = {"full": 0, "low": 0}
    for view, legal in searched_positions(name, 4, 3):
        a = decide(name, view, legal, random.Random(2), full)
        b = decide(name, view, legal, random.Random(2), low)
        assert b.move in legal and a.move in legal
        assert b.spent <= b.budget and (b.budget < a.budget or a.budget == 0)
        spent["full"] += a.spent
        spent["low"] += b.spent
    assert spent["low"] < spent["full"]


@pytest.mark.parametrize("name", sorted(SEATS))
def test_the_registered_strong_level_takes_its_thinking(name):
    bot = get_kind(name).bots["strong"]
    assert getattr(bot, "thinks", False)
