"""``POST /api/tobago/solve``: candidates, explanations and legal plays for a Tobago position.

The body is validated once, by ``solver.solve.parse_solve_request`` (plain Python, shared with
the CLI): types, limits, clue semantics, island validity and removed spaces, each error naming
its field (``maps[0].clues[2]``). The pydantic models below describe the same body and answer in
OpenAPI; ``tests/test_solve_api.py`` checks that they and the parser accept and refuse the same
bodies. The answer is ``solver.answer.answer_text``; this module only converts. The route is
served on the lean path (``web.lean``: no Flask request machinery) and by Flask (chunked bodies,
oversized ones), both through ``solve_text``.

Lean on purpose: islands are kept by the catalog, compiled masks and the answer's text pieces by
``solver.compiled``; ``"include_island": false`` skips echoing an island the client has.
"""

from __future__ import annotations

from typing import Annotated, Literal

from flask import Blueprint, Response
from pydantic import BaseModel, Discriminator, Field, StrictBool, StrictInt, StrictStr, Tag

from solver.answer import answer_text
from solver.clues import TARGETS
from solver.solve import MAX_CLUES, MAX_HAND, MAX_MAPS, MAX_REMOVED, parse_solve_request
from web.apidoc import ApiRoutes, StrictIn
from web.jsonbody import parse_json, request_bytes
from web.lean import lean_route
from web.schemas_island import Coordinate, IslandModel, IslandSpecIn

bp = Blueprint("solver_api", __name__)
api = ApiRoutes(bp, "solver")

Target = Literal[TARGETS]  # type: ignore[valid-type]
Pair = Annotated[list[Coordinate], Field(min_length=2, max_length=2, description="[q, r]")]


class SolveClueIn(StrictIn):
    """A clue as an object (the notation string is the other form)."""

    relation: Literal["in", "near"]
    target: Target = Field(description="A terrain, sea, or a landmark kind (palm, hut, statue)")
    distance: StrictInt | None = Field(
        default=None, ge=1, le=2, description="1 or 2 for near; none for in"
    )
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


class SolveMapIn(StrictIn):
    id: StrictStr = Field(min_length=1, description="The map's colour or any unique id")
    clues: list[ClueValue] = Field(default_factory=list, max_length=MAX_CLUES)
    removed: list[Pair] = Field(
        default_factory=list, max_length=MAX_REMOVED, description="Markers removed with amulets"
    )


class SolveOptionsIn(StrictIn):
    near_includes_target: StrictBool = False
    treasure_on_landmarks: StrictBool = True


class SolveIn(StrictIn):
    island: IslandSpecIn
    maps: list[SolveMapIn] = Field(max_length=MAX_MAPS)
    hand: list[ClueValue] = Field(default_factory=list, max_length=MAX_HAND)
    options: SolveOptionsIn | None = None
    include_island: StrictBool = Field(
        default=True,
        description="Echo the island's JSON form in the answer (false: leave it out, for a "
        "client that has it already, e.g. polling positions on a named island)",
    )


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
    island: IslandModel | None = Field(
        default=None, description="The island's JSON form (absent when include_island is false)"
    )
    maps: list[SolveMapOut]
    plays: list[SolvePlayOut] = Field(description="One per hand card × map, hand order first")


@api.post(
    "/api/tobago/solve",
    "Candidates of each treasure map, why every other space is out, and every hand card's "
    "legality on every map",
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
    return Response(solve_text(request_bytes()), mimetype="application/json")


def solve_text(body: bytes) -> str:
    """The answer's JSON text to a solve request's body: parsed once, validated once into the
    domain request (``solver.solve``), answered (``solver.answer``)."""
    return answer_text(parse_solve_request(parse_json(body)))


lean_route("POST", "/api/tobago/solve", solve_text)
