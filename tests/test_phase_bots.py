"""The bots ask the running phase, not its name (issue 45, item 3): each phase declares every
bot's piece (``games.phases.Phase.bot``, by the bot's name) and a bot plays the piece
``GameKind.bot_hook`` gives it; and the stage of a turn is the base's (``GameState.stage``,
item 2): a turn handed out begins in the first, the snapshot carries it."""

from __future__ import annotations

import random

import pytest

from errors import InvalidInput
from games.base import get_kind
from games.dragons_gold import bots as dg_bots
from games.dragons_gold import greedy
from games.dragons_gold import strong as dg_strong
from games.dragons_gold.sampling import Inconsistent
from games.isla_dorada import planner
from games.isla_dorada import strong as isla_strong
from games.order import round_robin
from games.state import COMMON_FORMAT, GameState, generator, to_stage
from games.thinking import Thinking
from games.tobago import search, strategy

SENTINEL = {"type": "sentinel"}
LOW = Thinking(effort=0.05)


def _first_seat_view(name: str, seats: int = 3) -> tuple[dict, list[dict]]:
    """The view and legal actions of the first seat to act in a new game of ``name``."""
    kind = get_kind(name)
    state = kind.new_state(1, seats)
    seat = kind.to_act(state)[0]
    return kind.view(state, seat), kind.legal_actions(state, seat)


def test_every_phase_a_bot_plays_declares_its_piece():
    isla, tobago, dg = get_kind("isla_dorada"), get_kind("tobago"), get_kind("dragons_gold")
    assert all(isla.bot_hook(name, "planner") is not None for name in isla.phases)
    assert all(tobago.bot_hook(name, "strategic") is not None for name in tobago.phases)
    assert {name for name in dg.phases if dg.bot_hook(name, "greedy") is None} == {"divide"}
    assert isla.bot_hook("pay", "planner") is planner.pay
    assert isla.bot_hook("bid", "candidates") is isla_strong.bid_candidates
    assert isla.bot_hook("pay", "candidates") is None  # the planner's pay is not searched
    assert tobago.bot_hook("place_atv", "candidates") is None
    assert dg.bot_hook("market", "strong_level") is not None
    assert isla.bot_hook("over", "planner") is None  # no such phase: nothing


def test_the_isla_dorada_bots_play_the_running_phase_s_pieces(monkeypatch):
    kind = get_kind("isla_dorada")
    view, legal = _first_seat_view("isla_dorada")
    assert view["phase"] == "setup" and len(legal) > 1
    monkeypatch.setitem(kind.phases["setup"].bot, "planner", lambda *_: SENTINEL)
    assert planner.plan(view, legal, random.Random(0)) == SENTINEL
    monkeypatch.setitem(kind.phases["setup"].bot, "strong", lambda *_: {"type": "kept"})
    assert isla_strong.choose(view, legal, random.Random(0), LOW).move == {"type": "kept"}
    monkeypatch.delitem(kind.phases["setup"].bot, "strong")
    assert isla_strong.candidates(view, legal, 6) == [SENTINEL]  # no candidates piece: no search


def test_the_tobago_bots_play_the_running_phase_s_pieces(monkeypatch):
    kind = get_kind("tobago")
    view, legal = _first_seat_view("tobago")
    assert view["phase"] == "place_atv" and len(legal) > 1
    own = strategy.strategic_bot(view, legal, random.Random(0))
    assert search.candidates(view, legal, 6) == [own]
    monkeypatch.setitem(kind.phases["place_atv"].bot, "strategic", lambda *_: SENTINEL)
    assert strategy.strategic_bot(view, legal, random.Random(0)) == SENTINEL
    monkeypatch.setitem(
        kind.phases["place_atv"].bot, "candidates", lambda *args: [args[2], legal[0]]
    )
    assert search.candidates(view, legal, 6) == [SENTINEL, legal[0]]


def test_the_dragons_gold_bots_play_the_running_phase_s_pieces(monkeypatch):
    kind = get_kind("dragons_gold")
    view, legal = _first_seat_view("dragons_gold")
    assert view["phase"] == "fight" and len(legal) > 1
    fight = kind.phases["fight"].bot
    monkeypatch.setitem(fight, "greedy", lambda *_: SENTINEL)
    assert greedy.greedy_bot(view, legal, random.Random(0)) == SENTINEL
    monkeypatch.setitem(fight, "strong", lambda *_: {"type": "searched"})
    assert dg_strong.choose(view, legal, random.Random(0), LOW) == {"type": "searched"}

    def inconsistent(*_):
        raise Inconsistent("the view does not add up")

    monkeypatch.setitem(fight, "strong", inconsistent)
    assert dg_strong.choose(view, legal, random.Random(0), LOW) == SENTINEL  # the greedy move


def test_the_easy_bot_keeps_quiet_only_where_the_phase_runs_a_clock():
    timed = {"market", "proposals"}
    kind = get_kind("dragons_gold")
    assert {name for name, p in kind.phases.items() if p.timer is not None} == timed
    view, legal = _first_seat_view("dragons_gold")
    # The fight declares no clock: the easy bot always plays.
    assert all(dg_bots.random_bot(view, legal, random.Random(n)) is not None for n in range(20))


# --- the stage of a turn is the base's ------------------------------------------------------


def test_a_turn_handed_out_begins_in_the_first_stage():
    turns = round_robin()
    state = GameState(seed=0, seats=3, options={}, rng=generator(0), phase="p")
    turns.start(state, 0)
    to_stage(state, "later")
    assert state.stage == "later"
    turns.pass_turn(state)
    assert state.current == 1 and state.stage is None
    to_stage(state, "later")
    turns.start(state, 2)
    assert state.stage is None


def test_tobago_s_stage_is_in_the_base_s_snapshot_and_the_view():
    kind = get_kind("tobago")
    state = kind.new_state(3, 2)
    while state.phase != "turn":
        seat = kind.to_act(state)[0]
        kind.apply(state, seat, kind.legal_actions(state, seat)[0])
    seat = kind.to_act(state)[0]
    drive = next(a for a in kind.legal_actions(state, seat) if a["type"] == "drive")
    kind.apply(state, seat, drive)
    assert state.stage == "drive" and kind.view(state, seat)["turn"]["mode"] == "drive"
    snapshot = kind.state_to_json(state)
    assert snapshot["stage"] == "drive" and "mode" not in snapshot["turn"]
    assert snapshot["format"][0] == COMMON_FORMAT
    assert kind.state_from_json(snapshot) == state
    kind.apply(state, seat, {"type": "end_turn"})
    assert state.stage is None and kind.view(state, None)["turn"]["mode"] is None


def test_a_snapshot_from_before_the_stage_moved_is_refused():
    kind = get_kind("tobago")
    snapshot = kind.state_to_json(kind.new_state(3, 2))
    snapshot["format"] = [COMMON_FORMAT - 1, snapshot["format"][1]]
    with pytest.raises(InvalidInput, match="format"):
        kind.state_from_json(snapshot)
