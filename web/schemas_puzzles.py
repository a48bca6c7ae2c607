"""Pydantic models of the teaching-puzzle API (validation and OpenAPI in one place)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from web.apidoc import StrictIn
from web.schemas_island import Coordinate

Pair = list[int]


class CheckIn(StrictIn):
    space: list[Coordinate] = Field(
        min_length=2, max_length=2, description="The space the player picks, [q, r]"
    )
    lang: Literal["en", "zh"] | None = Field(
        default=None, description="Language of `why` (default: ?lang=, the lang cookie, or en)"
    )


class CheckOut(BaseModel):
    correct: bool
    why: str = Field(description="Why the space is (or is not) the answer, naming the clue")


class SpaceOut(BaseModel):
    q: int
    r: int
    terrain: str


class LandmarkOut(BaseModel):
    q: int
    r: int
    kind: str
    facing: int | None = None


class IslandSource(BaseModel):
    kind: Literal["builtin", "generated"]
    name: str | None = None
    seed: int | None = None
    landmarks_seed: int | None = None


class PuzzleIsland(BaseModel):
    name: str | None
    source: IslandSource
    spaces: list[SpaceOut]
    landmarks: list[LandmarkOut]


class ClueOut(BaseModel):
    relation: Literal["in", "near"]
    target: str
    distance: int | None
    largest: bool
    negated: bool


class LangText(BaseModel):
    en: str
    zh: str


class GradeOut(BaseModel):
    level: Literal["easy", "medium", "hard"]
    points: int = Field(description="steps + negated + largest + distance2 (easy ≤ 4, hard ≥ 8)")
    steps: int = Field(description="Deduction steps a reader needs (one per clue)")
    negated: int
    largest: int
    distance2: int


class StepOut(BaseModel):
    clue: int = Field(description="0-based index into `clues`")
    removed: list[Pair] = Field(description="Spaces this clue rules out at this step")
    remaining: int = Field(description="Candidates left after this step")
    text: LangText


class ProofOut(BaseModel):
    method: str
    clues: int
    pool: Literal["easy", "medium", "hard"]
    initial_lower_bound: int
    refuted_sizes: list[int]
    nodes: int


class PuzzleOut(BaseModel):
    code: str = Field(description="Short URL-safe code that rebuilds this puzzle")
    difficulty: Literal["easy", "medium", "hard"] = Field(description="The measured grade")
    island: PuzzleIsland
    clues: list[ClueOut]
    clue_text: list[LangText] = Field(description="Each clue as a sentence")
    grade: GradeOut
    minimal: bool = Field(description="True when the clue count is proven minimal")
    date: str | None = Field(default=None, description="Daily puzzle only: its date")
    answer: Pair | None = Field(default=None, description="With reveal=true only")
    steps: list[StepOut] | None = Field(default=None, description="With reveal=true only")
    intro: LangText | None = Field(default=None, description="With reveal=true only")
    conclusion: LangText | None = Field(default=None, description="With reveal=true only")
    proof: ProofOut | None = Field(default=None, description="Minimal puzzles with reveal=true")
