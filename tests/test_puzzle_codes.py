"""Puzzle codes, seeded puzzles and the daily puzzle: round trips, determinism, refusals."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from errors import InvalidInput, NotFound

# --- codes, seeds, the daily puzzle (need the island catalog) ------------------------------
from hexmap import catalog
from solver.puzzles.clues import DIFFICULTIES
from solver.puzzles.codes import (
    IslandRef,
    daily_difficulty,
    daily_puzzle,
    parse_code,
    puzzle_code,
    puzzle_for_seed,
    puzzle_from_code,
    puzzle_on,
)
from tests.test_puzzles import _check_puzzle


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_seeded_puzzles_round_trip_through_their_code(difficulty):
    for seed in (0, 1, 5, 123456, 2**62 + 3):
        p = puzzle_for_seed(seed, difficulty)
        _check_puzzle(p, difficulty)
        code = puzzle_code(p)
        assert len(code) <= 32 and all(c.isalnum() or c in "-_" for c in code)
        q = puzzle_from_code(code)
        assert (q.clue_ids, q.answer, q.difficulty) == (p.clue_ids, p.answer, p.difficulty)
        assert q.island.to_json() == p.island.to_json()
        assert puzzle_for_seed(seed, difficulty).clue_ids == p.clue_ids  # deterministic


def test_minimal_and_builtin_codes_round_trip():
    name = catalog.builtin_names()[0]
    for d in DIFFICULTIES:
        p = puzzle_on(IslandRef(name=name, landmarks_seed=3), f"t/{d}", d, minimal=True)
        q = puzzle_from_code(puzzle_code(p))
        assert q.minimal and q.proof.clues == len(q.clue_ids) == len(p.clue_ids)
        assert q.island.name == p.island.name
    p = puzzle_for_seed(8, "hard", minimal=True)
    assert puzzle_from_code(puzzle_code(p)).proof.clues == p.proof.clues


@pytest.mark.parametrize(
    "code",
    ["", "!!!", "A", "AQ", "x" * 65, "AQEBAQAA", "ééé"],
)
def test_malformed_codes_are_refused_with_the_field_named(code):
    with pytest.raises(InvalidInput) as e:
        puzzle_from_code(code)
    assert e.value.field == "code"


def test_a_tampered_code_is_refused():
    code = puzzle_code(puzzle_for_seed(3, "easy"))
    flipped = code[:-2] + ("A" if code[-2] != "A" else "B") + code[-1]
    with pytest.raises((InvalidInput, NotFound)):
        puzzle_from_code(flipped)
    ref, ids, _ = parse_code(code)
    assert ref == IslandRef(seed=3)


def test_a_code_whose_clues_do_not_make_a_puzzle_is_not_found():
    import base64
    import zlib

    raw = bytes([1, 1, 3, 1, 0])  # generated island 3, one clue: "in jungle"
    raw += bytes([zlib.crc32(raw) & 0xFF])
    code = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    with pytest.raises(NotFound):
        puzzle_from_code(code)


def test_daily_puzzle_is_fixed_per_date_and_follows_the_weekday():
    monday = date(2025, 3, 3)
    seen = set()
    for k in range(7):
        day = monday + timedelta(days=k)
        p = daily_puzzle(day)
        assert p.difficulty == daily_difficulty(day)
        assert puzzle_code(daily_puzzle(day)) == puzzle_code(p)
        seen.add(puzzle_code(p))
    assert len(seen) == 7
    assert [daily_difficulty(monday + timedelta(days=k)) for k in range(7)] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "medium",
        "hard",
        "hard",
    ]


def test_an_island_without_a_puzzle_falls_back_to_other_landmarks(monkeypatch):
    import solver.puzzles.codes as pc

    real = pc.puzzle_on

    def picky(ref, rng_seed, difficulty, minimal=False):
        if ref.landmarks_seed is None:
            raise InvalidInput("no puzzle here", "difficulty")
        return real(ref, rng_seed, difficulty, minimal)

    monkeypatch.setattr(pc, "puzzle_on", picky)
    p = pc.puzzle_for_seed(14, "medium")
    assert p.source == IslandRef(seed=14, landmarks_seed=1)
    assert puzzle_from_code(puzzle_code(p)).clue_ids == p.clue_ids
    assert puzzle_from_code(puzzle_code(p)).island.landmarks == p.island.landmarks


def test_seed_260_hard_is_a_valid_puzzle_whatever_its_landmarks():
    p = puzzle_for_seed(260, "hard")
    _check_puzzle(p, "hard")
    assert p.difficulty == "hard"


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_many_seeds_give_valid_puzzles_of_the_asked_grade(difficulty):
    for seed in range(200, 240):
        p = puzzle_for_seed(seed, difficulty)
        _check_puzzle(p, difficulty)
        assert p.difficulty == difficulty
        assert puzzle_from_code(puzzle_code(p)).answer == p.answer
