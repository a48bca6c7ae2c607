"""Isla Dorada rules, one scenario each (``../shared/rules/isla_dorada.md``; Decisions in
``games/isla_dorada/engine.py``): setup, the auction and its special cards, moving, curses,
treasures, cable news, drawing with the lightning cards, the hand limit, the end and scoring."""

from __future__ import annotations

import json
import random

import pytest

from errors import IllegalAction, InvalidInput
from games.base import play_bots
from games.isla_dorada import KIND
from games.isla_dorada import scenario as S
from games.isla_dorada import tables as T
from games.isla_dorada.actions import MAX_BID
from games.isla_dorada.scoring import breakdown, mission_progress


def snap(state):
    return KIND.state_to_json(state)


def refused(state, seat, action, error=IllegalAction, reason=None):
    """``action`` is refused with ``error`` (and ``reason``) and changes nothing."""
    before = snap(state)
    with pytest.raises(error) as info:
        KIND.apply(state, seat, action)
    assert snap(state) == before
    if reason is not None:
        assert info.value.reason == reason, info.value.message
    return info.value


def treasures(*plays):
    """A treasure plays action: each play a treasure card and what goes with it."""
    return {"type": "treasures", "plays": list(plays)}


def bid(route=None, value=0, flight=None, **extra):
    """A spoken bid: a route (or a flight) and a number, with special cards face up."""
    out = {"type": "bid", "value": value, **extra}
    if flight is not None:
        out["flight"] = flight
    else:
        out["route"] = route
    return out


def everyone_passes_but(state, winner, paying=None):
    """Every other seat passes until the auction ends; the winner then pays with ``paying``
    (card ids), or the first way its legal actions list."""
    while state.phase == "bid":
        seat = KIND.to_act(state)[0]
        assert seat != winner or state.high != winner
        KIND.apply(state, seat, {"type": "pass"})
    if state.phase == "pay":
        assert KIND.to_act(state) == [winner]
        way = KIND.legal_actions(state, winner)[0]
        KIND.apply(state, winner, way if paying is None else {"type": "pay", "cards": paying})


def won_route(here: str, there: str, card: str, value: int):
    """A three-seat game in which seat 0, at ``here`` with one ``card``, has won the move along
    the route to ``there`` with a bid of ``value`` (everyone else passed)."""
    state = S.game(3)
    S.at(state, here)
    S.give(state, 0, card)
    KIND.apply(state, 0, bid(S.route(here, there), value))
    everyone_passes_but(state, 0)
    return state


def no_treasures(state):
    while state.phase == "treasure":
        KIND.apply(state, KIND.to_act(state)[0], treasures())


# --- setup -----------------------------------------------------------------------------------


def test_setup_deals_and_every_seat_chooses_at_once_in_secret():
    state = KIND.new_state(5, 4)
    assert state.phase == "setup" and KIND.to_act(state) == [0, 1, 2, 3]
    for s in range(4):
        offer = [T.GOAL_DECK[g] for g in state.offers[s]]
        assert sorted(offer) == ["destiny", "destiny", "start", "start", "start"]
        assert len(state.curses[s]) == 1 and state.gold[s] == 10
        assert len(state.hands[s]) == 6 and not any(T.ADV_LIGHTNING[c] for c in state.hands[s])
    assert len(state.display) == 4 and state.location == T.CRASH and state.leader == 0
    view1 = KIND.view(state, 1)
    assert view1["players"][0]["hand"] is None and view1["mine"]["offer"]
    legal = KIND.legal_actions(state, 2)
    assert len(legal) == 6
    choice = legal[3]
    drop_t = T.CARD_INDEX[choice["discard_treasure"]][1]
    drop_d = T.CARD_INDEX[choice["discard_destiny"]][1]
    KIND.apply(state, 2, choice)
    assert KIND.to_act(state) == [0, 1, 3] and state.phase == "setup"
    assert drop_t in state.out and state.ddeck[0] == drop_d  # under the destiny deck
    assert len(state.treasures[2]) == 2 and state.destiny[2] >= 0
    # others see that seat 2 chose, not what
    spectator = KIND.view(state, None)
    assert spectator["players"][2]["chosen"] and spectator["players"][2]["treasures"] is None
    refused(state, 2, choice, reason="not_your_turn")
    for s in (0, 1, 3):
        KIND.apply(state, s, KIND.legal_actions(state, s)[0])
    assert state.phase == "bid" and state.round == 1 and KIND.to_act(state) == [0]


def test_setup_refuses_a_card_not_dealt():
    state = KIND.new_state(5, 3)
    other = T.GOAL_ID[state.offers[1][0]]
    legal = KIND.legal_actions(state, 0)[0]
    refused(state, 0, {**legal, "discard_treasure": other}, reason="isla_setup_card")
    refused(state, 0, {**legal, "extra": 1}, InvalidInput)


# --- the auction -----------------------------------------------------------------------------


def test_the_leader_always_opens_zero_is_a_bid_and_the_expedition_moves():
    """Seed: the leader starts (擁有隊長令牌的玩家開始競投) and its first bid may be 0
    (隊長的第一個出價可以是 0): there is no pass for the opening, so every round has a winner."""
    state = S.game(3)
    r = S.route("crash_site", "moon_temple")
    legal = KIND.legal_actions(state, 0)
    assert {"type": "pass"} not in legal and bid(r, 0) in legal
    refused(state, 0, {"type": "pass"}, reason="isla_open_the_auction")
    KIND.apply(state, 0, bid(r, 0))
    assert state.high == 0 and state.bids[0]["value"] == 0
    refused(state, 1, bid(r, 0), reason="isla_bid_too_low")
    assert {"type": "pass"} in KIND.legal_actions(state, 1)
    everyone_passes_but(state, 0)  # a bid of 0 is paid with nothing: no payment step
    assert state.leader == 0 and state.location == T.LOC_INDEX["moon_temple"]
    assert state.phase == "treasure"


def test_bids_are_spoken_numbers_and_only_the_winner_plays_its_cards():
    """Seed: a bid puts the expedition on a route and says a number higher than the current
    bid (說出一個比現時出價為高的數目); the winner plays the adventure cards of its bid
    (打出競投的探險卡). Nothing shows the cards behind a bid: not the views, not the events,
    not another seat's legal actions; a losing bidder keeps its cards unseen."""
    state = S.game(3)
    jungle, desert = S.route("crash_site", "moon_temple"), S.route("crash_site", "red_mesa")
    gonogos = S.give(state, 1, "gonogo", "gonogo")
    kamels = S.give(state, 2, "kamel", "kamel", "kamel", "yak")
    hands = {1: set(gonogos), 2: set(kamels)}
    events = KIND.apply(state, 0, bid(jungle, 0))
    events += KIND.apply(state, 1, bid(jungle, 2))
    events += KIND.apply(state, 2, bid(desert, 3))
    shown = KIND.view(state, 0)["players"]
    assert shown[1]["bid"] == {"to": "moon_temple", "route": jungle, "flight": False, "value": 2}
    assert shown[2]["bid"]["value"] == 3 and shown[2]["hand_size"] == 4
    for seat in (None, 0, 1, 2):
        view = json.dumps([KIND.view(state, seat), KIND.legal_actions(state, seat or 0)])
        for owner, ids in hands.items():
            if seat != owner:
                assert not any(f'"{c}"' in view for c in ids), (seat, owner)
    events += KIND.apply(state, 0, {"type": "pass"})
    events += KIND.apply(state, 1, {"type": "pass"})
    assert state.phase == "pay" and KIND.to_act(state) == [2] and state.leader == 2
    assert KIND.view(state, 1)["pay"] == {"seat": 2, "bid": shown[2]["bid"]}
    assert KIND.legal_actions(state, 2) == [
        {"type": "pay", "cards": sorted(kamels[:3], key=S.number)}
    ]
    assert not any(f'"{c}"' in json.dumps(events) for c in gonogos + kamels)
    paid = KIND.apply(state, 2, {"type": "pay", "cards": kamels[:3]})
    assert {
        "type": "paid",
        "seat": 2,
        "cards": [T.adv_json(T.CARD_INDEX[c][1]) for c in kamels[:3]],
        "gold": 0,
    } in paid
    assert state.location == T.LOC_INDEX["red_mesa"]
    assert sorted(T.ADV_ID[c] for c in state.hands[1]) == sorted(gonogos)  # never shown
    assert [T.ADV_ID[c] for c in state.hands[2]] == kamels[3:]
    assert all(T.CARD_INDEX[c][1] in state.discard for c in kamels[:3])


def test_a_number_may_be_bid_only_if_the_hand_can_pay_it_on_that_route():
    """Yak pays mountain, Kamel desert, Gonogo jungle, each 1; Kayak any water, 2; Drako (2)
    and Zeppelin (5) anything, for 1 and 3 gold."""
    state = S.game(3)
    jungle, lake = S.route("crash_site", "moon_temple"), S.route("crash_site", "heron_isle")
    S.give(state, 1, "kamel", "kayak")
    KIND.apply(state, 0, bid(jungle, 0))
    info = refused(state, 1, bid(jungle, 1), reason="isla_cannot_pay")
    assert info.params == {"value": 1, "most": 0}
    refused(state, 1, bid(lake, 3), reason="isla_cannot_pay")
    assert KIND.view(state, 1)["mine"]["can_pay"][lake] == 2
    KIND.apply(state, 1, bid(lake, 2))
    S.give(state, 2, "drako", "drako", "zeppelin")
    state.gold[2] = 4  # two Drako (1 each) and a Zeppelin (3) cost 5: one of them is left out
    can = KIND.view(state, 2)["mine"]["can_pay"]
    assert can[jungle] == 7 and can["flight"] == 7
    refused(state, 2, bid(jungle, 8), reason="isla_cannot_pay")
    KIND.apply(state, 2, bid(jungle, 7))
    everyone_passes_but(state, 2)
    assert state.gold[2] == 0 and state.leader == 2  # Drako + Zeppelin: 4 gold
    assert sorted(T.ADV_KIND[c] for c in state.hands[2]) == ["drako"]
    assert state.gold[1] == 10 and len(state.hands[1]) == 2  # a losing bid costs nothing


def test_the_winner_pays_with_its_own_cards_for_the_route_each_of_them_needed():
    state = S.game(3)
    water = S.route("crash_site", "heron_isle")
    kayaks = S.give(state, 0, "kayak", "kayak")
    drako = S.give(state, 0, "drako")
    yak = S.give(state, 0, "yak")
    other = S.give(state, 1, "kayak")
    KIND.apply(state, 0, bid(water, 3))
    KIND.apply(state, 1, {"type": "pass"})
    KIND.apply(state, 2, {"type": "pass"})
    assert state.phase == "pay"
    ways = KIND.legal_actions(state, 0)
    assert ways == [
        {"type": "pay", "cards": kayaks},
        {"type": "pay", "cards": kayaks[:1] + drako},
    ]

    def paying(cards):
        return {"type": "pay", "cards": cards}

    refused(state, 0, paying(other + kayaks[:1]), reason="isla_not_your_card")
    refused(state, 0, paying(yak + kayaks), reason="isla_card_not_for_route")
    refused(state, 0, paying(kayaks[:1]), reason="isla_pay_short")
    refused(state, 0, paying(kayaks + drako), reason="isla_pay_too_much")
    refused(state, 0, paying(kayaks + kayaks[:1]), InvalidInput, "isla_card_twice")
    state.gold[0] = 0
    refused(state, 0, paying(kayaks[:1] + drako), reason="isla_not_enough_gold")
    state.gold[0] = 10
    KIND.apply(state, 0, paying(kayaks[:1] + drako))
    assert state.gold[0] == 9 and state.location == T.LOC_INDEX["heron_isle"]


def test_raise_pass_and_come_back_in():
    state = S.game(3)
    S.give(state, 0, "gonogo", "gonogo", "gonogo")
    S.give(state, 1, "gonogo", "gonogo")
    y2 = S.give(state, 2, "kamel", "kamel", "kamel", "kamel")
    jungle, desert = S.route("crash_site", "moon_temple"), S.route("crash_site", "red_mesa")
    KIND.apply(state, 0, bid(jungle, 1))
    KIND.apply(state, 1, bid(jungle, 2))
    KIND.apply(state, 2, {"type": "pass"})
    assert KIND.view(state, None)["players"][2]["passed"]
    KIND.apply(state, 0, bid(jungle, 3))  # a raise
    assert state.bids[0]["value"] == 3 and len(state.hands[0]) == 3
    KIND.apply(state, 1, {"type": "pass"})
    KIND.apply(state, 2, bid(desert, 4))  # came back in
    assert state.high == 2 and not any(state.passed)
    KIND.apply(state, 0, {"type": "pass"})
    KIND.apply(state, 1, {"type": "pass"})
    KIND.apply(state, 2, {"type": "pay", "cards": y2})
    assert state.leader == 2 and state.location == T.LOC_INDEX["red_mesa"]
    assert len(state.hands[0]) == 3 and len(state.hands[1]) == 2


def test_a_river_cannot_be_bid_upstream_and_blocked_routes_cannot_be_bid():
    state = S.game(3)
    S.at(state, "golden_falls")
    S.give(state, 0, "kayak", "gonogo")
    refused(state, 0, bid(S.route("snow_pass", "golden_falls"), 0), reason="isla_route_not_here")
    state.leviathan = T.ROUTE_INDEX[S.route("golden_falls", "vine_bridge")]
    refused(state, 0, bid(S.route("golden_falls", "vine_bridge"), 0), reason="isla_route_blocked")
    view = KIND.view(state, 0)
    assert S.route("golden_falls", "vine_bridge") not in view["auction"]["open_routes"]
    assert S.route("golden_falls", "vine_bridge") not in view["mine"]["can_pay"]
    state.bigfoot = T.ROUTE_INDEX[S.route("golden_falls", "bat_caves")]
    refused(state, 0, bid(S.route("golden_falls", "bat_caves"), 1), reason="isla_route_blocked")


def test_flights_take_drako_and_zeppelin_only_to_any_location_and_cost_gold():
    state = S.game(3)
    S.give(state, 0, "yak")
    refused(state, 0, bid(flight="seal_rocks", value=1), reason="isla_cannot_pay")
    refused(state, 0, bid(flight="crash_site", value=0), reason="isla_flight_here")
    refused(state, 0, bid(flight="seal_rocks", value=0), reason="isla_bid_too_low")
    zep = S.give(state, 0, "zeppelin")
    KIND.apply(state, 0, bid(flight="seal_rocks", value=5))
    KIND.apply(state, 1, {"type": "pass"})
    KIND.apply(state, 2, {"type": "pass"})
    yak = S.ids(state, 0, "yak")
    refused(state, 0, {"type": "pay", "cards": yak + zep}, reason="isla_flight_cards")
    KIND.apply(state, 0, {"type": "pay", "cards": zep})
    assert state.location == T.LOC_INDEX["seal_rocks"] and state.gold[0] == 7 and state.flights == 1
    state2 = S.game(3)
    state2.gold[0] = 2
    S.give(state2, 0, "zeppelin")
    refused(state2, 0, bid(flight="seal_rocks", value=1), reason="isla_cannot_pay")


def test_ovetos_with_four_or_more_ends_the_auction_at_once_face_up():
    state = S.game(3)
    jungle = S.route("crash_site", "moon_temple")
    g = S.give(state, 1, "gonogo", "gonogo", "gonogo", "gonogo")
    ov = S.give(state, 1, "ovetos")[0]
    KIND.apply(state, 0, bid(jungle, 0))
    refused(state, 1, bid(jungle, 3, ovetos=ov), reason="isla_ovetos_low")
    events = KIND.apply(state, 1, bid(jungle, 4, ovetos=ov))
    assert events[0]["bid"]["ovetos"]["id"] == ov  # face up
    assert state.leader == 1 and state.phase == "pay"
    assert T.CARD_INDEX[ov][1] in state.discard
    KIND.apply(state, 1, {"type": "pay", "cards": g})
    assert state.location == T.LOC_INDEX["moon_temple"]


def test_juju_bars_a_seat_for_the_round_and_its_bid_is_dropped():
    state = S.game(4)
    jungle = S.route("crash_site", "moon_temple")
    S.give(state, 1, "gonogo", "gonogo")
    juju = S.give(state, 2, "juju", "juju")
    KIND.apply(state, 0, bid(jungle, 0))
    KIND.apply(state, 1, bid(jungle, 2))
    events = KIND.apply(state, 2, {"type": "juju", "card": juju[0], "target": 1})
    assert events[0]["card"]["id"] == juju[0]  # face up
    assert state.barred[1] and state.bids[1] is None and state.high == 0  # back to seat 0's bid
    assert len(state.hands[1]) == 2 and KIND.to_act(state) == [2]  # the turn stays
    refused(state, 2, {"type": "juju", "card": juju[1], "target": 3}, reason="isla_one_juju")
    KIND.apply(state, 2, {"type": "pass"})
    KIND.apply(state, 3, {"type": "pass"})
    assert state.phase != "bid" and state.leader == 0  # seat 1 was skipped


def test_a_juju_that_bars_the_only_bidder_leaves_its_player_to_open():
    state = S.game(3)
    jungle = S.route("crash_site", "moon_temple")
    juju = S.give(state, 1, "juju")
    KIND.apply(state, 0, bid(jungle, 0))
    KIND.apply(state, 1, {"type": "juju", "card": juju[0], "target": 0})
    assert state.high == -1 and KIND.to_act(state) == [1]
    assert {"type": "pass"} not in KIND.legal_actions(state, 1)
    refused(state, 1, {"type": "pass"}, reason="isla_open_the_auction")
    KIND.apply(state, 1, bid(jungle, 0))
    KIND.apply(state, 2, {"type": "pass"})
    assert state.leader == 1 and state.location == T.LOC_INDEX["moon_temple"]


def test_juju_cannot_bar_oneself():
    state = S.game(3)
    juju = S.give(state, 0, "juju")
    refused(state, 0, {"type": "juju", "card": juju[0], "target": 0}, reason="isla_juju_target")


def test_shaman_converts_every_card_of_one_kind_for_a_land_route():
    state = S.game(3)
    kamels = S.give(state, 0, "kamel", "kamel")
    shaman = S.give(state, 0, "shaman")[0]
    jungle = S.route("crash_site", "moon_temple")
    refused(state, 0, bid(jungle, 2), reason="isla_cannot_pay")
    conv = {"card": shaman, "from": "kamel", "to": "gonogo"}
    events = KIND.apply(state, 0, bid(jungle, 2, shaman=conv))
    assert events[0]["bid"]["shaman"]["card"]["id"] == shaman  # face up
    assert state.bids[0]["value"] == 2 and T.CARD_INDEX[shaman][1] not in state.hands[0]
    everyone_passes_but(state, 0, paying=kamels)
    assert state.location == T.LOC_INDEX["moon_temple"]
    assert {T.CARD_INDEX[c][1] for c in [*kamels, shaman]} <= set(state.discard)
    state2 = S.game(3)
    S.give(state2, 0, "kayak")
    sh2 = S.give(state2, 0, "shaman")[0]
    refused(
        state2,
        0,
        bid(
            S.route("crash_site", "heron_isle"),
            0,
            shaman={"card": sh2, "from": "kamel", "to": "yak"},
        ),
        reason="isla_shaman_kinds",
    )
    refused(
        state2,
        0,
        bid(jungle, 0, shaman={"card": sh2, "from": "kamel", "to": "gonogo"}),
        reason="isla_shaman_kinds",
    )  # no Kamel card to convert


def test_bid_refusals_name_the_field_and_change_nothing():
    state = S.game(3)
    ov = S.give(state, 1, "ovetos")
    r = S.route("crash_site", "moon_temple")
    refused(state, 0, bid(r, 0, ovetos=ov[0]), reason="isla_not_your_card")
    refused(state, 0, bid("r999"), InvalidInput, "isla_no_such_route")
    refused(state, 0, {"type": "bid", "value": 0}, InvalidInput, "isla_bid_target")
    refused(state, 0, {"type": "bid", "route": r}, InvalidInput, "missing_field")
    refused(state, 0, {"type": "bid", "route": r, "value": True}, InvalidInput, "not_an_integer")
    refused(state, 0, {"type": "bid", "route": r, "value": -1}, InvalidInput, "number_too_small")
    too_much = {"type": "bid", "route": r, "value": MAX_BID + 1}
    info = refused(state, 0, too_much, InvalidInput, "number_too_large")
    assert (info.field, info.params) == ("action.value", {"name": "value", "limit": MAX_BID})
    refused(
        state,
        0,
        {"type": "bid", "route": r, "value": 0, "cards": []},
        InvalidInput,
        "unknown_field",
    )
    refused(state, 0, {"type": "fly"}, InvalidInput, "unknown_action")
    refused(state, 0, {"type": "take", "deck": True}, reason="action_not_now")
    refused(state, 0, {"type": "pay", "cards": []}, reason="action_not_now")
    s2 = S.give(state, 0, "ovetos", "sangaia")
    refused(state, 0, bid(r, 0, ovetos=s2[1]), reason="isla_wrong_card")


def test_every_round_has_a_winner_and_the_expedition_moves_every_round():
    for seed, bots in ((1, ["random"] * 4), (2, ["planner", "random", "random"])):
        state = KIND.new_state(seed, len(bots))
        play_bots(KIND, state, bots, random.Random(seed))
        assert state.end == "markers" and state.round >= 16
        for record in state.history:
            assert len(record["path"]) >= 2 and record["path"][0] != record["path"][-1]


# --- moving ----------------------------------------------------------------------------------


def test_a_river_carries_on_downstream_and_only_the_last_stop_is_explored():
    state = won_route("snow_pass", "golden_falls", "kayak", 2)
    assert state.phase == "move" and KIND.legal_actions(state, 0) == [
        {"type": "continue"},
        {"type": "stop"},
    ]
    KIND.apply(state, 0, {"type": "continue"})
    assert state.location == T.LOC_INDEX["vine_bridge"] and state.phase == "move"
    KIND.apply(state, 0, {"type": "continue"})
    KIND.apply(state, 0, {"type": "stop"})
    assert state.location == T.LOC_INDEX["lost_city"] and state.river_steps == 3
    assert state.explored[T.LOC_INDEX["lost_city"]] == 1
    assert (
        state.explored[T.LOC_INDEX["golden_falls"]]
        == state.explored[T.LOC_INDEX["vine_bridge"]]
        == 0
    )
    assert state.markers_left == 15 and state.phase == "treasure"


def test_a_river_ends_at_its_mouth_on_the_sea():
    state = won_route("lost_city", "coral_reef", "kayak", 2)
    assert state.location == T.LOC_INDEX["coral_reef"] and state.phase == "treasure"  # no choice


def _sangaia_case(count: int):
    """A land route (a, b) from which ``count`` other routes of its type go on."""
    for r in T.LAND_ROUTES:
        for here, there in ((T.ROUTE_A[r], T.ROUTE_B[r]), (T.ROUTE_B[r], T.ROUTE_A[r])):
            on = [x for x, _ in T.EXITS[there] if x != r and T.ROUTE_TYPE[x] == T.ROUTE_TYPE[r]]
            if len(on) == count and here != T.CRASH and there != T.CRASH:
                return r, here, there, on
    raise AssertionError("no such route on the map")


def _sangaia_won(count: int):
    """Seat 0 wins a move with Sangaia along a land route from which ``count`` routes of its type
    go on (``_sangaia_case``); the state, the route's end and the routes on."""
    state = S.game(3)
    r, here, there, on = _sangaia_case(count)
    S.at(state, T.LOC_IDS[here])
    S.give(state, 0, T.KIND_FOR_LAND[T.ROUTE_TYPE[r]])
    KIND.apply(state, 0, bid(T.ROUTE_IDS[r], 1, sangaia=S.give(state, 0, "sangaia")[0]))
    everyone_passes_but(state, 0)
    return state, there, on


def test_sangaia_skips_the_destination_and_the_leader_chooses_the_route_on():
    state = S.game(3)
    r, here, there, on = _sangaia_case(2)
    S.at(state, T.LOC_IDS[here])
    kind = T.KIND_FOR_LAND[T.ROUTE_TYPE[r]]
    S.give(state, 0, kind)
    sangaia = S.give(state, 0, "sangaia")[0]
    KIND.apply(state, 0, bid(T.ROUTE_IDS[r], 1, sangaia=sangaia))
    everyone_passes_but(state, 0)
    assert state.phase == "move" and KIND.view(state, 1)["move"]["kind"] == "detour"
    assert {a["route"] for a in KIND.legal_actions(state, 0)} == {T.ROUTE_IDS[x] for x in on}
    refused(state, 0, {"type": "detour", "route": T.ROUTE_IDS[r]}, reason="isla_detour_route")
    KIND.apply(state, 0, {"type": "detour", "route": T.ROUTE_IDS[on[1]]})
    dest = dict(T.EXITS[there])[on[1]]
    assert state.location == dest and state.explored[there] == 0 and state.explored[dest] == 1


def test_sangaia_with_one_way_on_goes_at_once_and_with_none_stops():
    state, there, on = _sangaia_won(1)
    assert state.location == dict(T.EXITS[there])[on[0]]
    state, there, _ = _sangaia_won(0)
    assert state.location == there


def test_sangaia_on_a_flight_goes_on_to_any_neighbour_of_the_destination():
    """Seed: when flying, Sangaia skips the destination for one of the places next to it
    (到相鄰的其中一個地點), whatever a river's direction between them: the expedition flies on,
    so no river leg follows and the river is not travelled."""
    state = S.game(3)
    S.give(state, 0, "drako")
    falls = T.LOC_INDEX["golden_falls"]
    upstream = T.LOC_INDEX["snow_pass"]  # the river flows from snow pass to golden falls
    assert upstream not in {d for _, d in T.EXITS[falls]}
    KIND.apply(
        state, 0, bid(flight="golden_falls", value=2, sangaia=S.give(state, 0, "sangaia")[0])
    )
    everyone_passes_but(state, 0)
    options = {a["route"] for a in KIND.legal_actions(state, 0)}
    assert options == {T.ROUTE_IDS[r] for r, _ in T.LINKS[falls]}
    assert S.route("snow_pass", "golden_falls") in options
    KIND.apply(state, 0, {"type": "detour", "route": S.route("snow_pass", "golden_falls")})
    assert state.location == upstream and state.phase == "treasure"
    assert state.river_steps == 0 and state.explored[falls] == 0 and state.explored[upstream] == 1


def test_a_return_to_the_crash_site_places_no_marker():
    state = won_route("red_mesa", "crash_site", "kamel", 1)
    assert state.location == T.CRASH and state.markers_left == 16 and state.phase == "draw"


# --- curses and treasures --------------------------------------------------------------------


def _go(state, dest, seat=0):
    """Seat ``seat`` wins a free move from the crash site to ``dest`` (a neighbour)."""
    assert state.leader == seat
    KIND.apply(state, seat, bid(S.route("crash_site", dest)))
    everyone_passes_but(state, seat)


def test_curses_for_the_place_are_played_at_once():
    state = S.game(3)
    S.clear_goals(state)
    curse = S.goal(state, 1, "curse", "moon_temple")
    _go(state, "moon_temple")
    g = T.CARD_INDEX[curse][1]
    assert state.played_curses[1] == [g] and state.curses[1] == []
    assert breakdown(state, 1)["curses"] == T.GOAL_POINTS[g]


def test_treasures_are_chosen_by_all_at_once_revealed_together_with_bonus_cards():
    state = S.game(3)
    S.clear_goals(state)
    t = S.goal(state, 1, "treasure", "moon_temple")
    family = T.LOC_FAMILY[T.LOC_INDEX["moon_temple"]]
    b = S.bonus(state, 1, family)
    wrong = S.bonus(state, 1, next(f for f in T.FAMILIES if f != family))
    _go(state, "moon_temple")
    assert state.phase == "treasure" and KIND.to_act(state) == [0, 1, 2]
    assert treasures({"card": t, "bonus": b}) in KIND.legal_actions(state, 1)
    refused(state, 1, treasures({"card": t, "bonus": wrong}), reason="isla_bonus_family")
    KIND.apply(state, 1, treasures({"card": t, "bonus": b}))
    assert KIND.to_act(state) == [0, 2]
    for seat in (None, 0, 2):  # hidden until every seat has chosen
        view = KIND.view(state, seat)
        assert view["players"][1]["played"]["treasures"] == [] and view["players"][1]["chosen"]
        assert t not in str(view)
    assert KIND.view(state, 1)["mine"]["plays"][0]["card"]["id"] == t
    no_treasures(state)
    played = KIND.view(state, 2)["players"][1]["played"]["treasures"]
    assert played[0]["card"]["id"] == t and played[0]["bonus"]["id"] == b
    row = breakdown(state, 1)
    assert row["treasures"] == T.GOAL_POINTS[T.CARD_INDEX[t][1]]
    assert row["bonuses"] == T.ADV_POINTS[T.CARD_INDEX[b][1]]


def _others_see(state, seat):
    """What every seat but ``seat`` and the spectator see, less who has acted (``chosen``,
    ``to_act``, the action count and the last action's public events)."""
    out = []
    for viewer in [None, *(s for s in range(state.seats) if s != seat)]:
        view = KIND.view(state, viewer)
        for key in ("to_act", "actions", "last_events"):
            view.pop(key)
        for p in view["players"]:
            p.pop("chosen")
        out.append(view)
    return out


def test_nothing_of_a_treasure_choice_shows_before_all_are_revealed():
    """Everyone chooses at once; until the last choice, the others see nothing of a seat's:
    not its cards, not how many goal cards or adventure cards it holds (a bonus, a Bongo)."""
    state = S.game(3)
    S.clear_goals(state)
    t = S.goal(state, 1, "treasure", "moon_temple")
    near = S.goal(state, 1, "treasure", "fern_hollow")
    b = S.bonus(state, 1, T.LOC_FAMILY[T.LOC_INDEX["moon_temple"]])
    bongo = S.give(state, 1, "bongo")[0]
    _go(state, "moon_temple")
    before = _others_see(state, 1)
    plays = [{"card": t, "bonus": b}, {"card": near, "bongo": bongo}]
    events = KIND.apply(state, 1, {"type": "treasures", "plays": plays})
    assert events == [{"type": "chosen", "seat": 1, "phase": "treasure"}]
    assert _others_see(state, 1) == before
    mine = KIND.view(state, 1)
    assert [p["card"]["id"] for p in mine["mine"]["plays"]] == [t, near]
    assert mine["players"][1]["hand_size"] == len(state.hands[1]) == 2
    no_treasures(state)
    after = KIND.view(state, 0)["players"][1]
    assert [p["card"]["id"] for p in after["played"]["treasures"]] == [t, near]
    assert (
        after["hand_size"] == 0 and after["goal_cards"] == before[1]["players"][1]["goal_cards"] - 2
    )


def test_bongo_plays_a_treasure_of_a_neighbouring_location():
    state = S.game(3)
    S.clear_goals(state)
    near = S.goal(state, 2, "treasure", "fern_hollow")  # fern hollow is next to moon temple
    far = S.goal(state, 2, "treasure", "seal_rocks")
    _go(state, "moon_temple")
    refused(state, 2, treasures({"card": near}), reason="isla_treasure_not_here")
    bongo = S.give(state, 2, "bongo")[0]
    refused(state, 2, treasures({"card": far, "bongo": bongo}), reason="isla_treasure_not_here")
    KIND.apply(state, 2, treasures({"card": near, "bongo": bongo}))
    no_treasures(state)
    assert [g for g, _, _ in state.played_treasures[2]] == [T.CARD_INDEX[near][1]]
    assert T.CARD_INDEX[bongo][1] in state.discard


# --- cable news ------------------------------------------------------------------------------


@pytest.mark.parametrize(("marker", "drawn", "kept"), [(4, 2, 1), (9, 3, 2)])
def test_cable_news_with_the_red_markers(marker, drawn, kept):
    state = S.game(3)
    state.markers_left = 16 - (marker - 1)
    _go(state, "moon_temple")
    no_treasures(state)
    assert state.phase == "news" and KIND.to_act(state) == [0, 1, 2]
    for s in range(3):
        assert len(state.offers[s]) == drawn
        assert len(KIND.legal_actions(state, s)) == {2: 2, 3: 3}[drawn]
    offer = [T.GOAL_ID[g] for g in state.offers[1]]
    refused(state, 1, {"type": "news", "keep": offer}, InvalidInput, "isla_keep_count")
    before = len(state.treasures[1])
    KIND.apply(state, 1, {"type": "news", "keep": offer[:kept]})
    assert len(state.treasures[1]) == before + kept
    assert all(T.CARD_INDEX[c][1] in state.out for c in offer[kept:])
    for s in (0, 2):
        KIND.apply(state, s, KIND.legal_actions(state, s)[0])
    assert state.phase == "draw"


def test_no_news_in_other_rounds():
    state = S.game(3)
    _go(state, "moon_temple")
    no_treasures(state)
    assert state.phase == "draw"


# --- drawing and lightning -------------------------------------------------------------------


def _to_draw(state):
    _go(state, "moon_temple")
    no_treasures(state)
    assert state.phase == "draw" and KIND.to_act(state) == [0]


def test_take_a_face_up_card_refill_buy_one_more_once():
    state = S.game(3)
    shown = S.show(state, "yak", "kamel", "kayak", "gonogo")
    top = S.stack(state, "drako", "kamel")
    _to_draw(state)
    KIND.apply(state, 0, {"type": "take", "card": shown[2]})
    assert T.CARD_INDEX[top[0]][1] in state.display and len(state.display) == 4
    assert state.draw_step == "buy"
    KIND.apply(state, 0, {"type": "buy", "deck": True})
    assert state.gold[0] == 9 and T.CARD_INDEX[top[1]][1] in state.hands[0]
    assert KIND.to_act(state) == [1] and state.draw_step == "take"
    KIND.apply(state, 1, {"type": "take", "deck": True})
    KIND.apply(state, 1, {"type": "done"})
    assert state.gold[1] == 10 and KIND.to_act(state) == [2]


def test_no_buy_without_gold():
    state = S.game(3)
    S.show(state, "yak", "kamel", "kayak", "gonogo")
    S.stack(state, "yak")
    _to_draw(state)
    state.gold[0] = 0
    KIND.apply(state, 0, {"type": "take", "deck": True})
    assert KIND.to_act(state) == [1] and state.draw_step == "take"


def test_the_deck_is_reshuffled_from_the_discards_when_empty():
    state = S.game(3)
    shown = S.show(state, "yak", "kamel", "kayak", "gonogo")
    _to_draw(state)
    state.discard.extend(state.deck)
    state.deck = []
    KIND.apply(state, 0, {"type": "take", "card": shown[0]})
    assert state.stats["reshuffles"] == 1 and len(state.display) == 4
    assert state.discard == [] and len(state.deck) > 50


def test_lightning_bigfoot_must_be_used_at_once_on_a_land_route():
    state = S.game(3)
    S.stack(state, "bigfoot")
    _to_draw(state)
    KIND.apply(state, 0, {"type": "take", "deck": True})
    assert state.phase == "lightning" and KIND.to_act(state) == [0]
    water = T.ROUTE_IDS[T.WATER_ROUTES[0]]
    refused(state, 0, {"type": "bigfoot", "route": water}, reason="isla_lightning_target")
    land = S.route("crash_site", "moon_temple")
    KIND.apply(state, 0, {"type": "bigfoot", "route": land})
    assert state.bigfoot == T.ROUTE_INDEX[land] and state.phase == "draw"
    assert KIND.view(state, None)["bigfoot"] == land
    assert not any(T.ADV_KIND[c] == "bigfoot" for c in state.hands[0])


def test_lightning_leviathan_goes_onto_a_water_route():
    state = S.game(3)
    S.stack(state, "leviathan")
    _to_draw(state)
    KIND.apply(state, 0, {"type": "take", "deck": True})
    refused(
        state,
        0,
        {"type": "leviathan", "route": S.route("crash_site", "moon_temple")},
        reason="isla_lightning_target",
    )
    sea = S.route("coral_reef", "lighthouse")
    KIND.apply(state, 0, {"type": "leviathan", "route": sea})
    assert state.leviathan == T.ROUTE_INDEX[sea]


def test_lightning_from_the_display_too():
    state = S.game(3)
    shown = S.show(state, "thief", "kamel", "kayak", "gonogo")
    S.give(state, 2, "yak", "yak")
    _to_draw(state)
    KIND.apply(state, 0, {"type": "take", "card": shown[0]})
    assert state.phase == "lightning"
    refused(state, 0, {"type": "thief", "target": 1}, reason="isla_lightning_target")  # no cards
    KIND.apply(state, 0, {"type": "thief", "target": 2})
    assert len(state.hands[0]) == 1 and len(state.hands[2]) == 1
    assert T.ADV_KIND[state.hands[0][0]] == "yak"


def test_a_lightning_cards_target_is_a_seat_number_never_a_boolean():
    """JSON ``true`` is no seat (it used to be taken for seat 1): refused as malformed, for the
    thief and for voodoo, changing nothing; so is it for Juju."""
    state = S.game(3)
    shown = S.show(state, "thief", "kamel", "kayak", "gonogo")
    S.give(state, 1, "yak", "yak")
    _to_draw(state)
    KIND.apply(state, 0, {"type": "take", "card": shown[0]})
    assert state.phase == "lightning" and {"type": "thief", "target": 1} in KIND.legal_actions(
        state, 0
    )
    for fake in (True, False):
        info = refused(state, 0, {"type": "thief", "target": fake}, InvalidInput, "not_an_integer")
        assert info.field == "action.target"
    state = S.game(3)
    S.stack(state, "voodoo")
    _to_draw(state)
    KIND.apply(state, 0, {"type": "take", "deck": True})
    refused(state, 0, {"type": "voodoo", "target": True}, InvalidInput, "not_an_integer")
    state = S.game(3)
    juju = S.give(state, 0, "juju")[0]
    refused(
        state, 0, {"type": "juju", "card": juju, "target": True}, InvalidInput, "not_an_integer"
    )


def test_lightning_voodoo_makes_another_seat_draw_a_curse():
    state = S.game(3)
    S.stack(state, "voodoo")
    _to_draw(state)
    KIND.apply(state, 0, {"type": "take", "deck": True})
    refused(state, 0, {"type": "voodoo", "target": 0}, reason="isla_lightning_target")
    before = len(state.curses[1])
    KIND.apply(state, 0, {"type": "voodoo", "target": 1})
    assert len(state.curses[1]) == before + 1
    assert KIND.view(state, 2)["players"][1]["curses"] is None  # which curse is secret


def test_lightning_map_draws_a_treasure_card_to_keep():
    state = S.game(3)
    S.stack(state, "map")
    _to_draw(state)
    before = len(state.treasures[0])
    KIND.apply(state, 0, {"type": "take", "deck": True})
    assert (
        len(state.treasures[0]) == before + 1 and state.phase == "draw" and state.draw_step == "buy"
    )


def test_the_hand_limit_of_ten_at_the_end_of_the_round():
    state = S.game(3)
    S.give(state, 1, *["yak"] * 11)
    S.show(state, "yak", "kamel", "kayak", "gonogo")
    S.stack(state, "kamel", "kamel", "kamel", "kamel", "kamel", "kamel")
    _to_draw(state)
    for s in range(3):
        KIND.apply(state, s, {"type": "take", "deck": True})
        KIND.apply(state, s, {"type": "done"})
    assert state.phase == "limit" and KIND.to_act(state) == [1]
    refused(
        state,
        1,
        {"type": "discard", "cards": S.ids(state, 1, "yak")[:1]},
        InvalidInput,
        "isla_discard_count",
    )
    KIND.apply(state, 1, {"type": "discard", "cards": S.ids(state, 1, "yak")[:2]})
    assert len(state.hands[1]) == 10 and state.phase == "bid" and state.round == 2


# --- the end and scoring ---------------------------------------------------------------------


def test_the_game_ends_after_the_treasures_of_the_last_markers_round():
    state = S.game(3)
    state.markers_left = 1
    _go(state, "moon_temple")
    assert state.markers_left == 0 and state.phase == "treasure"
    no_treasures(state)
    assert state.phase == "over" and state.end == "markers"
    view = KIND.view(state, None)
    for s, row in enumerate(view["score_breakdown"]):
        assert (
            row["total"]
            == row["gold"] + row["treasures"] + row["bonuses"] + row["destiny"] - row["curses"]
        )
        assert view["scores"][s] == row["total"]
        assert view["players"][s]["hand"] is not None and view["players"][s]["destiny"] is not None


def _destiny(state, seat, mission):
    g = next(g for g in T.GOALS_OF["destiny"] if T.GOAL_MISSION[g]["mission"] == mission)
    state.destiny[seat] = g
    return T.GOAL_MISSION[g]


def test_destiny_missions_are_checked_on_the_game():
    state = S.game(3)
    m = _destiny(state, 0, "family")
    locs = [x for x in range(T.LOC_COUNT) if T.LOC_FAMILY[x] == m["family"]]
    for x in locs[: m["count"] - 1]:
        state.explored[x] = 1
    assert mission_progress(state, 0, state.destiny[0]) == (m["count"] - 1, m["count"])
    state.explored[locs[-1]] = 2
    assert breakdown(state, 0)["destiny"] == m["points"]
    m = _destiny(state, 1, "pair")
    state.explored[T.LOC_INDEX[m["locations"][0]]] = 1
    assert breakdown(state, 1)["destiny"] == 0
    state.explored[T.LOC_INDEX[m["locations"][1]]] = 1
    assert breakdown(state, 1)["destiny"] == m["points"]
    for mission, field, seat_list in (
        ("flights", "flights", False),
        ("rivers", "river_steps", False),
        ("leader", "wins", True),
        ("gold", "gold", True),
    ):
        m = _destiny(state, 2, mission)
        value = [0, 0, m["count"] - 1] if seat_list else m["count"] - 1
        setattr(state, field, value)
        assert breakdown(state, 2)["destiny"] == 0, mission
        value = [0, 0, m["count"]] if seat_list else m["count"]
        setattr(state, field, value)
        assert breakdown(state, 2)["destiny"] == m["points"], mission
    m = _destiny(state, 2, "treasures")
    state.played_treasures[2] = [[g, -1, -1] for g in T.GOALS_OF["treasure"][: m["count"]]]
    assert breakdown(state, 2)["destiny"] == m["points"]
