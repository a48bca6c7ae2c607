"""Tobago bots: the strategic bot's choices in constructed positions, the clues it plays checked
against ``solver.hints``, and that a bot decides from its seat's view alone."""

from __future__ import annotations

import json
import random

import pytest

from games.base import get_kind, play_bots
from games.tobago.bots import random_bot
from games.tobago.strategy import STRONG_HINT, central_space, strategic_bot
from hexmap.hexes import Hex
from solver.deck import DECK
from solver.engine import MapColumn, hints
from tests.tobago_positions import card, give, gold, position, put_clue, stack_treasures

KIND = get_kind("tobago")


def decide(s, seat=None):
    seat = KIND.to_act(s)[0] if seat is None else seat
    return strategic_bot(KIND.view(s, seat), KIND.legal_actions(s, seat), random.Random(0))


def step(s):
    seat = KIND.to_act(s)[0]
    action = decide(s, seat)
    KIND.apply(s, seat, action)
    return action


def test_it_drives_to_a_located_treasure_in_reach_and_raises_it():
    s = position(atvs=[(0, 4), (5, 4)])
    put_clue(s, "white", "near1:palm", 1)
    put_clue(s, "white", "in:beach", 1)  # located at (1, 0)
    assert step(s) == {"type": "drive", "to": [1, 0]}  # cost 2: 1 in the jungle, 1 across
    assert step(s) == {"type": "raise", "map": "white"}
    assert s.phase == "sharing"


def test_it_spends_amulets_only_for_a_race_it_would_otherwise_lose():
    # White is located at (4, 2): river, not next to the sea, within 2 of the statue at (2, 2),
    # and (4, 1) removed.
    s = position(atvs=[(0, 0), (4, 4)])
    put_clue(s, "white", "in:river", 1)
    put_clue(s, "white", "!near1:sea", 1)  # (4, 1) (4, 2) (4, 3)
    put_clue(s, "white", "near2:statue", 1)  # (4, 1) (4, 2): statue (2, 2) within 2
    s.maps[0].removed = 1 << s.island.bit[Hex(4, 1)]
    s.refresh(s.maps[0])
    assert s.island.spaces_of(s.maps[0].candidates) == [Hex(4, 2)]
    s.players[0].amulets = 1
    s.amulet_supply -= 1
    # From (0, 0) the treasure costs 5 (4 columns, then within the river); the rival at (4, 4)
    # reaches it in 1: without spending it would lose the race — but 3 + 1 < 5: no use either.
    assert decide(s)["type"] != "spend_amulet"
    s.players[0].atv = Hex(0, 2)  # cost 4 = 3 points + 1 amulet
    assert step(s) == {"type": "spend_amulet"}
    assert step(s) == {"type": "drive", "to": [4, 2]}
    assert step(s) == {"type": "raise", "map": "white"}


def test_it_does_not_spend_an_amulet_when_no_rival_is_close():
    s = position(atvs=[(0, 2), (0, 0)])
    put_clue(s, "white", "in:river", 1)
    put_clue(s, "white", "!near1:sea", 1)
    put_clue(s, "white", "near2:statue", 1)
    s.maps[0].removed = 1 << s.island.bit[Hex(4, 1)]
    s.refresh(s.maps[0])
    s.players[0].amulets = 1
    s.amulet_supply -= 1
    action = decide(s)
    assert action["type"] != "spend_amulet"


def test_it_removes_a_marker_with_an_amulet_to_locate_the_treasure_it_stands_on():
    s = position(atvs=[(1, 0), (5, 4)])
    put_clue(s, "white", "near1:palm", 1)  # (0, 1) and (1, 0)
    s.players[0].amulets = 1
    s.amulet_supply -= 1
    assert step(s) == {"type": "remove_marker", "map": "white", "space": [0, 1]}
    assert step(s) == {"type": "raise", "map": "white"}


def test_it_picks_up_the_amulet_on_its_start_space_rather_than_exchange():
    s = position(atvs=[(3, 3), (5, 4)])
    s.amulets = [Hex(3, 3)]
    s.amulet_supply -= 1
    give(s, 0, ["near1:hut", "near2:hut", "!near1:hut", "!near2:hut"])
    assert decide(s) == {"type": "pick_amulet"}


def test_it_exchanges_a_hopeless_hand():
    s = position(atvs=[(3, 3), (5, 4)])
    give(s, 0, ["near1:hut", "near2:hut", "!near1:hut", "!near2:hut"])  # no legal play at all
    assert decide(s) == {"type": "exchange"}


def test_when_a_whole_round_made_no_progress_it_removes_a_marker_rather_than_exchange():
    """Rules §8: two whole rounds without progress end the game; a bot never relies on that
    end. With a hopeless hand it exchanges; once the table has gone a whole round without
    progress, it makes some with its amulet instead."""
    s = position(atvs=[(3, 3), (5, 4)])
    give(s, 0, ["near1:hut", "near2:hut", "!near1:hut", "!near2:hut"])  # no legal play at all
    s.players[0].amulets = 1
    s.amulet_supply -= 1
    assert decide(s) == {"type": "exchange"}
    s.idle_turns = 2  # the other seat's turn and mine went by without progress
    assert KIND.view(s, 0)["stall"] == {"turns": 2, "limit": 4}
    action = decide(s)
    assert action["type"] == "remove_marker"
    KIND.apply(s, 0, action)
    assert step(s) == {"type": "end_turn"} and s.idle_turns == 0


def test_when_the_table_stalls_it_drives_for_an_amulet_in_reach_and_removes_a_marker():
    s = position(atvs=[(3, 3), (5, 4)])
    give(s, 0, ["near1:hut", "near2:hut", "!near1:hut", "!near2:hut"])
    s.amulets = [Hex(4, 3)]  # one step away
    s.amulet_supply -= 1
    s.idle_turns = 2
    taken = [step(s) for _ in range(3)]
    assert [a["type"] for a in taken] == ["drive", "pick_amulet", "remove_marker"]
    assert step(s)["type"] in ("drive", "end_turn")


def test_with_no_compass_marker_left_it_gathers_amulets_rather_than_exchange():
    s = position(atvs=[(3, 3), (5, 4)])
    s.players[0].markers = 0
    s.amulets = [Hex(5, 3)]
    s.amulet_supply -= 1
    assert decide(s)["type"] == "drive"


def test_the_seed_game_1092_ends_well_before_the_stall_rule():
    """Two strategic bots used to exchange for ever here (issue 22): the only clue play of one
    located a treasure next to the other, which had no compass marker to raise it with."""
    s = KIND.new_state(1092, 2, {})
    peak = [0]
    n = play_bots(
        KIND,
        s,
        ["strategic", "strategic"],
        random.Random(1092),
        on_action=lambda *_: peak.__setitem__(0, max(peak[0], s.idle_turns)),
    )
    end = next(e for e in reversed(s.log) if e["type"] == "game_over")
    assert end["end"] in ("deck_empty", "deck_reshuffled") and n < 400
    assert peak[0] <= 2 < 4  # never more than one round without progress; the limit is 4


def test_it_plays_the_clue_that_pulls_a_treasure_toward_its_atv():
    s = position(atvs=[(0, 0), (5, 4)])
    put_clue(s, "white", "near1:sea", 1)  # the coast all round
    give(s, 0, ["in:jungle", "in:lake", "near1:hut", "near2:hut", "!near1:hut", "!near2:hut"])
    action = decide(s)
    assert action["type"] == "play_clue" and action["card"] == card("in:jungle")


def test_it_places_its_extra_marker_on_the_map_closest_to_being_raised():
    s = position(atvs=[(0, 0), (5, 4)])
    put_clue(s, "grey", "near1:palm", 0)  # 2 candidates, one marker of seat 0
    give(s, 0, ["in:jungle", "in:lake", "near1:hut", "near2:hut", "!near1:hut", "!near2:hut"])
    KIND.apply(s, 0, {"type": "play_clue", "card": card("in:jungle"), "map": "white"})
    assert decide(s) == {"type": "extra_marker", "map": "grey", "clue": 0}


def sharing_scene(turned):
    s = position(seats=3, atvs=[(1, 0), (5, 4), (5, 4)])
    put_clue(s, "white", "near1:palm", 1)
    put_clue(s, "white", "in:beach", 2, markers=2)
    stack_treasures(s, turned)
    KIND.apply(s, 0, {"type": "raise", "map": "white"})
    return s


def test_in_a_sharing_it_takes_a_six_and_waits_for_a_better_card_than_a_two():
    s = sharing_scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    assert decide(s) == {"type": "accept"}  # the 6, offered to the raiser
    KIND.apply(s, 0, {"type": "accept"})
    assert KIND.to_act(s) == [2] and decide(s) == {"type": "decline"}  # a 2, three cards left
    KIND.apply(s, 2, {"type": "decline"})
    assert decide(s) == {"type": "decline"}


def test_in_a_sharing_it_takes_the_last_card_whatever_it_is():
    s = sharing_scene([gold(2), gold(3), gold(2, 1), gold(2, 2), gold(2, 3)])
    while s.sharing.pile:  # everyone declines until the last card is face up
        KIND.apply(s, KIND.to_act(s)[0], {"type": "decline"})
    assert s.sharing.offer == gold(2, 3)
    assert decide(s) == {"type": "accept"}


def test_the_atv_goes_to_the_most_central_space():
    s = KIND.new_state_on(position().island, 1, 2, None)
    action = decide(s)
    at = Hex(*action["at"])
    assert action["type"] == "place_atv" and at == central_space(s.island)
    from games.tobago.engine import costs_from

    total = sum(costs_from(s.island, at).values())
    assert all(total <= sum(costs_from(s.island, h).values()) for h in s.island.index)


def test_the_bot_decides_from_the_json_view_alone():
    s = KIND.new_state(5, 4, {"island": "classic-2"})
    rng = random.Random(5)
    for _ in range(120):
        if KIND.is_over(s):
            break
        seat = KIND.to_act(s)[0]
        view = KIND.view(s, seat)
        legal = KIND.legal_actions(s, seat)
        a = strategic_bot(view, legal, random.Random(1))
        b = strategic_bot(
            json.loads(json.dumps(view)), json.loads(json.dumps(legal)), random.Random(1)
        )
        assert a == b and a in legal
        KIND.apply(s, seat, strategic_bot(view, legal, rng))


def _solver_hints(s, seat, hand=None):
    """``solver.hints`` for ``seat``, worked out from the state itself (not from the bot's
    reading of its view)."""
    p = s.players[seat]
    maps = [MapColumn(m.colour, tuple(DECK[e.card] for e in m.clues), m.removed) for m in s.maps]
    hand = [DECK[c] for c in p.hand] if hand is None else hand
    rivals = [  # the seats that can raise: a compass marker left
        q.atv for i, q in enumerate(s.players) if i != seat and q.atv is not None and q.markers
    ]
    return hints(s.island, maps, hand, p.atv, rivals, s.solver_options)


@pytest.mark.parametrize("seed", range(3))
def test_the_clues_it_plays_are_the_solvers_best_hints(seed):
    # Four strategic bots; whenever one plays a clue at the start of its turn (or places its
    # first clue) it is the first of the solver's ranking, and a strong first hint is never
    # passed over for an exchange.
    s = KIND.new_state(seed, 4, {"island": f"classic-{seed % 6 + 1}"})
    plays = strong = firsts = 0
    for _ in range(2000):
        if KIND.is_over(s):
            break
        seat = KIND.to_act(s)[0]
        action = decide(s, seat)
        if s.phase == "first_clue":
            allowed = {a["map"] for a in KIND.legal_actions(s, seat)}
            ranked = [h.map for h in _solver_hints(s, seat, [DECK[s.drawn]]) if h.map in allowed]
            if ranked:
                assert action == {"type": "first_clue", "map": ranked[0]}
                firsts += 1
        elif s.phase == "turn" and s.stage is None:
            ranked = _solver_hints(s, seat)
            if action["type"] == "play_clue":
                best = ranked[0]
                hand = s.players[seat].hand
                assert action == {
                    "type": "play_clue",
                    "card": hand[best.hand_index],
                    "map": best.map,
                }
                plays += 1
            if ranked and ranked[0].score >= STRONG_HINT:
                assert action["type"] != "exchange"
                strong += 1
        KIND.apply(s, seat, action)
    assert KIND.is_over(s)
    assert plays > 10 and strong > 5 and firsts > 0


def test_random_bot_picks_legal_actions_of_every_type():
    s = position(atvs=[(0, 0), (5, 4)])
    legal = KIND.legal_actions(s, 0)
    rng = random.Random(0)
    picked = {random_bot(KIND.view(s, 0), legal, rng)["type"] for _ in range(200)}
    assert picked == {a["type"] for a in legal}


def test_bots_finish_games_from_the_classic_setup():
    s = KIND.new_state(9, 3, {"island": "classic-5"})
    play_bots(KIND, s, ["strategic", "random", "strategic"], random.Random(9))
    assert KIND.is_over(s) and len(KIND.scores(s)) == 3
