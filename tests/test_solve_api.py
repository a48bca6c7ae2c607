"""``POST /api/tobago/solve``: the public contract, every kind of bad input (4xx naming the field,
never a 5xx), the island forms, and agreement with the domain answer (``solver.answer.answer_json``)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import all_clues, column_mask, parse_clue
from solver.answer import answer_json
from solver.solve import parse_solve_request
from tests.islands import small_island, small_island_json, small_white_map

URL = "/api/tobago/solve"


def post(client, body):
    if isinstance(body, bytes | str):
        return client.post(URL, data=body, content_type="application/json")
    return client.post(URL, json=body)


def small_request(**kw):
    body = {
        "island": small_island_json(),
        "maps": [
            small_white_map(),
            {
                "id": "grey",
                "clues": [{"relation": "in", "target": "river"}],
                "removed": [],
            },
        ],
        "hand": ["in:beach", {"relation": "near", "target": "hut", "distance": 1}],
    }
    body.update(kw)
    return body


def test_solve_known_answer_on_the_small_island(client):
    resp = post(client, small_request())
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    data = resp.get_json()
    assert data["island"] == small_island_json()
    white, grey = data["maps"]
    assert white["id"] == "white" and grey["id"] == "grey"
    # worked out by hand in tests/test_explain_hints.py
    assert white["candidates"] == [[-1, 1], [0, -1], [0, 1], [0, 2], [1, -1], [2, -1]]
    assert white["count"] == 6
    by = {tuple(e["space"]): e["by"] for e in white["excluded"]}
    assert by[(0, 0)] == 0 and by[(-1, 0)] == 1 and by[(1, 0)] == 2 and by[(2, 0)] == "removed"
    assert len(white["excluded"]) == 19 - 6
    assert grey["candidates"] == [[-1, 2], [0, 1], [0, 2]] and grey["count"] == 3
    # one play per hand card × map, hand order first
    assert [(p["hand_index"], p["map"]) for p in data["plays"]] == [
        (0, "white"),
        (0, "grey"),
        (1, "white"),
        (1, "grey"),
    ]
    plays = {(p["hand_index"], p["map"]): (p["legal"], p["remaining"]) for p in data["plays"]}
    assert plays[(0, "white")] == (True, 1)  # in:beach keeps (2,-1) only
    assert plays[(0, "grey")] == (False, 0)  # would remove every candidate
    assert plays[(1, "white")] == (True, 2)  # near1:hut keeps (-1,1) and (2,-1) of the 6
    assert plays[(1, "grey")] == (False, 0)


def test_excluded_is_ordered_by_reason_then_space(client):
    data = post(client, small_request(options={"treasure_on_landmarks": False})).get_json()
    excluded = data["maps"][0]["excluded"]
    rank = {"landmark": -1, "removed": 99}
    keys = [(rank.get(e["by"], e["by"]), e["space"]) for e in excluded]
    assert keys == sorted(keys)
    assert excluded[0]["by"] == "landmark"
    landmark_spaces = sorted([lm["q"], lm["r"]] for lm in small_island_json()["landmarks"])
    assert [e["space"] for e in excluded if e["by"] == "landmark"] == landmark_spaces


def test_contradictory_column_is_not_an_error(client):
    body = {"island": small_island_json(), "maps": [{"id": "w", "clues": ["in:lake", "!in:lake"]}]}
    data = post(client, body).get_json()
    assert data["maps"][0]["count"] == 0 and data["maps"][0]["candidates"] == []
    assert data["plays"] == []


def test_hand_and_options_are_optional_and_options_change_the_answer(client):
    body = {"island": small_island_json(), "maps": [{"id": "w", "clues": ["near1:palm"]}]}
    plain = post(client, body).get_json()["maps"][0]
    assert plain["count"] == 4
    body["options"] = {"near_includes_target": True}
    assert post(client, body).get_json()["maps"][0]["count"] == 5


@pytest.mark.parametrize(
    "spec",
    [{"name": "classic-2"}, {"name": "classic-2", "landmarks_seed": 5}, {"generated": 3}],
)
def test_named_and_generated_islands(client, spec):
    from hexmap.catalog import island_from_spec

    island = island_from_spec(spec)
    body = {"island": spec, "maps": [{"id": "w", "clues": ["near1:hut"]}], "hand": ["in:lake"]}
    data = post(client, body).get_json()
    assert data["island"] == island.to_json()
    expected = column_mask(island, [parse_clue("near1:hut")])
    assert data["maps"][0]["candidates"] == [[h.q, h.r] for h in island.spaces_of(expected)]


def test_api_agrees_with_domain_solve_on_random_requests(client):
    rng = random.Random(5)
    island = small_island()
    pool = all_clues()
    for k in range(60):
        body = {
            "island": small_island_json() if k % 2 else {"generated": 1 + k % 3},
            "maps": [
                {
                    "id": f"m{j}",
                    "clues": [
                        c.notation if rng.random() < 0.5 else c.to_json()
                        for c in rng.sample(pool, rng.randint(0, 5))
                    ],
                    "removed": [list(h) for h in rng.sample(island.index, rng.randint(0, 2))]
                    if k % 2
                    else [],
                }
                for j in range(rng.randint(1, 4))
            ],
            "hand": [c.notation for c in rng.sample(pool, rng.randint(0, 6))],
            "options": {
                "near_includes_target": rng.random() < 0.5,
                "treasure_on_landmarks": rng.random() < 0.5,
            },
        }
        resp = post(client, body)
        assert resp.status_code == 200
        assert resp.get_json() == answer_json(parse_solve_request(body))


def test_a_cached_full_island_still_gets_the_rest_of_the_body_validated(client):
    assert post(client, small_request()).status_code == 200
    resp = post(client, small_request(hand=["in:sea"]))
    assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "hand[0]"
    resp = post(client, small_request(hand=[7]))
    assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "hand[0]"
    resp = post(client, small_request(extra=1))
    assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "extra"


def _island_with(**changes):
    isl = small_island_json()
    isl.update(changes)
    return isl


BAD = [
    # (body, status, field)
    ({"maps": []}, 400, "island"),
    ({"island": {"name": "classic-1"}}, 400, "maps"),
    ({"island": {"name": "classic-1"}, "maps": {}}, 400, "maps"),
    ({"island": {"name": "classic-1"}, "maps": [3]}, 400, "maps[0]"),
    ({"island": {"name": "classic-1"}, "maps": [{"clues": []}]}, 400, "maps[0].id"),
    ({"island": {"name": "classic-1"}, "maps": [{"id": 5}]}, 400, "maps[0].id"),
    ({"island": {"name": "classic-1"}, "maps": [{"id": "a"}, {"id": "a"}]}, 400, "maps[1].id"),
    ({"island": {"name": "classic-1"}, "maps": [{"id": "a", "colour": 1}]}, 400, "maps[0].colour"),
    (
        {"island": {"name": "classic-1"}, "maps": [{"id": "a", "clues": "in:lake"}]},
        400,
        "maps[0].clues",
    ),
    ({"island": {"name": "classic-1"}, "maps": [], "hand": "in:lake"}, 400, "hand"),
    ({"island": {"name": "classic-1"}, "maps": [], "junk": 1}, 400, "junk"),
    ({"island": {"name": "classic-1"}, "maps": [], "options": []}, 400, "options"),
    ({"island": {"name": "classic-1"}, "maps": [], "options": {"fast": True}}, 400, "options.fast"),
    (
        {"island": {"name": "classic-1"}, "maps": [], "options": {"near_includes_target": 1}},
        400,
        "options.near_includes_target",
    ),
    ({"island": {"name": "classic-1"}, "maps": [{"id": str(i)} for i in range(17)]}, 400, "maps"),
    # islands
    ({"island": {"name": "atlantis"}, "maps": []}, 404, "island.name"),
    ({"island": {"name": 3}, "maps": []}, 400, "island.name"),
    ({"island": {"generated": "x"}, "maps": []}, 400, "island.generated"),
    ({"island": {"generated": -1}, "maps": []}, 400, "island.generated"),
    ({"island": {"name": "classic-1", "generated": 2}, "maps": []}, 400, "island"),
    ({"island": {}, "maps": []}, 400, "island"),
    ({"island": "classic-1", "maps": []}, 400, "island"),
    ({"island": {"name": "classic-1", "colour": 2}, "maps": []}, 400, "island.colour"),
    ({"island": {"spaces": []}, "maps": []}, 400, "island.spaces"),
    (
        {"island": _island_with(spaces=[{"q": 0, "r": 0, "terrain": "lava"}]), "maps": []},
        400,
        "island.spaces[0].terrain",
    ),
    (
        {"island": _island_with(spaces=[{"q": 0, "r": 0}]), "maps": []},
        400,
        "island.spaces[0].terrain",
    ),
    (
        {
            "island": {
                "spaces": [
                    {"q": 0, "r": 0, "terrain": "lake"},
                    {"q": 5, "r": 0, "terrain": "lake"},
                ]
            },
            "maps": [],
        },
        400,
        "island.spaces.lake",
    ),
    (
        {
            "island": _island_with(landmarks=[{"q": 9, "r": 9, "kind": "hut"}]),
            "maps": [],
        },
        400,
        "island.landmarks[0]",
    ),
    (
        {"island": _island_with(landmarks=[{"q": 0, "r": 0, "kind": "statue"}]), "maps": []},
        400,
        "island.landmarks[0].facing",
    ),
    (
        {
            "island": {"spaces": [{"q": i, "r": 0, "terrain": "lake"} for i in range(2001)]},
            "maps": [],
        },
        400,
        "island.spaces",
    ),
    # removed spaces
    (
        {"island": small_island_json(), "maps": [{"id": "w", "removed": [[9, 9]]}]},
        400,
        "maps[0].removed[0]",
    ),
    (
        {"island": small_island_json(), "maps": [{"id": "w", "removed": [[0, 0], [1]]}]},
        400,
        "maps[0].removed[1]",
    ),
    (
        {"island": small_island_json(), "maps": [{"id": "w", "removed": [[0, True]]}]},
        400,
        "maps[0].removed[0][1]",
    ),
]


@pytest.mark.parametrize(("body", "status", "field"), BAD)
def test_bad_input_is_refused_naming_the_field(client, body, status, field):
    resp = post(client, body)
    assert resp.status_code == status
    err = resp.get_json()["error"]
    assert err["field"] == field
    assert err["message"] and err["code"] in ("invalid", "not_found")


REFUSED_CLUES = [
    "in:palm",
    "in:sea",
    "in:largest:sea",
    "near1:largest:hut",
    "near3:hut",
    "near:hut",
    "in1:jungle",
    "in:volcano",
    "near2:",
    "",
    {"relation": "in", "target": "hut"},
    {"relation": "in", "target": "sea"},
    {"relation": "near", "target": "sea", "distance": 1, "largest": True},
    {"relation": "near", "target": "hut", "distance": 3},
    {"relation": "in", "target": "lake", "distance": 1},
    {"relation": "near", "target": "hut"},
    {"relation": "in"},
    {"target": "lake"},
    {"relation": "in", "target": "lake", "extra": 1},
    {"relation": "in", "target": "volcano"},
    5,
    None,
    ["in:lake"],
]


@pytest.mark.parametrize("clue", REFUSED_CLUES, ids=[json.dumps(c) for c in REFUSED_CLUES])
def test_every_refused_clue_is_a_400_naming_its_place(client, clue):
    body = {
        "island": {"name": "classic-1"},
        "maps": [{"id": "w", "clues": ["in:lake", "near1:hut", clue]}],
    }
    resp = post(client, body)
    assert resp.status_code == 400
    assert resp.get_json()["error"]["field"].startswith("maps[0].clues[2]")
    resp = post(client, {"island": {"name": "classic-1"}, "maps": [], "hand": ["in:lake", clue]})
    assert resp.status_code == 400
    assert resp.get_json()["error"]["field"].startswith("hand[1]")


@pytest.mark.parametrize("raw", [b"", b"not json", b"[1, 2]", b'"text"', b"{", b"\xff\xfe"])
def test_not_a_json_object_is_a_400_on_body(client, raw):
    resp = post(client, raw)
    assert resp.status_code == 400
    assert resp.get_json()["error"]["field"] == "body"


def test_a_body_over_1_mib_is_a_413(client):
    body = b'{"island": {"name": "classic-1"}, "maps": [], "pad": "' + b"x" * (1 << 20) + b'"}'
    resp = post(client, body)
    assert resp.status_code == 413
    assert resp.get_json()["error"]["code"] == "too_large"


def test_wrong_method_is_a_json_405(client):
    resp = client.get(URL)
    assert resp.status_code == 405 and resp.get_json()["error"]["code"] == "method_not_allowed"


def test_the_route_is_documented_in_openapi(client):
    resp = client.get("/openapi.json")
    if resp.status_code == 404:
        pytest.skip("no OpenAPI document in this build")
    doc = resp.get_json()
    op = doc["paths"]["/api/tobago/solve"]["post"]
    assert "requestBody" in op and "200" in op["responses"] and "400" in op["responses"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["in:lake", "w", "", "hut"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "island",
                    "maps",
                    "hand",
                    "options",
                    "id",
                    "clues",
                    "removed",
                    "name",
                    "generated",
                    "spaces",
                    "relation",
                    "target",
                    "distance",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=json_values)
def test_random_bodies_never_cause_a_5xx(client, body):
    resp = post(client, json.dumps(body))
    assert resp.status_code < 500
    if resp.status_code != 200:
        assert set(resp.get_json()["error"]) >= {"code", "message", "field"}


def test_response_text_memo_is_per_landmark_placement_and_options():
    """The column texts kept between requests belong to one island, landmark placement and
    option set: a landmark variant or other options never reuse them."""
    from hexmap import Hex, Landmark
    from solver import MapColumn, SolverOptions
    from solver.answer import answer_text
    from solver.solve import SolveRequest

    island = small_island()
    moved = island.with_landmarks([Landmark("hut", Hex(0, 0))])
    maps = (MapColumn("w", (parse_clue("near1:hut"),)),)
    hand = (parse_clue("in:lake"),)
    for isl in (island, moved, island, moved):
        for opts in (SolverOptions(), SolverOptions(True, False), SolverOptions()):
            req = SolveRequest(isl, maps, hand, opts)
            assert json.loads(answer_text(req)) == answer_json(req)


def test_include_island_false_leaves_the_island_out(client):
    body = {"island": {"generated": 3}, "maps": [{"id": "w", "clues": ["near1:hut"]}]}
    full = post(client, body).get_json()
    lean = post(client, {**body, "include_island": False}).get_json()
    assert "island" in full and "island" not in lean
    assert lean == {k: v for k, v in full.items() if k != "island"}
    assert post(client, {**body, "include_island": True}).get_json() == full
    resp = post(client, {**body, "include_island": 0})
    assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "include_island"
    assert answer_json(parse_solve_request({**body, "include_island": False})) == lean


def _schema_accepts(body) -> bool:
    from pydantic import ValidationError

    from web.solver_api import SolveIn

    try:
        SolveIn.model_validate(body)
    except ValidationError:
        return False
    return True


def _parser_accepts(body) -> bool:
    from errors import ProjectError

    try:
        parse_solve_request(body)
    except ProjectError:
        return False
    return True


def test_the_documented_schema_and_the_parser_agree_on_known_bodies():
    """One validation layer (the parser); the OpenAPI models describe it: whatever the parser
    accepts the schema accepts, and whatever the schema refuses the parser refuses."""
    bodies = [b for b, _, _ in BAD] + [
        small_request(),
        small_request(include_island=False),
        {"island": {"name": "classic-1"}, "maps": [{"id": "w", "clues": REFUSED_CLUES[:1]}]},
        {"island": {"generated": 2, "landmarks_seed": 4}, "maps": [], "options": {}},
        {"island": _island_with(spaces=[{"q": 0, "r": 0, "terrain": "lake", "x": 1}]), "maps": []},
        {"island": _island_with(landmarks=[{"q": 0, "r": 0, "kind": "hut", "x": 1}]), "maps": []},
        {"island": {"name": "classic-1"}, "maps": [{"id": "w", "removed": 0}]},
        {"island": {"name": "classic-1"}, "maps": [{"id": "w", "removed": None}]},
    ]
    for clue in REFUSED_CLUES:
        bodies.append({"island": {"name": "classic-1"}, "maps": [{"id": "w", "clues": [clue]}]})
    for body in bodies:
        if _parser_accepts(body):
            assert _schema_accepts(body), body


@settings(max_examples=300, deadline=None)
@given(body=json_values)
def test_the_schema_never_refuses_what_the_parser_accepts(body):
    if isinstance(body, dict) and _parser_accepts(body):
        assert _schema_accepts(body), body


def test_the_answer_memo_stays_within_its_bound_and_right(monkeypatch):
    """Past MEMO_BYTES the memo keeps only one-clue prefixes; answers never change."""
    import solver.answer as answer
    from solver import MapColumn, SolverOptions
    from solver.compiled import compile_island
    from solver.solve import SolveRequest

    monkeypatch.setattr(answer, "MEMO_BYTES", 20_000)
    island = small_island()
    rng = random.Random(9)
    pool = all_clues()
    opts = SolverOptions(False, False)  # a fresh compiled island for this test's options
    for _ in range(300):
        maps = tuple(
            MapColumn(f"m{j}", tuple(rng.sample(pool, rng.randint(1, 5)))) for j in range(3)
        )
        req = SolveRequest(island, maps, (), opts)
        assert json.loads(answer.answer_text(req)) == answer_json(req)
        memo = answer._memo(compile_island(island, opts))
        assert memo.nbytes <= answer.MEMO_BYTES
