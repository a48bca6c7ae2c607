"""Every integer of a request is bounded, and the API description says the bounds (issue 44,
item 1): a move's version below 2^53, each game's actions with its own limits (components
``Actions_<game>``, their parts ``Action_<game>_<part>``), coordinates, the names' pattern."""

from __future__ import annotations

import re

from games.dragons_gold.data import TOKEN_COUNTS
from games.isla_dorada.actions import MAX_BID
from hexmap.island_json import MAX_COORDINATE
from solver.deck import DECK_SIZE
from web.openapi import build_openapi
from web.schemas_games import MAX_VERSION
from web.text_rules import name_pattern

DOC = build_openapi()
SCHEMAS = DOC["components"]["schemas"]


def _part(kind: str, name: str) -> dict:
    return SCHEMAS[f"Action_{kind}_{name}"]["properties"]


def test_the_version_and_the_games_own_limits_are_described():
    assert SCHEMAS["ActionIn"]["properties"]["version"]["maximum"] == MAX_VERSION
    assert _part("tobago", "PlayClue")["card"]["maximum"] == DECK_SIZE - 1
    assert _part("tobago", "ExtraMarker")["clue"]["maximum"] == DECK_SIZE - 1
    assert _part("tobago", "Drive")["to"]["items"]["maximum"] == MAX_COORDINATE
    assert _part("isla_dorada", "Bid")["value"]["maximum"] == MAX_BID
    tokens = _part("dragons_gold", "Offer")["give"]["properties"]
    assert {c: t["maximum"] for c, t in tokens.items()} == TOKEN_COUNTS


def test_every_reference_in_the_description_resolves():
    text = str(DOC)
    for ref in set(re.findall(r"#/components/schemas/([A-Za-z0-9_.-]+)", text)):
        assert ref in SCHEMAS, ref


def _integers(schema, path=""):
    """Every integer schema in ``schema`` with its path (but in a condition: ``not``, ``if``,
    ``then``, which say which options are given, not their values)."""
    if any(f"/{word}/" in f"{path}/" for word in ("not", "if", "then")):
        return
    if isinstance(schema, dict):
        if schema.get("type") == "integer":
            yield path, schema
        for key, value in schema.items():
            yield from _integers(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            yield from _integers(value, f"{path}/{i}")


def test_every_integer_a_request_sends_is_bounded_both_ways():
    requests = [
        op["requestBody"]["content"]["application/json"]["schema"]
        for path in DOC["paths"].values()
        for op in path.values()
        if "requestBody" in op
    ]
    requests += [
        p["schema"]
        for path in DOC["paths"].values()
        for op in path.values()
        for p in op.get("parameters", [])
    ]
    requests += [s for name, s in SCHEMAS.items() if name.endswith("In") or "Action" in name]
    requests += [
        s for name, s in SCHEMAS.items() if name.startswith(("CreateGame_", "GameRecord_"))
    ]
    found = 0
    for schema in requests:
        for path, integer in _integers(schema):
            found += 1
            assert "maximum" in integer or "exclusiveMaximum" in integer, (path, integer)
            assert "minimum" in integer or "exclusiveMinimum" in integer, (path, integer)
    assert found > 40


def test_names_are_described_by_the_rule_of_text_fit_to_show():
    assert SCHEMAS["ClaimIn"]["properties"]["name"]["pattern"] == name_pattern()
    assert SCHEMAS["SignUpIn"]["properties"]["name"]["pattern"] == name_pattern()
