"""Dragon's Gold: a scenario per rule of ../shared/rules/dragons_gold.md, on constructed positions."""

from __future__ import annotations

import random

import pytest

from errors import IllegalAction, InvalidInput
from games.base import SYSTEM, get_kind, play_bots
from games.dragons_gold.data import DRAGONS, ITEM_OF_CARD, TOKEN_COUNTS
from games.dragons_gold.engine import KIND, token_total
from games.dragons_gold.scenario import cards_of, position
from games.dragons_gold.table import SETTLEMENT

TIMEOUT = {"type": "timeout"}


def play(state, seat, hunter, dragon, **extra):
    return KIND.apply(state, seat, {"type": "play", "hunter": hunter, "dragon": dragon, **extra})


def kinds_of(events):
    return [e["type"] for e in events]


def refused(state, seat, action, error=IllegalAction):
    """The action is refused with ``error`` and the state does not change; returns the reason."""
    before = KIND.state_to_json(state)
    with pytest.raises(error) as info:
        KIND.apply(state, seat, action)
    assert KIND.state_to_json(state) == before
    return info.value.reason


# --- components and setup ----------------------------------------------------------------------


def test_registered_with_3_to_6_seats_timed_options_and_bots():
    kind = get_kind("dragons_gold")
    assert kind is KIND and (kind.type.min_seats, kind.type.max_seats) == (3, 6)
    assert kind.type.timed and kind.type.turns == "simultaneous"
    assert list(kind.levels) == ["easy", "normal", "strong"]
    assert set(kind.bots) == {"easy", "normal", "strong", "random", "greedy"}
    opts = kind.resolve_options({})
    assert opts == {
        "advanced": False,
        "negotiation": "timed",
        "negotiation_seconds": 60,
        "market_seconds": 60,
    }
    assert kind.resolve_options({"negotiation_seconds": 5})["negotiation_seconds"] == 5
    for bad in ({"negotiation_seconds": 4}, {"market_seconds": 601}, {"negotiation": "dice"}):
        with pytest.raises(InvalidInput):
            kind.resolve_options(bad)


def test_components_126_tokens_18_dragons_strength_5_to_10_more_treasure_than_tokens():
    assert sum(TOKEN_COUNTS.values()) == 126
    assert TOKEN_COUNTS == {
        "gold": 20,
        "silver": 35,
        "red": 16,
        "black": 1,
        "yellow": 12,
        "blue": 12,
        "green": 12,
        "purple": 12,
        "white": 6,
    }
    assert len(DRAGONS) == 18
    assert {d["strength"] for d in DRAGONS.values()} == set(range(5, 11))
    assert sum(d["visible"] + d["hidden"] for d in DRAGONS.values()) > 126
    assert len(ITEM_OF_CARD) == 24


def test_setup_reveals_four_dragons_with_visible_treasure_and_seat_0_starts():
    state = KIND.new_state(7, 4)
    view = KIND.view(state, None)
    assert len(view["dragons"]) == 4 and view["phase"] == "fight" and KIND.to_act(state) == [0]
    for d in view["dragons"]:
        assert sum(d["treasure"].values()) == DRAGONS[d["id"]]["visible"] and d["hunters"] == []
    assert view["bag"] == 126 - sum(sum(d["treasure"].values()) for d in view["dragons"])
    assert view["deck"] == 14 and view["market_card"] == "deck"
    assert all(set(p["hunters"].values()) == {"up"} for p in view["players"])
    assert all(p["items"] == 0 for p in view["players"])
    advanced = KIND.new_state(7, 4, {"advanced": True})
    assert [len(h) for h in advanced.hands] == [1, 1, 1, 1]
    assert KIND.timer(state) is None


# --- the fight ---------------------------------------------------------------------------------


def test_a_dragon_is_slain_when_the_attack_reaches_its_strength_not_before():
    state = position(row=[(4, {"gold": 1}), (2, {}), (3, {}), (1, {})], bag_top=["gold"] * 3)
    play(state, 0, "knight3", 0)  # 3 of 6
    play(state, 1, "thief", 0)  # 5 of 6
    assert not state.row[0].slain and KIND.to_act(state) == [2]
    events = play(state, 2, "wizard", 0)  # 6 of 6: slain (>=)
    slain = next(e for e in events if e["type"] == "dragon_slain")
    assert slain["drawn"]["gold"] == 3 and slain["participants"] == [0, 1, 2]
    assert state.phase in SETTLEMENT and state.row[0].treasure["gold"] == 4
    assert token_total(state) == 126


def test_a_sole_slayer_takes_everything_hunters_return_face_down_and_the_left_player_goes_on():
    state = position(
        row=[(1, {"gold": 2}), (2, {}), (3, {}), (4, {})],
        stacks={0: [(1, "knight4")]},
        bag_top=["silver", "silver", "black", "yellow", "yellow"],
        turn=1,
    )
    events = play(state, 1, "thief", 0)  # 4 + 2 >= 5, seat 1 alone
    assert "treasure_shared" in kinds_of(events)
    assert state.hoards[1]["gold"] == 2 and state.hoards[1]["silver"] == 2
    assert state.hoards[1]["black"] == 1
    assert state.hunters[1] == {
        "wizard": "up",
        "thief": "down",
        "knight3": "up",
        "knight4": "down",
    }
    # the dragon left; a new one came into its place with its visible treasure
    assert state.row[0].id == 5 and sum(state.row[0].treasure.values()) == 2
    assert state.phase == "fight" and KIND.to_act(state) == [2]
    others = KIND.view(state, 0)["players"][1]
    assert others["hoard"] is None and others["tokens"] == 5
    assert KIND.view(state, 1)["players"][1]["hoard"]["gold"] == 2


def test_the_next_player_after_a_slaying_is_left_of_the_slaying_hunters_owner():
    state = position(stacks={1: [(0, "knight4")]}, turn=3)
    play(state, 3, "wizard", 1)  # 5: slain by seats 0 and 3
    assert state.phase in SETTLEMENT
    shares = {"0": dict(state.row[1].treasure), "3": {}}
    KIND.apply(state, 0, {"type": "propose", "shares": shares})
    KIND.apply(state, 3, {"type": "accept", "proposal": 1})
    assert state.phase == "fight" and KIND.to_act(state) == [0]  # left of seat 3


def test_all_face_down_hunters_turn_up_at_the_start_of_the_turn_and_empty_handed_seats_skip():
    state = position(seats=3, row=[(16, {}), (17, {}), (18, {}), (15, {})])
    state.hunters[1] = {
        "wizard": "down",
        "thief": "down",
        "knight3": "played",
        "knight4": "down",
    }
    state.hunters[2] = dict.fromkeys(state.hunters[2], "played")
    state.row[3].stack = [
        {"seat": 2, "hunter": h, "attack": a, "sword": False}
        for h, a in (("wizard", 1), ("thief", 2))
    ]
    state.row[2].stack = [
        {"seat": 2, "hunter": h, "attack": a, "sword": False}
        for h, a in (("knight3", 3), ("knight4", 4))
    ]
    state.row[1].stack = [{"seat": 1, "hunter": "knight3", "attack": 3, "sword": False}]
    events = play(state, 0, "wizard", 0)
    assert {"type": "hunters_turned_up", "seat": 1} in events
    assert state.hunters[1]["wizard"] == "up" and KIND.to_act(state) == [1]
    events = play(state, 1, "wizard", 0)
    assert {"type": "turn_skipped", "seat": 2} in events  # nothing in front of seat 2
    assert KIND.to_act(state) == [0]


def test_a_seat_with_some_hunters_up_must_play_them_before_turning_others():
    state = position()
    state.hunters[0] = {"wizard": "down", "thief": "up", "knight3": "down", "knight4": "down"}
    assert [a["hunter"] for a in KIND.legal_actions(state, 0)] == ["thief"] * 4
    assert refused(state, 0, {"type": "play", "hunter": "wizard", "dragon": 0}) == (
        "dg_hunter_not_ready"
    )


def test_when_nobody_has_a_hunter_in_front_the_most_attacked_dragon_is_overwhelmed():
    # three players, all twelve hunters under four strong dragons, none slain (decision)
    state = position(
        seats=3,
        row=[(16, {"gold": 1}), (17, {}), (18, {}), (15, {})],
        stacks={
            0: [(0, "knight4"), (1, "knight4")],  # 8 of 10
            1: [(0, "knight3"), (2, "knight4"), (1, "wizard")],  # 8 of 10
            2: [(1, "knight3"), (2, "knight3"), (0, "wizard")],  # 7 of 10
            3: [(2, "thief"), (0, "thief"), (1, "thief")],  # 6 of 9
        },
        turn=2,
    )
    state.hunters[2]["wizard"] = "up"
    events = play(state, 2, "wizard", 3)  # 7 of 9: still alive; nobody has a hunter in front
    kinds = kinds_of(events)
    assert kinds.count("turn_skipped") == 3 and "dragon_overwhelmed" in kinds
    over = next(e for e in events if e["type"] == "dragon_overwhelmed")
    assert over == {"type": "dragon_overwhelmed", "dragon": 0, "seat": 1}  # 8 first, leftmost
    assert state.settle.participants == [0, 1] and state.settle.slayer == 1


def test_malformed_and_illegal_plays_are_refused_without_change():
    state = position()
    assert refused(state, 0, {"type": "play", "hunter": "dragon", "dragon": 0}, InvalidInput) == (
        "dg_no_such_hunter"
    )
    assert refused(state, 0, {"type": "play", "hunter": "thief", "dragon": 9}, InvalidInput) == (
        "dg_no_such_dragon"
    )
    assert refused(state, 0, {"type": "play", "hunter": "thief", "dragon": 0, "x": 1}, InvalidInput)
    assert refused(state, 0, {"type": "propose", "shares": {}}) == "action_not_now"
    assert refused(state, 0, {"type": "use", "card": 0}) == "dg_not_advanced"
    assert refused(state, 1, {"type": "play", "hunter": "thief", "dragon": 0}) == "not_your_turn"
    assert refused(state, SYSTEM, TIMEOUT) == "not_a_timeout"


# --- the wizard -------------------------------------------------------------------------------


def test_a_lone_wizard_takes_the_red_tokens_before_the_negotiation_and_keeps_them():
    state = position(
        row=[(1, {"red": 2, "gold": 1}), (2, {}), (3, {}), (4, {})], bag_top=["red"] * 3
    )
    play(state, 0, "wizard", 0)
    events = play(state, 1, "knight4", 0)
    assert {"type": "wizard_took", "seat": 0, "red": 5} in events
    assert state.hoards[0]["red"] == 5 and state.row[0].treasure["red"] == 0
    KIND.apply(state, SYSTEM, TIMEOUT)  # no agreement: the rest leaves, the reds stay
    assert state.hoards[0]["red"] == 5 and state.removed["gold"] == 1
    assert token_total(state) == 126


def test_two_wizards_take_nothing_early():
    state = position(row=[(4, {"red": 2}), (2, {}), (3, {}), (1, {})])
    play(state, 0, "wizard", 0)
    play(state, 1, "wizard", 0)
    events = play(state, 2, "knight4", 0)  # 6 of 6
    assert "wizard_took" not in kinds_of(events) and state.row[0].treasure["red"] >= 2


def test_advanced_wizard_draws_a_magic_item_per_red_token_received_in_the_split():
    state = position(
        options={"advanced": True},
        row=[(1, {"red": 2, "gold": 1}), (2, {}), (3, {}), (4, {})],
        bag_top=["silver"] * 3,
    )
    play(state, 0, "wizard", 0)
    events = play(state, 1, "knight4", 0)
    assert "wizard_took" not in kinds_of(events)
    shares = {"0": {"red": 2}, "1": {"gold": 1, "silver": 3}}
    KIND.apply(state, 1, {"type": "propose", "shares": shares})
    events = KIND.apply(state, 0, {"type": "accept", "proposal": 1})
    assert {"type": "items_drawn", "seat": 0, "count": 2} in events
    assert len(state.hands[0]) == 2 and len(state.hands[1]) == 0
    notes = KIND.view(state, 0)["notes"]
    assert [n["type"] for n in notes] == ["item_drawn", "item_drawn"]


# --- the negotiation ---------------------------------------------------------------------------


def slain_by_three(options=None):
    """Dragon 4 (strength 6, treasure 2 gold + hidden 3 silver) slain by seats 0, 1, 2."""
    state = position(
        options=options, row=[(4, {"gold": 2}), (2, {}), (3, {}), (1, {})], bag_top=["silver"] * 3
    )
    play(state, 0, "knight3", 0)
    play(state, 1, "thief", 0)
    play(state, 2, "wizard", 0)
    return state


def test_negotiation_every_participant_proposes_others_answer_all_accepting_ends_it():
    state = slain_by_three()
    assert KIND.to_act(state) == [0, 1, 2] and KIND.timer(state).seconds == 60
    assert KIND.timer(state).since == state.moves == 3
    shares = {"0": {"gold": 2}, "1": {"silver": 2}, "2": {"silver": 1}}
    KIND.apply(state, 1, {"type": "propose", "shares": shares})
    view = KIND.view(state, 3)
    assert view["negotiation"]["proposal"]["answers"] == {"0": None, "2": None}
    KIND.apply(state, 0, {"type": "accept", "proposal": 1})
    assert state.phase in SETTLEMENT
    events = KIND.apply(state, 2, {"type": "accept", "proposal": 1})
    shared = next(e for e in events if e["type"] == "treasure_shared")
    assert shared["outcome"] == "agreed" and shared["shares"]["0"]["gold"] == 2
    assert state.hoards[2]["silver"] == 1
    # the thief (seat 1) steals now
    assert state.phase == "steal" and KIND.to_act(state) == [1]


def test_a_new_proposal_resets_the_answers_and_old_answers_are_refused():
    state = slain_by_three()
    all_to = {"0": {"gold": 2, "silver": 3}}
    KIND.apply(state, 0, {"type": "propose", "shares": all_to})
    KIND.apply(state, 1, {"type": "accept", "proposal": 1})
    KIND.apply(state, 2, {"type": "propose", "shares": {"2": {"gold": 2, "silver": 3}}})
    assert state.settle.proposal["answers"] == {"0": None, "1": None}
    assert refused(state, 0, {"type": "accept", "proposal": 1}) == "dg_stale_proposal"
    assert refused(state, 2, {"type": "accept", "proposal": 2}) == "dg_own_proposal"
    KIND.apply(state, 0, {"type": "reject", "proposal": 2})
    assert refused(state, 0, {"type": "reject", "proposal": 2}) == "dg_already_answered"
    KIND.apply(state, 0, {"type": "accept", "proposal": 2})  # minds may change
    KIND.apply(state, 1, {"type": "accept", "proposal": 2})
    assert state.hoards[2]["gold"] == 2 and state.phase == "steal"


def test_a_proposal_must_give_out_exactly_this_treasure_to_participants():
    state = slain_by_three()
    short = {"0": {"gold": 2, "silver": 2}}
    assert refused(state, 0, {"type": "propose", "shares": short}) == "dg_split_mismatch"
    future = {"0": {"gold": 3, "silver": 3}}
    assert refused(state, 0, {"type": "propose", "shares": future}) == "dg_split_mismatch"
    outsider = {"3": {"gold": 2, "silver": 3}}
    assert refused(state, 0, {"type": "propose", "shares": outsider}) == "dg_not_a_participant"
    bad = {"0": {"gold": -1}}
    assert refused(state, 0, {"type": "propose", "shares": bad}, InvalidInput) == "dg_bad_tokens"
    assert refused(state, 0, {"type": "propose", "shares": {"0": {"rubies": 1}}}, InvalidInput)
    assert refused(state, 0, {"type": "accept", "proposal": 1}) == "dg_no_proposal"
    assert refused(state, 3, {"type": "propose", "shares": short}) == "not_your_turn"


def test_without_agreement_in_time_the_whole_treasure_leaves_the_game():
    state = slain_by_three()
    KIND.apply(state, 0, {"type": "propose", "shares": {"0": {"gold": 2, "silver": 3}}})
    KIND.apply(state, 1, {"type": "accept", "proposal": 1})  # seat 2 never accepts
    assert KIND.timer(state).action == TIMEOUT
    events = KIND.apply(state, SYSTEM, TIMEOUT)
    assert events[0] == {
        "type": "negotiation_failed",
        "removed": {**_zero(), "gold": 2, "silver": 3},
    }
    assert state.removed["gold"] == 2 and sum(state.hoards[0].values()) == 0
    assert token_total(state) == 126


def _zero():
    return dict.fromkeys(TOKEN_COUNTS, 0)


# --- the thief -------------------------------------------------------------------------------


def test_thieves_steal_in_the_order_played_a_random_token_from_another_participant():
    state = position(row=[(13, {"gold": 4}), (2, {}), (3, {}), (1, {})], bag_top=["silver"] * 6)
    play(state, 0, "thief", 0)
    play(state, 1, "thief", 0)
    play(state, 2, "knight4", 0)  # 8 of 9
    play(state, 3, "wizard", 0)  # 9: slain; thieves of seat 0 then seat 1
    shares = {"0": {}, "1": {}, "2": {"gold": 4}, "3": {"silver": 6}}
    KIND.apply(state, 0, {"type": "propose", "shares": shares})
    for s in (1, 2, 3):
        KIND.apply(state, s, {"type": "accept", "proposal": 1})
    assert state.settle.thief == 0 and KIND.to_act(state) == [0]
    assert KIND.legal_actions(state, 0) == [
        {"type": "steal", "from": 2},
        {"type": "steal", "from": 3},
        {"type": "decline"},
    ]
    assert refused(state, 0, {"type": "steal", "from": 1}) == "dg_bad_victim"
    KIND.apply(state, 0, {"type": "steal", "from": 2})
    assert state.hoards[0]["gold"] == 1 and state.hoards[2]["gold"] == 3
    assert KIND.view(state, 0)["notes"][-1]["colour"] == "gold"
    assert KIND.view(state, 2)["notes"][-1] == {
        "move": state.moves,
        "type": "robbed",
        "seat": 0,
        "colour": "gold",
    }
    assert KIND.to_act(state) == [1]
    KIND.apply(state, 1, {"type": "steal", "from": 3})
    assert state.hoards[1]["silver"] == 1
    assert state.phase == "fight" and KIND.to_act(state) == [0]  # left of seat 3


def test_a_player_with_wizard_and_thief_in_the_fight_looks_behind_the_screen_and_picks():
    state = position(
        row=[(4, {"gold": 1, "red": 1}), (2, {}), (3, {}), (1, {})],
        bag_top=["black", "silver", "silver"],
    )
    play(state, 0, "wizard", 0)
    play(state, 1, "knight3", 0)  # 4
    state.current = 0
    play(state, 0, "thief", 0)  # 6 of 6; seat 0 has wizard + thief; lone wizard took the red
    KIND.apply(state, 0, {"type": "propose", "shares": {"1": {"gold": 1, "black": 1, "silver": 2}}})
    KIND.apply(state, 1, {"type": "accept", "proposal": 1})
    events = KIND.apply(state, 0, {"type": "steal", "from": 1})
    assert events[0]["looks"] and state.phase == "look"
    look = KIND.view(state, 0)["negotiation"]["looking_at"]
    assert look["seat"] == 1 and look["hoard"]["black"] == 1
    assert KIND.view(state, 1)["negotiation"]["looking_at"] is None
    assert KIND.view(state, None)["negotiation"]["looking_at"] is None
    assert refused(state, 0, {"type": "take", "colour": "white"}) == "dg_colour_not_held"
    KIND.apply(state, 0, {"type": "take", "colour": "black"})
    assert state.hoards[0]["black"] == 1 and state.hoards[1]["black"] == 0


def two_thieves():
    """Seats 0 and 1 each have a thief under a slain dragon; seat 2 got the gold, seat 3 the
    silver; seat 0's thief is first to steal."""
    state = position(row=[(13, {"gold": 4}), (2, {}), (3, {}), (1, {})], bag_top=["silver"] * 6)
    play(state, 0, "thief", 0)
    play(state, 1, "thief", 0)
    play(state, 2, "knight4", 0)
    play(state, 3, "wizard", 0)
    KIND.apply(state, 0, {"type": "propose", "shares": {"2": {"gold": 4}, "3": {"silver": 6}}})
    for s in (1, 2, 3):
        KIND.apply(state, s, {"type": "accept", "proposal": 1})
    return state


def test_a_thief_may_decline_to_steal():
    """Seed: the thief *may* take one random token (可…隨機拿取1個寶藏標記): declining takes
    nothing, and the next thief in the order played steals (or declines) in turn."""
    state = two_thieves()
    hoards = [dict(h) for h in state.hoards]
    events = KIND.apply(state, 0, {"type": "decline"})
    assert events == [{"type": "theft_declined", "seat": 0}]
    assert state.hoards == hoards and state.phase == "steal" and KIND.to_act(state) == [1]
    assert KIND.view(state, 0)["notes"] == []
    events = KIND.apply(state, 1, {"type": "decline"})
    assert state.hoards == hoards and state.phase == "fight" and KIND.to_act(state) == [0]
    assert {"type": "theft_declined", "seat": 1} in events and "dragon_left" in kinds_of(events)
    assert state.stats["thefts"] == 0


def test_a_wizard_and_thief_player_may_decline_after_looking():
    state = position(
        row=[(4, {"gold": 1, "red": 1}), (2, {}), (3, {}), (1, {})],
        bag_top=["black", "silver", "silver"],
    )
    play(state, 0, "wizard", 0)
    play(state, 1, "knight3", 0)
    state.current = 0
    play(state, 0, "thief", 0)
    KIND.apply(state, 0, {"type": "propose", "shares": {"1": {"gold": 1, "black": 1, "silver": 2}}})
    KIND.apply(state, 1, {"type": "accept", "proposal": 1})
    KIND.apply(state, 0, {"type": "steal", "from": 1})
    assert state.phase == "look" and {"type": "decline"} in KIND.legal_actions(state, 0)
    KIND.apply(state, 0, {"type": "decline"})
    assert state.hoards[1]["black"] == 1 and state.hoards[0]["black"] == 0
    assert state.phase == "fight"


def test_the_greedy_thief_declines_a_diamond_that_would_cost_its_gems():
    """Advanced rules: the black diamond (19) makes its owner's gems score nothing. The greedy
    thief (``games.dragons_gold.bots``) holding many gems declines to steal from the only other
    participant when the split just gave that player the diamond among few tokens; in the
    basic game, or with few gems, it steals."""
    greedy = KIND.bots["greedy"]

    def at_theft(advanced: bool, gems: int):
        hoard = {g: gems for g in ("yellow", "blue", "green", "purple", "white")}
        state = position(
            options={"advanced": advanced},
            row=[(4, {"gold": 1}), (2, {}), (3, {}), (1, {})],
            bag_top=["black", "silver", "silver"],
            hoards={0: hoard},
        )
        play(state, 0, "thief", 0)
        play(state, 1, "knight4", 0)  # 6 of 6: seats 0 and 1
        shares = {"1": {"black": 1, "silver": 1}, "0": {"gold": 1, "silver": 1}}
        KIND.apply(state, 0, {"type": "propose", "shares": shares})
        KIND.apply(state, 1, {"type": "accept", "proposal": 1})
        assert state.phase == "steal" and KIND.to_act(state) == [0]
        return greedy(KIND.view(state, 0), KIND.legal_actions(state, 0), random.Random(0))

    assert at_theft(advanced=True, gems=6) == {"type": "decline"}
    assert at_theft(advanced=True, gems=0) == {"type": "steal", "from": 1}
    assert at_theft(advanced=False, gems=6) == {"type": "steal", "from": 1}


def test_a_thief_with_nobody_to_rob_steals_nothing_and_an_amulet_stops_a_theft():
    state = slain_by_three()
    KIND.apply(state, 0, {"type": "propose", "shares": {"0": {"gold": 2, "silver": 3}}})
    KIND.apply(state, 1, {"type": "accept", "proposal": 1})
    KIND.apply(state, 2, {"type": "accept", "proposal": 1})
    assert KIND.legal_actions(state, 1) == [{"type": "steal", "from": 0}, {"type": "decline"}]
    state2 = position(
        options={"advanced": True},
        row=[(4, {"gold": 2}), (2, {}), (3, {}), (1, {})],
        bag_top=["silver"] * 3,
        hands={0: cards_of("amulet")[:1]},
    )
    play(state2, 0, "knight3", 0)
    play(state2, 1, "thief", 0)
    play(state2, 2, "wizard", 0)
    KIND.apply(state2, 0, {"type": "propose", "shares": {"0": {"gold": 2, "silver": 3}}})
    KIND.apply(state2, 1, {"type": "accept", "proposal": 1})
    KIND.apply(state2, 2, {"type": "accept", "proposal": 1})
    events = KIND.apply(state2, 1, {"type": "steal", "from": 0})
    assert events[0]["blocked"] and state2.hoards[0]["gold"] == 2
    assert state2.hands[0] == [] and state2.discard == cards_of("amulet")[:1]


def test_nobody_to_rob_skips_the_thief():
    state = position(row=[(4, {"gold": 1}), (2, {}), (3, {}), (1, {})], bag_top=["silver"] * 3)
    play(state, 0, "knight4", 0)
    play(state, 1, "thief", 0)  # 6: seats 0 and 1
    KIND.apply(state, 0, {"type": "propose", "shares": {"1": {"gold": 1, "silver": 3}}})
    events = KIND.apply(state, 1, {"type": "accept", "proposal": 1})
    assert {"type": "theft_skipped", "seat": 1} in events and state.phase == "fight"


# --- the variant without negotiation ----------------------------------------------------------


def test_division_lowest_contribution_divides_highest_picks_first_ties_by_stack_order():
    state = position(
        options={"negotiation": "division"},
        row=[(15, {"gold": 3}), (2, {}), (3, {}), (1, {})],
        bag_top=["silver"] * 7,
    )
    play(state, 0, "thief", 0)  # seat 0: 2 (lowest: divides)
    play(state, 1, "knight3", 0)  # seat 1: 3 (attacked before seat 2)
    play(state, 2, "knight3", 0)  # seat 2: 3 -> 8 of 9
    state.current = 3
    play(state, 3, "wizard", 0)  # seat 3: 1 -> 9: slain; but seat 3 has lowest now
    st = state.settle
    assert st.order == [1, 2, 0, 3] and KIND.to_act(state) == [3]
    assert KIND.timer(state) is None
    lots = [{"gold": 3}, {"silver": 3}, {"silver": 2}, {"silver": 2}]
    assert refused(state, 3, {"type": "divide", "lots": lots[:3]}, InvalidInput) == "dg_lot_count"
    assert refused(state, 3, {"type": "divide", "lots": [{"gold": 3}, {}, {}, {}]}) == (
        "dg_split_mismatch"
    )
    KIND.apply(state, 3, {"type": "divide", "lots": lots})
    assert KIND.to_act(state) == [1]
    KIND.apply(state, 1, {"type": "pick", "lot": 0})
    assert KIND.to_act(state) == [2]
    assert refused(state, 2, {"type": "pick", "lot": 0}) == "dg_lot_taken"
    KIND.apply(state, 2, {"type": "pick", "lot": 1})
    KIND.apply(state, 0, {"type": "pick", "lot": 3})
    assert state.hoards[1]["gold"] == 3 and state.hoards[2]["silver"] == 3
    assert state.hoards[0]["silver"] == 2 and state.hoards[3]["silver"] == 2  # last lot
    assert token_total(state) == 126


def test_division_with_equal_lowest_contributions_the_later_attacker_divides():
    state = position(
        options={"negotiation": "division"}, row=[(4, {"gold": 2}), (2, {}), (3, {}), (1, {})]
    )
    play(state, 0, "thief", 0)
    play(state, 1, "thief", 0)
    play(state, 2, "thief", 0)  # 6: all 2 each
    assert state.settle.order == [0, 1, 2] and KIND.to_act(state) == [2]


# --- the empty bag and the end ----------------------------------------------------------------


def test_with_the_bag_empty_slayers_split_evenly_leftovers_leave_and_no_dragon_comes_out():
    state = position(
        row=[(1, {"gold": 3, "silver": 2, "black": 1}), (2, {}), (3, {}), (4, {})], bag=0
    )
    play(state, 0, "knight3", 0)
    events = play(state, 1, "thief", 0)  # 5: slain, bag empty: even split
    shared = next(e for e in events if e["type"] == "treasure_shared")
    assert shared["outcome"] == "even" and shared["removed"]["gold"] == 1
    assert shared["removed"]["black"] == 1
    assert state.hoards[0]["gold"] == 1 and state.hoards[1]["silver"] == 1
    assert state.phase == "steal"  # the thief of seat 1 first, then the dragon leaves
    events = KIND.apply(state, 1, {"type": "steal", "from": 0})
    assert len(state.row) == 3 and "dragon_revealed" not in kinds_of(events)
    assert "dragon_left" in kinds_of(events) and token_total(state) == 126


def test_the_game_ends_when_the_last_dragon_on_the_table_is_slain():
    state = position(row=[(1, {"gold": 1})], bag=0, deck=[])
    play(state, 0, "knight4", 0)
    events = play(state, 1, "knight3", 0)
    assert state.phase == "over" and events[-1]["type"] == "game_over"
    assert KIND.is_over(state) and KIND.to_act(state) == [] and KIND.timer(state) is None
    view = KIND.view(state, None)
    assert all(p["hoard"] is not None for p in view["players"]) and view["scores"] is not None
    assert refused(state, 0, {"type": "play", "hunter": "wizard", "dragon": 0}) == "game_over"


# --- the market -------------------------------------------------------------------------------


def market_position(revealed=10):
    """Seat 0 slays dragon 1 alone; its refill is the 11th dragon in all: the market opens."""
    state = position(
        row=[(1, {}), (2, {}), (3, {}), (4, {})],
        stacks={0: [(0, "knight4")]},
        hoards={0: {"gold": 2}, 1: {"blue": 2}, 2: {"silver": 1}},
        revealed=revealed,
    )
    events = play(state, 0, "thief", 0)
    assert ("market_opened" in kinds_of(events)) == (revealed == 10)
    return state


def test_the_market_card_comes_up_with_the_eleventh_dragon_in_all():
    """Seed: the 4 starting dragons are revealed, then the market card goes between the 7th and
    8th card of the deck (由卡牌堆上方算起第7張與第8張的卡牌間): it comes up when the 7th of
    those is revealed, the 11th dragon in all, not before."""
    for revealed in (6, 9):
        state = market_position(revealed)
        assert state.phase == "fight" and state.market_card == "deck"
    state = market_position(10)
    assert state.revealed == 11 and state.phase == "market" and state.market_card == "open"


def _market_watch(state):
    """An ``on_action`` hook checking that the market opens with the 11th dragon revealed."""
    revealed: list[int] = []

    def watch(seat, action, events):
        revealed.extend(1 for e in events if e["type"] == "dragon_revealed")
        if "market_opened" in kinds_of(events):
            assert len(revealed) == 7 and state.revealed == 11  # the 7th of the deck's 14
        elif state.market_card == "deck":
            assert state.revealed < 11

    return watch


def test_in_whole_games_the_market_opens_right_after_the_eleventh_dragon():
    for seed in range(6):
        state = KIND.new_state(seed, 3 + seed % 4)
        assert state.revealed == 4 and len(state.deck) == 14
        play_bots(
            KIND,
            state,
            ["greedy"] * state.seats,
            random.Random(seed),
            on_action=_market_watch(state),
        )
        assert state.market_card == ("gone" if state.revealed >= 11 else "deck")


def test_the_market_opens_after_the_eleventh_dragon_and_trades_need_both_players():
    state = market_position()
    assert state.phase == "market" and KIND.to_act(state) == [0, 1, 2, 3]
    assert KIND.timer(state).seconds == 60
    offer = {"type": "offer", "to": 1, "give": {"gold": 1}, "get": {"blue": 1}}
    KIND.apply(state, 0, offer)
    assert refused(state, 2, {"type": "accept", "offer": 1}) == "dg_not_your_offer"
    assert refused(state, 0, {**offer, "give": {"gold": 9}}) == "dg_tokens_not_held"
    assert refused(state, 0, {**offer, "to": 0}) == "dg_bad_trade_partner"
    assert refused(state, 0, {**offer, "give": {}, "get": {}}, InvalidInput) == "dg_empty_offer"
    assert KIND.view(state, 3)["market"]["offers"][0]["from"] == 0  # offers are public
    KIND.apply(state, 1, {"type": "accept", "offer": 1})
    assert state.hoards[1]["gold"] == 1 and state.hoards[0]["blue"] == 1
    KIND.apply(state, 2, {"type": "show"})
    assert KIND.view(state, 3)["market"]["shown"][0]["hoard"]["silver"] == 1
    events = KIND.apply(state, SYSTEM, TIMEOUT)
    assert "market_closed" in kinds_of(events) and state.market_card == "gone"
    assert state.phase == "fight" and KIND.to_act(state) == [1]  # left of the slayer
    assert KIND.view(state, 3)["players"][2]["hoard"] is None


def test_the_market_closes_early_when_every_player_is_done():
    state = market_position()
    for s in range(3):
        KIND.apply(state, s, {"type": "done"})
    assert state.phase == "market" and KIND.to_act(state) == [3]
    KIND.apply(state, 3, {"type": "done"})
    assert state.phase == "fight" and state.market is None


def test_an_offer_its_maker_can_no_longer_honour_is_void():
    state = market_position()
    KIND.apply(state, 0, {"type": "offer", "to": 1, "give": {"gold": 2}, "get": {}})
    KIND.apply(state, 2, {"type": "offer", "to": 0, "give": {"silver": 1}, "get": {"gold": 1}})
    events = KIND.apply(state, 0, {"type": "accept", "offer": 2})
    assert {"type": "offer_void", "id": 1, "seat": 0} in events
    assert state.market.offers == []


# --- magic items (advanced) ----------------------------------------------------------------------


def advanced(**kw):
    return position(options={"advanced": True}, **kw)


def test_a_sword_adds_2_to_the_hunter_it_is_played_with():
    sword = cards_of("sword")[0]
    state = advanced(hands={0: [sword]}, row=[(4, {}), (2, {}), (3, {}), (1, {})])
    play(state, 0, "knight4", 0, card=sword)  # 6 of 6: slain alone
    assert state.stats["sole"] == 1 and state.discard == [sword]
    assert (
        refused(
            advanced(hands={0: [sword]}),
            0,
            {"type": "play", "hunter": "thief", "dragon": 0, "card": 99},
        )
        == "dg_card_not_in_hand"
    )


def test_crystal_ball_wind_horn_and_map():
    ball, wind, horn, map_ = (cards_of(i)[0] for i in ("crystal_ball", "wind", "horn", "map"))
    state = advanced(
        hands={0: [ball, wind, horn, map_]},
        hoards={2: {"gold": 3}},
        stacks={0: [(0, "knight4")], 1: [(1, "knight3")]},
        row=[(16, {"gold": 1}), (1, {"silver": 1}), (3, {}), (4, {})],
        bag_top=["white"],
    )
    KIND.apply(state, 0, {"type": "use", "card": ball, "seat": 2})
    assert KIND.view(state, 0)["notes"][-1]["hoard"]["gold"] == 3 and KIND.to_act(state) == [0]
    # the swap would put dragon 1 (strength 5) over 4 attack: allowed; over 3 attack with 16: fine
    KIND.apply(state, 0, {"type": "use", "card": wind, "dragons": [0, 1]})
    assert [d.id for d in state.row[:2]] == [1, 16]
    assert state.row[0].treasure["silver"] == 1 and state.row[0].stack[0]["seat"] == 0
    KIND.apply(state, 0, {"type": "use", "card": horn, "hunter": "knight4"})
    assert state.hunters[0]["knight4"] == "up" and state.row[0].stack == []
    KIND.apply(state, 0, {"type": "use", "card": map_})
    assert state.hoards[0]["white"] == 1 and KIND.to_act(state) == [0]
    assert token_total(state) == 126


def test_wind_may_not_slay_a_dragon_at_once():
    wind = cards_of("wind")[0]
    state = advanced(
        hands={0: [wind]},
        stacks={0: [(1, "knight4"), (2, "thief")]},
        row=[(16, {}), (1, {}), (3, {}), (4, {})],
    )
    assert (
        refused(state, 0, {"type": "use", "card": wind, "dragons": [0, 1]}) == "dg_swap_would_slay"
    )
    assert {"type": "use", "card": wind, "dragons": [0, 1]} not in KIND.legal_actions(state, 0)
