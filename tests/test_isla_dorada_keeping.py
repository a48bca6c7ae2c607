"""What Isla Dorada's strong bot keeps at the setup and the cable news
(``games.isla_dorada.keeping``) and how its weights are fitted (``games.isla_dorada.keep_fit``):
a choice's features name what it keeps and come from the seat's view alone, the fitted file
weighs every card a seat can be offered, and the fit recovers an effect planted in random
choices."""

from __future__ import annotations

import random

from games.base import get_kind, next_bot_action
from games.isla_dorada import keep_fit, keeping
from games.isla_dorada import tables as T
from games.isla_dorada.planner import plan

KIND = get_kind("isla_dorada")


def _offers(seed: int, phase: str) -> list[tuple[dict, list[dict]]]:
    """Every seat's view and legal choices at each ``phase`` step of a game of planners."""
    state = KIND.new_state(seed, 4, None)
    out = []
    while not KIND.is_over(state):
        if state.phase == phase:
            for seat in KIND.to_act(state):
                out.append((KIND.view(state, seat), KIND.legal_actions(state, seat)))
        found = next_bot_action(KIND, state, ["normal"] * 4, lambda: random.Random(seed))
        assert found is not None
        KIND.apply(state, *found)
    return out


def test_a_setup_choice_is_described_by_the_cards_it_keeps():
    for view, legal in _offers(1, "setup"):
        offer = {c["id"] for c in view["mine"]["offer"]}
        for a in legal:
            kept = offer - {a["discard_treasure"], a["discard_destiny"]}
            features = keeping.setup_features(view, a)
            assert {n.removeprefix("keep:") for n in features if n.startswith("keep:")} == kept


def test_a_news_choice_is_described_by_the_cards_it_keeps_and_where_they_lie():
    views = _offers(2, "news")
    assert views
    for view, legal in views:
        for a in legal:
            features = keeping.news_features(view, a)
            assert {n.removeprefix("keep:") for n in features if n.startswith("keep:")} == set(
                a["keep"]
            )
            points = sum(features.get(f"points_at_{d}", 0.0) for d in range(5))
            offer = {c["id"]: c["points"] for c in view["mine"]["offer"]}
            assert points == sum(offer[c] for c in a["keep"])


def test_the_features_are_the_same_whatever_the_other_seats_hold():
    """Only the seat's view is read: a game whose other seats were dealt other hidden cards,
    seen the same by this seat, gives the same features."""
    state = KIND.new_state(3, 4, None)
    view, legal = KIND.view(state, 0), KIND.legal_actions(state, 0)
    before = [keeping.setup_features(view, a) for a in legal]
    state.hands[1], state.hands[2] = state.hands[2], state.hands[1]
    state.offers[1], state.offers[3] = state.offers[3], state.offers[1]
    again = KIND.view(state, 0)
    assert [keeping.setup_features(again, a) for a in legal] == before


def test_the_fitted_weights_cover_every_card_a_seat_can_keep():
    setup, news = keeping.WEIGHTS["setup"], keeping.WEIGHTS["news"]
    for deck, weights in (("start", setup), ("destiny", setup), ("treasure", news)):
        missing = [T.GOAL_ID[g] for g in T.GOALS_OF[deck] if f"keep:{T.GOAL_ID[g]}" not in weights]
        assert not missing, (deck, missing)


def test_the_best_keep_is_legal_and_the_one_valued_most():
    for view, legal in _offers(4, "setup") + _offers(4, "news"):
        chosen = keeping.best(view, legal)
        weights, features = keeping.WEIGHTS[view["phase"]], keeping.FEATURES[view["phase"]]
        values = [keeping.value(weights, features(view, a)) for a in legal]
        assert keeping.values(view, legal) == values
        assert chosen in legal and values[legal.index(chosen)] == max(values)


def test_a_game_of_random_keeps_gives_a_row_per_choice_with_the_seats_margin():
    rows = keep_fit.play(7)
    setups = [r for r in rows if r.phase == "setup"]
    assert sorted(r.seat for r in setups) == [0, 1, 2, 3]
    assert {r.phase for r in rows} == {"setup", "news"}
    state = KIND.new_state(7, 4, None)
    for r in setups:
        view, legal = KIND.view(state, r.seat), KIND.legal_actions(state, r.seat)
        assert 0 <= r.chosen < len(r.options) == len(legal)
        assert r.planner == legal.index(plan(view, legal, random.Random(0)))
    margins = {r.seat: r.margin for r in rows}
    assert sorted(margins.values())[-1] >= 0 > sorted(margins.values())[0]


def test_the_fit_recovers_a_planted_effect_and_judges_the_choice_it_would_make():
    draw = random.Random(0)
    rows = []
    for game in range(4000):
        options = [{"keep:a": 1.0}, {"keep:b": 1.0}, {"keep:c": 1.0, "near": 1.0}]
        chosen = draw.randrange(3)
        worth = {0: 2.0, 1: 0.0, 2: -1.0}[chosen]
        margin = worth + draw.gauss(0, 3)
        rows.append(keep_fit.Row(game, "setup", 0, options, chosen, 1, margin, float(margin > 0)))
    weights = keep_fit.fit(rows)
    assert abs((weights["keep:a"] - weights["keep:b"]) - 2.0) < 0.4
    assert abs((weights["keep:c"] + weights["near"] - weights["keep:b"]) + 1.0) < 0.4
    judged = keep_fit.held_out(rows, weights)
    assert judged["fitted"].rows == sum(r.chosen == 0 for r in rows)
    assert judged["fitted"].margin > judged["random"].margin > judged["planner"].margin
    assert judged["fitted"].share > judged["planner"].share
