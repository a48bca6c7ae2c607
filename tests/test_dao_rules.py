"""DAO: one scenario per rule (../shared/rules/dao.md), on stacked decks."""

from __future__ import annotations

import json

import pytest

from errors import IllegalAction, InvalidInput
from games.base import get_kind
from games.dao import cards as C
from games.dao.engine import KIND
from games.dao.scenario import display, game, pile, stacked, texts

TAKE = {"type": "take"}
TURN = {"type": "turn"}


def kinds_of(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


# --- the deck and setup ----------------------------------------------------------------------


def test_registered_under_dao_with_2_to_6_seats():
    kind = get_kind("dao")
    assert kind is KIND
    assert (kind.type.min_seats, kind.type.max_seats) == (2, 6)
    assert list(kind.levels) == ["easy", "normal", "strong"]
    assert {"random", "greedy", "ev"} <= set(kind.bots)  # the older names, as aliases


def test_deck_has_60_cards_12_per_element_with_the_value_spread():
    assert C.CARD_COUNT == 60
    for e in range(5):
        values = sorted(C.CARD_VALUE[c] for c in range(60) if C.CARD_ELEMENT[c] == e)
        assert values == [0] + [1] * 4 + [2] * 3 + [3] * 3 + [4]
    assert C.ELEMENTS == ("metal", "fire", "earth", "wood", "water")


def test_setup_turns_three_cards_and_seat_0_starts():
    state = KIND.new_state(5, 4)
    assert len(state.display) == 3 and len(state.decks[0]) == 57
    assert KIND.to_act(state) == [0]
    assert KIND.legal_actions(state, 0) == [TAKE, TURN]
    assert KIND.legal_actions(state, 1) == []
    view = KIND.view(state, 0)
    assert view["deck"] == 57 and view["round"] == 1 and len(view["display"]) == 3
    assert set(view["display"][0]) >= {"element", "value"}


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    a, b, c = KIND.new_state(9, 3), KIND.new_state(9, 3), KIND.new_state(10, 3)
    assert KIND.state_to_json(a) == KIND.state_to_json(b)
    assert a.decks != c.decks


@pytest.mark.parametrize("seats", [1, 7, "3", True])
def test_seat_counts_outside_2_to_6_are_refused(seats):
    with pytest.raises(InvalidInput) as e:
        KIND.new_state(1, seats)
    assert e.value.field == "seats"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"bust_match": "last"}, "options.bust_match"),
        ({"two_rounds": 1}, "options.two_rounds"),
        ({"two_rounds": "yes"}, "options.two_rounds"),
        ({"colour": "red"}, "options.colour"),
    ],
)
def test_bad_options_are_refused_with_the_field(options, field):
    with pytest.raises(InvalidInput) as e:
        KIND.new_state(1, 3, options)
    assert e.value.field == field


# --- take and turn ---------------------------------------------------------------------------


def test_take_moves_the_first_card_to_the_pile_and_the_rest_slide():
    state = game(["fire3", "wood1", "water2", "earth4"])
    events = KIND.apply(state, 0, TAKE)
    assert pile(state, 0) == ["fire3"]
    assert display(state) == ["wood1", "water2"]
    assert events == [{"type": "take", "seat": 0, "card": {"element": "fire", "value": 3}}]
    assert KIND.to_act(state) == [1]


def test_turn_puts_the_top_card_at_the_far_end_and_nothing_happens_up_to_12():
    state = game(["fire3", "wood4", "water2", "earth3"])  # 9 + 3 = 12: safe
    events = KIND.apply(state, 0, TURN)
    assert display(state) == ["fire3", "wood4", "water2", "earth3"]
    assert events == [
        {"type": "turn", "seat": 0, "card": {"element": "earth", "value": 3}, "total": 12}
    ]
    assert pile(state, 0) == [] and KIND.to_act(state) == [1]


def test_turn_above_12_busts_the_turning_seat_takes_all_and_the_display_refills():
    state = game(["fire3", "wood4", "water2", "earth4", "metal1", "metal2", "metal3"])
    events = KIND.apply(state, 0, TURN)  # 9 + 4 = 13, previous card water2: bust
    assert kinds_of(events) == ["turn", "bust", "refill"]
    assert pile(state, 0) == ["fire3", "wood4", "water2", "earth4"]
    assert events[1]["total"] == 13 and texts(events[1]["cards"]) == pile(state, 0)
    assert display(state) == ["metal1", "metal2", "metal3"]
    assert texts(events[2]["cards"]) == ["metal1", "metal2", "metal3"]


@pytest.mark.parametrize(("bust_match", "busts"), [("previous", False), ("first", True)])
def test_equal_value_to_the_previous_card_saves_under_previous_only(bust_match, busts):
    # first metal1, previous (far end) wood4; turned water4: 9 + 4 = 13.
    state = game(["metal1", "fire4", "wood4", "water4"], bust_match=bust_match)
    events = KIND.apply(state, 0, TURN)
    if busts:
        assert kinds_of(events)[:2] == ["turn", "bust"]
        assert pile(state, 0) == ["metal1", "fire4", "wood4", "water4"]
    else:
        assert kinds_of(events) == ["turn", "saved"]
        assert events[1]["matched"] == {"element": "wood", "value": 4}
        assert display(state) == ["metal1", "fire4", "wood4", "water4"] and pile(state, 0) == []


@pytest.mark.parametrize(("bust_match", "busts"), [("previous", True), ("first", False)])
def test_equal_value_to_the_first_card_saves_under_first_only(bust_match, busts):
    # first earth4, previous wood2; turned water4: 9 + 4 = 13.
    state = game(["earth4", "fire3", "wood2", "water4"], bust_match=bust_match)
    events = KIND.apply(state, 0, TURN)
    assert ("bust" in kinds_of(events)) is busts
    assert ("saved" in kinds_of(events)) is not busts
    if not busts:
        assert events[1]["matched"] == {"element": "earth", "value": 4}
        assert len(state.display) == 4


def test_the_exception_only_matters_above_12():
    # 3 + 3 + 2 + 2 = 10: equal to the previous card but safe anyway, no "saved" event.
    state = game(["fire3", "wood3", "water2", "earth2"])
    assert kinds_of(KIND.apply(state, 0, TURN)) == ["turn"]


def test_a_saved_display_stays_and_the_next_seat_may_take_or_turn_on_it():
    state = game(["metal1", "fire4", "wood4", "water4", "earth0", "earth1", "earth2", "earth3"])
    KIND.apply(state, 0, TURN)  # saved at 13
    assert KIND.to_act(state) == [1] and KIND.legal_actions(state, 1) == [TAKE, TURN]
    events = KIND.apply(state, 1, TURN)  # earth0 matches nothing (previous water4): bust at 13
    assert kinds_of(events)[:2] == ["turn", "bust"]
    assert pile(state, 1) == ["metal1", "fire4", "wood4", "water4", "earth0"]


def test_taking_the_last_display_card_refills_three():
    state = game(["fire1", "wood1", "water1", "earth1", "metal1", "metal2"])
    KIND.apply(state, 0, TAKE)
    KIND.apply(state, 1, TAKE)
    events = KIND.apply(state, 2, TAKE)
    assert kinds_of(events) == ["take", "refill"]
    assert display(state) == ["earth1", "metal1", "metal2"]
    assert KIND.to_act(state) == [0]


# --- refills and the end ---------------------------------------------------------------------


def test_refill_with_fewer_than_3_cards_turns_what_remains_and_ends_the_game():
    state = game(["fire1", "wood1", "water1", "earth1", "metal3"], fill=False)
    for seat in (0, 1):
        KIND.apply(state, seat, TAKE)
    events = KIND.apply(state, 2, TAKE)  # display empty, 2 cards left: both turned, deck out
    assert kinds_of(events) == ["take", "refill", "round_end", "game_over"]
    assert texts(events[1]["cards"]) == ["earth1", "metal3"]
    assert texts(events[2]["left"]) == ["earth1", "metal3"]  # they belong to nobody
    assert KIND.is_over(state) and KIND.to_act(state) == []
    assert KIND.scores(state) == [1, 1, 1]  # one 1-card each
    assert KIND.legal_actions(state, 0) == []


def test_refill_after_a_bust_with_fewer_than_3_cards_left():
    state = game(["fire4", "wood4", "water3", "earth2", "metal1"], fill=False)
    events = KIND.apply(state, 0, TURN)  # 11 + 2 = 13, previous water3: bust
    assert kinds_of(events) == ["turn", "bust", "refill", "round_end", "game_over"]
    assert texts(events[2]["cards"]) == ["metal1"]
    assert state.display == [] and texts(events[3]["left"]) == ["metal1"]


def test_a_bust_on_the_last_card_is_taken_and_ends_the_game():
    state = game(["fire4", "wood4", "water3", "earth2"], fill=False)
    events = KIND.apply(state, 0, TURN)
    assert kinds_of(events) == ["turn", "bust", "round_end", "game_over"]
    assert pile(state, 0) == ["fire4", "wood4", "water3", "earth2"]
    assert events[2]["left"] == []
    assert KIND.scores(state) == [4 - 3, 0, 0]  # fire (or wood): 4 - 3 other cards


def test_the_last_card_without_a_bust_ends_the_game_and_the_display_belongs_to_nobody():
    state = game(["fire1", "wood1", "water1", "earth1"], fill=False)
    events = KIND.apply(state, 0, TURN)
    assert kinds_of(events) == ["turn", "round_end", "game_over"]
    assert texts(events[1]["left"]) == ["fire1", "wood1", "water1", "earth1"]
    assert KIND.scores(state) == [0, 0, 0]
    assert events[2]["winners"] == [0, 1, 2]


def test_the_last_card_saved_by_the_exception_ends_the_game_without_a_take():
    state = game(["metal1", "fire4", "wood4", "water4"], fill=False)
    events = KIND.apply(state, 0, TURN)
    assert kinds_of(events) == ["turn", "saved", "round_end", "game_over"]
    assert pile(state, 0) == []


def test_no_action_after_the_end():
    state = game(["fire1", "wood1", "water1", "earth1"], fill=False)
    KIND.apply(state, 0, TURN)
    before = KIND.state_to_json(state)
    with pytest.raises(IllegalAction):
        KIND.apply(state, 1, TAKE)
    assert KIND.state_to_json(state) == before


# --- scoring ---------------------------------------------------------------------------------


def test_score_example_from_the_rules_earth_11_minus_5_is_6():
    cards = stacked(
        [
            "earth3",
            "earth4",
            "earth0",
            "earth2",
            "earth2",
            "fire1",
            "wood1",
            "water1",
            "metal1",
            "fire2",
        ],
        fill=False,
    )
    assert C.pile_score(cards) == 6
    assert C.ELEMENTS[C.best_element(cards)] == "earth"


def test_a_pile_of_mixed_low_cards_scores_negative_and_an_empty_pile_zero():
    cards = stacked(["metal1", "fire1", "earth1", "wood1", "water1"], fill=False)
    assert C.element_scores(cards) == [1 - 4] * 5
    assert C.pile_score(cards) == -3
    assert C.pile_score([]) == 0


def test_scores_pick_each_players_best_element_and_ties_share_the_win():
    # Seat 0 busts wood4 water4 fire4 earth1: best element 4 - 3 others = 1; the others hold none.
    state = game(["wood4", "water4", "fire4", "earth1"], fill=False)
    KIND.apply(state, 0, TURN)
    assert KIND.scores(state) == [1, 0, 0] and KIND.winners(state) == [0]

    state = game(["fire1", "wood3", "water3", "metal4", "earth3"], seats=2, fill=False)
    KIND.apply(state, 0, TAKE)  # seat 0: fire1 -> 1; display wood3 water3 = 6
    KIND.apply(state, 1, TURN)  # metal4: 10
    events = KIND.apply(state, 0, TURN)  # earth3: 13, previous metal4: bust on the last card
    assert kinds_of(events)[-2:] == ["round_end", "game_over"]
    # seat 0: fire1 wood3 water3 metal4 earth3 -> metal 4 - 4 others = 0; seat 1 holds nothing.
    assert KIND.scores(state) == [0, 0]
    assert KIND.winners(state) == [0, 1]  # a tie shares the win

    state = game(["fire2", "wood2", "water1", "metal0"], seats=2, fill=False)
    KIND.apply(state, 0, TAKE)  # fire2: 2
    KIND.apply(state, 1, TAKE)  # wood2: 2
    KIND.apply(state, 0, TURN)  # water1 + metal0 = 1: deck out, display to nobody
    assert KIND.scores(state) == [2, 2] and KIND.winners(state) == [0, 1]


def test_a_seat_that_busts_a_mixed_display_scores_negative_and_loses():
    state = game(["fire1", "wood2", "water2", "metal3", "earth3", "fire2"], seats=2, fill=False)
    KIND.apply(state, 0, TURN)  # 5 + 3 = 8
    KIND.apply(state, 1, TURN)  # 11
    events = KIND.apply(state, 0, TURN)  # 11 + 2 = 13, previous earth3: bust, deck out
    assert kinds_of(events) == ["turn", "bust", "round_end", "game_over"]
    pile0 = state.finished[0]["piles"][0]
    # fire 1 + 2 - 4 others = -1; metal, earth 3 - 5 = -2; wood, water 2 - 5 = -3.
    assert C.element_scores(pile0) == [-2, -1, -2, -3, -3]
    assert KIND.scores(state) == [-1, 0] and KIND.winners(state) == [1]
    view = KIND.view(state, None)
    assert view["players"][0]["element_scores"]["fire"] == -1 and view["players"][0]["score"] == -1
    assert view["players"][0]["total"] == -1


def test_the_equal_value_exception_can_save_a_display_twice_in_a_row():
    deck = ["fire1", "wood1", "water1", "metal1", "earth4", "fire4", "wood4", "water4", "fire0"]
    state = game(deck, seats=2, fill=False)
    for seat in (0, 1, 0):
        assert kinds_of(KIND.apply(state, seat, TURN)) == ["turn"]  # 4, 8, 12
    assert kinds_of(KIND.apply(state, 1, TURN)) == ["turn", "saved"]  # wood4 after fire4: 16
    assert kinds_of(KIND.apply(state, 0, TURN)) == ["turn", "saved"]  # water4 after wood4: 20
    events = KIND.apply(state, 1, TURN)  # fire0 after water4: bust at 20 on the last card
    assert kinds_of(events) == ["turn", "bust", "round_end", "game_over"]
    assert len(events[1]["cards"]) == 9
    # seat 1: fire 1 + 4 + 0 - 6 others = -1 (wood and water 5 - 7 = -2).
    assert KIND.scores(state) == [0, -1]


# --- the 2-player two-round variant ----------------------------------------------------------


def test_two_rounds_default_on_for_2_seats_and_off_otherwise():
    assert KIND.resolve_options(None, 2)["two_rounds"] is True
    assert KIND.resolve_options(None, 3)["two_rounds"] is False
    assert KIND.resolve_options(None)["two_rounds"] is None  # unknown seat count: still "auto"
    assert len(KIND.new_state(1, 2).decks) == 2
    assert len(KIND.new_state(1, 2, {"two_rounds": False}).decks) == 1
    assert len(KIND.new_state(1, 4, {"two_rounds": True}).decks) == 2


def test_two_rounds_split_the_deck_in_halves_and_add_the_scores():
    state = KIND.new_state(3, 2)
    assert [len(d) for d in state.decks] == [27, 30]  # 3 of the first half on display
    assert sorted(state.decks[0] + state.display + state.decks[1]) == list(range(60))
    rng_actions = [TAKE, TURN, TURN, TAKE]
    n = 0
    while state.round == 1:
        seat = KIND.to_act(state)[0]
        events = KIND.apply(state, seat, rng_actions[n % 4])
        n += 1
    assert kinds_of(events)[-2:] == ["round_start", "refill"]
    round_1 = state.finished[0]
    assert sum(len(p) for p in round_1["piles"]) + len(round_1["left"]) == 30
    assert state.piles == [[], []] and len(state.display) == 3 and len(state.decks[1]) == 27
    assert KIND.to_act(state) == [1]  # round 2 starts with the next seat
    view = KIND.view(state, 0)
    assert view["round"] == 2 and view["rounds"] == 2 and view["deck"] == 27
    assert view["finished"][0]["scores"] == round_1["scores"]
    while not KIND.is_over(state):
        seat = KIND.to_act(state)[0]
        KIND.apply(state, seat, rng_actions[n % 4])
        n += 1
    r1, r2 = (r["scores"] for r in state.finished)
    assert KIND.scores(state) == [r1[0] + r2[0], r1[1] + r2[1]]
    end = KIND.view(state, 1)["players"][0]
    assert end["round_scores"] == [r1[0], r2[0]] and end["total"] == r1[0] + r2[0]
    assert end["score"] == r2[0] == C.pile_score(state.finished[1]["piles"][0])


# --- refused actions change nothing ---------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "error", "field"),
    [
        (1, TAKE, IllegalAction, "seat"),
        (0, {"type": "pass"}, InvalidInput, "action.type"),
        (0, {}, InvalidInput, "action.type"),
        (0, {"type": "take", "card": 3}, InvalidInput, "action.card"),
        (0, "take", InvalidInput, "action"),
        (0, None, InvalidInput, "action"),
        (7, TAKE, InvalidInput, "seat"),
        (-1, TAKE, InvalidInput, "seat"),
        (True, TAKE, InvalidInput, "seat"),
        ("0", TURN, InvalidInput, "seat"),
    ],
)
def test_refused_actions_change_nothing(seat, action, error, field):
    state = KIND.new_state(11, 3)
    KIND.apply(state, 0, TURN)
    KIND.apply(state, 1, TAKE)
    KIND.apply(state, 2, TURN)
    before = json.dumps(KIND.state_to_json(state), sort_keys=True)
    with pytest.raises(error) as e:
        KIND.apply(state, seat, action)
    assert e.value.field == field
    assert json.dumps(KIND.state_to_json(state), sort_keys=True) == before
