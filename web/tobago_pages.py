"""Tobago in the browser: the pages (lobby, new game, game, join a seat, playground), the deduction
helper's JSON endpoint, and Tobago's descriptor (``SITE``: its pages, the island, solver and
puzzle APIs, its review).

Pages are plain HTML + JS modules (``templates/tobago/``, ``static/tobago/``, no build step, no
CDN); they talk to the public API (``/api/games``, ``/api/tobago/solve``) like any client, so a
page never sees more than its seat's view. Strings come from ``web.i18n``.

``POST /api/tobago/helper`` takes a *public* position (island, columns, removed markers, the
asking seat's own hand and every ATV) and answers what the helper panel shows: why each space is
out of each map, the column as steps, each ATV's driving cost to each map's nearest candidate, and
the hint ranking of the hand's legal plays with reasons in the asked language, and (asked once
per island, ``"places": true``) every space's name as a player finds it (``solver.places``). Its shared parts
are checked by the solve endpoint's parser (``solver.solve``) and each map's answer comes from
``solver.answer``, as the solve endpoint's does. It is stateless: it cannot see anything the
caller did not send, so it cannot leak hidden state.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from flask import render_template
from markupsafe import Markup, escape
from pydantic import BaseModel, Field

from errors import InvalidInput
from games.tobago import analysis
from hexmap.catalog import generated_island
from hexmap.hexes import Hex
from hexmap.island import Island, Landmark
from hexmap.svg import render_svg
from hexmap.terrain import LANDMARK_COUNTS, TERRAINS
from solver.answer import helper_maps, play_refusals
from solver.clues import describe_clue, parse_clue
from solver.compiled import compile_island, drive_from
from solver.deck import DECK
from solver.hints import Hint, hints
from solver.places import place_names
from solver.solve import MAX_HAND, MAX_MAPS, parse_list, parse_solve_request, parse_space_on
from web import islands_api, puzzles_api, solver_api
from web.apidoc import ApiRoutes, StrictIn
from web.game_pages import pages_blueprint
from web.game_site import GamePage, GameSite, Link, NewGamePage, OptionField
from web.i18n import translate
from web.jsonbody import json_body
from web.rules_pictures import captioned, picture_list
from web.schemas_island import IslandSpecIn
from web.solver_api import ClueValue, Pair, SolveMapIn, SolveOptionsIn

bp = pages_blueprint(__name__, "tobago")
api = ApiRoutes(bp, "tobago")
MAX_ATVS = 8

# --- pages ------------------------------------------------------------------------------------


@bp.get("/tobago/playground")
def playground() -> str:
    deck = list(dict.fromkeys(c.notation for c in DECK))
    return render_template("tobago/playground.html", deck=deck)


# --- the deduction helper -------------------------------------------------------------------

#: The keys a helper body may have (``island``, ``maps``, ``hand``, ``options`` as for
#: ``/api/tobago/solve``, checked by the same parser).
HELPER_KEYS = ("island", "maps", "hand", "me", "others", "options", "lang", "places")


class HelperIn(StrictIn):
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
    places: bool = Field(
        default=False,
        description="Also name every island space as a player finds it on the map (terrain, "
        "where, region, nearest landmark; in lang): the page asks once per island",
    )


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


class HelperPlaceOut(BaseModel):
    space: list[int]
    name: str = Field(description="Terrain, where on the island, region, nearest landmark")
    short: str = Field(description="Terrain, where, nearest landmark (for running text)")


class HelperOut(BaseModel):
    maps: list[HelperMapOut]
    hints: list[HelperHintOut]
    refusals: list[HelperRefusalOut] = Field(
        description="Every (hand card, map) that is no legal play, and why (error.<reason>)"
    )
    places: list[HelperPlaceOut] | None = Field(
        default=None, description='With "places": true, every island space\'s name in lang'
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


@api.post(
    "/api/tobago/helper",
    "The deduction helper for a public position: why each space is out, the steps of each "
    "column, driving costs to each map's nearest candidate, the ranked legal plays of a hand",
    request=HelperIn,
    response=HelperOut,
    errors={
        400: "Malformed request, a refused clue, a space off the island (the field is named)",
        404: "No built-in island of that name",
        413: "Body larger than 1 MiB",
    },
)
def helper() -> dict[str, Any]:
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
    want_places = data.get("places", False)
    if not isinstance(want_places, bool):
        raise InvalidInput(f"places must be true or false, got {want_places!r}", "places")
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
    out = {"maps": maps_out, "hints": hints_out, "refusals": play_refusals(t, req.maps, req.hand)}
    if want_places:
        names, shorts = place_names(island, lang), place_names(island, lang, short=True)
        out["places"] = [
            {"space": [h.q, h.r], "name": names[h], "short": shorts[h]} for h in island.index
        ]
    return out


def helper_words(helper: dict, lang: str) -> dict:
    """The review's helper with its sentences in ``lang``: each hint's clue and reason, worded
    as the game page's helper words them."""
    worded = []
    for h in helper["hints"]:
        clue = parse_clue(h["clue"])
        hint = Hint(
            h["hand_index"],
            h["map"],
            clue,
            0,
            h["remaining"],
            h["before"],
            tuple(h["costs"]),
            h["score"],
        )
        worded.append(
            {
                **h,
                "sentence": describe_clue(clue, lang),
                "reason": hint_reason(lang, hint, with_costs=helper["with_me"]),
            }
        )
    return {**helper, "hints": worded}


_SVG_ID = re.compile(r'(id="|url\(#|href="#)([A-Za-z][\w-]*)')
_SVG_TITLE = re.compile(r"<title>.*?</title>")


def _space_svg(prefix: str, label: str, terrain: str, landmark: str | None) -> Markup:
    """One island space as the game draws the island (``hexmap.svg.render_svg``), named
    ``label`` (its own titles, which give the space's place, dropped), its ids prefixed so that
    several such pictures share a page. A statue looks east."""
    space = Hex(0, 0)
    marks = [Landmark(landmark, space, 0 if landmark == "statue" else None)] if landmark else []
    svg = render_svg(Island({space: terrain}, marks), size=26, margin=4)
    svg = _SVG_ID.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", _SVG_TITLE.sub("", svg))
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))


def rules_terrains(lang: str, args: str) -> Markup:
    """The rules page's six terrains, one island space each."""
    return picture_list(
        "rules-tobago",
        translate(lang, "rules.pic_terrains"),
        (
            captioned(_space_svg(f"t-{t}", name, t, None), name)
            for t in TERRAINS
            for name in [translate(lang, f"terrain.{t}")]
        ),
    )


def rules_clue(lang: str, args: str) -> Markup:
    """A generated island (the first: about as tall as wide, so it reads on a phone) with the
    spaces where a clue (``near1 hut``: its notation with a space for the colon) holds marked,
    as the game's own clue masks find them (the table rules' defaults)."""
    clue = parse_clue(args.strip().replace(" ", ":"), "args")
    island = generated_island(1)
    spaces = island.spaces_of(compile_island(island).mask(clue))
    label = translate(lang, "rules.pic_clue", clue=describe_clue(clue, lang))
    svg = render_svg(island, size=16, margin=6, highlights={"clue": spaces})
    svg = _SVG_ID.sub(lambda m: f"{m.group(1)}c-{m.group(2)}", _SVG_TITLE.sub("", svg))
    picture = Markup(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))
    return Markup('<figure class="rules-island">{}<figcaption>{}</figcaption></figure>').format(
        picture, label
    )


def rules_landmarks(lang: str, args: str) -> Markup:
    """The landmark kinds on a grassland space, each with how many stand on the island."""
    return picture_list(
        "rules-tobago",
        translate(lang, "rules.pic_landmarks_all"),
        (
            captioned(
                _space_svg(f"l-{kind}", name, "grassland", kind),
                translate(lang, "rules.pic_landmarks", count=count, kind=name),
            )
            for kind, count in LANDMARK_COUNTS.items()
            for name in [translate(lang, f"terrain.{kind}")]
        ),
    )


SITE = GameSite(
    "tobago",
    blueprints=(bp, islands_api.bp, solver_api.bp, puzzles_api.bp),
    blurb="home.tobago_text",
    nav=(
        Link("games.tobago.title", "/tobago"),
        Link("site.playground", "/tobago/playground"),
        Link("site.puzzles", "/puzzles"),
    ),
    home_links=(
        Link("home.play", "/tobago"),
        Link("home.playground", "/tobago/playground"),
        Link("home.puzzles", "/puzzles"),
        Link("home.daily", "/puzzles/daily"),
        Link("home.rules", "/rules/tobago"),
    ),
    lobby_links=(Link("site.playground", "/tobago/playground"), Link("site.puzzles", "/puzzles")),
    error_links=(Link("errorpage.games", "/tobago"), Link("errorpage.puzzles", "/puzzles")),
    featured=True,
    rules=True,
    rules_pictures={
        "tobago-terrains": rules_terrains,
        "tobago-landmarks": rules_landmarks,
        "tobago-clue": rules_clue,
    },
    stylesheet="tobago/tobago.css",
    strings=("game.", "ev.", "helper.", "seat.", "act."),
    clues=True,
    join_strings="join.",
    new_page=NewGamePage(
        "new.",
        seats=("me", "bot:normal", "bot:normal", "bot:normal"),
        seat_types=("me", "friend", "anyone", "bot", "none"),
        title="new.title",
        lede=None,
        level_strings="seat.",
        seat_n="seat.n",
        options=(
            *(
                OptionField(name, "check", f"option.{name}", help=f"games.tobago.options.{name}")
                for name in ("near_includes_target", "treasure_on_landmarks", "extra_marker")
            ),
            OptionField("turn_seconds", "turn"),
        ),
        script_strings=("new.", "seat."),
        clues=True,
        template="tobago/new.html",
        script="tobago/newgame.js",
    ),
    game_page=GamePage(
        "game.",
        "game",
        slow_ms=900,
        title="game.title",
        skip_links={"actions": "#actions", "board": "#board", "hand": "#hand-box", "log": "#log-h"},
        script_strings=("game.", "ev.", "helper.", "seat.", "act."),
        clues=True,
    ),
    review_script="review/tobago.js",
    analyst=analysis.ANALYST,
    full_view=analysis.full_view,
    helper_words=helper_words,
)
