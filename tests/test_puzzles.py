"""Teaching puzzles: one answer, irredundant, proven minimal, graded by definition, explained."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from errors import InvalidInput
from hexmap.hexes import Hex
from hexmap.terrain import TERRAINS
from solver.clues import parse_clue
from solver.engine import base_mask, clue_mask
from solver.places import place_name
from solver.puzzles.clues import (
    DIFFICULTIES,
    allowed,
    is_deck_kind,
    pool,
    reading_cost,
    universe,
)
from solver.puzzles.cover import brute_force_minimum, greedy_cover, minimum_cover
from solver.puzzles.generate import (
    EASY_MAX_POINTS,
    FAR_FROM_LANDMARKS,
    MAX_PUZZLE_CLUES,
    MEDIUM_MAX_POINTS,
    candidates,
    draw_irredundant,
    explain,
    from_clues,
    grade,
    grade_of_points,
    is_irredundant,
    landmark_distance,
    make_minimal_puzzle,
    make_puzzle,
    minimal_clues,
)
from solver.puzzles.text import answer_text, intro_text, step_text, steps_json, why_text
from tests.islands import blob_island
from tests.places_support import COORDS

ISLANDS = {seed: blob_island(seed, radius=5, blobs=14) for seed in range(6)}


def _expected_level(points: int) -> str:
    return "easy" if points <= 4 else "medium" if points <= 7 else "hard"


def _check_puzzle(p, difficulty: str) -> None:
    island = p.island
    # Exactly one candidate, computed straight from the engine's clue masks.
    cand = base_mask(island)
    for c in p.clues:
        cand &= clue_mask(island, c)
    assert island.spaces_of(cand) == [p.answer]
    # Irredundant: dropping any one clue leaves more than one candidate.
    for k in range(len(p.clues)):
        rest = base_mask(island)
        for j, c in enumerate(p.clues):
            if j != k:
                rest &= clue_mask(island, c)
        assert rest.bit_count() > 1, f"clue {k} of {p.clue_ids} is redundant"
    # The clues come from the difficulty's pool.
    assert all(allowed(c, difficulty) for c in p.clues)


# --- the clue universe --------------------------------------------------------------------


def test_universe_holds_every_rule_clue_kind_once():
    u = universe()
    assert len(u) == len(set(u)) == 88
    kinds = {(c.relation, c.distance, c.largest, c.negated) for c in u}
    assert len(kinds) == 4 + 8  # in × largest × negated, near1/2 × largest × negated
    near_targets = {c.target for c in u if c.relation == "near" and not c.largest}
    assert near_targets == {*TERRAINS, "sea", "palm", "hut", "statue"}
    assert {c.target for c in u if c.largest} == set(TERRAINS)


def test_difficulty_pools_grow_from_easy_to_hard():
    easy, medium, hard = (set(pool(d)) for d in DIFFICULTIES)
    assert easy < medium < hard == set(range(len(universe())))
    u = universe()
    assert not any(u[i].negated or u[i].distance == 2 for i in easy)
    assert all(is_deck_kind(u[i]) for i in medium)
    assert any(u[i].negated and u[i].largest for i in hard - medium)


# --- generation ---------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_generated_puzzles_have_one_answer_and_no_redundant_clue(difficulty):
    for seed, island in ISLANDS.items():
        rng = random.Random(seed)
        for _ in range(8):
            p = make_puzzle(island, rng, difficulty)
            _check_puzzle(p, difficulty)
            assert p.difficulty == difficulty
            assert len(p.clue_ids) <= MAX_PUZZLE_CLUES


def test_generation_is_deterministic_from_the_seed():
    island = ISLANDS[1]
    for d in DIFFICULTIES:
        a = [make_puzzle(island, random.Random(7), d).clue_ids for _ in range(2)]
        assert a[0] == a[1]
    other = {make_puzzle(island, random.Random(s), "medium").clue_ids for s in range(10)}
    assert len(other) > 5


def test_raw_draws_are_irredundant_whatever_their_grade():
    island = ISLANDS[2]
    rng = random.Random(3)
    seen = 0
    for _ in range(200):
        ids = draw_irredundant(island, rng, "hard")
        if ids is None:
            continue
        seen += 1
        assert candidates(island, ids).bit_count() == 1
        assert is_irredundant(island, ids)
    assert seen > 100


def test_from_clues_refuses_clues_that_leave_several_answers():
    island = ISLANDS[0]
    with pytest.raises(InvalidInput) as e:
        from_clues(island, [0])
    assert e.value.field == "clues"


# --- grading ------------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_grade_matches_its_definition(difficulty):
    for seed, island in ISLANDS.items():
        p = make_puzzle(island, random.Random(100 + seed), difficulty)
        steps = p.steps
        # The explanation: each step removes at least one space and is the greediest choice.
        cand = base_mask(island)
        used = set()
        for s in steps:
            gone = {
                pos: (cand & ~clue_mask(island, c)).bit_count()
                for pos, c in enumerate(p.clues)
                if pos not in used
            }
            assert len(s.removed) == gone[s.position] == max(gone.values()) > 0
            assert s.position == min(pos for pos, g in gone.items() if g == gone[s.position])
            used.add(s.position)
            cand &= clue_mask(island, p.clues[s.position])
            assert cand.bit_count() == s.remaining
        assert steps[-1].remaining == 1
        g = p.grade
        assert g.steps == len(steps) == len(p.clues)  # irredundant: every clue is a step
        clues = [universe()[s.clue_id] for s in steps]
        assert g.negated == sum(c.negated for c in clues)
        assert g.largest == sum(c.largest for c in clues)
        assert g.distance2 == sum(c.distance == 2 for c in clues)
        assert g.points == g.steps + g.negated + g.largest + g.distance2
        assert g.points == sum(reading_cost(c) for c in clues)
        assert g.level == _expected_level(g.points) == difficulty


def test_grade_thresholds_and_known_grades():
    assert (EASY_MAX_POINTS, MEDIUM_MAX_POINTS) == (4, 7)
    assert [grade_of_points(n) for n in (1, 4, 5, 7, 8, 30)] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "hard",
        "hard",
    ]
    u = universe()
    in_jungle = u.index(parse_clue("in:jungle"))
    not_near2_largest_lake = u.index(parse_clue("!near2:largest:lake"))
    assert reading_cost(u[in_jungle]) == 1 and reading_cost(u[not_near2_largest_lake]) == 4
    island = ISLANDS[3]
    steps = explain(island, [in_jungle, not_near2_largest_lake])
    g = grade(steps)
    removing = [s for s in steps if s.removed]
    assert g.steps == len(removing)
    assert g.points == sum(reading_cost(s.clue) for s in removing)


def test_hard_answers_are_far_from_landmarks():
    for seed, island in ISLANDS.items():
        dist = landmark_distance(island)
        has_far = any(dist[h] >= FAR_FROM_LANDMARKS for h in island.index)
        p = make_puzzle(island, random.Random(seed), "hard")
        if has_far:
            assert dist[p.answer] >= FAR_FROM_LANDMARKS


# --- minimal mode -------------------------------------------------------------------------


def _brute_force_min(island, answer, difficulty, limit):
    """Smallest k ≤ limit such that some k clues of the pool single out ``answer``."""
    base = base_mask(island)
    a = 1 << island.bit[answer]
    masks = [clue_mask(island, universe()[i]) & base for i in pool(difficulty)]
    return brute_force_minimum(base, a, (m for m in masks if m & a), limit)


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_minimal_mode_is_truly_minimal_by_brute_force(difficulty):
    checked = 0
    for seed in range(4):
        island = blob_island(seed + 40, radius=2, blobs=7)
        rng = random.Random(seed)
        for answer in rng.sample(list(island.index), 6):
            found = minimal_clues(island, answer, difficulty)
            brute = _brute_force_min(island, answer, difficulty, 4)
            if found is None:
                assert brute is None
                continue
            covers, proof = found
            assert proof.clues == len(covers[0])
            if brute is None:  # the minimum is beyond the brute-force limit
                assert proof.clues > 4
                continue
            assert proof.clues == brute
            for cover in covers:
                assert len(cover) == brute
                assert candidates(island, cover) == 1 << island.bit[answer]
            checked += 1
    assert checked >= 8


def test_minimum_cover_matches_brute_force_on_random_set_systems():
    rng = random.Random(11)
    for _ in range(150):
        n = rng.randint(3, 14)
        universe_bits = (1 << n) - 1
        sets = [rng.getrandbits(n) & rng.getrandbits(n) for _ in range(rng.randint(2, 10))]
        res = minimum_cover(universe_bits, sets, alternatives=5)
        best = None
        for k in range(1, len(sets) + 1):
            for combo in combinations(range(len(sets)), k):
                u = 0
                for i in combo:
                    u |= sets[i]
                if u == universe_bits:
                    best = k
                    break
            if best:
                break
        if best is None:
            assert res is None
            continue
        assert res is not None and res.size == best
        assert all(res.initial_lower_bound <= k < best for k in res.refuted)
        for cover in res.all_minimum:
            u = 0
            for i in cover:
                u |= sets[i]
            assert u == universe_bits and len(cover) == best
        g = greedy_cover(universe_bits, sets)
        assert g is not None and len(g) >= best


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_minimal_puzzles_are_valid_and_carry_their_proof(difficulty):
    island = ISLANDS[4]
    for seed in range(5):
        p = make_minimal_puzzle(island, random.Random(seed), difficulty)
        _check_puzzle(p, difficulty)
        assert p.minimal and p.proof.clues == len(p.clue_ids)
        assert p.proof.pool == difficulty
        assert all(p.proof.initial_lower_bound <= k < p.proof.clues for k in p.proof.refuted)
        again = minimal_clues(island, p.answer, difficulty)
        assert again is not None and again[1].clues == len(p.clue_ids)


# --- explanation --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explanation_names_each_clue_and_ends_at_the_answer(lang):
    island = ISLANDS[5]
    p = make_puzzle(island, random.Random(5), "medium")
    texts = [step_text(p, s, lang) for s in p.steps]
    assert len(texts) == len(p.clue_ids)
    for s, t in zip(p.steps, texts, strict=True):
        assert str(s.position + 1) in t and str(len(s.removed)) in t
    assert place_name(island, p.answer, lang) in texts[-1]
    assert place_name(island, p.answer, lang) in answer_text(p, lang)
    assert not any(COORDS.search(t) for t in [*texts, answer_text(p, lang)])
    assert str(len(island)) in intro_text(p, lang)
    js = steps_json(p)
    assert [x["clue"] for x in js] == [s.position for s in p.steps]
    assert sum(len(x["removed"]) for x in js) == len(island) - 1


def test_why_cites_a_clue_that_really_excludes_the_space():
    island = ISLANDS[0]
    p = make_puzzle(island, random.Random(9), "hard")
    for h in island.index:
        if h == p.answer:
            assert "Right" in why_text(p, h)
            continue
        step = p.excluded_by(h)
        assert step is not None
        assert not clue_mask(island, p.clues[step.position]) >> island.bit[h] & 1
        assert f"Clue {step.position + 1} (" in why_text(p, h)
        assert f"線索 {step.position + 1}" in why_text(p, h, "zh")
    with pytest.raises(InvalidInput):
        why_text(p, Hex(0, 0), "fr")
