"""The review pages: step through a finished game of any kind, from any seat, with its analysis.

- ``/<kind>/games/<id>/review[?step=k&seat=i]``: one template (``templates/review/review.html``)
  and one controller script (``static/review/review.js``) for every registered kind; what is
  drawn for a position comes from the kind's renderer, ``static/review/<kind>.js`` (reusing that
  game's own page modules), or ``static/review/generic.js`` for a kind without one. The
  renderer and what it needs besides its strings (the stylesheet, the data script, the string
  prefixes its modules read) come from the kind's descriptor (``web.game_site.GameSite``).
- ``/<kind>/games/<id>/review/chart.svg``: the analysis chart (``web.review_chart``) in the
  reader's language, once the analysis is done (404 before).
- ``/review``: finished games to review (every kind) and a form that imports a record
  (``POST /api/games/import``) and opens its review.

The pages read the public API (``/api/games/<id>``, its events, ``positions``, ``analysis``)
like any client.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template

from errors import ProjectError
from games.base import kinds
from web.game_pages import check_game_id
from web.game_site import site_or_404
from web.i18n import current_lang, translate
from web.review import reviews
from web.review_chart import chart_svg

bp = Blueprint("review_pages", __name__)


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
    site = site_or_404(kind)
    check_game_id(game_id)
    lang = current_lang()
    return render_template(
        "review/review.html",
        kind=kind,
        game_id=game_id,
        site=site,
        data_script=site.data_tag(lang),
        title=translate(lang, site.title),
    )


@bp.get("/<kind>/games/<game_id>/review/chart.svg")
def review_chart(kind: str, game_id: str):
    site_or_404(kind)
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
