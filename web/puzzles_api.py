"""Teaching puzzles over HTTP: the JSON API and the pages (one blueprint, auto-registered).

API (documented in ``/openapi.json``):

- ``GET /api/tobago/puzzles?difficulty=&seed=[&minimal=true][&reveal=true]`` — a puzzle;
- ``GET /api/tobago/puzzles/daily[?date=YYYY-MM-DD]`` — the daily puzzle (today by default);
- ``GET /api/tobago/puzzles/<code>[?reveal=true]`` — the puzzle of a code;
- ``POST /api/tobago/puzzles/<code>/check`` ``{"space": [q, r]}`` → ``{"correct", "why"}``.

The answer, the steps and the minimality proof only leave the server with ``reveal=true``; a
check answers for the space asked about and nothing else.

Pages (HTML, strings in English and Traditional Chinese via ``?lang=zh`` or the ``lang``
cookie): ``/puzzles`` (list by difficulty and the daily puzzle), ``/puzzles/daily``,
``/puzzles/<code>`` (play: click a space, hints, solution), ``/puzzles/sheet`` (a class sheet of
N puzzles; ``?print=1`` is the bare printable sheet with its answer key, the same HTML as
``python -m solver puzzles``).
"""

from __future__ import annotations

import json
import re
import secrets
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
)
from flask.typing import ResponseReturnValue

from errors import InvalidInput, NotFound, ProjectError
from hexmap.island_json import parse_space
from hexmap.seeds import parse_seed
from hexmap.sized_cache import SizedCache
from hexmap.svg import render_svg
from solver.places import place_names
from solver.puzzles import Puzzle, check_difficulty
from solver.puzzles.clues import DIFFICULTIES
from solver.puzzles.codes import (
    MAX_CODE_LENGTH,
    daily_puzzle,
    puzzle_code,
    puzzle_for_seed,
    puzzle_from_code,
)
from solver.puzzles.generate import points_range
from solver.puzzles.sheet import MAX_SHEET, render_sheet, sheet_puzzles
from solver.puzzles.text import (
    LANGS,
    answer_text,
    check_lang,
    clue_text,
    intro_text,
    steps_json,
    why_text,
)
from web.apidoc import SEED_SCHEMA, ApiRoutes, path_param, query_param, validated
from web.i18n import current_lang
from web.schemas_puzzles import CheckIn, CheckOut, PuzzleOut

bp = Blueprint("puzzles_api", __name__)
api = ApiRoutes(bp, "puzzles")
BASE = "/api/tobago/puzzles"
LIST_SIZE = 6

#: A query flag: ``true``/``1`` or ``false``/``0`` (``web.pages.flag``).
FLAG = {"type": "string", "enum": ["true", "false", "1", "0"], "default": "false"}
P_DIFFICULTY = query_param(
    "difficulty", {"type": "string", "enum": list(DIFFICULTIES), "default": "medium"}
)
P_SEED = query_param("seed", SEED_SCHEMA, "Random when absent")
P_REVEAL = query_param(
    "reveal",
    FLAG,
    "Also return the answer, the steps and (minimal puzzles) the proof",
)
P_MINIMAL = query_param(
    "minimal",
    FLAG,
    "The fewest clues possible for the island and answer, proven",
)
P_LANG = query_param("lang", {"type": "string", "enum": list(LANGS)})
CODE_PATTERN = f"^[A-Za-z0-9_-]{{1,{MAX_CODE_LENGTH}}}$"
P_CODE = path_param(
    "code",
    {"type": "string", "pattern": CODE_PATTERN},
    "A puzzle code (a code that decodes to no puzzle is 404)",
)
P_DATE = query_param("date", {"type": "string", "format": "date"}, "Default: today (server's date)")
E400 = "Bad difficulty, seed, code, date or flag (the field is named)"


# --- request helpers ----------------------------------------------------------------------


def _flag(name: str) -> bool:
    raw = request.args.get(name)
    if raw is None:
        return False
    if raw in ("true", "1"):
        return True
    if raw in ("false", "0"):
        return False
    raise InvalidInput(f"{name} must be true or false, got {raw!r}", name)


def _difficulty(default: str = "medium") -> str:
    return check_difficulty(request.args.get("difficulty", default))


def _seed() -> int:
    raw = request.args.get("seed")
    return secrets.randbelow(2**31) if raw is None else parse_seed(raw, "seed")


def _date() -> date:
    raw = request.args.get("date")
    if raw is None:
        return date.today()
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", raw):
            raise ValueError(raw)
        return date.fromisoformat(raw)
    except ValueError:
        raise InvalidInput(f"date must be YYYY-MM-DD, got {raw!r}", "date") from None


def _lang(strict: bool) -> str:
    """``?lang=``, else the ``lang`` cookie, else the site's choice (``web.i18n``: the browser's
    languages), else English. Pages fall back; the API refuses a bad ``?lang=``."""
    raw = request.args.get("lang")
    if raw is not None and raw not in LANGS and strict:
        raise InvalidInput(f"unknown language {raw!r}; expected 'en' or 'zh'", "lang")
    for value in (raw, request.cookies.get("lang")):
        if value in LANGS:
            return value
    lang = current_lang()
    return lang if lang in LANGS else "en"


# --- kept puzzles (immutable values; errors are not kept) ------------------------------------

#: Memory budget of the puzzles kept (each counted with its island, which it holds).
PUZZLE_CACHE_BYTES = 8 * 1024 * 1024
_PUZZLES: SizedCache[Puzzle] = SizedCache("puzzles", PUZZLE_CACHE_BYTES)


def _size(p: Puzzle) -> int:
    return p.island.nbytes() + 4000


def _by_code(code: str) -> Puzzle:
    return _PUZZLES.get_or_build(("code", code), lambda: puzzle_from_code(code), _size)


def _api_by_code(code: str) -> Puzzle:
    """The puzzle of a code for the API: a code of the described shape (``P_CODE``) that
    decodes to no puzzle names nothing, so it is 404 like an unknown name; any other is 400."""
    try:
        return _by_code(code)
    except InvalidInput as e:
        if re.fullmatch(CODE_PATTERN, code) is None:
            raise
        raise NotFound(e.message, "code", reason="not_a_puzzle_code") from None


def _by_seed(seed: int, difficulty: str, minimal: bool = False) -> Puzzle:
    return _PUZZLES.get_or_build(
        ("seed", seed, difficulty, minimal),
        lambda: puzzle_for_seed(seed, difficulty, minimal),
        _size,
    )


def _daily(day: date) -> Puzzle:
    return _PUZZLES.get_or_build(("daily", day), lambda: daily_puzzle(day), _size)


# --- JSON ---------------------------------------------------------------------------------


def puzzle_json(p: Puzzle, reveal: bool) -> dict:
    """The API shape of a puzzle; the answer and the steps only with ``reveal``."""
    island = p.island
    out: dict = {
        "code": puzzle_code(p),
        "difficulty": p.difficulty,
        "island": {
            "name": island.name,
            "source": p.source.to_json() if p.source else None,
            **island.to_json(),
        },
        "clues": [c.to_json() for c in p.clues],
        "clue_text": [{lang: clue_text(p, i, lang) for lang in LANGS} for i in range(len(p.clues))],
        "grade": p.grade.to_json(),
        "minimal": p.minimal,
    }
    if reveal:
        out["answer"] = [p.answer.q, p.answer.r]
        out["steps"] = steps_json(p)
        out["intro"] = {lang: intro_text(p, lang) for lang in LANGS}
        out["conclusion"] = {lang: answer_text(p, lang) for lang in LANGS}
        if p.proof is not None:
            out["proof"] = p.proof.to_json()
    return out


@api.get(
    BASE,
    "A generated puzzle: island, clues, exactly one answer (revealed on request)",
    response=PuzzleOut,
    params=[P_DIFFICULTY, P_SEED, P_MINIMAL, P_REVEAL],
    errors={400: E400, 409: "No puzzle of that difficulty on that seed's island (rare)"},
)
def api_puzzle() -> dict[str, Any]:
    difficulty, seed = _difficulty(), _seed()
    minimal, reveal = _flag("minimal"), _flag("reveal")
    return puzzle_json(_by_seed(seed, difficulty, minimal), reveal)


@api.get(
    f"{BASE}/daily",
    "The puzzle of the day (the same for everyone; difficulty follows the weekday)",
    response=PuzzleOut,
    params=[P_DATE, P_REVEAL],
    errors={400: E400},
)
def api_daily() -> dict[str, Any]:
    day, reveal = _date(), _flag("reveal")
    return {**puzzle_json(_daily(day), reveal), "date": day.isoformat()}


@api.get(
    f"{BASE}/{{code}}",
    "The puzzle of a code",
    response=PuzzleOut,
    params=[P_CODE, P_REVEAL],
    converters={"code": "string"},
    errors={400: "Malformed flag", 404: "The code names no puzzle"},
)
def api_by_code(code: str) -> dict[str, Any]:
    reveal = _flag("reveal")
    return puzzle_json(_api_by_code(code), reveal)


@api.post(
    f"{BASE}/{{code}}/check",
    "Is this space the answer? If not, which clue rules it out",
    request=CheckIn,
    response=CheckOut,
    params=[P_CODE, P_LANG],
    converters={"code": "string"},
    errors={400: "Malformed body, or a space off the island", 404: "The code names no puzzle"},
)
def api_check(code: str) -> dict[str, Any]:
    body = validated(CheckIn)
    p = _api_by_code(code)
    asked = _lang(strict=True)  # a bad ?lang= is refused even when the body names a language
    lang = check_lang(body.lang) if body.lang else asked
    space = parse_space(body.space, "space")
    if space not in p.island.terrain:
        raise InvalidInput(f"({space.q}, {space.r}) is not an island space", "space")
    return {"correct": space == p.answer, "why": why_text(p, space, lang)}


# --- pages --------------------------------------------------------------------------------


@cache
def page_strings() -> dict[str, dict[str, str]]:
    """The pages' strings by language (``static/puzzles/strings.json``, shared with the JS)."""
    path = Path(current_app.static_folder or "static") / "puzzles" / "strings.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _render(template: str, lang: str, **ctx: Any) -> Response:
    resp = make_response(render_template(template, lang=lang, t=page_strings()[lang], **ctx))
    if request.args.get("lang") in LANGS:
        resp.set_cookie("lang", request.args["lang"], max_age=365 * 86400, samesite="Lax")
    return resp


def _summary(p: Puzzle, lang: str) -> dict:
    return {
        "code": puzzle_code(p),
        "difficulty": p.difficulty,
        "clues": len(p.clue_ids),
        "points": p.grade.points,
        "spaces": len(p.island),
        "first_clue": clue_text(p, 0, lang),
    }


def _range_text(level: str, lang: str) -> str:
    """The points of a grade in words ("5-7 points"), from ``points_range``: the list's groups,
    the daily puzzle and the puzzle page all grade by the one measure."""
    least, most = points_range(level)
    t = page_strings()[lang]
    if most is None:
        return t["points_from"].format(n=least)
    if least == 0:
        return t["points_upto"].format(n=most)
    return t["points_between"].format(a=least, b=most)


@bp.get("/puzzles")
def page_list() -> Response:
    lang = _lang(strict=False)
    try:
        start = int(request.args.get("from", "1"))
    except ValueError:
        start = 1
    start = max(1, min(start, 10**9))
    groups = []
    for d in DIFFICULTIES:
        items = [_summary(_by_seed(s, d), lang) for s in range(start, start + LIST_SIZE)]
        groups.append({"difficulty": d, "items": items, "range": _range_text(d, lang)})
    today = date.today()
    daily = _summary(_daily(today), lang)
    return _render(
        "puzzles/list.html",
        lang,
        groups=groups,
        daily=daily,
        today=today.isoformat(),
        start=start,
        size=LIST_SIZE,
    )


@bp.get("/puzzles/next")
def page_next() -> ResponseReturnValue:
    """Another puzzle of the same difficulty (``?difficulty=``, default medium; ``after=`` the
    code just solved, never given again): the "next puzzle" link of the puzzle page."""
    difficulty = request.args.get("difficulty", "medium")
    if difficulty not in DIFFICULTIES:
        difficulty = "medium"
    after = request.args.get("after")
    for _ in range(8):
        try:
            code = puzzle_code(_by_seed(secrets.randbelow(2**31), difficulty))
        except InvalidInput:  # a seed whose island singles out no answer: another one
            continue
        if code != after:
            return redirect(f"/puzzles/{code}", code=302)
    return redirect("/puzzles", code=302)


@bp.get("/puzzles/daily")
def page_daily() -> ResponseReturnValue:
    return redirect(f"/puzzles/{puzzle_code(_daily(_date()))}", code=302)


@bp.get("/puzzles/sheet")
def page_sheet() -> Response:
    lang = _lang(strict=False)
    difficulty = _difficulty()
    try:
        count = int(request.args.get("count", "6"))
    except ValueError:
        raise InvalidInput("count must be an integer", "count") from None
    if not 1 <= count <= MAX_SHEET:
        raise InvalidInput(f"count must be 1-{MAX_SHEET}, got {count}", "count")
    seed = parse_seed(request.args.get("seed", "1"), "seed")
    if _flag("print"):
        html = render_sheet(
            sheet_puzzles(count, difficulty, seed), lang=lang, difficulty=difficulty
        )
        return Response(html, mimetype="text/html")
    return _render(
        "puzzles/sheet_page.html",
        lang,
        count=count,
        difficulty=difficulty,
        seed=seed,
        difficulties=DIFFICULTIES,
        max_sheet=MAX_SHEET,
    )


@bp.get("/puzzles/<code>")
def page_puzzle(code: str) -> Response:
    lang = _lang(strict=False)
    try:
        p = _by_code(code)
    except ProjectError as e:  # a mistyped link: the site's 404 page, not the API's JSON
        raise NotFound(str(e), "code", reason="no_such_puzzle") from e
    svg = render_svg(
        p.island,
        size=26,
        title=p.island.name or "island",
        space_titles=place_names(p.island, lang),
    )
    clues = [clue_text(p, i, lang) for i in range(len(p.clues))]
    return _render(
        "puzzles/puzzle.html",
        lang,
        p=p,
        code=puzzle_code(p),
        svg=svg,
        clues=clues,
        grade_range=_range_text(p.grade.level, lang),
        strings_json=json.dumps(page_strings()[lang], ensure_ascii=False).replace("<", "\\u003c"),
    )
