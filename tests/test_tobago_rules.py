"""Tobago rules §4-§5 in constructed positions: setup, clue plays, driving, exchange, reshuffle.

Positions are built on ``tests.islands.stripes_island()`` (six vertical terrain stripes),
where the drive cost from (0, 0) to column q is q (q ≥ 1 on row 0, q + 1 on other rows).
"""

from __future__ import annotations

import pytest

from errors import IllegalAction, InvalidInput
from games.base import get_kind
from games.tobago.rules import AMULETS, COMPASS_MARKERS, CURSE_FREE_TOP, TREASURE_VALUES
from hexmap.hexes import Hex
from tests.islands import stripes_island
from tests.tobago_positions import (
    candidates,
    card,
    give,
    position,
    put_clue,
    set_drawn,
)

KIND = get_kind("tobago")


def refused(state, seat, action, exc=IllegalAction, field=None):
    """Apply an action that must be refused; the state must not change at all."""
    before = KIND.state_to_json(state)
    with pytest.raises(exc) as info:
        KIND.apply(state, seat, action)
    assert KIND.state_to_json(state) == before
    if field is not None:
        assert info.value.field == field
    assert info.value.message
    return info.value


def types(state, seat):
    return {a["type"] for a in KIND.legal_actions(state, seat)}


# --- setup (§4) ---------------------------------------------------------------------------


@pytest.mark.parametrize("seats,hand", [(2, 6), (3, 4), (4, 4)])
def test_setup_deals_hands_by_player_count_and_fills_the_supplies(seats, hand):
    s = KIND.new_state_on(stripes_island(), 7, seats, None)
    assert [len(p.hand) for p in s.players] == [hand] * seats
    assert len(s.clue_deck) + seats * hand == 52
    assert len(s.treasure_deck) == 41
    assert s.amulet_supply == AMULETS == 20
    assert all(p.markers == COMPASS_MARKERS == 15 and p.amulets == 0 for p in s.players)
    assert s.phase == "place_atv" and KIND.to_act(s) == [0]


def test_curses_are_never_in_the_top_twelve_treasure_cards():
    for seed in range(40):
        deck = KIND.new_state_on(stripes_island(), seed, 2, None).treasure_deck
        values = [TREASURE_VALUES[c] for c in deck]
        assert values.count(0) == 2 and len(values) == 41
        assert 0 not in values[-CURSE_FREE_TOP:]  # the end of the list is the top


def test_atvs_are_placed_in_turn_order_on_island_spaces_only():
    s = KIND.new_state_on(stripes_island(), 3, 3, None)
    refused(s, 1, {"type": "place_atv", "at": [0, 0]}, field="seat")
    refused(s, 0, {"type": "place_atv", "at": [9, 9]}, field="action.at")
    refused(s, 0, {"type": "place_atv", "at": "here"}, InvalidInput, field="action.at")
    assert len(KIND.legal_actions(s, 0)) == 30
    for seat, at in enumerate([(0, 0), (0, 0), (5, 4)]):  # two ATVs may share a space
        KIND.apply(s, seat, {"type": "place_atv", "at": list(at)})
    assert [p.atv for p in s.players] == [Hex(0, 0), Hex(0, 0), Hex(5, 4)]
    assert s.phase == "first_clue" and KIND.to_act(s) == [0]
    # The drawn card is face up: every seat and the spectator see it.
    assert KIND.view(s, 1)["drawn"] == KIND.view(s, None)["drawn"] is not None


def _to_first_clue(seats=2, seed=3):
    s = KIND.new_state_on(stripes_island(), seed, seats, None)
    for seat in range(seats):
        KIND.apply(s, seat, {"type": "place_atv", "at": [0, 0]})
    return s


def test_first_clue_starts_a_column_with_a_marker_then_play_begins():
    s = _to_first_clue()
    drawn = s.drawn
    KIND.apply(s, 0, {"type": "first_clue", "map": "grey"})
    grey = s.maps[1]
    assert [(e.card, e.seat, e.markers) for e in grey.clues] == [(drawn, 0, 1)]
    assert s.players[0].markers == 14
    assert s.phase == "first_clue" and KIND.to_act(s) == [1]
    KIND.apply(s, 1, {"type": "first_clue", "map": "white"})
    assert s.phase == "turn" and KIND.to_act(s) == [0] and s.turn_number == 1
    assert sum(len(m.clues) for m in s.maps) == 2


def test_first_clue_on_a_started_column_must_be_a_legal_play():
    s = _to_first_clue()
    set_drawn(s, "in:jungle")
    KIND.apply(s, 0, {"type": "first_clue", "map": "white"})
    set_drawn(s, "near1:palm")  # jungle ∩ next to the palm: (0, 1) — a legal play on white
    assert {a["map"] for a in KIND.legal_actions(s, 1)} == {"white", "grey", "black", "brown"}
    set_drawn(s, "!in:lake")  # removes nothing from white: only the empty maps take it
    assert {a["map"] for a in KIND.legal_actions(s, 1)} == {"grey", "black", "brown"}
    set_drawn(s, "in:lake")  # contradicts white's jungle
    assert {a["map"] for a in KIND.legal_actions(s, 1)} == {"grey", "black", "brown"}
    err = refused(s, 1, {"type": "first_clue", "map": "white"}, field="action.map")
    assert "in:lake" in err.message


def test_a_first_clue_card_that_fits_no_map_is_discarded_and_another_drawn():
    s = KIND.new_state_on(stripes_island(), 3, 2, None)
    hut = card("near1:hut")  # there is no hut: no candidate anywhere
    s.clue_deck.remove(hut)
    s.clue_deck.append(hut)
    for seat in range(2):
        KIND.apply(s, seat, {"type": "place_atv", "at": [0, 0]})
    assert s.drawn != hut and hut in s.clue_discard
    assert any(e["type"] == "clue_discarded" and e["card"] == hut for e in s.log)


# --- action 1: clues (§5) ---------------------------------------------------------------


def test_a_legal_clue_play_reduces_without_emptying_and_earns_a_marker():
    s = position(atvs=[(0, 0), (5, 4)])
    put_clue(s, "white", "in:jungle", 1)
    give(s, 0, ["near1:palm", "!in:beach", "in:lake", "!near1:hut"])
    plays = {(a["card"], a["map"]) for a in KIND.legal_actions(s, 0) if a["type"] == "play_clue"}
    assert (card("near1:palm"), "white") in plays
    assert (card("!in:beach"), "white") not in plays  # removes no candidate
    assert (card("in:lake"), "white") not in plays  # removes every candidate
    assert (card("!near1:hut"), "grey") not in plays  # true everywhere: removes nothing
    err = refused(s, 0, {"type": "play_clue", "card": card("in:lake"), "map": "white"})
    assert "every candidate" in err.message
    refused(s, 0, {"type": "play_clue", "card": card("!in:beach"), "map": "white"})
    events = KIND.apply(s, 0, {"type": "play_clue", "card": card("near1:palm"), "map": "white"})
    assert candidates(s, "white") == [(0, 1)]
    assert s.maps[0].clues[-1].seat == 0 and s.players[0].markers == 14
    assert events[-1]["type"] == "clue_played" and s.stage == "clues"
    # A located map takes no further clue.
    give(s, 0, ["in:beach", "!in:beach", "in:lake", "in:river"])
    s.players[0].amulets = 1
    assert not [
        a for a in KIND.legal_actions(s, 0) if a.get("map") == "white" and a["type"] == "play_clue"
    ]
    err = refused(s, 0, {"type": "play_clue", "card": card("in:beach"), "map": "white"})
    assert "located" in err.message


def test_the_extra_marker_is_mandatory_and_goes_on_a_card_with_exactly_one_of_yours():
    s = position()
    put_clue(s, "grey", "in:beach", 0)  # an older card of seat 0 with one marker
    put_clue(s, "black", "in:river", 0, markers=2)  # two markers already
    put_clue(s, "brown", "in:lake", 1)  # another seat's card
    give(s, 0, ["in:jungle", "in:mountain", "in:grassland", "in:largest:jungle"])
    KIND.apply(s, 0, {"type": "play_clue", "card": card("in:jungle"), "map": "white"})
    legal = KIND.legal_actions(s, 0)
    assert {"type": "end_turn"} not in legal
    extra = {(a["map"], a["clue"]) for a in legal if a["type"] == "extra_marker"}
    assert extra == {("white", 0), ("grey", 0)}
    refused(s, 0, {"type": "end_turn"})
    refused(s, 0, {"type": "extra_marker", "map": "black", "clue": 0}, field="action.clue")
    refused(s, 0, {"type": "extra_marker", "map": "brown", "clue": 0}, field="action.clue")
    refused(s, 0, {"type": "extra_marker", "map": "grey", "clue": 5}, field="action.clue")
    hand_before = len(s.players[0].hand)
    KIND.apply(s, 0, {"type": "extra_marker", "map": "grey", "clue": 0})
    assert s.maps[1].clues[0].markers == 2
    assert s.players[0].markers == 15 - 1 - 2 - 1 - 1
    assert hand_before == 3 and len(s.players[0].hand) == 6  # refilled (2 players: 6 cards)
    assert KIND.to_act(s) == [1] and s.stage is None


def test_each_further_clue_play_costs_an_amulet():
    s = position()
    give(s, 0, ["in:jungle", "in:beach", "in:river", "in:lake"])
    KIND.apply(s, 0, {"type": "play_clue", "card": card("in:jungle"), "map": "white"})
    err = refused(s, 0, {"type": "play_clue", "card": card("in:beach"), "map": "grey"})
    assert "amulet" in err.message
    s.players[0].amulets = 2
    s.amulet_supply -= 2
    KIND.apply(s, 0, {"type": "play_clue", "card": card("in:beach"), "map": "grey"})
    KIND.apply(s, 0, {"type": "play_clue", "card": card("in:river"), "map": "black"})
    assert s.players[0].amulets == 0 and s.amulet_supply == 20 and s.turn.plays == 3
    assert not any(a["type"] == "play_clue" for a in KIND.legal_actions(s, 0))
    KIND.apply(s, 0, {"type": "extra_marker", "map": "black", "clue": 0})
    assert len(s.players[0].hand) == 6 and s.current == 1


def test_without_the_extra_marker_option_the_action_ends_by_itself():
    s = position(options={"extra_marker": False})
    give(s, 0, ["in:jungle", "in:beach", "in:river", "in:lake"])
    KIND.apply(s, 0, {"type": "play_clue", "card": card("in:jungle"), "map": "white"})
    assert s.current == 1 and len(s.players[0].hand) == 6 and s.maps[0].clues[0].markers == 1
    assert s.players[0].markers == 14


def test_a_turn_is_one_action_its_stages_refuse_the_others():
    """The turn phase's declared stages (``games.tobago.turn.STAGES``): after a clue play only
    clue plays, the extra marker and the end; after a drive only the drive's actions and the
    end; the others refused with the stage's reason, nothing changed."""
    s = position()
    give(s, 0, ["in:jungle", "in:mountain", "in:grassland", "in:largest:jungle"])
    assert types(s, 0) >= {"play_clue", "exchange", "drive", "end_turn"}
    err = refused(s, 0, {"type": "extra_marker", "map": "white", "clue": 0})
    assert err.reason == "extra_marker_not_now"
    KIND.apply(s, 0, {"type": "play_clue", "card": card("in:jungle"), "map": "white"})
    assert types(s, 0) <= {"play_clue", "extra_marker", "end_turn"}
    assert refused(s, 0, {"type": "drive", "to": [0, 0]}).reason == "clues_played_this_turn"
    assert refused(s, 0, {"type": "spend_amulet"}).reason == "clues_played_this_turn"
    assert refused(s, 0, {"type": "exchange"}).reason == "exchange_mid_turn"

    s = position(atvs=[(0, 4), (5, 4)])
    KIND.apply(s, 0, {"type": "drive", "to": [0, 0]})
    assert "play_clue" not in types(s, 0) and "exchange" not in types(s, 0)
    clue = {"type": "play_clue", "card": s.players[0].hand[0], "map": "white"}
    assert refused(s, 0, clue).reason == "driving_this_turn"
    assert refused(s, 0, {"type": "exchange"}).reason == "exchange_mid_turn"
    extra = {"type": "extra_marker", "map": "white", "clue": 0}
    assert refused(s, 0, extra).reason == "extra_marker_not_now"


def test_a_hand_with_no_legal_play_offers_only_driving_and_exchange():
    s = position()
    give(s, 0, ["near1:hut", "near2:hut", "!near1:hut", "!near2:hut"])
    kinds = types(s, 0)
    assert "play_clue" not in kinds
    assert {"exchange", "drive", "end_turn"} <= kinds
    refused(s, 0, {"type": "play_clue", "card": card("near1:hut"), "map": "white"})


def test_without_compass_markers_no_clue_is_played_and_nothing_raised():
    s = position()
    give(s, 0, ["in:jungle", "in:mountain", "in:river", "in:lake"])
    s.players[0].markers = 0
    assert "play_clue" not in types(s, 0)
    err = refused(s, 0, {"type": "play_clue", "card": card("in:jungle"), "map": "white"})
    assert "compass marker" in err.message
    put_clue(s, "white", "near1:palm", 1)
    put_clue(s, "white", "in:beach", 1)  # (1, 0): the only beach space next to the palm
    s.players[0].atv = Hex(1, 0)
    assert candidates(s, "white") == [(1, 0)]
    assert "raise" not in types(s, 0)
    err = refused(s, 0, {"type": "raise", "map": "white"})
    assert "compass marker" in err.message


def test_when_nobody_has_a_compass_marker_the_game_ends_at_once_with_treasure_left():
    s = position()
    for p in s.players:
        p.markers = 0
    deck = len(s.treasure_deck)
    assert deck > 0
    KIND.apply(s, 0, {"type": "end_turn"})
    assert s.phase == "over"
    over = next(e for e in s.log if e["type"] == "game_over")
    assert over["end"] == "no_markers" and over["treasure_deck"] == deck
    assert KIND.statistics(s)["ended_without_markers"] == 1


def test_refill_reshuffles_the_discards_when_the_clue_deck_is_empty():
    s = position()
    give(s, 0, ["in:jungle", "in:beach", "in:river", "in:lake"])
    s.clue_discard = s.clue_deck
    s.clue_deck = []
    KIND.apply(s, 0, {"type": "play_clue", "card": card("in:jungle"), "map": "white"})
    events = KIND.apply(s, 0, {"type": "extra_marker", "map": "white", "clue": 0})
    assert [e["type"] for e in events][:3] == [
        "extra_marker",
        "clue_deck_reshuffled",
        "hand_refilled",
    ]
    assert len(s.players[0].hand) == 6 and s.clue_discard == []


def test_the_hand_stays_short_when_no_clue_card_is_left_anywhere():
    s = position()
    give(s, 0, ["in:jungle", "in:beach", "in:river", "in:lake"])
    s.players[1].hand.extend(s.clue_deck)
    s.clue_deck = []
    KIND.apply(s, 0, {"type": "play_clue", "card": card("in:jungle"), "map": "white"})
    KIND.apply(s, 0, {"type": "extra_marker", "map": "white", "clue": 0})
    assert len(s.players[0].hand) == 3


# --- action 3: exchange ------------------------------------------------------------------


def test_exchange_discards_the_whole_hand_and_draws_as_many():
    s = position()
    old = list(s.players[0].hand)
    KIND.apply(s, 0, {"type": "exchange"})
    assert len(s.players[0].hand) == 6 and set(old) <= set(s.clue_discard)
    assert not set(old) & set(s.players[0].hand)
    assert s.current == 1
    # An exchange is a whole turn: not after a drive step.
    KIND.apply(s, 1, {"type": "drive", "to": [1, 0]})
    refused(s, 1, {"type": "exchange"})


# --- action 2: drive ---------------------------------------------------------------------


def test_driving_costs_one_point_per_region_and_per_terrain_change():
    s = position(atvs=[(0, 4), (5, 4)])
    legal = {tuple(a["to"]) for a in KIND.legal_actions(s, 0) if a["type"] == "drive"}
    assert (0, 0) in legal and (2, 0) in legal and (3, 0) not in legal  # (3, 0) costs 4
    refused(s, 0, {"type": "drive", "to": [3, 0]}, field="action.to")
    refused(s, 0, {"type": "drive", "to": [-1, 0]}, field="action.to")  # sea
    refused(s, 0, {"type": "drive", "to": [0, 4]}, field="action.to")  # already there
    KIND.apply(s, 0, {"type": "drive", "to": [0, 0]})  # anywhere in the region: 1 point
    assert s.turn.points == 2 and s.stage == "drive"
    KIND.apply(s, 0, {"type": "drive", "to": [1, 0]})  # a neighbour of another terrain: 1 point
    assert s.turn.points == 1
    refused(s, 0, {"type": "drive", "to": [3, 0]})
    KIND.apply(s, 0, {"type": "drive", "to": [2, 0]})
    assert s.turn.points == 0 and s.players[0].atv == Hex(2, 0)
    assert "drive" not in types(s, 0)
    refused(s, 0, {"type": "play_clue", "card": s.players[0].hand[0], "map": "white"})
    KIND.apply(s, 0, {"type": "end_turn"})
    assert s.current == 1 and s.stage is None


def test_an_amulet_buys_a_movement_point():
    s = position(atvs=[(0, 0), (5, 4)])
    refused(s, 0, {"type": "spend_amulet"})
    s.players[0].amulets = 1
    s.amulet_supply -= 1
    KIND.apply(s, 0, {"type": "spend_amulet"})
    assert s.turn.points + s.turn.bonus == 4 and s.amulet_supply == 20
    KIND.apply(s, 0, {"type": "drive", "to": [4, 0]})  # cost 4
    assert s.players[0].atv == Hex(4, 0) and s.turn.points == 0 and s.turn.bonus == 0


def test_an_amulet_on_the_start_space_is_free_elsewhere_it_costs_a_point_not_an_amulets():
    s = position(atvs=[(0, 0), (5, 4)])
    s.amulets = [Hex(0, 0), Hex(2, 0)]
    s.amulet_supply -= 2
    KIND.apply(s, 0, {"type": "pick_amulet"})
    assert s.players[0].amulets == 1 and s.turn.points == 3 and Hex(0, 0) not in s.amulets
    refused(s, 0, {"type": "pick_amulet"})  # none left here
    KIND.apply(s, 0, {"type": "drive", "to": [2, 0]})  # 2 points
    KIND.apply(s, 0, {"type": "spend_amulet"})  # +1 point, but only for moving
    assert s.turn.points == 1 and s.turn.bonus == 1
    KIND.apply(s, 0, {"type": "pick_amulet"})
    assert s.turn.points == 0 and s.turn.bonus == 1 and s.players[0].amulets == 1
    s.amulets.append(Hex(3, 0))
    s.amulet_supply -= 1
    KIND.apply(s, 0, {"type": "drive", "to": [3, 0]})  # the amulet point pays the move
    err = refused(s, 0, {"type": "pick_amulet"})
    assert "movement point" in err.message


def test_an_amulet_removes_a_marker_of_any_map_whatever_its_count():
    s = position(atvs=[(0, 0), (5, 4)])
    s.players[0].amulets = 1
    s.amulet_supply -= 1
    before = len(candidates(s, "grey"))
    assert before >= 17  # an empty map: every island space
    assert {"type": "remove_marker", "map": "grey", "space": [0, 1]} in KIND.legal_actions(s, 0)
    KIND.apply(s, 0, {"type": "remove_marker", "map": "grey", "space": [0, 1]})
    assert len(candidates(s, "grey")) == before - 1 and (0, 1) not in candidates(s, "grey")


def test_an_amulet_removes_a_candidate_marker_never_the_last():
    s = position(atvs=[(0, 0), (5, 4)])
    put_clue(s, "white", "near1:palm", 1)  # (0, 1) and (1, 0)
    refused(s, 0, {"type": "remove_marker", "map": "white", "space": [0, 1]})  # no amulet
    s.players[0].amulets = 2
    s.amulet_supply -= 2
    refused(s, 0, {"type": "remove_marker", "map": "white", "space": [3, 3]}, field="action.space")
    KIND.apply(s, 0, {"type": "remove_marker", "map": "white", "space": [0, 1]})
    assert candidates(s, "white") == [(1, 0)] and s.players[0].amulets == 1
    err = refused(s, 0, {"type": "remove_marker", "map": "white", "space": [1, 0]})
    assert "last" in err.message
    assert KIND.view(s, 1)["maps"][0]["removed"] == [[0, 1]]


def test_a_map_located_by_an_amulet_removal_is_raised_at_once():
    s = position(atvs=[(0, 0), (5, 4)])
    put_clue(s, "white", "near1:palm", 1)
    s.players[0].amulets = 1
    s.amulet_supply -= 1
    KIND.apply(s, 0, {"type": "drive", "to": [1, 0]})
    assert "raise" not in types(s, 0)
    KIND.apply(s, 0, {"type": "remove_marker", "map": "white", "space": [0, 1]})
    assert {"type": "raise", "map": "white"} in KIND.legal_actions(s, 0)
    KIND.apply(s, 0, {"type": "raise", "map": "white"})
    assert s.stats["treasures_raised"] == 1


def test_raising_needs_the_single_candidate_under_your_atv_and_ends_the_drive():
    s = position(atvs=[(0, 0), (5, 4)])
    put_clue(s, "white", "near1:palm", 1)
    put_clue(s, "white", "in:beach", 1)  # located at (1, 0)
    put_clue(s, "grey", "in:largest:beach", 1)  # five candidates
    refused(s, 0, {"type": "raise", "map": "white"})  # not there yet
    refused(s, 0, {"type": "raise", "map": "grey"})  # not located
    refused(s, 0, {"type": "raise", "map": "green"}, InvalidInput, field="action.map")
    KIND.apply(s, 0, {"type": "drive", "to": [1, 0]})
    assert s.turn.points == 2
    KIND.apply(s, 0, {"type": "raise", "map": "white"})
    # Remaining points are lost: the sharing follows, then the next seat's turn.
    assert s.phase == "sharing" or s.current == 1
    assert s.maps[0].raiser == 0 or s.phase != "sharing"


def test_a_pass_is_a_drive_with_no_movement():
    s = position()
    KIND.apply(s, 0, {"type": "end_turn"})
    assert s.current == 1 and s.log[-2]["passed"] is True


# --- malformed and misplaced actions ------------------------------------------------------


@pytest.mark.parametrize(
    "action,field",
    [
        ("play", "action"),
        ({}, "action.type"),
        ({"type": 3}, "action.type"),
        ({"type": "fly"}, "action.type"),
        ({"type": "drive"}, "action.to"),
        ({"type": "drive", "to": [1, 0], "speed": 3}, "action.speed"),
        ({"type": "drive", "to": [1]}, "action.to"),
        ({"type": "play_clue", "card": "7", "map": "white"}, "action.card"),
        ({"type": "play_clue", "card": True, "map": "white"}, "action.card"),
        ({"type": "play_clue", "card": 7, "map": 0}, "action.map"),
        ({"type": "extra_marker", "map": "white", "clue": None}, "action.clue"),
        ({"type": "exchange", "cards": [1]}, "action.cards"),
    ],
)
def test_malformed_actions_are_refused_with_the_field_named(action, field):
    s = position()
    refused(s, 0, action, InvalidInput, field=field)


def test_wrong_seat_and_wrong_phase_are_refused():
    s = position()
    refused(s, 1, {"type": "exchange"}, field="seat")
    refused(s, 5, {"type": "exchange"}, InvalidInput, field="seat")
    refused(s, 0, {"type": "accept"}, field="action.type")
    refused(s, 0, {"type": "place_atv", "at": [0, 0]}, field="action.type")
    refused(s, 0, {"type": "extra_marker", "map": "white", "clue": 0})  # no clue played yet
    assert KIND.legal_actions(s, 1) == []
