"""The review API: a finished game's position at any step, from any seat, and its analysis.

Views only translate HTTP to ``web.review.Reviews`` and back; every route is described with
``api.get(...)`` (models below), so ``/openapi.json`` carries them like every other route.
Both refuse a running game (409, reason ``game_running``): positions and analyses are for
finished games, whose every view is open anyway, so no token is needed.
"""

from __future__ import annotations

from typing import Any, Literal

from flask import Blueprint, Response, request
from pydantic import BaseModel, Field

from errors import InvalidInput
from web.apidoc import ApiRoutes, path_param, query_param
from web.games_api import GAME_ID
from web.i18n import current_lang
from web.review import reviews

bp = Blueprint("review_api", __name__)
api = ApiRoutes(bp, "review")
#: The largest step a client may name (games stay far below it).
MAX_STEP = 999_999_999
E409 = (
    "The game is not over yet (reason game_running), or it was stored under earlier rules"
    " (rules_changed)"
)


class MoveOut(BaseModel):
    version: int = Field(description="The action's version: the step it leads to")
    seat: int | None = Field(description="The seat that acted (null: the table, a timeout)")
    events: list[dict[str, Any]] = Field(description="The action's public events")
    action: dict[str, Any] | None = Field(
        description="The action itself: shown without a seat, or when it was this seat's"
    )


class PositionOut(BaseModel):
    id: str
    game: str
    step: int = Field(description="Actions applied: 0 is the start, steps the end")
    steps: int = Field(description="The game's number of actions")
    seat: int | None = Field(description="Whose knowledge this is; null: everything")
    to_act: list[int] = Field(description="Seats that were to act at this step")
    view: dict[str, Any] = Field(
        description="What the seat saw at this step (its view then); without a seat, the "
        "spectator's view with every seat's own part (hand, cards) filled in"
    )
    helper_seat: int | None = Field(
        description="The seat the helper speaks for: the seat asked, or else the first to act"
    )
    legal_actions: list[dict[str, Any]] = Field(
        description="The helper seat's legal actions at this step (empty if it was not to act)"
    )
    helper: dict[str, Any] | None = Field(
        description="The game's helper from the helper seat's view (Tobago: the deduction "
        "helper's maps, costs and hints; DAO: the odds); null where the game has none"
    )
    expected: list[float | None] = Field(
        description="Per seat, its expected gold or score from its own view (only the asked "
        "seat's with a seat)"
    )
    move: MoveOut | None = Field(description="The action that led to this step (null at 0)")


class ProgressOut(BaseModel):
    done: int = Field(description="Actions replayed")
    total: int


class DecisionOut(BaseModel):
    move: int = Field(description="The action's version (judged at step move - 1)")
    seat: int
    action: dict[str, Any] = Field(description="The move made")
    best_action: dict[str, Any] = Field(description="The engine's best move from that view")
    played_value: float | None
    best_value: float | None
    loss: float = Field(description="best_value - played_value, in the analysis' unit")
    mark: Literal["best", "good", "inaccuracy", "mistake"]
    options: int = Field(description="How many moves were compared")
    detail: dict[str, Any] = Field(description="The game's facts about both moves")


class SeatSummaryOut(BaseModel):
    seat: int
    decisions: int = Field(description="Actions with a choice (two legal actions or more)")
    rated: int = Field(description="Decisions the engine could score")
    marks: dict[str, int]
    best_share: float | None = Field(description="Share of rated decisions marked best")
    average_loss: float | None


class ChartOut(BaseModel):
    measure: str = Field(description="expected_gold or score")
    values: list[list[float | None]] = Field(description="Per seat, one value per step 0..steps")


class ThresholdsOut(BaseModel):
    best: float
    good: float
    inaccuracy: float


class AnalysisResultOut(BaseModel):
    version: int
    game: str
    steps: int
    unit: str = Field(description="gold_lead, points_lead, points…")
    thresholds: ThresholdsOut = Field(
        description="loss <= best: best; <= good: good; <= inaccuracy: inaccuracy; else mistake"
    )
    decisions: list[DecisionOut]
    summary: list[SeatSummaryOut]
    chart: ChartOut
    scores: list[float] | None


class AnalysisOut(BaseModel):
    id: str
    game: str
    version: int = Field(description="The analysis code's version")
    status: Literal["running", "done", "failed", "unavailable"] = Field(
        description="running (asking starts it; poll again), done, failed, or unavailable "
        "(this game has no analysis)"
    )
    progress: ProgressOut | None
    analysis: AnalysisResultOut | None = Field(description="Once done")


def _lang_arg() -> str:
    """The helper's language: ``lang`` when given (``en`` or ``zh``, else 400), or the
    request's language as the pages choose it."""
    raw = request.args.get("lang")
    if raw is None:
        return current_lang()
    if raw not in ("en", "zh"):
        raise InvalidInput(f"lang must be 'en' or 'zh', got {raw!r}", "lang")
    return raw


def _seat_arg() -> int | None:
    raw = request.args.get("seat")
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 2:
        raise InvalidInput(f"seat must be a seat number, got {raw!r}", "seat")
    return int(raw)


@api.get(
    "/api/games/{game_id}/positions/{step}",
    "A finished game after `step` actions, as `seat` knew it then (no seat: everything), with "
    "the game's helper for that seat",
    response=PositionOut,
    errors={
        400: "A step or seat that is not a number",
        404: "No such game, or a step or seat the game does not have (reasons no_such_step, "
        "no_such_seat)",
        409: E409,
    },
    params=[
        GAME_ID,
        path_param(
            "step",
            {"type": "integer", "minimum": 0, "maximum": MAX_STEP},
            "Actions applied (0 … the game's steps)",
        ),
        query_param(
            "seat",
            {"type": "integer", "minimum": 0, "maximum": 99},
            "Whose knowledge to show; absent: everything any seat knew",
        ),
        query_param(
            "lang", {"type": "string", "enum": ["en", "zh"]}, "The helper's sentences' language"
        ),
    ],
)
def get_position(game_id: str, step: str) -> Response:
    if not step.isascii() or not step.isdigit() or len(step) > 9 or int(step) > MAX_STEP:
        raise InvalidInput(f"step must be a number of actions, got {step!r}", "step")
    text = reviews().position_text(game_id, int(step), _seat_arg(), _lang_arg())
    return Response(text, mimetype="application/json")


@api.get(
    "/api/games/{game_id}/analysis",
    "A finished game's analysis: every decision against the engine's best move, per-seat "
    "summaries, expected gold or score per step. Asking starts it; poll until done",
    response=AnalysisOut,
    errors={404: "No such game", 409: E409},
    params=[GAME_ID],
)
def get_analysis(game_id: str) -> dict:
    return reviews().analysis(game_id)
