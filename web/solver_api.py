"""``POST /api/tobago/solve``: candidates, explanations and legal plays for a Tobago position.

The body is validated against ``SolveIn`` (the same models document the route in OpenAPI), then
parsed into domain objects by ``solver.solve.parse_solve_request``, which checks what a schema
cannot (clue semantics, island validity, removed spaces on the island) and names the field at
fault (``maps[0].clues[2]``). The work itself is ``solver.solve``; this module only converts.

Lean on purpose: islands are built once per spec (named ones by the catalog, full ones by
``solver.solve``), clue masks once per island, and the island's JSON text once per island.
"""

from __future__ import annotations

from typing import Annotated, Literal

from flask import Blueprint, Response
from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    Tag,
)

from solver.clues import TARGETS
from solver.solve import (
    MAX_CLUES,
    MAX_HAND,
    MAX_MAPS,
    cached_island,
    island_key,
    parse_solve_request,
)
from solver.solve_text import solve_text
from web.apidoc import api_route, validated
from web.jsonbody import json_body
from web.schemas_island import IslandModel, IslandSpecIn

bp = Blueprint("solver_api", __name__)
TAG = "solver"

Target = Literal[TARGETS]  # type: ignore[valid-type]
Pair = Annotated[list[StrictInt], Field(min_length=2, max_length=2, description="[q, r]")]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SolveClueIn(_In):
    """A clue as an object (the notation string is the other form)."""

    relation: Literal["in", "near"]
    target: Target = Field(description="A terrain, sea, or a landmark kind (palm, hut, statue)")
    distance: StrictInt | None = Field(default=None, description="1 or 2 for near; none for in")
    largest: StrictBool = Field(default=False, description="The largest region (terrains only)")
    negated: StrictBool = False


def _clue_form(value: object) -> str | None:
    if isinstance(value, str):
        return "[notation]"
    if isinstance(value, dict | SolveClueIn):
        return "[object]"
    return None


#: A clue: notation (``!near2:sea``) or object. The tags are in brackets so error paths skip them.
ClueValue = Annotated[
    Annotated[
        StrictStr,
        Tag("[notation]"),
        Field(
            description="[!]in:[largest:]TERRAIN or [!]near1|near2:[largest:]TARGET",
            examples=["in:jungle", "!near2:sea", "near1:largest:grassland"],
        ),
    ]
    | Annotated[SolveClueIn, Tag("[object]")],
    Discriminator(
        _clue_form,
        custom_error_type="clue",
        custom_error_message="a clue is a notation string or an object",
    ),
]


class SolveMapIn(_In):
    id: StrictStr = Field(min_length=1, description="The map's colour or any unique id")
    clues: list[ClueValue] = Field(default_factory=list, max_length=MAX_CLUES)
    removed: list[Pair] = Field(default_factory=list, description="Markers removed with amulets")


class SolveOptionsIn(_In):
    near_includes_target: StrictBool = False
    treasure_on_landmarks: StrictBool = True


class SolveIn(_In):
    island: IslandSpecIn
    maps: list[SolveMapIn] = Field(max_length=MAX_MAPS)
    hand: list[ClueValue] = Field(default_factory=list, max_length=MAX_HAND)
    options: SolveOptionsIn | None = None


class SolveExcludedOut(BaseModel):
    space: list[int] = Field(description="[q, r]")
    by: int | Literal["removed", "landmark"] = Field(
        description="Index of the first clue that excludes the space; removed (an amulet); "
        "landmark (treasure_on_landmarks is false)"
    )


class SolveMapOut(BaseModel):
    id: str
    candidates: list[list[int]] = Field(description="Candidate spaces [q, r], sorted by (q, r)")
    count: int = Field(description="Number of candidates (0: a contradictory column)")
    excluded: list[SolveExcludedOut] = Field(description="Every other island space, sorted")


class SolvePlayOut(BaseModel):
    hand_index: int
    map: str
    legal: bool = Field(description="0 < |C ∩ S| < |C| (rules §3)")
    remaining: int = Field(description="|C ∩ S|, legal or not")


class SolveOut(BaseModel):
    island: IslandModel
    maps: list[SolveMapOut]
    plays: list[SolvePlayOut] = Field(description="One per hand card × map, hand order first")


@api_route(
    bp,
    "POST",
    "/api/tobago/solve",
    "Candidates of each treasure map, why every other space is out, and every hand card's "
    "legality on every map",
    TAG,
    request=SolveIn,
    response=SolveOut,
    errors={
        400: "Malformed request, a refused clue, a removed space off the island, an invalid "
        "island (the field is named)",
        404: "No built-in island of that name",
        413: "Body larger than 1 MiB",
    },
)
def solve_view() -> Response:
    data = json_body()
    # An island given in full that was validated and built before is not validated again:
    # the rest of the body is checked against the same model with an empty island in its place.
    island = cached_island(island_key(data.get("island")))
    if island is None:
        validated(SolveIn, data)
    else:
        validated(SolveIn, {**data, "island": {}})
    req = parse_solve_request(data, island)
    return Response(solve_text(req), mimetype="application/json")
