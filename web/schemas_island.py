"""Pydantic models of islands on the wire, shared by every API that sends or receives one.

``IslandModel`` is the public JSON form (``{"name", "spaces", "landmarks"}``, the shape
``hexmap.island_json`` loads); ``IslandSpecIn`` is what a request may send to name an island
(``{"name"}``, ``{"generated"}`` or the full form), resolved by ``hexmap.catalog.island_from_spec``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from hexmap.catalog import builtin_names
from hexmap.island_json import MAX_COORDINATE, MAX_SPACES
from hexmap.seeds import SEED_LIMIT

Terrain = Literal["jungle", "beach", "river", "lake", "mountain", "grassland"]
LandmarkKind = Literal["palm", "hut", "statue"]
#: A space's coordinate (``hexmap.island_json.MAX_COORDINATE`` either way).
Coordinate = Annotated[StrictInt, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]


class SpaceModel(BaseModel):
    """One island space: axial coordinates and terrain."""

    model_config = ConfigDict(extra="forbid")

    q: Coordinate
    r: Coordinate
    terrain: Terrain


class LandmarkModel(BaseModel):
    """A landmark; ``facing`` (0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE) is given for statues only."""

    model_config = ConfigDict(extra="forbid")

    q: Coordinate
    r: Coordinate
    kind: LandmarkKind
    facing: StrictInt | None = Field(default=None, ge=0, le=5, description="Statues only")


class IslandModel(BaseModel):
    """The public JSON form of an island (landmarks placed)."""

    name: str | None = Field(default=None, description="classic-N or generated-SEED")
    spaces: list[SpaceModel]
    landmarks: list[LandmarkModel]


class IslandSummary(BaseModel):
    name: str = Field(description="A built-in island name, e.g. classic-3")
    spaces: int = Field(description="How many island spaces it has")
    pieces: list[str] = Field(description="The board pieces, left to right")
    url: str = Field(description="Its JSON form")
    svg_url: str = Field(description="Its picture")


class IslandListModel(BaseModel):
    names: list[str] = Field(description="The built-in island names, classic-1 … classic-6")
    islands: list[IslandSummary]
    generated_url: str = Field(description="URL template of a generated island ({seed})")


def _three_forms(schema: dict[str, Any]) -> None:
    """The description of ``IslandSpecIn``: exactly one of the forms ``hexmap.catalog.
    island_from_spec`` reads (the model's fields are their union, and the catalog refuses a
    mixture), so a body the description allows names an island or describes one in full."""
    props = schema["properties"]
    seed = {"type": "integer", "minimum": 0, "maximum": SEED_LIMIT - 1}
    by_name = {
        "title": "IslandByName",
        "type": "object",
        "additionalProperties": False,
        "required": ["name"],
        "properties": {
            "name": {"enum": builtin_names(), "description": props["name"]["description"]},
            "landmarks_seed": {**seed, "description": "Landmark placement seed (default 0)"},
        },
    }
    by_seed = {
        "title": "IslandBySeed",
        "type": "object",
        "additionalProperties": False,
        "required": ["generated"],
        "properties": {
            "generated": {**seed, "description": props["generated"]["description"]},
            "landmarks_seed": {
                "anyOf": [seed, {"type": "null"}],
                "description": "Landmark placement seed (default: the island's seed)",
            },
        },
    }
    spaces = next(s for s in props["spaces"]["anyOf"] if s.get("type") == "array")
    landmarks = next(s for s in props["landmarks"]["anyOf"] if s.get("type") == "array")
    in_full = {
        "title": "IslandInFull",
        "type": "object",
        "additionalProperties": False,
        "required": ["spaces"],
        "properties": {
            "spaces": {**spaces, "minItems": 1, "maxItems": MAX_SPACES},
            "landmarks": landmarks,
            "name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
    }
    description = schema.get("description", "")
    schema.clear()
    schema.update({"description": description, "oneOf": [by_name, by_seed, in_full]})


class IslandSpecIn(BaseModel):
    """One of three forms: ``{"name"}``, ``{"generated"}`` (each with an optional
    ``landmarks_seed``) or the full form ``{"spaces", "landmarks"}``."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_three_forms)

    name: StrictStr | None = Field(default=None, description="A built-in island, e.g. classic-3")
    generated: StrictInt | None = Field(
        default=None, ge=0, lt=SEED_LIMIT, description="Seed of a generated island"
    )
    landmarks_seed: StrictInt | None = Field(
        default=None,
        ge=0,
        lt=SEED_LIMIT,
        description="Landmark placement seed (default: 0 for a built-in island, the seed for a "
        "generated one)",
    )
    spaces: list[SpaceModel] | None = None
    landmarks: list[LandmarkModel] | None = None
