"""Reviews to trust (``games.review_trust``): over a few games of a strong bot against normal
ones, each game's analysis rates the strong seat better on average and the winner at least as
well as the loser in most games. ``bench/review_trust_bench.py`` gives the figures over many
games."""

from __future__ import annotations

import pytest

from games.review_trust import Trial, summary, trial


def test_the_winner_and_the_loser_are_the_highest_and_lowest_scores():
    assert Trial(0, [0.1, 0.5, 0.3], [30, 10, 20]).winner_rated_as_well() is True
    assert Trial(0, [0.6, 0.5, 0.3], [30, 10, 20]).winner_rated_as_well() is False
    assert Trial(0, [0.5, 0.5, 0.3], [30, 10, 20]).winner_rated_as_well() is True  # as well
    assert Trial(0, [0.1, 0.5, 0.3], [30, 30, 20]).winner_rated_as_well() is None  # shared win
    assert Trial(0, [None, 0.5, 0.3], [30, 10, 20]).winner_rated_as_well() is None


def test_a_summary_adds_up_the_ratings_the_verdicts_and_the_markets():
    s = summary(
        [
            Trial(0, [0.1, 0.5, 0.3], [30, 10, 20], [2]),
            Trial(1, [0.4, 0.2, None], [10, 30, 20], [0, 1]),
        ]
    )
    assert s.games == 2 and s.judged == 2 and s.winner_share == 1.0
    assert s.strong_rating == pytest.approx(0.15)
    assert s.normal_rating == pytest.approx((0.5 + 0.3 + 0.4) / 3)
    assert s.markets == 3 and s.trades_per_market == 1.0
    assert s.markets_with_trades == pytest.approx(2 / 3)


#: Game, seats, games played: a modest sample (``bench/review_trust_bench.py`` plays 200).
SAMPLES = [("dao", 2, 4), ("tobago", 2, 4), ("isla_dorada", 4, 4), ("dragons_gold", 4, 4)]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seats", "games"), SAMPLES)
def test_the_analysis_rates_the_strong_seat_better_and_the_winner_as_well_as_the_loser(
    name, seats, games
):
    s = summary([trial(name, seats, g) for g in range(games)])
    assert s.strong_rating is not None and s.normal_rating is not None
    assert s.strong_rating < s.normal_rating, s
    if name != "isla_dorada":  # the known gap below
        assert s.winner_share is not None and s.winner_share >= 0.5, s


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="Isla Dorada's analysis rates the winner below the loser in most games (1 of 4 "
    "here; 0.2 over 5 in the bench): not fixed yet",
)
def test_isla_dorada_rates_the_winner_as_well_as_the_loser_in_most_games():
    s = summary([trial("isla_dorada", 4, g) for g in range(4)])
    assert s.winner_share is not None and s.winner_share >= 0.5, s
