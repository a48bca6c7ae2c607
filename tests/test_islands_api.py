"""The islands API: list, built-in and generated islands as JSON and SVG, errors in one shape."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from hexmap.catalog import classic_island, generated_island, island_from_spec
from web.apidoc import ROUTES
from web.schemas_island import IslandListModel, IslandModel, IslandSpecIn

BASE = "/api/tobago/islands"


def error_of(resp, status: int) -> dict:
    assert resp.status_code == status
    assert resp.mimetype == "application/json"
    err = resp.get_json()["error"]
    assert set(err) >= {"code", "message", "field"} and err["message"]
    return err


def test_list_names_the_builtin_islands(client):
    resp = client.get(BASE)
    assert resp.status_code == 200
    body = IslandListModel.model_validate(resp.get_json())
    assert body.names == [f"classic-{i}" for i in range(1, 7)]
    assert [i.name for i in body.islands] == body.names
    first = body.islands[0]
    assert first.url == f"{BASE}/classic-1" and first.svg_url == f"{BASE}/classic-1.svg"
    assert first.spaces == len(classic_island("classic-1"))
    assert sorted(first.pieces) == ["a", "b", "c"]
    assert body.generated_url == f"{BASE}/generated/{{seed}}"


@pytest.mark.parametrize("name", [f"classic-{i}" for i in range(1, 7)])
def test_builtin_island_json_is_the_public_form(client, name):
    resp = client.get(f"{BASE}/{name}")
    assert resp.status_code == 200
    data = resp.get_json()
    IslandModel.model_validate(data)
    island = classic_island(name)
    assert data == {"name": name, **island.to_json()}
    # the answer can be sent back as an island spec and names the same island
    assert island_from_spec(data).to_json() == island.to_json()
    assert "max-age" in resp.headers["Cache-Control"]


def test_landmarks_seed_moves_the_landmarks(client):
    data = client.get(f"{BASE}/classic-2?landmarks_seed=5").get_json()
    assert data["landmarks"] == classic_island("classic-2", 5).to_json()["landmarks"]
    assert data["spaces"] == classic_island("classic-2").to_json()["spaces"]


def test_generated_island_json(client):
    data = client.get(f"{BASE}/generated/42").get_json()
    assert data == {"name": "generated-42", **generated_island(42).to_json()}
    other = client.get(f"{BASE}/generated/42?landmarks_seed=0").get_json()
    assert other["landmarks"] == generated_island(42, 0).to_json()["landmarks"]
    big = client.get(f"{BASE}/generated/{2**63 - 1}")
    assert big.status_code == 200 and big.get_json()["name"] == f"generated-{2**63 - 1}"


@pytest.mark.parametrize(
    "url", [f"{BASE}/classic-3.svg", f"{BASE}/generated/7.svg", f"{BASE}/classic-1.svg?coords=1"]
)
def test_svg_pictures(client, url):
    resp = client.get(url)
    assert resp.status_code == 200 and resp.mimetype == "image/svg+xml"
    root = ET.fromstring(resp.get_data(as_text=True))
    assert root.tag.endswith("svg")
    hexes = root.findall(".//{http://www.w3.org/2000/svg}polygon[@data-q]")
    assert hexes
    coords = root.findall(".//{http://www.w3.org/2000/svg}text")
    assert bool(coords) == url.endswith("coords=1")


def test_svg_landmarks_follow_the_seed(client):
    svg = client.get(f"{BASE}/generated/7.svg?landmarks_seed=3").get_data(as_text=True)
    root = ET.fromstring(svg)
    statues = [
        (int(g.get("data-q")), int(g.get("data-r")))
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if g.get("class") == "landmark statue"
    ]
    assert statues == [tuple(lm.space) for lm in generated_island(7, 3).landmarks_of("statue")]


@pytest.mark.parametrize(
    ("url", "status", "field", "code"),
    [
        (f"{BASE}/classic-7", 404, "name", "not_found"),
        (f"{BASE}/atlantis.svg", 404, "name", "not_found"),
        (f"{BASE}/generated", 404, "name", "not_found"),
        (f"{BASE}/generated/-1", 400, "seed", "invalid"),
        (f"{BASE}/generated/4.5", 400, "seed", "invalid"),
        (f"{BASE}/generated/abc.svg", 400, "seed", "invalid"),
        (f"{BASE}/generated/{2**63}", 400, "seed", "invalid"),
        (f"{BASE}/generated/99999999999999999999999", 400, "seed", "invalid"),
        (f"{BASE}/classic-1?landmarks_seed=x", 400, "landmarks_seed", "invalid"),
        (f"{BASE}/classic-1.svg?landmarks_seed=-3", 400, "landmarks_seed", "invalid"),
        (f"{BASE}/generated/3?landmarks_seed=", 400, "landmarks_seed", "invalid"),
        (f"{BASE}/classic-1.svg?coords=maybe", 400, "coords", "invalid"),
        (f"{BASE}/classic-1/extra", 404, None, "not_found"),
    ],
)
def test_errors_have_the_shared_shape(client, url, status, field, code):
    err = error_of(client.get(url), status)
    assert err["field"] == field and err["code"] == code


def test_wrong_method_is_json_405(client):
    err = error_of(client.post(f"{BASE}/classic-1"), 405)
    assert err["code"] == "method_not_allowed"
    error_of(client.delete(BASE), 405)


def test_routes_are_documented_with_models():
    documented = {(r.method, r.path): r for r in ROUTES if r.tag == "islands"}
    assert documented[("get", BASE)].response is IslandListModel
    assert documented[("get", f"{BASE}/{{name}}")].response is IslandModel
    assert documented[("get", f"{BASE}/generated/{{seed}}")].response is IslandModel
    assert documented[("get", f"{BASE}/{{name}}.svg")].content_type == "image/svg+xml"
    assert documented[("get", f"{BASE}/generated/{{seed}}.svg")].content_type == "image/svg+xml"
    assert 404 in documented[("get", f"{BASE}/{{name}}")].errors


def test_spec_model_accepts_the_three_forms():
    IslandSpecIn.model_validate({"name": "classic-3"})
    IslandSpecIn.model_validate({"generated": 42, "landmarks_seed": 1})
    IslandSpecIn.model_validate(classic_island("classic-1").to_json())
    with pytest.raises(ValueError):
        IslandSpecIn.model_validate({"generated": -1})
    with pytest.raises(ValueError):
        IslandSpecIn.model_validate({"spaces": [{"q": 0, "r": 0, "terrain": "snow"}]})
