"""Clues: notation and JSON forms, their round-trip, every refused form, sentences, the deck."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexmap import InvalidInput
from hexmap.terrain import TERRAINS
from solver import DECK, Clue, all_clues, describe_clue, format_clue, parse_clue
from solver.clues import CLUE_CODES
from solver.deck import card

ALL = all_clues()


def test_examples_of_the_issue_parse_to_the_right_clue():
    assert parse_clue("in:jungle") == Clue("in", "jungle", None)
    assert parse_clue("!in:beach") == Clue("in", "beach", None, negated=True)
    assert parse_clue("in:largest:lake") == Clue("in", "lake", None, largest=True)
    assert parse_clue("near1:hut") == Clue("near", "hut", 1)
    assert parse_clue("!near2:sea") == Clue("near", "sea", 2, negated=True)
    assert parse_clue("near1:largest:grassland") == Clue("near", "grassland", 1, largest=True)


def test_json_object_form_with_defaults():
    obj = {"relation": "near", "target": "hut", "distance": 2, "largest": False, "negated": True}
    assert parse_clue(obj) == Clue("near", "hut", 2, negated=True)
    assert parse_clue({"relation": "in", "target": "river"}) == Clue("in", "river", None)
    assert parse_clue({"relation": "in", "target": "river", "distance": None}).distance is None


def test_every_valid_clue_is_counted_once():
    # in: 6 terrains × largest 2 × negated 2; near d: (6 terrains × 2 + sea + 3 landmarks) × 2
    assert len(ALL) == 24 + 2 * (12 + 4) * 2
    assert len({c.code for c in ALL}) == len(ALL)
    assert all(0 <= c.code < CLUE_CODES for c in ALL)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALL))
def test_notation_round_trips(clue):
    text = format_clue(clue)
    assert text == clue.notation == str(clue)
    assert parse_clue(text) == clue
    assert format_clue(parse_clue(text)) == text


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALL))
def test_json_round_trips(clue):
    data = clue.to_json()
    assert set(data) == {"relation", "target", "distance", "largest", "negated"}
    assert parse_clue(data) == clue
    assert parse_clue(data).code == clue.code


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="!inear12:largestjunglbchvmoudsphtz ", max_size=30))
def test_any_text_parses_or_is_refused_cleanly(text):
    try:
        clue = parse_clue(text, "maps[0].clues[2]")
    except InvalidInput as e:
        assert e.field == "maps[0].clues[2]"
        assert repr(text) in e.message
    else:
        assert format_clue(clue) == text


REFUSED_NOTATION = [
    ("in:palm", "terrain"),  # in with a landmark
    ("in:hut", "terrain"),
    ("in:statue", "terrain"),
    ("in:sea", "terrain"),  # in with the sea
    ("!in:sea", "terrain"),
    ("in:largest:sea", "largest"),  # largest with a non-terrain target
    ("near1:largest:hut", "largest"),
    ("near2:largest:sea", "largest"),
    ("in:largest:palm", "terrain"),
    ("near3:hut", "distance"),  # distance other than 1 or 2
    ("near0:hut", "distance"),
    ("near:hut", "distance"),
    ("near12:hut", "distance"),
    ("in1:jungle", "expected"),  # a distance on in
    ("in2:jungle", "expected"),
    ("at:jungle", "expected"),  # unknown names
    ("in:jungel", "unknown target"),
    ("near1:volcano", "unknown target"),
    ("IN:jungle", "expected"),
    ("near1", "missing"),  # missing parts
    ("in:", "unknown target"),
    ("in", "missing"),
    ("", "expected"),
    ("!", "expected"),
    ("in:largest", "missing"),
    ("in:largest:", "unknown target"),
    ("!!in:jungle", "expected"),
    ("in:jungle:beach", "unexpected"),
    (" in:jungle", "expected"),
]


@pytest.mark.parametrize(("text", "why"), REFUSED_NOTATION)
def test_refused_notation_names_field_input_and_position(text, why):
    with pytest.raises(InvalidInput) as info:
        parse_clue(text, "maps[0].clues[2]")
    err = info.value
    assert err.field == "maps[0].clues[2]"
    assert repr(text) in err.message and "position" in err.message
    assert why in err.message


REFUSED_OBJECTS = [
    ({"relation": "in", "target": "hut"}, "maps[1].clues[0].target"),
    ({"relation": "in", "target": "sea"}, "maps[1].clues[0].target"),
    ({"relation": "in", "target": "jungle", "distance": 1}, "maps[1].clues[0].distance"),
    ({"relation": "near", "target": "hut"}, "maps[1].clues[0].distance"),
    ({"relation": "near", "target": "hut", "distance": 3}, "maps[1].clues[0].distance"),
    ({"relation": "near", "target": "hut", "distance": 0}, "maps[1].clues[0].distance"),
    ({"relation": "near", "target": "hut", "distance": "1"}, "maps[1].clues[0].distance"),
    ({"relation": "near", "target": "hut", "distance": 1.0}, "maps[1].clues[0].distance"),
    ({"relation": "near", "target": "hut", "distance": True}, "maps[1].clues[0].distance"),
    (
        {"relation": "near", "target": "sea", "distance": 1, "largest": True},
        "maps[1].clues[0].largest",
    ),
    (
        {"relation": "near", "target": "hut", "distance": 1, "largest": True},
        "maps[1].clues[0].largest",
    ),
    ({"relation": "in", "target": "lake", "largest": "yes"}, "maps[1].clues[0].largest"),
    ({"relation": "in", "target": "lake", "negated": 1}, "maps[1].clues[0].negated"),
    ({"relation": "within", "target": "lake"}, "maps[1].clues[0].relation"),
    ({"relation": "in", "target": "volcano"}, "maps[1].clues[0].target"),
    ({"relation": "in", "target": 3}, "maps[1].clues[0].target"),
    ({"relation": "in", "target": ["lake"]}, "maps[1].clues[0].target"),
    ({"target": "lake"}, "maps[1].clues[0].relation"),
    ({"relation": "in"}, "maps[1].clues[0].target"),
    ({}, "maps[1].clues[0].relation"),
    ({"relation": "in", "target": "lake", "colour": "red"}, "maps[1].clues[0].colour"),
]


@pytest.mark.parametrize(("obj", "field"), REFUSED_OBJECTS)
def test_refused_objects_name_the_field(obj, field):
    with pytest.raises(InvalidInput) as info:
        parse_clue(obj, "maps[1].clues[0]")
    assert info.value.field == field
    assert info.value.message


@pytest.mark.parametrize("value", [3, None, ["in:jungle"], 1.5, True])
def test_a_clue_is_a_string_or_an_object(value):
    with pytest.raises(InvalidInput) as info:
        parse_clue(value, "hand[3]")
    assert info.value.field == "hand[3]"


def test_building_an_invalid_clue_directly_is_refused():
    with pytest.raises(InvalidInput):
        Clue("in", "hut", None)
    with pytest.raises(InvalidInput):
        Clue("near", "jungle", 3)
    with pytest.raises(InvalidInput):
        Clue("near", "sea", 1, largest=True)


def test_english_sentences():
    assert describe_clue(parse_clue("!near2:hut")) == "Not within 2 spaces of a hut"
    assert describe_clue(parse_clue("near1:hut")) == "Within 1 space of a hut"
    assert describe_clue(parse_clue("in:jungle")) == "In the jungle"
    assert describe_clue(parse_clue("!in:beach")) == "Not on the beach"
    assert describe_clue(parse_clue("in:largest:lake")) == "In the largest lake"
    assert describe_clue(parse_clue("near2:sea")) == "Within 2 spaces of the sea"
    assert describe_clue(parse_clue("near1:largest:grassland")) == (
        "Within 1 space of the largest grassland"
    )


def test_chinese_sentences():
    assert describe_clue(parse_clue("!near2:hut"), "zh") == "不在距離小屋2格以內"
    assert describe_clue(parse_clue("in:jungle"), "zh") == "在樹林中"
    assert describe_clue(parse_clue("in:largest:lake"), "zh") == "在最大的湖泊區域內"
    assert describe_clue(parse_clue("near1:sea"), "zh") == "在距離海洋1格以內"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_clue_has_its_own_sentence(lang):
    sentences = [describe_clue(c, lang) for c in ALL]
    assert len(set(sentences)) == len(ALL)
    assert all(s.strip() == s and s for s in sentences)


def test_unknown_language_is_refused():
    with pytest.raises(InvalidInput):
        describe_clue(ALL[0], "fr")


def test_the_deck_has_the_52_cards_of_the_rules():
    assert len(DECK) == 52
    kinds = Counter(
        ("in" if c.relation == "in" else f"near{c.distance}", c.largest, c.negated) for c in DECK
    )
    assert kinds == {
        ("in", False, False): 6,
        ("in", False, True): 6,
        ("in", True, False): 6,
        ("near1", False, False): 10,
        ("near2", False, False): 10,
        ("near1", False, True): 7,
        ("near2", False, True): 7,
    }
    assert {c.target for c in DECK if c.relation == "in"} == set(TERRAINS)
    near = {"sea", "palm", "hut", "statue", "lake", "river"}  # in both, with one terrain more
    assert {c.target for c in DECK if c.notation.startswith("!near1")} == near | {"mountain"}
    assert {c.target for c in DECK if c.notation.startswith("!near2")} == near | {"jungle"}
    assert card(0) == DECK[0]
    with pytest.raises(InvalidInput):
        card(52)
