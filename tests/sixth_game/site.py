"""Nim's web descriptor, as ``web/nim_pages.py`` would hold it if Nim were built in: the
new-game page (the shared template, worded by ``nim.*`` and the shared ``page.*`` words), the
lobby, the generic game and join pages (Nim has no game page of its own), its stylesheet (served
from this folder at ``/static/nim/``) and its review (the generic renderer, a small analyst)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint

from games.analysis import Analyst, Judgement, Thresholds
from tests.sixth_game.engine import NAME, best_take
from web.game_pages import render_new_game
from web.game_site import GameSite, NewGamePage, OptionField, site_of

HERE = Path(__file__).resolve().parent

bp = Blueprint(
    f"{NAME}_pages", __name__, static_folder=HERE / "static", static_url_path=f"/static/{NAME}"
)


@bp.get(f"/{NAME}/new")
def new_game() -> str:
    return render_new_game(site_of(NAME))


def judge(view: dict, legal: list[dict], played: dict) -> Judgement | None:
    """A take is worth 1 when it leaves a multiple of 4 (the winning rule), else 0; a position
    with no such take is unrated (every take loses against good play)."""
    best = best_take(view["pile"], legal)
    if (view["pile"] - best["count"]) % 4 != 0:
        return None
    worth = 1.0 if (view["pile"] - played["count"]) % 4 == 0 else 0.0
    return Judgement(worth, 1.0, best, len(legal), {"left": view["pile"] - played["count"]})


ANALYST = Analyst("points", "score", Thresholds(good=0.25, inaccuracy=0.75), judge)

SITE = GameSite(
    NAME,
    blueprints=(bp,),
    blurb=f"{NAME}.home_text",
    stylesheet=f"{NAME}/{NAME}.css",
    strings=(f"{NAME}.",),
    new_page=NewGamePage(
        f"{NAME}.",
        seats=("me", "bot:normal"),
        seat_types=("me", "friend", "anyone", "bot"),
        options=(
            OptionField("pile", "number", f"{NAME}.opt_pile", error=f"{NAME}.err_pile"),
            OptionField("turn_seconds", "turn"),
        ),
    ),
    analyst=ANALYST,
)
