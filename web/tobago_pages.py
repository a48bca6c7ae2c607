"""Tobago in the browser: the pages (new game, game, join a seat, playground, rules) and the
deduction helper's JSON endpoint.

Pages are plain HTML + JS modules (``templates/tobago/``, ``static/tobago/``, no build step, no
CDN); they talk to the public API (``/api/games``, ``/api/tobago/solve``) like any client, so a
page never sees more than its seat's view. Strings come from ``web.i18n``.

``POST /api/tobago/helper`` takes a *public* position (island, columns, removed markers, the
asking seat's own hand and every ATV) and answers what the helper panel shows: why each space is
out of each map, the column as steps, each ATV's driving cost to each map's nearest candidate, and
the hint ranking of the hand's legal plays with reasons in the asked language. Its shared parts
are checked by the solve endpoint's parser (``solver.solve``) and each map's answer comes from
``solver.answer``, as the solve endpoint's does. It is stateless: it cannot see anything the
caller did not send, so it cannot leak hidden state.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from flask import Blueprint, abort, render_template
from markdown_it import MarkdownIt
from pydantic import BaseModel, ConfigDict, Field

from errors import InvalidInput
from solver.answer import helper_maps, play_refusals
from solver.clues import describe_clue
from solver.compiled import compile_island, drive_from
from solver.deck import DECK
from solver.hints import Hint, hints
from solver.solve import MAX_HAND, MAX_MAPS, parse_list, parse_solve_request, parse_space_on
from web.apidoc import api_route
from web.game_pages import GamePages
from web.i18n import current_lang, translate
from web.jsonbody import json_body
from web.schemas_island import IslandSpecIn
from web.solver_api import ClueValue, Pair, SolveMapIn, SolveOptionsIn

bp = Blueprint("tobago_pages", __name__)
PAGES = GamePages("tobago", "tobago/tobago.css", "join.")
TAG = "tobago"
RULES_DIR = Path(__file__).with_name("rules")
#: Game kinds with a rules page, in the order the index lists them.
RULE_GAMES = ("tobago", "dao", "isla_dorada", "dragons_gold")
#: Where the rules page of a game playable in the browser links "Play".
PLAY_PAGES = {
    "tobago": "/tobago/new",
    "dao": "/dao/new",
    "isla_dorada": "/isla_dorada/new",
    "dragons_gold": "/dragons_gold/new",
}
MAX_ATVS = 8

# --- pages ------------------------------------------------------------------------------------


@bp.get("/tobago")
def hub():
    return render_template("tobago/hub.html")


@bp.get("/tobago/new")
def new_game():
    return render_template("tobago/new.html")


@bp.get("/tobago/games/<game_id>")
def game_page(game_id: str):
    return PAGES.game_page("tobago/game.html", game_id)


@bp.get("/tobago/games/<game_id>/join/<int:seat>")
def join_page(game_id: str, seat: int):
    return PAGES.join_page(game_id, seat)


@bp.get("/tobago/playground")
def playground():
    deck = list(dict.fromkeys(c.notation for c in DECK))
    return render_template("tobago/playground.html", deck=deck)


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


@cache
def rules_html(game: str, lang: str) -> str:
    """The rules of ``game`` as HTML (Markdown rendered once per language; raw HTML refused)."""
    path = RULES_DIR / lang / f"{game}.md"
    if not path.exists():
        path = RULES_DIR / "en" / f"{game}.md"
    return _markdown().render(path.read_text("utf-8"))


@bp.get("/rules")
def rules_index():
    return render_template("rules_index.html", games=RULE_GAMES)


@bp.get("/rules/<game>")
def rules_page(game: str):
    if game not in RULE_GAMES:
        abort(404)
    lang = current_lang()
    translated = (RULES_DIR / lang / f"{game}.md").exists()
    return render_template(
        "rules.html",
        game=game,
        body=rules_html(game, lang),
        translated=translated,
        play_url=PLAY_PAGES.get(game),
    )


# --- the deduction helper -------------------------------------------------------------------

#: The keys a helper body may have (``island``, ``maps``, ``hand``, ``options`` as for
#: ``/api/tobago/solve``, checked by the same parser).
HELPER_KEYS = ("island", "maps", "hand", "me", "others", "options", "lang")


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class HelperIn(_In):
    """What the helper takes (the OpenAPI description: ``solver.solve`` checks the body)."""

    island: IslandSpecIn = Field(
        description='As for /api/tobago/solve: {"name"}, {"generated"} (each with an optional '
        '"landmarks_seed") or {"spaces", "landmarks"}'
    )
    maps: list[SolveMapIn] = Field(max_length=MAX_MAPS)
    hand: list[ClueValue] = Field(default_factory=list, max_length=MAX_HAND)
    me: Pair | None = Field(default=None, description="The asking player's ATV")
    others: list[Pair] = Field(default_factory=list, max_length=MAX_ATVS, description="Rival ATVs")
    options: SolveOptionsIn | None = None
    lang: Literal["en", "zh"] = "en"


class HelperExcludedOut(BaseModel):
    space: list[int]
    by: int | Literal["removed", "landmark"]
    own: bool = Field(
        default=False,
        description="The excluding clue is 'within N of X' and this space is one of X's own "
        "(0 away: not counted unless the near_includes_target option is on)",
    )


class HelperStepOut(BaseModel):
    index: int | Literal["removed"] | None = Field(description="Clue index; null: the start")
    remaining: int


class HelperMapOut(BaseModel):
    id: str
    count: int
    excluded: list[HelperExcludedOut] = Field(
        description="Every other island space, in the order of /api/tobago/solve's answer"
    )
    steps: list[HelperStepOut]
    costs: list[int | None] = Field(
        description="Driving cost to the nearest candidate: me first (if given), then others"
    )


class HelperHintOut(BaseModel):
    hand_index: int
    map: str
    clue: str
    sentence: str
    remaining: int
    before: int
    candidates: list[list[int]]
    costs: list[int | None]
    score: float
    reason: str


class HelperRefusalOut(BaseModel):
    hand_index: int
    map: str
    reason: Literal["map_located", "removes_every_candidate", "removes_no_candidate"]


class HelperOut(BaseModel):
    maps: list[HelperMapOut]
    hints: list[HelperHintOut]
    refusals: list[HelperRefusalOut] = Field(
        description="Every (hand card, map) that is no legal play, and why (error.<reason>)"
    )


def hint_reason(lang: str, hint: Hint, with_costs: bool = True) -> str:
    """The hint's reason in words, in ``lang``: what the play leaves, then (``with_costs``) who
    is nearer — the facts ``solver.hints`` scores, as its English ``Hint.reason`` words them."""
    tr = translate
    remaining = hint.remaining
    head = (
        tr(lang, "helper.reason_located")
        if remaining == 1
        else tr(lang, "helper.reason_leaves", n=remaining, m=hint.before)
    )
    parts = [head]
    if with_costs:
        mine, rival = hint.my_cost, hint.rival_cost
        parts.append(
            tr(lang, "helper.reason_unreachable")
            if mine is None
            else tr(lang, "helper.reason_mine", count=mine)
        )
        if len(hint.costs) > 1:
            parts.append(
                tr(lang, "helper.reason_rival", count=rival)
                if rival is not None
                else tr(lang, "helper.reason_rival_none")
            )
        if hint.finish > 0:
            parts.append(tr(lang, "helper.reason_raise_next"))
        elif hint.finish < 0:
            parts.append(tr(lang, "helper.reason_rival_first"))
    return tr(lang, "helper.reason_join").join(parts)


@api_route(
    bp,
    "POST",
    "/api/tobago/helper",
    "The deduction helper for a public position: why each space is out, the steps of each "
    "column, driving costs to each map's nearest candidate, the ranked legal plays of a hand",
    TAG,
    request=HelperIn,
    response=HelperOut,
    errors={
        400: "Malformed request, a refused clue, a space off the island (the field is named)",
        404: "No built-in island of that name",
        413: "Body larger than 1 MiB",
    },
)
def helper():
    data = json_body()
    req = parse_solve_request(data, HELPER_KEYS)
    island, options = req.island, req.options
    me_value = data.get("me")
    me = parse_space_on(island, me_value, "me") if me_value is not None else None
    others = [
        parse_space_on(island, p, f"others[{i}]")
        for i, p in enumerate(parse_list(data.get("others", []), "others", MAX_ATVS))
    ]
    lang = data.get("lang", "en")
    if lang not in ("en", "zh"):
        raise InvalidInput(f"lang must be 'en' or 'zh', got {lang!r}", "lang")
    t = compile_island(island, options)
    # Drive costs kept per island geometry and start: the same few ATV spaces are asked about
    # again and again.
    layers = [drive_from(island, h) for h in ([me] if me is not None else []) + others]
    maps_out = helper_maps(t, req.maps, layers)
    ranked = hints(island, req.maps, req.hand, me, others, options) if req.hand else []
    hints_out = []
    for h in ranked:
        costs = list(h.costs) if me is not None else list(h.costs[1:])
        hints_out.append(
            {
                **h.to_json(island),
                "costs": costs,
                "sentence": describe_clue(h.clue, lang),
                "reason": hint_reason(lang, h, with_costs=me is not None),
            }
        )
    return {"maps": maps_out, "hints": hints_out, "refusals": play_refusals(t, req.maps, req.hand)}
