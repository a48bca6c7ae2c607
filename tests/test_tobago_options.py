"""Tobago's registration, options, islands, snapshots and statistics."""

from __future__ import annotations

import json
import random

import pytest

from errors import InvalidInput
from games.base import get_kind, kinds, play_bots
from games.tobago.islands import island_from_source
from hexmap import catalog
from tests.tobago_positions import card, give, position

KIND = get_kind("tobago")


def test_tobago_is_registered_with_its_options_and_bots():
    assert kinds()["tobago"] is KIND
    meta = KIND.metadata()
    assert (meta["min_seats"], meta["max_seats"]) == (2, 4)
    assert meta["bots"] == ["easy", "normal", "strong"]
    defaults = {o["name"]: o["default"] for o in meta["options"]}
    assert defaults == {
        "island": "classic-1",
        "landmarks_seed": -1,
        "near_includes_target": False,
        "treasure_on_landmarks": True,
        "extra_marker": True,
        "turn_seconds": None,  # every kind's (games.turns)
        "time_bank_s": None,
        "increment_s": None,
    }
    assert all(o["description"] and o["description_zh"] for o in meta["options"])


@pytest.mark.parametrize(
    "options,field",
    [
        ({"island": "classic-7"}, "options.island"),
        ({"island": "classic-0"}, "options.island"),
        ({"island": "atlantis"}, "options.island"),
        ({"island": "generated-x"}, "options.island"),
        ({"island": 3}, "options.island"),
        ({"landmarks_seed": -2}, "options.landmarks_seed"),
        ({"landmarks_seed": 1.5}, "options.landmarks_seed"),
        ({"extra_marker": "yes"}, "options.extra_marker"),
        ({"near_includes_target": 1}, "options.near_includes_target"),
        ({"colour": "red"}, "options.colour"),
    ],
)
def test_bad_options_are_refused_with_the_field_named(options, field):
    with pytest.raises(InvalidInput) as info:
        KIND.new_state(1, 2, options)
    assert info.value.field == field


@pytest.mark.parametrize("seats", [1, 5, "4", True])
def test_seat_counts_outside_2_to_4_are_refused(seats):
    with pytest.raises(InvalidInput):
        KIND.new_state(1, seats, None)


@pytest.mark.parametrize("spec", ["classic-1", "classic-6", "generated-42"])
def test_the_island_is_the_catalogs_with_the_landmarks_of_the_given_seed(spec):
    s = KIND.new_state(3, 2, {"island": spec, "landmarks_seed": 11})
    expected = catalog.island_by_name(spec, 11)
    assert s.island.name == spec
    assert s.island.terrain == expected.terrain and s.island.landmarks == expected.landmarks
    # Statues start facing as placed.
    assert [[h, d] for h, d in s.statues] == [
        [lm.space, lm.facing] for lm in expected.landmarks if lm.kind == "statue"
    ]


def test_landmarks_come_from_the_game_seed_by_default():
    a = KIND.new_state(3, 2, None)
    b = KIND.new_state(4, 2, None)
    assert a.island.landmarks == catalog.island_by_name("classic-1", 3).landmarks
    assert a.island.landmarks != b.island.landmarks
    assert KIND.view(a, None)["island"] == {
        "name": "classic-1",
        "spaces": len(a.island),
        "spec": "classic-1",
        "landmarks_seed": 3,
    }


def test_a_custom_island_is_rebuilt_from_the_snapshot():
    s = position()
    data = json.loads(json.dumps(KIND.state_to_json(s)))
    again = KIND.state_from_json(data)
    assert again.island.terrain == s.island.terrain and again.island.landmarks == s.island.landmarks
    assert island_from_source(data["island_source"]) is again.island


def test_treasure_on_landmarks_false_keeps_treasures_off_landmark_spaces():
    s = position(options={"treasure_on_landmarks": False})
    assert not s.maps[0].candidates & (1 << s.island.bit[(0, 0)])  # the palm
    assert s.maps[0].candidates.bit_count() == 28  # 30 spaces - palm - statue


def test_near_includes_target_changes_what_a_clue_allows():
    off = position()
    on = position(options={"near_includes_target": True})
    give(off, 0, ["near1:palm"])
    give(on, 0, ["near1:palm"])
    KIND.apply(off, 0, {"type": "play_clue", "card": card("near1:palm"), "map": "white"})
    KIND.apply(on, 0, {"type": "play_clue", "card": card("near1:palm"), "map": "white"})
    assert off.maps[0].candidates.bit_count() == 2 and on.maps[0].candidates.bit_count() == 3


def test_snapshots_round_trip_and_continue_identically():
    s = KIND.new_state(21, 3, {"island": "classic-2"})
    rng = random.Random(2)
    for _ in range(60):
        seat = KIND.to_act(s)[0]
        KIND.apply(s, seat, KIND.bot_action(s, seat, "strategic", rng))
    snap = json.loads(json.dumps(KIND.state_to_json(s)))
    copy = KIND.state_from_json(KIND.state_to_json(s))
    assert copy.island is s.island and KIND.state_to_json(copy) == snap
    loaded = KIND.state_from_json(snap)
    assert KIND.state_to_json(loaded) == snap
    for state in (s, loaded, copy):
        play_bots(KIND, state, ["strategic", "random", "strategic"], random.Random(7))
    assert KIND.state_to_json(s) == KIND.state_to_json(loaded) == KIND.state_to_json(copy)


def test_statistics_report_the_game():
    s = KIND.new_state(5, 4, None)
    rng = random.Random(5)
    events = []  # every event of the game (the state keeps only the log's tail)
    while not KIND.is_over(s):
        seat = KIND.to_act(s)[0]
        events += KIND.apply(s, seat, KIND.bot_action(s, seat, "strategic", rng))
    stats = KIND.statistics(s)
    assert stats["treasures_raised"] == sum(e["type"] == "raised" for e in events) >= 1
    assert stats["curses"] == sum(e["type"] == "curse" for e in events)
    assert stats["turns"] == s.turn_number
    assert stats["treasure_cards"] == [len(p.treasures) for p in s.players]
    json.dumps(stats)
