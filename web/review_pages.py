"""The review pages: step through a finished game of any kind, from any seat, with its analysis.

- ``/<kind>/games/<id>/review[?step=k&seat=i]``: one template (``templates/review/review.html``)
  and one controller script (``static/review/review.js``) for every registered kind; what is
  drawn for a position comes from the kind's renderer, ``static/review/<kind>.js`` (reusing that
  game's own page modules), or ``static/review/generic.js`` for a kind without one. What each
  kind's page needs besides its strings (its stylesheet, its data script, the string prefixes
  its modules read) is the small table ``PAGES`` below; a kind missing from it gets the generic
  page.
- ``/<kind>/games/<id>/review/chart.svg``: the analysis chart (``web.review_chart``) in the
  reader's language, once the analysis is done (404 before).
- ``/review``: finished games to review (every kind) and a form that imports a record
  (``POST /api/games/import``) and opens its review.

The pages read the public API (``/api/games/<id>``, its events, ``positions``, ``analysis``)
like any client.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Response, abort, render_template
from markupsafe import Markup

from errors import ProjectError
from games.base import kinds
from web.game_pages import check_game_id
from web.i18n import current_lang, script_json, translate
from web.review import reviews
from web.review_chart import chart_svg

bp = Blueprint("review_pages", __name__)
STATIC = Path(__file__).resolve().parent.parent / "static"


def _dao_data(lang: str) -> str:
    from web.dao_pages import page_data

    return f'<script type="application/json" id="dao-data">{script_json(page_data(lang))}</script>'


def _isla_data(lang: str) -> str:
    from web.isla_dorada_pages import page_data

    return f'<script type="application/json" id="isla-data">{script_json(page_data())}</script>'


def _dg_data(lang: str) -> str:
    from web.dragons_gold_pages import page_data

    return f'<script type="application/json" id="dg-data">{script_json(page_data(lang))}</script>'


@dataclass(frozen=True)
class ReviewPage:
    """What a kind's review page loads besides the shared parts."""

    stylesheet: str | None = None
    #: String prefixes the kind's page modules read (with ``review.``).
    strings: tuple[str, ...] = ()
    clues: bool = False
    data: Callable[[str], str] | None = None


PAGES: dict[str, ReviewPage] = {
    "tobago": ReviewPage(
        "tobago/tobago.css", ("game.", "ev.", "helper.", "seat.", "act."), clues=True
    ),
    "dao": ReviewPage("dao/dao.css", ("dao.",), data=_dao_data),
    "isla_dorada": ReviewPage("isla_dorada/isla.css", ("isla.",), data=_isla_data),
    "dragons_gold": ReviewPage("dragons_gold/dg.css", ("dg.",), data=_dg_data),
}
GENERIC = ReviewPage()


def _kind_or_404(kind: str) -> None:
    if kind not in kinds():
        abort(404)


def renderer_of(kind: str) -> str:
    """The renderer module's static path for ``kind`` (``review/generic.js`` if it has none)."""
    own = f"review/{kind}.js"
    return own if (STATIC / own).exists() else "review/generic.js"


def seat_label(lang: str, seat: dict) -> str:
    """A seat's name for the chart's legend: its name, else "Seat n" or "Seat n (bot)"."""
    n = seat["index"] + 1
    if seat.get("name") and not (seat["type"] == "bot" and seat["name"] == f"{seat['level']} bot"):
        return f"{n}. {seat['name']}"
    if seat["type"] != "bot":
        return translate(lang, "review.seat_n", n=n)
    level = seat.get("level") or ""
    return translate(lang, "review.seat_bot", n=n, level=translate(lang, f"review.level_{level}"))


@bp.get("/review")
def review_hub():
    return render_template("review/hub.html", kinds=sorted(kinds()))


@bp.get("/<kind>/games/<game_id>/review")
def review_page(kind: str, game_id: str):
    _kind_or_404(kind)
    check_game_id(game_id)
    page = PAGES.get(kind, GENERIC)
    lang = current_lang()
    return render_template(
        "review/review.html",
        kind=kind,
        game_id=game_id,
        page=page,
        renderer=renderer_of(kind),
        data_script=Markup(page.data(lang)) if page.data else "",
        title=translate(lang, f"games.{kind}.title"),
    )


@bp.get("/<kind>/games/<game_id>/review/chart.svg")
def review_chart(kind: str, game_id: str):
    _kind_or_404(kind)
    check_game_id(game_id)
    service = reviews()
    try:
        game = service.finished(game_id)
        result = service.stored_analysis(game_id)
    except ProjectError:
        abort(404)
    if game.kind != kind or result is None:
        abort(404)
    lang = current_lang()
    measure = result["chart"]["measure"]
    names = [seat_label(lang, s) for s in game.public_seats()]
    svg = chart_svg(
        result["chart"]["values"],
        names,
        title=translate(lang, f"review.chart_{measure}"),
        description=translate(lang, "review.chart_desc", steps=result["steps"]),
        x_label=translate(lang, "review.chart_x"),
        y_label=translate(lang, f"review.chart_y_{measure}"),
    )
    resp = Response(svg, mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "private, max-age=60"
    return resp
