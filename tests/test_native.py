"""The compiled copies of hot modules (``games.native``): ``make`` builds them, they play exactly
as their source does, and a copy that no longer matches its source is never used."""

from __future__ import annotations

import random
import sys

import pytest

from games import native
from games.base import get_kind
from games.dao import bots, strong
from games.dao import rollout as source_rules
from games.thinking import Thinking
from tests.test_dao_strong import TAKE, TURN, _running, _table

KIND = get_kind("dao")


def test_make_built_the_compiled_copy_and_the_dao_bot_runs_it():
    """``make test`` builds before the suite (the Makefile's ``native``), so a source module
    here means the build is missing or stale: the bench would time the slow copy."""
    assert "games.dao.rollout" in native.modules()
    assert native.compiled(strong.RULES), "run `make native`"
    assert strong.Table is strong.RULES.Table
    assert not native.compiled(source_rules)


def test_a_stale_copy_is_not_used(monkeypatch):
    monkeypatch.setattr(native, "source_hash", lambda name: "another source")
    assert native.load("games.dao.rollout") is source_rules


def test_a_module_never_built_loads_from_source(tmp_path, monkeypatch):
    monkeypatch.setattr(native, "BUILD", tmp_path)
    monkeypatch.delitem(sys.modules, native.native_name("games.dao.rollout"))
    assert native.load("games.dao.rollout") is source_rules


def _positions(seats: int, games: int):
    """Running games of ``seats`` after a varied number of random moves."""
    for seed in range(games):
        state = _running(seed, seats, seed * 7 % 60, "first" if seed % 2 else "previous")
        if not KIND.is_over(state):
            yield seed, state


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_the_compiled_rules_play_the_same_games(seats):
    """From true game states: every first move (none, take, turn) played out by the compiled
    table ends in the same totals as by the source's; their copies too."""
    compiled_rules = strong.RULES
    checked = 0
    for _, state in _positions(seats, 25):
        for first in (None, False, True):
            tables = [_table(state, rules) for rules in (compiled_rules, source_rules)]
            copies = [t.copy() for t in tables]
            finals = [t.play_out(first) for t in tables]
            assert finals[0] == finals[1]
            assert [c.play_out(first) for c in copies] == finals
            checked += 1
    assert checked > 50


def test_the_compiled_normal_rule_chooses_as_the_source_does():
    compiled_rules = strong.RULES
    rng = random.Random(5)
    checked = 0
    for _, state in _positions(4, 30):
        while not KIND.is_over(state):
            table = _table(state, source_rules)
            seat = table.to_move
            args = (table.g[seat], table.disp, table.pool, table.unseen, table.match_first)
            assert compiled_rules.greedy_move(*args) == source_rules.greedy_move(*args)
            checked += 1
            KIND.apply(state, KIND.to_act(state)[0], rng.choice([TAKE, TURN]))
    assert checked > 500


def test_the_strong_bot_decides_the_same_on_either_copy(monkeypatch):
    """The same view, generator and budget give the same decision, its values seed for seed,
    whichever copy of the rules plays the rollouts."""
    thinking = Thinking(rollouts={"dao": 48})
    decisions = {}
    for rules in (strong.RULES, source_rules):
        monkeypatch.setattr(strong, "Table", rules.Table)
        found = []
        for seed, state in _positions(3, 12):
            view = KIND.view(state, state.current)
            legal = KIND.legal_actions(state, state.current)
            default = bots.ev_bot(view, legal, random.Random(seed))
            decision = strong.choose(view, legal, random.Random(seed), default, thinking)
            found.append((decision.move, decision.spent, decision.values))
        decisions[native.compiled(rules)] = found
    assert decisions[True] == decisions[False]
    assert any(spent > 8 for _, spent, _ in decisions[True])
