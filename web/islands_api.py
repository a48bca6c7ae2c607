"""Islands over HTTP: the built-in list, one island as JSON or SVG (one blueprint, auto-registered).

- ``GET /api/tobago/islands`` — the built-in names (``classic-1`` … ``classic-6``) with links;
- ``GET /api/tobago/islands/<name>[.svg]`` — a built-in island, landmarks from
  ``?landmarks_seed=N`` (default 0);
- ``GET /api/tobago/islands/generated/<seed>[.svg]`` — a generated island, landmarks from
  ``?landmarks_seed=N`` (default: the island's own seed).

The JSON is the public island form (``{"name", "spaces", "landmarks"}``), which can be sent back
as an island spec. SVG pictures accept ``?coords=1`` to write coordinates in the hexes. Unknown
names are 404, malformed seeds 400, both with the shared error shape. The view only converts:
islands come from ``hexmap.catalog`` (cached there), pictures from ``hexmap.svg``.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from errors import InvalidInput
from hexmap.boards import arrangement
from hexmap.catalog import builtin_names, classic_island, generated_island
from hexmap.island import Island
from hexmap.seeds import parse_seed
from hexmap.svg import render_svg
from web.apidoc import SEED_SCHEMA, ApiRoutes, path_param, query_param
from web.schemas_island import IslandListModel, IslandModel

bp = Blueprint("islands_api", __name__)
api = ApiRoutes(bp, "islands")
BASE = "/api/tobago/islands"
#: Islands never change: clients and proxies may keep them for a day.
CACHE_CONTROL = "public, max-age=86400"

P_NAME = path_param("name", {"type": "string", "enum": builtin_names()}, "A built-in island")
P_SEED = path_param("seed", SEED_SCHEMA, "The generated island's seed")
P_LANDMARKS_SEED = query_param(
    "landmarks_seed",
    SEED_SCHEMA,
    "Landmark placement seed (default: 0 for a built-in island, the island's "
    "seed for a generated one)",
)
P_COORDS = query_param(
    "coords",
    {"type": "string", "enum": ["1", "0", "true", "false"], "default": "0"},
    "Write q,r in every hex",
)
E400 = "Malformed seed, landmarks_seed or coords (the field is named)"
E404 = "No built-in island of that name"


def _landmarks_seed() -> int | None:
    text = request.args.get("landmarks_seed")
    return None if text is None else parse_seed(text, "landmarks_seed")


def _coords() -> bool:
    text = request.args.get("coords", "0").strip().lower()
    if text not in ("1", "0", "true", "false"):
        raise InvalidInput(f"coords must be 1, 0, true or false, got {text!r}", "coords")
    return text in ("1", "true")


def _json(island: Island) -> Response:
    resp = jsonify({"name": island.name, **island.to_json()})
    resp.headers["Cache-Control"] = CACHE_CONTROL
    return resp


def _svg(island: Island) -> Response:
    resp = Response(render_svg(island, show_coords=_coords()), mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = CACHE_CONTROL
    return resp


def _classic(name: str) -> Island:
    seed = _landmarks_seed()
    return classic_island(name, 0 if seed is None else seed)


def _generated(seed: str) -> Island:
    return generated_island(parse_seed(seed, "seed"), _landmarks_seed())


@api.get(BASE, "The built-in islands", response=IslandListModel)
def list_islands() -> Response:
    names = builtin_names()
    return jsonify(
        {
            "names": names,
            "islands": [
                {
                    "name": n,
                    "spaces": len(classic_island(n)),
                    "pieces": arrangement(n),
                    "url": f"{BASE}/{n}",
                    "svg_url": f"{BASE}/{n}.svg",
                }
                for n in names
            ],
            "generated_url": f"{BASE}/generated/{{seed}}",
        }
    )


@api.get(
    f"{BASE}/{{name}}",
    "A built-in island with its landmarks (JSON form)",
    response=IslandModel,
    params=[P_NAME, P_LANDMARKS_SEED],
    errors={400: E400, 404: E404},
)
def island_json(name: str) -> Response:
    return _json(_classic(name))


@api.get(
    f"{BASE}/{{name}}.svg",
    "A built-in island as an SVG picture",
    params=[P_NAME, P_LANDMARKS_SEED, P_COORDS],
    errors={400: E400, 404: E404},
    content_type="image/svg+xml",
)
def island_svg(name: str) -> Response:
    return _svg(_classic(name))


@api.get(
    f"{BASE}/generated/{{seed}}",
    "A generated island with its landmarks (JSON form)",
    response=IslandModel,
    params=[P_SEED, P_LANDMARKS_SEED],
    errors={400: E400},
)
def generated_json(seed: str) -> Response:
    return _json(_generated(seed))


@api.get(
    f"{BASE}/generated/{{seed}}.svg",
    "A generated island as an SVG picture",
    params=[P_SEED, P_LANDMARKS_SEED, P_COORDS],
    errors={400: E400},
    content_type="image/svg+xml",
)
def generated_svg(seed: str) -> Response:
    return _svg(_generated(seed))
