"""Explanations (first excluding clue per space, the column as steps) and hints (every legal play,
its candidates and driving costs, ranked by the documented heuristic)."""

from __future__ import annotations

import math
import random

import pytest

from hexmap import Hex, InvalidInput, drive_costs
from solver import (
    MapColumn,
    SolverOptions,
    all_clues,
    clue_mask,
    column_mask,
    explain_column,
    hints,
    is_legal_play,
    parse_clue,
)
from solver.hints import hint_lines
from tests.islands import random_island, small_island

P = parse_clue


@pytest.fixture(scope="module")
def island():
    return small_island()


def test_each_excluded_space_names_the_first_clue_that_excludes_it(island):
    clues = [P("near2:sea"), P("!in:jungle"), P("near1:lake")]
    exp = explain_column(island, clues, island.mask_of([(2, 0)]))
    why = dict(((h.q, h.r), k) for h, k in exp.excluded)
    assert why[(0, 0)] == 0  # the centre is 3 from the sea
    assert why[(-1, 0)] == 1 and why[(2, -2)] == 1  # jungle (also not near a lake: clue 1 first)
    assert why[(1, 0)] == 2  # a lake space is not near a lake (rules §2: "not the spaces itself")
    assert why[(2, 0)] == "removed"  # passes every clue; its marker went with an amulet
    assert (0, 1) not in why and exp.reason_of((0, 1)) is None
    assert exp.reason_of((0, 0)) == 0
    # the solve answer's order: as the column reads, by (q, r) within a reason
    rank = {"landmark": -1, "removed": 99}
    keys = [(rank.get(why, why), h) for h, why in exp.excluded]
    assert keys == sorted(keys)
    assert exp.count + len(exp.excluded) == len(island)
    assert exp.candidates == column_mask(island, clues, island.mask_of([(2, 0)]))


def test_steps_tell_the_column(island):
    clues = [P("near2:sea"), P("!in:jungle"), P("near1:lake")]
    exp = explain_column(island, clues, island.mask_of([(2, 0)]))
    assert [s.index for s in exp.steps] == [None, 0, 1, 2, "removed"]
    assert [s.remaining for s in exp.steps] == [19, 18, 13, 7, 6]
    assert exp.steps[0].text() == "19 spaces may hold the treasure"
    assert exp.steps[1].text() == "clue 0 (Within 2 spaces of the sea) leaves 18 spaces"
    assert exp.steps[-1].text() == "amulet removals leave 6 spaces"
    assert "線索 1" in exp.steps[2].text("zh")
    data = exp.to_json()
    assert data["count"] == 6
    assert {"space": [0, 0], "by": 0} in data["excluded"]
    assert data["steps"][2]["clue"] == "!in:jungle"


def test_no_removal_step_without_removals_and_landmark_reason(island):
    exp = explain_column(island, [P("in:beach")], 0, SolverOptions(treasure_on_landmarks=False))
    assert [s.index for s in exp.steps] == [None, 0]
    assert exp.steps[0].remaining == 15
    why = dict(((h.q, h.r), k) for h, k in exp.excluded)
    for lm in island.landmarks:  # a landmark's space is out first of all, whatever the clues say
        assert why[(lm.space.q, lm.space.r)] == "landmark"
    assert (-2, 2) not in why  # the small beach is a candidate


def test_contradictory_column_explains_every_space(island):
    exp = explain_column(island, [P("in:river"), P("!in:river")])
    assert exp.count == 0 and len(exp.excluded) == 19
    assert exp.steps[-1].text() == "clue 1 (Not in a river) leaves 0 spaces"


def _brute_costs(island, start, mask):
    costs = drive_costs(island, start)
    got = [costs[h] for h in island.spaces_of(mask) if h in costs]
    return min(got) if got else None


def test_hints_list_exactly_the_legal_plays_with_candidates_and_costs(island):
    maps = [MapColumn("white", (P("near2:sea"),)), MapColumn("grey", (P("in:jungle"),))]
    hand = [P("in:jungle"), P("!near1:sea"), P("near1:hut"), P("in:largest:jungle")]
    me, others = Hex(2, 0), [Hex(-2, 2), Hex(0, 0)]
    got = hints(island, maps, hand, me, others)
    expected = set()
    for m in maps:
        c = column_mask(island, m.clues)
        for i, card in enumerate(hand):
            if is_legal_play(c, clue_mask(island, card)):
                expected.add((i, m.id))
    assert {(h.hand_index, h.map) for h in got} == expected
    for h in got:
        col = next(m for m in maps if m.id == h.map)
        before = column_mask(island, col.clues)
        assert h.candidates == before & clue_mask(island, hand[h.hand_index])
        assert h.remaining == h.candidates.bit_count() and h.before == before.bit_count()
        assert h.costs == tuple(_brute_costs(island, p, h.candidates) for p in [me, *others])
        assert h.my_cost == h.costs[0] and h.rival_cost == min(h.costs[1:])
        assert h.reason and h.clue == hand[h.hand_index]
    scores = [h.score for h in got]
    assert scores == sorted(scores, reverse=True)


def test_the_ranking_follows_the_documented_formula(island):
    maps = [MapColumn("white", ()), MapColumn("grey", (P("near2:sea"),))]
    hand = [P("in:lake"), P("in:beach"), P("near1:hut"), P("!near1:sea")]
    for h in hints(island, maps, hand, Hex(2, -1), [Hex(-2, 2)]):
        mine, rival = h.costs[0], h.costs[1]
        lead = max(-3, min(3, (9 if rival is None else rival) - (9 if mine is None else mine)))
        finish = 0.0
        if h.remaining == 1:
            finish = 2.0 if mine <= 3 and (rival is None or mine <= rival) else -1.0
        assert h.score == pytest.approx(1.5 * lead + math.log2(h.before / h.remaining) + finish)


def test_a_play_leaving_the_treasure_next_to_me_beats_one_leaving_it_next_to_the_rival(island):
    # Both cards leave the same number of candidates (2); the beach pair is by me, the grassland
    # pair by my rival.
    maps = [MapColumn("white", ())]
    hand = [P("in:largest:grassland"), P("in:largest:beach")]
    got = hints(island, maps, hand, Hex(2, 0), [Hex(-2, 1)])
    assert [h.hand_index for h in got] == [1, 0]
    assert got[0].costs == (0, 4) and got[1].costs == (3, 0)  # worked out by hand
    assert "0 moves from you" in got[0].reason and "closest rival 4 moves" in got[0].reason


def test_locating_the_treasure_within_reach_is_rewarded(island):
    maps = [MapColumn("white", (P("in:lake"),))]
    hand = [P("!near2:sea"), P("near2:sea")]  # centre only (1 left) vs 2 left
    got = hints(island, maps, hand, Hex(0, 0), [Hex(-2, 2)])
    assert got[0].hand_index == 0 and got[0].remaining == 1
    assert "locates the treasure" in got[0].reason and "raise it" in got[0].reason


def test_hints_without_rivals_or_without_an_atv(island):
    maps = [MapColumn("white", ())]
    hand = [P("in:lake"), P("in:river")]
    solo = hints(island, maps, hand, Hex(0, 0))
    assert all(len(h.costs) == 1 for h in solo)
    nobody = hints(island, maps, hand, None, [Hex(0, 0)])
    assert all(h.costs[0] is None and "out of your reach" in h.reason for h in nobody)
    assert len(hint_lines(island, solo)) == 2


def test_hints_refuse_an_atv_off_the_island(island):
    with pytest.raises(InvalidInput) as info:
        hints(island, [MapColumn("white", ())], [P("in:lake")], Hex(9, 9))
    assert info.value.field == "me"
    with pytest.raises(InvalidInput) as info:
        hints(island, [MapColumn("white", ())], [P("in:lake")], Hex(0, 0), [Hex(0, 0), Hex(7, 0)])
    assert info.value.field == "others[1]"


@pytest.mark.parametrize("seed", range(20))
def test_hints_on_random_islands_match_legality(seed):
    rng = random.Random(seed)
    isl = random_island(rng)
    pool = all_clues()
    maps = [MapColumn(c, tuple(rng.sample(pool, rng.randint(0, 3)))) for c in ("a", "b")]
    hand = rng.sample(pool, 4)
    me, other = rng.choice(isl.index), rng.choice(isl.index)
    got = hints(isl, maps, hand, me, [other])
    n_legal = sum(
        is_legal_play(column_mask(isl, m.clues), clue_mask(isl, c)) for m in maps for c in hand
    )
    assert len(got) == n_legal
    for h in got:
        assert h.costs == (
            _brute_costs(isl, me, h.candidates),
            _brute_costs(isl, other, h.candidates),
        )
