"""The review pages: step through a finished game of any kind, from any seat, with its analysis.

- ``/<kind>/games/<id>/review[?step=k&seat=i]``: one template (``templates/review/review.html``)
  and one controller script (``static/review/review.js``) for every registered kind; what is
  drawn for a position comes from the kind's renderer, ``static/review/<kind>.js`` (reusing that
  game's own page modules), or ``static/review/generic.js`` for a kind without one; its styles
  on the review page, ``static/review/<kind>.css`` when it has any (after the shared
  ``review.css``, which keeps only what every review shows). The
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

from functools import cache
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, render_template, request

from errors import InvalidInput, ProjectError
from games.base import kinds
from web.accounts_pages import page_account
from web.game_pages import account_seat, check_game_id
from web.game_site import site_or_404
from web.i18n import current_lang, translate
from web.review import reviews
from web.review_chart import chart_svg
from web.seat_names import seat_name

bp = Blueprint("review_pages", __name__)


@bp.get("/review")
def review_hub() -> str:
    return render_template("review/hub.html", kinds=sorted(kinds()))


def _reader_seat(game_id: str) -> int | None:
    """The seat the signed-in reader played in the game (named "you", static/common/seats.js);
    the store is read for a signed-in reader only (a guest's seat is known by its token)."""
    if page_account() is None:
        return None
    try:
        game = reviews().finished(game_id)
    except ProjectError:
        return None  # not finished, or no such game: the page says so
    return account_seat(game)


@bp.get("/<kind>/games/<game_id>/review")
def review_page(kind: str, game_id: str) -> str:
    site = site_or_404(kind)
    check_game_id(game_id)
    lang = current_lang()
    return render_template(
        "review/review.html",
        kind=kind,
        game_id=game_id,
        account_seat=_reader_seat(game_id),
        site=site,
        data_script=site.data_tag(lang),
        title=translate(lang, site.title),
        review_stylesheet=review_stylesheet(current_app.static_folder or "", kind),
    )


@cache
def review_stylesheet(static_folder: str, kind: str) -> str | None:
    """The kind's own styles for its review page, ``review/<kind>.css`` under ``static/``, if it
    has any (looked for once per kind)."""
    path = f"review/{kind}.css"
    return path if (Path(static_folder) / path).is_file() else None


def _you_arg(seats: int) -> int | None:
    """``you``: the seat the reader played (its page knows it: a token or the account), named
    "(you)" in the legend as on the page; absent: none. Not a seat of the game: 400."""
    raw = request.args.get("you")
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 2 or int(raw) >= seats:
        raise InvalidInput(
            f"you must be a seat of the game, got {raw!r}", "you", reason="no_such_seat"
        )
    return int(raw)


@bp.get("/<kind>/games/<game_id>/review/chart.svg")
def review_chart(kind: str, game_id: str) -> Response:
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
    seats = game.public_seats()
    you = _you_arg(len(seats))
    names = [seat_name(lang, s, you) for s in seats]
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
