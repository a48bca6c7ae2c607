"""The bitmask engine and the python-constraint formulation agree (two independent formulations).

Hundreds of random small islands (random shapes, terrains and landmark placements), random clue
columns with amulet removals, random hands, under all four option combinations; plus a few
generated islands from the catalog (imported outright: if it cannot be imported, this fails).
"""

from __future__ import annotations

import random

import pytest

from hexmap import Island, catalog
from solver import DECK, MapColumn, SolverOptions, all_clues, evaluate, explain_column, legal_plays
from solver.constraint_model import ConstraintModel, constraint_candidates
from tests.islands import random_island, small_island

ALL = all_clues()
OPTIONS = [SolverOptions(a, b) for a in (False, True) for b in (False, True)]


def _random_position(rng: random.Random, island: Island):
    """Four maps of 0–6 clues with 0–2 removed spaces each, and a hand of 1–6 cards."""
    pool = ALL if rng.random() < 0.5 else list(DECK)
    maps = []
    for colour in ("white", "grey", "black", "brown"):
        clues = tuple(rng.sample(pool, rng.randint(0, 6)))
        removed = rng.sample(island.index, rng.randint(0, 2))
        maps.append((colour, clues, removed))
    hand = rng.sample(pool, rng.randint(1, 6))
    return maps, hand


def _check(island: Island, options: SolverOptions, maps, hand) -> None:
    model = ConstraintModel(island, options)
    fast = evaluate(
        island, [MapColumn(c, clues, island.mask_of(rm)) for c, clues, rm in maps], hand, options
    )
    slow = model.query([(clues, rm) for _, clues, rm in maps], hand)
    for f, (cands, n, remaining, legal) in zip(fast, slow, strict=True):
        _, candidates, count, left = f
        assert set(island.spaces_of(candidates)) == cands
        assert count == n
        assert left == remaining
        assert legal_plays(f) == legal


@pytest.mark.parametrize("seed", range(300))
def test_engine_agrees_with_constraint_model_on_random_islands(seed):
    rng = random.Random(seed)
    island = random_island(rng)
    options = OPTIONS[seed % 4]
    maps, hand = _random_position(rng, island)
    _check(island, options, maps, hand)


@pytest.mark.parametrize("options", OPTIONS)
def test_every_single_clue_agrees_on_the_small_island(options):
    island = small_island()
    model = ConstraintModel(island, options)
    for clue in ALL:
        fast = evaluate(island, [MapColumn("m", (clue,))], [], options)[0]
        assert set(island.spaces_of(fast[1])) == model.candidates([clue])


@pytest.mark.parametrize("seed", range(40))
def test_explanations_agree_with_constraint_model(seed):
    """Every excluded space really fails its named clue (by the constraint model), and passes
    every clue before it; every candidate passes every clue."""
    rng = random.Random(1000 + seed)
    island = random_island(rng)
    options = OPTIONS[seed % 4]
    clues = rng.sample(ALL, rng.randint(1, 6))
    removed = rng.sample(island.index, rng.randint(0, 3))
    model = ConstraintModel(island, options)
    preds = [model.predicate(c) for c in clues]
    exp = explain_column(island, clues, island.mask_of(removed), options)
    assert set(island.spaces_of(exp.candidates)) == constraint_candidates(
        island, clues, removed, options
    )
    for space, why in exp.excluded:
        s = (space.q, space.r)
        if why == "landmark":
            assert s not in model.domain
            continue
        assert s in model.domain
        if why == "removed":
            assert all(p(s) for p in preds) and s in removed
        else:
            assert all(p(s) for p in preds[:why]) and not preds[why](s)
    assert len(exp.excluded) + exp.count == len(island)


def test_generated_islands_from_the_catalog_agree():
    rng = random.Random(7)
    for seed in (1, 2):
        island = catalog.generated_island(seed)
        for options in OPTIONS[:2]:
            maps, hand = _random_position(rng, island)
            _check(island, options, maps, hand)
