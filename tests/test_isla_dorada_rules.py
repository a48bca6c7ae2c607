"""Isla Dorada rules, one scenario each (``../shared/rules/isla_dorada.md``; Decisions in
``games/isla_dorada/engine.py``): setup, the auction and its special cards, moving, curses,
treasures, cable news, drawing with the lightning cards, the hand limit, the end and scoring."""

from __future__ import annotations

import pytest

from errors import IllegalAction, InvalidInput
from games.isla_dorada import KIND
from games.isla_dorada import scenario as S
from games.isla_dorada import tables as T
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


def bid(route=None, cards=(), flight=None, **extra):
    out = {"type": "bid", "cards": list(cards), **extra}
    if flight is not None:
        out["flight"] = flight
    else:
        out["route"] = route
    return out


def everyone_passes_but(state, winner):
    while state.phase == "bid":
        seat = KIND.to_act(state)[0]
        assert seat != winner or state.high != winner
        KIND.apply(state, seat, {"type": "pass"})


def no_treasures(state):
    while state.phase == "treasure":
        KIND.apply(state, KIND.to_act(state)[0], {"type": "treasures", "plays": []})


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
    refused(state, 2, choice, IllegalAction, "not_your_turn")
    for s in (0, 1, 3):
        KIND.apply(state, s, KIND.legal_actions(state, s)[0])
    assert state.phase == "bid" and state.round == 1 and KIND.to_act(state) == [0]


def test_setup_refuses_a_card_not_dealt():
    state = KIND.new_state(5, 3)
    other = T.GOAL_ID[state.offers[1][0]]
    legal = KIND.legal_actions(state, 0)[0]
    refused(state, 0, {**legal, "discard_treasure": other}, IllegalAction, "isla_setup_card")
    refused(state, 0, {**legal, "extra": 1}, InvalidInput)


# --- the auction -----------------------------------------------------------------------------


def test_the_leader_may_open_at_zero_later_bids_must_beat_it_and_the_winner_leads():
    state = S.game(3)
    r = S.route("crash_site", "moon_temple")
    KIND.apply(state, 0, bid(r))
    assert state.high == 0 and state.bids[0]["value"] == 0
    refused(state, 1, bid(r), IllegalAction, "isla_bid_too_low")
    everyone_passes_but(state, 0)
    assert state.leader == 0 and state.location == T.LOC_INDEX["moon_temple"]


def test_with_no_bid_yet_a_seat_after_the_leader_bids_at_least_one():
    state = S.game(3)
    yak = S.give(state, 1, "gonogo")
    KIND.apply(state, 0, {"type": "pass"})
    refused(state, 1, bid(S.route("crash_site", "moon_temple")), IllegalAction, "isla_bid_too_low")
    KIND.apply(state, 1, bid(S.route("crash_site", "moon_temple"), yak))
    assert state.high == 1


def test_cards_pay_their_route_types_kayak_two_and_drako_wild_for_gold():
    state = S.game(3)
    kamel = S.give(state, 0, "kamel")
    refused(
        state,
        0,
        bid(S.route("crash_site", "moon_temple"), kamel),
        IllegalAction,
        "isla_card_not_for_route",
    )
    kayak = S.give(state, 0, "kayak")
    KIND.apply(state, 0, bid(S.route("crash_site", "heron_isle"), kayak))
    assert state.bids[0]["value"] == 2
    drako = S.give(state, 1, "drako", "drako")
    KIND.apply(state, 1, bid(S.route("crash_site", "moon_temple"), drako))  # wild: 4 on jungle
    assert state.bids[1]["value"] == 4 and state.bids[1]["gold"] == 2
    everyone_passes_but(state, 1)
    assert state.gold[1] == 8 and state.leader == 1  # gold paid by the winner only
    assert state.gold[0] == 10 and T.CARD_INDEX[kayak[0]][1] in state.hands[0]  # bid returned
    assert all(T.CARD_INDEX[c][1] in state.discard for c in drako)


def test_raise_pass_and_come_back_in():
    state = S.game(3)
    y0 = S.give(state, 0, "gonogo", "gonogo", "gonogo")
    y1 = S.give(state, 1, "gonogo", "gonogo")
    y2 = S.give(state, 2, "kamel", "kamel", "kamel", "kamel")
    jungle, desert = S.route("crash_site", "moon_temple"), S.route("crash_site", "red_mesa")
    KIND.apply(state, 0, bid(jungle, y0[:1]))
    KIND.apply(state, 1, bid(jungle, y1))
    KIND.apply(state, 2, {"type": "pass"})
    assert KIND.view(state, None)["players"][2]["passed"]
    KIND.apply(state, 0, bid(jungle, y0))  # a raise may reuse the standing bid's cards
    assert state.bids[0]["value"] == 3 and state.hands[0] == []
    KIND.apply(state, 1, {"type": "pass"})
    KIND.apply(state, 2, bid(desert, y2))  # came back in
    assert state.high == 2 and not any(state.passed)
    KIND.apply(state, 0, {"type": "pass"})
    KIND.apply(state, 1, {"type": "pass"})
    assert state.leader == 2 and state.location == T.LOC_INDEX["red_mesa"]
    assert sorted(state.hands[0]) == sorted(T.CARD_INDEX[c][1] for c in y0)


def test_a_river_cannot_be_bid_upstream_and_blocked_routes_cannot_be_bid():
    state = S.game(3)
    S.at(state, "golden_falls")
    kayak = S.give(state, 0, "kayak")
    refused(
        state,
        0,
        bid(S.route("snow_pass", "golden_falls"), kayak),
        IllegalAction,
        "isla_route_not_here",
    )
    state.leviathan = T.ROUTE_INDEX[S.route("golden_falls", "vine_bridge")]
    refused(
        state,
        0,
        bid(S.route("golden_falls", "vine_bridge"), kayak),
        IllegalAction,
        "isla_route_blocked",
    )
    assert (
        S.route("golden_falls", "vine_bridge") not in KIND.view(state, 0)["auction"]["open_routes"]
    )
    state.bigfoot = T.ROUTE_INDEX[S.route("golden_falls", "bat_caves")]
    gonogo = S.give(state, 0, "gonogo")
    refused(
        state,
        0,
        bid(S.route("golden_falls", "bat_caves"), gonogo),
        IllegalAction,
        "isla_route_blocked",
    )


def test_flights_take_drako_and_zeppelin_only_to_any_location_and_cost_gold():
    state = S.game(3)
    yak = S.give(state, 0, "yak")
    refused(state, 0, bid(flight="seal_rocks", cards=yak), IllegalAction, "isla_flight_cards")
    refused(state, 0, bid(flight="crash_site"), IllegalAction, "isla_flight_here")
    zep = S.give(state, 0, "zeppelin")
    KIND.apply(state, 0, bid(flight="seal_rocks", cards=zep))
    everyone_passes_but(state, 0)
    assert state.location == T.LOC_INDEX["seal_rocks"] and state.gold[0] == 7 and state.flights == 1
    state2 = S.game(3)
    state2.gold[0] = 2
    zep2 = S.give(state2, 0, "zeppelin")
    refused(state2, 0, bid(flight="seal_rocks", cards=zep2), IllegalAction, "isla_not_enough_gold")


def test_ovetos_with_four_or_more_ends_the_auction_at_once():
    state = S.game(3)
    jungle = S.route("crash_site", "moon_temple")
    g = S.give(state, 1, "gonogo", "gonogo", "gonogo", "gonogo")
    ov = S.give(state, 1, "ovetos")[0]
    KIND.apply(state, 0, {"type": "pass"})
    refused(state, 1, bid(jungle, g[:3], ovetos=ov), IllegalAction, "isla_ovetos_low")
    KIND.apply(state, 1, bid(jungle, g, ovetos=ov))
    assert state.leader == 1 and state.phase != "bid"
    assert T.CARD_INDEX[ov][1] in state.discard


def test_juju_bars_a_seat_for_the_round_and_its_bid_goes_back():
    state = S.game(4)
    jungle = S.route("crash_site", "moon_temple")
    a = S.give(state, 0, "gonogo")
    b = S.give(state, 1, "gonogo", "gonogo")
    juju = S.give(state, 2, "juju", "juju")
    KIND.apply(state, 0, bid(jungle, a))
    KIND.apply(state, 1, bid(jungle, b))
    KIND.apply(state, 2, {"type": "juju", "card": juju[0], "target": 1})
    assert state.barred[1] and state.bids[1] is None and state.high == 0  # back to seat 0's bid
    assert len(state.hands[1]) == 2 and KIND.to_act(state) == [2]  # the turn stays
    refused(
        state, 2, {"type": "juju", "card": juju[1], "target": 3}, IllegalAction, "isla_one_juju"
    )
    KIND.apply(state, 2, {"type": "pass"})
    KIND.apply(state, 3, {"type": "pass"})
    assert state.phase != "bid" and state.leader == 0  # seat 1 was skipped


def test_juju_cannot_bar_oneself():
    state = S.game(3)
    juju = S.give(state, 0, "juju")
    refused(
        state, 0, {"type": "juju", "card": juju[0], "target": 0}, IllegalAction, "isla_juju_target"
    )


def test_shaman_converts_every_card_of_one_kind_for_a_land_route():
    state = S.game(3)
    kamels = S.give(state, 0, "kamel", "kamel")
    shaman = S.give(state, 0, "shaman")[0]
    jungle = S.route("crash_site", "moon_temple")
    conv = {"card": shaman, "from": "kamel", "to": "gonogo"}
    KIND.apply(state, 0, bid(jungle, kamels, shaman=conv))
    assert state.bids[0]["value"] == 2
    state2 = S.game(3)
    kayak = S.give(state2, 0, "kayak")
    sh2 = S.give(state2, 0, "shaman")[0]
    refused(
        state2,
        0,
        bid(
            S.route("crash_site", "heron_isle"),
            kayak,
            shaman={"card": sh2, "from": "kamel", "to": "yak"},
        ),
        IllegalAction,
        "isla_shaman_kinds",
    )


def test_bid_refusals_name_the_field_and_change_nothing():
    state = S.game(3)
    yak = S.give(state, 1, "yak")
    r = S.route("crash_site", "moon_temple")
    refused(state, 0, bid(r, yak), IllegalAction, "isla_not_your_card")
    refused(state, 0, bid("r999"), InvalidInput, "isla_no_such_route")
    refused(state, 0, {"type": "bid", "cards": []}, InvalidInput, "isla_bid_target")
    refused(state, 0, {"type": "fly"}, InvalidInput, "unknown_action")
    refused(state, 0, {"type": "take", "deck": True}, IllegalAction, "action_not_now")
    g = S.give(state, 0, "gonogo")
    refused(state, 0, bid(r, g + g), InvalidInput, "isla_card_twice")


def test_every_seat_passing_twice_running_ends_the_game_as_stalled():
    state = S.game(3)
    for s in range(3):
        KIND.apply(state, s, {"type": "pass"})
    assert state.phase == "draw" and state.stall == 1 and state.location == T.CRASH
    while state.phase != "bid":
        s = KIND.to_act(state)[0]
        KIND.apply(
            state,
            s,
            next(
                a
                for a in KIND.legal_actions(state, s)
                if a["type"] in ("done", "take")
                or a["type"] in T.LIGHTNING_KINDS
                or a["type"] == "discard"
            ),
        )
    for _ in range(3):
        KIND.apply(state, KIND.to_act(state)[0], {"type": "pass"})
    assert state.phase == "over" and state.end == "stalled"
    assert KIND.scores(state) == [float(breakdown(state, s)["total"]) for s in range(3)]


# --- moving ----------------------------------------------------------------------------------


def test_a_river_carries_on_downstream_and_only_the_last_stop_is_explored():
    state = S.game(3)
    S.at(state, "snow_pass")
    kayak = S.give(state, 0, "kayak")
    KIND.apply(state, 0, bid(S.route("snow_pass", "golden_falls"), kayak))
    everyone_passes_but(state, 0)
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
    state = S.game(3)
    S.at(state, "lost_city")
    kayak = S.give(state, 0, "kayak")
    KIND.apply(state, 0, bid(S.route("lost_city", "coral_reef"), kayak))
    everyone_passes_but(state, 0)
    assert state.location == T.LOC_INDEX["coral_reef"] and state.phase == "treasure"  # no choice


def _sangaia_case(count: int):
    """A land route (a, b) from which ``count`` other routes of its type go on."""
    for r in T.LAND_ROUTES:
        for here, there in ((T.ROUTE_A[r], T.ROUTE_B[r]), (T.ROUTE_B[r], T.ROUTE_A[r])):
            on = [x for x, _ in T.EXITS[there] if x != r and T.ROUTE_TYPE[x] == T.ROUTE_TYPE[r]]
            if len(on) == count and here != T.CRASH and there != T.CRASH:
                return r, here, there, on
    raise AssertionError("no such route on the map")


def test_sangaia_skips_the_destination_and_the_leader_chooses_the_route_on():
    state = S.game(3)
    r, here, there, on = _sangaia_case(2)
    S.at(state, T.LOC_IDS[here])
    kind = T.KIND_FOR_LAND[T.ROUTE_TYPE[r]]
    card = S.give(state, 0, kind)
    sangaia = S.give(state, 0, "sangaia")[0]
    KIND.apply(state, 0, bid(T.ROUTE_IDS[r], card, sangaia=sangaia))
    everyone_passes_but(state, 0)
    assert state.phase == "move" and KIND.view(state, 1)["move"]["kind"] == "detour"
    assert {a["route"] for a in KIND.legal_actions(state, 0)} == {T.ROUTE_IDS[x] for x in on}
    refused(
        state, 0, {"type": "detour", "route": T.ROUTE_IDS[r]}, IllegalAction, "isla_detour_route"
    )
    KIND.apply(state, 0, {"type": "detour", "route": T.ROUTE_IDS[on[1]]})
    dest = dict(T.EXITS[there])[on[1]]
    assert state.location == dest and state.explored[there] == 0 and state.explored[dest] == 1


def test_sangaia_with_one_way_on_goes_at_once_and_with_none_stops():
    state = S.game(3)
    r, here, there, on = _sangaia_case(1)
    S.at(state, T.LOC_IDS[here])
    card = S.give(state, 0, T.KIND_FOR_LAND[T.ROUTE_TYPE[r]])
    KIND.apply(state, 0, bid(T.ROUTE_IDS[r], card, sangaia=S.give(state, 0, "sangaia")[0]))
    everyone_passes_but(state, 0)
    assert state.location == dict(T.EXITS[there])[on[0]]
    state = S.game(3)
    r, here, there, _ = _sangaia_case(0)
    S.at(state, T.LOC_IDS[here])
    card = S.give(state, 0, T.KIND_FOR_LAND[T.ROUTE_TYPE[r]])
    KIND.apply(state, 0, bid(T.ROUTE_IDS[r], card, sangaia=S.give(state, 0, "sangaia")[0]))
    everyone_passes_but(state, 0)
    assert state.location == there


def test_sangaia_on_a_flight_goes_on_to_a_neighbour_of_the_destination():
    state = S.game(3)
    drako = S.give(state, 0, "drako")
    KIND.apply(
        state, 0, bid(flight="eagle_peak", cards=drako, sangaia=S.give(state, 0, "sangaia")[0])
    )
    everyone_passes_but(state, 0)
    options = {a["route"] for a in KIND.legal_actions(state, 0)}
    assert options == {T.ROUTE_IDS[r] for r, _ in T.EXITS[T.LOC_INDEX["eagle_peak"]]}
    KIND.apply(state, 0, {"type": "detour", "route": S.route("eagle_peak", "thunder_crag")})
    assert state.location == T.LOC_INDEX["thunder_crag"]


def test_a_return_to_the_crash_site_places_no_marker():
    state = S.game(3)
    S.at(state, "red_mesa")
    k = S.give(state, 0, "kamel")
    KIND.apply(state, 0, bid(S.route("red_mesa", "crash_site"), k))
    everyone_passes_but(state, 0)
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
    assert {"type": "treasures", "plays": [{"card": t, "bonus": b}]} in KIND.legal_actions(state, 1)
    refused(
        state,
        1,
        {"type": "treasures", "plays": [{"card": t, "bonus": wrong}]},
        IllegalAction,
        "isla_bonus_family",
    )
    KIND.apply(state, 1, {"type": "treasures", "plays": [{"card": t, "bonus": b}]})
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


def test_bongo_plays_a_treasure_of_a_neighbouring_location():
    state = S.game(3)
    S.clear_goals(state)
    near = S.goal(state, 2, "treasure", "fern_hollow")  # fern hollow is next to moon temple
    far = S.goal(state, 2, "treasure", "seal_rocks")
    _go(state, "moon_temple")
    refused(
        state,
        2,
        {"type": "treasures", "plays": [{"card": near}]},
        IllegalAction,
        "isla_treasure_not_here",
    )
    bongo = S.give(state, 2, "bongo")[0]
    refused(
        state,
        2,
        {"type": "treasures", "plays": [{"card": far, "bongo": bongo}]},
        IllegalAction,
        "isla_treasure_not_here",
    )
    KIND.apply(state, 2, {"type": "treasures", "plays": [{"card": near, "bongo": bongo}]})
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
    refused(state, 0, {"type": "bigfoot", "route": water}, IllegalAction, "isla_lightning_target")
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
        IllegalAction,
        "isla_lightning_target",
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
    refused(
        state, 0, {"type": "thief", "target": 1}, IllegalAction, "isla_lightning_target"
    )  # no cards
    KIND.apply(state, 0, {"type": "thief", "target": 2})
    assert len(state.hands[0]) == 1 and len(state.hands[2]) == 1
    assert T.ADV_KIND[state.hands[0][0]] == "yak"


def test_lightning_voodoo_makes_another_seat_draw_a_curse():
    state = S.game(3)
    S.stack(state, "voodoo")
    _to_draw(state)
    KIND.apply(state, 0, {"type": "take", "deck": True})
    refused(state, 0, {"type": "voodoo", "target": 0}, IllegalAction, "isla_lightning_target")
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
