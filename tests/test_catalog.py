"""The island catalog: names, seeds and specs that every other layer uses to name an island."""

from __future__ import annotations

import pytest

from hexmap import InvalidInput, NotFound
from hexmap.catalog import (
    builtin_names,
    classic_island,
    generated_island,
    island_by_name,
    island_from_spec,
)


def test_builtin_names():
    assert builtin_names() == [f"classic-{i}" for i in range(1, 7)]


def test_classic_island_default_and_other_landmark_seeds():
    a = classic_island("classic-2")
    assert a.name == "classic-2" and len(a.landmarks) == 10
    assert classic_island("classic-2", 0) is a  # cached: islands are immutable
    b = classic_island("classic-2", 9)
    assert b.index == a.index and b.landmarks != a.landmarks


def test_generated_island_landmarks_default_to_its_seed():
    g = generated_island(42)
    assert g.name == "generated-42"
    assert generated_island(42, 42).landmarks == g.landmarks
    other = generated_island(42, 7)
    assert other.index == g.index and other.landmarks != g.landmarks
    assert generated_island(42, 7) is other


def test_island_by_name_forms():
    assert island_by_name("classic-4") is classic_island("classic-4")
    assert island_by_name("generated-5").to_json() == generated_island(5).to_json()
    assert island_by_name("generated:5", 3).landmarks == generated_island(5, 3).landmarks
    with pytest.raises(InvalidInput) as e:
        island_by_name("generated:x")
    assert e.value.field == "name"


def test_spec_forms():
    assert island_from_spec({"name": "classic-3"}) is classic_island("classic-3")
    assert island_from_spec({"name": "classic-3", "landmarks_seed": 4}) is classic_island(
        "classic-3", 4
    )
    assert island_from_spec({"generated": 42}) is generated_island(42)
    assert island_from_spec({"generated": 42, "landmarks_seed": 1}) is generated_island(42, 1)
    full = classic_island("classic-1").to_json()
    again = island_from_spec(full)
    assert again.to_json() == full


SPEC_ERRORS = [
    ("classic-3", InvalidInput, "island", "must be an object"),
    ({}, InvalidInput, "island", 'give "name"'),
    ({"name": "classic-9"}, NotFound, "island.name", "no built-in island named 'classic-9'"),
    ({"name": 3}, InvalidInput, "island.name", "must be a string"),
    ({"name": "classic-1", "landmarks_seed": -1}, InvalidInput, "island.landmarks_seed", "seed"),
    (
        {"name": "classic-1", "landmarks_seed": True},
        InvalidInput,
        "island.landmarks_seed",
        "integer",
    ),
    ({"name": "classic-1", "size": 3}, InvalidInput, "island.size", "unknown field"),
    ({"generated": "42"}, InvalidInput, "island.generated", "must be an integer"),
    ({"generated": 2**63}, InvalidInput, "island.generated", "between 0 and 2**63 - 1"),
    ({"generated": False}, InvalidInput, "island.generated", "must be an integer"),
    ({"generated": 1, "landmarks_seed": 1.5}, InvalidInput, "island.landmarks_seed", "integer"),
    ({"generated": 1, "name": "classic-1"}, InvalidInput, "island", "not both"),
    (
        {"spaces": [{"q": 0, "r": 0, "terrain": "snow"}]},
        InvalidInput,
        "island.spaces[0].terrain",
        "unknown terrain",
    ),
]


@pytest.mark.parametrize(("spec", "error", "field", "message"), SPEC_ERRORS)
def test_spec_errors_name_the_field(spec, error, field, message):
    with pytest.raises(error) as e:
        island_from_spec(spec)
    assert e.value.field == field
    assert message in e.value.message


def test_spec_field_prefix_is_the_callers():
    with pytest.raises(InvalidInput) as e:
        island_from_spec({"generated": -2}, field="games[1].island")
    assert e.value.field == "games[1].island.generated"


@pytest.mark.parametrize("seed", [-1, 2**63, True, "3", 2.0])
def test_generated_island_refuses_bad_seeds(seed):
    with pytest.raises(InvalidInput) as e:
        generated_island(seed)
    assert e.value.field == "seed"
    with pytest.raises(InvalidInput) as e:
        generated_island(3, seed)
    assert e.value.field == "landmarks_seed"


def test_classic_island_refuses_non_string_names():
    with pytest.raises(NotFound) as e:
        classic_island(3)  # type: ignore[arg-type]
    assert e.value.field == "name"
