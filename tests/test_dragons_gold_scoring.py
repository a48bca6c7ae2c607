"""Dragon's Gold scoring: both tables of ../shared/rules/dragons_gold.md with every tie rule."""

from __future__ import annotations

from games.dragons_gold.data import full
from games.dragons_gold.scoring import breakdown, majority_points, scores


def hoards(*given):
    return [full(h) for h in given]


def test_basic_flat_points_gold_3_silver_1_red_1_black_7():
    assert scores(hoards({"gold": 2, "silver": 3, "red": 1, "black": 1}, {}, {}), False) == [
        3 * 2 + 3 + 1 + 7,
        0,
        0,
    ]


def test_basic_majority_by_seat_count_and_ties_score_in_full():
    assert [majority_points(n, False) for n in (3, 4, 5, 6)] == [15, 12, 12, 10]
    four = hoards({"yellow": 2}, {"yellow": 2}, {"yellow": 1}, {})
    assert scores(four, False) == [12, 12, 0, 0]
    six = hoards({"blue": 1}, {"blue": 1}, {"blue": 1}, {}, {}, {})
    assert scores(six, False) == [10, 10, 10, 0, 0, 0]  # three tied: all in full
    three = hoards({"white": 1}, {}, {})
    assert scores(three, False) == [15, 0, 0]


def test_nobody_holding_a_colour_means_nobody_scores_its_majority():
    row = breakdown(hoards({"gold": 1}, {}, {}, {}), False)
    assert all(r["majorities"] == {} for r in row)
    assert [r["total"] for r in row] == [3, 0, 0, 0]


def test_advanced_black_19_sets_of_five_5_and_majorities_12_10_8():
    assert [majority_points(n, True) for n in (3, 4, 5, 6)] == [12, 10, 10, 8]
    gems = {"yellow": 2, "blue": 2, "green": 2, "purple": 2, "white": 1}
    row = breakdown(hoards(gems, {"black": 1}, {"gold": 1}), True)
    assert row[0]["sets"] == 5  # one full set (white 1)
    assert row[0]["majorities"] == dict.fromkeys(gems, 12)
    assert row[0]["total"] == 5 + 5 * 12
    assert row[1]["total"] == 19 and row[2]["total"] == 3


def test_advanced_two_tied_get_half_three_tied_get_nothing():
    two = hoards({"green": 3}, {"green": 3}, {"green": 1}, {})
    assert scores(two, True) == [5.0, 5.0, 0, 0]
    three = hoards({"green": 3}, {"green": 3}, {"green": 3}, {"green": 1})
    assert scores(three, True) == [0, 0, 0, 0]
    six_halves = hoards({"purple": 1}, {"purple": 1}, {}, {}, {}, {})
    assert scores(six_halves, True) == [4.0, 4.0, 0, 0, 0, 0]


def test_the_diamond_owner_scores_no_gems_but_their_gems_still_decide_the_majorities():
    gems = {"yellow": 3, "blue": 3, "green": 3, "purple": 3, "white": 3}
    row = breakdown(hoards({**gems, "black": 1}, {"yellow": 2, "blue": 3}, {"blue": 1}), True)
    assert row[0]["sets"] == 0 and row[0]["majorities"] == {} and row[0]["total"] == 19
    # yellow: the diamond owner has the most, so seat 1 (2) does not get it;
    # blue: seat 1 ties the diamond owner (3 each): two tied, half for seat 1 only
    assert row[1]["majorities"] == {"blue": 6.0}
    assert row[2]["majorities"] == {}
    # in the basic table the black diamond is worth 7 and gems score as usual
    basic = breakdown(hoards({**gems, "black": 1}, {}, {}), False)
    assert basic[0]["total"] == 7 + 5 * 15


def test_sets_count_the_fewest_of_the_five_colours():
    gems = {"yellow": 3, "blue": 2, "green": 4, "purple": 2, "white": 2}
    row = breakdown(hoards(gems, {}, {}), True)
    assert row[0]["sets"] == 10
    row = breakdown(hoards({**gems, "white": 0}, {}, {}), True)
    assert row[0]["sets"] == 0
