"""What the strong bot infers of the other seats' goal cards (``games.isla_dorada.inference``):
it reads the rounds' records and standing bids of a view; a holding that explains a choice
weighs more than one that does not; a card at a place the expedition reached is drawn rarely;
the holdings drawn for a seat have its goal-card count and none of the cards anyone has shown,
and the same view and generator give the same belief."""

from __future__ import annotations

import random
from collections import Counter

from games.base import get_kind, next_bot_action
from games.isla_dorada import inference as I
from games.isla_dorada import tables as T
from games.isla_dorada.sampling import goal_belief

KIND = get_kind("isla_dorada")


def late_auction_view(seed: int, rounds: int) -> dict:
    """A seat's view at the first bid after ``rounds`` rounds of a game of four planners."""
    state = KIND.new_state(seed, 4, None)
    while not (state.phase == "bid" and state.round > rounds):
        found = next_bot_action(KIND, state, ["normal"] * 4, lambda: random.Random(seed))
        assert found is not None
        KIND.apply(state, *found)
    return KIND.view(state, state.current)


def test_the_evidence_is_the_rounds_won_and_the_places_reached():
    view = late_auction_view(11, 10)
    evidence = I.read_evidence(view)
    me = view["you"]
    assert set(evidence) == set(range(4)) - {me}
    arrivals = {T.LOC_INDEX[r["path"][-1]] for r in view["history"]}
    for s, e in evidence.items():
        assert e.since_setup == arrivals
        won = [r for r in view["history"] if r["leader"] == s]
        standing = view["players"][s]["bid"] is not None
        assert len(e.choices) == len(won) + standing
        assert [c.dest for c in e.choices[: len(won)]] == [T.LOC_INDEX[r["path"][1]] for r in won]
        assert [n.drawn for n in e.news] == [T.NEWS[k][0] for k in sorted(T.NEWS)]
        assert all(n.since <= arrivals for n in e.news)


def test_a_holding_that_explains_a_bid_weighs_more():
    here = T.CRASH
    (_, toward), (_, away) = T.EXITS[here][:2]
    treasure = [g for g in T.GOALS_OF["treasure"] if T.GOAL_LOC[g] == toward][0]
    elsewhere = [g for g in T.GOALS_OF["treasure"] if T.GOAL_LOC[g] == away][0]
    destiny = [g for g in T.GOALS_OF["destiny"] if T.GOAL_MISSION[g]["mission"] == "gold"][0]
    bid = I.Choice(here, toward, frozenset(), (), True, I.BETA_NOW)

    def holding(g: int) -> I.Holding:
        return {"destiny": [destiny], "curse": [], "start": [], "treasure": [g]}

    assert I.log_likelihood(holding(treasure), [bid]) == 0.0
    assert I.log_likelihood(holding(elsewhere), [bid]) < -2.0
    # before the first news the standard treasures were not dealt: they explain nothing
    early = I.Choice(here, toward, frozenset(), (), False, I.BETA_PAST)
    assert I.log_likelihood(holding(elsewhere), [early]) == 0.0
    # a treasure played there since is added back to what the seat held then
    played = I.Choice(here, toward, frozenset(), ((toward, 9.0),), True, I.BETA_PAST)
    assert I.log_likelihood(holding(elsewhere), [played]) == 0.0


def test_a_card_at_a_place_reached_is_drawn_rarely():
    pool = list(T.GOALS_OF["curse"])
    avoid = frozenset(T.GOAL_LOC[g] for g in pool[: len(pool) // 2])
    rng = random.Random(5)
    drawn = Counter(T.GOAL_LOC[I.draw(pool, 1, avoid, rng)[0]] in avoid for _ in range(2000))
    share = drawn[True] / 2000
    at = sum(T.GOAL_LOC[g] in avoid for g in pool) / len(pool)
    assert 0 < share < 0.25 * at
    assert sorted(I.draw(pool, len(pool), avoid, rng)) == sorted(pool)


def test_the_holdings_have_each_seats_count_and_no_card_shown_and_replay():
    view = late_auction_view(12, 10)
    me = view["you"]
    mine = view["players"][me]
    shown = {T.CARD_INDEX[c["id"]][1] for c in mine["treasures"] + mine["curses"]}
    shown.add(T.CARD_INDEX[mine["destiny"]["id"]][1])
    for p in view["players"]:
        shown.update(T.CARD_INDEX[t["card"]["id"]][1] for t in p["played"]["treasures"])
        shown.update(T.CARD_INDEX[c["id"]][1] for c in p["played"]["curses"])
    belief = goal_belief(view, random.Random(1))
    for s, (holdings, weights) in belief.holdings.items():
        assert len(holdings) == len(weights) == I.PARTICLES and max(weights) == 1.0
        for h in holdings:
            cards = [g for deck in h.values() for g in deck]
            assert len(cards) == view["players"][s]["goal_cards"] == len(set(cards))
            assert not set(cards) & shown
            assert all(T.GOAL_DECK[g] == deck for deck, gs in h.items() for g in gs)
    again = goal_belief(view, random.Random(1))
    assert again.holdings == belief.holdings
