"""``python -m games.tournament``: every level meets every other in every seat, the games are rated
by openskill, and the table says it; a tournament replays from its seed."""

from __future__ import annotations

import io
from collections import Counter

import pytest

from games import tournament
from games.base import get_kind


def test_heads_up_every_pair_meets_once_in_both_seats():
    ups = tournament.line_ups(["easy", "normal", "strong"], 2)
    assert sorted(tuple(seats) for _, _, seats in ups) == sorted(
        [
            ("easy", "normal"),
            ("normal", "easy"),
            ("easy", "strong"),
            ("strong", "easy"),
            ("normal", "strong"),
            ("strong", "normal"),
        ]
    )


def test_at_more_seats_each_level_faces_a_field_of_each_other_in_every_seat():
    ups = tournament.line_ups(["easy", "normal"], 3)
    assert len(ups) == 2 * 3
    for a, b, seats in ups:
        assert seats.count(a) == 1 and seats.count(b) == 2
    lone = Counter((a, seats.index(a)) for a, _, seats in ups)
    assert lone == {(lv, s): 1 for lv in ("easy", "normal") for s in range(3)}


def test_the_stronger_level_rates_higher_and_the_ratings_replay_from_the_seed():
    kind = get_kind("dao")
    matches = tournament.play(kind, 20, 2, seed=4, levels=["easy", "strong"])
    assert len(matches) == 40 and {(m.first, m.second) for m in matches} == {("easy", "strong")}
    rows = tournament.rate(["easy", "strong"], matches)
    assert [r["level"] for r in rows] == ["strong", "easy"]
    strong, easy = rows
    assert strong["mu"] - strong["ci95"] > easy["mu"] + easy["ci95"]
    assert strong["games"] == easy["games"] == 40
    assert strong["win_share"] + easy["win_share"] == pytest.approx(1.0)
    assert strong["against"]["easy"] == (strong["win_share"], 40)
    again = tournament.rate(
        ["easy", "strong"], tournament.play(kind, 20, 2, 4, levels=["easy", "strong"])
    )
    assert again == rows


def test_a_level_the_game_does_not_offer_is_refused():
    with pytest.raises(ValueError, match="offered: easy, normal, strong"):
        tournament.play(get_kind("isla_dorada"), 1, 3, levels=["easy", "expert"])


def test_the_command_prints_the_table_and_each_pair():
    out = io.StringIO()
    # two of the levels: the strong one's search is the bench's (strong_bots_bench.py)
    args = ["dragons_gold", "--games", "2", "--levels", "easy,normal", "--quiet"]
    assert tournament.main(args, out) == 0
    text = out.getvalue()
    assert "dragons_gold: 12 games, 3 seats, seed 1; openskill Plackett-Luce" in text
    lines = text.splitlines()
    assert lines[2].split() == ["level", "mu", "±95%", "ordinal", "games", "win", "share"]
    assert {lines[3].split()[0], lines[4].split()[0]} == {"easy", "normal"}
    assert any(line.startswith(("normal against easy", "easy against normal")) for line in lines)
